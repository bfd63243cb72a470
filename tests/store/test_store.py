"""The SQLite store: atomic event + outbox writes, immutability, idempotency, scans, migrations."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from memoir import ConfigError, Event, HomeError, StoreError
from memoir.store import (
    Database,
    EventLog,
    EventQuery,
    MemoryMirror,
    OutboxQueue,
    SearchIndex,
    SQLiteStore,
    Store,
)
from memoir.store.sqlite.errors import translate as _translate
from memoir.store.sqlite.schema import MIGRATIONS, applied_migrations, apply_migrations

pytestmark = pytest.mark.sqlite_only  # the SQLite store itself: PostgreSQL's answers are held to it in test_postgres_*


def ev(text: str = "hi", **fields: object) -> Event:
    data: dict[str, object] = {"session_id": "s1", "event_type": "user_message", "text": text, **fields}
    return Event.from_dict(data)


def both_jobs(event: Event) -> list[str]:
    return ["track_session", "index_event"]


@pytest.fixture
def store(tmp_path: Path) -> SQLiteStore:
    opened = SQLiteStore.open(tmp_path / "memoir.db")
    yield opened
    opened.close()


def test_the_database_is_in_wal_mode_with_full_sync(store: SQLiteStore) -> None:
    conn = store.connection()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_append_writes_one_outbox_entry_per_action_covering_its_events(store: SQLiteStore) -> None:
    events = [ev("one"), ev("two")]
    assert store.append(events, both_jobs) == events
    assert store.count_events() == 2
    entries = store.outbox_entries()
    ids = (events[0].event_id, events[1].event_id)
    assert [(e.event_ids, e.action) for e in entries] == [(ids, "track_session"), (ids, "index_event")]
    assert entries[0].timestamp_ms == events[0].timestamp_ms
    assert store.outbox_pending() == 4  # the backlog counts events' work, not rows
    assert store.outbox_entries(event_id=events[1].event_id) == entries


def test_an_entry_covers_only_the_events_its_job_wants(store: SQLiteStore) -> None:
    chatty, quiet = ev("index me"), ev("", event_type="session_start")
    store.append([quiet, chatty], lambda e: ["track_session", "index_event"] if e.text else ["track_session"])
    assert {e.action: e.event_ids for e in store.outbox_entries()} == {
        "track_session": (quiet.event_id, chatty.event_id),
        "index_event": (chatty.event_id,),
    }


def test_a_many_event_entry_splits_into_one_entry_per_event(store: SQLiteStore) -> None:
    events = [ev("a"), ev("b"), ev("c")]
    store.append(events, lambda e: ["index_event"])
    [entry] = store.outbox_entries()
    singles = store.split_outbox(entry, {e.event_id: e.timestamp_ms for e in events})
    assert [s.event_ids for s in singles] == [(e.event_id,) for e in events]
    assert store.outbox_entries() == singles


def test_event_and_outbox_rows_are_written_together_or_not_at_all(store: SQLiteStore) -> None:
    def broken(event: Event) -> list[str]:
        raise RuntimeError("fails after the events were inserted, inside the transaction")

    with pytest.raises(RuntimeError):
        store.append([ev("lost")], broken)
    assert store.count_events() == 0
    assert store.outbox_entries() == []


def test_the_database_refuses_to_update_or_delete_events(store: SQLiteStore) -> None:
    store.append([ev()], both_jobs)
    conn = store.connection()
    with pytest.raises(sqlite3.IntegrityError, match="immutable"):
        conn.execute("UPDATE events SET text = 'rewritten'")
    with pytest.raises(sqlite3.IntegrityError, match="immutable"):
        conn.execute("DELETE FROM events")
    assert store.count_events() == 1


def test_appending_a_known_id_returns_the_stored_event_and_writes_nothing(store: SQLiteStore) -> None:
    original = ev("original")
    store.append([original], both_jobs)
    retry = ev("a different text", event_id=original.event_id)
    assert store.append([retry], both_jobs) == [original]
    assert store.count_events() == 1
    assert store.outbox_pending() == 2


def test_a_batch_mixing_new_known_and_repeated_ids_stores_each_id_once(store: SQLiteStore) -> None:
    known = ev("known")
    store.append([known], both_jobs)
    fresh = ev("fresh")
    echo = ev("echo of fresh", event_id=fresh.event_id)
    result = store.append([fresh, known, echo], both_jobs)
    assert [e.text for e in result] == ["fresh", "known", "fresh"]
    assert store.count_events() == 2
    covering = [e.event_ids for e in store.outbox_entries(event_id=fresh.event_id)]
    assert covering == [(fresh.event_id,), (fresh.event_id,)]


def test_get_returns_an_equal_event_or_none(store: SQLiteStore) -> None:
    event = ev("stored", metadata={"tool": "grep", "quote": 'say "hi"\n'}, agent_id="a1", conversation_id="c9")
    store.append([event], both_jobs)
    assert store.get(event.event_id) == event
    assert store.get("01HN4QXKN6YWXVKZ3JMHP4BCDE") is None


def test_scans_are_in_time_order_whatever_the_arrival_order(store: SQLiteStore) -> None:
    late, early, middle = ev("late", timestamp=3000), ev("early", timestamp=1000), ev("middle", timestamp=2000)
    store.append([late, early, middle], both_jobs)
    assert [e.text for e in store.scan(EventQuery())] == ["early", "middle", "late"]


def test_scans_filter_by_time_session_conversation_and_agent(store: SQLiteStore) -> None:
    store.append(
        [
            ev("a", timestamp=1000, session_id="s1", conversation_id="c1"),
            ev("b", timestamp=2000, session_id="s2", conversation_id="c1", agent_id="x"),
            ev("c", timestamp=3000, session_id="s2", conversation_id="c2", agent_id="x"),
            ev("d", timestamp=4000, session_id="s3", conversation_id="c2"),
        ],
        both_jobs,
    )

    def texts(**query: object) -> list[str]:
        return [e.text for e in store.scan(EventQuery(**query))]  # type: ignore[arg-type]

    assert texts(since_ms=2000, until_ms=4000) == ["b", "c"]  # since inclusive, until exclusive
    assert texts(session_id="s2") == ["b", "c"]
    assert texts(conversation_id="c2") == ["c", "d"]
    assert texts(agent_id="x", conversation_id="c1") == ["b"]
    assert texts(after=(2000, store.scan(EventQuery(session_id="s2"))[0].event_id)) == ["c", "d"]
    assert texts(limit=2) == ["a", "b"]
    assert store.count_events(EventQuery(conversation_id="c1")) == 2


def test_migrations_are_recorded_by_name_and_applied_once(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    assert apply_migrations(conn) == [name for name, _ in MIGRATIONS]
    assert apply_migrations(conn) == []
    assert applied_migrations(conn) == [name for name, _ in MIGRATIONS]


def test_the_index_rebuild_keeps_item_ids_and_the_keyword_index(tmp_path: Path) -> None:
    # 013 rebuilds index_items (AUTOINCREMENT cannot be added in place): nothing may move.
    conn = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    before = [step for step in MIGRATIONS if step[0] < "013"]
    apply_migrations(conn, before)
    for item_id, text in [(3, "lighthouse keeper"), (9, "tide tables")]:
        conn.execute(
            "INSERT INTO index_items (item_id, kind, ref, conversation_id, created_ms, text, search_text,"
            " content_hash, event_ids, metadata) VALUES (?, 'turn', ?, 'c', 1, ?, ?, 'h', '[]', '{}')",
            (item_id, f"r{item_id}", text, text),
        )
    assert apply_migrations(conn) == [name for name, _ in MIGRATIONS if name >= "013"]
    match = "SELECT rowid FROM index_fts WHERE index_fts MATCH ?"
    assert conn.execute(match, ("tide",)).fetchall() == [(9,)]
    conn.execute("DELETE FROM index_items WHERE item_id = 9")
    assert conn.execute(match, ("tide",)).fetchall() == []
    assert conn.execute("SELECT item_id FROM index_removals").fetchall() == [(9,)]
    conn.execute(
        "INSERT INTO index_items (kind, ref, conversation_id, created_ms, text, search_text, content_hash,"
        " event_ids, metadata) VALUES ('turn', 'new', 'c', 2, 'tide', 'tide', 'h', '[]', '{}')"
    )
    assert conn.execute(match, ("tide",)).fetchall() == [(10,)]  # 9 is not handed out again
    # 016 counted the items already there, and its triggers follow every one added or removed since.
    assert conn.execute("SELECT value FROM index_state WHERE key = 'items'").fetchall() == [(2,)]


def test_a_failing_migration_leaves_no_trace(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "m.db", isolation_level=None)

    def half_done(c: sqlite3.Connection) -> None:
        c.execute("CREATE TABLE half (x)")
        raise sqlite3.OperationalError("boom")

    with pytest.raises(sqlite3.OperationalError):
        apply_migrations(conn, [*MIGRATIONS, ("999_broken", half_done)])
    assert applied_migrations(conn) == []
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name IN ('half', 'events')").fetchone()[0] == 0


def test_data_survives_closing_and_reopening(tmp_path: Path) -> None:
    first = SQLiteStore.open(tmp_path / "memoir.db")
    event = ev("kept")
    first.append([event], both_jobs)
    first.close()
    again = SQLiteStore.open(tmp_path / "memoir.db")
    assert again.get(event.event_id) == event
    again.close()


def test_a_missing_folder_is_a_clear_home_error(tmp_path: Path) -> None:
    with pytest.raises(HomeError, match="does not exist"):
        SQLiteStore.open(tmp_path / "missing" / "memoir.db")


def test_a_file_that_is_not_a_database_is_a_clear_store_error(tmp_path: Path) -> None:
    path = tmp_path / "memoir.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="damaged or not a memoir database"):
        SQLiteStore.open(path)


def test_the_runner_lease_is_exclusive_until_released(store: SQLiteStore) -> None:
    lease = store.try_runner_lease()
    assert lease is not None
    assert store.try_runner_lease() is None
    lease.release()
    again = store.try_runner_lease()
    assert again is not None
    again.release()


def test_each_lane_of_runners_has_its_own_lease(store: SQLiteStore) -> None:
    fast, llm = store.try_runner_lease("fast"), store.try_runner_lease("llm")
    assert fast is not None and llm is not None
    assert store.try_runner_lease() is None  # the default lane is "fast"
    assert store.try_runner_lease("llm") is None
    assert Path(f"{store.path}.runner-llm.lock").exists()
    fast.release()
    llm.release()


@pytest.mark.parametrize("lane", ["", "Fast", "../x", "a b", "llm-2"])
def test_a_lane_name_must_be_lower_case_letters_digits_and_underscores(store: SQLiteStore, lane: str) -> None:
    with pytest.raises(ConfigError, match="lane"):
        store.try_runner_lease(lane)


def test_the_sqlite_store_plays_every_role() -> None:
    for role in (Database, EventLog, OutboxQueue, SearchIndex, MemoryMirror):
        assert role in Store.__mro__
        members = {name for name in vars(role) if not name.startswith("_")} | set(role.__annotations__)
        assert all(hasattr(SQLiteStore, name) for name in members - {"location"}), role.__name__


def test_stats_count_events_sessions_conversations_and_backlog(store: SQLiteStore) -> None:
    store.append([ev("a", conversation_id="c1"), ev("b", conversation_id="c2")], both_jobs)
    stats = store.stats()
    assert (stats.events, stats.conversations) == (2, 2)
    assert stats.outbox_pending == {"track_session": 2, "index_event": 2}
    assert stats.size_bytes > 0
    assert stats.schema == [name for name, _ in MIGRATIONS]


# -- sqlite3 errors are translated by result code -------------------------------------


def test_a_locked_database_is_a_store_error_that_says_to_retry(tmp_path: Path) -> None:
    store = SQLiteStore.open(tmp_path / "memoir.db", busy_timeout_s=0)
    other = sqlite3.connect(tmp_path / "memoir.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreError, match="stayed locked by another process: retry") as caught:
            store.append([ev()], both_jobs)
        assert not isinstance(caught.value, HomeError)
    finally:
        other.execute("ROLLBACK")
        other.close()
        store.close()


def test_writing_through_a_read_only_connection_is_a_home_error(tmp_path: Path) -> None:
    SQLiteStore.open(tmp_path / "memoir.db").close()
    reader = sqlite3.connect(f"file:{tmp_path / 'memoir.db'}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as caught:
        reader.execute("INSERT INTO index_state VALUES ('x', 1)")
    reader.close()
    assert caught.value.sqlite_errorcode == sqlite3.SQLITE_READONLY
    translated = _translate(caught.value, tmp_path / "memoir.db")
    assert isinstance(translated, HomeError)
    assert "read-only: make it (and its folder) writable" in str(translated)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only files")
def test_a_read_only_database_file_is_a_home_error(tmp_path: Path) -> None:
    store = SQLiteStore.open(tmp_path / "memoir.db")
    store.close()
    for path in tmp_path.glob("memoir.db*"):
        path.chmod(0o444)
    with pytest.raises(HomeError, match=r"read-only|cannot open"), closing(SQLiteStore.open(store.path)) as again:
        again.append([ev()], both_jobs)


def _coded(code: int, name: str, text: str = "whatever the driver says") -> sqlite3.Error:
    error = sqlite3.OperationalError(text)
    error.sqlite_errorcode = code
    error.sqlite_errorname = name
    return error


@pytest.mark.parametrize(
    ("code", "name", "kind", "advice"),
    [
        (sqlite3.SQLITE_READONLY, "SQLITE_READONLY", HomeError, "writable by this user"),
        (sqlite3.SQLITE_READONLY | (5 << 8), "SQLITE_READONLY_DBMOVED", HomeError, "writable by this user"),
        (sqlite3.SQLITE_BUSY, "SQLITE_BUSY", StoreError, "raise store.busy_timeout"),
        (sqlite3.SQLITE_LOCKED, "SQLITE_LOCKED", StoreError, "raise store.busy_timeout"),
        (sqlite3.SQLITE_FULL, "SQLITE_FULL", StoreError, "free disk space"),
        (sqlite3.SQLITE_CANTOPEN, "SQLITE_CANTOPEN", HomeError, "check that its folder exists"),
        (sqlite3.SQLITE_CORRUPT, "SQLITE_CORRUPT", StoreError, "restore it from a backup"),
        (sqlite3.SQLITE_NOTADB, "SQLITE_NOTADB", StoreError, "restore it from a backup"),
        (sqlite3.SQLITE_IOERR | (2 << 8), "SQLITE_IOERR_SHORT_READ", StoreError, "check the disk"),
        (sqlite3.SQLITE_ERROR, "SQLITE_ERROR", StoreError, "database error on"),
    ],
)
def test_errors_are_told_apart_by_their_primary_result_code(
    tmp_path: Path, code: int, name: str, kind: type[StoreError], advice: str
) -> None:
    translated = _translate(_coded(code, name), tmp_path / "memoir.db")
    assert type(translated) is kind
    assert advice in str(translated)


def test_the_message_text_of_an_error_does_not_choose_its_translation(tmp_path: Path) -> None:
    # Text mentioning "locked" or "read-only" once misled a translation by message.
    translated = _translate(_coded(sqlite3.SQLITE_ERROR, "SQLITE_ERROR", "no column locked_readonly"), tmp_path)
    assert type(translated) is StoreError
    assert "database error" in str(translated) and "SQLITE_ERROR" in str(translated)


def test_an_error_without_a_result_code_gets_the_generic_message(tmp_path: Path) -> None:
    conn = sqlite3.connect(":memory:")
    conn.close()
    with pytest.raises(sqlite3.ProgrammingError) as caught:
        conn.execute("SELECT 1")
    translated = _translate(caught.value, tmp_path / "memoir.db")
    assert type(translated) is StoreError
    assert str(translated).startswith(f"database error on {tmp_path / 'memoir.db'}: Cannot operate on a closed")
