"""The circuit breaker of seed 001: stop calling a failing LLM, try again later.

closed --(3 consecutive failures)--> open --(30 s)--> half-open --(success)--> closed
                                       ^                  |
                                       +----(failure)-----+

While open, callers skip the LLM and use heuristics at once instead of waiting on a
server that is down. Half-open lets one trial call through; its result decides.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["BreakerState", "CircuitBreaker"]


class BreakerState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half-open"


@dataclass(frozen=True)
class BreakerSnapshot:
    state: BreakerState
    consecutive_failures: int
    last_error: str | None


class CircuitBreaker:
    def __init__(
        self, threshold: int = 3, reset_after: float = 30.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.threshold = threshold
        self.reset_after = reset_after
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at: float | None = None
        self._trial_running = False
        self._last_error: str | None = None

    @property
    def state(self) -> BreakerState:
        with self._lock:
            return self._state()

    def _state(self) -> BreakerState:
        if self._opened_at is None:
            return BreakerState.CLOSED
        if self._clock() - self._opened_at >= self.reset_after:
            return BreakerState.HALF_OPEN
        return BreakerState.OPEN

    def allow(self) -> bool:
        """May a call go to the LLM now? In half-open state, only one trial at a time."""
        with self._lock:
            state = self._state()
            if state is BreakerState.CLOSED:
                return True
            if state is BreakerState.HALF_OPEN and not self._trial_running:
                self._trial_running = True
                return True
            return False

    def record_success(self) -> None:
        with self._lock:
            self._failures, self._opened_at, self._trial_running, self._last_error = 0, None, False, None

    def record_failure(self, error: str = "") -> None:
        with self._lock:
            self._failures += 1
            self._last_error = error or None
            if self._trial_running or self._failures >= self.threshold:
                self._opened_at = self._clock()  # (re)open: wait another reset period
            self._trial_running = False

    def snapshot(self) -> BreakerSnapshot:
        with self._lock:
            return BreakerSnapshot(self._state(), self._failures, self._last_error)
