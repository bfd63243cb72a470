"""Keyword queries leave out the words BM25 gives no weight (held by half the rows or more)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir import Memoir
from memoir.index.keyword import match_expression
from memoir.retrieval.terms import KeywordTerms
from memoir.store import IndexScope


def project(open_memoir: Callable[..., Memoir], texts: list[str]) -> Memoir:
    memoir = open_memoir(embedding_provider="hashing", worker_enabled=False)
    memoir.remember_many([{"text": text, "kind": "gotcha", "conversation_id": "shop"} for text in texts])
    return memoir


def test_a_file_path_is_searched_by_its_rare_words(open_memoir: Callable[..., Memoir]) -> None:
    texts = [f"src/mod{i}.py closes the cursor late" for i in range(20)] + ["src/checkout.py rounds with floats"]
    memoir = project(open_memoir, texts)
    words = KeywordTerms(memoir._parts.store)
    assert words.match("src/checkout.py") == '"checkout"'  # src and py are in every row
    assert words.match("src/py") == match_expression("src/py")  # every word common: all kept
    hits = memoir.search("src/checkout.py", conversation_id="shop", k=3)
    assert hits[0].text == "src/checkout.py rounds with floats" and "keyword" in hits[0].sources


_WORDS = st.sampled_from(["src", "py", "cart", "tax", "floats", "cursor", "retry", "cache", "order"])


@given(
    texts=st.lists(st.lists(_WORDS, min_size=1, max_size=5).map(" ".join), min_size=1, max_size=25),
    query=st.lists(_WORDS, min_size=1, max_size=4).map(" ".join),
)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_leaving_words_out_changes_no_weighted_ranking(
    tmp_path_factory: pytest.TempPathFactory, fresh_store: Callable[[], dict[str, str]], texts: list[str], query: str
) -> None:
    """Every row the full query scores above zero is found with the same score (to FTS5's millionth)."""
    home = tmp_path_factory.mktemp("home")
    with Memoir.open(home, embedding_provider="hashing", worker_enabled=False, **fresh_store()) as memoir:
        memoir.remember_many([{"text": text, "kind": "gotcha", "conversation_id": "shop"} for text in texts])
        store = memoir._parts.store
        scope = IndexScope(conversation_ids=("shop",))
        full = dict(store.keyword_search(match_expression(query) or "", scope, 1000))
        reduced = dict(store.keyword_search(KeywordTerms(store).match(query) or "", scope, 1000))
    weighted = {item: score for item, score in full.items() if score > 1e-3}
    assert weighted.keys() <= reduced.keys()
    assert all(abs(reduced[item] - score) < 1e-3 for item, score in weighted.items())
