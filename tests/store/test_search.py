"""Search end to end: the indexing job, the pipeline, scopes, reindex, the HNSW file, rerank."""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir import InvalidQuery, Memoir, ModelUnavailable
from tests.conftest import REPO, message
from tests.scripted_server import scripted_server

EXAMPLE = [json.loads(line) for line in (REPO / "examples" / "conversation.jsonl").read_text().splitlines()]


@pytest.fixture
def lighthouse(open_memoir: Callable[..., Memoir]) -> Memoir:
    memoir = open_memoir()
    memoir.ingest(EXAMPLE)
    memoir.flush()
    return memoir


def texts(hits: list) -> list[str]:
    return [h.text for h in hits]


def test_every_turn_with_text_is_indexed_once(lighthouse: Memoir) -> None:
    indexable = [e for e in EXAMPLE if e["event_type"] in ("user_message", "assistant_message", "tool_result")]
    facts = lighthouse.memories("lighthouse")
    summaries = lighthouse.status().timeline["segments summarized"]  # one per session of the example
    assert summaries == 2
    assert lighthouse.status().indexed_items == len(indexable) + len(facts) + summaries
    lighthouse.ingest(EXAMPLE)  # the same events again
    lighthouse.flush()
    assert lighthouse.status().indexed_items == len(indexable) + len(facts) + summaries
    assert lighthouse.memories("lighthouse") == facts


def test_search_finds_the_turn_and_traces_it_to_its_event(lighthouse: Memoir) -> None:
    [hit] = lighthouse.search("Is Sam allergic to anything?", k=1, conversation_id="lighthouse", kinds=["turn"])
    assert "allergic to peanuts" in hit.text
    event = lighthouse.get_event(hit.event_ids[0])
    assert event.text == hit.text and hit.kind == "turn" and hit.memory_id is None
    assert hit.metadata == {"speaker": "Sam"} and hit.created_at == event.timestamp
    assert hit.context and hit.context_event_ids  # the turns around it, for context
    assert 0 < hit.score <= 1


def test_hybrid_search_uses_both_keyword_and_meaning(lighthouse: Memoir) -> None:
    by_word = lighthouse.search("Mapbox token", k=1, conversation_id="lighthouse")
    by_meaning = lighthouse.search("food intolerance", k=1, conversation_id="lighthouse")
    assert "Mapbox" in by_word[0].text and "token" in by_word[0].text
    assert "keyword" in by_word[0].sources
    assert "peanut" in by_meaning[0].text


