"""The proxy against hostile and unusual clients: what it forwards, where, and how it fails.

Served for real on 127.0.0.1 with a scripted upstream on loopback. Paths, message shapes
and nesting depths are generated: the proxy must hold for the class, not for the cases a
trial happened to try.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import openai
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from openai.types.chat import ChatCompletionMessageParam
from pydantic import TypeAdapter

from memoir import Memoir
from memoir.facade.context import CUT_BEFORE_TEXT
from memoir.server import deadlines, guard
from tests.doors.test_proxy import open_proxy_home, openai_client, served, stream_reply
from tests.scripted_server import chat_reply, scripted_server

PER_SERVER = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
UPSTREAM_KEY = "sk-upstream-secret-0123456789abcdef"


def ok(body: dict[str, Any]) -> tuple[int, Any]:
    return 200, chat_reply("Fine.")


# -- 1. the passthrough stays under the upstream's base path ----------------------------------

SEGMENTS = st.sampled_from(
    ["models", "v1", "admin", "secret", "..", ".", "%2e%2e", "%2E%2e", "..%2f", "..%2F..%2f", "%2f", "%5c",
     "..%5c", "%252e%252e", "a%2fb", "%2e", "embeddings", "x..y", "...", "..\\"]
)  # fmt: skip


def _decoded_segments(path: str) -> list[str]:
    """A path's segments as a lenient server may read them: percent-decoded until nothing changes."""
    previous = None
    while previous != path:
        previous, path = path, urllib.parse.unquote(path)
    return path.replace("\\", "/").split("/")


