"""The timeline tables of the SQLite store: segments, versioned TOC nodes, grips, job state.

TOC nodes are never changed in place (seed 002): each update inserts a new version and
moves the `toc_latest` pointer, so every version stays readable. A scope is a
conversation and an agent ('' outside unified mode); node ids are unique within one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from memoir.model.timeline import Grip, Segment, TocBullet, TocLevel, TocNode
from memoir.store.sqlite_parts import SQLiteParts

__all__ = ["SQLiteTimelineTables"]

_SEGMENT = (
    "segment_id, conversation_id, agent_id, session_id, start_ms, end_ms, token_count, event_ids, overlap_ids, state"
)
_GRIP = "grip_id, excerpt, event_id_start, event_id_end, timestamp_ms, source, toc_node_id, conversation_id, agent_id"


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _span(node: TocNode) -> tuple[int, int]:
    return _ms(node.start_time), _ms(node.end_time)


def _time(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def _segment(row: Sequence[Any]) -> Segment:
    segment_id, conversation_id, agent_id, session_id, start, end, tokens, events, overlap, state = row
    return Segment(
        segment_id, conversation_id, session_id, tuple(json.loads(events)), start, end, tokens,
        tuple(json.loads(overlap)), agent_id or None, state,
    )  # fmt: skip


def _body(node: TocNode) -> str:
    return json.dumps(
        {
            "level": node.level.value,
            "title": node.title,
            "start_ms": _ms(node.start_time),
            "end_ms": _ms(node.end_time),
            "bullets": [[b.text, list(b.grip_ids)] for b in node.bullets],
            "keywords": list(node.keywords),
            "children": list(node.child_node_ids),
            "parent_id": node.parent_id,
            "source": node.source,
            "note": node.note,
        },
        ensure_ascii=False,
    )


def _node(conversation_id: str, agent_id: str, node_id: str, version: int, created_ms: int, body: str) -> TocNode:
    data = json.loads(body)
    return TocNode(
        node_id=node_id,
        level=TocLevel(data["level"]),
        title=data["title"],
        start_time=_time(data["start_ms"]),
        end_time=_time(data["end_ms"]),
        bullets=tuple(TocBullet(text, tuple(grips)) for text, grips in data["bullets"]),
        keywords=tuple(data["keywords"]),
        child_node_ids=tuple(data["children"]),
        version=version,
        created_at=_time(created_ms),
        conversation_id=conversation_id,
        agent_id=agent_id or None,
        parent_id=data["parent_id"],
        source=data["source"],
        note=data["note"],
    )


def _grip(row: Sequence[Any]) -> Grip:
    grip_id, excerpt, start, end, ms, source, node_id, conversation_id, agent_id = row
    return Grip(grip_id, excerpt, start, end, _time(ms), source, node_id, conversation_id, agent_id or None)


class SQLiteTimelineTables(SQLiteParts):
    """Mixed into SQLiteStore; relies on its `_conn`, `_read`, `atomic` and `_translated`."""

    # -- segments -------------------------------------------------------------------------

    def segment_open(self, conversation_id: str, agent_id: str | None, session_id: str) -> Segment | None:
        rows = self._read(
            f"SELECT {_SEGMENT} FROM segments WHERE conversation_id = ? AND agent_id = ? AND session_id = ?"
            " AND state = 'open' LIMIT 1",
            (conversation_id, agent_id or "", session_id),
        )
        return _segment(rows[0]) if rows else None

    def segment_save(self, segment: Segment) -> None:
        with self._translated(), self.atomic():
            self._conn().execute(
                f"INSERT OR REPLACE INTO segments ({_SEGMENT}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    segment.segment_id, segment.conversation_id, segment.agent_id or "", segment.session_id,
                    segment.start_ms, segment.end_ms, segment.token_count, json.dumps(list(segment.event_ids)),
                    json.dumps(list(segment.overlap_event_ids)), segment.state,
                ),
            )  # fmt: skip

    def segments(self, state: str, *, ended_before_ms: int | None = None, limit: int = 100) -> list[Segment]:
        """Segments in a state, oldest first (open ones: only those whose last event is before `ended_before_ms`)."""
        until = ended_before_ms if ended_before_ms is not None else 2**62
        rows = self._read(
            f"SELECT {_SEGMENT} FROM segments WHERE state = ? AND end_ms < ? ORDER BY end_ms, segment_id LIMIT ?",
            (state, until, limit),
        )
        return [_segment(row) for row in rows]

    def segment_counts(self, ended_before_ms: int | None = None) -> dict[str, int]:
        """Segments per state (only those whose last event is before `ended_before_ms`, when given)."""
        until = ended_before_ms if ended_before_ms is not None else 2**62
        return dict(self._read("SELECT state, count(*) FROM segments WHERE end_ms < ? GROUP BY state", (until,)))

    # -- TOC nodes ------------------------------------------------------------------------

    def toc_put(self, node: TocNode, grips: Sequence[Grip] = (), *, created_ms: int) -> TocNode:
        """Store `node` as its next version (or keep the latest, when nothing changed), with its grips."""
        scope = (node.conversation_id, node.agent_id or "")
        with self._translated(), self.atomic():
            conn = self._conn()
            # The last version stored, pointed to or not: a migration may drop pointers to have a
            # level rebuilt (decision 91), and the versions before stay readable under their numbers.
            found = conn.execute(
                "SELECT version, created_ms, body FROM toc_nodes WHERE conversation_id = ? AND agent_id = ?"
                " AND node_id = ? ORDER BY version DESC LIMIT 1",
                (*scope, node.node_id),
            ).fetchone()
            if found is not None and _node(*scope, node.node_id, *found).same_content(node):  # rolled up, unchanged
                version, created = found[0], found[1]
            else:
                version, created = (found[0] if found else 0) + 1, created_ms
                conn.execute(
                    "INSERT INTO toc_nodes VALUES (?, ?, ?, ?, ?, ?)",
                    (*scope, node.node_id, version, created, _body(node)),
                )
            conn.execute(
                "INSERT OR REPLACE INTO toc_latest VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*scope, node.node_id, version, node.level.value, node.parent_id, *_span(node), created, created_ms),
            )
            conn.executemany(
                f"INSERT OR IGNORE INTO grips ({_GRIP}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (g.grip_id, g.excerpt, g.event_id_start, g.event_id_end, _ms(g.timestamp), g.source,
                     g.toc_node_id, g.conversation_id, g.agent_id or "")
                    for g in grips
                ],
            )  # fmt: skip
        stored = self.toc_get(node.conversation_id, node.agent_id, node.node_id)
        assert stored is not None
        return stored

    def toc_get(
        self, conversation_id: str, agent_id: str | None, node_id: str, version: int | None = None
    ) -> TocNode | None:
        scope = (conversation_id, agent_id or "")
        if version is None:
            rows = self._read(
                "SELECT n.version, n.created_ms, n.body FROM toc_latest l JOIN toc_nodes n USING"
                " (conversation_id, agent_id, node_id, version)"
                " WHERE l.conversation_id = ? AND l.agent_id = ? AND l.node_id = ?",
                (*scope, node_id),
            )
        else:
            rows = self._read(
                "SELECT version, created_ms, body FROM toc_nodes"
                " WHERE conversation_id = ? AND agent_id = ? AND node_id = ? AND version = ?",
                (*scope, node_id, version),
            )
        return _node(*scope, node_id, *rows[0]) if rows else None

    def toc_scopes_of(self, node_id: str, agent_id: str | None) -> list[str]:
        """The conversations (of one agent, or of none) that hold a node with this id."""
        rows = self._read(
            "SELECT conversation_id FROM toc_latest WHERE node_id = ? AND agent_id = ? ORDER BY conversation_id",
            (node_id, agent_id or ""),
        )
        return [row[0] for row in rows]

    def toc_children(
        self,
        conversation_id: str,
        agent_id: str | None,
        parent_id: str | None,
        *,
        after: tuple[int, str] | None = None,
        limit: int = 1000,
        level: TocLevel | None = None,
    ) -> list[TocNode]:
        """Latest versions of a node's children (the roots when `parent_id` is None), in time order."""
        where = ["l.conversation_id = ?", "l.agent_id = ?", "l.parent_id IS ?"]
        params: list[Any] = [conversation_id, agent_id or "", parent_id]
        if level is not None:
            where.append("l.level = ?")
            params.append(level.value)
        if after is not None:
            where.append("(l.start_ms, l.node_id) > (?, ?)")
            params.extend(after)
        rows = self._read(
            "SELECT l.node_id, n.version, n.created_ms, n.body FROM toc_latest l JOIN toc_nodes n USING"
            f" (conversation_id, agent_id, node_id, version) WHERE {' AND '.join(where)}"
            " ORDER BY l.start_ms, l.node_id LIMIT ?",
            [*params, limit],
        )
        return [_node(conversation_id, agent_id or "", *row) for row in rows]

    def toc_stale_parents(self, level: TocLevel) -> list[tuple[str, str | None, str, bool]]:
        """(conversation, agent, parent id, parent missing) for every `level` node whose parent
        is missing or older than it."""
        rows = self._read(
            "SELECT c.conversation_id, c.agent_id, c.parent_id, max(p.node_id IS NULL) FROM toc_latest c"
            " LEFT JOIN toc_latest p ON p.conversation_id = c.conversation_id AND p.agent_id = c.agent_id"
            " AND p.node_id = c.parent_id"
            " WHERE c.level = ? AND c.parent_id IS NOT NULL AND (p.node_id IS NULL OR p.built_ms < c.created_ms)"
            " GROUP BY c.conversation_id, c.agent_id, c.parent_id ORDER BY c.conversation_id, c.agent_id, c.parent_id",
            (level.value,),
        )
        return [(conversation, agent or None, parent, bool(missing)) for conversation, agent, parent, missing in rows]

    def toc_conversations(self, agent_id: str | None, *, all_agents: bool = False) -> list[tuple[str, str | None]]:
        """(conversation, agent) scopes that have a timeline."""
        if all_agents:
            rows = self._read("SELECT DISTINCT conversation_id, agent_id FROM toc_latest ORDER BY 1, 2")
        else:
            rows = self._read(
                "SELECT DISTINCT conversation_id, agent_id FROM toc_latest WHERE agent_id = ? ORDER BY 1",
                (agent_id or "",),
            )
        return [(conversation, agent or None) for conversation, agent in rows]

    def toc_count(self) -> int:
        return int(self._read("SELECT count(*) FROM toc_latest")[0][0])

    # -- grips ----------------------------------------------------------------------------

    def grip_get(self, grip_id: str) -> Grip | None:
        rows = self._read(f"SELECT {_GRIP} FROM grips WHERE grip_id = ?", (grip_id,))
        return _grip(rows[0]) if rows else None

    def grips_get(self, grip_ids: Sequence[str]) -> dict[str, Grip]:
        rows = self._read_in(f"SELECT {_GRIP} FROM grips WHERE grip_id IN ({{marks}})", list(grip_ids))
        return {row[0]: _grip(row) for row in rows}

    # -- conversation summaries (the files are in the vault; this is what they cover) ---------

    def conversation_sizes(self, by_agent: bool) -> dict[tuple[str, str | None], tuple[int, int]]:
        """(conversation, agent or None) -> (events, last event ms), from the session catalogue."""
        agent = "agent_id" if by_agent else "''"
        rows = self._read(
            f"SELECT conversation_id, {agent}, sum(event_count), max(last_ms) FROM sessions GROUP BY 1, 2"
        )
        return {(conversation, who or None): (events, last) for conversation, who, events, last in rows}

    def summary_marks(self) -> dict[tuple[str, str | None], int]:
        """(conversation, agent) -> events its summary covered when it was last written."""
        rows = self._read("SELECT conversation_id, agent_id, events FROM conversation_summaries")
        return {(conversation, agent or None): events for conversation, agent, events in rows}

    def summary_mark(self, conversation_id: str, agent_id: str | None, events: int, level: str, at_ms: int) -> None:
        with self._translated(), self.atomic():
            self._conn().execute(
                "INSERT OR REPLACE INTO conversation_summaries VALUES (?, ?, ?, ?, ?)",
                (conversation_id, agent_id or "", events, level, at_ms),
            )

    # -- the scheduler's job state --------------------------------------------------------

    def job_states(self) -> dict[str, tuple[bool, int | None, int, int, str | None]]:
        """name -> (paused, last run ms, runs, failures, last error)."""
        rows = self._read("SELECT name, paused, last_run_ms, runs, failures, last_error FROM jobs")
        return {name: (bool(paused), last, runs, failures, error) for name, paused, last, runs, failures, error in rows}

    def job_pause(self, name: str, paused: bool) -> None:
        with self._translated(), self.atomic():
            self._conn().execute(
                "INSERT INTO jobs (name, paused) VALUES (?, ?)"
                " ON CONFLICT (name) DO UPDATE SET paused = excluded.paused",
                (name, int(paused)),
            )

    def job_ran(self, name: str, at_ms: int, error: str | None = None, done: int = 1) -> None:
        """A periodic job's run: the work it did counted, and its failure (if any) kept for status."""
        with self._translated(), self.atomic():
            self._conn().execute(
                "INSERT INTO jobs (name, last_run_ms, runs, failures, last_error) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET last_run_ms = excluded.last_run_ms, runs = runs + excluded.runs,"
                " failures = failures + excluded.failures, last_error = coalesce(excluded.last_error, last_error)",
                (name, at_ms, done if error is None else 0, int(error is not None), error),
            )

    def paused_jobs(self) -> set[str]:
        return {row[0] for row in self._read("SELECT name FROM jobs WHERE paused = 1")}
