"""The OpenAI-compatible memory proxy, served for real on 127.0.0.1 and called with the official `openai` client.

The upstream is a scripted OpenAI-compatible server on loopback: what it received shows
what memoir injected; what memoir stored afterwards shows both turns were logged.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import openai
import pytest

from memoir import Memoir
from memoir.server import serving
from tests.scripted_server import chat_reply, scripted_server


@contextmanager
def served(memoir: Memoir) -> Iterator[str]:
    """memoir's server on a free loopback port; yields its /v1 base URL."""
    with serving(memoir) as where:
        yield where.url + "/v1"


_clients: list[openai.OpenAI] = []


def openai_client(**options: Any) -> openai.OpenAI:
    """The official client, closed after the test (its connection pool would outlive it)."""
    client = openai.OpenAI(**options)
    _clients.append(client)
    return client


@pytest.fixture(autouse=True)
def close_clients() -> Iterator[None]:
    yield
    while _clients:
        _clients.pop().close()


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
            client = openai_client(base_url=base, api_key="unused")
            answer = client.chat.completions.create(
                model="qwen",
                messages=[{"role": "user", "content": "What should I avoid at the offsite?"}],
                extra_body={"memory_id": "sam"},
            )
        assert answer.choices[0].message.content == "Avoid the peanut snacks."
        [(_, sent)] = upstream.requests
        assert "memory_id" not in sent  # memoir's own field is not the upstream's
        content = sent["messages"][-1]["content"]
        assert "> The user is allergic to peanuts." in content
        assert content.endswith("\n)\n\nWhat should I avoid at the offsite?")
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
            client = openai_client(
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
            client = openai_client(base_url=base, api_key="unused", max_retries=0)
            with pytest.raises(openai.NotFoundError, match="not found"):
                client.chat.completions.create(model="qwen", messages=[{"role": "user", "content": "hi"}])
    with served(memoir) as base:  # the scripted upstream is gone now
        client = openai_client(base_url=base, api_key="unused", max_retries=0)
        with pytest.raises(openai.APIStatusError) as failed:
            client.chat.completions.create(model="qwen", messages=[{"role": "user", "content": "hi"}])
    assert failed.value.status_code == 502 and "no answer from the upstream" in str(failed.value)


def test_a_malformed_request_is_a_422_naming_the_field(open_memoir: Callable[..., Memoir]) -> None:
    with scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply("x"))}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused", max_retries=0)
            with pytest.raises(openai.UnprocessableEntityError) as refused:
                client.chat.completions.create(model="qwen", messages=[{"role": "user", "content": 5}])  # type: ignore[misc]
        assert upstream.requests == []
    assert "messages[0].content" in json.dumps(refused.value.body)


def test_a_streamed_answer_passes_through_chunk_by_chunk_and_is_kept_whole(open_memoir: Callable[..., Memoir]) -> None:
    with scripted_server({"/v1/chat/completions": stream_reply("Avoid ", "the peanut ", "snacks.")}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        memoir.remember("The user is allergic to peanuts", conversation_id="sam")
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused")
            stream = client.chat.completions.create(
                model="qwen",
                messages=[{"role": "user", "content": "What should I avoid?"}],
                stream=True,
                extra_body={"memory_id": "sam"},
            )
            pieces = [c.choices[0].delta.content for c in stream if c.choices and c.choices[0].delta.content]
        assert pieces == ["Avoid ", "the peanut ", "snacks."]
        assert "> The user is allergic to peanuts." in upstream.requests[0][1]["messages"][-1]["content"]
        assert upstream.requests[0][1]["stream"] is True
        events = memoir.events(conversation_id="sam")
        assert [(e.event_type.value, e.text) for e in events][-1] == ("assistant_message", "Avoid the peanut snacks.")
        assert "partial" not in events[-1].metadata


def test_a_stream_cut_short_keeps_what_arrived_marked_partial(open_memoir: Callable[..., Memoir]) -> None:
    with scripted_server({"/v1/chat/completions": stream_reply("Avoid ", "the pea", done=False)}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused")
            stream = client.chat.completions.create(
                model="qwen", messages=[{"role": "user", "content": "What should I avoid?"}], stream=True
            )
            pieces: list[str] = []
            with pytest.raises(openai.APIError, match="ended before it said \\[DONE\\]"):  # the client is told
                pieces.extend(c.choices[0].delta.content or "" for c in stream if c.choices)
        assert "".join(pieces) == "Avoid the pea"
        last = memoir.events(conversation_id="default")[-1]
        assert (last.text, last.metadata.get("partial")) == ("Avoid the pea", "true")


def test_two_agents_through_the_proxy_never_see_each_others_memories(open_memoir: Callable[..., Memoir]) -> None:
    with scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply("Noted."))}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1", multi_agent_mode="unified", agent_id="ops")
        memoir.remember("The vault password rotates on Mondays", conversation_id="work", agent_id="alice")
        memoir.remember("The vault is closed on Sundays", conversation_id="work", agent_id="bob")
        with served(memoir) as base:
            for agent in ("alice", "bob"):
                client = openai_client(base_url=base, api_key="unused", default_headers={"X-Memoir-Agent": agent})
                client.chat.completions.create(
                    model="qwen",
                    messages=[{"role": "user", "content": "When is the vault?"}],
                    extra_body={"memory_id": "work"},
                )
        alice_saw, bob_saw = (body["messages"][-1]["content"] for _, body in upstream.requests)
        assert "Mondays" in alice_saw and "Sundays" not in alice_saw
        assert "Sundays" in bob_saw and "Mondays" not in bob_saw
        assert {e.agent_id for e in memoir.events(agent_id="alice")} == {"alice"}
        assert len(memoir.events(agent_id="bob", conversation_id="work")) == 2