def test_a_failing_read_is_raised_as_is_without_waiting_for_the_querys_embedding(
    lighthouse: Memoir, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The query is embedded in another thread while the search reads (decision 111): an error of
    the read is what the caller sees, at once, not the embedder's, nor after its timeout."""
    pipeline = lighthouse._parts.pipeline
    release, embedding_done = threading.Event(), threading.Event()

    def slow_failing_embed(texts: list[str]) -> None:
        release.wait(30)
        embedding_done.set()
        raise ModelUnavailable("the embedder failed too")

    def failing_read(*args: object, **kwargs: object) -> None:
        raise InvalidQuery("query", "the keyword index failed")

    monkeypatch.setattr(pipeline.embedder, "embed", slow_failing_embed)
    monkeypatch.setattr(pipeline.store, "keyword_search", failing_read)  # SQLite's keyword list
    monkeypatch.setattr(pipeline.store, "search_candidates", failing_read, raising=False)  # PostgreSQL's
    try:
        with pytest.raises(InvalidQuery, match="keyword index failed"):
            lighthouse.search("Mapbox token", k=3, conversation_id="lighthouse")
        assert not embedding_done.is_set()  # the search did not wait for it
    finally:
        release.set()


def test_a_search_answers_when_no_thread_can_embed_its_query(lighthouse: Memoir) -> None:
    """As at interpreter exit, when the pool that embeds queries takes no more work: the search
    embeds the query itself and answers as before."""
    from memoir.retrieval import pipeline

    before = lighthouse.search("food intolerance", k=3, conversation_id="lighthouse")
    lighthouse._parts.pipeline.embedder.recent = 0  # embedded again, not remembered
    pipeline._threads(os.getpid()).pool.shutdown()
    try:
        after = lighthouse.search("food intolerance", k=3, conversation_id="lighthouse")
    finally:
        pipeline._threads.cache_clear()
    assert [h.text for h in after] == [h.text for h in before] and "peanut" in after[0].text


def test_a_search_embeds_its_own_query_when_every_thread_is_busy(
    lighthouse: Memoir, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Other searches hold every thread: waiting in line for one would cost more than it saves."""
    from memoir.retrieval import pipeline

    aside = pipeline._threads(os.getpid())
    sent: list[object] = []
    monkeypatch.setattr(aside.pool, "submit", lambda *args: sent.append(args))
    held = 0
    while aside.free.acquire(blocking=False):
        held += 1
    try:
        hits = lighthouse.search("food intolerance", k=3, conversation_id="lighthouse")
    finally:
        for _ in range(held):
            aside.free.release()
    assert "peanut" in hits[0].text and sent == []


def test_conversations_never_see_each_other(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir()
    memoir.ingest(
        [
            message("My cat is called Pixel", conversation_id="alice"),
            message("My cat is called Biscuit", conversation_id="bob"),
            message("Cats need fresh water every day", conversation_id="global"),
        ]
    )
    memoir.flush()
    alice = texts(memoir.search("what is the cat called", k=5, conversation_id="alice"))
    bob = texts(memoir.search("what is the cat called", k=5, conversation_id="bob"))
    assert "My cat is called Pixel" in alice and "My cat is called Biscuit" not in alice
    assert "My cat is called Biscuit" in bob and "My cat is called Pixel" not in bob
    assert "Cats need fresh water every day" in alice and "Cats need fresh water every day" in bob


def test_agents_in_unified_mode_never_see_each_other(open_memoir: Callable[..., Memoir], home: Path) -> None:
    writer = open_memoir(multi_agent_mode="unified", agent_id="planner")
    writer.ingest(
        [
            message("The deploy key lives in vault path ops/deploy", agent_id="planner"),
            message("The deploy key lives in the CI secrets store", agent_id="coder"),
        ]
    )
    writer.flush()
    planner = texts(writer.search("where is the deploy key", k=5))
    coder = texts(open_memoir(multi_agent_mode="unified", agent_id="coder").search("where is the deploy key", k=5))
    assert planner == ["The deploy key lives in vault path ops/deploy"]
    assert coder == ["The deploy key lives in the CI secrets store"]


def test_unified_mode_refuses_to_search_as_nobody(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(multi_agent_mode="unified")
    memoir.ingest(message("secret plan", agent_id="planner"))
    with pytest.raises(InvalidQuery, match="agent_id"):
        memoir.search("plan")


def test_kind_and_time_filters(lighthouse: Memoir) -> None:
    second_session = lighthouse.search("backend", k=10, conversation_id="lighthouse", since="2026-03-09")
    assert second_session and all(h.created_at.isoformat() >= "2026-03-09" for h in second_session)
    first_session = lighthouse.search("backend", k=10, conversation_id="lighthouse", until="2026-03-09")
    assert first_session and all(h.created_at.isoformat() < "2026-03-09" for h in first_session)
    assert {h.kind for h in lighthouse.search("backend", conversation_id="lighthouse", kinds=["fact"])} == {"fact"}
    assert lighthouse.search("backend", conversation_id="lighthouse", kinds="turn")


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"query": ""}, "query"),
        ({"query": "   "}, "query"),
        ({"query": "x", "k": 0}, "k"),
        ({"query": "x", "k": 101}, "k"),
        ({"query": "x", "kinds": ["turn", "rumour"]}, "kinds"),
        ({"query": "x", "conversation_id": ""}, "conversation_id"),
        ({"query": "x", "conversation_id": 7}, "conversation_id"),
        ({"query": "x", "since": "yesterday-ish"}, "since"),
    ],
)
def test_bad_queries_are_invalid_queries(lighthouse: Memoir, kwargs: dict, field: str) -> None:
    kwargs = {"conversation_id": "lighthouse", **kwargs}  # a copy: both backends' cases get this dict
    query = kwargs.pop("query")
    with pytest.raises(InvalidQuery) as caught:
        lighthouse.search(query, **kwargs)
    assert caught.value.field == field


def test_a_conversation_with_nothing_yet_has_no_hits_of_its_own(lighthouse: Memoir) -> None:
    # The proxy's first turn of a new conversation searches before anything is stored.
    assert lighthouse.search("backend language", conversation_id="nobody-talked-here") == []
    lighthouse.remember("The team standup is at 9:30", conversation_id="global")
    [hit] = lighthouse.search("standup", conversation_id="nobody-talked-here")
    assert hit.conversation_id == "global"


def test_reindex_gives_identical_results(lighthouse: Memoir) -> None:
    questions = ["what backend language", "peanut allergy", "Mia birthday", "tide predictions API", "UTC bug"]
    items = lighthouse.status().indexed_items
    before = [
        [(h.event_ids, h.score) for h in lighthouse.search(q, k=5, conversation_id="lighthouse")] for q in questions
    ]
    progress: list[tuple[int, int]] = []
    assert lighthouse.reindex(progress=lambda done, total: progress.append((done, total))) == items
    assert items > 21  # the 21 turns, the memories and the segments' summaries
    after = [
        [(h.event_ids, h.score) for h in lighthouse.search(q, k=5, conversation_id="lighthouse")] for q in questions
    ]
    # the same hits in the same order; a score may differ in the last float digit (embedded in other batches)
    assert [[ids for ids, _ in hits] for hits in after] == [[ids for ids, _ in hits] for hits in before]
    assert [s for hits in after for _, s in hits] == pytest.approx([s for hits in before for _, s in hits], abs=1e-5)
    assert progress[-1] == (27, 27)


WORD = "quillwort"  # in every item of the home below, and in nothing else


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(turns=st.integers(1, 30), facts=st.integers(0, 3), batch_size=st.integers(1, 12))
def test_a_search_during_a_reindex_sees_the_whole_index(
    tmp_path: Path, fresh_store: Callable[[], dict[str, str]], turns: int, facts: int, batch_size: int
) -> None:
    """A search beside `memoir reindex` finds what it found before: the old index or the new, never half."""
    with (
        tempfile.TemporaryDirectory(dir=tmp_path) as folder,
        Memoir.open(
            Path(folder) / "home", worker_enabled=False, embedding_provider="hashing", **fresh_store()
        ) as memoir,
    ):
        memoir.ingest(
            [message(f"Turn {n}: the {WORD} by the pier grew {n} cm.", session_id=f"s{n % 3}") for n in range(turns)]
        )
        for n in range(facts):
            memoir.remember(f"The {WORD} number {n} is in the north bed")
        assert memoir.flush(timeout=60)

        def hits() -> int:
            return len(memoir.search(WORD, k=100))

        whole = hits()
        assert whole >= turns + facts
        seen: list[int] = []
        beside = threading.Event()

        def search_beside() -> None:  # another thread searching all along, as a server's would
            while not beside.is_set():
                seen.append(hits())

        def between_pages(done: int, total: int) -> None:  # and one search at every page, for certain
            searcher = threading.Thread(target=lambda: seen.append(hits()))
            searcher.start()
            searcher.join()

        thread = threading.Thread(target=search_beside)
        thread.start()
        try:
            memoir.reindex(progress=between_pages, batch_size=batch_size)
        finally:
            beside.set()
            thread.join()
        assert seen and set(seen) == {whole}, f"searches during the reindex found {sorted(set(seen))} of {whole}"
        assert hits() == whole


@pytest.mark.sqlite_only  # the in-memory index's file; PostgreSQL searches in the database
def test_a_damaged_or_missing_hnsw_file_is_rebuilt(open_memoir: Callable[..., Memoir], home: Path) -> None:
    memoir = open_memoir(index_hnsw_threshold=5)
    memoir.ingest(EXAMPLE)
    memoir.flush()
    memoir._parts.pipeline.vectors.exact_limit = 0  # make every search go through the graph
    expected = texts(memoir.search("tide predictions", k=3, conversation_id="lighthouse"))
    graph = home / "index" / "vectors.hnsw"
    assert graph.is_file()
    graph.write_bytes(b"not a faiss index")
    again = open_memoir(index_hnsw_threshold=5)
    again._parts.pipeline.vectors.exact_limit = 0
    assert texts(again.search("tide predictions", k=3, conversation_id="lighthouse")) == expected
    graph.unlink()
    third = open_memoir(index_hnsw_threshold=5)
    third._parts.pipeline.vectors.exact_limit = 0
    assert texts(third.search("tide predictions", k=3, conversation_id="lighthouse")) == expected
    assert graph.is_file()


def test_context_block_lists_memories_as_plain_sentences(lighthouse: Memoir) -> None:
    context = lighthouse.build_context(
        "Recap: what did we decide about the backend?", conversation_id="lighthouse", budget_tokens=120
    )
    assert context.text.startswith("Summary of the conversation so far: ")  # asked for: the conversation's own
    assert any(line.startswith(("Sam said: ", "The assistant said: ")) for line in context.text.splitlines())
    assert context.tokens <= 120 and context.hits
    with pytest.raises(InvalidQuery, match="budget_tokens"):
        lighthouse.build_context("x", conversation_id="lighthouse", budget_tokens=0)


def test_an_http_reranker_reorders_and_its_threshold_prunes(open_memoir: Callable[..., Memoir]) -> None:
    def rerank(body: dict) -> tuple[int, dict]:
        # The scripted cross-encoder loves the Mapbox turn and dislikes everything else.
        scores = [0.97 if "Mapbox" in doc else 0.1 for doc in body["documents"]]
        return 200, {"results": [{"index": i, "relevance_score": s} for i, s in enumerate(scores)]}

    with scripted_server({"/v1/rerank": rerank}) as server:
        memoir = open_memoir(search_rerank="http", search_rerank_url=server.url + "/v1/rerank")
        memoir.ingest(EXAMPLE)
        memoir.flush()
        hits = memoir.search("what did Sam say about the peanut snacks?", k=5, conversation_id="lighthouse")
    assert [h.text for h in hits] == [t for t in texts(hits) if "Mapbox" in t]
    assert hits[0].relevance == pytest.approx(0.97)
    assert server.requests[0][1]["query"] == "what did Sam say about the peanut snacks?"


def test_a_missing_onnx_cross_encoder_is_a_clear_error(open_memoir: Callable[..., Memoir], tmp_path: Path) -> None:
    memoir = open_memoir(search_rerank="onnx", search_rerank_model=str(tmp_path / "ce.onnx"))
    memoir.ingest(message("hello"))
    memoir.flush()
    with pytest.raises(ModelUnavailable, match=r"cross-encoder model .*ce\.onnx does not exist"):
        memoir.search("hello")


def tiny_cross_encoder(folder: Path) -> Path:
    """A real ONNX cross-encoder graph: logit = 0.5 * (tokens of the passage segment - 5)."""
    import onnx
    from onnx import TensorProto, helper

    def ints(name: str) -> onnx.ValueInfoProto:
        return helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])

    graph = helper.make_graph(
        [
            helper.make_node("Mul", ["attention_mask", "token_type_ids"], ["passage"]),
            helper.make_node("Cast", ["passage"], ["passage_f"], to=TensorProto.FLOAT),
            helper.make_node("ReduceSum", ["passage_f", "axes"], ["length"], keepdims=1),
            helper.make_node("Sub", ["length", "five"], ["centred"]),
            helper.make_node("Mul", ["centred", "half"], ["logits"]),
        ],
        "tiny-cross-encoder",
        [ints("input_ids"), ints("attention_mask"), ints("token_type_ids")],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 1])],
        initializer=[
            helper.make_tensor("axes", TensorProto.INT64, [1], [1]),
            helper.make_tensor("five", TensorProto.FLOAT, [], [5.0]),
            helper.make_tensor("half", TensorProto.FLOAT, [], [0.5]),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    path = folder / "cross-encoder.onnx"
    onnx.save(model, str(path))
    shutil.copy(REPO / "src" / "memoir" / "index" / "data" / "minilm-tokenizer.json", folder / "tokenizer.json")
    return path


def test_the_onnx_cross_encoder_scores_query_passage_pairs(tmp_path: Path) -> None:
    from tokenizers import Tokenizer

    from memoir.retrieval.rerank import ONNXReranker

    reranker = ONNXReranker(tiny_cross_encoder(tmp_path))
    passages = ["short", "a much longer passage with many more words in it"]
    scores = reranker.score("query", passages)
    tokenizer = Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    expected = [1 / (1 + math.exp(-0.5 * (sum(tokenizer.encode("query", p).type_ids) - 5))) for p in passages]
    assert scores == pytest.approx(expected, rel=1e-5)
    assert scores[1] > 0.5 > scores[0]


def test_search_with_the_onnx_reranker(open_memoir: Callable[..., Memoir], tmp_path: Path) -> None:
    memoir = open_memoir(search_rerank="onnx", search_rerank_model=str(tiny_cross_encoder(tmp_path)))
    memoir.ingest(EXAMPLE)
    memoir.flush()
    hits = memoir.search("backend", k=3, conversation_id="lighthouse")
    # The tiny cross-encoder prefers long passages; its relevance replaces the fused one.
    assert hits[0].relevance == pytest.approx(max(h.relevance for h in hits), abs=1e-3)
    assert all(h.relevance >= 0.35 for h in hits)
    assert all(len(h.text) > 40 for h in hits)
