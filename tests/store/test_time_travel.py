"""Time-travel reads: `search(..., as_of=T)` and `build_context(..., as_of=T)` answer with what
memoir knew just before T, on every door that has them.

A memory corrected at T2 reads with its old content as of T1 < T2; a forgotten memory is found
until its deletion; nothing stored at or after T is ever returned. Run on PostgreSQL too
(`--backend=postgres`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir import Memoir, MemoirClient
from memoir.errors import InvalidQuery
from memoir.grpc import memoir_pb2 as pb
from memoir.mcp.server import build_server
from memoir.model.ids import ulid_timestamp_ms
from memoir.server import serving
from tests.doors.test_grpc import serving as serving_grpc
from tests.doors.test_mcp import call, text


def moment() -> datetime:
    """A moment strictly between what was written before it and what is written after it."""
    time.sleep(0.003)
    now = datetime.now(UTC)
    time.sleep(0.003)
    return now


def facts(memoir: Memoir, query: str, when: datetime, **options: Any) -> list[str]:
    return [h.text for h in memoir.search(query, conversation_id="c1", kinds=["fact"], as_of=when, **options)]


@pytest.fixture
def history(open_memoir: Callable[..., Memoir]) -> tuple[Memoir, dict[str, datetime]]:
    """Utrecht, corrected to Rotterdam; a cat remembered, then forgotten; a turn said last."""
    memoir = open_memoir(embedding_provider="hashing")
    marks: dict[str, datetime] = {"before": moment()}
    home = memoir.remember("The user lives in Utrecht", conversation_id="c1")
    marks["utrecht"] = moment()
    memoir.correct(home.id, "The user lives in Rotterdam")
    marks["rotterdam"] = moment()
    cat = memoir.remember("The user's cat is called Pixel", conversation_id="c1")
    marks["cat"] = moment()
    memoir.forget(cat.id)
    marks["no cat"] = moment()
    memoir.ingest({"session_id": "s", "conversation_id": "c1", "event_type": "user_message", "text": "Pixel ran off"})
    memoir.wait_searchable(30)
    return memoir, marks


def test_a_corrected_memory_reads_as_it_was_and_a_forgotten_one_until_it_went(
    history: tuple[Memoir, dict[str, datetime]],
) -> None:
    memoir, at = history
    assert facts(memoir, "where does the user live", at["before"]) == []
    assert facts(memoir, "where does the user live", at["utrecht"]) == ["The user lives in Utrecht"]
    assert facts(memoir, "where does the user live", at["rotterdam"]) == ["The user lives in Rotterdam"]
    assert "The user's cat is called Pixel" in facts(memoir, "cat", at["cat"])
    assert "The user's cat is called Pixel" not in facts(memoir, "cat", at["no cat"])
    assert "The user's cat is called Pixel" not in facts(memoir, "cat", datetime.now(UTC))  # and not now
    turns = [h.text for h in memoir.search("Pixel", conversation_id="c1", as_of=at["no cat"]) if h.kind == "turn"]
    assert turns == []  # said after that moment
    then = memoir.build_context("where does the user live?", conversation_id="c1", as_of=at["utrecht"])
    assert "Utrecht" in then.text and "Rotterdam" not in then.text and "Pixel" not in then.text


def test_as_of_is_checked_like_every_time(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    with pytest.raises(InvalidQuery, match="as_of"):
        memoir.search("x", as_of="last tuesday-ish")
    with pytest.raises(InvalidQuery, match="as_of"):
        memoir.build_context("x", as_of=10**20)


OPS = st.lists(
    st.tuples(st.sampled_from(["remember", "correct", "forget", "say"]), st.integers(0, 5)), min_size=1, max_size=8
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_nothing_written_after_the_moment_nor_gone_before_it_is_ever_read(
    open_memoir: Callable[..., Memoir],
    tmp_path_factory: pytest.TempPathFactory,
    fresh_store: Callable[[], dict[str, str]],
    ops: list[tuple[str, int]],
) -> None:
    memoir = open_memoir(home=tmp_path_factory.mktemp("home"), embedding_provider="hashing", **fresh_store())
    marks = [moment()]
    live: list[str] = []
    for op, n in ops:
        word = f"topic{n} lighthouse"
        if op == "remember":
            live.append(memoir.remember(f"The user likes {word} {len(marks)}", conversation_id="c1").id)
        elif op == "correct" and live:
            old = live.pop(n % len(live))
            live.append(memoir.correct(old, f"The user now likes {word} {len(marks)}").id)
        elif op == "forget" and live:
            memoir.forget(live.pop(n % len(live)))
        elif op == "say":
            memoir.ingest({"session_id": "s", "conversation_id": "c1", "event_type": "user_message", "text": word})
        marks.append(moment())
    memoir.wait_searchable(30)
    versions = {m.id: m for m in memoir.memories("c1", include_deleted=True)}
    for mark in marks:
        cut = int(mark.timestamp() * 1000)
        for hit in memoir.search("The user likes lighthouse", conversation_id="c1", k=50, as_of=mark):
            if hit.kind == "turn":
                assert hit.created_at < mark
                continue
            version = versions[hit.memory_id or ""]
            assert ulid_timestamp_ms(version.id) < cut, (hit.text, mark)  # written before the moment
            assert version.deleted_at is None or version.deleted_at >= mark, (hit.text, mark)  # not yet gone
        known = {
            m.content
            for m in versions.values()
            if ulid_timestamp_ms(m.id) < cut and (m.deleted_at is None or m.deleted_at >= mark)
        }
        found = {h.text for h in memoir.search("The user likes lighthouse", conversation_id="c1", k=50, as_of=mark)}
        assert known <= found, (known - found, mark)  # and everything known then is found


# -- every door that searches takes `as_of` ------------------------------------------------------


def test_every_door_reads_as_of_a_moment(history: tuple[Memoir, dict[str, datetime]]) -> None:
    memoir, at = history
    when = at["utrecht"].isoformat()
    with serving(memoir) as where:
        with httpx.Client(base_url=where.url, trust_env=False) as http:
            rest = http.post(
                "/api/v1/search", json={"query": "where does the user live", "conversation_id": "c1", "as_of": when}
            ).json()
            context = http.post(
                "/api/v1/context", json={"query": "where does the user live", "conversation_id": "c1", "as_of": when}
            ).json()
        with MemoirClient(where.url) as client:
            remote = client.search("where does the user live", conversation_id="c1", as_of=at["utrecht"])
    with serving_grpc(memoir) as stub:
        request = pb.SearchRequest(query="where does the user live", conversation_id="c1")
        request.as_of_ms = int(at["utrecht"].timestamp() * 1000)
        grpc_hits = stub.Search(request).hits
    mcp = text(
        call(
            build_server(memoir),
            "search_memory",
            {"query": "where does the user live", "conversation_id": "c1", "as_of": when},
        )
    )
    for door, said in {
        "rest": " ".join(h["text"] for h in rest["hits"]),
        "rest context": context["text"],
        "client": " ".join(h.text for h in remote),
        "grpc": " ".join(h.text for h in grpc_hits),
        "mcp": mcp,
    }.items():
        assert "Utrecht" in said and "Rotterdam" not in said, door
