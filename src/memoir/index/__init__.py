"""The search index: embedders, keyword and vector indexes, and the indexing job."""

from memoir.index.embedders import (
    CachedEmbedder,
    Embedder,
    HashingEmbedder,
    MiniLMEmbedder,
    OpenAIEmbedder,
    content_hash,
)
from memoir.index.job import IndexEventJob, item_for_event
from memoir.index.vectors import VectorIndex

__all__ = [
    "CachedEmbedder",
    "Embedder",
    "HashingEmbedder",
    "IndexEventJob",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "VectorIndex",
    "content_hash",
    "item_for_event",
]
