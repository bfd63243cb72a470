"""The one exception tree of memoir.

    MemoirError
    ├── UserError                  the caller asked for something invalid; fix the call
    │   ├── InvalidInput           a value breaks a rule (names the field and the reason)
    │   │   ├── InvalidEvent       an event breaks a rule of the domain model
    │   │   ├── InvalidTool        a tool definition or registration breaks a rule
    │   │   └── InvalidQuery       a query (filters, limits, cursors) is malformed
    │   │       └── InvalidTokenLimit    max_tokens below the system prompt's tokens
    │   ├── InsufficientHistory    compression asked for with too few messages
    │   ├── ConfigError            a configuration value or file is wrong (names the key)
    │   └── NotFound
    │       ├── EventNotFound
    │       ├── MemoryNotFound
    │       └── ThinkNotFound      a think document or session that does not exist
    └── RuntimeFailure             memoir or its environment failed; retrying may help
        ├── StoreError             the database could not be opened, read or written
        │   ├── HomeError          the home folder is missing, not a folder, or not writable
        │   └── VaultFileError     a vault file could not be read as a memory (names the path)
        ├── WorkerError            a background job failed in a way the caller must know about
        ├── ModelUnavailable       a model file is missing or damaged, or a model server does not answer
        │   ├── ContextOverflow    the request is longer than the model's context window
        │   └── ProviderUnavailable  an AI command-line tool (`memoir think`) is missing or failed
        ├── ModelOutputError       a model answered, but not with what was asked for (e.g. invalid JSON)
        ├── CompressionFailed      history compression failed (wraps its cause)
        └── ServerUnavailable      a memoir server (`MemoirClient`'s) does not answer

`CompressionError` is the common base of seed 003's three history errors
(InsufficientHistory, InvalidTokenLimit, CompressionFailed): catch it for all three.

Errors of dependencies (sqlite3, OS errors) are translated at the boundary of the
module that calls them, so callers only ever catch `MemoirError`; what an HTTP server
memoir calls did wrong (httpx's errors: the LLM, embedding and rerank servers, the
proxy's upstream, a memoir server) is told in one wording, `no_answer`. `answer_for` is the one
table of what each class becomes at a door: its HTTP status, gRPC status and exit code. Every message
says what went wrong and, where there is one, what to do about it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_FAILURE",
    "Answer",
    "CompressionError",
    "CompressionFailed",
    "ConfigError",
    "ContextOverflow",
    "EventNotFound",
    "HomeError",
    "InsufficientHistory",
    "InvalidEvent",
    "InvalidInput",
    "InvalidQuery",
    "InvalidTokenLimit",
    "InvalidTool",
    "MemoirError",
    "MemoryNotFound",
    "ModelOutputError",
    "ModelUnavailable",
    "NotFound",
    "ProviderUnavailable",
    "RuntimeFailure",
    "ServerUnavailable",
    "StoreError",
    "ThinkNotFound",
    "UserError",
    "VaultFileError",
    "WorkerError",
    "answer_for",
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


class MemoryNotFound(NotFound):
    def __init__(self, memory_id: str) -> None:
        self.memory_id = memory_id
        super().__init__(f"no memory with id {memory_id!r}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.memory_id,))


class ThinkNotFound(NotFound):
    """A think document or session that does not exist (the message names it)."""


class StoreError(RuntimeFailure):
    """The store could not be opened, read or written."""


class HomeError(StoreError):
    """The memoir home is unusable (missing, not a directory, not writable)."""


class VaultFileError(StoreError):
    """A vault file could not be read as a memory (its path says which)."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason if len(reason) <= _MAX_QUOTED else reason[:_MAX_QUOTED] + "…"  # values may be huge
        # A name that is not UTF-8 arrives as surrogate escapes: shown as \x.. so the message prints anywhere.
        shown = str(path).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        super().__init__(f"{shown}: {self.reason}")

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_vault_error, (self.path, self.reason))


def _rebuild_vault_error(path: Path, reason: str) -> VaultFileError:
    return VaultFileError(path, reason)


_MAX_QUOTED = 120


def failure_kind(exc: BaseException) -> str:
    """How a request to a server failed, for every HTTP client memoir holds: "timeout" (no answer in
    time), "dropped" (it closed the connection while answering: it may have crashed), or "unreachable"."""
    import httpx  # here, not above: `memoir hook` imports this module and never makes such a request

    if isinstance(exc, httpx.TimeoutException):
        return "timeout"
    if isinstance(exc, (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)):
        return "dropped"
    return "unreachable"


