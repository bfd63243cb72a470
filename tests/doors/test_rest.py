"""The REST API and `MemoirClient`: the façade over HTTP, answering what the embedded façade answers.

A real server on 127.0.0.1 (uvicorn on a free port), a real home, the example conversation.
Each test calls the same method embedded and through the client and expects the same
result, or the same error class with the same message.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openapi_spec_validator import validate as validate_spec

from memoir import Memoir, MemoirClient
from memoir.errors import (
    EventNotFound,
    InvalidEvent,
    InvalidInput,
    InvalidQuery,
    MemoirError,
    NotFound,
    ServerUnavailable,
)
from memoir.server import serving
from memoir.server.errors import status_of
from tests.conftest import message
from tests.scripted_server import chat_reply, scripted_server

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "conversation.jsonl"
EVENTS = [json.loads(line) for line in EXAMPLE.read_text().splitlines() if line.strip()]
KEY = "k" * 24


@pytest.fixture
def served(open_memoir: Callable[..., Memoir]) -> Iterator[tuple[Memoir, MemoirClient]]:
    memoir = open_memoir(embedding_provider="hashing")
    with serving(memoir) as where, MemoirClient(where.url) as client:
        yield memoir, client


@pytest.fixture
def example(served: tuple[Memoir, MemoirClient]) -> tuple[Memoir, MemoirClient]:
    """The example conversation, ingested through the client, indexed, with its timeline built."""
    memoir, client = served
    client.ingest(EVENTS)
    memoir.flush()
    memoir.update_timeline(rebuild=True)
    return memoir, client


def same_outcome(embedded: Callable[[], Any], remote: Callable[[], Any]) -> Any:
    """Both calls return equal values, or raise the same class with the same message."""
    outcomes = []
    for call in (embedded, remote):
        try:
            outcomes.append(("value", call()))
        except MemoirError as exc:
            outcomes.append(("error", (type(exc), str(exc), getattr(exc, "field", None))))
    assert outcomes[0] == outcomes[1]
    return outcomes[0][1]


# -- round trips: every route -------------------------------------------------------------


def test_events_pages_and_single_events_match_the_embedded_facade(example: tuple[Memoir, MemoirClient]) -> None:
    memoir, client = example
    first = same_outcome(lambda: memoir.events(limit=5), lambda: client.events(limit=5))
    assert len(first) == 5
    assert first.next_cursor is not None
    later = client.events(limit=5, cursor=first.next_cursor)
    assert later == memoir.events(limit=5, cursor=first.next_cursor)
    assert later.next_cursor == memoir.events(limit=5, cursor=first.next_cursor).next_cursor
    same_outcome(lambda: memoir.get_event(first[2].event_id), lambda: client.get_event(first[2].event_id))
    session = first[0].session_id
    same_outcome(lambda: memoir.events(session_id=session), lambda: client.events(session_id=session))
    since = first[3].timestamp
    same_outcome(lambda: memoir.events(since=since), lambda: client.events(since=since))


def test_ingesting_one_event_and_a_retry_store_it_once(served: tuple[Memoir, MemoirClient]) -> None:
    memoir, client = served
    [event_id] = client.ingest(message("The deploy key lives in the vault"))
    assert client.ingest({**message("The deploy key lives in the vault"), "event_id": event_id}) == [event_id]
    assert [e.event_id for e in memoir.events()] == [event_id]


def test_search_and_context_match_the_embedded_facade(example: tuple[Memoir, MemoirClient]) -> None:
    memoir, client = example
    c = "lighthouse"
    hits = same_outcome(
        lambda: memoir.search("Which database?", conversation_id=c),
        lambda: client.search("Which database?", conversation_id=c),
    )
    assert hits
    same_outcome(
        lambda: memoir.search("database", k=3, conversation_id=c, kinds=["turn"], since="2020-01-01"),
        lambda: client.search("database", k=3, conversation_id=c, kinds=["turn"], since="2020-01-01"),
    )
    context = same_outcome(
        lambda: memoir.build_context("Which database?", conversation_id=c, budget_tokens=200, top_k=3),
        lambda: client.build_context("Which database?", conversation_id=c, budget_tokens=200, top_k=3),
    )
    assert context.text


def test_memories_are_kept_listed_forgotten_and_their_history_read(served: tuple[Memoir, MemoirClient]) -> None:
    memoir, client = served
    kept = client.remember("Deploys need the VPN", kind="gotcha", severity="high", tags=["ops"])
    assert memoir.memories() == client.memories() == [kept]
    gone = client.forget(kept.id)
    assert gone.deleted
    assert client.memories() == []
    same_outcome(lambda: memoir.memories(include_deleted=True), lambda: client.memories(include_deleted=True))
    same_outcome(lambda: memoir.memory_history(kept.id), lambda: client.memory_history(kept.id))


def test_the_timeline_is_browsed_and_grips_expanded_as_embedded(example: tuple[Memoir, MemoirClient]) -> None:
    memoir, client = example
    [year] = same_outcome(memoir.toc_root, client.toc_root)
    same_outcome(lambda: memoir.toc_node(year.node_id), lambda: client.toc_node(year.node_id))
    node = year
    while node.child_node_ids:
        parent = node.node_id
        page = same_outcome(lambda p=parent: memoir.browse_toc(p, 1), lambda p=parent: client.browse_toc(p, 1))
        node = page.nodes[0]
    grip_id = node.bullets[0].grip_ids[0]
    context = same_outcome(lambda: memoir.expand_grip(grip_id, 2, 2), lambda: client.expand_grip(grip_id, 2, 2))
    assert context.excerpt_events


def test_the_scheduler_is_paused_and_resumed_and_the_status_read(served: tuple[Memoir, MemoirClient]) -> None:
    memoir, client = served
    client.pause_job("summarize")
    assert {j.name: j.paused for j in memoir.scheduler_status()}["summarize"]
    assert client.scheduler_status() == memoir.scheduler_status()
    client.resume_job("summarize")
    assert not {j.name: j.paused for j in client.scheduler_status()}["summarize"]
    status = client.status()
    assert status.home == str(memoir.home)
    assert status.jobs == memoir.status().jobs


def test_a_memory_is_corrected_and_both_versions_read_back(served: tuple[Memoir, MemoirClient]) -> None:
    memoir, client = served
    kept = client.remember("The standup is at 9:30")
    corrected = client.correct(kept.id, "The standup is at 10:00")
    assert corrected.content == "The standup is at 10:00" and corrected.id != kept.id
    assert client.memories() == memoir.memories() == [corrected]
    history = same_outcome(lambda: memoir.memory_history(corrected.id), lambda: client.memory_history(corrected.id))
    assert [m.content for m in history] == ["The standup is at 9:30", "The standup is at 10:00"]
    with pytest.raises(InvalidInput, match=f"{kept.id} was replaced by {corrected.id}: correct that one"):
        client.correct(kept.id, "x")  # a tombstone: correcting it would fork the history
    same_outcome(lambda: memoir.correct(kept.id, "x"), lambda: client.correct(kept.id, "x"))
    assert client.memories() == [corrected]


def test_the_overview_reads_match_the_embedded_facade(example: tuple[Memoir, MemoirClient]) -> None:
    memoir, client = example
    [conversation] = same_outcome(memoir.conversations, client.conversations)
    assert conversation.events == len(EVENTS)
    days = same_outcome(
        lambda: memoir.activity(conversation.conversation_id), lambda: client.activity(conversation.conversation_id)
    )
    assert sum(day.events for day in days) == len(EVENTS)
    same_outcome(lambda: memoir.llm_ledger(7), lambda: client.llm_ledger(7))
    same_outcome(lambda: memoir.llm_ledger(0), lambda: client.llm_ledger(0))  # the same InvalidQuery
    findings = client.doctor()
    assert {f.area for f in findings} == {f.area for f in memoir.doctor()} and findings[0].level == "ok"


# -- errors: the same classes, the same messages ------------------------------------------

UNKNOWN_ULID = "01J0000000000000000000000Z"


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("a malformed id", lambda m: m.get_event("nope")),
        ("an unknown event", lambda m: m.get_event(UNKNOWN_ULID)),
        ("an unknown memory", lambda m: m.forget(UNKNOWN_ULID)),
        ("an empty query", lambda m: m.search("  ")),
        ("k out of range", lambda m: m.search("x", k=0)),
        ("a limit out of range", lambda m: m.events(limit=0)),
        ("a bad cursor", lambda m: m.events(cursor="x")),
        ("an unknown kind", lambda m: m.memories(kind="rumour")),
        ("an unknown node", lambda m: m.toc_node("toc:day:2020-01-01", conversation_id="c")),
        ("an unknown grip", lambda m: m.expand_grip("grip:1:abc")),
        ("an unknown job", lambda m: m.pause_job("nope")),
        ("a bad event in a batch", lambda m: m.ingest([message(), message(event_type="shout")])),
        ("an event with an unknown field", lambda m: m.ingest({**message(), "mood": "x"})),
        ("a severity on a fact", lambda m: m.remember("x", severity="high")),
    ],
)
def test_errors_arrive_as_the_same_class_with_the_same_message(
    served: tuple[Memoir, MemoirClient], name: str, call: Callable[[Any], Any]
) -> None:
    memoir, client = served
    kind, _, _ = same_outcome(lambda: call(memoir), lambda: call(client))
    assert issubclass(kind, MemoirError), name


def test_a_conflicting_id_is_refused_after_the_rest_of_the_batch_is_stored(served: tuple[Memoir, MemoirClient]) -> None:
    memoir, client = served
    [taken] = client.ingest(message("first"))
    with pytest.raises(InvalidEvent) as refused:
        client.ingest([message("second"), {**message("other"), "event_id": taken}])
    assert refused.value.field == "event_id"
    assert refused.value.index == 1
    assert [e.text for e in memoir.events()] == ["first", "second"]


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.dictionaries(
        st.sampled_from(["session_id", "event_type", "text", "role", "timestamp", "metadata", "event_id", "x"]),
        st.one_of(st.none(), st.text(max_size=30), st.integers(), st.floats(), st.lists(st.integers(), max_size=2)),
    )
)
def test_any_event_body_is_stored_or_refused_as_embedded(served: tuple[Memoir, MemoirClient], body: Any) -> None:
    memoir, client = served
    try:
        memoir.prepare(body)
        expected: Any = None
    except MemoirError as exc:
        expected = (type(exc), str(exc))
    try:
        client.ingest(body)
        got: Any = None
    except MemoirError as exc:
        got = (type(exc), str(exc))
    assert got == expected


def test_request_shapes_are_checked_with_422s_naming_the_field(served: tuple[Memoir, MemoirClient]) -> None:
    _, client = served
    with httpx.Client(base_url=client.base_url) as raw:
        answer = raw.post("/api/v1/search", json={"query": 5})
        assert answer.status_code == 422
        assert answer.json()["error"]["param"] == "query"
        assert answer.json()["error"]["type"] == "InvalidInput"
        answer = raw.post("/api/v1/search", content=b"{not json", headers={"Content-Type": "application/json"})
        assert answer.status_code == 422
        answer = raw.post("/api/v1/events/batch", json={"events": [message(), 7]})
        assert answer.status_code == 422
        assert answer.json()["error"]["index"] == 1
        assert raw.get("/api/v1/nowhere").json()["error"]["type"] == "not_found"


def test_a_body_over_the_limit_is_refused_before_it_is_read(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing", server_max_body_bytes=2048)
    with serving(memoir) as where, httpx.Client(base_url=where.url) as raw:
        answer = raw.post("/api/v1/events", json=message("x" * 5000))
        assert answer.status_code == 413
        assert "server.max_body_bytes" in answer.json()["error"]["message"]

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
            yield b'{"session_id": "s", "event_type": "user_message", "text": "'
            yield b"y" * 5000
            yield b'"}'

        assert raw.post("/api/v1/events", content=chunks()).status_code == 413
    assert memoir.events() == []


def test_each_error_class_has_one_status() -> None:
    assert status_of(InvalidQuery("k", "bad")) == 422
    assert status_of(EventNotFound(UNKNOWN_ULID)) == 404
    assert status_of(NotFound("x")) == 404
    assert status_of(InvalidInput("x", "bad")) == 422
    assert status_of(ServerUnavailable("x")) == 500


def test_an_unreachable_server_is_server_unavailable() -> None:
    with (
        MemoirClient("http://127.0.0.1:9", timeout=2) as client,
        pytest.raises(ServerUnavailable, match="memoir serve"),
    ):
        client.status()


# -- auth, CORS, docs ---------------------------------------------------------------------


def test_with_a_key_every_route_but_health_needs_it(
    open_memoir: Callable[..., Memoir], caplog: pytest.LogCaptureFixture
) -> None:
    memoir = open_memoir(embedding_provider="hashing", api_key=KEY)
    caplog.set_level(logging.INFO, logger="memoir.access")
    with serving(memoir, host="0.0.0.0") as where, httpx.Client(base_url=f"http://127.0.0.1:{where.port}") as raw:
        assert raw.get("/health").status_code == 200
        for path in ("/ready", "/api/v1/status", "/v1/models", "/openapi.json", "/docs"):
            assert raw.get(path).status_code == 401, path
            assert raw.get(path, headers={"Authorization": "Bearer " + "k" * 23 + "x"}).status_code == 401
        assert raw.get("/api/v1/status", headers={"Authorization": f"Bearer {KEY}"}).status_code == 200
        with MemoirClient(f"http://127.0.0.1:{where.port}", api_key=KEY) as client:
            assert client.remember("Keys work").content == "Keys work"
        with MemoirClient(f"http://127.0.0.1:{where.port}") as keyless, pytest.raises(MemoirError, match="API key"):
            keyless.status()
    assert any('"path": "/api/v1/status"' in r.getMessage() for r in caplog.records)
    assert KEY not in caplog.text


def test_off_loopback_without_a_key_it_refuses_to_start(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    with pytest.raises(MemoirError, match="MEMOIR_API_KEY"), serving(memoir, host="0.0.0.0"):
        pass


def test_cors_is_off_unless_origins_are_configured(open_memoir: Callable[..., Memoir], tmp_path: Path) -> None:
    origin = {"Origin": "http://localhost:3000"}
    memoir = open_memoir(embedding_provider="hashing")
    with serving(memoir) as where:
        assert "access-control-allow-origin" not in httpx.get(where.url + "/api/v1/status", headers=origin).headers
    memoir.close()
    other = open_memoir(
        home=tmp_path / "other", embedding_provider="hashing", server_cors_origins="http://localhost:3000"
    )
    with serving(other) as where:
        allowed = httpx.get(where.url + "/api/v1/status", headers=origin).headers
        assert allowed["access-control-allow-origin"] == "http://localhost:3000"


@pytest.mark.parametrize("path", ["/api/v1/status", "/v1/models", "/hooks/claude", "/openapi.json"])
def test_without_a_key_web_pages_of_other_sites_are_refused_everywhere(
    open_memoir: Callable[..., Memoir], tmp_path: Path, path: str
) -> None:
    """DNS rebinding (a foreign Host) and cross-site requests (a foreign Origin) reach no route."""
    memoir = open_memoir(embedding_provider="hashing", server_cors_origins="https://app.example")
    with serving(memoir) as where:
        get = lambda **headers: httpx.get(where.url + path, headers=headers)  # noqa: E731
        assert get(Host="evil.example:8765").status_code == 421
        refused = get(Origin="http://evil.example")
        assert refused.status_code == 403 and "server.cors_origins" in refused.json()["error"]["message"]
        assert get(Origin="null").status_code == 403
        for fine in ({}, {"Origin": "http://localhost:5173"}, {"Origin": "https://app.example"}, {"Host": "[::1]"}):
            assert get(**fine).status_code not in (403, 421), fine


def test_with_a_key_any_host_name_is_answered(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing", api_key="k" * 24)
    with serving(memoir) as where:
        headers = {"Host": "memoir.internal", "Authorization": "Bearer " + "k" * 24}
        assert httpx.get(where.url + "/api/v1/status", headers=headers).status_code == 200


def test_the_docs_and_the_schema_are_served_from_the_package(served: tuple[Memoir, MemoirClient]) -> None:
    _, client = served
    with httpx.Client(base_url=client.base_url) as raw:
        page = raw.get("/docs").text  # rendered by the server: tests/doors/test_docs_page.py shows it in a browser
        assert "<code>/api/v1/search</code>" in page and "<script" not in page
        assert "cdn" not in page.lower()
        paths = raw.get("/openapi.json").json()["paths"]
    for route in ("/api/v1/events", "/api/v1/search", "/api/v1/memories", "/api/v1/grips/{grip_id}", "/health"):
        assert route in paths


def test_the_openapi_document_describes_the_server_that_answers(example: tuple[Memoir, MemoirClient]) -> None:
    _, client = example
    with httpx.Client(base_url=client.base_url) as raw:
        document = raw.get("/openapi.json").json()
        hits = raw.post("/api/v1/search", json={"query": "Which database?", "conversation_id": "lighthouse"})
        refused = raw.post("/api/v1/search", json={"query": "x", "k": 1000})
        missing = raw.get(f"/api/v1/events/{'0' * 26}")
        unknown = raw.delete(f"/api/v1/memories/{'0' * 26}")
    validate_spec(document)  # a valid OpenAPI 3.1 document
    assert "HTTPValidationError" not in json.dumps(document)  # FastAPI's error shape is not memoir's
    search = document["paths"]["/api/v1/search"]["post"]["responses"]
    assert {"200", "401", "413", "422", "500", "503"} <= set(search)
    assert {"404"} <= set(document["paths"]["/api/v1/events/{event_id}"]["get"]["responses"])

    def schema_of(responses: dict[str, Any], code: str) -> dict[str, Any]:
        return {**responses[code]["content"]["application/json"]["schema"], "components": document["components"]}

    # what the server answers fits what the document says it answers
    jsonschema.validate(hits.json(), schema_of(search, "200"))
    assert hits.json()["hits"]
    for answer in (refused, missing, unknown):
        jsonschema.validate(answer.json(), schema_of(search, "422"))
    assert refused.status_code == 422 and refused.json()["error"]["param"] == "k"
    assert missing.status_code == unknown.status_code == 404


@pytest.fixture
def example_with_a_model(open_memoir: Callable[..., Memoir]) -> Iterator[tuple[Memoir, MemoirClient]]:
    """The example conversation served by a home whose model answers nothing of use: its summaries are
    extractive with a note, and the status and the LLM ledger have the model's calls to show."""
    with scripted_server({"/v1/chat/completions": lambda _: (200, chat_reply("Sorry, I cannot help."))}) as model:
        memoir = open_memoir(
            embedding_provider="hashing", llm_model="qwen", llm_base_url=model.url + "/v1", memory_extract=False
        )
        with serving(memoir) as where, MemoirClient(where.url) as client:
            client.ingest(EVENTS)
            memoir.flush()
            memoir.update_timeline(rebuild=True)
            yield memoir, client


