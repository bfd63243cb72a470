"""The limits and defaults of the façade's operations, stated once for every door.

The façade checks values against these (one message for a bad value, whichever door it
came by); the doors read them to describe their parameters (the MCP tools' `minimum`,
`maximum` and `enum`, the REST bodies' defaults, the CLI's help), so a schema never promises
what the façade refuses, and a default is never written twice.
"""

from __future__ import annotations

__all__ = [
    "BUDGET_TOKENS",
    "MAX_AROUND",
    "MAX_BUDGET_TOKENS",
    "MAX_K",
    "MAX_LISTED",
    "MAX_PAGE",
    "MAX_QUERY_LENGTH",
    "MAX_TOC_PAGE",
    "MAX_TOP_K",
    "MEMORIES_SHOWN",
    "MEMORY_KINDS",
    "SEARCH_KINDS",
    "SEVERITIES",
]

MAX_PAGE = 10_000  # events (or memories) in one page
MEMORIES_SHOWN = 200  # memories a person is shown at once (a table, a web page): the latest
MAX_TOC_PAGE = 1000  # timeline nodes in one page
MAX_K = 100  # hits of one search
MAX_QUERY_LENGTH = 100_000  # characters of a search query
BUDGET_TOKENS = 1500  # the memory block put before a message, by default
MAX_BUDGET_TOKENS = 10_000_000  # past any model's context window
MAX_TOP_K = 100  # hits competing for a context's budget
MAX_LISTED = 1000  # memories an MCP client lists at once
MAX_AROUND = 100  # turns shown before and after a grip

MEMORY_KINDS = ("fact", "gotcha", "decision", "learning")
SEARCH_KINDS = ("turn", "fact", "gotcha", "decision", "learning", "summary")
SEVERITIES = ("low", "medium", "high", "critical")