_HOW = {"timeout": "no answer in time", "dropped": "it closed the connection", "unreachable": "not reachable"}


def no_answer(who: str, exc: BaseException, fix: str) -> str:
    """The message for a server that did not answer: who, how (and httpx's name for it), and what to do."""
    return f"no answer from {who} ({_HOW[failure_kind(exc)]}: {type(exc).__name__}): {fix}"


class WorkerError(RuntimeFailure):
    """The outbox runner could not do its work."""


class ModelUnavailable(RuntimeFailure):
    """A model cannot be used: its package is missing, a file is damaged, or its server fails."""


class ContextOverflow(ModelUnavailable):
    """The request is longer than the model's context window: compress the history and try again."""


class ProviderUnavailable(ModelUnavailable):
    """An AI command-line tool is missing, failed, or gave no answer in time."""


class ModelOutputError(RuntimeFailure):
    """A model answered, but its output could not be used (not JSON, or not the expected shape)."""


class ServerUnavailable(RuntimeFailure):
    """`MemoirClient` could not reach its memoir server, or it answered with something else than memoir."""


class CompressionError(MemoirError):
    """History management could not do what its parameters asked (seed 003's CompressionError)."""


class InsufficientHistory(CompressionError, UserError):
    """Compression asked for with fewer messages than it needs (seed 003: 10)."""

    def __init__(self, message_count: int, minimum: int) -> None:
        self.message_count = message_count
        self.minimum = minimum
        super().__init__(
            f"insufficient history: {message_count} messages (minimum {minimum} required for compression);"
            " send more turns or leave compression_strategy unset"
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.message_count, self.minimum))


class InvalidTokenLimit(CompressionError, InvalidQuery):
    """`max_tokens` below what the system prompt alone takes: no trimming can meet it."""

    def __init__(self, system_tokens: int, max_tokens: int, *, index: int | None = None) -> None:
        self.system_tokens = system_tokens
        self.max_tokens = max_tokens
        reason = f"{max_tokens} is below the system prompt's {system_tokens} tokens: raise it, or shorten the prompt"
        super().__init__("max_tokens", reason, index=index)

    def at(self, index: int) -> InvalidTokenLimit:
        return type(self)(self.system_tokens, self.max_tokens, index=index)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.system_tokens, self.max_tokens))


class CompressionFailed(CompressionError, RuntimeFailure):
    """A compression strategy failed; `cause` is why (the LLM's error, say)."""

    def __init__(self, strategy: str, cause: BaseException) -> None:
        self.strategy = strategy
        self.cause = cause
        super().__init__(f"compression failed with strategy {strategy}: {cause}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.strategy, self.cause))


class InvalidTool(InvalidInput):
    """A tool breaks a rule of the registry: its name, its description, its schema, a duplicate."""


# -- what an error becomes at each door -----------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """An error class's answer at every door: HTTP status, gRPC status name, process exit code."""

    http: int
    grpc: str
    exit: int


EXIT_FAILURE, EXIT_BAD_INPUT = 1, 2

# Most specific first: the first class an error is an instance of decides its answer.
ANSWERS: tuple[tuple[type[MemoirError], Answer], ...] = (
    (NotFound, Answer(404, "NOT_FOUND", EXIT_BAD_INPUT)),
    (InvalidInput, Answer(422, "INVALID_ARGUMENT", EXIT_BAD_INPUT)),  # well-formed, but a value breaks a rule
    (ConfigError, Answer(400, "FAILED_PRECONDITION", EXIT_BAD_INPUT)),
    (UserError, Answer(400, "INVALID_ARGUMENT", EXIT_BAD_INPUT)),
    (ModelUnavailable, Answer(503, "UNAVAILABLE", EXIT_FAILURE)),  # retry later: it is not there now
    (StoreError, Answer(503, "UNAVAILABLE", EXIT_FAILURE)),
    (ModelOutputError, Answer(502, "UNAVAILABLE", EXIT_FAILURE)),  # it answered, but not with what was asked
)
_OTHERWISE = Answer(500, "UNAVAILABLE", EXIT_FAILURE)  # another failure: retrying may help


def answer_for(error: MemoirError) -> Answer:
    """The HTTP status, gRPC status and exit code of `error`, by its class (the one table)."""
    return next((answer for kind, answer in ANSWERS if isinstance(error, kind)), _OTHERWISE)
