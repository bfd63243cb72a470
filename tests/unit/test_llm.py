"""The LLM layer against a scripted OpenAI-compatible server on 127.0.0.1 (the real HTTP path)."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from memoir import ModelOutputError, ModelUnavailable
from memoir.ingest.extract import FACTS_SCHEMA, extract_with_llm
from memoir.ingest.reconcile import RECONCILIATION_SCHEMA, reconcile_with_llm
from memoir.llm import LLM, BreakerState, ChatClient, CircuitBreaker, extract_json
from memoir.model import Memory, new_ulid
from memoir.timeline.adaptive import SUMMARY_SCHEMA as CONVERSATION_SCHEMA
from memoir.timeline.prompts import SUMMARY_SCHEMA as SEGMENT_SCHEMA
from tests.scripted_server import DROP, replies, scripted_server

FACTS = '{"facts": ["Sam is allergic to peanuts"]}'


def facts(value: Any) -> list[str]:
    if not isinstance(value, dict) or not isinstance(value.get("facts"), list):
        raise ValueError("expected an object with a list 'facts'")
    return [str(f) for f in value["facts"]]


def client(url: str, **options: Any) -> ChatClient:
    options.setdefault("backoff", 0.01)
    return ChatClient(base_url=url + "/v1", model="qwen2.5:3b", **options)


@pytest.mark.parametrize(
    "answer",
    [
        FACTS,
        f"```json\n{FACTS}\n```",
        f"<think>The user mentions peanuts. {{not json}}</think>\n{FACTS}",
        f"Sure! Here are the facts:\n{FACTS}\nHope this helps.",
        f"<think>unclosed thinking {FACTS}",
    ],
)
def test_json_survives_fences_think_blocks_and_chatter(answer: str) -> None:
    if answer.startswith("<think>unclosed"):
        with pytest.raises(ModelOutputError):
            extract_json(answer)
        return
    assert facts(extract_json(answer)) == ["Sam is allergic to peanuts"]


def test_a_garbage_answer_gets_one_corrective_retry() -> None:
    with scripted_server({"/v1/chat/completions": replies("I cannot do that.", FACTS)}) as server:
        llm = client(server.url)
        assert llm.complete_json([{"role": "user", "content": "extract"}], facts) == ["Sam is allergic to peanuts"]
    retry = server.requests[1][1]["messages"]
    assert retry[-2] == {"role": "assistant", "content": "I cannot do that."}
    assert "could not be used" in retry[-1]["content"] and "JSON" in retry[-1]["content"]
    assert server.requests[0][1]["response_format"] == {"type": "json_object"}
    assert server.requests[0][1]["temperature"] == 0.0


def test_garbage_twice_is_a_model_output_error() -> None:
    garbage = {"/v1/chat/completions": replies("nope", '{"wrong": 1}')}
    with scripted_server(garbage) as server, pytest.raises(ModelOutputError, match=r"'qwen2\.5:3b' gave no usable"):
        client(server.url).complete_json([{"role": "user", "content": "x"}], facts)


def test_a_server_without_json_mode_is_asked_in_words() -> None:
    def route(body: dict[str, Any]) -> tuple[int, Any]:
        if "response_format" in body:
            return 400, {"error": "unknown field: response_format"}
        return 200, {"choices": [{"message": {"content": FACTS}}]}

    with scripted_server({"/v1/chat/completions": route}) as server:
        llm = client(server.url)
        assert llm.complete_json([{"role": "user", "content": "x"}], facts) == ["Sam is allergic to peanuts"]
        llm.chat([{"role": "user", "content": "again"}], json_schema=True)
    assert "response_format" not in server.requests[-1][1]  # remembered: not asked again


def test_structured_calls_send_a_strict_schema_that_no_grammar_compiler_chokes_on() -> None:
    """llama-cpp-python's server dies compiling a long maxLength (issue 25): schemas carry no bounds, enums or
    patterns; lengths and counts are checked after the answer."""
    added = {"id": "new", "text": "The user is allergic to peanuts", "event": "ADD"}
    reconciled = json.dumps({"memory": [{"id": "0", "text": "x", "event": "NONE"}, added]})
    answers = replies('{"facts": ["The user is allergic to peanuts"]}', reconciled)
    with scripted_server({"/v1/chat/completions": answers}) as server:
        llm = client(server.url)
        facts = extract_with_llm(llm, "I am allergic to peanuts.")
        known = [Memory(id=new_ulid(1_700_000_000_000), kind="fact", content="The user lives in Porto")]
        assert [d.event for d in reconcile_with_llm(llm, facts, known)] == ["ADD"]
    (_, extraction), (_, reconciliation) = server.requests
    sent = []
    for body in (extraction, reconciliation):
        assert body["response_format"]["type"] == "json_schema"
        assert body["response_format"]["json_schema"]["strict"] is True
        sent.append(body["response_format"]["json_schema"]["schema"])
    for schema in [*sent, SEGMENT_SCHEMA, CONVERSATION_SCHEMA, FACTS_SCHEMA, RECONCILIATION_SCHEMA]:
        written = json.dumps(schema)
        for risky in ("maxLength", "minLength", "maxItems", "minItems", "enum", "pattern", "$ref", "anyOf"):
            assert risky not in written, f"{risky} in {written}"


@pytest.mark.parametrize("event", ["UPDATE", "NONE"])
def test_a_new_fact_under_id_new_with_another_event_is_an_add(event: str) -> None:
    """Qwen2.5 Coder 0.5B through llama.cpp answers a new fact as UPDATE or NONE of id "new"."""
    fact = "The user plays the cello"
    known = [Memory(id=new_ulid(1_700_000_000_000), kind="fact", content="The user lives in Porto")]
    answer = json.dumps(
        {
            "memory": [
                {"id": "0", "text": known[0].content, "event": "NONE"},
                {"id": "new", "text": fact, "event": event},
            ]
        }
    )
    with scripted_server({"/v1/chat/completions": replies(answer)}) as server:
        decisions = reconcile_with_llm(client(server.url), [fact], known)
    assert [(d.event, d.text, d.memory_id) for d in decisions] == [("ADD", fact, None)]
    assert len(server.requests) == 1  # used as it came: no corrective retry


def test_a_server_refusing_schemas_gets_json_mode_and_is_remembered() -> None:
    def route(body: dict[str, Any]) -> tuple[int, Any]:
        if body.get("response_format", {}).get("type") == "json_schema":
            return 400, {"error": "response_format json_schema is not supported"}
        return 200, {"choices": [{"message": {"content": FACTS}}]}

    schema = {"type": "object", "properties": {"facts": {"type": "array"}}}
    with scripted_server({"/v1/chat/completions": route}) as server:
        llm = client(server.url)
        assert llm.complete_json([{"role": "user", "content": "x"}], facts, schema=schema) == [
            "Sam is allergic to peanuts"
        ]
        llm.complete_json([{"role": "user", "content": "again"}], facts, schema=schema)
    sent = [body.get("response_format", {}).get("type") for _, body in server.requests]
    assert sent == ["json_schema", "json_object", "json_object"]  # refused once, not asked again


def test_llama_cpp_pythons_500_for_schemas_gets_its_own_schema_form_at_once() -> None:
    """llama-cpp-python answers `json_schema` with a 500 (its validation error names
    response_format) but constrains output given {"type": "json_object", "schema": ...}."""

    def route(body: dict[str, Any]) -> tuple[int, Any]:
        if body.get("response_format", {}).get("type") == "json_schema":
            message = "1 validation error: ('body', 'response_format', 'type') Input should be 'text' or 'json_object'"
            return 500, {"error": {"message": message}}
        return 200, {"choices": [{"message": {"content": FACTS}}]}

    schema = {"type": "object", "properties": {"facts": {"type": "array"}}}
    with scripted_server({"/v1/chat/completions": route}) as server:
        llm = client(server.url)
        assert llm.complete_json([{"role": "user", "content": "x"}], facts, schema=schema)
    formats = [body["response_format"] for _, body in server.requests]
    assert formats[0]["type"] == "json_schema" and len(formats) == 2  # not retried as a busy server
    assert formats[1] == {"type": "json_object", "schema": schema}


def test_5xx_answers_are_retried_with_backoff() -> None:
    with scripted_server({"/v1/chat/completions": replies((500, {"error": "busy"}), (503, {}), "hello")}) as server:
        assert client(server.url).chat([{"role": "user", "content": "hi"}]) == "hello"
    assert len(server.requests) == 3


def test_timeouts_are_retried_three_times_then_reported() -> None:
    def slow(body: dict[str, Any]) -> tuple[int, Any]:
        time.sleep(0.5)
        return 200, {"choices": [{"message": {"content": "late"}}]}

    expected = r"did not answer within 0.2 s \(4 tries\).*llm.timeout"
    with scripted_server({"/v1/chat/completions": slow}) as server, pytest.raises(ModelUnavailable, match=expected):
        client(server.url, timeout=0.2).chat([{"role": "user", "content": "hi"}])
    assert len(server.requests) == 4


def test_a_hung_server_costs_one_budget_per_operation_retries_included() -> None:
    """Timeout 0.4 s, 3 retries and a corrective retry would be 8 tries; a budget of 1 s stops it after about 3."""
    release = threading.Event()

    def hung(body: dict[str, Any]) -> tuple[int, Any]:
        release.wait(5)
        return 200, {"choices": [{"message": {"content": "late"}}]}

    with scripted_server({"/v1/chat/completions": hung}) as server:
        llm = client(server.url, timeout=0.4, retries=3, budget=1.0, backoff=0.01)
        with pytest.raises(ModelUnavailable, match=r"within the budget of 1 s \(llm.budget\)"):
            llm.complete_json([{"role": "user", "content": "hi"}], facts)
        release.set()
    assert 2 <= len(server.requests) <= 4  # not the 8 tries that timeouts alone allow


def test_a_wrong_model_name_is_reported_with_the_name() -> None:
    not_found = {"/v1/chat/completions": lambda body: (404, {"error": f"model '{body['model']}' not found"})}
    with scripted_server(not_found) as server, pytest.raises(ModelUnavailable) as caught:
        client(server.url).chat([{"role": "user", "content": "hi"}])
    assert "does not know model 'qwen2.5:3b'" in str(caught.value)
    assert "ollama pull qwen2.5:3b" in str(caught.value)


def test_an_unreachable_server_is_a_clear_error_without_retries() -> None:
    said = r"no answer from the LLM server at http://127.0.0.1:9/v1 \(not reachable: ConnectError\).*ollama serve"
    with pytest.raises(ModelUnavailable, match=said):
        client("http://127.0.0.1:9").chat([{"role": "user", "content": "hi"}])


def test_health_checks_the_server_and_the_model() -> None:
    models = {"/v1/models": lambda body: (200, {"data": [{"id": "qwen2.5:3b"}, {"id": "llama3.2"}]})}
    with scripted_server(models) as server:
        assert client(server.url).health().ok
        other = ChatClient(base_url=server.url + "/v1", model="mistral")
        assert not other.health().ok and "does not list model 'mistral'" in other.health().detail
    assert not client("http://127.0.0.1:9").health().ok


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_breaker_opens_after_three_failures_goes_half_open_after_30_s_and_closes_on_success() -> None:
    clock = Clock()
    breaker = CircuitBreaker(clock=clock)
    for _ in range(2):
        breaker.record_failure("down")
    assert breaker.state is BreakerState.CLOSED and breaker.allow()
    breaker.record_failure("down")
    assert breaker.state is BreakerState.OPEN and not breaker.allow()
    clock.now += 29.9
    assert not breaker.allow()
    clock.now += 0.2
    assert breaker.state is BreakerState.HALF_OPEN
    assert breaker.allow() and not breaker.allow()  # one trial at a time
    breaker.record_failure("still down")
    assert breaker.state is BreakerState.OPEN  # the trial failed: another 30 s
    clock.now += 30
    assert breaker.allow()
    breaker.record_success()
    assert breaker.state is BreakerState.CLOSED and breaker.snapshot().consecutive_failures == 0


def test_heuristics_take_over_when_the_llm_fails_and_results_say_so() -> None:
    clock = Clock()
    with scripted_server({"/v1/chat/completions": replies((500, {"error": "boom"}))}) as server:
        llm = LLM(client(server.url, retries=0), CircuitBreaker(clock=clock))

        def ask(c: ChatClient) -> list[str]:
            return c.complete_json([{"role": "user", "content": "x"}], facts)

        results = [llm.run(ask, lambda: ["heuristic fact"]) for _ in range(5)]
        assert [r.source for r in results] == ["heuristics"] * 5
        assert results[0].error is not None and "500" in results[0].error
        assert results[4].error == "circuit breaker open"
        assert len(server.requests) == 3  # after 3 failures the server is left alone
        server.routes["/v1/chat/completions"] = replies(FACTS)
        clock.now += 31
        recovered = llm.run(ask, lambda: ["heuristic fact"])
    assert (recovered.value, recovered.source) == (["Sam is allergic to peanuts"], "llm")
    assert llm.breaker.state is BreakerState.CLOSED


def test_without_a_configured_model_heuristics_run_at_once() -> None:
    result = LLM(None).run(lambda c: ["never"], lambda: ["rule"])
    assert (result.value, result.source, result.error) == (["rule"], "heuristics", None)


def test_memoir_builds_its_llm_from_configuration(open_memoir: Any) -> None:
    assert not open_memoir()._parts.llm.configured  # no model configured: heuristics only
    with scripted_server({"/v1/chat/completions": replies("hi there")}) as server:
        memoir = open_memoir(llm_base_url=server.url + "/v1", llm_model="qwen2.5:3b", llm_breaker_threshold=2)
        llm = memoir._parts.llm
        assert llm.configured and llm.breaker.threshold == 2
        assert llm.run(lambda c: c.chat([{"role": "user", "content": "hi"}]), lambda: "").value == "hi there"
    assert server.requests[0][1]["model"] == "qwen2.5:3b"


def test_a_server_that_dies_on_a_schema_is_named_as_the_cause_and_asked_plainer_from_then_on() -> None:
    """llama-cpp-python's grammar compiler failed on a long maxLength and the server died (issue 25): memoir
    says so, remembers the format as refused, and asks again in the next plainer one."""

    def route(body: dict[str, Any]) -> tuple[int, Any]:
        if "schema" in json.dumps(body.get("response_format", {})):
            return 200, DROP  # the connection closes without an answer
        return 200, {"choices": [{"message": {"content": FACTS}}]}

    remembered: list[list[str]] = []
    with scripted_server({"/v1/chat/completions": route}) as server:
        llm = client(server.url, remember_formats=remembered.append)
        answer = llm.complete_json([{"role": "user", "content": "x"}], facts, schema={"type": "object"})
        llm.complete_json([{"role": "user", "content": "again"}], facts, schema={"type": "object"})
    assert answer == ["Sam is allergic to peanuts"]
    sent = [body.get("response_format", {}).get("type") for _, body in server.requests]
    assert sent == ["json_schema", "json_object", "json_object", "json_object"]  # schema, llama's form, then plain
    assert remembered[-1] == ["json_object"]  # kept by the store: no process asks with a schema again


def test_a_server_that_drops_every_request_is_reported_as_crashed_on_memoirs_request() -> None:
    with scripted_server({"/v1/chat/completions": lambda body: (200, DROP)}) as server:
        llm = client(server.url, formats=["json_object"], retries=0)
        with pytest.raises(ModelUnavailable) as failed:
            llm.chat([{"role": "user", "content": "x"}], json_schema=True, purpose="summary")
    assert "closed the connection while answering memoir's summary request" in str(failed.value)
    assert "it may have crashed: see its log" in str(failed.value)  # not "start it": it was running
    assert [body.get("response_format") for _, body in server.requests] == [{"type": "json_object"}, None]


def test_a_busy_server_is_up_for_the_health_check() -> None:
    """A server working on memoir's own background request (one slot, as llama.cpp's) answers /models late:
    that is busy, not down (issue 25: `memoir ask` said "no LLM answers" while the server was up)."""
    release = threading.Event()

    def slow_models(body: dict[str, Any]) -> tuple[int, Any]:
        release.wait(5)
        return 200, {"data": [{"id": "qwen2.5:3b"}]}

    with scripted_server({"/v1/models": slow_models}) as server:
        health = client(server.url, timeout=0.5).health()
        release.set()
    assert health.ok and "busy" in health.detail
    dead = ChatClient(base_url="http://127.0.0.1:9/v1", model="m").health()
    assert not dead.ok and dead.problem == "unreachable"
