"""The timeline tables of the PostgreSQL store: segments, versioned TOC nodes, grips, job state.

A port of `sqlite_timeline`, row for row, and rows become segments, nodes and grips through
the SQLite module's own functions, so both backends read back the same objects. TOC nodes
are never changed in place (seed 002): each update inserts a new version and moves the
`toc_latest` pointer. A scope is a conversation and an agent ('' outside unified mode, as on
SQLite); node ids are unique within one.

Differences from SQLite, none visible to callers:
- ids and scopes are `COLLATE "C"`, so pages of children, scopes and segments come in the
  byte order SQLite's BINARY collation gives, whatever the database's locale;
- where SQLite took whichever row came first (an open segment), the order is said;
- several processes write at once, with no single-writer lock to make a read and the write
  that follows it one step: `toc_put` takes a lock per node (see there); every other write
  is one statement, an upsert whose row lock serializes writers of one row.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memoir.model.timeline import Grip, Segment, TocLevel, TocNode
from memoir.store.postgres.parts import TOC_NAMESPACE, PostgresParts
from memoir.store.sqlite_timeline import _body, _grip, _ms, _node, _segment, _span

__all__ = ["SCHEMA", "WEEKS_WITHIN_MONTHS", "PostgresTimelineTables"]

SCHEMA = """
CREATE TABLE segments (
    segment_id TEXT COLLATE "C" PRIMARY KEY,
    conversation_id TEXT COLLATE "C" NOT NULL,
    agent_id TEXT COLLATE "C" NOT NULL,
    session_id TEXT COLLATE "C" NOT NULL,
    start_ms BIGINT NOT NULL,
    end_ms BIGINT NOT NULL,
    token_count BIGINT NOT NULL,
    event_ids TEXT NOT NULL,
    overlap_ids TEXT NOT NULL,
    state TEXT NOT NULL
);
CREATE INDEX segments_of_session ON segments (conversation_id, agent_id, session_id, state);
CREATE INDEX segments_by_state ON segments (state, end_ms);
CREATE TABLE toc_nodes (
    conversation_id TEXT COLLATE "C" NOT NULL,
    agent_id TEXT COLLATE "C" NOT NULL,
    node_id TEXT COLLATE "C" NOT NULL,
    version INTEGER NOT NULL,
    created_ms BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (conversation_id, agent_id, node_id, version)
);
CREATE TABLE toc_latest (
    conversation_id TEXT COLLATE "C" NOT NULL,
    agent_id TEXT COLLATE "C" NOT NULL,
    node_id TEXT COLLATE "C" NOT NULL,
    version INTEGER NOT NULL,
    level TEXT NOT NULL,
    parent_id TEXT COLLATE "C",
    start_ms BIGINT NOT NULL,
    end_ms BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    built_ms BIGINT NOT NULL,
    PRIMARY KEY (conversation_id, agent_id, node_id)
);
CREATE INDEX toc_children ON toc_latest (conversation_id, agent_id, parent_id, start_ms, node_id);
CREATE INDEX toc_by_level ON toc_latest (level, conversation_id, agent_id);
-- Not on SQLite: `toc_scopes_of` looks a node id up across conversations.
CREATE INDEX toc_by_node ON toc_latest (node_id, agent_id);
CREATE TABLE grips (
    grip_id TEXT COLLATE "C" PRIMARY KEY,
    conversation_id TEXT COLLATE "C" NOT NULL,
    agent_id TEXT COLLATE "C" NOT NULL,
    toc_node_id TEXT COLLATE "C",
    excerpt TEXT NOT NULL,
    event_id_start TEXT NOT NULL,
    event_id_end TEXT NOT NULL,
    timestamp_ms BIGINT NOT NULL,
    source TEXT NOT NULL
);
CREATE TABLE conversation_summaries (
    conversation_id TEXT COLLATE "C" NOT NULL,
    agent_id TEXT COLLATE "C" NOT NULL,
    events BIGINT NOT NULL,
    level TEXT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (conversation_id, agent_id)
);
CREATE TABLE jobs (
    name TEXT PRIMARY KEY,
    paused INTEGER NOT NULL DEFAULT 0,
    last_run_ms BIGINT,
    runs BIGINT NOT NULL DEFAULT 0,
    failures BIGINT NOT NULL DEFAULT 0,
    last_error TEXT
);
"""

# SQLite's step 015: the calendar levels rebuilt by the next rollup, weeks cut at months' ends (decision 91).
WEEKS_WITHIN_MONTHS = "DELETE FROM toc_latest WHERE level IN ('day', 'week', 'month', 'year');"

_SEGMENT = (
    "segment_id, conversation_id, agent_id, session_id, start_ms, end_ms, token_count, event_ids, overlap_ids, state"
)
_GRIP = "grip_id, excerpt, event_id_start, event_id_end, timestamp_ms, source, toc_node_id, conversation_id, agent_id"
_LATEST = "conversation_id, agent_id, node_id, version, level, parent_id, start_ms, end_ms, created_ms, built_ms"


def _upsert(table: str, columns: str, key: str) -> str:
    """SQLite's INSERT OR REPLACE: the row of the same key gets every column anew."""
    names = [c.strip() for c in columns.split(",")]
    marks = ", ".join(["%s"] * len(names))
    changes = ", ".join(f"{c} = excluded.{c}" for c in names if c not in key.split(", "))
    return f"INSERT INTO {table} ({columns}) VALUES ({marks}) ON CONFLICT ({key}) DO UPDATE SET {changes}"


