"""The search pipeline: composes the stages over the store's indexes.

Every hit carries its provenance: the event ids it rests on (a turn's own event; a
fact's or summary's source events later) and, with `search.neighbours`, the turns
around it as context, so an answer can always be traced back to what was said.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from functools import cache
from typing import TypeVar

import numpy as np

from memoir.config import SearchSettings
from memoir.index.database_vectors import DatabaseVectors
from memoir.index.embedders import Embedder
from memoir.index.keyword import terms
from memoir.index.vectors import VectorIndex
from memoir.retrieval.rerank import Reranker
from memoir.retrieval.stages import (
    Candidate,
    boost_named_speakers,
    mmr,
    reciprocal_rank_fusion,
    score_fusion,
    threshold,
    weigh_recency,
)
from memoir.retrieval.terms import KeywordTerms
from memoir.retrieval.when import favour_time_words, keyword_query, question_terms
from memoir.store import IndexItem, IndexScope, SearchCandidates, SearchIndex

__all__ = ["Hit", "SearchPipeline"]

EMBEDDING_THREADS = 4  # queries embedded at once, across the searches of every thread

T = TypeVar("T")


@dataclass(frozen=True)
class Hit:
    kind: str  # "turn", "fact", "gotcha", "decision", "learning", or "summary" (a segment's; metadata node_id)
    text: str
    score: float
    event_ids: tuple[str, ...]  # provenance
    memory_id: str | None  # None for turns
    metadata: dict[str, str]
    created_at: datetime
    conversation_id: str
    session_id: str | None = None
    role: str | None = None
    context: tuple[str, ...] = ()  # neighbouring turns, as "[role] text", in time order
    context_event_ids: tuple[str, ...] = ()
    relevance: float = 0.0
    sources: tuple[str, ...] = ()  # which candidate lists found it: vector, keyword
    agent_id: str | None = None  # whose it is in unified mode (None: shared)

    def to_dict(self) -> dict[str, object]:
        data = {name: getattr(self, name) for name in self.__dataclass_fields__}
        data["created_at"] = self.created_at.isoformat().replace("+00:00", "Z")
        return data


@dataclass(frozen=True)
class _Found:
    """What a search found before fusing: each source's ranking, the query's vector, the ranked items and vectors."""

    rankings: dict[str, Sequence[tuple[int, float]]]
    query_vector: np.ndarray
    items: dict[int, IndexItem]
    vectors: dict[int, np.ndarray]


@dataclass
class SearchPipeline:
    store: SearchIndex
    embedder: Embedder
    vectors: VectorIndex | DatabaseVectors
    parameters: SearchSettings = field(default_factory=SearchSettings)
    reranker: Reranker | None = None
    keyword_terms: KeywordTerms = field(init=False)

    def __post_init__(self) -> None:
        self.keyword_terms = KeywordTerms(self.store)

    def search(
        self,
        query: str,
        scope: IndexScope,
        k: int,
        now_ms: int | None = None,
        *,
        rerank: bool = True,
        extra: Sequence[IndexItem] = (),
        hidden: Collection[str] = (),
    ) -> list[Hit]:
        """The k best hits; `rerank=False` skips the cross-encoder (internal lookups, no user waiting).

        For a time-travel read: `extra`, items outside the index that compete too (memories that
        were live then and are not now), found by meaning only: their vectors join the vector
        ranking; `hidden`, the refs of indexed items it must not see (versions written since).
        """
        now_ms = int(time.time() * 1000) if now_ms is None else now_ms
        today = datetime.fromtimestamp(now_ms / 1000, UTC).date()
        found = self._find(query, scope, today)
        items, vectors = self._ranked(found, extra, hidden)
        if not items:
            return []
        candidates = [c for c in self._fuse(found.rankings, vectors, found.query_vector) if c.item_id in items]
        for candidate in candidates:
            candidate.created_ms = items[candidate.item_id].created_ms
        speakers = {item_id: item.metadata.get("speaker") for item_id, item in items.items()}
        candidates = boost_named_speakers(candidates, speakers, query, self.parameters.speaker_boost)
        texts = {item_id: item.text for item_id, item in items.items()}
        candidates = favour_time_words(candidates, texts, query, self.parameters.when_boost)
        if self.reranker is not None and rerank:
            candidates = self._rerank(query, candidates, items)
        ranked = weigh_recency(candidates, self.parameters.recency_weight, now_ms)
        chosen = mmr(ranked, vectors, k, self.parameters.mmr_lambda, self.parameters.mmr_floor)
        around = self._neighbours([items[c.item_id] for c in chosen])
        return [self._hit(c, items[c.item_id], around.get(c.item_id, [])) for c in chosen]

    def _ranked(
        self, found: _Found, extra: Sequence[IndexItem], hidden: Collection[str]
    ) -> tuple[dict[int, IndexItem], dict[int, np.ndarray]]:
        """The ranked items and their vectors, `extra` among them (`_outside`), `hidden` ones left out."""
        outside, outside_vectors = self._outside(extra, found.query_vector, found.rankings)
        ids = _ranked_ids(found.rankings)
        items = {i: found.items[i] for i in ids if i in found.items}  # one gone since drops out
        if hidden:
            items = {item_id: item for item_id, item in items.items() if item.ref not in hidden}
        items.update(outside)
        vectors = {i: found.vectors[i] for i in ids if i in found.vectors}
        vectors.update(outside_vectors)
        return items, vectors

    def _outside(
        self, extra: Sequence[IndexItem], query_vector: np.ndarray, rankings: dict[str, Sequence[tuple[int, float]]]
    ) -> tuple[dict[int, IndexItem], dict[int, np.ndarray]]:
        """`extra` under ids no indexed item has (negative), their vectors, and their places in the vector
        ranking (`rankings` is changed): as if the index held them."""
        if not extra:
            return {}, {}
        embedded = np.asarray(self.embedder.embed([item.search_text for item in extra]), dtype=np.float32)
        items = {-(n + 1): replace(item, item_id=-(n + 1)) for n, item in enumerate(extra)}
        vectors = dict(zip(items, embedded, strict=True))
        ranked = [*rankings.get("vector", ()), *((i, float(v @ query_vector)) for i, v in vectors.items())]
        rankings["vector"] = sorted(ranked, key=lambda pair: -pair[1])[: self.parameters.candidates + len(extra)]
        return items, vectors

    def _neighbours(self, items: list[IndexItem]) -> dict[int, list[IndexItem]]:
        """Each hit's neighbouring turns, in one query (a round trip on PostgreSQL)."""
        items = [item for item in items if (item.item_id or 0) > 0]  # an item from outside the index has none
        n = self.parameters.neighbours
        return self.store.index_neighbours_many(items, n, n)

    def nearest(self, text: str, scope: IndexScope, k: int) -> list[IndexItem]:
        """The `k` items closest to `text` in meaning, closest first: no fusion, recency or MMR.

        What reconciliation asks (the reference's "5 nearest facts"): the facts a new one may
        repeat or contradict are those that say nearly the same thing, whenever they were said.
        """
        ranked = self.vectors.search(self._query_vector(text), scope, k)
        items = self.store.index_items([item_id for item_id, _ in ranked])
        return [items[item_id] for item_id, _ in ranked if item_id in items]

    def _query_vector(self, text: str) -> np.ndarray:
        """`text` embedded, the vector index brought up to date first (a search follows)."""
        self.vectors.refresh()
        return np.asarray(self.embedder.embed([text])[0], dtype=np.float32)

    def _find(self, query: str, scope: IndexScope, today: date) -> _Found:
        """The candidate lists of each source, best first, every item they rank and its vector.

        The keyword index is also asked for the calendar terms of the dates the query names
        (`memoir.retrieval.when`), relative ones read as of `today`. Where the database ranks
        vectors itself (PostgreSQL), each list is a statement that brings its items and vectors;
        in process (SQLite), each list, the items and the vectors are asked for in turn.
        """
        if isinstance(self.vectors, DatabaseVectors):
            return self._find_in_database(self.vectors, query, scope, today)
        # The query is embedded in another thread while this one does what needs no vector: the
        # keyword list, the vector index brought up to date, the keyword candidates' rows. Both
        # wait on code that lets go of the GIL (onnxruntime, SQLite): on two cores it is free.
        embedding = _aside(self.embedder.embed, [query])
        with _dropped_on_error(embedding):
            rankings = self._keyword_ranking(query, scope, today)
            self.vectors.refresh()
            items, vectors = self._rows_and_vectors(_ranked_ids(rankings), {}, {})
        query_vector = np.asarray(embedding.result()[0], dtype=np.float32)
        if "vector" in self.parameters.sources:
            rankings = {"vector": self.vectors.search(query_vector, scope, self.parameters.candidates), **rankings}
            items, vectors = self._rows_and_vectors(_ranked_ids(rankings), items, vectors)
        return _Found(rankings, query_vector, items, vectors)

    def _keyword_ranking(self, query: str, scope: IndexScope, today: date) -> dict[str, Sequence[tuple[int, float]]]:
        if "keyword" not in self.parameters.sources:
            return {}
        match = self.keyword_terms.match(keyword_query(query, question_terms(query, today)))
        return {} if match is None else {"keyword": self.store.keyword_search(match, scope, self.parameters.candidates)}

    def _rows_and_vectors(
        self, ids: list[int], items: dict[int, IndexItem], vectors: dict[int, np.ndarray]
    ) -> tuple[dict[int, IndexItem], dict[int, np.ndarray]]:
        """`items` and `vectors` with those of `ids` they lack added (read once each)."""
        wanted = [item_id for item_id in ids if item_id not in items]
        if wanted:
            items = {**items, **self.store.index_items(wanted)}
            vectors = {**vectors, **self.vectors.vectors_of(wanted)}
        return items, vectors

    def _find_in_database(self, vectors: DatabaseVectors, query: str, scope: IndexScope, today: date) -> _Found:
        """`_find` where the database ranks vectors: a statement for the keyword list (the server's
        BM25 ranking is most of what it does for a search) and, in another thread, the query's
        embedding then a statement for the vector list, on another connection; each brings its
        items and their vectors. The keyword query's weightless words are dropped in SQL, as
        `KeywordTerms` drops them in process."""
        sources = self.parameters.sources
        n = self.parameters.candidates
        words = terms(keyword_query(query, question_terms(query, today))) if "keyword" in sources else []

        def by_meaning_of_query() -> tuple[np.ndarray, SearchCandidates]:
            vector = np.asarray(self.embedder.embed([query])[0], dtype=np.float32)
            return vector, vectors.candidates(vector, [], scope, n, "vector" in sources)

        # Its statement on a connection of its own, beside this one's; inside a transaction, on the
        # transaction's (which another thread may not use, and which alone sees its writes), after.
        meaning = _done(by_meaning_of_query) if vectors.bound_to_this_thread() else _aside(by_meaning_of_query)
        with _dropped_on_error(meaning):
            by_words = vectors.candidates(np.zeros(0, dtype=np.float32), words, scope, n, False) if words else None
        query_vector, by_meaning = meaning.result()
        rankings: dict[str, Sequence[tuple[int, float]]] = {}
        if by_meaning.vector is not None:
            rankings["vector"] = by_meaning.vector
        if by_words is not None and by_words.keyword is not None:
            rankings["keyword"] = by_words.keyword
        items: dict[int, IndexItem] = {}
        blobs: dict[int, np.ndarray] = {}
        for found in (by_meaning, by_words):
            if found is not None:
                items.update(found.items)
                blobs.update({i: np.frombuffer(blob, dtype=np.float32) for i, blob in found.vectors.items()})
        return _Found(rankings, query_vector, items, blobs)

    def _fuse(
        self, rankings: dict[str, Sequence[tuple[int, float]]], vectors: dict[int, np.ndarray], query: np.ndarray
    ) -> list[Candidate]:
        if self.parameters.fusion == "rrf":
            return reciprocal_rank_fusion(rankings, k=int(self.parameters.rrf_k))
        cosines: dict[int, float] = {}
        if "vector" in self.parameters.sources and vectors:
            ids = list(vectors)  # one product for every candidate, not one per candidate
            cosines = dict(zip(ids, (np.stack([vectors[i] for i in ids]) @ query).tolist(), strict=True))
        return score_fusion(rankings, cosines, self.parameters.keyword_weight)

    def _rerank(self, query: str, candidates: list[Candidate], items: dict[int, IndexItem]) -> list[Candidate]:
        assert self.reranker is not None
        pool = candidates[: self.parameters.rerank_candidates]
        scores = self.reranker.score(query, [items[c.item_id].search_text for c in pool])
        for candidate, relevance in zip(pool, scores, strict=True):
            candidate.relevance = relevance
        return threshold(sorted(pool, key=lambda c: -c.relevance), self.parameters.score_threshold)

    def _hit(self, candidate: Candidate, item: IndexItem, around: list[IndexItem]) -> Hit:
        return Hit(
            kind=item.kind,
            text=item.text,
            score=round(candidate.score, 6),
            event_ids=item.event_ids,
            memory_id=None if item.kind in ("turn", "summary") else item.ref,
            metadata=item.metadata,
            created_at=datetime.fromtimestamp(item.created_ms / 1000, UTC),
            conversation_id=item.conversation_id,
            session_id=item.session_id,
            role=item.role,
            context=tuple(f"[{n.role or n.kind}] {n.text}" for n in around),
            context_event_ids=tuple(e for n in around for e in n.event_ids),
            relevance=round(candidate.relevance, 6),
            sources=tuple(candidate.sources),
            agent_id=item.agent_id,
        )


