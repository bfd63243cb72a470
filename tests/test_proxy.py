"""The OpenAI-compatible memory proxy, served for real on 127.0.0.1 and called with the official `openai` client.

The upstream is a scripted OpenAI-compatible server on loopback: what it received shows
what memoir injected; what memoir stored afterwards shows both turns were logged.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import openai
import pytest
import uvicorn

from memoir import Memoir
from memoir.server import create_app
from tests.scripted_server import chat_reply, scripted_server


@contextmanager
def served(memoir: Memoir) -> Iterator[str]:
    """memoir's app under uvicorn on a free loopback port; yields its /v1 base URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(memoir), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.should_exit = True
        thread.join(10)


def stream_reply(*pieces: str, done: bool = True) -> Callable[[dict[str, Any]], tuple[int, Any]]:
    """An upstream that streams `pieces` as chat-completion chunks (server-sent events)."""

    def chunk(delta: dict[str, str], finish: str | None = None) -> bytes:
        body = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "qwen",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip
        return b"data: " + json.dumps(body).encode() + b"\n\n"

    events = [chunk({"role": "assistant", "content": ""})] + [chunk({"content": p}) for p in pieces]
    tail = [chunk({}, "stop"), b"data: [DONE]\n\n"] if done else []
    return lambda body: (200, b"".join(events + tail))


def open_proxy_home(open_memoir: Callable[..., Memoir], upstream: str, **options: Any) -> Memoir:
    return open_memoir(
        embedding_provider="hashing", proxy_upstream_url=upstream, llm_model=None, worker_enabled=False, **options
    )


def test_a_chat_request_gets_the_conversations_memory_and_both_turns_are_kept(
    open_memoir: Callable[..., Memoir],
) -> None:
    with scripted_server(
        {"/v1/chat/completions": lambda body: (200, chat_reply("Avoid the peanut snacks."))}
    ) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        memoir.remember("The user is allergic to peanuts", conversation_id="sam")
        with served(memoir) as base:
            client = openai.OpenAI(base_url=base, api_key="unused")
            answer = client.chat.completions.create(
                model="qwen",
                messages=[{"role": "user", "content": "What should I avoid at the offsite?"}],
                extra_body={"memory_id": "sam"},
            )
        assert answer.choices[0].message.content == "Avoid the peanut snacks."
        [(_, sent)] = upstream.requests
        assert "memory_id" not in sent  # memoir's own field is not the upstream's
        content = sent["messages"][-1]["content"]
        assert "> [fact] The user is allergic to peanuts" in content
        assert content.endswith("The user's message:\nWhat should I avoid at the offsite?")
        assert memoir.flush(timeout=30)
        turns = [(e.event_type.value, e.text) for e in memoir.events(conversation_id="sam")]
        assert turns == [
            ("user_message", "What should I avoid at the offsite?"),
            ("assistant_message", "Avoid the peanut snacks."),
        ]


def test_a_conversation_named_by_header_and_a_new_one_both_work(open_memoir: Callable[..., Memoir]) -> None:
    with scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply("Noted."))}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai.OpenAI(
                base_url=base, api_key="unused", default_headers={"X-Memoir-Conversation": "new-one"}
            )
            client.chat.completions.create(model="qwen", messages=[{"role": "user", "content": "I live in Porto."}])
        assert [e.text for e in memoir.events(conversation_id="new-one")] == ["I live in Porto.", "Noted."]


def test_upstream_errors_come_back_with_their_status_and_a_dead_upstream_is_a_502(
    open_memoir: Callable[..., Memoir],
) -> None:
    refusing = {"/v1/chat/completions": lambda body: (404, {"error": {"message": "model 'qwen' not found"}})}
    with scripted_server(refusing) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai.OpenAI(base_url=base, api_key="unused", max_retries=0)
            with pytest.raises(openai.NotFoundError, match="not found"):
                client.chat.completions.create(model="qwen", messages=[{"role": "user", "content": "hi"}])
    with served(memoir) as base:  # the scripted upstream is gone now
        client = openai.OpenAI(base_url=base, api_key="unused", max_retries=0)
        with pytest.raises(openai.APIStatusError) as failed:
            client.chat.completions.create(model="qwen", messages=[{"role": "user", "content": "hi"}])
    assert failed.value.status_code == 502 and "no answer from the upstream" in str(failed.value)


def test_a_malformed_request_is_a_400_naming_the_field(open_memoir: Callable[..., Memoir]) -> None:
    with scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply("x"))}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai.OpenAI(base_url=base, api_key="unused", max_retries=0)
            with pytest.raises(openai.BadRequestError) as refused:
                client.chat.completions.create(model="qwen", messages=[{"role": "user", "content": 5}])  # type: ignore[misc]
        assert upstream.requests == []
    assert "messages[0].content" in json.dumps(refused.value.body)


def test_a_streamed_answer_passes_through_chunk_by_chunk_and_is_kept_whole(open_memoir: Callable[..., Memoir]) -> None:
    with scripted_server({"/v1/chat/completions": stream_reply("Avoid ", "the peanut ", "snacks.")}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        memoir.remember("The user is allergic to peanuts", conversation_id="sam")
        with served(memoir) as base:
            client = openai.OpenAI(base_url=base, api_key="unused")
            stream = client.chat.completions.create(
                model="qwen",
                messages=[{"role": "user", "content": "What should I avoid?"}],
                stream=True,
                extra_body={"memory_id": "sam"},
            )
            pieces = [c.choices[0].delta.content for c in stream if c.choices and c.choices[0].delta.content]
        assert pieces == ["Avoid ", "the peanut ", "snacks."]
        assert "> [fact] The user is allergic to peanuts" in upstream.requests[0][1]["messages"][-1]["content"]
        assert upstream.requests[0][1]["stream"] is True
        events = memoir.events(conversation_id="sam")
        assert [(e.event_type.value, e.text) for e in events][-1] == ("assistant_message", "Avoid the peanut snacks.")
        assert "partial" not in events[-1].metadata


def test_a_stream_cut_short_keeps_what_arrived_marked_partial(open_memoir: Callable[..., Memoir]) -> None:
    with scripted_server({"/v1/chat/completions": stream_reply("Avoid ", "the pea", done=False)}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai.OpenAI(base_url=base, api_key="unused")
            stream = client.chat.completions.create(
                model="qwen", messages=[{"role": "user", "content": "What should I avoid?"}], stream=True
            )
            assert [c.choices[0].delta.content for c in stream if c.choices and c.choices[0].delta.content] == [
                "Avoid ",
                "the pea",
            ]
        last = memoir.events(conversation_id="default")[-1]
        assert (last.text, last.metadata.get("partial")) == ("Avoid the pea", "true")
