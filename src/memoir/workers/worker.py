"""Workers: the threads and loops that run outbox runners, one per lane.

`Lanes` is what a `Memoir` owns: a runner per lane of its registry and, when the worker
is enabled, a `BackgroundWorker` thread per lane. Each ingest call runs inside
`Lanes.ingesting()`, which lets foreground ingest win: while a call is under way and
until `QUIET` seconds after the last one, workers hold back (up to `MAX_DEFER` seconds at
a time) so that acknowledging an event never queues behind a runner's transaction; a
turn that arrives alone is picked up `QUIET` seconds after it, when the workers are woken.

`run_in_foreground` is `memoir worker`: the same runners, in the calling thread, until
interrupted (or until the outbox is drained, with `once`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from memoir.config import WorkerSettings
from memoir.errors import ConfigError, StoreError, WorkerError
from memoir.model.wording import counted
from memoir.store import RunnerLease, Store
from memoir.workers.jobs import JobRegistry
from memoir.workers.runner import OutboxRunner

__all__ = ["MAX_DEFER", "QUIET", "BackgroundWorker", "Lanes", "run_in_foreground"]

log = logging.getLogger("memoir.workers")
QUIET = 0.02  # seconds without ingest before workers start on new entries
MAX_DEFER = WorkerSettings().max_defer  # the longest workers hold back while ingest keeps arriving
ERROR_PAUSE_S = 2.0  # after a failed step: a full disk or a broken model is not fixed in milliseconds


class Pacer:
    """Tells workers how long to hold back so that foreground ingest wins the write lock."""

    def __init__(self, quiet: float = QUIET, max_defer: float = MAX_DEFER) -> None:
        self.quiet = quiet
        self.max_defer = max_defer
        self._active = 0  # ingest calls under way (a batch of 1,000 takes tens of ms)
        self._last_ingest = 0.0
        self._busy_since: float | None = None
        self._lock = threading.Lock()  # several threads may ingest at once

    @contextmanager
    def ingesting(self) -> Iterator[None]:
        with self._lock:
            now = time.monotonic()
            if self._busy_since is None or (not self._active and now - self._last_ingest > self.quiet):
                self._busy_since = now  # a new burst starts
            self._active += 1
        try:
            yield
        finally:
            with self._lock:
                self._active -= 1
                self._last_ingest = time.monotonic()

    def hold_back(self) -> float:
        """Seconds to wait before the next batch (0: go now)."""
        now = time.monotonic()
        idle = now - self._last_ingest
        if (idle >= self.quiet and not self._active) or self._busy_since is None or not self.max_defer:
            return 0.0
        if now - self._busy_since >= self.max_defer:
            self._busy_since = now  # one batch now, then hold back again
            return 0.0
        return max(self.quiet - idle, 0.005)


class BackgroundWorker:
    """Runs an OutboxRunner on a daemon thread while it can hold its lane's lease.

    When idle it sleeps until `wake()` (called by ingest) or `poll_interval`. After a
    partial batch it lingers `linger` seconds so that entries arriving one by one are
    processed in groups, not in one small transaction each. Full batches are followed
    at once by the next.
    """

    def __init__(
        self,
        runner: OutboxRunner,
        *,
        poll_interval: float = WorkerSettings().poll_interval,
        linger: float = 0.05,
        hold_back: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self.runner = runner
        self.poll_interval = poll_interval
        self.linger = min(linger, poll_interval)
        self._hold_back = hold_back
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.holds_lease = False
        self.last_error: str | None = None

    def start(self) -> None:
        if self._thread is None:
            self.runner.stopping = False
            name = f"memoir-{self.runner.lane}"
            self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
            self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def request_stop(self) -> None:
        self.runner.stopping = True
        self._stop.set()
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop and wait; a job still running after `timeout` (a model call) is left to be replayed."""
        self.request_stop()
        if self._thread is not None:
            if self._thread.ident is not None:  # an interrupt may have come between making and starting it
                self._thread.join(timeout)
            self._thread = None

    def _loop(self) -> None:
        lease: RunnerLease | None = None
        try:
            self.runner.store.replayable_writes()
            while not self._stop.is_set():
                if lease is None:
                    lease = self._take_lease()
                    if lease is None:  # another process's runner works on this lane
                        self._stop.wait(self.poll_interval)
                        continue
                self._pause()
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

    def _take_lease(self) -> RunnerLease | None:
        lease = self.runner.store.try_runner_lease(self.runner.lane)
        self.holds_lease = lease is not None
        return lease

    def _pause(self) -> None:
        while (wait := self._hold_back()) > 0 and not self._stop.is_set():
            self._stop.wait(wait)

    def _step(self) -> int:
        try:
            done = self.runner.run_once()
            self.last_error = None
            return done
        except Exception as exc:  # keep the thread alive: the store may recover (disk space, locks)
            error = f"{type(exc).__name__}: {exc}"
            if error != self.last_error:  # once per new error, not every poll: the log may be on that full disk
                log.exception("outbox runner (%s lane) failed; retrying until it works", self.runner.lane)
            self.last_error = error
            self._stop.wait(ERROR_PAUSE_S)
            return 0


