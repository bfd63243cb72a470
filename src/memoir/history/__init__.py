"""Context-window management: token counts, compression strategies, limits (seed 003).

`manage(messages, HistoryParams(...))` compresses a chat history with a strategy, then
trims it to `max_tokens`, then to `max_history_size`, and reports what it summarized,
dropped and kept. See docs/history.md.
"""

from memoir.history.layout import MEMORY_PREAMBLE, is_memory
from memoir.history.manager import Compressed, HistoryParams, Managed, Report, manage
from memoir.history.strategies import (
    Chunked,
    FromLastNMessages,
    FromTimestamp,
    Strategy,
    WholeHistory,
    WholeHistoryMultipleSystemMessages,
    parse_strategy,
)
from memoir.history.summaries import TLDR_SECTIONS, Grip, Summary
from memoir.history.tokens import MESSAGE_OVERHEAD, TokenCounter, count_tokens, count_tokens_many, estimate_tokens

__all__ = [
    "MEMORY_PREAMBLE",
    "MESSAGE_OVERHEAD",
    "TLDR_SECTIONS",
    "Chunked",
    "Compressed",
    "FromLastNMessages",
    "FromTimestamp",
    "Grip",
    "HistoryParams",
    "Managed",
    "Report",
    "Strategy",
    "Summary",
    "TokenCounter",
    "WholeHistory",
    "WholeHistoryMultipleSystemMessages",
    "count_tokens",
    "count_tokens_many",
    "estimate_tokens",
    "is_memory",
    "manage",
    "parse_strategy",
]
