"""State that lives as long as one agent session: small JSON files, fail-open (seed 001).

    <home>/sessions/<session>/hints.json     HintState: how often each hint was shown
    <home>/sessions/<session>/breaker.json   CircuitBreakerState: the auto-selection breaker

Session ids come from outside (an agent's hook payload, an environment variable), so they
are hostile: an id that is not `[A-Za-z0-9._-]{1,64}` (or that looks like a digested
one) becomes `x-` and a hash, never a path. Files are written atomically (a temporary
file in the same folder, then `os.replace`), and read fail-open: a missing, truncated,
oversized or hand-mangled file reads as empty state, because this state is a
convenience (hints, a breaker) that must never stop the command it serves. A write that
fails (full disk) raises `StoreError`; `HintState` and the breaker log it and go on.

A new session id is a new folder, so a new session starts with every hint and a closed
breaker: that is the seed's "reset when a new session starts".
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memoir.errors import InvalidInput, StoreError
from memoir.llm.breaker import BreakerRecord, CircuitBreaker

__all__ = [
    "HINT_THRESHOLD",
    "HintEntry",
    "HintState",
    "SessionBreakerStorage",
    "SessionState",
    "file_lock",
    "read_state",
    "safe_session",
    "session_breaker",
    "write_state",
]

log = logging.getLogger("memoir.session_state")

_SAFE = re.compile(r"[A-Za-z0-9._-]{1,64}")
_DIGESTED = re.compile(r"x-[0-9a-f]{32}")
_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_HINT_TYPE = re.compile(r"[a-z][a-z0-9-]{0,63}")
MAX_STATE_BYTES = 256 * 1024  # hints and a breaker fit in a few hundred bytes: anything bigger is not ours
HINT_THRESHOLD = 3
_LAST_SECOND = 253402300799  # 9999-12-31T23:59:59Z: times past it cannot be written back


def safe_session(session_id: str) -> str:
    """The folder name of a session: the id itself when tame, else `x-` and a hash (one per id)."""
    if _SAFE.fullmatch(session_id) and session_id not in (".", "..") and not _DIGESTED.fullmatch(session_id):
        return session_id
    # surrogatepass: an id decoded with surrogate escapes still hashes, and to its own digest.
    return "x-" + hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _seconds(value: object) -> float | None:
    """Epoch seconds of an ISO 8601 text written by `_iso` (or a person); None for anything else."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        seconds = (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).timestamp()
    except (ValueError, OverflowError):  # not a time, or one past datetime's range once in UTC
        return None
    return seconds if 0 <= seconds <= _LAST_SECOND else None