_SAVE_SEGMENT = _upsert("segments", _SEGMENT, "segment_id")
_SAVE_LATEST = _upsert("toc_latest", _LATEST, "conversation_id, agent_id, node_id")
_SAVE_SUMMARY = _upsert(
    "conversation_summaries", "conversation_id, agent_id, events, level, updated_ms", "conversation_id, agent_id"
)


class PostgresTimelineTables(PostgresParts):
    """Mixed into PostgresStore; relies on its `_conn`, `_read`, `atomic` and `_translated`."""

    # -- segments -------------------------------------------------------------------------

    def segment_open(self, conversation_id: str, agent_id: str | None, session_id: str) -> Segment | None:
        rows = self._read(
            f"SELECT {_SEGMENT} FROM segments WHERE conversation_id = %s AND agent_id = %s AND session_id = %s"
            " AND state = 'open' ORDER BY start_ms, segment_id LIMIT 1",
            (conversation_id, agent_id or "", session_id),
        )
        return _segment(rows[0]) if rows else None

    def segment_save(self, segment: Segment) -> None:
        with self._translated(), self.atomic():
            self._conn().execute(
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
        rows = self._read(
            f"SELECT {_SEGMENT} FROM segments WHERE state = %s AND end_ms < %s ORDER BY end_ms, segment_id LIMIT %s",
            (state, until, limit),
        )
        return [_segment(row) for row in rows]

    def segment_counts(self, ended_before_ms: int | None = None) -> dict[str, int]:
        """Segments per state (only those whose last event is before `ended_before_ms`, when given)."""
        until = ended_before_ms if ended_before_ms is not None else 2**62
        rows = self._read("SELECT state, count(*) FROM segments WHERE end_ms < %s GROUP BY state", (until,))
        return {state: int(count) for state, count in rows}

    # -- TOC nodes ------------------------------------------------------------------------

    def toc_put(self, node: TocNode, grips: Sequence[Grip] = (), *, created_ms: int) -> TocNode:
        """Store `node` as its next version (or keep the latest, when nothing changed), with its grips."""
        scope = (node.conversation_id, node.agent_id or "")
        with self._translated(), self.atomic():
            conn = self._conn()
            # The next version is read, then written: SQLite's single writer made that one step.
            # Here two processes putting one node would both read version n and both write n + 1
            # (the second failing on the key), or both find no node and both write version 1.
            # A row lock cannot cover a node not yet stored, so writers of one node take turns on
            # an advisory lock held to the end of the transaction; each statement after it sees
            # what the previous holder committed (READ COMMITTED takes a snapshot per statement).
            conn.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                (TOC_NAMESPACE, json.dumps([*scope, node.node_id])),
            )
            # The last version stored, pointed to or not, as on SQLite (decision 91).
            found = conn.execute(
                "SELECT version, created_ms, body FROM toc_nodes WHERE conversation_id = %s AND agent_id = %s"
                " AND node_id = %s ORDER BY version DESC LIMIT 1",
                (*scope, node.node_id),
            ).fetchone()
            if found is not None and _node(*scope, node.node_id, *found).same_content(node):  # rolled up, unchanged
                version, created = found[0], found[1]
            else:
                version, created = (found[0] if found else 0) + 1, created_ms
                conn.execute(
                    "INSERT INTO toc_nodes (conversation_id, agent_id, node_id, version, created_ms, body)"
                    " VALUES (%s, %s, %s, %s, %s, %s)",
                    (*scope, node.node_id, version, created, _body(node)),
                )
            conn.execute(
                _SAVE_LATEST,
                (*scope, node.node_id, version, node.level.value, node.parent_id, *_span(node), created, created_ms),
            )
            rows = [
                (g.grip_id, g.excerpt, g.event_id_start, g.event_id_end, _ms(g.timestamp), g.source,
                 g.toc_node_id, g.conversation_id, g.agent_id or "")
                for g in grips
            ]  # fmt: skip
            if rows:
                # In id order: two transactions inserting the same grips wait on each other in
                # one order, never in a circle. The first stored copy of a grip stays, as on SQLite.
                rows.sort(key=lambda row: row[0])
                conn.cursor().executemany(
                    f"INSERT INTO grips ({_GRIP}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    rows,
                )
            # Read back in the same transaction: the version just written, not a later one of another process.
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
                " WHERE l.conversation_id = %s AND l.agent_id = %s AND l.node_id = %s",
                (*scope, node_id),
            )
        else:
            rows = self._read(
                "SELECT version, created_ms, body FROM toc_nodes"
                " WHERE conversation_id = %s AND agent_id = %s AND node_id = %s AND version = %s",
                (*scope, node_id, version),
            )
        return _node(*scope, node_id, *rows[0]) if rows else None

    def toc_scopes_of(self, node_id: str, agent_id: str | None) -> list[str]:
        """The conversations (of one agent, or of none) that hold a node with this id."""
        rows = self._read(
            "SELECT conversation_id FROM toc_latest WHERE node_id = %s AND agent_id = %s ORDER BY conversation_id",
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
        where = ["l.conversation_id = %s", "l.agent_id = %s"]
        params: list[Any] = [conversation_id, agent_id or ""]
        # SQLite's `parent_id IS ?`, said so that the index on (scope, parent_id, start_ms, node_id) serves it.
        if parent_id is None:
            where.append("l.parent_id IS NULL")
        else:
            where.append("l.parent_id = %s")
            params.append(parent_id)
        if level is not None:
            where.append("l.level = %s")
            params.append(level.value)
        if after is not None:
            where.append("(l.start_ms, l.node_id) > (%s, %s)")
            params.extend(after)
        rows = self._read(
            "SELECT l.node_id, n.version, n.created_ms, n.body FROM toc_latest l JOIN toc_nodes n USING"
            f" (conversation_id, agent_id, node_id, version) WHERE {' AND '.join(where)}"
            " ORDER BY l.start_ms, l.node_id LIMIT %s",
            [*params, limit],
        )
        return [_node(conversation_id, agent_id or "", *row) for row in rows]

    def toc_stale_parents(self, level: TocLevel) -> list[tuple[str, str | None, str, bool]]:
        """(conversation, agent, parent id, parent missing) for every `level` node whose parent
        is missing or older than it."""
        rows = self._read(
            "SELECT c.conversation_id, c.agent_id, c.parent_id, bool_or(p.node_id IS NULL) FROM toc_latest c"
            " LEFT JOIN toc_latest p ON p.conversation_id = c.conversation_id AND p.agent_id = c.agent_id"
            " AND p.node_id = c.parent_id"
            " WHERE c.level = %s AND c.parent_id IS NOT NULL AND (p.node_id IS NULL OR p.built_ms < c.created_ms)"
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
                "SELECT DISTINCT conversation_id, agent_id FROM toc_latest WHERE agent_id = %s ORDER BY 1",
                (agent_id or "",),
            )
        return [(conversation, agent or None) for conversation, agent in rows]

    def toc_count(self) -> int:
        return int(self._read("SELECT count(*) FROM toc_latest")[0][0])

    # -- grips ----------------------------------------------------------------------------

    def grip_get(self, grip_id: str) -> Grip | None:
        rows = self._read(f"SELECT {_GRIP} FROM grips WHERE grip_id = %s", (grip_id,))
        return _grip(rows[0]) if rows else None

    def grips_get(self, grip_ids: Sequence[str]) -> dict[str, Grip]:
        if not grip_ids:
            return {}
        rows = self._read(f"SELECT {_GRIP} FROM grips WHERE grip_id = ANY(%s)", (list(grip_ids),))
        return {row[0]: _grip(row) for row in rows}

    # -- conversation summaries (the files are in the vault; this is what they cover) ---------

    def conversation_sizes(self, by_agent: bool) -> dict[tuple[str, str | None], tuple[int, int]]:
        """(conversation, agent or None) -> (events, last event ms), from the session catalogue."""
        agent, groups = ("agent_id", "conversation_id, agent_id") if by_agent else ("''", "conversation_id")
        rows = self._read(
            f"SELECT conversation_id, {agent}, sum(event_count), max(last_ms) FROM sessions GROUP BY {groups}"
        )
        # sum() of a BIGINT is a NUMERIC (a Decimal in Python): the count as SQLite gives it is an int.
        return {(conversation, who or None): (int(events), int(last)) for conversation, who, events, last in rows}

    def summary_marks(self) -> dict[tuple[str, str | None], int]:
        """(conversation, agent) -> events its summary covered when it was last written."""
        rows = self._read("SELECT conversation_id, agent_id, events FROM conversation_summaries")
        return {(conversation, agent or None): int(events) for conversation, agent, events in rows}

    def summary_mark(self, conversation_id: str, agent_id: str | None, events: int, level: str, at_ms: int) -> None:
        # One upsert: insert or replace in one step, whoever else writes the mark at the same
        # moment (the last to commit wins, as with SQLite's INSERT OR REPLACE).
        with self._translated(), self.atomic():
            self._conn().execute(_SAVE_SUMMARY, (conversation_id, agent_id or "", events, level, at_ms))

    # -- the scheduler's job state --------------------------------------------------------

    def job_states(self) -> dict[str, tuple[bool, int | None, int, int, str | None]]:
        """name -> (paused, last run ms, runs, failures, last error)."""
        rows = self._read("SELECT name, paused, last_run_ms, runs, failures, last_error FROM jobs")
        return {name: (bool(paused), last, runs, failures, error) for name, paused, last, runs, failures, error in rows}

    def job_pause(self, name: str, paused: bool) -> None:
        with self._translated(), self.atomic():
            self._conn().execute(
                "INSERT INTO jobs (name, paused) VALUES (%s, %s)"
                " ON CONFLICT (name) DO UPDATE SET paused = excluded.paused",
                (name, int(paused)),
            )

    def job_ran(self, name: str, at_ms: int, error: str | None = None, done: int = 1) -> None:
        """A periodic job's run: the work it did counted, and its failure (if any) kept for status."""
        # The counters are added in the upsert itself, on the row it holds locked: processes that
        # finish runs at the same moment each add theirs, none reads a count another is changing.
        with self._translated(), self.atomic():
            self._conn().execute(
                "INSERT INTO jobs (name, last_run_ms, runs, failures, last_error) VALUES (%s, %s, %s, %s, %s)"
                " ON CONFLICT (name) DO UPDATE SET last_run_ms = excluded.last_run_ms,"
                " runs = jobs.runs + excluded.runs, failures = jobs.failures + excluded.failures,"
                " last_error = coalesce(excluded.last_error, jobs.last_error)",
                (name, at_ms, done if error is None else 0, int(error is not None), error),
            )

    def paused_jobs(self) -> set[str]:
        return {row[0] for row in self._read("SELECT name FROM jobs WHERE paused = 1")}