def real_answers(raw: httpx.Client) -> dict[tuple[str, str, str], list[httpx.Response]]:
    """The server's answers to a call of every /api route, by (method, documented path, status)."""
    answers: dict[tuple[str, str, str], list[httpx.Response]] = {}

    def call(method: str, path: str, url: str, code: str = "200", **options: Any) -> Any:
        answer = raw.request(method, url, **options)
        answers.setdefault((method.lower(), "/api/v1" + path, code), []).append(answer)
        assert answer.status_code == int(code), (method, url, answer.text)
        return answer.json()

    kept = call(
        "POST", "/memories", "/api/v1/memories", "201", json={"text": "The dog is Biscuit", "conversation_id": "c1"}
    )
    call("GET", "/memories", "/api/v1/memories", params={"conversation_id": "c1"})
    new = call("PUT", "/memories/{memory_id}", f"/api/v1/memories/{kept['id']}", json={"text": "The dog is Rex"})
    call("GET", "/memories/{memory_id}/history", f"/api/v1/memories/{new['id']}/history")
    call("DELETE", "/memories/{memory_id}", f"/api/v1/memories/{new['id']}")
    first = call("GET", "/events", "/api/v1/events", params={"limit": 5})["events"][0]
    call("GET", "/events/{event_id}", f"/api/v1/events/{first['event_id']}")
    call("POST", "/events", "/api/v1/events", "201", json=message("The deploy key lives in the vault"))
    call("POST", "/events/batch", "/api/v1/events/batch", "201", json={"events": [message("The VPN is needed")]})
    question = {"query": "Which database?", "conversation_id": "lighthouse"}
    call("POST", "/search", "/api/v1/search", json=question)
    call("POST", "/context", "/api/v1/context", json=question)
    call("GET", "/status", "/api/v1/status")
    [node] = call("GET", "/timeline", "/api/v1/timeline", params={"conversation_id": "lighthouse"})["nodes"]
    while node["child_node_ids"]:  # year, month, week, day, segment: each level's node checked
        call("GET", "/timeline/nodes/{node_id}", f"/api/v1/timeline/nodes/{node['node_id']}")
        children = f"/api/v1/timeline/nodes/{node['node_id']}/children"
        node = call("GET", "/timeline/nodes/{node_id}/children", children, params={"limit": 1})["nodes"][0]
    call("GET", "/grips/{grip_id}", f"/api/v1/grips/{node['bullets'][0]['grip_ids'][0]}")
    call("GET", "/scheduler", "/api/v1/scheduler")
    call("POST", "/scheduler/{name}/pause", "/api/v1/scheduler/summarize/pause")
    call("POST", "/scheduler/{name}/resume", "/api/v1/scheduler/summarize/resume")
    call("GET", "/conversations", "/api/v1/conversations")
    call("GET", "/conversations/{conversation_id}/activity", "/api/v1/conversations/lighthouse/activity")
    call("GET", "/llm/ledger", "/api/v1/llm/ledger")
    call("GET", "/doctor", "/api/v1/doctor")
    return answers


