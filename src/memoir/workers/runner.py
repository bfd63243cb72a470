"""The outbox runner: takes entries in FIFO order, runs their jobs, replays after crashes.

A runner serves one lane (`memoir.workers.jobs`): it claims only the entries of that
lane's jobs. One runner per lane works on a home at a time (it holds the store's
lease for its lane; another process's runner waits and takes over if this one dies). For each batch the
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
import time
from collections.abc import Callable, Sequence

from memoir.config import WorkerSettings
from memoir.errors import WorkerError
from memoir.model import Event, OutboxEntry, now_ms
from memoir.store import Store
from memoir.workers.jobs import FAST_LANE, JobRegistry

__all__ = ["OutboxRunner"]

log = logging.getLogger("memoir.workers")
MAX_BACKOFF_MS = 60_000
_DEFAULTS = WorkerSettings()


class OutboxRunner:
    def __init__(
        self,
        store: Store,
        registry: JobRegistry,
        *,
        lane: str = FAST_LANE,
        batch_size: int = _DEFAULTS.batch_size,
        max_attempts: int = _DEFAULTS.max_attempts,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.store = store
        self.registry = registry
        self.lane = lane
        self.processed = 0  # events whose work this runner finished, for progress reports
        self.stopping = False  # set when its worker is asked to stop: failures then are not the job's
        self.batch_size = batch_size
        self.max_attempts = max_attempts
        self._clock = clock

    @property
    def actions(self) -> list[str]:
        """The jobs of this runner's lane (looked up each time: jobs may be registered later)."""
        return self.registry.names_in(self.lane)

    def pending(self) -> int:
        """Entries of this lane's jobs not given up on, due now or later."""
        return self.store.outbox_pending(self.actions)

    def run_once(self) -> int:
        """Process one batch; returns how many events' work it finished. The caller holds the lease."""
        now = self._clock()
        entries = self.store.next_outbox(self.actions, self.batch_size, now)
        if not entries:
            return 0
        events = self.store.get_many([event_id for e in entries for event_id in e.event_ids])
        done = 0
        for action, group in _group_by_action(entries).items():
            done += self._run_group(action, group, events)
        self.processed += done
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
            if self.stopping:  # the home is closing under the job: not its fault, replayed next time
                log.info("job %s interrupted by shutdown (%s); its entries stay for the next runner", action, exc)
                return 0
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
