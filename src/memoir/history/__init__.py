"""Token counting (and, later, context-window compression)."""

from memoir.history.tokens import count_tokens, count_tokens_many, estimate_tokens

__all__ = ["count_tokens", "count_tokens_many", "estimate_tokens"]
