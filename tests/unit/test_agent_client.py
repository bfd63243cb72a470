"""The chat client's tool calls and streaming, against a scripted OpenAI-compatible server (the real HTTP path)."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memoir import ModelOutputError, ModelUnavailable
from memoir.llm import ChatClient, ContextOverflow
from memoir.llm.streaming import TurnAssembler, completion_from_json, sse_data
from tests.scripted_server import ScriptedChat, models, scripted_server, sse, tool_call

MODEL = "qwen2.5:7b"
USER = [{"role": "user", "content": "hello"}]


def client(url: str, **options: Any) -> ChatClient:
    options.setdefault("backoff", 0.01)
    return ChatClient(base_url=url + "/v1", model=MODEL, **options)


def test_a_streamed_answer_reaches_on_text_piece_by_piece() -> None:
    pieces: list[str] = []
    chat = ScriptedChat(lambda body: (200, sse("The keeper ", "is ", "Ada.")))
    with scripted_server({"/v1/chat/completions": chat}) as server:
        done = client(server.url).complete(USER, tools=[{"type": "function"}], on_text=pieces.append)
    assert pieces == ["The keeper ", "is ", "Ada."]
    assert done.content == "The keeper is Ada." and done.tool_calls == () and done.finish_reason == "stop"
    assert chat.bodies[0]["stream"] is True and chat.bodies[0]["tools"] == [{"type": "function"}]


@pytest.mark.parametrize("fragments", [1, 4, 50])
def test_tool_calls_are_assembled_by_index_from_fragments(fragments: int) -> None:
    calls = [
        tool_call("remember", {"content": "Ada keeps the lighthouse", "important": True}, "call_a"),
        tool_call("search_memory", {"query": "lighthouse"}, "call_b"),
    ]
    with scripted_server({"/v1/chat/completions": lambda body: (200, sse(tool_calls=calls, fragments=fragments))}) as s:
        done = client(s.url).complete(USER)
    assert [c["id"] for c in done.tool_calls] == ["call_a", "call_b"]
    assert [c["function"]["name"] for c in done.tool_calls] == ["remember", "search_memory"]
    assert json.loads(done.tool_calls[0]["function"]["arguments"]) == {
        "content": "Ada keeps the lighthouse",
        "important": True,
    }
    assert done.message["tool_calls"][1]["function"]["arguments"] == '{"query": "lighthouse"}'


def test_calls_without_index_are_told_apart_by_id() -> None:
    assembler = TurnAssembler()
    for call_id, name in (("a", "one"), ("b", "two")):
        call = {"id": call_id, "function": {"name": name, "arguments": "{}"}}
        assembler.feed({"choices": [{"delta": {"tool_calls": [call]}}]})
    assert [c["function"]["name"] for c in assembler.result().tool_calls] == ["one", "two"]


def test_a_server_that_ignores_stream_is_read_whole() -> None:
    pieces: list[str] = []
    answer = {"choices": [{"message": {"role": "assistant", "content": "whole"}, "finish_reason": "stop"}]}
    with scripted_server({"/v1/chat/completions": lambda body: (200, answer)}) as server:
        done = client(server.url).complete(USER, on_text=pieces.append)
    assert done.content == "whole" and pieces == ["whole"]


def test_without_streaming_tool_calls_come_whole() -> None:
    calls = [tool_call("forget", {"memory_id": "x"})]
    chat = ScriptedChat(calls)
    with scripted_server({"/v1/chat/completions": chat}) as server:
        done = client(server.url).complete(USER, stream=False)
    assert done.tool_calls[0]["function"]["name"] == "forget" and chat.bodies[0]["stream"] is False


def test_a_timeout_is_retried_then_answered() -> None:
    chat = ScriptedChat("late but here", delay=1.0, slow=2)
    with scripted_server({"/v1/chat/completions": chat}) as server:
        done = client(server.url, timeout=0.3, retries=3).complete(USER)
    assert done.content == "late but here" and len(chat.bodies) == 3


def test_timeouts_on_every_try_say_so_after_three_retries() -> None:
    chat = ScriptedChat("never in time", delay=1.0, slow=100)
    with scripted_server({"/v1/chat/completions": chat}) as server, pytest.raises(ModelUnavailable) as caught:
        client(server.url, timeout=0.2, retries=3).complete(USER)
    assert "did not answer within 0.2 s (4 tries)" in str(caught.value) and len(chat.bodies) == 4


def test_a_stream_that_stalls_after_text_is_not_retried() -> None:
    shown: list[str] = []
    whole = sse("half an ", "answer")
    first, rest = whole[: whole.index(b"half an ") + 20], whole[whole.index(b"half an ") + 20 :]

    def stalls(body: dict[str, Any]) -> tuple[int, Any]:
        def pieces() -> Iterator[bytes]:
            yield first
            time.sleep(1.0)
            yield rest

        return 200, pieces()

    with scripted_server({"/v1/chat/completions": stalls}) as server, pytest.raises(ModelUnavailable) as caught:
        client(server.url, timeout=0.3).complete(USER, on_text=shown.append)
    assert shown == ["half an "] and "mid-answer" in str(caught.value)
    assert len(server.requests) == 1  # the reader saw half an answer: no second one written over it


def test_a_stream_cut_short_gives_what_came() -> None:
    with scripted_server({"/v1/chat/completions": lambda body: (200, sse("half an ans")[:-40])}) as server:
        assert client(server.url).complete(USER).content == "half an ans"


def test_an_unknown_model_is_named_with_how_to_get_it() -> None:
    with (
        scripted_server({"/v1/chat/completions": lambda body: (404, {"error": "model not found"})}) as server,
        pytest.raises(ModelUnavailable) as caught,
    ):
        client(server.url).complete(USER)
    assert f"model {MODEL!r}" in str(caught.value) and f"ollama pull {MODEL}" in str(caught.value)


@pytest.mark.parametrize(
    "refusal",
    [
        "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens",
        "the request exceeds the available context size, try increasing it",
        "input length exceeds the context length",
    ],
)
def test_a_context_length_refusal_is_context_overflow(refusal: str) -> None:
    with (
        scripted_server({"/v1/chat/completions": lambda body: (400, {"error": {"message": refusal}})}) as server,
        pytest.raises(ContextOverflow) as caught,
    ):
        client(server.url).complete(USER)
    assert "chat.context_window" in str(caught.value)


def test_another_400_is_not_context_overflow() -> None:
    with (
        scripted_server({"/v1/chat/completions": lambda body: (400, {"error": "the request was malformed"})}) as s,
        pytest.raises(ModelUnavailable) as caught,
    ):
        client(s.url).complete(USER)
    assert not isinstance(caught.value, ContextOverflow)


def test_a_model_without_tools_says_to_pick_another() -> None:
    refusal = {"error": {"message": "registry.ollama.ai/library/gemma:2b does not support tools"}}
    with (
        scripted_server({"/v1/chat/completions": lambda body: (400, refusal)}) as server,
        pytest.raises(ModelUnavailable, match="does not take tools"),
    ):
        client(server.url).complete(USER, tools=[{"type": "function"}])


def test_an_error_mid_stream_is_model_unavailable() -> None:
    stream = b'data: {"choices": [{"delta": {"content": "a"}}]}\n\ndata: {"error": {"message": "out of memory"}}\n\n'
    with (
        scripted_server({"/v1/chat/completions": lambda body: (200, stream)}) as server,
        pytest.raises(ModelUnavailable, match="out of memory"),
    ):
        client(server.url).complete(USER)


def test_health_tells_unreachable_from_model_missing() -> None:
    assert client("http://127.0.0.1:9").health().problem == "unreachable"
    with scripted_server({"/v1/models": models("mistral", "qwen2.5:latest")}) as server:
        assert client(server.url).health().problem == "model"
        assert ChatClient(base_url=server.url + "/v1", model="qwen2.5").health().ok  # Ollama's :latest
        assert ChatClient(base_url=server.url + "/v1", model="mistral").health().problem is None
    with scripted_server({}) as server:
        assert client(server.url).health().problem == "server"


def test_usage_in_the_last_chunk_is_counted() -> None:
    usage = {"choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": 2}}
    stream = sse("hi")[: -len(b"data: [DONE]\n\n")] + f"data: {json.dumps(usage)}\n\ndata: [DONE]\n\n".encode()
    with scripted_server({"/v1/chat/completions": lambda body: (200, stream)}) as server:
        chat = client(server.url)
        chat.complete(USER)
    assert chat.tokens() == (7, 2)


LINES = st.one_of(st.text(max_size=40), st.binary(max_size=40).map(lambda b: b.decode("latin-1")))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    max_leaves=30,
)


@given(st.lists(LINES, max_size=20))
def test_any_lines_a_server_sends_never_break_the_assembler(lines: list[str]) -> None:
    assembler = TurnAssembler()
    for chunk in sse_data(["data: " + line for line in lines] + lines):
        with contextlib.suppress(ModelUnavailable):  # a chunk holding "error": the server giving up, said so
            assembler.feed(chunk)
    result = assembler.result()
    assert isinstance(result.content, str)


@given(JSON)
def test_any_json_as_a_completion_is_parsed_or_refused_cleanly(body: Any) -> None:
    for answer in ({"choices": [{"message": body}]}, body, {"choices": body}):
        with contextlib.suppress(ModelOutputError):
            done = completion_from_json(answer)
            assert isinstance(done.content, str) and all(isinstance(c["id"], str) for c in done.tool_calls)


def test_a_lone_surrogate_from_the_model_is_replaced() -> None:
    assembler = TurnAssembler()
    assembler.feed(json.loads('{"choices": [{"delta": {"content": "a\\ud800b"}}]}'))
    assert assembler.result().content == "a\ufffdb"


def test_the_retry_waits_with_backoff_only_between_tries() -> None:
    chat = ScriptedChat((503, {"error": "busy"}), "ok")
    with scripted_server({"/v1/chat/completions": chat}) as server:
        started = time.monotonic()
        assert client(server.url, backoff=0.05).complete(USER).content == "ok"
    assert len(chat.bodies) == 2 and time.monotonic() - started < 5
