"""The PostgreSQL store's schema: named steps, applied in order, recorded, as on SQLite.

Each role's module holds its own part (`SCHEMA`); this module orders them into steps and
applies those not yet recorded in `_migrations`, in one transaction under an advisory lock,
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
from memoir.store.postgres import llm, memories, outbox, search_schema, timeline
from memoir.store.postgres.parts import LOCK_NAMESPACE, MIGRATION_LOCK

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

STEPS: list[tuple[str, str]] = [
    ("001_events", EVENTS),
    ("002_outbox", outbox.SCHEMA),
    ("003_search", search_schema.SCHEMA),
    ("004_memories", memories.SCHEMA),
    ("005_llm_state", llm.SCHEMA),
    ("006_timeline", timeline.SCHEMA),
    ("007_weeks_within_months", timeline.WEEKS_WITHIN_MONTHS),
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
