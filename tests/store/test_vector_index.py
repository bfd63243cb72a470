"""The in-memory vector index follows the store: additions, replacements, removals, clears.

A searcher that has held its vectors through any sequence of changes must answer exactly
as one that loads them now. It follows removals through the store's log (decision 58)
rather than reloading everything, so this is checked over generated sequences, with the
log cut and the matrix compacted often, exact and through the HNSW graph, and across a
restart that reads the saved graph back.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import memoir.index.vectors as vectors_module
import memoir.store.sqlite.search as search_tables
from memoir.index.vectors import VectorIndex
from memoir.store import IndexItem, IndexScope
from memoir.store.sqlite import SQLiteStore

# The in-memory index over a SQLiteStore; PostgreSQL searches in the database (test_postgres_vectors).
pytestmark = pytest.mark.sqlite_only

MODEL = "test-model"
DIM = 8
REFS = [f"ref-{i}" for i in range(12)]
CONVERSATIONS = ["a", "b"]


def unit(seed: int) -> np.ndarray:
    vector = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
    return vector / np.linalg.norm(vector)


class VectorsFollowTheStore(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="memoir-vectors-"))
        self.store = SQLiteStore.open(self.root / "memoir.db", synchronous="NORMAL")  # no fsync: not what is tested
        self.saved = (vectors_module.COMPACT_MIN, search_tables.REMOVALS_KEPT)
        vectors_module.COMPACT_MIN, search_tables.REMOVALS_KEPT = 3, 7  # compact and cut the log often
        self.model: dict[str, tuple[str, np.ndarray]] = {}
        self.version = 0
        self.exact = VectorIndex(self.store, MODEL)
        self.graph = self._graph_index()

    def _graph_index(self) -> VectorIndex:
        return VectorIndex(
            self.store, MODEL, hnsw_threshold=1, exact_limit=0, path=self.root / "vectors.hnsw", background=False
        )

    def teardown(self) -> None:
        vectors_module.COMPACT_MIN, search_tables.REMOVALS_KEPT = self.saved
        self.store.close()
        shutil.rmtree(self.root, ignore_errors=True)

    @rule(refs=st.lists(st.sampled_from(REFS), min_size=1, max_size=4, unique=True), seed=st.integers(0, 10_000))
    def add_or_replace(self, refs: list[str], seed: int) -> None:
        items = []
        for offset, ref in enumerate(refs):
            self.version += 1
            vector = unit(seed + offset)
            conversation = CONVERSATIONS[(seed + offset) % 2]
            content_hash = f"hash-{self.version}"
            self.store.embeddings_save(MODEL, [(content_hash, vector.tobytes())])
            items.append(IndexItem("turn", ref, conversation, self.version, ref, ref, content_hash, ()))
            self.model[ref] = (conversation, vector)
        self.store.index_add(items)

    @rule(refs=st.lists(st.sampled_from(REFS), min_size=1, max_size=4, unique=True))
    def remove(self, refs: list[str]) -> None:
        self.store.index_remove(refs)
        for ref in refs:
            self.model.pop(ref, None)

    @rule()
    def clear(self) -> None:
        self.store.index_clear()
        self.model.clear()

    @rule()
    def restart_the_graph_searcher(self) -> None:
        self.graph = self._graph_index()  # reads the saved graph back when it is still valid

    @invariant()
    def the_item_count_follows_the_store(self) -> None:
        assert self.store.keyword_document_counts([])[0] == len(self.model)  # kept by triggers, not counted

    @invariant()
    def searches_match_the_store(self) -> None:
        query = unit(999)
        for conversations in (None, ["a"]):
            expected = self._expected(query, conversations)
            for index in (self.exact, self.graph):
                index.refresh()
                assert index.count == len(self.model)
                scope = IndexScope(conversation_ids=conversations)
                found = index.search(query, scope, k=len(REFS))
                refs = self._refs([item_id for item_id, _ in found])
                assert sorted(refs) == sorted(ref for ref, _ in expected)
                scores = dict(expected)
                assert all(abs(score - scores[ref]) < 1e-5 for ref, (_, score) in zip(refs, found, strict=True))
                if index is self.exact:  # best first (equal vectors may come in either order)
                    assert [score for _, score in found] == sorted((score for _, score in found), reverse=True)

    def _expected(self, query: np.ndarray, conversations: list[str] | None) -> list[tuple[str, float]]:
        scored = [
            (ref, float(vector @ query))
            for ref, (conversation, vector) in self.model.items()
            if conversations is None or conversation in conversations
        ]
        return sorted(scored, key=lambda pair: -pair[1])

    def _refs(self, item_ids: list[int]) -> list[str]:
        items = self.store.index_items(item_ids)
        return [items[item_id].ref for item_id in item_ids]


VectorsFollowTheStore.TestCase.settings = settings(
    max_examples=60, stateful_step_count=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_vectors_follow_the_store = VectorsFollowTheStore.TestCase


def test_item_ids_are_never_reused(tmp_path: Path) -> None:
    # A searcher loads "ids above the last one it holds": a reused id would hide a new item.
    store = SQLiteStore.open(tmp_path / "memoir.db")
    store.embeddings_save(MODEL, [("h", unit(1).tobytes())])
    index = VectorIndex(store, MODEL)
    store.index_add([IndexItem("turn", "first", "a", 1, "x", "x", "h", ())])
    index.refresh()
    [(first, _)] = index.search(unit(1), IndexScope(), k=5)
    store.index_remove(["first"])  # the highest id goes: plain SQLite rowids would hand it out again
    store.index_add([IndexItem("turn", "second", "a", 2, "y", "y", "h", ())])
    index.refresh()
    [(second, _)] = index.search(unit(1), IndexScope(), k=5)
    assert second > first
    assert store.index_items([second])[second].ref == "second"
    store.close()


def test_an_updated_memory_does_not_reload_every_vector(tmp_path: Path) -> None:
    store = SQLiteStore.open(tmp_path / "memoir.db")
    store.embeddings_save(MODEL, [(f"h{i}", unit(i).tobytes()) for i in range(50)])
    store.index_add([IndexItem("memory", f"m{i}", "a", i, "t", "t", f"h{i}", ()) for i in range(50)])
    index = VectorIndex(store, MODEL)
    index.refresh()
    loaded = store.index_vectors
    calls: list[int] = []
    store.index_vectors = lambda model, after: calls.append(after) or loaded(model, after)  # type: ignore[method-assign]
    store.index_add([IndexItem("memory", "m7", "a", 99, "t", "t", "h1", ())])  # an update replaces the item
    index.refresh()
    assert calls and min(calls) > 0  # only the new item was read, not all fifty again
    assert index.count == 50
    store.close()


def add_units(store: SQLiteStore, numbers: range | list[int]) -> None:
    """Items r<n> of conversation "a", each with the vector unit(n)."""
    store.embeddings_save(MODEL, [(f"h{n}", unit(n).tobytes()) for n in numbers])
    store.index_add([IndexItem("turn", f"r{n}", "a", n, "x", "x", f"h{n}", ()) for n in numbers])


def test_a_search_never_waits_for_the_graph_it_is_exact_until_the_graph_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectors_module, "GRAPH_DELAY_S", 0.2)
    store = SQLiteStore.open(tmp_path / "memoir.db", synchronous="NORMAL")
    add_units(store, range(300))  # more than GRAPH_STEP: the graph is built in the background
    vectors = [unit(n) for n in range(300)]
    index = VectorIndex(store, MODEL, hnsw_threshold=1, exact_limit=0, path=tmp_path / "vectors.hnsw")
    query = unit(12_345)
    exact = sorted(((n, float(v @ query)) for n, v in enumerate(vectors)), key=lambda pair: -pair[1])[:5]

    index.refresh()  # starts the graph's build and returns
    found = index.search(query, IndexScope(), k=5)
    index.wait_for_graph()
    assert index._hnsw is not None and (tmp_path / "vectors.hnsw").exists()  # built, searched and saved
    for answer in (found, index.search(query, IndexScope(), k=5)):
        items = store.index_items([item_id for item_id, _ in answer])
        assert [items[item_id].ref for item_id, _ in answer] == [f"r{n}" for n, _ in exact]
    store.close()


def test_items_added_while_the_graph_is_built_are_found_and_a_failed_build_leaves_no_partial_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectors_module, "GRAPH_DELAY_S", 0.2)
    store = SQLiteStore.open(tmp_path / "memoir.db", synchronous="NORMAL")

    def add(numbers: range | list[int]) -> None:
        add_units(store, numbers)

    def nearest(index: VectorIndex, n: int) -> str:
        [(item_id, _)] = index.search(unit(n), IndexScope(), k=1)
        return store.index_items([item_id])[item_id].ref

    add(range(300))
    index = VectorIndex(store, MODEL, hnsw_threshold=1, exact_limit=0, path=tmp_path / "vectors.hnsw")
    index.refresh()  # the build starts
    add([1000])
    index.refresh()  # the build is out: the new item waits in the rows
    index.wait_for_graph()
    assert nearest(index, 1000) == "r1000"  # compared exactly beside the graph

    failing = VectorIndex(store, MODEL, hnsw_threshold=1, exact_limit=0, path=tmp_path / "other.hnsw")
    monkeypatch.setattr(failing, "_new_hnsw", lambda dim: (_ for _ in ()).throw(MemoryError("no room")))
    failing.refresh()
    failing.wait_for_graph()
    assert failing._hnsw is None and nearest(failing, 5) == "r5"  # exact, whole
    monkeypatch.undo()
    monkeypatch.setattr(vectors_module, "GRAPH_DELAY_S", 0.0)
    add(range(300, 600))
    failing.refresh()
    failing.wait_for_graph()
    assert failing._hnsw is not None and failing._hnsw.ntotal == 601  # every item, not those after the failure
    store.close()


def test_a_few_items_added_in_place_leave_the_graphs_file_alone_until_enough_have_come(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectors_module, "SAVE_AFTER", 5)
    store = SQLiteStore.open(tmp_path / "memoir.db", synchronous="NORMAL")
    path = tmp_path / "vectors.hnsw"
    add_units(store, range(300))
    index = VectorIndex(store, MODEL, hnsw_threshold=1, exact_limit=0, path=path, background=False)
    index.refresh()  # a new graph: built and saved
    written = path.stat().st_mtime_ns, path.stat().st_ino
    add_units(store, range(300, 303))
    index.refresh()  # three items: into the graph in place, the file (hundreds of MB at scale) not rewritten
    assert index._hnsw.ntotal == 303
    assert (path.stat().st_mtime_ns, path.stat().st_ino) == written

    def nearest(searcher: VectorIndex, n: int) -> str:
        [(item_id, _)] = searcher.search(unit(n), IndexScope(), k=1)
        return store.index_items([item_id])[item_id].ref

    later = VectorIndex(store, MODEL, hnsw_threshold=1, exact_limit=0, path=path, background=False)
    later.refresh()  # the saved graph, and the three items it lacks added from the rows
    assert later._hnsw.ntotal == 303 and [nearest(later, n) for n in (301, 302, 7)] == ["r301", "r302", "r7"]

    add_units(store, range(303, 306))
    index.refresh()  # six items now outside the file (more than SAVE_AFTER): it is written
    assert json.loads(path.with_suffix(".json").read_text())["count"] == 306
    store.close()


def test_a_graph_file_is_read_back_only_with_its_own_manifest(tmp_path: Path) -> None:
    """Two savers, or one killed between its two writes, may leave one save's graph beside another's
    manifest: that pair is never read back as a graph of the index (it is rebuilt)."""
    from memoir.index.graph_file import load_graph, new_graph, save_graph

    path = tmp_path / "vectors.hnsw"
    small, big = new_graph(DIM, 8), new_graph(DIM, 8)
    small.add_with_ids(np.stack([unit(n) for n in range(3)]), np.arange(1, 4, dtype=np.int64))
    big.add_with_ids(np.stack([unit(n) for n in range(3)]), np.arange(1, 4, dtype=np.int64))
    save_graph(path, small, {"model": MODEL, "generation": 1, "last_item_id": 3})
    assert load_graph(path, MODEL, 1, 3) is not None
    first_manifest = path.with_suffix(".json").read_text()
    save_graph(path, big, {"model": MODEL, "generation": 2, "last_item_id": 3})  # same count, another save
    path.with_suffix(".json").write_text(first_manifest)  # the first save's manifest beside the second's graph
    assert load_graph(path, MODEL, 1, 3) is None
