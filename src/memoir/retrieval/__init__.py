"""The read path: candidates, fusion, rerank, threshold, recency, MMR, and context building."""

from memoir.retrieval.context import Context, format_context
from memoir.retrieval.pipeline import Hit, SearchParameters, SearchPipeline

__all__ = ["Context", "Hit", "SearchParameters", "SearchPipeline", "format_context"]
