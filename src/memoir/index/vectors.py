"""The vector index: the store's item vectors in memory, searched exactly or with HNSW.

Vectors live in the store (the `embeddings` cache joined to `index_items`); this class
holds them as one float32 matrix per process and keeps it fresh: new items are appended
incrementally, removed or replaced ones are marked dead from the store's removal log
(and the matrix compacted once a quarter of it is dead), and a change of the store's
index generation (a cleared index) reloads everything.

Search is exact (a matrix product over the scope's rows) whenever the scope holds at
most `exact_limit` items, which is always right and fast at that size. Beyond it, and
once the index holds `hnsw_threshold` items, a faiss HNSW graph answers with
oversampling, filtered to the scope and the live items afterwards. The graph is keyed by
item id, so it survives compaction and restarts; it is saved beside the database with a
small manifest, and a missing, stale or unreadable file is rebuilt, never fatal. A graph
holding more dead items than live ones is rebuilt.

A search never waits for a graph to be built: building one over 100,000 items takes one to
two minutes on two cores, which a first `memoir search` used to spend before answering.
A few new items are added to the graph in place; more are added (or a graph is built) in a
background thread, and searches are exact until it is done (at 100,000 items, tens of
milliseconds). A short-lived process may never see its graph finished: the next one that
searches starts over, and a long-lived one (`memoir serve`) saves it for all. The file is
written when a graph is built or grown by many items, by the builder before the graph is
searched, so no search waits on the disk; a few items added in place do not rewrite it (at
100,000 items it is some 190 MB): once `SAVE_AFTER` items are in the graph and not in its
file, the next addition goes to the builder, which writes it (searches are exact meanwhile).
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from memoir.index.graph_file import graph_of, load_graph, new_graph, save_graph
from memoir.store import IndexScope, SearchIndex

__all__ = ["VectorIndex"]

log = logging.getLogger("memoir.index")

# Dead rows tolerated before the matrix is compacted (at least this many, and a quarter).
COMPACT_MIN = 1024
# Items added to the graph (or a new graph built over) in the searching thread: more, in the background.
GRAPH_STEP = 256
# Items a background build adds at a time: between two, it sees that its process is exiting and
# stops (faiss must not be inside a build while the interpreter shuts down: it aborts the process).
GRAPH_CHUNK = 1000
# Seconds a background build waits before it starts: a command that searches once and exits is
# done by then, and leaves the cores to its search; a server builds it once and saves it for all.
GRAPH_DELAY_S = 5.0
# Items added in place since the graph's file was written past which the next addition goes to the
# background builder, which writes the file: a server taking turns one by one keeps its file fresh.
SAVE_AFTER = 4 * GRAPH_STEP
_builders: weakref.WeakSet[VectorIndex] = weakref.WeakSet()


@atexit.register
def _stop_builders() -> None:
    for index in list(_builders):
        index._stop.set()
        index.wait_for_graph()


@dataclass
class _Rows:
    item_ids: np.ndarray
    conversations: np.ndarray  # codes into VectorIndex._codes
    agents: np.ndarray  # codes, -1 for none
    kinds: np.ndarray  # codes
    created_ms: np.ndarray
    matrix: np.ndarray  # (capacity, dim); rows [:count] are filled
    live: np.ndarray  # False for rows whose item was removed since loading
    count: int = 0
    dead: int = 0


class VectorIndex:
    def __init__(
        self,
        store: SearchIndex,
        model: str,
        *,
        hnsw_threshold: int = 50_000,
        exact_limit: int = 20_000,
        path: Path | None = None,
        hnsw_m: int = 32,
        ef_search: int = 128,
        background: bool = True,
    ) -> None:
        self.store = store
        self.model = model
        self.hnsw_threshold = hnsw_threshold
        self.exact_limit = exact_limit
        self.path = path
        self.hnsw_m = hnsw_m
        self.ef_search = ef_search
        self._lock = threading.RLock()
        self._codes: dict[str | None, int] = {None: -1}
        self._rows: _Rows | None = None
        self._generation = -1
        self._last_item_id = 0
        self._removal_seq = 0
        self._hnsw: Any = None  # faiss IndexIDMap over an HNSW graph: ids are item ids
        self._hnsw_last_item_id = 0
        self._hnsw_loaded = False  # the saved graph was looked for (once per generation)
        self._hnsw_saved = 0  # items of the graph its file holds (loaded or written)
        self.background = background  # False: the graph is built in the searching thread (tests)
        self._building: threading.Thread | None = None
        self._stop = threading.Event()  # set at exit: a background build gives up between chunks
        self._positions: dict[int, int] = {}  # item id -> row, live rows only

    # -- loading -----------------------------------------------------------------------

    def refresh(self) -> None:
        """Bring the in-memory copy in line with the store."""
        with self._lock:
            generation = self.store.index_generation()
            if generation != self._generation:
                self._hnsw, self._hnsw_last_item_id, self._hnsw_loaded = None, 0, False
                self._generation = generation
                self._reload()
            elif self._rows is not None and self._rows.dead > max(COMPACT_MIN, self._rows.count // 4):
                self._reload()  # compaction: the graph is keyed by item id and stays
            else:
                removed, self._removal_seq = self.store.index_removals(self._removal_seq)
                self._kill(removed)
            fresh = self.store.index_vectors(self.model, self._last_item_id)
            if fresh:
                self._append(fresh)
            if self._rows is not None and self._rows.count - self._rows.dead >= self.hnsw_threshold:
                self._update_hnsw()

    def _reload(self) -> None:
        # The log position is read before the vectors: a removal between the two reads is
        # applied at the next refresh, and removing an id that was never loaded is a no-op.
        self._rows, self._last_item_id, self._positions = None, 0, {}
        self._removal_seq = self.store.index_removals(None)[1]

    def _kill(self, item_ids: list[int]) -> None:
        rows = self._rows
        if rows is None:
            return
        for item_id in item_ids:
            position = self._positions.pop(item_id, None)
            if position is not None:
                rows.live[position] = False
                rows.dead += 1

    def _code(self, value: str | None) -> int:
        code = self._codes.get(value)
        if code is None:
            code = self._codes[value] = len(self._codes) - 1
        return code

    def _append(self, fresh: list[tuple[int, str, str | None, str, int, bytes]]) -> None:
        vectors = np.frombuffer(b"".join(row[5] for row in fresh), dtype=np.float32).reshape(len(fresh), -1)
        rows = self._rows
        if rows is None or rows.count + len(fresh) > rows.matrix.shape[0]:
            rows = self._grow(rows, len(fresh), vectors.shape[1])
        start, end = rows.count, rows.count + len(fresh)
        rows.item_ids[start:end] = [row[0] for row in fresh]
        rows.conversations[start:end] = [self._code(row[1]) for row in fresh]
        rows.agents[start:end] = [self._code(row[2]) for row in fresh]
        rows.kinds[start:end] = [self._code(row[3]) for row in fresh]
        rows.created_ms[start:end] = [row[4] for row in fresh]
        rows.matrix[start:end] = vectors
        rows.live[start:end] = True
        rows.count = end
        self._positions.update((int(row[0]), start + offset) for offset, row in enumerate(fresh))
        self._rows = rows
        self._last_item_id = int(fresh[-1][0])

    @staticmethod
    def _grow(rows: _Rows | None, extra: int, dim: int) -> _Rows:
        count = rows.count if rows else 0
        capacity = max(1024, 2 * (count + extra))
        grown = _Rows(
            item_ids=np.zeros(capacity, dtype=np.int64),
            conversations=np.zeros(capacity, dtype=np.int32),
            agents=np.zeros(capacity, dtype=np.int32),
            kinds=np.zeros(capacity, dtype=np.int32),
            created_ms=np.zeros(capacity, dtype=np.int64),
            matrix=np.zeros((capacity, dim), dtype=np.float32),
            live=np.zeros(capacity, dtype=bool),
            count=count,
            dead=rows.dead if rows else 0,
        )
        if rows is not None:
            for name in ("item_ids", "conversations", "agents", "kinds", "created_ms", "matrix", "live"):
                getattr(grown, name)[:count] = getattr(rows, name)[:count]
        return grown

    @property
    def count(self) -> int:
        """Live items held."""
        return self._rows.count - self._rows.dead if self._rows else 0

    # -- search ------------------------------------------------------------------------

    def search(self, query: np.ndarray, scope: IndexScope, k: int) -> list[tuple[int, float]]:
        """(item id, cosine similarity) of the `k` nearest items within the scope, best first."""
        with self._lock:
            rows = self._rows
            if rows is None or rows.count == 0 or k <= 0:
                return []
            mask = self._mask(rows, scope)
            in_scope = int(mask.sum()) if mask is not None else rows.count
            if in_scope == 0:
                return []
            if self._hnsw is not None and in_scope > self.exact_limit:
                return self._search_hnsw(rows, query, mask, k)
            return self._search_exact(rows, mask, in_scope, query, k)

    def wait_for_graph(self, timeout: float | None = None) -> None:
        """Wait for a graph being built in the background (benchmarks and tests)."""
        building = self._building
        if building is not None:
            building.join(timeout)

    def vectors_of(self, item_ids: list[int]) -> dict[int, np.ndarray]:
        """The stored vectors of these items (for MMR and for scoring keyword-only hits)."""
        with self._lock:
            rows = self._rows
            if rows is None:
                return {}
            found = ((item_id, self._positions.get(item_id)) for item_id in item_ids)
            return {item_id: rows.matrix[p] for item_id, p in found if p is not None}

    def _mask(self, rows: _Rows, scope: IndexScope) -> np.ndarray | None:
        n = rows.count
        mask: np.ndarray | None = rows.live[:n] if rows.dead else None

        def narrow(condition: np.ndarray) -> None:
            nonlocal mask
            mask = condition if mask is None else mask & condition

        if scope.conversation_ids is not None:
            codes = [self._codes[c] for c in scope.conversation_ids if c in self._codes]
            narrow(np.isin(rows.conversations[:n], codes))
        if scope.agent_id is not None:
            narrow((rows.agents[:n] == self._codes.get(scope.agent_id, -2)) | (rows.agents[:n] == -1))
        if scope.kinds is not None:
            narrow(np.isin(rows.kinds[:n], [self._codes[k] for k in scope.kinds if k in self._codes]))
        if scope.since_ms is not None:
            narrow(rows.created_ms[:n] >= scope.since_ms)
        if scope.until_ms is not None:
            narrow(rows.created_ms[:n] < scope.until_ms)
        return mask

    @staticmethod
    def _search_exact(
        rows: _Rows, mask: np.ndarray | None, in_scope: int, query: np.ndarray, k: int
    ) -> list[tuple[int, float]]:
        # Gathering a small scope's rows is cheap; for a large one, scoring every row in
        # place and masking the rest out beats copying most of the matrix.
        if mask is not None and in_scope * 4 < rows.count:
            positions = np.flatnonzero(mask)
            scores = rows.matrix[positions] @ query
        else:
            positions = None
            scores = rows.matrix[: rows.count] @ query
            if mask is not None:
                scores[~mask] = -np.inf
        k = min(k, in_scope)
        top = np.argpartition(-scores, k - 1)[:k] if len(scores) > k else np.arange(len(scores))
        top = top[np.argsort(-scores[top])]
        picked = top if positions is None else positions[top]
        return [(int(rows.item_ids[p]), float(scores[i])) for p, i in zip(picked, top, strict=True)]

    def _search_hnsw(self, rows: _Rows, query: np.ndarray, mask: np.ndarray | None, k: int) -> list[tuple[int, float]]:
        hits = self._graph_hits(query, mask, k)
        # Items the graph does not hold yet (added while it was being built) are compared exactly beside it.
        tail = int(np.searchsorted(rows.item_ids[: rows.count], self._hnsw_last_item_id, side="right"))
        if tail < rows.count:
            recent = np.zeros(rows.count, dtype=bool)
            recent[tail:] = rows.live[tail : rows.count] if mask is None else mask[tail:]
            if (in_tail := int(recent.sum())) > 0:
                hits = sorted([*hits, *self._search_exact(rows, recent, in_tail, query, k)], key=lambda hit: -hit[1])
        return hits[:k]

    def _graph_hits(self, query: np.ndarray, mask: np.ndarray | None, k: int) -> list[tuple[int, float]]:
        want = k * 4
        total = self._hnsw.ntotal
        while True:
            scores, found = self._hnsw.search(query.reshape(1, -1).astype(np.float32), min(want, total))
            hits = []
            for item_id, score in zip(found[0], scores[0], strict=True):
                position = self._positions.get(int(item_id)) if item_id >= 0 else None  # None: removed
                if position is not None and (mask is None or mask[position]):
                    hits.append((int(item_id), float(score)))
            if len(hits) >= k or want >= total:
                return hits[:k]
            want *= 4

    # -- HNSW ----------------------------------------------------------------------------

    def _update_hnsw(self) -> None:
        """Bring the graph up to the rows held: a few new items in place, more in the background."""
        rows = self._rows
        assert rows is not None
        if self._building is not None and self._building.is_alive():
            return  # the graph is out being extended: searches are exact until it is back
        live = rows.count - rows.dead
        if self._hnsw is None and not self._hnsw_loaded:
            self._hnsw, self._hnsw_loaded = self._load_hnsw(), True
        if self._hnsw is not None and self._hnsw.ntotal > 2 * live:
            log.info("rebuilding the HNSW vector index: most of its %d items were removed", self._hnsw.ntotal)
            self._hnsw, self._hnsw_last_item_id = None, 0
        start = int(np.searchsorted(rows.item_ids[: rows.count], self._hnsw_last_item_id, side="right"))
        if start >= rows.count:
            return
        new = np.flatnonzero(rows.live[start : rows.count]) + start
        graph, last = self._hnsw, int(rows.item_ids[rows.count - 1])
        ids, vectors = rows.item_ids[new], rows.matrix[new]  # copies: the rows may grow or compact meanwhile
        if graph is None:  # a new graph is worth its file; a small one is built before answering
            keep, here = True, len(new) <= GRAPH_STEP
        else:  # a few items go in place, until the file lacks too many: then the builder adds and writes
            keep = len(new) > GRAPH_STEP or graph.ntotal + len(new) - self._hnsw_saved > SAVE_AFTER
            here = not keep
        if here or not self.background:
            self._extend(graph, ids, vectors, last, self._generation, keep=keep)
            return
        log.debug("building the HNSW vector index over %d items in the background (searches exact meanwhile)", live)
        # Handed to the builder (faiss does not search a graph while it grows): until it is back, none is held.
        self._hnsw, self._hnsw_last_item_id = None, 0
        _builders.add(self)
        self._building = threading.Thread(
            target=self._extend,
            args=(graph, ids, vectors, last, self._generation, GRAPH_DELAY_S, True),
            daemon=True,
            name="memoir-hnsw",
        )
        self._building.start()

    def _extend(
        self,
        graph: Any,
        ids: np.ndarray,
        vectors: np.ndarray,
        last: int,
        generation: int,
        delay: float | None = None,
        keep: bool = True,
    ) -> None:
        """Add these items to `graph` (a new one when None) and make it the searched graph, saved when `keep`.

        `delay`: in the background, after waiting so long (None: here, now)."""
        if delay is not None and self._stop.wait(delay):
            return
        started = time.perf_counter()
        try:
            if graph is None:
                graph = self._new_hnsw(vectors.shape[1])
            graph_of(graph).hnsw.efSearch = self.ef_search
            for start in range(0, len(ids), GRAPH_CHUNK):
                if self._stop.is_set():
                    return  # the process is exiting: the graph is left for the next one to build
                graph.add_with_ids(vectors[start : start + GRAPH_CHUNK], ids[start : start + GRAPH_CHUNK])
        except (MemoryError, RuntimeError) as exc:
            if delay is None:
                raise
            log.warning("could not build the HNSW vector index (%s); searches stay exact", exc)
            return  # nothing was installed: the next refresh builds a graph of every item
        if keep and delay is not None:  # written before it is searched, so no search waits for the disk
            self._save_hnsw(graph, last, generation)
        with self._lock:
            if generation != self._generation:
                return  # the index was cleared meanwhile: this graph holds what is gone (its file says so)
            self._hnsw, self._hnsw_last_item_id = graph, last
            if keep and delay is None:
                self._save_hnsw(graph, last, generation)
            if keep:
                self._hnsw_saved = graph.ntotal
        if delay is not None:
            log.info("built the HNSW vector index over %d items in %.0f s", graph.ntotal, time.perf_counter() - started)

    def _new_hnsw(self, dim: int) -> Any:
        return new_graph(dim, self.hnsw_m)

    def _load_hnsw(self) -> Any:
        found = load_graph(self.path, self.model, self._generation, self._last_item_id) if self.path else None
        if found is None:
            return None
        graph, self._hnsw_last_item_id = found
        self._hnsw_saved = graph.ntotal
        return graph

    def _save_hnsw(self, graph: Any, last: int, generation: int) -> None:
        if self.path is not None:
            save_graph(self.path, graph, {"model": self.model, "generation": generation, "last_item_id": last})
