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

A job that waits seconds per event (a model call) names how many events it settles per
commit (`commit_every`). The runner then works through its entries in steps of that many
events, each step committing the job's writes with the removal of the entries it finished
and the shrinking of the one it cut short (`shrink_outbox`, which keeps the entry's place).
A crash, or a stop, then costs only the step under way, however big the ingest call that
wrote the entry was. Jobs that name nothing (the fast lane's) commit a whole claim at once,
which is what makes them fast.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from memoir.config import WorkerSettings
from memoir.errors import ConfigError, StoreError, WorkerError
from memoir.model import Event, OutboxEntry, now_ms
from memoir.store import Store
from memoir.workers.jobs import FAST_LANE, Job, JobRegistry
from memoir.workers.scheduler import Ticker

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
        self.ticker = Ticker(store)

    @property
    def actions(self) -> list[str]:
        """The unpaused jobs of this runner's lane (looked up each time: jobs may be registered, paused later)."""
        names = self.registry.names_in(self.lane)
        paused = self.store.paused_jobs()
        return [name for name in names if name not in paused]

    def pending(self) -> int:
        """Entries of this lane's unpaused jobs not given up on, due now or later, and periodic work waiting."""
        return self.store.outbox_pending(self.actions) + self.ticker.backlog(self.registry.periodic_in(self.lane))

    def run_once(self) -> int:
        """Process one batch (or, with none waiting, tick the lane's periodic jobs); returns the work done.

        The caller holds the lease."""
        now = self._clock()
        entries = self.store.next_outbox(self.actions, self.batch_size, now)
        if not entries:
            return self.ticker.tick(self.registry.periodic_in(self.lane))
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
            try:
                if self.run_once():
                    continue
            except StoreError as exc:
                if deadline is None:
                    raise  # with no time limit, waiting for a store that fails would never end
                log.warning("outbox runner (%s lane) waits: %s", self.lane, exc)
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.2)
                continue
            if self.pending() == 0:
                return True
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.05)  # what is left waits out a retry backoff

    def _run_group(self, action: str, group: list[OutboxEntry], events: dict[str, Event]) -> int:
        """Run one job over its claimed entries, a step at a time; returns the events finished."""
        every = _commit_every(self.registry.get(action))
        pending, done = group, 0
        try:
            while pending:
                step, pending_after = _next_step(pending, every, events)
                self._commit(action, step, events)
                pending, done = pending_after, done + len(step.event_ids)
                if self.stopping:  # a stop waits for the step under way, not for the whole claim
                    return done
            return done
        except StoreError:
            # The store itself failed (a full disk, a lock held too long): not the job's fault and
            # not the entries', so no attempt is counted and nothing is set aside; the caller retries.
            raise
        except Exception as exc:  # noqa: BLE001 - any job failure is recorded on its entry, never fatal
            if self.stopping:  # the home is closing under the job: not its fault, replayed next time
                log.info("job %s interrupted by shutdown (%s); its entries stay for the next runner", action, exc)
                return done
            if len(pending) == 1 and pending[0].size == 1:
                self._fail(pending[0], exc)
                return done
            left = sum(e.size for e in pending)
            log.warning("job %s failed on %d events (%s); retrying them one by one", action, left, exc)
        return done + self._one_by_one(action, pending, events)

    def _one_by_one(self, action: str, pending: list[OutboxEntry], events: dict[str, Event]) -> int:
        done = 0
        for entry in self._singles(pending, events):
            if self.stopping:
                break
            try:
                self._commit(action, _Step((entry.event_id,), (entry,)), events)
                done += 1
            except StoreError:
                raise  # as in _run_group
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

    def _commit(self, action: str, step: _Step, events: dict[str, Event]) -> None:
        job = self.registry.get(action)
        if job is None:
            raise WorkerError(f"no job registered for action {action!r}")
        missing = [event_id for event_id in step.event_ids if event_id not in events]
        if missing:
            raise WorkerError(f"outbox entry refers to missing event {missing[0]}")
        batch = [events[event_id] for event_id in step.event_ids]
        prepare = getattr(job, "prepare", None)
        if prepare is not None:  # outside the transaction: slow work must not hold the write lock
            prepare(batch, self.store)
        with self.store.atomic():
            job.run(batch, self.store)
            now = self._clock()
            self.store.complete_outbox(action, step.finished, now)
            if step.cut is not None:
                self.store.shrink_outbox(*step.cut, now)

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


@dataclass(frozen=True, slots=True)
class _Step:
    """Events whose work commits together: the entries it finishes, and at most one it cuts short."""

    event_ids: tuple[str, ...]
    finished: tuple[OutboxEntry, ...]
    cut: tuple[OutboxEntry, OutboxEntry] | None = None  # (the entry as stored, what is left of it)


def _next_step(
    pending: Sequence[OutboxEntry], every: int | None, events: Mapping[str, Event]
) -> tuple[_Step, list[OutboxEntry]]:
    """The first `every` events of `pending` (all of them when None), and the entries left after them."""
    if every is None:
        return _Step(tuple(i for e in pending for i in e.event_ids), tuple(pending)), []
    taken: list[str] = []
    finished: list[OutboxEntry] = []
    for position, entry in enumerate(pending):
        room = every - len(taken)
        if entry.size > room:  # the step ends inside this entry: it shrinks, and stays first in line
            taken.extend(entry.event_ids[:room])
            next_event = events.get(entry.event_ids[room])
            left = entry.without_first(room, next_event.timestamp_ms if next_event else entry.timestamp_ms)
            return _Step(tuple(taken), tuple(finished), (entry, left)), [left, *pending[position + 1 :]]
        taken.extend(entry.event_ids)
        finished.append(entry)
        if len(taken) == every:
            return _Step(tuple(taken), tuple(finished)), list(pending[position + 1 :])
    return _Step(tuple(taken), tuple(finished)), []


def _commit_every(job: Job | None) -> int | None:
    """How many events the job settles per commit; None: all it is given at once."""
    every = getattr(job, "commit_every", None)
    if every is None:
        return None
    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        name = getattr(job, "name", "?")
        raise ConfigError(f"job {name!r} has commit_every={every!r}: give a number of events (1 or more), or None")
    return every
