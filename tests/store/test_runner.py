"""The outbox runner: FIFO, removal only after success, retries, give-up, replay, exactly once,
and progress kept step by step for jobs that commit every few events."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from memoir import ConfigError, Event, StoreError
from memoir.store import SQLiteStore, Store
from memoir.workers import BackgroundWorker, JobRegistry, OutboxRunner, TrackSessionJob

pytestmark = (
    pytest.mark.sqlite_only
)  # the jobs here write through the SQLite connection: test_postgres_outbox is PostgreSQL's runner


def ev(text: str = "hi", **fields: object) -> Event:
    data: dict[str, object] = {"session_id": "s1", "event_type": "user_message", "text": text, **fields}
    return Event.from_dict(data)


class Recorder:
    """A job that records what it saw, in memory and in its own table (inside the runner's transaction)."""

    def __init__(self, name: str = "record", fail_on: Sequence[str] = ()) -> None:
        self.name = name
        self.fail_on = set(fail_on)
        self.seen: list[str] = []

    def wants(self, event: Event) -> bool:
        return True

    def run(self, events: Sequence[Event], store: Store) -> None:
        for event in events:
            if event.text in self.fail_on:
                raise ValueError(f"cannot handle {event.text!r}")
        assert isinstance(store, SQLiteStore)
        conn = store.connection()
        conn.execute("CREATE TABLE IF NOT EXISTS recorded (event_id TEXT NOT NULL)")
        conn.executemany("INSERT INTO recorded VALUES (?)", [(e.event_id,) for e in events])
        self.seen.extend(e.text for e in events)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    opened = SQLiteStore.open(tmp_path / "memoir.db")
    yield opened
    opened.close()


def registry_with(*jobs: object) -> JobRegistry:
    registry = JobRegistry()
    for job in jobs:
        registry.register(job)  # type: ignore[arg-type]
    return registry


def recorded(store: SQLiteStore) -> list[str]:
    return [row[0] for row in store.connection().execute("SELECT event_id FROM recorded ORDER BY rowid")]


def test_entries_are_processed_in_fifo_order_and_then_removed(store: SQLiteStore) -> None:
    job = Recorder()
    registry = registry_with(job)
    for event in (ev("first", timestamp=3000), ev("second", timestamp=1000), ev("third")):
        store.append([event], registry.actions_for)  # three ingest calls, three entries
    runner = OutboxRunner(store, registry, batch_size=2)
    assert runner.run_once() == 2
    assert runner.run_once() == 1
    assert job.seen == ["first", "second", "third"]  # arrival order, not timestamp order
    assert store.outbox_entries() == []


def test_a_checkpoint_records_each_jobs_progress(store: SQLiteStore) -> None:
    registry = registry_with(Recorder())
    store.append([ev("a"), ev("b")], registry.actions_for)
    OutboxRunner(store, registry).drain()
    [checkpoint] = store.checkpoints()
    assert (checkpoint.job, checkpoint.processed, checkpoint.failed) == ("record", 2, 0)
    assert checkpoint.last_seq >= 1


def test_a_failing_entry_stays_with_its_error_and_does_not_hold_back_the_others(store: SQLiteStore) -> None:
    job = Recorder(fail_on=["poison"])
    registry = registry_with(job)
    store.append([ev("ok-1"), ev("poison"), ev("ok-2")], registry.actions_for)
    runner = OutboxRunner(store, registry)
    assert runner.run_once() == 2
    assert job.seen == ["ok-1", "ok-2"]
    [left] = store.outbox_entries()
    assert left.attempts == 1
    assert left.last_error == "ValueError: cannot handle 'poison'"


class FullDisk(Recorder):
    def run(self, events: Sequence[Event], store: Store) -> None:
        raise StoreError("the disk holding memoir.db is full: free disk space, then retry")


def test_a_failing_store_is_not_held_against_the_entries(store: SQLiteStore) -> None:
    """A full disk is nobody's fault: the error reaches the worker, no attempt is counted, nothing is split."""
    registry = registry_with(FullDisk())
    store.append([ev("a"), ev("b")], registry.actions_for)
    runner = OutboxRunner(store, registry)
    with pytest.raises(StoreError, match=r"disk .* is full"):
        runner.run_once()
    [entry] = store.outbox_entries()
    assert (entry.attempts, entry.size, entry.last_error) == (0, 2, None)


def test_a_failed_entry_waits_out_a_backoff_then_is_given_up_after_max_attempts(store: SQLiteStore) -> None:
    clock = [1_000_000]
    registry = registry_with(Recorder(fail_on=["poison"]))
    store.append([ev("poison")], registry.actions_for)
    runner = OutboxRunner(store, registry, max_attempts=3, clock=lambda: clock[0])
    runner.run_once()
    assert runner.run_once() == 0 and store.outbox_entries()[0].attempts == 1  # backing off
    for _ in range(2):
        clock[0] += 120_000
        runner.run_once()
    assert store.outbox_pending() == 0
    assert store.stats().outbox_failed == {"record": 1}
    assert store.checkpoints()[0].failed == 1
    assert runner.drain(timeout=1)  # given-up entries do not block a drain


def test_failed_entries_can_be_put_back_in_the_queue(store: SQLiteStore) -> None:
    job = Recorder(fail_on=["flaky"])
    registry = registry_with(job)
    store.append([ev("flaky")], registry.actions_for)
    OutboxRunner(store, registry, max_attempts=1).run_once()
    assert store.outbox_pending() == 0
    job.fail_on.clear()
    assert store.retry_failed() == 1
    OutboxRunner(store, registry).drain()
    assert job.seen == ["flaky"]


def test_a_jobs_store_writes_and_the_entry_removal_commit_together(store: SQLiteStore) -> None:
    class WritesThenFails(Recorder):
        def run(self, events: Sequence[Event], store: Store) -> None:
            super().run(events, store)
            raise RuntimeError("after writing")

    registry = registry_with(WritesThenFails())
    store.connection().execute("CREATE TABLE recorded (event_id TEXT NOT NULL)")
    store.append([ev("x")], registry.actions_for)
    OutboxRunner(store, registry).run_once()
    assert store.connection().execute("SELECT count(*) FROM recorded").fetchone()[0] == 0
    assert len(store.outbox_entries()) == 1


def test_each_job_owns_its_entries_and_fails_independently(store: SQLiteStore) -> None:
    good, bad = Recorder("good"), Recorder("bad", fail_on=["x"])
    registry = registry_with(good, bad)
    store.append([ev("x")], registry.actions_for)
    OutboxRunner(store, registry).run_once()
    assert good.seen == ["x"]
    assert [e.action for e in store.outbox_entries()] == ["bad"]


def test_entries_of_jobs_this_runner_does_not_know_are_left_alone(store: SQLiteStore) -> None:
    store.append([ev("x")], lambda e: ["someone_elses_job"])
    runner = OutboxRunner(store, registry_with(Recorder()))
    assert runner.run_once() == 0
    assert runner.drain(timeout=1)
    assert [e.action for e in store.outbox_entries()] == ["someone_elses_job"]


def test_a_big_batch_is_processed_together_and_counted_by_events(store: SQLiteStore) -> None:
    job = Recorder()
    registry = registry_with(job)
    store.append([ev(f"e{i}") for i in range(50)], registry.actions_for)
    assert len(store.outbox_entries()) == 1
    assert OutboxRunner(store, registry, batch_size=10).run_once() == 50  # an entry is never cut
    assert len(job.seen) == 50 and store.checkpoints()[0].processed == 50


class Killed(BaseException):
    """Stands for SIGKILL: nothing in the runner catches it, and the open transaction rolls back."""


class Stepped(Recorder):
    """A slow job's shape: work in `prepare`, `commit_every` events per commit; it remembers each step's size."""

    def __init__(self, commit_every: object, crash_on: str = "", **options: Sequence[str]) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.commit_every = commit_every
        self.crash_on = crash_on
        self.steps: list[int] = []

    def prepare(self, events: Sequence[Event], store: Store) -> None:
        if any(event.text == self.crash_on for event in events):
            raise Killed

    def run(self, events: Sequence[Event], store: Store) -> None:
        super().run(events, store)
        self.steps.append(len(events))


def test_a_job_that_commits_every_few_events_gets_them_in_steps_across_entries(store: SQLiteStore) -> None:
    job = Stepped(commit_every=3)
    registry = registry_with(job)
    events = [ev(f"e{i}") for i in range(7)]
    for batch in (events[:2], events[2:4], events[4:]):
        store.append(batch, registry.actions_for)  # entries of 2, 2 and 3 events
    assert OutboxRunner(store, registry).run_once() == 7
    assert job.steps == [3, 3, 1]
    assert recorded(store) == [e.event_id for e in events]
    assert store.outbox_entries() == [] and store.checkpoints()[0].processed == 7


def test_a_crash_inside_a_big_entry_loses_only_the_step_under_way(store: SQLiteStore) -> None:
    registry = registry_with(Stepped(commit_every=2, crash_on="e4"))
    events = [ev(f"e{i}") for i in range(6)]
    store.append(events, registry.actions_for)  # one entry of six events
    [entry] = store.outbox_entries()
    with pytest.raises(Killed):
        OutboxRunner(store, registry).run_once()
    [left] = store.outbox_entries()
    assert (left.seq, left.event_ids) == (entry.seq, (events[4].event_id, events[5].event_id))  # same place in line
    assert recorded(store) == [e.event_id for e in events[:4]]
    assert store.checkpoints()[0].processed == 4
    OutboxRunner(store, registry_with(Stepped(commit_every=2))).drain()
    assert recorded(store) == [e.event_id for e in events]  # each exactly once
    assert store.outbox_entries() == [] and store.checkpoints()[0].processed == 6


def test_a_stop_waits_for_the_step_under_way_not_for_the_whole_claim(store: SQLiteStore) -> None:
    job = Stepped(commit_every=1)
    registry = registry_with(job)
    store.append([ev(f"e{i}") for i in range(5)], registry.actions_for)
    runner = OutboxRunner(store, registry)
    job.prepare = lambda events, store: setattr(runner, "stopping", True)  # type: ignore[method-assign]
    assert runner.run_once() == 1
    assert store.outbox_pending() == 4


def test_a_failure_inside_a_stepped_entry_retries_only_what_is_left_one_by_one(store: SQLiteStore) -> None:
    registry = registry_with(Stepped(commit_every=1, fail_on=["poison"]))
    events = [ev("a"), ev("b"), ev("poison"), ev("c")]
    store.append(events, registry.actions_for)
    assert OutboxRunner(store, registry).run_once() == 3
    assert recorded(store) == [events[i].event_id for i in (0, 1, 3)]
    [left] = store.outbox_entries()
    assert (left.event_ids, left.attempts) == ((events[2].event_id,), 1)


def test_commit_every_must_be_a_number_of_events(store: SQLiteStore) -> None:
    registry = registry_with(Stepped(commit_every=0))
    store.append([ev("a")], registry.actions_for)
    with pytest.raises(ConfigError, match="commit_every=0"):
        OutboxRunner(store, registry).run_once()
    assert store.outbox_pending() == 1


def test_an_entry_cannot_be_shrunk_twice(store: SQLiteStore) -> None:
    store.append([ev("a"), ev("b"), ev("c")], lambda e: ["record"])
    [entry] = store.outbox_entries()
    left = entry.without_first(1, 0)
    with store.atomic():
        store.shrink_outbox(entry, left, 0)
    with pytest.raises(StoreError, match="changed under its runner"), store.atomic():
        store.shrink_outbox(entry, left, 0)  # a replay of the same step by a second runner
    assert store.outbox_entries()[0].event_ids == left.event_ids


def test_what_is_left_after_a_stop_is_replayed_by_the_next_runner_exactly_once(tmp_path: Path) -> None:
    first = SQLiteStore.open(tmp_path / "memoir.db")
    registry = registry_with(Recorder())
    events = [ev(f"e{i}") for i in range(10)]
    for start in range(0, 10, 2):
        first.append(events[start : start + 2], registry.actions_for)
    OutboxRunner(first, registry, batch_size=4).run_once()  # then the process "stops"
    first.close()
    second = SQLiteStore.open(tmp_path / "memoir.db")
    OutboxRunner(second, registry_with(Recorder())).drain()
    assert sorted(recorded(second)) == sorted(e.event_id for e in events)
    assert second.outbox_entries() == []
    second.close()


def test_the_session_catalogue_job_tracks_spans_counts_and_boundaries(store: SQLiteStore) -> None:
    registry = registry_with(TrackSessionJob())
    store.append(
        [
            ev("", event_type="session_start", timestamp=1000),
            ev("hi", timestamp=2000),
            ev("other", session_id="s2", timestamp=1500),
            ev("", event_type="session_end", timestamp=3000),
        ],
        registry.actions_for,
    )
    OutboxRunner(store, registry).drain()
    sessions = {s.session_id: s for s in store.sessions()}
    assert (sessions["s1"].first_ms, sessions["s1"].last_ms, sessions["s1"].event_count) == (1000, 3000, 3)
    assert sessions["s1"].started and sessions["s1"].ended
    assert sessions["s2"].event_count == 1 and not sessions["s2"].started


def test_the_background_worker_drains_the_outbox_and_releases_its_lease(store: SQLiteStore) -> None:
    job = Recorder()
    registry = registry_with(job)
    runner = OutboxRunner(store, registry)
    worker = BackgroundWorker(runner, poll_interval=0.05)
    worker.start()
    store.append([ev("a"), ev("b")], registry.actions_for)
    worker.wake()
    for _ in range(200):
        if not store.outbox_entries():
            break
        import time

        time.sleep(0.01)
    worker.stop()
    assert job.seen == ["a", "b"]
    lease = store.try_runner_lease()
    assert lease is not None
    lease.release()


def test_a_job_without_the_protocol_is_refused() -> None:
    from memoir import ConfigError

    with pytest.raises(ConfigError, match="is not a job"):
        JobRegistry().register(object())  # type: ignore[arg-type]
    registry = registry_with(Recorder())
    with pytest.raises(ConfigError, match="already registered"):
        registry.register(Recorder())
