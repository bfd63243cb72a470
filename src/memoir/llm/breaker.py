"""The circuit breaker of seed 001: stop calling a failing LLM, try again later.

closed --(3 consecutive failures)--> open --(30 s)--> half-open --(success)--> closed
                                       ^                  |
                                       +----(failure)-----+

While open, callers skip the LLM and use heuristics at once instead of waiting on a
server that is down. Half-open lets one trial call through; its result decides.

Its state may live in the store (`BreakerRecord` through a `BreakerStorage`), so that
every process of a home, worker and CLI alike, sees the same breaker: a server found
dead by the worker is not tried again by the next `memoir ingest`, and `memoir status`
and `memoir doctor` can say so. Times are then wall-clock milliseconds (processes share
no monotonic clock); a trial is leased until a deadline, so a trial whose process died
does not keep the breaker half-open for ever.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Protocol

__all__ = ["BreakerRecord", "BreakerSnapshot", "BreakerState", "BreakerStorage", "CircuitBreaker", "RowStorage"]


class BreakerState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half-open"


@dataclass(frozen=True)
class BreakerSnapshot:
    state: BreakerState
    consecutive_failures: int
    last_error: str | None
    since: float | None = None  # when it opened (clock seconds), if it is not closed


@dataclass(frozen=True)
class BreakerRecord:
    """A breaker's state as stored: failures in a row, when it opened, until when a trial runs."""

    failures: int = 0
    opened_at: float | None = None
    trial_until: float | None = None
    last_error: str | None = None


class BreakerStorage(Protocol):
    """Where a breaker keeps its record; `update` reads, changes and writes it atomically."""

    def read(self) -> BreakerRecord: ...

    def update(self, change: Callable[[BreakerRecord], BreakerRecord]) -> BreakerRecord: ...


class _InMemory:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._record = BreakerRecord()

    def read(self) -> BreakerRecord:
        return self._record

    def update(self, change: Callable[[BreakerRecord], BreakerRecord]) -> BreakerRecord:
        with self._lock:
            self._record = change(self._record)
            return self._record


Row = tuple[int, int | None, int | None, str | None]  # failures, opened ms, trial until ms, last error


class RowStorage:
    """A breaker record kept as a row somewhere shared (the store), times in wall-clock milliseconds."""

    def __init__(self, read_row: Callable[[], Row], update_row: Callable[[Callable[[Row], Row]], Row]) -> None:
        self._read_row = read_row
        self._update_row = update_row

    def read(self) -> BreakerRecord:
        return _record(self._read_row())

    def update(self, change: Callable[[BreakerRecord], BreakerRecord]) -> BreakerRecord:
        return _record(self._update_row(lambda row: _row(change(_record(row)))))


def _record(row: Row) -> BreakerRecord:
    failures, opened, trial, error = row
    return BreakerRecord(
        failures, None if opened is None else opened / 1000, None if trial is None else trial / 1000, error
    )


def _row(record: BreakerRecord) -> Row:
    def ms(seconds: float | None) -> int | None:
        return None if seconds is None else int(seconds * 1000)

    return (record.failures, ms(record.opened_at), ms(record.trial_until), record.last_error)


class CircuitBreaker:
    def __init__(
        self,
        threshold: int = 3,
        reset_after: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        storage: BreakerStorage | None = None,
        trial_lease: float = 300.0,
    ) -> None:
        self.threshold = threshold
        self.reset_after = reset_after
        self.trial_lease = trial_lease  # a trial not reported within this is taken as lost
        self._clock = clock
        self._storage: BreakerStorage = storage or _InMemory()

    def _state(self, record: BreakerRecord, now: float) -> BreakerState:
        if record.opened_at is None:
            return BreakerState.CLOSED
        if now - record.opened_at >= self.reset_after:
            return BreakerState.HALF_OPEN
        return BreakerState.OPEN

    @property
    def state(self) -> BreakerState:
        return self.snapshot().state

    def allow(self) -> bool:
        """May a call go to the LLM now? In half-open state, only one trial at a time (in any process)."""
        allowed = False

        def change(record: BreakerRecord) -> BreakerRecord:
            nonlocal allowed
            now = self._clock()
            state = self._state(record, now)
            if state is BreakerState.CLOSED:
                allowed = True
                return record
            if state is BreakerState.HALF_OPEN and (record.trial_until is None or record.trial_until < now):
                allowed = True
                return replace(record, trial_until=now + self.trial_lease)
            return record

        self._storage.update(change)
        return allowed

    def record_success(self) -> None:
        self._storage.update(lambda record: BreakerRecord() if record != BreakerRecord() else record)

    def record_failure(self, error: str = "") -> None:
        def change(record: BreakerRecord) -> BreakerRecord:
            failures = record.failures + 1
            trial = record.trial_until is not None
            opened = self._clock() if trial or failures >= self.threshold else record.opened_at  # (re)open
            return BreakerRecord(failures, opened, None, error[:500] or None)

        self._storage.update(change)

    def snapshot(self) -> BreakerSnapshot:
        record = self._storage.read()  # a read: status and doctor never write
        state = self._state(record, self._clock())
        return BreakerSnapshot(state, record.failures, record.last_error, record.opened_at)
