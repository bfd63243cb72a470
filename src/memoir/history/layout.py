"""How a history is laid out for compression: which messages survive, and which move together.

- Preserved (never summarized): every system message, the first user message, memory
  messages (their text starts with a block of memoir's notes, or their `name` is
  "memory"), and the open turn: the trailing tool calls and their results (seed 003:
  kept after the summary), or, when the history ends with a user message, that message,
  the one the model is about to answer.
- Units: an assistant message that calls tools and the tool results that follow it move
  as one, kept, summarized or dropped together, so no request ever holds a tool result
  without the call it answers, or a call without its results (servers refuse both).
- Timestamps: a message without one takes the timestamp of the nearest earlier message
  that has one; before any, it is older than every cutoff.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from memoir.model.chat import Message
from memoir.model.notes import MEMORY_PREAMBLE, is_notes

__all__ = ["MEMORY_PREAMBLE", "Kind", "Layout", "Unit", "is_memory", "lay_out"]

OLDEST = datetime.min.replace(tzinfo=UTC)


class Kind(StrEnum):
    PRESERVED = "preserved"  # never summarized; only a limit may drop it, and never a system message
    SUMMARY = "summary"  # a summary an earlier compression made: kept as it was, byte for byte
    FREE = "free"  # the strategy decides


@dataclass(frozen=True)
class Unit:
    start: int  # first message (index into the laid-out list)
    end: int  # one past the last
    kind: Kind
    system: bool  # a system message: no strategy and no limit removes it

    @property
    def indices(self) -> range:
        return range(self.start, self.end)


@dataclass(frozen=True)
class Layout:
    messages: tuple[Message, ...]
    units: tuple[Unit, ...]

    def free(self) -> list[Unit]:
        return [u for u in self.units if u.kind is Kind.FREE]


def is_memory(message: Message) -> bool:
    return message.name == "memory" or is_notes(message.content)


def lay_out(messages: Sequence[Message], summaries: frozenset[int] = frozenset()) -> Layout:
    """Units and kinds of `messages`; `summaries` are positions of earlier compressions' summaries."""
    preserved = _preserved(messages)
    units = []
    for start, end in _groups(messages):
        span = range(start, end)
        system = any(messages[i].instructs for i in span)
        if any(i in preserved for i in span):
            kind = Kind.PRESERVED
        elif any(i in summaries for i in span):
            kind = Kind.SUMMARY
        else:
            kind = Kind.FREE
        units.append(Unit(start, end, kind, system))
    return Layout(tuple(messages), tuple(units))


def _preserved(messages: Sequence[Message]) -> set[int]:
    kept = {i for i, m in enumerate(messages) if m.instructs or is_memory(m)}
    first_user = next((i for i, m in enumerate(messages) if m.role == "user"), None)
    if first_user is not None:
        kept.add(first_user)
    return kept | set(_open_turn(messages))


def _open_turn(messages: Sequence[Message]) -> range:
    """The trailing tool calls and results, or a last user message: what the next answer continues."""
    end = start = len(messages)
    while start > 0 and (messages[start - 1].is_result or messages[start - 1].calls):
        start -= 1
    if start == end and messages and messages[-1].role == "user":
        start -= 1
    return range(start, end)


def _groups(messages: Sequence[Message]) -> list[tuple[int, int]]:
    """(start, end) of each unit: a tool-calling assistant message with the tool results after it, or one message."""
    groups: list[tuple[int, int]] = []
    index = 0
    while index < len(messages):
        end = index + 1
        if messages[index].calls:
            while end < len(messages) and messages[end].is_result:
                end += 1
        groups.append((index, end))
        index = end
    return groups


def moments(messages: Sequence[Message]) -> list[datetime]:
    """Each message's time: its own, else the nearest earlier one's, else older than any cutoff."""
    found, last = [], OLDEST
    for message in messages:
        if message.timestamp is not None:
            stamp = message.timestamp
            last = stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)  # naive: taken as UTC
        found.append(last)
    return found
