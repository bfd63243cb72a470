"""The outbox on PostgreSQL, shared by runners in many processes: each entry runs exactly once.

Real worker processes against a real PostgreSQL: each claims entries, writes what its job
did in the job's transaction, and completes them there; one is killed in the middle of a
batch, and the others finish its entries.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from typing import Any

import pytest

from memoir.errors import StoreError
from memoir.model import Event, EventType, OutboxEntry, now_ms
from memoir.store.postgres import PostgresStore
from memoir.store.postgres.parts import OWNER_NAMESPACE
from tests.conftest import REPO

ACTION = "test_job"

# A worker: claim ACTION entries in small batches; for each, record the events it did in the
# job's transaction (`done`), then complete the entries there; stop when none are left.
WORKER = textwrap.dedent(
    """
    import sys, time
    from memoir.store.postgres import PostgresStore
    from memoir.model import now_ms
    store = PostgresStore(sys.argv[1])
    name, pause, idle = sys.argv[2], float(sys.argv[3]), 0
    if sys.argv[4:] == ["gated"]:  # all start together: a process's start-up is no head start
        print("ready", flush=True)
        sys.stdin.readline()
    while idle < 20:
        entries = store.next_outbox(["test_job"], 5, now_ms())
        if not entries:
            idle += 1
            time.sleep(0.05)
            continue
        idle = 0
        print("claimed", len(entries), flush=True)
        time.sleep(pause)  # the job's work: the moment a kill hurts most
        with store.atomic():
            for entry in entries:
                for event_id in entry.event_ids:
                    store._conn().execute("INSERT INTO done VALUES (%s, %s)", (event_id, name))
            store.complete_outbox("test_job", entries, now_ms())
    store.close()
    """
)


@pytest.fixture
def store(postgres_url: str) -> Iterator[PostgresStore]:
    opened = PostgresStore(postgres_url)
    with opened.atomic():
        opened._conn().execute("CREATE TABLE done (event_id TEXT NOT NULL, worker TEXT NOT NULL)")
    yield opened
    opened.close()


def events(n: int, conversations: int = 7) -> list[Event]:
    start = now_ms() - 10_000
    return [
        Event.create(
            text=f"turn {i}",
            event_type=EventType.USER_MESSAGE,
            conversation_id=f"c{i % conversations}",
            session_id="s",
            timestamp=start + i,
        )
        for i in range(n)
    ]


def fill(store: PostgresStore, n: int, per_append: int = 3) -> list[str]:
    made = events(n)
    for start in range(0, n, per_append):
        store.append(made[start : start + per_append], lambda e: [ACTION])
    return [e.event_id for e in made]


def worker(url: str, name: str, pause: float = 0.0, *, gated: bool = False) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    return subprocess.Popen(
        [sys.executable, "-c", WORKER, url, name, str(pause), *(["gated"] if gated else [])],
        stdin=subprocess.PIPE if gated else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def release(processes: list[subprocess.Popen[str]]) -> None:
    """Let gated workers go once every one of them is ready."""
    for process in processes:
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
    for process in processes:
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()  # left open: `communicate` closes it


def conversations(store: PostgresStore, entries: list[OutboxEntry]) -> set[str]:
    found = store.get_many([e.event_id for e in entries])
    return {event.conversation_id for event in found.values()}


def finish(process: subprocess.Popen[str]) -> None:
    _, _ = process.communicate(timeout=120)
    assert process.returncode == 0


def done_counts(store: PostgresStore) -> dict[str, int]:
    return {row[0]: int(row[1]) for row in store._read("SELECT event_id, count(*) FROM done GROUP BY event_id")}


def test_four_worker_processes_run_every_entry_exactly_once(store: PostgresStore, postgres_url: str) -> None:
    ids = fill(store, 600)
    workers = [worker(postgres_url, f"w{i}", pause=0.002, gated=True) for i in range(4)]
    release(workers)
    for process in workers:
        finish(process)
    assert done_counts(store) == dict.fromkeys(ids, 1)
    assert store.outbox_entries() == []
    names = {row[0] for row in store._read("SELECT DISTINCT worker FROM done")}
    assert len(names) > 1, "the work was shared between processes"
    [checkpoint] = store.checkpoints()
    assert checkpoint.processed == 600


def test_a_worker_killed_mid_batch_leaves_its_entries_to_the_others(store: PostgresStore, postgres_url: str) -> None:
    ids = fill(store, 60)
    victim = worker(postgres_url, "victim", pause=30.0)
    assert victim.stdout is not None
    assert victim.stdout.readline().startswith("claimed")  # it holds a batch, and is working on it
    os.kill(victim.pid, signal.SIGKILL)
    victim.communicate(timeout=60)
    survivors = [worker(postgres_url, f"w{i}") for i in range(2)]
    for process in survivors:
        finish(process)
    assert done_counts(store) == dict.fromkeys(ids, 1)
    assert store.outbox_entries() == []


def test_a_conversation_is_worked_by_one_live_runner_at_a_time(store: PostgresStore, postgres_url: str) -> None:
    fill(store, 14, per_append=14)  # one entry per conversation (7 conversations)
    other = PostgresStore(postgres_url)
    try:
        mine = store.next_outbox([ACTION], 3, now_ms())
        theirs = other.next_outbox([ACTION], 100, now_ms())
        held = {e.event_id for e in mine}
        assert held.isdisjoint(e.event_id for e in theirs)
        assert conversations(store, mine).isdisjoint(conversations(store, theirs))
        assert len(mine) + len(theirs) == 7
    finally:
        other.close()


def test_entries_taken_over_cannot_be_completed_twice(store: PostgresStore, postgres_url: str) -> None:
    fill(store, 3, per_append=3)
    taken = store.next_outbox([ACTION], 10, now_ms())
    # This store's owner key is lost (as when its connection dies): another store takes the entries.
    assert store._owner is not None
    connection, key = store._owner
    connection.close()
    store._owner_checked = 0.0
    other = PostgresStore(postgres_url)
    try:
        # The server drops the lock as the closed session's backend exits, a moment after close().
        deadline = time.monotonic() + 30
        while other._read(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objid = %s"
            " AND objsubid = 2",
            (OWNER_NAMESPACE, key),
        )[0][0]:
            assert time.monotonic() < deadline, "the closed session's owner lock was never released"
            time.sleep(0.01)
        retaken = other.next_outbox([ACTION], 10, now_ms())
        assert [e.seq for e in retaken] == [e.seq for e in taken]

        def late_job() -> None:
            with store.atomic():
                store._conn().execute("INSERT INTO done VALUES ('x', 'late')")
                store.complete_outbox(ACTION, taken, now_ms())

        with pytest.raises(StoreError, match="taken over"):
            late_job()
        assert done_counts(store) == {}, "the late job's writes were rolled back"
        with other.atomic():
            other.complete_outbox(ACTION, retaken, now_ms())
        assert store.outbox_entries() == []
    finally:
        other.close()


def test_failed_entries_are_released_for_any_runner(store: PostgresStore, postgres_url: str) -> None:
    fill(store, 1)
    [entry] = store.next_outbox([ACTION], 10, now_ms())
    store.fail_outbox(entry, "boom", retry_at_ms=0, give_up=False, now_ms=now_ms())
    other = PostgresStore(postgres_url)
    try:
        [again] = other.next_outbox([ACTION], 10, now_ms())
        assert (again.seq, again.attempts, again.last_error) == (entry.seq, 1, "boom")
    finally:
        other.close()


def test_the_event_log_refuses_changes_in_the_database_itself(store: PostgresStore) -> None:
    [event] = events(1)
    store.append([event], lambda e: [])
    for statement in ("UPDATE events SET text = 'x'", "DELETE FROM events", "TRUNCATE events CASCADE"):
        with pytest.raises(StoreError, match="immutable"), store.atomic():
            store._conn().execute(statement.encode())
    assert store.get(event.event_id) == event


def test_the_password_of_the_url_never_shows_in_errors(postgres_server: Any) -> None:
    url = f"postgresql://postgres:s3cret-pw@127.0.0.1:{postgres_server.port}/no_such_database"
    with pytest.raises(StoreError) as caught:
        PostgresStore(url, timeout_s=5)
    assert "s3cret-pw" not in str(caught.value)
    assert "no_such_database" in str(caught.value) and "***" in str(caught.value)


def test_a_periodic_job_ticks_in_one_process_at_a_time(store: PostgresStore, postgres_url: str) -> None:
    other = PostgresStore(postgres_url)
    try:
        with store.periodic_turn("summarize") as mine:
            assert mine
            with other.periodic_turn("summarize") as theirs, other.periodic_turn("rollup") as another:
                assert not theirs, "the other process skips the job while this one ticks it"
                assert another, "other jobs are free"
        with other.periodic_turn("summarize") as theirs:
            assert theirs, "free again once this one is done"
    finally:
        other.close()


def test_a_rolled_back_transaction_is_not_called_an_unreachable_server() -> None:
    import psycopg.errors as pg

    from memoir.store.postgres.errors import translate

    for error in (pg.DeadlockDetected("deadlock detected"), pg.SerializationFailure("could not serialize")):
        said = str(translate(error, "postgresql://u@db/x"))
        assert "try again" in said and "cannot reach" not in said
    assert "past its limits" in str(translate(pg.StatementTooComplex("stack depth limit exceeded"), "here"))
