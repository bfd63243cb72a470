"""`manage(messages, params)`: a history fitted to a context window (seed 003's RequestParameters).

Order (seed 003): the compression strategy, then `max_tokens`, then `max_history_size`.
Checked first, before any model is asked: `max_history_size` and `max_tokens` are whole
numbers of at least 1 (else `InvalidQuery` naming the field), `max_tokens` is at least
what the system messages take (`InvalidTokenLimit`), and compression needs 10 messages
(`InsufficientHistory`). Anything else that goes wrong inside a strategy is
`CompressionFailed`, which keeps the cause.

Byte stability. A provider caches a prompt's prefix, so the compressed part of a history
must not change from turn to turn. `Managed.state` (a `Compressed`) is handed back on the
next call: when the new messages begin with the ones it covers (the caller sends its whole
history each turn) or with what it made of them (the caller sends the managed history
back), that output is reused as it was and the messages after it are sent as they are. The
next compression comes only when at least 10 messages have been added since, when the
history is over `max_tokens`, or when the caller forces it; it rolls: earlier summaries
stay as they are (they are neither summarized again nor asked of the model again), and the
messages that the strategy now compresses get summaries of their own.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from memoir.errors import CompressionError, CompressionFailed, InsufficientHistory, InvalidQuery, InvalidTokenLimit
from memoir.history.limits import Entry, layout_of, trim_size, trim_tokens
from memoir.history.strategies import Strategy, parse_strategy
from memoir.history.summaries import Grip, Summarizer, Summary
from memoir.history.tokens import TokenCounter, shared_counter
from memoir.llm.service import LLM
from memoir.model.chat import Message, messages_from_openai
from memoir.model.checks import brief

__all__ = ["Compressed", "HistoryParams", "Managed", "Report", "manage"]

MIN_MESSAGES = 10  # seed 003: fewer give no meaningful compression
RECOMPRESS_AFTER = 10  # messages added since the last compression before the next one
SUMMARY_SHARE, SUMMARY_MIN, SUMMARY_MAX = 0.1, 64, 1024  # an extractive summary's allowance, in tokens


@dataclass(frozen=True)
class HistoryParams:
    """Seed 003's history parameters; a strategy may be given as text or a JSON object too."""

    compression_strategy: Strategy | None = None
    max_tokens: int | None = None
    max_history_size: int | None = None
    enable_token_caching: bool = True

    def __post_init__(self) -> None:
        if self.compression_strategy is not None:
            object.__setattr__(self, "compression_strategy", parse_strategy(self.compression_strategy))
        for name in ("max_tokens", "max_history_size"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise InvalidQuery(name, f"must be a whole number of at least 1, or left out; got {brief(value)}")
        if not isinstance(self.enable_token_caching, bool):
            raise InvalidQuery("enable_token_caching", f"must be true or false, got {brief(self.enable_token_caching)}")


@dataclass(frozen=True)
class Compressed:
    """What a compression made of the first `covered` messages: pass it back for a byte-stable prefix."""

    strategy: str
    covered: int  # input messages it stands for
    digest: str  # of those messages, as a model sees them
    messages: tuple[Message, ...]  # what stands for them: kept messages, summaries in place
    origins: tuple[int | None, ...]  # each of `messages`' index in that input (None: a summary made from it)
    summaries: tuple[Summary | None, ...]  # each of `messages`' summary, when it is one
    output_digest: str  # of `messages`: a caller may send those back instead of its own messages


@dataclass(frozen=True)
class Report:
    """What `manage` did. Every input index is in exactly one of `kept`, `summarized` and `dropped`."""

    strategy: str | None
    summarized: tuple[int, ...]  # input messages that only a summary in the result stands for
    dropped: tuple[int, ...]  # input messages gone (max_tokens, max_history_size), summaries of them included
    kept: tuple[int, ...]  # input messages in the result, word for word
    summaries: tuple[Summary, ...]  # the result's summaries made from this input (made now or reused)
    tokens_before: int
    tokens_after: int
    source: Literal["llm", "heuristics"] | None  # "heuristics" when any summary in the result is extractive
    reused: bool = False  # the state's compression was reused as it was, nothing new compressed
    error: str | None = None  # why an extractive summary stood in for the LLM's

    @property
    def grips(self) -> tuple[Grip, ...]:
        return tuple(grip for summary in self.summaries for grip in summary.grips)

    def brief(self) -> str:
        """One line for a header or a log: tokens before and after, what happened to the messages."""
        return (
            f"tokens {self.tokens_before}->{self.tokens_after}; kept {len(self.kept)}, summarized"
            f" {len(self.summarized)}, dropped {len(self.dropped)}; strategy {self.strategy or 'none'}"
            + (f"; summary by {self.source}" if self.source else "")
            + ("; reused" if self.reused else "")
        )


@dataclass(frozen=True)
class Managed:
    messages: list[Message]
    report: Report
    state: Compressed | None = field(default=None, repr=False)


def manage(
    messages: Sequence[Message | Mapping[str, Any]],
    params: HistoryParams | None = None,
    llm: LLM | None = None,
    state: Compressed | None = None,
    *,
    fallback: bool = True,
    force: bool = False,
) -> Managed:
    """`messages` compressed and trimmed as `params` say; see the module's docstring.

    `llm` writes the summaries (None: extractive); `fallback=False` makes an LLM failure
    `CompressionFailed` instead of an extractive summary; `force` compresses even when
    `state` could be reused as it is.
    """
    # Checked, not trusted: anything else fails further down with a raw AttributeError.
    if params is not None and not isinstance(params, HistoryParams):
        raise InvalidQuery("params", f"must be HistoryParams or left out, got {brief(params)}")
    if state is not None and not isinstance(state, Compressed):
        raise InvalidQuery("state", f"must be the state an earlier manage() returned, or left out; got {brief(state)}")
    params = params or HistoryParams()
    given = messages_from_openai(messages)  # Messages pass as they are; dicts are checked, errors name messages[N]
    counter = shared_counter(params.enable_token_caching)
    _check_token_limit(given, params.max_tokens, counter)
    entries, new_state, reused = [Entry(m, n) for n, m in enumerate(given)], None, False
    strategy = params.compression_strategy
    if strategy is not None:
        entries, new_state, reused = _compress(given, strategy, params, llm, state, fallback, force, counter)
    final = trim_size(trim_tokens(entries, params.max_tokens, counter), params.max_history_size)
    report = _report(given, final, strategy, counter, reused)
    return Managed([e.message for e in final], report, new_state)


def _check_token_limit(given: Sequence[Message], max_tokens: int | None, counter: TokenCounter) -> None:
    if max_tokens is None:
        return
    system = counter.total(m for m in given if m.instructs)
    if max_tokens < system:
        raise InvalidTokenLimit(system, max_tokens)


def _compress(
    given: list[Message],
    strategy: Strategy,
    params: HistoryParams,
    llm: LLM | None,
    state: Compressed | None,
    fallback: bool,
    force: bool,
    counter: TokenCounter,
) -> tuple[list[Entry], Compressed | None, bool]:
    entries, added = _resume(given, state, str(strategy))
    if added is not None and state is not None and not force and added < RECOMPRESS_AFTER:
        limit = params.max_tokens
        if limit is None or counter.total(e.message for e in entries) <= limit:
            return entries, state, True  # the prefix as it was: the provider's cache still holds
    if len(given) < MIN_MESSAGES:
        raise InsufficientHistory(len(given), MIN_MESSAGES)
    try:
        compressed = _apply(strategy, entries, Summarizer(llm, str(strategy), fallback=fallback), params, counter)
    except CompressionError:
        raise
    except Exception as exc:  # the seed's contract: any other failure of a strategy is CompressionFailed
        raise CompressionFailed(str(strategy), exc) from exc
    return compressed, _state_of(given, compressed, str(strategy)), False


def _resume(given: list[Message], state: Compressed | None, strategy: str) -> tuple[list[Entry], int | None]:
    """The entries to work on, and how many messages came after the state's (None: no state fits)."""
    fresh = [Entry(m, n) for n, m in enumerate(given)]
    if state is None or state.strategy != strategy:
        return fresh, None
    covered, made = state.covered, len(state.messages)
    if len(given) >= covered and digest(given[:covered]) == state.digest:  # the whole history, sent again
        prefix = [
            Entry(given[origin] if origin is not None else message, origin, summary)
            for message, origin, summary in zip(state.messages, state.origins, state.summaries, strict=True)
        ]
        return prefix + [Entry(m, covered + n) for n, m in enumerate(given[covered:])], len(given) - covered
    if len(given) >= made and digest(given[:made]) == state.output_digest:  # the managed history, sent back
        earlier = list(state.summaries) + [None] * (len(given) - made)
        return [Entry(m, n, earlier[n]) for n, m in enumerate(given)], len(given) - made
    return fresh, None


def _apply(
    strategy: Strategy, entries: list[Entry], summarizer: Summarizer, params: HistoryParams, counter: TokenCounter
) -> list[Entry]:
    regions = strategy.regions(layout_of(entries))
    if not regions:
        return entries
    members = [[(entries[i].origin, entries[i].message) for u in region for i in u.indices] for region in regions]
    allowances = _allowances(entries, members, params.max_tokens, counter)
    made: dict[int, Entry] = {}
    for region, group, allowance in zip(regions, members, allowances, strict=True):
        summary = summarizer.summarize([(o, m) for o, m in group if o is not None], allowance)
        made[region[-1].end - 1] = Entry(summary.message, None, summary)
    gone = {i for region in regions for unit in region for i in unit.indices}
    result = []
    for index, entry in enumerate(entries):
        if index not in gone:
            result.append(entry)
        if index in made:  # a summary takes the place where its region ends
            result.append(made[index])
    return result


def _allowances(
    entries: list[Entry], groups: list[list[tuple[int | None, Message]]], max_tokens: int | None, counter: TokenCounter
) -> list[int]:
    """Tokens each summary may take: a tenth of what it replaces (64 to 1,024). Under `max_tokens`,
    a share of the room the messages that stay leave, at most half of what it replaces; at
    least a quarter of `max_tokens` among them (or the tenth, when less): trimming then takes
    the oldest messages that stayed, which the summaries outlast."""
    sizes = [counter.total(m for _, m in group) for group in groups]
    usual = [min(SUMMARY_MAX, max(SUMMARY_MIN, int(size * SUMMARY_SHARE))) for size in sizes]
    if max_tokens is None:
        return usual
    staying = counter.total(e.message for e in entries) - sum(sizes)
    header = 24  # the summary's first line and the message's overhead
    share = (max_tokens - staying) // len(groups) - header
    floor = max_tokens // (4 * len(groups)) - header
    return [max(0, min(size // 2, max(share, min(floor, tenth)))) for size, tenth in zip(sizes, usual, strict=True)]


def _state_of(given: list[Message], entries: list[Entry], strategy: str) -> Compressed:
    messages = tuple(e.message for e in entries)
    origins = tuple(e.origin for e in entries)
    summaries = tuple(e.summary for e in entries)
    return Compressed(strategy, len(given), digest(given), messages, origins, summaries, digest(messages))


def digest(messages: Sequence[Message]) -> str:
    """A hash of the messages as a model sees them (their OpenAI form)."""
    hashed = hashlib.sha256()
    for message in messages:
        hashed.update(json.dumps(message.to_openai(), sort_keys=True, ensure_ascii=False, default=str).encode())
        hashed.update(b"\n")
    return hashed.hexdigest()


def _report(
    given: list[Message], final: list[Entry], strategy: Strategy | None, counter: TokenCounter, reused: bool
) -> Report:
    kept = tuple(e.origin for e in final if e.origin is not None)
    made = tuple(e.summary for e in final if e.summary is not None and e.origin is None)
    summarized = tuple(sorted({i for s in made for i in s.covers} - set(kept)))
    dropped = tuple(sorted(set(range(len(given))) - set(kept) - set(summarized)))
    sources = {e.summary.source for e in final if e.summary is not None}
    source: Literal["llm", "heuristics"] | None = (
        "heuristics" if "heuristics" in sources else "llm" if sources else None
    )
    error = next((s.error for s in made if s.error), None)
    tokens = counter.total(e.message for e in final)
    return Report(
        str(strategy) if strategy else None, summarized, dropped, kept, made, counter.total(given), tokens,
        source, reused, error,
    )  # fmt: skip