def test_a_slow_upstream_is_waited_for_and_one_past_the_timeout_is_a_504(open_memoir: Callable[..., Memoir]) -> None:
    def slow(body: dict[str, Any]) -> tuple[int, Any]:
        time.sleep(1.0)
        return 200, chat_reply("Eventually.")

    with scripted_server({"/v1/chat/completions": slow}) as upstream:
        patient = open_proxy_home(open_memoir, upstream.url + "/v1", proxy_timeout=10)
        with served(patient) as base:
            client = openai_client(base_url=base, api_key="unused", max_retries=0)
            answer = client.chat.completions.create(model="qwen", messages=[{"role": "user", "content": "hi"}])
            assert answer.choices[0].message.content == "Eventually."
        patient.close()
        hasty = open_proxy_home(open_memoir, upstream.url + "/v1", proxy_timeout=0.3)
        with served(hasty) as base:
            client = openai_client(base_url=base, api_key="unused", max_retries=0)
            with pytest.raises(openai.APIStatusError) as failed:
                client.chat.completions.create(model="qwen", messages=[{"role": "user", "content": "hi again"}])
    assert failed.value.status_code == 504 and "proxy.timeout" in str(failed.value)
    assert [e.text for e in hasty.events()][-1] == "hi again"  # the user's turn is kept all the same


def test_a_hundred_concurrent_streams_complete_with_every_turn_stored(open_memoir: Callable[..., Memoir]) -> None:
    with scripted_server({"/v1/chat/completions": stream_reply("Fine ", "thanks.")}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused", max_retries=0, timeout=120)

            def chat(number: int) -> str:
                stream = client.chat.completions.create(
                    model="qwen",
                    messages=[{"role": "user", "content": f"How are you, number {number}?"}],
                    stream=True,
                    extra_body={"memory_id": f"c{number}"},
                )
                return "".join(c.choices[0].delta.content or "" for c in stream if c.choices)

            with ThreadPoolExecutor(100) as pool:
                answers = list(pool.map(chat, range(100)))
        assert answers == ["Fine thanks."] * 100
        for number in range(100):
            turns = [(e.event_type.value, e.text) for e in memoir.events(conversation_id=f"c{number}")]
            assert turns == [("user_message", f"How are you, number {number}?"), ("assistant_message", "Fine thanks.")]


def test_memory_knobs_shape_the_injection_and_never_reach_the_upstream(open_memoir: Callable[..., Memoir]) -> None:
    with scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply("Noted."))}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        memoir.remember_many(
            [{"text": f"The user owns a {pet} named Rex {n}", "conversation_id": "pets"} for n, pet in enumerate(
                ["dog", "cat", "parrot", "hamster"]
            )]
        )  # fmt: skip
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused")
            for top_k in (1, 4):
                client.chat.completions.create(
                    model="qwen",
                    messages=[{"role": "user", "content": "Which pets named Rex do I have?"}],
                    extra_body={"memory_id": "pets", "memory_top_k": top_k, "memory_budget_tokens": 500},
                )
        sent = [body for _, body in upstream.requests]
    assert all(not any(key.startswith("memory_") for key in body) for body in sent)
    facts = [body["messages"][-1]["content"].count("> The user") for body in sent]
    assert facts[0] == 1 and facts[1] == 4


def long_chat(turns: int, question: str = "So what should I pack for the harbour trip?") -> list[dict[str, str]]:
    """A system prompt, `turns` exchanges that say something, and a last question."""
    chat = [{"role": "system", "content": "You are a careful travel assistant."}]
    for n in range(turns):
        chat.append({"role": "user", "content": f"Day {n}: we walked to lantern point {n}, checked the ferry times."})
        chat.append({"role": "assistant", "content": f"Noted for day {n}: the ferry {n} leaves the harbour at dawn."})
    return [*chat, {"role": "user", "content": question}]