class Lanes:
    """One runner per lane of a registry, and optionally a background worker for each."""

    def __init__(self, store: Store, registry: JobRegistry, settings: WorkerSettings) -> None:
        self.store = store
        self.registry = registry
        self.settings = settings
        self.pacer = Pacer(max_defer=settings.max_defer)
        self._runners: dict[str, OutboxRunner] = {}
        self._workers: dict[str, BackgroundWorker] = {}

    def runner(self, lane: str) -> OutboxRunner:
        if lane not in self._runners:
            self._runners[lane] = OutboxRunner(
                self.store,
                self.registry,
                lane=lane,
                batch_size=self.settings.batch_size,
                max_attempts=self.settings.max_attempts,
            )
        return self._runners[lane]

    def select(self, names: Iterable[str] | None) -> list[str]:
        """The lanes named (all with jobs when None); an unknown name is a ConfigError."""
        known = self.registry.lanes
        chosen = known if names is None else list(dict.fromkeys(names))
        unknown = [name for name in chosen if name not in known]
        if unknown:
            raise ConfigError(f"no lane {unknown[0]!r}; lanes with jobs: {', '.join(known)}")
        return chosen

    def start(self, names: Iterable[str] | None = None) -> None:
        """A background thread per lane (lanes registered later get one at their first ingest)."""
        for lane in self.registry.lanes if names is None else names:
            if lane not in self._workers:
                worker = BackgroundWorker(
                    self.runner(lane), poll_interval=self.settings.poll_interval, hold_back=self.pacer.hold_back
                )
                self._workers[lane] = worker
                worker.start()

    def worker(self, lane: str) -> BackgroundWorker | None:
        return self._workers.get(lane)

    @contextmanager
    def ingesting(self) -> Iterator[None]:
        """Around an ingest call: workers hold back meanwhile, and are woken after it."""
        with self.pacer.ingesting():
            yield
        if self._workers:
            self.start()  # a job registered since may have opened a lane
            for worker in self._workers.values():
                worker.wake()

    def wake(self) -> None:
        for worker in self._workers.values():
            worker.wake()

    def stop(self) -> None:
        for worker in self._workers.values():  # all at once: a lane waiting on a model may take a while
            worker.request_stop()
        for worker in self._workers.values():
            worker.stop()
        self._workers.clear()

    def pending(self) -> int:
        return sum(self.runner(lane).pending() for lane in self.registry.lanes)

    def flush(self, timeout: float | None = None, lanes: Iterable[str] | None = None) -> bool:
        """Wait until the lanes' entries are done (all lanes by default); False if `timeout` seconds passed first.

        A lane with a live worker in this process is woken and waited for; any other lane
        is drained by the calling thread, unless another process's runner holds its lease,
        in which case that runner is waited for.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        chosen = self.select(lanes)
        for lane in chosen:
            worker = self._workers.get(lane)
            if worker is not None and worker.alive:
                worker.wake()
            elif not self._drain_here(lane, deadline):
                return False
        while sum(self.runner(lane).pending() for lane in chosen):
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def _drain_here(self, lane: str, deadline: float | None) -> bool:
        lease = self.store.try_runner_lease(lane)
        if lease is None:
            return True  # another process's runner has it: wait for it with the others
        try:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            runner = self.runner(lane)
            runner.stopping = False  # drained here now, whatever its stopped thread left
            return runner.drain(left)
        finally:
            lease.release()

    def describe(self) -> dict[str, str]:
        """Each lane's worker, in words (for status)."""
        return {lane: self._describe(lane) for lane in self.registry.lanes}

    def _describe(self, lane: str) -> str:
        worker = self._workers.get(lane)
        if worker is not None and worker.alive and worker.holds_lease:
            if worker.last_error:
                return f"running in this process, retrying after an error: {worker.last_error}"
            return "running in this process"
        try:
            lease = self.store.try_runner_lease(lane)
        except StoreError as exc:  # status must answer even when the lock file cannot be made
            return f"unknown: {exc}"
        if lease is None:
            return "running in another process"
        lease.release()
        return "not running (its jobs wait for `memoir worker` or the next Memoir.open)"


def run_in_foreground(
    lanes: Lanes,
    names: Iterable[str] | None,
    *,
    once: bool,
    report: Callable[[str], None],
    stop: threading.Event | None = None,
) -> int:
    """`memoir worker`: run the named lanes (all by default), each in its own thread.

    Runs until `stop` is set (or until interrupted), standing by for any lane another
    process's runner holds; with `once`, drains the chosen lanes and returns. Either way the
    runners finish the batch in hand. Returns the events processed.
    """
    chosen = lanes.select(names)
    if once:
        return _drain_all(lanes, chosen)
    lanes.start(chosen)
    try:
        _watch(lanes, chosen, report, stop or threading.Event())
    finally:
        lanes.stop()
    return sum(lanes.runner(lane).processed for lane in chosen)


def _drain_all(lanes: Lanes, chosen: list[str]) -> int:
    taken: list[RunnerLease] = []
    try:
        for lane in chosen:
            lease = lanes.store.try_runner_lease(lane)
            if lease is None:
                raise WorkerError(f"another runner works on the {lane} lane of this home; it will drain it")
            taken.append(lease)
        threads = [threading.Thread(target=lanes.runner(lane).drain, name=f"memoir-{lane}") for lane in chosen]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for lease in taken:
            lease.release()
    return sum(lanes.runner(lane).processed for lane in chosen)


def _watch(lanes: Lanes, chosen: list[str], report: Callable[[str], None], stop: threading.Event) -> None:
    """Report progress and stand by until `stop` is set (or interrupted)."""
    reported = dict.fromkeys(chosen, -1)
    while not stop.wait(lanes.settings.poll_interval):
        for lane in chosen:
            worker = lanes.worker(lane)
            processed = lanes.runner(lane).processed
            if worker is not None and not worker.holds_lease and reported[lane] != -2:
                report(f"standby: another runner works on the {lane} lane; taking over when it stops")
                reported[lane] = -2
            elif processed != reported[lane] and (worker is None or worker.holds_lease):
                report(f"{lane} lane: {counted(processed, 'event')} processed")
                reported[lane] = processed