def test_the_passthrough_forwards_only_paths_under_the_upstreams_base_path(open_memoir: Callable[..., Memoir]) -> None:
    with scripted_server({"/v1/models": lambda body: (200, {"data": []})}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1", proxy_api_key=UPSTREAM_KEY)
        with served(memoir) as base:
            where = urllib.parse.urlsplit(base)

            @PER_SERVER
            @given(st.lists(SEGMENTS, min_size=1, max_size=5))
            @example(["..%2f..%2fsecret"])  # the trial's two paths, as it sent them
            @example(["%2e%2e", "%2e%2e", "admin"])
            def check(segments: list[str]) -> None:
                upstream.requests.clear()
                connection = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
                try:  # http.client sends the path as written: no dot-segment clean-up on the way
                    connection.request("GET", "/v1/" + "/".join(segments))
                    answer = connection.getresponse()
                    body = answer.read()
                finally:
                    connection.close()
                for path, _ in upstream.requests:
                    assert path.startswith("/v1/"), path
                    assert not {".", ".."} & set(_decoded_segments(path)), path
                if any(s in (".", "..") or "%" in s or "\\" in s for s in segments):
                    assert answer.status == 400 and upstream.requests == []
                    assert json.loads(body)["error"]["param"] == "path"

            check()
            answer = httpx.get(base + "/models", trust_env=False)  # an ordinary path still passes
    assert answer.status_code == 200 and upstream.requests[-1][0] == "/v1/models"


# -- 2-4. every message shape OpenAI takes; long messages; no messages -------------------------

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
CALL_ID = st.from_regex(r"call_[a-z0-9]{1,8}", fullmatch=True)
PART = st.one_of(
    st.builds(lambda t: {"type": "text", "text": t}, TEXT),
    st.just({"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}),
)
HI = [{"role": "user", "content": "hi"}]


def call(call_id: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": "lookup", "arguments": "{}"}}


CONTENT = st.one_of(TEXT, st.lists(PART, min_size=1, max_size=3))
TEXT_PARTS = st.lists(st.builds(lambda t: {"type": "text", "text": t}, TEXT), min_size=1, max_size=3)
TEXT_CONTENT = st.one_of(TEXT, TEXT_PARTS)  # what a system, developer, assistant or tool message may hold
NAME = st.none() | st.from_regex(r"[A-Za-z0-9_-]{1,16}", fullmatch=True)


def named(message: dict[str, Any], name: str | None) -> dict[str, Any]:
    return message if name is None else {**message, "name": name}


MESSAGE = st.one_of(
    st.builds(lambda c, n: named({"role": "system", "content": c}, n), TEXT_CONTENT, NAME),
    st.builds(lambda c, n: named({"role": "developer", "content": c}, n), TEXT_CONTENT, NAME),
    st.builds(lambda c, n: named({"role": "user", "content": c}, n), CONTENT, NAME),
    st.builds(lambda c, n: named({"role": "assistant", "content": c}, n), TEXT_CONTENT, NAME),
    st.builds(lambda i: {"role": "assistant", "content": None, "tool_calls": [call(i)]}, CALL_ID),
    st.builds(lambda i, c: {"role": "tool", "tool_call_id": i, "content": c}, CALL_ID, TEXT_CONTENT),
    # The deprecated function-calling form, which the API and the `openai` package still take.
    st.just({"role": "assistant", "content": None, "function_call": {"name": "lookup", "arguments": "{}"}}),
    st.builds(lambda c: {"role": "function", "name": "lookup", "content": c}, TEXT),
)
# The trial's chat: a tool message without `name` (OpenAI sends none) and an empty user message.
TRIAL_CHAT = [
    {"role": "user", "content": "What is the weather?"},
    {"role": "assistant", "content": None, "tool_calls": [call("call_1")]},
    {"role": "tool", "tool_call_id": "call_1", "content": "Sunny"},
    {"role": "user", "content": ""},
]
OPENAI_MESSAGE: TypeAdapter[ChatCompletionMessageParam] = TypeAdapter(ChatCompletionMessageParam)
KNOBS = st.fixed_dictionaries(
    {},
    optional={
        "history_max_tokens": st.integers(2000, 100_000),
        "history_max_size": st.integers(1, 50),
        "history_compression": st.sampled_from(["whole_history", "from_last_n_messages:4", "chunked:3"]),
        "history_token_caching": st.booleans(),
    },
)


def test_every_message_shape_openai_takes_is_forwarded_with_history_knobs_set(
    open_memoir: Callable[..., Memoir],
) -> None:
    with scripted_server({"/v1/chat/completions": ok}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused", max_retries=0)

            @PER_SERVER
            @given(st.lists(MESSAGE, min_size=1, max_size=14), KNOBS)
            @example(TRIAL_CHAT, {"history_max_tokens": 2000})
            def check(messages: list[dict[str, Any]], knobs: dict[str, Any]) -> None:
                for message in messages:  # each one a message the `openai` package itself would send
                    OPENAI_MESSAGE.validate_python(message)
                knobs.setdefault("history_max_tokens", 100_000)
                answer = client.chat.completions.create(model="qwen", messages=messages, extra_body=knobs)  # type: ignore[arg-type]
                assert answer.choices[0].message.content == "Fine."

            check()


def test_a_long_message_is_forwarded_and_logged_whole(open_memoir: Callable[..., Memoir]) -> None:
    pasted = "A log line that says nothing much. " * 5000 + "So why did the nightly build fail?"
    assert len(pasted) > 150_000
    with scripted_server({"/v1/chat/completions": ok}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        memoir.remember("The nightly build fails when the cache volume is full", conversation_id="ci")
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused", max_retries=0)
            client.chat.completions.create(
                model="qwen", messages=[{"role": "user", "content": pasted}], extra_body={"memory_id": "ci"}
            )
    sent = upstream.requests[0][1]["messages"][-1]["content"]
    assert sent.endswith(pasted) and "cache volume is full" in sent  # whole, and memory found by its ask
    assert memoir.events(conversation_id="ci")[0].text == pasted


def test_a_chat_with_no_messages_is_a_400_naming_messages_and_nothing_is_logged(
    open_memoir: Callable[..., Memoir],
) -> None:
    with scripted_server({"/v1/chat/completions": ok}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused", max_retries=0)
            with pytest.raises(openai.BadRequestError) as refused:
                client.chat.completions.create(model="qwen", messages=[])
            assert refused.value.body["param"] == "messages"  # type: ignore[index]
            for body in ({"model": "qwen"}, {"model": "qwen", "messages": {"role": "user", "content": "hi"}}):
                answer = httpx.post(base + "/chat/completions", json=body, trust_env=False)
                assert answer.status_code == 400 and answer.json()["error"]["param"] == "messages"
    assert upstream.requests == [] and memoir.events() == []


# -- 5. nesting: an error in the shared shape, and the connection lives on ---------------------


def deep(depth: int, shape: str) -> bytes:
    """A body nested `depth` deep: cut off, or whole JSON with the nesting where a chat holds values."""
    nested = "[" * depth + "]" * depth
    chat = '{"model": "q", "messages": [{"role": "user", "content": %s}]%s}'
    bodies = {
        "cut off": "[" * depth,
        "cut off in an object": '{"a":' * depth,
        "cut off in messages": '{"messages": [' * depth,
        "whole": nested,
        "in content": chat % (nested, ""),
        "in tools": chat % ('"hi"', f', "tools": {nested}'),
        "in another key": chat % ('"hi"', f', "metadata": {{"x": {nested}}}'),
    }
    return bodies[shape].encode()


def test_deep_json_is_a_clear_error_and_the_connection_stays_usable(open_memoir: Callable[..., Memoir]) -> None:
    with scripted_server({"/v1/chat/completions": ok}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            where = httpx.URL(base)
            # http.client, not a pool: a pool would open a new connection where the old one was reset.
            connection = http.client.HTTPConnection(where.host, where.port, timeout=30)
            headers = {"Content-Type": "application/json"}
            hello = json.dumps({"model": "q", "messages": [{"role": "user", "content": "hi"}]})

            def post(body: bytes | str) -> tuple[int, Any]:
                connection.request("POST", where.path + "/chat/completions", body=body, headers=headers)
                answer = connection.getresponse()
                return answer.status, json.loads(answer.read())

            @PER_SERVER
            @given(
                st.integers(500, 200_000),
                st.sampled_from(
                    [
                        "cut off",
                        "cut off in an object",
                        "cut off in messages",
                        "whole",
                        "in content",
                        "in tools",
                        "in another key",
                    ]
                ),
            )
            @example(200_000, "in content")  # whole JSON, a valid chat but for one value's depth
            @example(950, "in another key")  # parsed, and refused before anything encodes it again for the upstream
            def check(depth: int, shape: str) -> None:
                status, body = post(deep(depth, shape))
                if depth >= 2_000 or shape.startswith("cut off") or shape == "whole":
                    # Past what JSON parsing allows (Python's recursion limit), cut off, or not an object.
                    assert 400 <= status < 500 and body["error"]["param"] == "body", (status, body)
                else:  # a chat whose values nest a few hundred deep is a chat: forwarded, or refused naming a field
                    assert status == 200 or (400 <= status < 500 and body["error"]["param"]), (status, body)
                socket_before = connection.sock
                assert post(hello)[0] == 200
                assert connection.sock is socket_before  # the same keep-alive connection answered

            check()
            connection.close()


def test_an_oversized_mcp_body_is_refused_in_the_shared_error_shape(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(server_max_body_bytes=4096)
    with served(memoir) as base:
        mcp = base.removesuffix("/v1") + "/mcp"
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        declared = httpx.post(mcp, content=b"{" + b" " * 10_000 + b"}", headers=headers, trust_env=False)
        chunked = httpx.post(mcp, content=iter([b"{", b" " * 10_000, b"}"]), headers=headers, trust_env=False)
    for answer in (declared, chunked):
        assert answer.status_code == 413 and answer.headers["content-type"] == "application/json"
        assert "server.max_body_bytes" in answer.json()["error"]["message"]


# -- 8, 19, 20. streams that fail, and what they say -----------------------------------------


def test_an_upstream_that_stalls_mid_stream_ends_it_with_an_error_and_the_turn_is_partial(
    open_memoir: Callable[..., Memoir],
) -> None:
    def stalls(body: dict[str, Any]) -> tuple[int, Iterator[bytes]]:
        def pieces() -> Iterator[bytes]:
            yield stream_reply("Take the ")(body)[1].split(b"\n\n")[1] + b"\n\n"
            time.sleep(2.0)  # past proxy.timeout

        return 200, pieces()

    with scripted_server({"/v1/chat/completions": stalls}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1", proxy_timeout=0.5)
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused", max_retries=0)
            stream = client.chat.completions.create(
                model="q", messages=[{"role": "user", "content": "hi"}], stream=True
            )
            pieces: list[str] = []
            with pytest.raises(openai.APIError, match=r"proxy\.timeout"):
                pieces.extend(c.choices[0].delta.content or "" for c in stream if c.choices)
    assert "".join(pieces) == "Take the "
    last = memoir.events()[-1]
    assert (last.text, last.metadata.get("partial")) == ("Take the ", "true")


def test_an_upstream_stream_that_dies_after_its_headers_is_an_error_and_a_partial_turn(
    open_memoir: Callable[..., Memoir],
) -> None:
    with scripted_server({"/v1/chat/completions": lambda body: (200, iter([]))}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused", max_retries=0)
            stream = client.chat.completions.create(
                model="q", messages=[{"role": "user", "content": "hi"}], stream=True
            )
            with pytest.raises(openai.APIError, match="before it said"):
                list(stream)
    last = memoir.events()[-1]
    assert (last.event_type.value, last.text, last.metadata.get("partial")) == (
        "assistant_message",
        CUT_BEFORE_TEXT,
        "true",
    )


def test_the_upstreams_cache_control_and_request_id_reach_the_client(open_memoir: Callable[..., Memoir]) -> None:
    kept = {"Cache-Control": "no-cache", "X-Request-Id": "req-42"}
    routes = {"/v1/chat/completions": lambda body: stream_reply("Hi.")(body) if body.get("stream") else ok(body)}
    with scripted_server(routes, headers=kept) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused", max_retries=0)
            for stream in (True, False):
                raw = client.chat.completions.with_raw_response.create(
                    model="q", messages=[{"role": "user", "content": "hi"}], stream=stream
                )
                assert raw.headers["cache-control"] == "no-cache" and raw.headers["x-request-id"] == "req-42"


# -- 9. slow senders are cut off; slow answers are not ---------------------------------------


@pytest.fixture
def short_deadlines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deadlines.HeaderDeadline, "seconds", 0.5)
    monkeypatch.setattr(guard, "BODY_SECONDS", 0.5)


@pytest.mark.usefixtures("short_deadlines")
def test_half_sent_requests_are_closed_and_long_streams_are_not(open_memoir: Callable[..., Memoir]) -> None:
    def slow_stream(body: dict[str, Any]) -> tuple[int, Iterator[bytes]]:
        def pieces() -> Iterator[bytes]:
            for chunk in stream_reply(*["word "] * 6)(body)[1].split(b"\n\n"):
                time.sleep(0.3)  # 2 s in all, each pause under the deadlines
                yield chunk + b"\n\n"

        return 200, pieces()

    with scripted_server({"/v1/chat/completions": slow_stream}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            where = urllib.parse.urlsplit(base)
            silent = [socket.create_connection((where.hostname, where.port)) for _ in range(20)]
            halves = [socket.create_connection((where.hostname, where.port)) for _ in range(20)]
            for sock in halves:
                sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
            bodies = [socket.create_connection((where.hostname, where.port)) for _ in range(5)]
            for sock in bodies:
                sock.sendall(b'POST /api/v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"q')
            client = openai_client(base_url=base, api_key="unused", max_retries=0)
            stream = client.chat.completions.create(
                model="q", messages=[{"role": "user", "content": "hi"}], stream=True
            )
            text = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
            for sock in silent + halves + bodies:
                sock.settimeout(10)
                answer = _read_all(sock)
                assert answer.startswith(b"HTTP/1.1 408") and b"request_timeout" in answer
    assert text == "word " * 6


def _read_all(sock: socket.socket) -> bytes:
    """What the server sent before it closed the connection."""
    received = b""
    with sock:
        while chunk := sock.recv(65536):
            received += chunk
    return received
