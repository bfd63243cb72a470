"""The timeline tables (both backends): segments, versioned TOC nodes, grips, job state.

TOC nodes are never changed in place (seed 002): each update inserts a new version and
moves the `toc_latest` pointer, so every version stays readable. A scope is a conversation
and an agent ('' outside unified mode); node ids are unique within one.

Written for many writers: where a read and the write that follows must be one step
(`toc_put`), writers of one node take turns (`_take_turns`: nothing to do on SQLite, whose
single writer makes it so; an advisory lock on PostgreSQL). Every other write is one
statement, an upsert whose row lock serializes writers of one row. Orders are always said,
so pages come alike from both engines.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from memoir.model.timeline import Grip, Segment, TocBullet, TocLevel, TocNode
from memoir.store.sql.parts import SQLParts, upsert

__all__ = ["TimelineTables"]

_SEGMENT = (
    "segment_id", "conversation_id", "agent_id", "session_id", "start_ms", "end_ms", "token_count", "event_ids",
    "overlap_ids", "state",
)  # fmt: skip
_SEGMENT_COLUMNS = ", ".join(_SEGMENT)
_GRIP = "grip_id, excerpt, event_id_start, event_id_end, timestamp_ms, source, toc_node_id, conversation_id, agent_id"
_LATEST = (
    "conversation_id", "agent_id", "node_id", "version", "level", "parent_id", "start_ms", "end_ms", "created_ms",
    "built_ms",
)  # fmt: skip
_SAVE_SEGMENT = upsert("segments", _SEGMENT, ("segment_id",))
_SAVE_LATEST = upsert("toc_latest", _LATEST, ("conversation_id", "agent_id", "node_id"))
_SAVE_SUMMARY = upsert(
    "conversation_summaries",
    ("conversation_id", "agent_id", "events", "level", "updated_ms"),
    ("conversation_id", "agent_id"),
)


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


class TimelineTables(SQLParts):
    # -- segments -------------------------------------------------------------------------

    def segment_open(self, conversation_id: str, agent_id: str | None, session_id: str) -> Segment | None:
        rows = self._rows(
            f"SELECT {_SEGMENT_COLUMNS} FROM segments WHERE conversation_id = ? AND agent_id = ? AND session_id = ?"
            " AND state = 'open' ORDER BY start_ms, segment_id LIMIT 1",
            (conversation_id, agent_id or "", session_id),
        )
        return _segment(rows[0]) if rows else None

    def segment_save(self, segment: Segment) -> None:
        with self._translated(), self.atomic():
            self._run(
                _SAVE_SEGMENT,
                (
                    segment.segment_id, segment.conversation_id, segment.agent_id or "", segment.session_id,
                    segment.start_ms, segment.end_ms, segment.token_count, json.dumps(list(segment.event_ids)),
                    json.dumps(list(segment.overlap_event_ids)), segment.state,
                ),
            )  # fmt: skip

    def segments(self, state: str, *, ended_before_ms: int | None = None, limit: int = 100) -> list[Segment]:
        """Segments in a state, oldest first (open ones: only those whose last event is before `ended_before_ms`)."""
        until = ended_before_ms if ended_before_ms is not None else 2**62
        rows = self._rows(
            f"SELECT {_SEGMENT_COLUMNS} FROM segments WHERE state = ? AND end_ms < ?"
            " ORDER BY end_ms, segment_id LIMIT ?",
            (state, until, limit),
        )
        return [_segment(row) for row in rows]

    def segment_counts(self, ended_before_ms: int | None = None) -> dict[str, int]:
        """Segments per state (only those whose last event is before `ended_before_ms`, when given)."""
        until = ended_before_ms if ended_before_ms is not None else 2**62
        rows = self._rows("SELECT state, count(*) FROM segments WHERE end_ms < ? GROUP BY state", (until,))
        return {state: int(count) for state, count in rows}

    # -- TOC nodes ------------------------------------------------------------------------

    def toc_put(self, node: TocNode, grips: Sequence[Grip] = (), *, created_ms: int) -> TocNode:
        """Store `node` as its next version (or keep the latest, when nothing changed), with its grips."""
        scope = (node.conversation_id, node.agent_id or "")
        with self._translated(), self.atomic():
            # The next version is read, then written: two writers of one node would both read
            # version n and both write n + 1. A row lock cannot cover a node not yet stored,
            # so they take turns on the node's key to the end of the transaction.
            self._take_turns("toc:" + json.dumps([*scope, node.node_id]))
            # The last version stored, pointed to or not: a migration may drop pointers to have a
            # level rebuilt (decision 91), and the versions before stay readable under their numbers.
            found = self._run(
                "SELECT version, created_ms, body FROM toc_nodes WHERE conversation_id = ? AND agent_id = ?"
                " AND node_id = ? ORDER BY version DESC LIMIT 1",
                (*scope, node.node_id),
            ).fetchone()
            if found is not None and _node(*scope, node.node_id, *found).same_content(node):  # rolled up, unchanged
                version, created = found[0], found[1]
            else:
                version, created = (found[0] if found else 0) + 1, created_ms
                self._run(
                    "INSERT INTO toc_nodes (conversation_id, agent_id, node_id, version, created_ms, body)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (*scope, node.node_id, version, created, _body(node)),
                )
            self._run(
                _SAVE_LATEST,
                (*scope, node.node_id, version, node.level.value, node.parent_id, *_span(node), created, created_ms),
            )
            rows = [
                (g.grip_id, g.excerpt, g.event_id_start, g.event_id_end, _ms(g.timestamp), g.source,
                 g.toc_node_id, g.conversation_id, g.agent_id or "")
                for g in grips
            ]  # fmt: skip
            # In id order: two transactions inserting the same grips wait on each other in one
            # order, never in a circle. The first stored copy of a grip stays.
            rows.sort(key=lambda row: row[0])
            self._run_many(
                f"INSERT INTO grips ({_GRIP}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", rows
            )
            # Read back in the same transaction: the version just written, not a later one of another writer.
            stored = self.toc_get(node.conversation_id, node.agent_id, node.node_id)
        assert stored is not None
        return stored

    def toc_get(
        self, conversation_id: str, agent_id: str | None, node_id: str, version: int | None = None
    ) -> TocNode | None:
        scope = (conversation_id, agent_id or "")
        if version is None:
            rows = self._rows(
                "SELECT n.version, n.created_ms, n.body FROM toc_latest l JOIN toc_nodes n USING"
                " (conversation_id, agent_id, node_id, version)"
                " WHERE l.conversation_id = ? AND l.agent_id = ? AND l.node_id = ?",
                (*scope, node_id),
            )
        else:
            rows = self._rows(
                "SELECT version, created_ms, body FROM toc_nodes"
                " WHERE conversation_id = ? AND agent_id = ? AND node_id = ? AND version = ?",
                (*scope, node_id, version),
            )
        return _node(*scope, node_id, *rows[0]) if rows else None

    def toc_scopes_of(self, node_id: str, agent_id: str | None) -> list[str]:
        """The conversations (of one agent, or of none) that hold a node with this id."""
        rows = self._rows(
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
        where = ["l.conversation_id = ?", "l.agent_id = ?"]
        params: list[Any] = [conversation_id, agent_id or ""]
        # `IS NULL` or `=`, not `IS ?`: PostgreSQL's index on (scope, parent_id, start_ms, node_id) serves only these.
        if parent_id is None:
            where.append("l.parent_id IS NULL")
        else:
            where.append("l.parent_id = ?")
            params.append(parent_id)
        if level is not None:
            where.append("l.level = ?")
            params.append(level.value)
        if after is not None:
            where.append("(l.start_ms, l.node_id) > (?, ?)")
            params.extend(after)
        rows = self._rows(
            "SELECT l.node_id, n.version, n.created_ms, n.body FROM toc_latest l JOIN toc_nodes n USING"
            f" (conversation_id, agent_id, node_id, version) WHERE {' AND '.join(where)}"
            " ORDER BY l.start_ms, l.node_id LIMIT ?",
            [*params, limit],
        )
        return [_node(conversation_id, agent_id or "", *row) for row in rows]

    def toc_stale_parents(self, level: TocLevel) -> list[tuple[str, str | None, str, bool]]:
        """(conversation, agent, parent id, parent missing) for every `level` node whose parent
        is missing or older than it."""
        rows = self._rows(
            "SELECT c.conversation_id, c.agent_id, c.parent_id, {any_true}(p.node_id IS NULL) FROM toc_latest c"
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
            rows = self._rows("SELECT DISTINCT conversation_id, agent_id FROM toc_latest ORDER BY 1, 2")
        else:
            rows = self._rows(
                "SELECT DISTINCT conversation_id, agent_id FROM toc_latest WHERE agent_id = ? ORDER BY 1",
                (agent_id or "",),
            )
        return [(conversation, agent or None) for conversation, agent in rows]

    def toc_count(self) -> int:
        return int(self._rows("SELECT count(*) FROM toc_latest")[0][0])

    # -- grips ----------------------------------------------------------------------------

    def grip_get(self, grip_id: str) -> Grip | None:
        rows = self._rows(f"SELECT {_GRIP} FROM grips WHERE grip_id = ?", (grip_id,))
        return _grip(rows[0]) if rows else None

    def grips_get(self, grip_ids: Sequence[str]) -> dict[str, Grip]:
        rows = self._rows_in(f"SELECT {_GRIP} FROM grips WHERE grip_id {{in}}", list(grip_ids))
        return {row[0]: _grip(row) for row in rows}

    # -- conversation summaries (the files are in the vault; this is what they cover) ---------

    def conversation_sizes(self, by_agent: bool) -> dict[tuple[str, str | None], tuple[int, int]]:
        """(conversation, agent or None) -> (events, last event ms), from the session catalogue."""
        agent, groups = ("agent_id", "conversation_id, agent_id") if by_agent else ("''", "conversation_id")
        rows = self._rows(
            f"SELECT conversation_id, {agent}, sum(event_count), max(last_ms) FROM sessions GROUP BY {groups}"
        )
        # int(): PostgreSQL's sum of a BIGINT is a NUMERIC (a Decimal in Python).
        return {(conversation, who or None): (int(events), int(last)) for conversation, who, events, last in rows}

    def summary_marks(self) -> dict[tuple[str, str | None], int]:
        """(conversation, agent) -> events its summary covered when it was last written."""
        rows = self._rows("SELECT conversation_id, agent_id, events FROM conversation_summaries")
        return {(conversation, agent or None): int(events) for conversation, agent, events in rows}

    def summary_mark(self, conversation_id: str, agent_id: str | None, events: int, level: str, at_ms: int) -> None:
        # One upsert: whoever else writes the mark at the same moment, the last to commit wins.
        with self._translated(), self.atomic():
            self._run(_SAVE_SUMMARY, (conversation_id, agent_id or "", events, level, at_ms))

    # -- the scheduler's job state --------------------------------------------------------

    def job_states(self) -> dict[str, tuple[bool, int | None, int, int, str | None]]:
        """name -> (paused, last run ms, runs, failures, last error)."""
        rows = self._rows("SELECT name, paused, last_run_ms, runs, failures, last_error FROM jobs")
        return {name: (bool(paused), last, runs, failures, error) for name, paused, last, runs, failures, error in rows}

    def job_pause(self, name: str, paused: bool) -> None:
        with self._translated(), self.atomic():
            self._run(
                "INSERT INTO jobs (name, paused) VALUES (?, ?)"
                " ON CONFLICT (name) DO UPDATE SET paused = excluded.paused",
                (name, int(paused)),
            )

    def job_ran(self, name: str, at_ms: int, error: str | None = None, done: int = 1) -> None:
        """A periodic job's run: the work it did counted, and its failure (if any) kept for status."""
        # The counters are added in the upsert itself, on the row it holds locked: processes that
        # finish runs at the same moment each add theirs, none reads a count another is changing.
        with self._translated(), self.atomic():
            self._run(
                "INSERT INTO jobs (name, last_run_ms, runs, failures, last_error) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET last_run_ms = excluded.last_run_ms,"
                " runs = jobs.runs + excluded.runs, failures = jobs.failures + excluded.failures,"
                " last_error = coalesce(excluded.last_error, jobs.last_error)",
                (name, at_ms, done if error is None else 0, int(error is not None), error),
            )

    def paused_jobs(self) -> set[str]:
        return {row[0] for row in self._rows("SELECT name FROM jobs WHERE paused = 1")}