def test_history_fields_compress_the_request_before_the_memory_goes_in(open_memoir: Callable[..., Memoir]) -> None:
    chat = long_chat(10)
    with scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply("Pack a coat."))}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        memoir.remember("The user gets seasick on ferries", conversation_id="sam")
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused")
            fields = {"history_compression": {"type": "from_last_n_messages", "n": 4}, "history_max_tokens": 2000}
            raw = client.chat.completions.with_raw_response.create(
                model="qwen", messages=chat, extra_body={"memory_id": "sam", "history_token_caching": False, **fields}
            )
            assert raw.parse().choices[0].message.content == "Pack a coat."
        [(_, sent)] = upstream.requests
    assert not any(key.startswith("history_") for key in sent)  # ours, not the upstream's
    messages = sent["messages"]
    assert messages[:2] == chat[:2] and messages[3:-1] == chat[-4:-1]  # system, first user; the last 4 as they were
    assert messages[2]["role"] == "assistant" and messages[2]["content"].startswith("Summary of messages 2-17")
    assert "[message 2]" in messages[2]["content"] or "[message 3]" in messages[2]["content"]
    assert "> The user gets seasick on ferries." in messages[-1]["content"]  # injected after compression
    assert messages[-1]["content"].endswith(chat[-1]["content"])
    header = raw.headers["x-memoir-history"]
    assert header.startswith("tokens ") and "summarized 16" in header and "strategy from_last_n_messages:4" in header


def test_with_memoirs_own_model_set_the_summary_is_its_tldr(open_memoir: Callable[..., Memoir]) -> None:
    """memoir's model (llm.*) writes the summary; the upstream only answers the chat."""
    tldr = "## Key Objectives\nPlan the harbour trip.\n## Current Status\nFerry times checked."
    with (
        scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply("Pack a coat."))}) as upstream,
        scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply(tldr))}) as model,
    ):
        memoir = open_memoir(
            embedding_provider="hashing",
            proxy_upstream_url=upstream.url + "/v1",
            llm_base_url=model.url + "/v1",
            llm_model="summarizer",
            memory_extract=False,
            worker_enabled=False,
        )
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused")
            fields = {"memory_id": "trip", "history_compression": "whole_history"}
            raw = client.chat.completions.with_raw_response.create(
                model="qwen", messages=long_chat(10), extra_body=fields
            )
        [(_, asked)] = model.requests
        [(_, sent)] = upstream.requests
    assert asked["model"] == "summarizer" and "Key Objectives" in json.dumps(asked["messages"])
    assert any(tldr in str(m["content"]) for m in sent["messages"] if m["role"] == "assistant")
    assert "summary by llm" in raw.headers["x-memoir-history"]


def test_the_next_request_of_a_conversation_reuses_its_summary_byte_for_byte(
    open_memoir: Callable[..., Memoir],
) -> None:
    first = long_chat(10)
    second = [*first, {"role": "assistant", "content": "Pack a coat."}, {"role": "user", "content": "And shoes?"}]
    with scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply("Pack a coat."))}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused")
            headers = []
            for chat in (first, second):
                fields = {"memory_id": "trip", "history_compression": "whole_history"}
                raw = client.chat.completions.with_raw_response.create(model="qwen", messages=chat, extra_body=fields)
                headers.append(raw.headers["x-memoir-history"])
        sent = [body["messages"] for _, body in upstream.requests]
    assert json.dumps(sent[1][: len(sent[0]) - 1]) == json.dumps(sent[0][:-1])  # the upstream's cache still holds
    assert sent[1][len(sent[0]) - 1 :][:2] == second[-3:-1]
    assert "reused" not in headers[0] and headers[1].endswith("; reused")


def test_bad_history_fields_are_a_422_naming_the_requests_field(open_memoir: Callable[..., Memoir]) -> None:
    chat = long_chat(10)
    bad = [
        ({"history_compression": "squash"}, "history_compression", "InvalidQuery"),
        ({"history_compression": {"type": "chunked", "size": 0}}, "history_compression.size", "InvalidQuery"),
        ({"history_max_size": 0}, "history_max_size", "InvalidQuery"),
        ({"history_max_tokens": 3}, "history_max_tokens", "InvalidTokenLimit"),  # below the system prompt
        ({"history_token_caching": "yes"}, "history_token_caching", "InvalidQuery"),
    ]
    with scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply("x"))}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused", max_retries=0)
            for fields, param, kind in bad:
                with pytest.raises(openai.UnprocessableEntityError) as refused:
                    client.chat.completions.create(model="qwen", messages=chat, extra_body=fields)  # type: ignore[arg-type]
                error: Any = refused.value.body  # the client unwraps {"error": ...}
                assert (error["param"], error["type"]) == (param, kind)
                assert error["message"].startswith(f"{param}: ")
        assert upstream.requests == []


def test_a_chat_too_short_to_compress_is_sent_whole_and_the_header_says_why(open_memoir: Callable[..., Memoir]) -> None:
    chat = long_chat(2)
    with scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply("Noted."))}) as upstream:
        memoir = open_proxy_home(open_memoir, upstream.url + "/v1")
        with served(memoir) as base:
            client = openai_client(base_url=base, api_key="unused")
            raw = client.chat.completions.with_raw_response.create(
                model="qwen", messages=chat, extra_body={"history_compression": "chunked:2", "history_max_size": 4}
            )
        [(_, sent)] = upstream.requests
    assert sent["messages"] == [chat[0], chat[1], chat[-2], chat[-1]]  # max_history_size still applies
    header = raw.headers["x-memoir-history"]
    assert header.startswith("compression skipped (6 messages, 10 needed); tokens ") and "dropped 2" in header
