"""Schema migrations for the SQLite store: named steps, applied in order, recorded.

Each step is a function taking a connection inside the migration transaction;
its name is stored in `_migrations` once applied. Never edit a released step:
add a new one. Several processes may open a home at once, so steps run under
`BEGIN IMMEDIATE` and the list of applied steps is re-read inside it. The search index's
statements are in `search_schema.py`, as on PostgreSQL.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from memoir.model import now_ms
from memoir.store.sql import memories
from memoir.store.sql.dialect import SQLITE
from memoir.store.sqlite import search_schema

__all__ = ["IMPORTANT", "MIGRATIONS", "applied_migrations", "apply_migrations"]

# Memories tagged `important`: the partial index's condition, as the shared queries say it.
IMPORTANT = SQLITE.spell(memories.IMPORTANT)

Migration = Callable[[sqlite3.Connection], None]


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run statements one by one: `executescript` would commit the migration transaction."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            conn.execute(statement)
            statement = ""
    if statement.strip():
        raise ValueError(f"incomplete SQL statement in migration: {statement!r}")


def m001_events(conn: sqlite3.Connection) -> None:
    # rowid `seq` is arrival order; (timestamp_ms, event_id) is seed 002's key order.
    _run_script(
        conn,
        """
        CREATE TABLE events (
            seq INTEGER PRIMARY KEY,
            event_id TEXT NOT NULL UNIQUE,
            timestamp_ms INTEGER NOT NULL,
            session_id TEXT NOT NULL,
            conversation_id TEXT NOT NULL,
            agent_id TEXT,
            event_type TEXT NOT NULL,
            role TEXT NOT NULL,
            text TEXT NOT NULL,
            metadata TEXT NOT NULL,
            ingested_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX events_by_time ON events (timestamp_ms, event_id);
        CREATE INDEX events_by_conversation ON events (conversation_id, timestamp_ms, event_id);
        CREATE INDEX events_by_session ON events (session_id, timestamp_ms, event_id);
        -- The log is append-only: the database refuses to change or remove an event.
        CREATE TRIGGER events_are_immutable BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are immutable: the event log is append-only'); END;
        CREATE TRIGGER events_are_never_deleted BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'events are immutable: the event log is append-only'); END;
        """,
    )


def m002_outbox(conn: sqlite3.Connection) -> None:
    # `seq` is a plain rowid: a new entry always sorts after every entry still waiting, which is
    # all FIFO needs (AUTOINCREMENT would also forbid reuse after a full drain, at a cost per row).
    _run_script(
        conn,
        """
        CREATE TABLE outbox (
            seq INTEGER PRIMARY KEY,
            event_id TEXT NOT NULL,
            timestamp_ms INTEGER NOT NULL,
            action TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            not_before_ms INTEGER NOT NULL DEFAULT 0,
            failed_at_ms INTEGER
        ) STRICT;
        CREATE INDEX outbox_by_action ON outbox (action, seq);
        CREATE TABLE checkpoints (
            job TEXT PRIMARY KEY,
            last_seq INTEGER NOT NULL,
            processed INTEGER NOT NULL,
            failed INTEGER NOT NULL,
            updated_at_ms INTEGER NOT NULL
        ) STRICT;
        """,
    )


def m003_sessions(conn: sqlite3.Connection) -> None:
    # Derived by the track_session job; agent '' stands for "no agent" so it can be in the key.
    _run_script(
        conn,
        """
        CREATE TABLE sessions (
            conversation_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            agent_id TEXT NOT NULL,
            first_ms INTEGER NOT NULL,
            last_ms INTEGER NOT NULL,
            event_count INTEGER NOT NULL,
            started INTEGER NOT NULL,
            ended INTEGER NOT NULL,
            PRIMARY KEY (conversation_id, session_id, agent_id)
        ) STRICT;
        """,
    )


def m004_search(conn: sqlite3.Connection) -> None:
    _run_script(conn, search_schema.SEARCH)


def m005_memories(conn: sqlite3.Connection) -> None:
    # A mirror of the vault (the source of truth) for listing, history and the file snapshot:
    # `file_hash` lets a resync see which files a person changed.
    _run_script(
        conn,
        """
        CREATE TABLE memories (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            conversation_id TEXT NOT NULL,
            content TEXT NOT NULL,
            normalised TEXT NOT NULL,
            tags TEXT NOT NULL,
            severity TEXT,
            created_ms INTEGER NOT NULL,
            event_ids TEXT NOT NULL,
            source TEXT NOT NULL,
            replaced_by TEXT,
            deleted_ms INTEGER,
            path TEXT NOT NULL,
            file_hash TEXT NOT NULL
        ) STRICT;
        CREATE INDEX memories_by_scope ON memories (conversation_id, kind, created_ms);
        CREATE INDEX memories_by_content ON memories (conversation_id, kind, normalised);
        CREATE INDEX memories_by_successor ON memories (replaced_by);
        """,
    )


def m006_outbox_batches(conn: sqlite3.Connection) -> None:
    # One entry may cover every event of one append that its job wants: the first id stays
    # in `event_id`, the others follow comma-separated; `size` counts them for the backlog.
    _run_script(
        conn,
        """
        ALTER TABLE outbox ADD COLUMN more_event_ids TEXT NOT NULL DEFAULT '';
        ALTER TABLE outbox ADD COLUMN size INTEGER NOT NULL DEFAULT 1;
        """,
    )


def m007_embeddings_inline(conn: sqlite3.Connection) -> None:
    _run_script(conn, search_schema.EMBEDDINGS_INLINE)


def m008_memory_agents(conn: sqlite3.Connection) -> None:
    # Unified mode: a memory belongs to the agent that made it (NULL: shared, or separate mode).
    # `unreadable` keeps a memory whose note a person broke: shown as such, never deleted.
    # Duplicates are found by owner, scope, kind and content, so that lookup gets its index.
    _run_script(
        conn,
        """
        ALTER TABLE memories ADD COLUMN agent_id TEXT;
        ALTER TABLE memories ADD COLUMN unreadable TEXT;
        DROP INDEX memories_by_content;
        CREATE INDEX memories_by_content ON memories (conversation_id, kind, normalised, agent_id);
        """,
    )


def m009_llm_state(conn: sqlite3.Connection) -> None:
    # The circuit breaker of each model, shared by every process of a home (wall-clock ms),
    # and the ledger of LLM calls: what each job spent, for status and budgets.
    _run_script(
        conn,
        """
        CREATE TABLE llm_breakers (
            key TEXT PRIMARY KEY,
            failures INTEGER NOT NULL,
            opened_ms INTEGER,
            trial_until_ms INTEGER,
            last_error TEXT
        ) STRICT;
        CREATE TABLE llm_calls (
            call_id INTEGER PRIMARY KEY,
            at_ms INTEGER NOT NULL,
            job TEXT NOT NULL,
            model TEXT NOT NULL,
            prompt_tokens INTEGER NOT NULL,
            completion_tokens INTEGER NOT NULL,
            duration_ms INTEGER NOT NULL,
            outcome TEXT NOT NULL
        ) STRICT;
        CREATE INDEX llm_calls_by_job ON llm_calls (job, at_ms);
        """,
    )


def m010_memory_reconciled_by(conn: sqlite3.Connection) -> None:
    # Which path (llm or heuristics) reconciled a memory, beside `source`, which extracted it.
    _run_script(conn, "ALTER TABLE memories ADD COLUMN reconciled_by TEXT;")


def m011_llm_servers(conn: sqlite3.Connection) -> None:
    # The structured-output formats each LLM server takes (space-separated, best first):
    # learnt once, when it refuses one, and kept for every process and every restart.
    _run_script(conn, "CREATE TABLE llm_servers (base_url TEXT PRIMARY KEY, formats TEXT NOT NULL) STRICT;")


def m012_timeline(conn: sqlite3.Connection) -> None:
    # The timeline (seed 002): segments of sessions, versioned TOC nodes with a latest
    # pointer, grips; and the scheduler's per-job state (pause survives restarts).
    # A scope is a conversation and, in unified mode, an agent ('' when none). `built_ms`: when
    # a node was last rolled up, changed or not (a parent older than a child is rolled up again).
    _run_script(
        conn,
        """
        CREATE TABLE segments (
            segment_id TEXT PRIMARY KEY,
            conversation_id TEXT NOT NULL,
            agent_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            start_ms INTEGER NOT NULL,
            end_ms INTEGER NOT NULL,
            token_count INTEGER NOT NULL,
            event_ids TEXT NOT NULL,
            overlap_ids TEXT NOT NULL,
            state TEXT NOT NULL
        ) STRICT;
        CREATE INDEX segments_of_session ON segments (conversation_id, agent_id, session_id, state);
        CREATE INDEX segments_by_state ON segments (state, end_ms);
        CREATE TABLE toc_nodes (
            conversation_id TEXT NOT NULL,
            agent_id TEXT NOT NULL,
            node_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            created_ms INTEGER NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (conversation_id, agent_id, node_id, version)
        ) STRICT;
        CREATE TABLE toc_latest (
            conversation_id TEXT NOT NULL,
            agent_id TEXT NOT NULL,
            node_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            level TEXT NOT NULL,
            parent_id TEXT,
            start_ms INTEGER NOT NULL,
            end_ms INTEGER NOT NULL,
            created_ms INTEGER NOT NULL,
            built_ms INTEGER NOT NULL,
            PRIMARY KEY (conversation_id, agent_id, node_id)
        ) STRICT;
        CREATE INDEX toc_children ON toc_latest (conversation_id, agent_id, parent_id, start_ms, node_id);
        CREATE INDEX toc_by_level ON toc_latest (level, conversation_id, agent_id);
        CREATE TABLE grips (
            grip_id TEXT PRIMARY KEY,
            conversation_id TEXT NOT NULL,
            agent_id TEXT NOT NULL,
            toc_node_id TEXT,
            excerpt TEXT NOT NULL,
            event_id_start TEXT NOT NULL,
            event_id_end TEXT NOT NULL,
            timestamp_ms INTEGER NOT NULL,
            source TEXT NOT NULL
        ) STRICT;
        CREATE TABLE conversation_summaries (
            conversation_id TEXT NOT NULL,
            agent_id TEXT NOT NULL,
            events INTEGER NOT NULL,
            level TEXT NOT NULL,
            updated_ms INTEGER NOT NULL,
            PRIMARY KEY (conversation_id, agent_id)
        ) STRICT;
        CREATE TABLE jobs (
            name TEXT PRIMARY KEY,
            paused INTEGER NOT NULL DEFAULT 0,
            last_run_ms INTEGER,
            runs INTEGER NOT NULL DEFAULT 0,
            failures INTEGER NOT NULL DEFAULT 0,
            last_error TEXT
        ) STRICT;
        """,
    )


def m013_index_removals(conn: sqlite3.Connection) -> None:
    _run_script(conn, search_schema.INDEX_REMOVALS)


def m014_key_facts(conn: sqlite3.Connection) -> None:
    """facts.md is rewritten after every batch: its important and latest memories by index."""
    _run_script(
        conn,
        f"""
        CREATE INDEX memories_live_by_time ON memories (created_ms, id) WHERE deleted_ms IS NULL;
        CREATE INDEX memories_live_important ON memories (created_ms) WHERE deleted_ms IS NULL AND {IMPORTANT};
        """,
    )


def m015_weeks_within_months(conn: sqlite3.Connection) -> None:
    # Weeks used to hang under the month of their Thursday, which filed 31 December 2025 under
    # 2026; now a week crossing a month's end is one node per month (decision 91). The calendar
    # levels are derived from the segment nodes: dropping their pointers has the next rollup
    # build them again under the new rule (a missing parent is rolled up at once), each node
    # a new version only where it changed; every version stays in toc_nodes.
    conn.execute("DELETE FROM toc_latest WHERE level IN ('day', 'week', 'month', 'year')")


def m016_index_item_count(conn: sqlite3.Connection) -> None:
    _run_script(conn, search_schema.ITEM_COUNT)


MIGRATIONS: list[tuple[str, Migration]] = [
    ("001_events", m001_events),
    ("002_outbox", m002_outbox),
    ("003_sessions", m003_sessions),
    ("004_search", m004_search),
    ("005_memories", m005_memories),
    ("006_outbox_batches", m006_outbox_batches),
    ("007_embeddings_inline", m007_embeddings_inline),
    ("008_memory_agents", m008_memory_agents),
    ("009_llm_state", m009_llm_state),
    ("010_memory_reconciled_by", m010_memory_reconciled_by),
    ("011_llm_servers", m011_llm_servers),
    ("012_timeline", m012_timeline),
    ("013_index_removals", m013_index_removals),
    ("014_key_facts", m014_key_facts),
    ("015_weeks_within_months", m015_weeks_within_months),
    ("016_index_item_count", m016_index_item_count),
]


def applied_migrations(conn: sqlite3.Connection) -> list[str]:
    conn.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at_ms INTEGER NOT NULL)")
    return [row[0] for row in conn.execute("SELECT name FROM _migrations ORDER BY name")]


def apply_migrations(conn: sqlite3.Connection, migrations: list[tuple[str, Migration]] | None = None) -> list[str]:
    """Apply the steps not yet recorded; returns the names applied now."""
    steps = MIGRATIONS if migrations is None else migrations
    conn.execute("BEGIN IMMEDIATE")
    try:
        done = set(applied_migrations(conn))
        applied = []
        for name, step in steps:
            if name in done:
                continue
            step(conn)
            conn.execute("INSERT INTO _migrations VALUES (?, ?)", (name, now_ms()))
            applied.append(name)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return applied