class SessionState:
    """The JSON files of one session under `<home>/sessions/`."""

    def __init__(self, home: Path, session_id: str) -> None:
        if not isinstance(session_id, str):
            raise InvalidInput("session_id", f"expected text, got {type(session_id).__name__}")
        self.session_id = session_id
        self.folder = Path(home) / "sessions" / safe_session(session_id)

    def _path(self, name: str) -> Path:
        if not _NAME.fullmatch(name):  # names are memoir's own; checked so no caller can make one a path
            raise InvalidInput("name", f"{name!r} is not a state name (a-z, 0-9, _ and -)")
        return self.folder / f"{name}.json"

    def read(self, name: str) -> dict[str, Any]:
        """The state `name` as a JSON object; `{}` when missing or unreadable (fail-open)."""
        path = self._path(name)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return {}
        try:
            with os.fdopen(fd, "rb") as handle:
                data = handle.read(MAX_STATE_BYTES + 1)
            value = json.loads(data) if len(data) <= MAX_STATE_BYTES else None
        except (OSError, ValueError, RecursionError):  # ValueError covers bad UTF-8 and bad JSON
            return {}
        return value if isinstance(value, dict) else {}

    def write(self, name: str, data: Mapping[str, Any]) -> None:
        """Replace the state `name` atomically; StoreError when the disk refuses."""
        path = self._path(name)
        text = json.dumps(dict(data), ensure_ascii=False, indent=2)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=f".{name}.", suffix=".tmp")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    handle.write(text)
                os.replace(tmp, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError as exc:
            raise StoreError(f"cannot write session state {path}: {exc.strerror or exc}") from exc

    def update(self, name: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
        """Read, change and write `name` under a lock, so two processes of a session lose no update."""
        with self._locked():
            value = change(self.read(name))
            self.write(name, value)
            return value

    def _locked(self) -> contextlib.AbstractContextManager[None]:
        return file_lock(self.folder / ".lock")


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on `path` (made if missing) for the block, across processes; StoreError if refused."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError as exc:
        raise StoreError(f"cannot lock {path}: {exc.strerror or exc}") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def read_state(home: Path, session_id: str, name: str) -> dict[str, Any]:
    """`SessionState(home, session_id).read(name)`: for callers that keep no object."""
    return SessionState(home, session_id).read(name)


def write_state(home: Path, session_id: str, name: str, data: Mapping[str, Any]) -> None:
    """`SessionState(home, session_id).write(name, data)`."""
    SessionState(home, session_id).write(name, data)


# -- HintState (seed 001) -----------------------------------------------------------------


@dataclass(frozen=True)
class HintEntry:
    count: int
    last_shown: str  # ISO 8601


class HintState:
    """Progressive disclosure: a hint is shown while it was shown fewer than `threshold` times.

    Stored as `{sessionId, hints: {type: {count, lastShown}}}`. An entry that breaks the
    seed's rules (a negative or non-integer count, a type that is not `a-z-`) is dropped
    on reading, so a corrupt file is rebuilt by the next write instead of failing.
    """

    NAME = "hints"

    def __init__(self, home: Path, session_id: str, *, clock: Callable[[], float] = time.time) -> None:
        self._state = SessionState(home, session_id)
        self._clock = clock

    def entries(self) -> dict[str, HintEntry]:
        raw = self._state.read(self.NAME)
        hints = raw.get("hints") if raw.get("sessionId") == self._state.session_id else None
        if not isinstance(hints, dict):
            return {}
        return {key: entry for key, value in hints.items() if (entry := _hint_entry(key, value)) is not None}

    def count(self, hint_type: str) -> int:
        entry = self.entries().get(_hint_type(hint_type))
        return 0 if entry is None else entry.count

    def should_show(self, hint_type: str, threshold: int = HINT_THRESHOLD) -> bool:
        if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 0:
            raise InvalidInput("threshold", f"must be a whole number of times, 0 or more, not {threshold!r}")
        return self.count(hint_type) < threshold

    def increment(self, hint_type: str) -> int:
        """Count one more showing of `hint_type`; the new count (0 when it could not be saved)."""
        key = _hint_type(hint_type)
        entries = self.entries()
        count = entries[key].count + 1 if key in entries else 1
        entries[key] = HintEntry(count, _iso(self._clock()))
        return count if self._save(entries) else 0

    def reset(self) -> None:
        self._save({})

    def show(self, hint_type: str, text: str, emit: Callable[[str], None], threshold: int = HINT_THRESHOLD) -> bool:
        """The seed's flow in one call: if the hint is still due, emit it and count it."""
        if not self.should_show(hint_type, threshold):
            return False
        emit(text)
        self.increment(hint_type)
        return True

    def _save(self, entries: Mapping[str, HintEntry]) -> bool:
        hints = {key: {"count": e.count, "lastShown": e.last_shown} for key, e in entries.items()}
        try:
            self._state.write(self.NAME, {"sessionId": self._state.session_id, "hints": hints})
        except StoreError as exc:  # a hint shown once more is better than a command that fails
            log.warning("hint state not saved: %s", exc)
            return False
        return True


def _hint_type(hint_type: str) -> str:
    if not isinstance(hint_type, str) or not _HINT_TYPE.fullmatch(hint_type):
        raise InvalidInput("hint_type", f"{hint_type!r} is not a hint type (a-z, 0-9 and -)")
    return hint_type


def _hint_entry(key: object, value: object) -> HintEntry | None:
    if not isinstance(key, str) or not _HINT_TYPE.fullmatch(key) or not isinstance(value, dict):
        return None
    count, shown = value.get("count"), value.get("lastShown")
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count < 2**31:
        return None
    return HintEntry(count, shown if isinstance(shown, str) and _seconds(shown) is not None else _iso(0))


# -- CircuitBreakerState (seed 001) -------------------------------------------------------


class SessionBreakerStorage:
    """A `BreakerStorage` in `breaker.json`, in the seed's fields plus what half-open needs.

    `{sessionId, consecutiveFailures, lastAttempt, isOpen}` as the seed has them, and
    `openedAt` and `trialUntil` (ISO 8601), so that the breaker of `memoir.llm.breaker`
    goes half-open 30 s after it opened and lets one trial through, across processes.
    A file that cannot be read is a closed breaker: the LLM is tried again (fail-open).
    """

    NAME = "breaker"

    def __init__(self, state: SessionState, clock: Callable[[], float] = time.time) -> None:
        self._state = state
        self._clock = clock

    def read(self) -> BreakerRecord:
        return self._record(self._state.read(self.NAME))

    def update(self, change: Callable[[BreakerRecord], BreakerRecord]) -> BreakerRecord:
        result = BreakerRecord()

        def apply(raw: dict[str, Any]) -> dict[str, Any]:
            nonlocal result
            result = change(self._record(raw))
            return self._fields(result)

        try:
            self._state.update(self.NAME, apply)
        except StoreError as exc:  # the breaker is a convenience: its state is lost, the call goes on
            log.warning("auto-selection breaker state not saved: %s", exc)
        return result

    def _record(self, raw: Mapping[str, Any]) -> BreakerRecord:
        if raw.get("sessionId") != self._state.session_id:
            return BreakerRecord()
        failures = raw.get("consecutiveFailures")
        if isinstance(failures, bool) or not isinstance(failures, int) or not 0 <= failures < 2**31:
            return BreakerRecord()
        opened = _seconds(raw.get("openedAt")) if raw.get("isOpen") is True else None
        if raw.get("isOpen") is True and opened is None:
            opened = _seconds(raw.get("lastAttempt"))
        error = raw.get("lastError")
        trial = _seconds(raw.get("trialUntil"))
        return BreakerRecord(failures, opened, trial, error[:500] if isinstance(error, str) else None)

    def _fields(self, record: BreakerRecord) -> dict[str, Any]:
        return {
            "sessionId": self._state.session_id,
            "consecutiveFailures": record.failures,
            "lastAttempt": _iso(self._clock()),
            "isOpen": record.opened_at is not None,
            "openedAt": None if record.opened_at is None else _iso(record.opened_at),
            "trialUntil": None if record.trial_until is None else _iso(record.trial_until),
            "lastError": record.last_error,
        }


def session_breaker(
    home: Path,
    session_id: str,
    *,
    threshold: int = 3,
    reset_after: float = 30.0,
    trial_lease: float = 30.0,
    clock: Callable[[], float] = time.time,
) -> CircuitBreaker:
    """The per-session breaker of auto-selection: open after 3 failures, one trial after 30 s.

    Wall-clock time, since every `memoir think` is a new process; a trial whose process died
    is given up after `trial_lease` seconds.
    """
    storage = SessionBreakerStorage(SessionState(home, session_id), clock)
    return CircuitBreaker(threshold, reset_after, clock=clock, storage=storage, trial_lease=trial_lease)
