"""The one exception tree of memoir.

    MemoirError
    ├── UserError                  the caller asked for something invalid; fix the call
    │   ├── InvalidInput           a value breaks a rule (names the field and the reason)
    │   │   ├── InvalidEvent       an event breaks a rule of the domain model
    │   │   └── InvalidQuery       a query (filters, limits, cursors) is malformed
    │   ├── ConfigError            a configuration value or file is wrong (names the key)
    │   └── NotFound
    │       └── EventNotFound
    └── RuntimeFailure             memoir or its environment failed; retrying may help
        ├── StoreError             the database could not be opened, read or written
        │   └── HomeError          the home folder is missing, not a folder, or not writable
        ├── WorkerError            a background job failed in a way the caller must know about
        ├── ModelUnavailable       a model file is missing or damaged, or a model server does not answer
        ├── ModelOutputError       a model answered, but not with what was asked for (e.g. invalid JSON)
        └── ServerUnavailable      a memoir server (`MemoirClient`'s) does not answer

Errors of dependencies (sqlite3, OS errors) are translated at the boundary of the
module that calls them, so callers only ever catch `MemoirError`. Every message
says what went wrong and, where there is one, what to do about it.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "EventNotFound",
    "HomeError",
    "InvalidEvent",
    "InvalidInput",
    "InvalidQuery",
    "MemoirError",
    "ModelOutputError",
    "ModelUnavailable",
    "NotFound",
    "RuntimeFailure",
    "ServerUnavailable",
    "StoreError",
    "UserError",
    "WorkerError",
]


class MemoirError(Exception):
    """Base class of every error memoir raises on purpose."""


class UserError(MemoirError):
    """The caller misused the API or gave bad input."""


class RuntimeFailure(MemoirError):
    """Something outside the caller's control failed."""


class InvalidInput(UserError, ValueError):
    """A value breaks a validation rule.

    `field` names the offending field, `reason` says what is wrong with it; the
    message reads `field: reason`. In a batch, `index` is the position of the
    offending item and the message starts with `event #N:`.
    """

    def __init__(self, field: str, reason: str, *, index: int | None = None) -> None:
        self.field = field
        self.reason = reason
        self.index = index
        prefix = "" if index is None else f"event #{index}: "
        super().__init__(f"{prefix}{field}: {reason}")

    def at(self, index: int) -> InvalidInput:
        """The same error, placed at position `index` of a batch."""
        return type(self)(self.field, self.reason, index=index)

    def __reduce__(self) -> tuple[object, ...]:
        # Picklable, so an error raised in a child process (multiprocessing) reaches its parent.
        return (_rebuild_invalid, (type(self), self.field, self.reason, self.index))


def _rebuild_invalid(kind: type[InvalidInput], field: str, reason: str, index: int | None) -> InvalidInput:
    return kind(field, reason, index=index)


class InvalidEvent(InvalidInput):
    """An event breaks a rule of the domain model (seed 002)."""


class InvalidQuery(InvalidInput):
    """A query is malformed: an empty query, a limit out of range, a bad cursor or filter."""


class ConfigError(UserError):
    """A configuration value, variable or file is invalid."""

    @classmethod
    def at(cls, key: str, reason: str) -> ConfigError:
        """The error for one key (or file): `key: reason`."""
        return cls(f"{key}: {reason}")


class NotFound(UserError, LookupError):
    """Something asked for by id does not exist."""


class EventNotFound(NotFound):
    def __init__(self, event_id: str) -> None:
        self.event_id = event_id
        super().__init__(f"no event with id {event_id!r}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.event_id,))


class StoreError(RuntimeFailure):
    """The store could not be opened, read or written."""


class HomeError(StoreError):
    """The memoir home is unusable (missing, not a directory, not writable)."""


class WorkerError(RuntimeFailure):
    """The outbox runner could not do its work."""


class ModelUnavailable(RuntimeFailure):
    """A model cannot be used: its package is missing, a file is damaged, or its server fails."""


class ModelOutputError(RuntimeFailure):
    """A model answered, but its output could not be used (not JSON, or not the expected shape)."""


class ServerUnavailable(RuntimeFailure):
    """`MemoirClient` could not reach its memoir server, or it answered with something else than memoir."""
