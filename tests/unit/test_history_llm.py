"""Summaries through the LLM layer, against a scripted OpenAI-compatible server on loopback.

The TL;DR request must carry the dropped messages and Koog's five sections; a failing
model falls back to the extractive summary, or, with `fallback=False`, fails the
compression with the model's error as its cause; the same summary is reused, not asked
for again, while the state fits.
"""

from __future__ import annotations

from typing import Any

import pytest

from memoir.errors import CompressionFailed, ModelOutputError, ModelUnavailable
from memoir.history import TLDR_SECTIONS, FromLastNMessages, HistoryParams, WholeHistory, manage
from memoir.llm import LLM, ChatClient
from tests.scripted_server import chat_reply, scripted_server
from tests.unit.test_history_turns import opening, turn

TLDR = (
    "## Key Objectives\nPlan the harbour trip.\n## Tools Used & Results\nNone.\n## Key Findings\n"
    "The lantern plan moved forward.\n## Current Status\nPlanned.\n## Next Steps\nBook the ferry."
)


def client_for(url: str) -> ChatClient:
    return ChatClient(base_url=url + "/v1", model="qwen", retries=0, backoff=0, timeout=5)


def test_the_tldr_request_carries_the_dropped_messages_and_the_five_sections() -> None:
    messages = opening(10)
    with scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply(TLDR))}) as server:
        llm = LLM(client_for(server.url))
        managed = manage(messages, HistoryParams(FromLastNMessages(4)), llm=llm)
        [(_, asked)] = server.requests
    system, user = asked["messages"]
    assert system["role"] == "system" and "only context left" in system["content"]
    assert all(f"## {section}" in user["content"] for section in TLDR_SECTIONS)
    assert all(messages[i].content in user["content"] for i in range(2, 17))  # every message it replaces
    assert messages[17].content not in user["content"]  # the last 4 stay: not sent to be summarized
    [summary] = managed.report.summaries
    assert managed.report.source == summary.source == "llm" and summary.grips == ()
    assert summary.covers == tuple(range(2, 17))
    assert summary.message.role == "assistant"
    assert summary.message.content == f"Summary of messages 2-16 (earlier in this conversation):\n{TLDR}"
    assert managed.messages == [messages[0], messages[1], summary.message, *messages[17:]]


def test_the_model_is_not_asked_again_while_the_state_fits() -> None:
    with scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply(TLDR))}) as server:
        llm = LLM(client_for(server.url))
        history = opening(10)
        first = manage(history, HistoryParams(WholeHistory()), llm=llm)
        history += turn(10)
        second = manage(history, HistoryParams(WholeHistory()), llm=llm, state=first.state)
        assert len(server.requests) == 1 and second.report.reused
        assert second.messages[: len(first.messages)] == first.messages  # the same TL;DR, byte for byte
        for n in range(11, 15):
            history += turn(n)
        third = manage(history, HistoryParams(WholeHistory()), llm=llm, state=second.state)
        assert len(server.requests) == 2 and not third.report.reused
        asked = server.requests[1][1]["messages"][1]["content"]
        assert history[2].content not in asked and history[-1].content in asked  # only what is new is summarized
        assert third.messages[2] == first.messages[2]  # the first TL;DR stays as it was


def failing(status: int, body: Any) -> dict[str, Any]:
    return {"/v1/chat/completions": lambda request: (status, body)}


@pytest.mark.parametrize(
    ("routes", "cause", "says"),
    [
        (failing(500, {"error": "overloaded"}), ModelUnavailable, "500"),
        (failing(404, {"error": "model 'qwen' not found"}), ModelUnavailable, "ollama pull"),
        (failing(200, chat_reply("   ")), ModelOutputError, "empty summary"),
    ],
    ids=["server error", "unknown model", "empty answer"],
)
def test_a_failing_model_falls_back_to_the_extractive_summary_or_fails_without_fallback(
    routes: dict[str, Any], cause: type[Exception], says: str
) -> None:
    messages = opening(10)
    with scripted_server(routes) as server:
        llm = LLM(client_for(server.url))
        managed = manage(messages, HistoryParams(WholeHistory()), llm=llm)
        assert managed.report.source == "heuristics" and says in (managed.report.error or "")
        [summary] = managed.report.summaries
        assert summary.grips and "[message " in summary.message.content
        assert managed.messages == manage(messages, HistoryParams(WholeHistory())).messages  # the extractive one
        with pytest.raises(CompressionFailed) as failed:
            manage(messages, HistoryParams(WholeHistory()), llm=LLM(client_for(server.url)), fallback=False)
    assert failed.value.strategy == "whole_history"
    assert isinstance(failed.value.cause, cause) and says in str(failed.value)


def test_no_configured_model_is_extractive_unless_fallback_is_refused() -> None:
    messages = opening(10)
    assert manage(messages, HistoryParams(WholeHistory()), llm=LLM(None)).report.source == "heuristics"
    with pytest.raises(CompressionFailed, match="no LLM is configured") as failed:
        manage(messages, HistoryParams(WholeHistory()), llm=LLM(None), fallback=False)
    assert isinstance(failed.value.cause, ModelUnavailable)


class BrokenClient(ChatClient):
    """A client with a bug: the failure is no model error, so no fallback hides it."""

    def chat(self, messages: Any, **options: Any) -> str:
        raise KeyError("choices")


def test_an_unexpected_failure_inside_a_strategy_is_compression_failed_wrapping_it() -> None:
    llm = LLM(BrokenClient(base_url="http://127.0.0.1:9", model="qwen"))
    with pytest.raises(CompressionFailed) as failed:
        manage(opening(10), HistoryParams(FromLastNMessages(2)), llm=llm)
    assert failed.value.strategy == "from_last_n_messages:2"
    assert isinstance(failed.value.cause, KeyError) and failed.value.__cause__ is failed.value.cause
