"""`Memoir.inject`: a conversation's memory, searched in the store, before the last user message.

How a request takes the memory block: tests/unit/test_injection.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from memoir import Memoir
from memoir.errors import InvalidQuery


def test_memoir_inject_puts_the_conversations_memory_before_the_last_user_message(tmp_path: Any) -> None:
    with Memoir.open(tmp_path / "home", worker_enabled=False, embedding_provider="hashing") as memoir:
        memoir.remember("The user is allergic to peanuts", conversation_id="sam")
        memoir.remember("The user is allergic to cats", conversation_id="other")
        request = [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Am I allergic to anything?"},
        ]
        injected = memoir.inject(request, conversation_id="sam")
        assert injected.messages[0] == request[0] and request[1]["content"] == "Am I allergic to anything?"
        sent = injected.messages[1]["content"]
        assert "> The user is allergic to peanuts." in sent and "cats" not in sent  # its own conversation only
        assert sent.endswith("\n)\n\nAm I allergic to anything?")
        assert injected.context.hits
        nothing = memoir.inject([{"role": "system", "content": "x"}], conversation_id="sam")
        assert nothing.messages == [{"role": "system", "content": "x"}] and not nothing.context.text
        with pytest.raises(InvalidQuery, match="messages"):
            memoir.inject("Am I allergic?", conversation_id="sam")


def test_memory_never_repeats_the_request_nor_memoirs_own_earlier_answers(tmp_path: Any) -> None:
    """A small model shown its old answers (or the turns it has before it) as memory repeats them (issue 25)."""
    turn = {"session_id": "s1", "conversation_id": "sam"}
    with Memoir.open(tmp_path / "home", worker_enabled=False, embedding_provider="hashing") as memoir:
        memoir.ingest(
            [
                {**turn, "event_type": "user_message", "text": "My sister lives in Porto."},
                {**turn, "event_type": "assistant_message", "text": "Porto is lovely!", "metadata": {"via": "proxy"}},
                {
                    **turn,
                    "event_type": "assistant_message",
                    "text": "Porto has great tiles.",
                    "metadata": {"via": "chat"},
                },
                {**turn, "event_type": "assistant_message", "text": "Porto sits on the Douro."},  # another app's log
                {**turn, "event_type": "user_message", "text": "Porto in spring is the plan."},
            ]
        )
        memoir.flush()
        request = [
            {"role": "user", "content": "Porto in spring is the plan."},
            {"role": "assistant", "content": "Sounds good."},
            {"role": "user", "content": "Where does my sister live, Porto?"},
        ]
        sent = memoir.inject(request, conversation_id="sam").messages[-1]["content"]
    assert 'The user said: "My sister lives in Porto."' in sent
    assert "Porto sits on the Douro." in sent  # an assistant turn memoir did not answer is memory like any other
    assert "Porto is lovely" not in sent and "great tiles" not in sent  # memoir's own answers are not
    assert sent.count("Porto in spring is the plan.") == 0  # the request holds it already
