"""Compression strategies (seed 003's HistoryCompressionStrategy): which messages become which summary.

Each strategy picks, among the free units of a layout (`layout.py`: not preserved, not an
earlier summary), the regions to summarize: one summary per region, placed where its
region ends.

- `WholeHistory`: one region, every free unit.
- `FromLastNMessages(n)`: the last n messages stay as they are (a unit that reaches into
  them stays whole); the free units before them form one region. This is what the seed's
  field comment promises; Koog's own code summarizes the last n instead.
- `Chunked(k)`: one region per k free messages, in order (a chunk that would split a
  tool call from its results takes the rest of the unit); an incomplete last chunk stays.
- `FromTimestamp(t)`: the free units older than t (by `layout.moments`) form one region.
- `WholeHistoryMultipleSystemMessages`: one region per block between system messages.

Text forms: "whole_history", "from_last_n_messages:20", "chunked:5",
"from_timestamp:2025-03-01T09:00:00Z", "whole_history_multiple_system_messages"; JSON
objects: {"type": "chunked", "size": 5}, {"type": "from_last_n_messages", "n": 20},
{"type": "from_timestamp", "timestamp": "..."}. Names match without regard to case,
underscores or dashes ("WholeHistory" works too).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memoir.errors import InvalidInput, InvalidQuery
from memoir.history.layout import Kind, Layout, Unit, moments
from memoir.model.checks import brief
from memoir.model.event import parse_timestamp

__all__ = [
    "Chunked",
    "FromLastNMessages",
    "FromTimestamp",
    "Strategy",
    "WholeHistory",
    "WholeHistoryMultipleSystemMessages",
    "parse_strategy",
]

Regions = list[list[Unit]]


@dataclass(frozen=True)
class WholeHistory:
    def regions(self, layout: Layout) -> Regions:
        free = layout.free()
        return [free] if free else []

    def __str__(self) -> str:
        return "whole_history"


@dataclass(frozen=True)
class FromLastNMessages:
    n: int

    def __post_init__(self) -> None:
        _positive("n", self.n)

    def regions(self, layout: Layout) -> Regions:
        window = len(layout.messages) - self.n
        older = [u for u in layout.free() if u.end <= window]
        return [older] if older else []

    def __str__(self) -> str:
        return f"from_last_n_messages:{self.n}"


@dataclass(frozen=True)
class Chunked:
    size: int

    def __post_init__(self) -> None:
        _positive("size", self.size)

    def regions(self, layout: Layout) -> Regions:
        chunks: Regions = []
        chunk: list[Unit] = []
        for unit in layout.free():
            chunk.append(unit)
            if sum(len(u.indices) for u in chunk) >= self.size:
                chunks.append(chunk)
                chunk = []
        return chunks  # what is left in `chunk` is the incomplete last chunk: it stays

    def __str__(self) -> str:
        return f"chunked:{self.size}"


@dataclass(frozen=True)
class FromTimestamp:
    timestamp: datetime

    def __post_init__(self) -> None:
        if not isinstance(self.timestamp, datetime):
            raise InvalidQuery("timestamp", f"must be a datetime, got {brief(self.timestamp)}")
        if self.timestamp.tzinfo is None:  # naive: taken as UTC, as message timestamps are
            object.__setattr__(self, "timestamp", self.timestamp.replace(tzinfo=UTC))

    def regions(self, layout: Layout) -> Regions:
        when = moments(layout.messages)
        older = [u for u in layout.free() if all(when[i] < self.timestamp for i in u.indices)]
        return [older] if older else []

    def __str__(self) -> str:
        return f"from_timestamp:{self.timestamp.isoformat().replace('+00:00', 'Z')}"


@dataclass(frozen=True)
class WholeHistoryMultipleSystemMessages:
    def regions(self, layout: Layout) -> Regions:
        blocks: dict[int, list[Unit]] = {}
        block = 0
        for unit in layout.units:
            block += unit.system
            if unit.kind is Kind.FREE:
                blocks.setdefault(block, []).append(unit)
        return list(blocks.values())

    def __str__(self) -> str:
        return "whole_history_multiple_system_messages"


Strategy = WholeHistory | FromLastNMessages | Chunked | FromTimestamp | WholeHistoryMultipleSystemMessages
_NAMES: dict[str, type[Strategy]] = {
    "wholehistory": WholeHistory,
    "fromlastnmessages": FromLastNMessages,
    "chunked": Chunked,
    "fromtimestamp": FromTimestamp,
    "wholehistorymultiplesystemmessages": WholeHistoryMultipleSystemMessages,
}
_KINDS = (WholeHistory, FromLastNMessages, Chunked, FromTimestamp, WholeHistoryMultipleSystemMessages)
_ARGUMENT: dict[type[Strategy], str] = {FromLastNMessages: "n", Chunked: "size", FromTimestamp: "timestamp"}
_ALIASES = {"n": ("n", "count"), "size": ("size", "chunk_size", "chunkSize"), "timestamp": ("timestamp", "t")}


def parse_strategy(value: Any, field: str = "compression_strategy") -> Strategy:
    """A strategy from itself, its text form or a JSON object; InvalidQuery naming `field` otherwise."""
    if isinstance(value, _KINDS):
        return value
    if isinstance(value, str):
        name, _, argument = value.strip().partition(":")
        return _build(name, argument.strip() or None, field, bool(argument))
    if isinstance(value, Mapping):
        name = value.get("type", "")
        if not isinstance(name, str):  # str() of a huge int or of deep nesting raises, rather than say what is wrong
            raise InvalidQuery(f"{field}.type", f"must be a strategy's name ({_EXAMPLES}...); got {brief(name)}")
        kind = _NAMES.get(_key(name))
        names = _ALIASES.get(_ARGUMENT[kind], ()) if kind in _ARGUMENT else ()
        given = next((value[n] for n in names if n in value), None)
        return _build(name, given, f"{field}.{names[0]}" if names else field, given is not None)
    raise InvalidQuery(
        field, f"must be a strategy's name ({_EXAMPLES}...) or an object with 'type'; got {brief(value)}"
    )


_EXAMPLES = '"whole_history", "from_last_n_messages:20", "chunked:5"'


def _key(name: str) -> str:
    return re.sub(r"[\s_\-]", "", name.lower())


def _build(name: str, argument: Any, field: str, given: bool) -> Strategy:
    kind = _NAMES.get(_key(name))
    if kind is None:
        known = ", ".join(sorted({_snake(k.__name__) for k in _NAMES.values()}))
        raise InvalidQuery(field, f"unknown compression strategy {brief(name)}: one of {known}")
    wanted = _ARGUMENT.get(kind)
    if wanted is None:
        if given:
            raise InvalidQuery(field, f"{_snake(kind.__name__)} takes no argument; got {brief(argument)}")
        return WholeHistory() if kind is WholeHistory else WholeHistoryMultipleSystemMessages()
    if argument is None:
        raise InvalidQuery(field, f"{_snake(kind.__name__)} needs its {wanted} (e.g. {_snake(kind.__name__)}:10)")
    if kind is FromTimestamp:
        try:
            return FromTimestamp(parse_timestamp(argument, field))
        except InvalidInput as exc:
            raise InvalidQuery(field, exc.reason) from None
    number = _whole_number(argument, field)
    return FromLastNMessages(number) if kind is FromLastNMessages else Chunked(number)


def _whole_number(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise InvalidQuery(field, f"must be a whole number, got {brief(value)}")
    if isinstance(value, int):  # compared, not str()-ed: an int past 4,300 digits cannot be turned into text
        if not 1 <= value <= 999_999_999:
            raise InvalidQuery(field, f"must be a whole number of at least 1, got {brief(value)}")
        return value
    text = value.strip()
    if not re.fullmatch(r"[0-9]{1,9}", text) or int(text) < 1:
        raise InvalidQuery(field, f"must be a whole number of at least 1, got {brief(value)}")
    return int(text)


def _positive(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidQuery(name, f"must be a whole number of at least 1, got {brief(value)}")


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