def test_every_answer_of_the_api_fits_the_document(example_with_a_model: tuple[Memoir, MemoirClient]) -> None:
    """A real answer of every /api route, checked against the schema the document gives it: a route left
    untyped (FastAPI's any object), or one added and not called here, fails."""
    _, client = example_with_a_model
    with httpx.Client(base_url=client.base_url) as raw:
        document = raw.get("/openapi.json").json()
        answers = real_answers(raw)
    routes = {
        (method, path, code)
        for path, operations in document["paths"].items()
        if path.startswith("/api/")
        for method, operation in operations.items()
        for code in operation["responses"]
        if code.startswith("2")
    }
    assert set(answers) == routes  # every route's success is called here, so every schema is checked
    for (method, path, code), sent in answers.items():
        schema = document["paths"][path][method]["responses"][code]["content"]["application/json"]["schema"]
        assert "$ref" in schema or "properties" in schema, (method, path)  # typed, not any object
        for answer in sent:
            jsonschema.validate(
                answer.json(),
                {**schema, "components": document["components"]},
                format_checker=jsonschema.FormatChecker(),
            )

    def first(path: str, method: str = "get") -> Any:
        return answers[(method, "/api/v1" + path, "200")][0].json()

    # not checked against empty lists and nulls only: each kind of item was there to check
    assert first("/search", "post")["hits"] and first("/context", "post")["hits"]
    assert first("/status")["model"]["breaker"] == "closed" and first("/status")["llm_usage"]
    levels = [answer.json()["level"] for answer in answers[("get", "/api/v1/timeline/nodes/{node_id}", "200")]]
    assert levels == ["year", "month", "week", "day"]
    [segment] = answers[("get", "/api/v1/timeline/nodes/{node_id}/children", "200")][-1].json()["nodes"]
    assert (segment["level"], segment["source"]) == ("segment", "extractive") and segment["note"]  # the model's refused
    assert first("/grips/{grip_id}")["excerpt_events"] and first("/timeline/nodes/{node_id}/children")["nodes"]
    assert first("/llm/ledger")["days"] and first("/conversations/{conversation_id}/activity")["days"]
    assert first("/conversations")["conversations"] and first("/doctor")["findings"] and first("/scheduler")["jobs"]
