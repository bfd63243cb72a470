"""The limits applied after compression (seed 003's order): `max_tokens`, then `max_history_size`.

Both drop whole units (a tool call goes with its results), oldest first, in three rounds:
the messages compression was free to summarize, then the summaries (each stands for many
messages in few tokens, and the byte-stable prefix ends with them), then, only if that
was not enough, the preserved ones (the first user message, memory messages, the open
turn). System messages are never dropped: `max_tokens` below what they take is
refused up front (`InvalidTokenLimit`), and `max_history_size` keeps them even past the
limit (the seed: "System messages are always preserved regardless of limit").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memoir.history.layout import Kind, Layout, Unit, lay_out
from memoir.history.summaries import Summary
from memoir.history.tokens import TokenCounter
from memoir.model.chat import Message

__all__ = ["Entry", "layout_of", "trim_size", "trim_tokens"]

_ROUND = {Kind.FREE: 0, Kind.SUMMARY: 1, Kind.PRESERVED: 2}


@dataclass(frozen=True)
class Entry:
    """A message of the history being built: where it came from, and the summary it is, if one."""

    message: Message
    origin: int | None  # its index in the input (None: a summary made from the input)
    summary: Summary | None = None  # set for summaries, this compression's or an earlier one's


def layout_of(entries: Sequence[Entry]) -> Layout:
    return lay_out([e.message for e in entries], frozenset(i for i, e in enumerate(entries) if e.summary))


def trim_tokens(entries: list[Entry], max_tokens: int | None, counter: TokenCounter) -> list[Entry]:
    """Oldest units dropped until the messages take at most `max_tokens` tokens."""
    if max_tokens is None:
        return entries
    counts = [counter.count(e.message) for e in entries]
    total = sum(counts)
    return _drop(entries, lambda unit: sum(counts[i] for i in unit.indices), total - max_tokens)


def trim_size(entries: list[Entry], max_size: int | None) -> list[Entry]:
    """Oldest units dropped until at most `max_size` messages are left (system messages always stay)."""
    if max_size is None:
        return entries
    return _drop(entries, lambda unit: len(unit.indices), len(entries) - max_size)


def _drop(entries: list[Entry], weight: Callable[[Unit], int], excess: int) -> list[Entry]:
    if excess <= 0:
        return entries
    droppable = [u for u in layout_of(entries).units if not u.system]
    droppable.sort(key=lambda u: (_ROUND[u.kind], u.start))
    gone: set[int] = set()
    for unit in droppable:
        if excess <= 0:
            break
        gone.update(unit.indices)
        excess -= weight(unit)
    return [e for i, e in enumerate(entries) if i not in gone]
