"""The PostgreSQL store's schema: named steps, applied in order, recorded, as on SQLite.

The tables of the shared statements (`memoir.store.sql`) are declared here; `outbox.py` and
`search_schema.py` hold their own. This module orders them into steps and applies those not
yet recorded in `_migrations`, in one transaction under an advisory lock,
so that servers and workers starting together against one database migrate it once.
Never edit a released step: add a new one.

The steps are PostgreSQL's own, not a translation of SQLite's first fourteen: this schema
started where SQLite's stood then (decision 73). A later change is a step on each side
(SQLite's 015 is 007 here).
"""

from __future__ import annotations

from typing import Any

import psycopg

from memoir.model import now_ms
from memoir.store.postgres import outbox, search_schema
from memoir.store.postgres.parts import LOCK_NAMESPACE, MIGRATION_LOCK
from memoir.store.sql import memories
from memoir.store.sql.dialect import POSTGRES

__all__ = ["STEPS", "applied_steps", "apply_steps"]


EVENTS = """
CREATE TABLE events (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id TEXT NOT NULL UNIQUE,
    timestamp_ms BIGINT NOT NULL,
    session_id TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    agent_id TEXT,
    event_type TEXT NOT NULL,
    role TEXT NOT NULL,
    text TEXT NOT NULL,
    metadata TEXT NOT NULL,
    ingested_at_ms BIGINT NOT NULL
);
CREATE INDEX events_by_time ON events (timestamp_ms, event_id);
CREATE INDEX events_by_conversation ON events (conversation_id, timestamp_ms, event_id);
CREATE INDEX events_by_session ON events (session_id, timestamp_ms, event_id);
-- The log is append-only: the database refuses to change, remove or truncate an event.
CREATE FUNCTION memoir_events_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are immutable: the event log is append-only' USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER events_are_immutable BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION memoir_events_are_immutable();
CREATE TRIGGER events_are_never_truncated BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION memoir_events_are_immutable();
CREATE TABLE sessions (
    conversation_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    agent_id TEXT NOT NULL,
    first_ms BIGINT NOT NULL,
    last_ms BIGINT NOT NULL,
    event_count BIGINT NOT NULL,
    started INTEGER NOT NULL,
    ended INTEGER NOT NULL,
    PRIMARY KEY (conversation_id, session_id, agent_id)
);
"""

# Memories tagged `important`: the partial index's condition, as the shared queries say it.
IMPORTANT = POSTGRES.spell(memories.IMPORTANT)

MEMORIES = f"""
CREATE TABLE memories (
    id TEXT COLLATE "C" PRIMARY KEY,
    kind TEXT NOT NULL,
    conversation_id TEXT COLLATE "C" NOT NULL,
    content TEXT NOT NULL,
    normalised TEXT NOT NULL,
    tags TEXT NOT NULL,
    severity TEXT,
    created_ms BIGINT NOT NULL,
    event_ids TEXT NOT NULL,
    source TEXT NOT NULL,
    replaced_by TEXT COLLATE "C",
    deleted_ms BIGINT,
    path TEXT NOT NULL,
    file_hash TEXT NOT NULL,
    agent_id TEXT COLLATE "C",
    unreadable TEXT,
    reconciled_by TEXT
);
CREATE INDEX memories_by_scope ON memories (conversation_id, kind, created_ms);
CREATE INDEX memories_by_content ON memories (conversation_id, kind, normalised, agent_id);
CREATE INDEX memories_by_successor ON memories (replaced_by);
CREATE INDEX memories_live_by_time ON memories (created_ms, id) WHERE deleted_ms IS NULL;
CREATE INDEX memories_live_important ON memories (created_ms) WHERE deleted_ms IS NULL AND {IMPORTANT};
"""

LLM = """
CREATE TABLE llm_breakers (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    opened_ms BIGINT,
    trial_until_ms BIGINT,
    last_error TEXT
);
CREATE TABLE llm_calls (
    call_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at_ms BIGINT NOT NULL,
    job TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt_tokens BIGINT NOT NULL,
    completion_tokens BIGINT NOT NULL,
    duration_ms BIGINT NOT NULL,
    outcome TEXT NOT NULL
);
CREATE INDEX llm_calls_by_job ON llm_calls (job, at_ms);
CREATE TABLE llm_servers (base_url TEXT PRIMARY KEY, formats TEXT NOT NULL);
"""

# Ids and scopes are `COLLATE "C"`, so pages of children, scopes and segments come in the
# byte order SQLite's BINARY collation gives, whatever the database's locale.
TIMELINE = """
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

STEPS: list[tuple[str, str]] = [
    ("001_events", EVENTS),
    ("002_outbox", outbox.SCHEMA),
    ("003_search", search_schema.SCHEMA),
    ("004_memories", MEMORIES),
    ("005_llm_state", LLM),
    ("006_timeline", TIMELINE),
    ("007_weeks_within_months", WEEKS_WITHIN_MONTHS),
    # PostgreSQL only (issue 29): each item holds its vector, where a conversation's scan reads it.
    ("008_vectors_with_items", search_schema.ITEM_VECTORS),
]


def applied_steps(conn: psycopg.Connection[Any]) -> list[str]:
    conn.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at_ms BIGINT NOT NULL)")
    return [row[0] for row in conn.execute("SELECT name FROM _migrations ORDER BY name")]


def apply_steps(conn: psycopg.Connection[Any], steps: list[tuple[str, str]] | None = None) -> list[str]:
    """Apply the steps not yet recorded (the connection is in autocommit); returns the names applied now."""
    chosen = STEPS if steps is None else steps
    with conn.transaction():
        conn.execute(f"SELECT pg_advisory_xact_lock({LOCK_NAMESPACE}, {MIGRATION_LOCK})")
        done = set(applied_steps(conn))
        applied = []
        for name, sql in chosen:
            if name in done:
                continue
            conn.execute(sql.encode())  # bytes: several statements in one simple query
            conn.execute("INSERT INTO _migrations VALUES (%s, %s)", (name, now_ms()))
            applied.append(name)
    return applied
