"""The outbox runner: takes entries in FIFO order, runs their jobs, replays after crashes.

One runner works on a home at a time (it holds the store's runner lease; another
process's runner waits and takes over if this one dies). For each batch the
runner groups entries by action and, per action, runs the job and removes its
entries in one transaction. When a batch fails, its entries are retried one by
one so a single bad entry cannot hold back the others; an entry that keeps
failing is retried with backoff and, after `max_attempts`, set aside as failed
(visible in `memoir status`, put back with `memoir worker --retry-failed`).

Nothing is lost on a crash: an entry is removed only in the transaction that
commits its job's work, so after a restart whatever is left is simply run.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence

from memoir.errors import WorkerError
from memoir.model import Event, OutboxEntry
from memoir.store import RunnerLease, Store
from memoir.workers.jobs import JobRegistry

__all__ = ["BackgroundWorker", "OutboxRunner"]

log = logging.getLogger("memoir.workers")
MAX_BACKOFF_MS = 60_000


def _now_ms() -> int:
    return int(time.time() * 1000)


class OutboxRunner:
    def __init__(
        self,
        store: Store,
        registry: JobRegistry,
        *,
        batch_size: int = 500,
        max_attempts: int = 5,
        clock: Callable[[], int] = _now_ms,
    ) -> None:
        self.store = store
        self.registry = registry
        self.batch_size = batch_size
        self.max_attempts = max_attempts
        self._clock = clock

    def pending(self) -> int:
        """Entries this runner has jobs for and has not given up on, due now or later."""
        return self.store.outbox_pending(self.registry.names)

    def run_once(self) -> int:
        """Process one batch; returns how many events' work it finished. The caller holds the lease."""
        now = self._clock()
        entries = self.store.next_outbox(self.registry.names, self.batch_size, now)
        if not entries:
            return 0
        events = self.store.get_many([event_id for e in entries for event_id in e.event_ids])
        done = 0
        for action, group in _group_by_action(entries).items():
            done += self._run_group(action, group, events)
        return done

    def drain(self, timeout: float | None = None) -> bool:
        """Run batches until no entry is left (entries given up on excepted).

        Entries waiting out a retry backoff are waited for. False if `timeout`
        seconds passed first.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self.run_once():
                continue
            if self.pending() == 0:
                return True
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.05)  # what is left waits out a retry backoff

    def _run_group(self, action: str, group: list[OutboxEntry], events: dict[str, Event]) -> int:
        try:
            self._commit(action, group, events)
            return sum(e.size for e in group)
        except Exception as exc:  # noqa: BLE001 - any job failure is recorded on its entry, never fatal
            if len(group) == 1 and group[0].size == 1:
                self._fail(group[0], exc)
                return 0
            log.warning("job %s failed on %d events (%s); retrying them one by one", action, len(group), exc)
        done = 0
        for entry in self._singles(group, events):
            try:
                self._commit(action, [entry], events)
                done += 1
            except Exception as exc:  # noqa: BLE001 - as above
                self._fail(entry, exc)
        return done

    def _singles(self, group: list[OutboxEntry], events: dict[str, Event]) -> list[OutboxEntry]:
        """One entry per event: many-event entries are split in the store, so each retries alone."""
        singles: list[OutboxEntry] = []
        for entry in group:
            if entry.size == 1:
                singles.append(entry)
            else:
                stamps = {i: events[i].timestamp_ms for i in entry.event_ids if i in events}
                singles.extend(self.store.split_outbox(entry, stamps))
        return singles

    def _commit(self, action: str, entries: Sequence[OutboxEntry], events: dict[str, Event]) -> None:
        job = self.registry.get(action)
        if job is None:
            raise WorkerError(f"no job registered for action {action!r}")
        wanted = [event_id for e in entries for event_id in e.event_ids]
        missing = [event_id for event_id in wanted if event_id not in events]
        if missing:
            raise WorkerError(f"outbox entry refers to missing event {missing[0]}")
        batch = [events[event_id] for event_id in wanted]
        prepare = getattr(job, "prepare", None)
        if prepare is not None:  # outside the transaction: slow work must not hold the write lock
            prepare(batch, self.store)
        with self.store.atomic():
            job.run(batch, self.store)
            self.store.complete_outbox(action, entries, self._clock())

    def _fail(self, entry: OutboxEntry, exc: Exception) -> None:
        attempts = entry.attempts + 1
        give_up = attempts >= self.max_attempts
        now = self._clock()
        retry_at = now + min(1000 * 2 ** (attempts - 1), MAX_BACKOFF_MS)
        error = f"{type(exc).__name__}: {exc}"
        if give_up:
            log.error("job %s gave up on event %s after %d attempts: %s", entry.action, entry.event_id, attempts, error)
        else:
            log.warning("job %s failed on event %s (attempt %d): %s", entry.action, entry.event_id, attempts, error)
        self.store.fail_outbox(entry, error, retry_at, give_up, now)


def _group_by_action(entries: Sequence[OutboxEntry]) -> dict[str, list[OutboxEntry]]:
    groups: dict[str, list[OutboxEntry]] = {}
    for entry in entries:
        groups.setdefault(entry.action, []).append(entry)
    return groups


class BackgroundWorker:
    """Runs an OutboxRunner on a daemon thread while it can hold the runner lease.

    When idle it sleeps until `wake()` (called by ingest) or `poll_interval`. After a
    partial batch it lingers `linger` seconds so that entries arriving one by one are
    processed in groups, not in one small transaction each, which would compete with
    ingest for the write lock. Full batches are followed at once by the next.
    """

    def __init__(self, runner: OutboxRunner, *, poll_interval: float = 0.5, linger: float = 0.05) -> None:
        self.runner = runner
        self.poll_interval = poll_interval
        self.linger = min(linger, poll_interval)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.holds_lease = False
        self.last_error: str | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="memoir-outbox", daemon=True)
            self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _loop(self) -> None:
        lease: RunnerLease | None = None
        try:
            self.runner.store.replayable_writes()
            while not self._stop.is_set():
                if lease is None:
                    lease = self.runner.store.try_runner_lease()
                    self.holds_lease = lease is not None
                    if lease is None:  # another runner works on this home
                        self._stop.wait(self.poll_interval)
                        continue
                done = self._step()
                if done >= self.runner.batch_size:
                    continue
                if done:
                    self._stop.wait(self.linger)
                else:
                    self._wake.wait(self.poll_interval)
                    self._wake.clear()
        finally:
            self.holds_lease = False
            if lease is not None:
                lease.release()

    def _step(self) -> int:
        try:
            done = self.runner.run_once()
            self.last_error = None
            return done
        except Exception as exc:  # keep the thread alive: the store may recover (disk space, locks)
            self.last_error = f"{type(exc).__name__}: {exc}"
            log.exception("outbox runner failed; retrying in %.1f s", self.poll_interval)
            return 0
