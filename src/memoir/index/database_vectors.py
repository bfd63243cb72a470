"""Vector search done by the database itself (pgvector), for stores that offer it.

The in-memory `VectorIndex` loads every vector of a model into each process: right for one
SQLite home, wrong for a fleet of servers in front of a million memories (1.5 GB a process,
and minutes to load). On PostgreSQL the vectors stay in the database and each search is one
query: exact while the model has no HNSW index, approximate once one is built.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from memoir.index.embedders import Embedder
from memoir.store import IndexScope, SearchCandidates, SearchIndex

__all__ = ["DatabaseVectors", "VectorIndexJob", "VectorSearching"]

# How often a job asks the database how many items there are (a count of a big table is not free).
_RECOUNT_S = 60.0


class VectorSearching(Protocol):
    """What a store that searches vectors itself offers (PostgresStore; `Store.searches_vectors`)."""

    def vector_search(self, model: str, query: bytes, scope: IndexScope, limit: int) -> list[tuple[int, float]]: ...

    def search_candidates(
        self, model: str, query: bytes, words: Sequence[str], scope: IndexScope, limit: int, *, rank_vectors: bool
    ) -> SearchCandidates:
        """Both rankings (keywords: without the words that weigh nothing), their items and vectors, at once."""
        ...

    def ensure_vector_index(self, model: str, dims: int) -> str: ...

    def item_vectors(self, model: str, item_ids: Sequence[int]) -> dict[int, bytes]: ...

    def in_transaction(self) -> bool:
        """Is the calling thread inside `atomic()` (its reads on the transaction's connection)?"""
        ...


class DatabaseVectors:
    """`VectorIndex`'s interface over a store's own vector search; nothing is held in memory."""

    def __init__(self, store: SearchIndex, searcher: VectorSearching, model: str) -> None:
        self.store = store
        self.searcher = searcher
        self.model = model

    def refresh(self) -> None:
        """Nothing to load: every search reads the database as it is."""

    def count(self) -> int:
        return self.store.index_count()

    def search(self, query: np.ndarray, scope: IndexScope, k: int) -> list[tuple[int, float]]:
        if k <= 0:
            return []
        return self.searcher.vector_search(self.model, np.asarray(query, dtype=np.float32).tobytes(), scope, k)

    def candidates(
        self, query: np.ndarray, words: Sequence[str], scope: IndexScope, k: int, rank_vectors: bool
    ) -> SearchCandidates:
        """A search's candidates (`VectorSearching.search_candidates`): one statement, one round trip."""
        vector = np.asarray(query, dtype=np.float32).tobytes()
        return self.searcher.search_candidates(self.model, vector, words, scope, k, rank_vectors=rank_vectors)

    def bound_to_this_thread(self) -> bool:
        """Must this thread's reads stay on it (inside a transaction, which sees its own writes)?"""
        return self.searcher.in_transaction()

    def vectors_of(self, item_ids: list[int]) -> dict[int, np.ndarray]:
        found = self.searcher.item_vectors(self.model, item_ids)
        return {item_id: np.frombuffer(blob, dtype=np.float32) for item_id, blob in found.items()}


class VectorIndexJob:
    """Builds a model's HNSW index in the database once its items pass `index.hnsw_threshold`.

    Below the threshold exact search is fast and every insert stays cheap; an HNSW index
    costs a graph insertion per new vector (hundreds a second, not tens of thousands), so it
    is built once, when it starts paying, by whichever process's fast lane gets there first
    (periodic jobs take turns). Bulk loads (`memoir migrate`, a benchmark) build it at the end.
    """

    name = "vector_index"
    lane = "fast"

    def __init__(self, store: SearchIndex, searcher: VectorSearching, embedder: Embedder, threshold: int) -> None:
        self.store = store
        self.searcher = searcher
        self.embedder = embedder  # its `dim` may be known only after its first answer (a server's model)
        self.threshold = threshold
        self._built = False
        self._counted_at = float("-inf")
        self._due = False

    def backlog(self) -> int:
        if self._built:
            return 0
        if time.monotonic() - self._counted_at >= _RECOUNT_S:
            self._counted_at = time.monotonic()
            self._due = self.store.index_count() >= self.threshold
        return int(self._due)

    def tick(self) -> int:
        if not self.backlog() or not self.embedder.dim:
            return 0
        # A no-op when another process built it first.
        self.searcher.ensure_vector_index(self.embedder.name, self.embedder.dim)
        self._built = True
        return 1
