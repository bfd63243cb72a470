"""The read path: candidates, fusion, rerank, threshold, recency, MMR, and context building."""

from memoir.retrieval.context import Context, format_context
from memoir.retrieval.injection import inject
from memoir.retrieval.pipeline import Hit, SearchPipeline
from memoir.retrieval.scope import GLOBAL_SCOPE, KINDS, TimeLike, search_scope, time_bound

__all__ = [
    "GLOBAL_SCOPE",
    "KINDS",
    "Context",
    "Hit",
    "SearchPipeline",
    "TimeLike",
    "format_context",
    "inject",
    "search_scope",
    "time_bound",
]