@contextmanager
def _dropped_on_error(aside: Future[T]) -> Iterator[None]:
    """An error of the search's own thread is raised as it is, without waiting for the work beside
    it (a remote embedder may take its whole timeout) and without an error of its own."""
    try:
        yield
    except BaseException:
        aside.cancel()  # not started: it never runs; running: its answer is dropped
        raise


def _aside(work: Callable[..., T], *args: object) -> Future[T]:
    """`work` (the query's embedding, and on PostgreSQL its vector statement) done in another
    thread while one is free; here otherwise: when every thread is busy with other searches'
    (waiting in line would cost more than it saves) or none can start (the pool shut down, as at
    interpreter exit)."""
    threads = _threads(os.getpid())
    if threads.free.acquire(blocking=False):
        try:
            future = threads.pool.submit(work, *args)
        except RuntimeError:
            threads.free.release()
        else:
            future.add_done_callback(lambda _: threads.free.release())
            return future
    return _done(work, *args)


def _done(work: Callable[..., T], *args: object) -> Future[T]:
    """`work` done here, now, as a finished future (its error is the search's, as ever)."""
    done: Future[T] = Future()
    done.set_result(work(*args))
    return done


@dataclass(frozen=True)
class _Threads:
    pool: ThreadPoolExecutor
    free: threading.Semaphore  # threads of the pool not working for a search now


@cache
def _threads(pid: int) -> _Threads:
    """Threads that embed queries while the searches asking do the rest; one pool per process
    (`pid`): a forked child has none of its parent's threads, nor their semaphore's state."""
    return _Threads(
        ThreadPoolExecutor(max_workers=EMBEDDING_THREADS, thread_name_prefix="memoir-query"),
        threading.Semaphore(EMBEDDING_THREADS),
    )


def _ranked_ids(rankings: dict[str, Sequence[tuple[int, float]]]) -> list[int]:
    """Every item id the rankings hold, once, in the order first met."""
    return list(dict.fromkeys(item_id for ranking in rankings.values() for item_id, _ in ranking))
