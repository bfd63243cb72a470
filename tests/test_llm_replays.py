"""The LLM path against what a real small model answered (../shared/data/llm-replays).

Each recorded answer of Qwen2.5 Coder 0.5B (Q4_K_M) is served by a scripted
OpenAI-compatible server on 127.0.0.1, whatever prompt arrives. Whatever the model
said, memoir never stores placeholder or empty text, never drops a new fact silently
(the rules take a turn whose answer is rejected), never deletes or replaces a memory
without a new fact on the same topic, and records provenance only for supporting events.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from memoir import Memoir, ModelOutputError
from memoir.ingest.answers import check_facts, is_placeholder, supported_by
from memoir.ingest.extract import extract_by_rules, extract_with_llm, worth_extracting
from memoir.ingest.reconcile import reconcile_with_llm, same_topic
from memoir.llm import ChatClient
from memoir.model import new_ulid
from memoir.model.memory import Memory, normalise_content
from tests.conftest import message
from tests.replays import EXTRACTIONS, RECONCILIATIONS, Replayer, user_text
from tests.scripted_server import chat_reply, scripted_server


def always(content: str) -> Callable[[dict[str, Any]], tuple[int, Any]]:
    return lambda body: (200, chat_reply(content))


def test_the_recordings_hold_both_kinds_of_call() -> None:
    assert len(EXTRACTIONS) >= 10 and len(RECONCILIATIONS) >= 10


@pytest.mark.parametrize("row", EXTRACTIONS, ids=lambda r: user_text(r)[:40])
def test_an_extraction_answer_is_used_only_if_every_fact_is_stated_by_the_user(row: dict[str, Any]) -> None:
    text = user_text(row)
    with scripted_server({"/v1/chat/completions": always(row["content"])}) as server:
        client = ChatClient(base_url=server.url + "/v1", model="qwen", retries=0)
        try:
            facts = extract_with_llm(client, text)
        except ModelOutputError:
            return  # rejected twice: the rules take the turn
        finally:
            client.close()
    for fact in facts:
        assert not is_placeholder(fact) and supported_by(fact, text)
        assert not fact.lower().startswith(("i ", "my ", "i'm "))


@pytest.mark.parametrize("row", RECONCILIATIONS, ids=lambda r: user_text(r)[:40])
def test_a_reconciliation_answer_never_stores_placeholders_nor_loses_or_destroys_a_fact(row: dict[str, Any]) -> None:
    payload = json.loads(user_text(row))
    existing = [
        Memory(id=new_ulid(1_700_000_000_000 + i), kind="fact", content=e["text"])
        for i, e in enumerate(payload["existing"])
    ]
    new_facts = payload["new_facts"]
    with scripted_server({"/v1/chat/completions": always(row["content"])}) as server:
        client = ChatClient(base_url=server.url + "/v1", model="qwen", retries=0)
        try:
            decisions = reconcile_with_llm(client, new_facts, existing)
        except ModelOutputError:
            return
        finally:
            client.close()
    by_id = {m.id: m for m in existing}
    carried = {normalise_content(d.text) for d in decisions if d.event in ("ADD", "UPDATE")}
    for decision in decisions:
        assert not is_placeholder(decision.text) or decision.event in ("DELETE", "NONE")
        if decision.event in ("UPDATE", "DELETE"):
            old = by_id[decision.memory_id or ""]
            assert any(same_topic(old.content, fact) for fact in new_facts), f"{decision} without a same-topic fact"
    known = {normalise_content(m.content) for m in existing}
    assert all(normalise_content(f) in carried | known for f in new_facts), "a new fact was dropped"


def test_the_write_path_on_recorded_answers_keeps_every_fact_with_true_provenance(
    open_memoir: Callable[..., Memoir],
) -> None:
    replayer = Replayer()
    texts = list(dict.fromkeys(user_text(r) for r in EXTRACTIONS))
    with scripted_server({"/v1/chat/completions": replayer}) as server:
        memoir = open_memoir(
            embedding_provider="hashing", llm_model="qwen", llm_base_url=server.url + "/v1", llm_retries=0
        )
        ids = [memoir.ingest(message(text, conversation_id="sam"))[0] for text in texts]
        assert memoir.flush(timeout=120)
    assert replayer.calls > 0, "the model was never asked"
    everything = memoir.memories("sam", include_deleted=True)
    assert not [m for m in everything if is_placeholder(m.content)], "placeholder text was stored"
    events = dict(zip(ids, texts, strict=True))
    for memory in everything:
        for event_id in memory.event_ids:
            assert supported_by(memory.content, events[event_id]), f"{memory.content!r} cites {events[event_id]!r}"
    for event_id, text in events.items():
        if worth_extracting(text) and extract_by_rules(text):
            assert any(event_id in m.event_ids for m in everything), f"the facts of {text!r} were lost"
    for tombstone in (m for m in everything if m.deleted):
        assert tombstone.replaced_by or any(
            same_topic(tombstone.content, m.content) for m in everything if m.id != tombstone.id
        ), f"{tombstone.content!r} was deleted without a same-topic fact"


def test_the_readme_session_on_recorded_answers_replaces_jane_by_anne(open_memoir: Callable[..., Memoir]) -> None:
    """The model answered "Jane is Jane", then UPDATE with "...": both rejected, the rules keep the story."""
    with scripted_server({"/v1/chat/completions": Replayer()}) as server:
        memoir = open_memoir(
            embedding_provider="hashing", llm_model="qwen", llm_base_url=server.url + "/v1", llm_retries=0
        )
        memoir.ingest(message("My wife is Jane.", conversation_id="sam"))
        memoir.ingest(message("Sorry, I misspoke: my wife is Anne.", conversation_id="sam"))
        assert memoir.flush(timeout=60)
    jane, anne = memoir.memories("sam", include_deleted=True)
    assert (jane.content, jane.deleted, jane.replaced_by) == ("The user's wife is Jane", True, anne.id)
    assert (anne.content, anne.deleted) == ("The user's wife is Anne", False)
    assert (anne.source, anne.reconciled_by) == ("heuristics", "heuristics")  # both answers were rejected


@pytest.mark.parametrize(
    ("fact", "message_text", "why"),
    [
        ("...", "My wife is Jane.", "not a fact"),
        ("Jane is Jane", "My wife is Jane.", "says nothing"),
        ("My wife is named Anne", "My wife is Anne.", "third person"),
        ("The user's backend language is Python", "Is my backend language Go?", "not stated"),
        # what Qwen2.5 Coder 0.5B answered through llama.cpp (bench/llm_real.py, issue 9)
        (
            "The app uses advanced machine learning algorithms to analyze historical data",
            "I'm starting a new project called Lighthouse, a tide-prediction app for sailors.",
            "not stated",
        ),
        (
            "The user's daughter Mia turns 7 next Saturday, so I'll be offline that weekend.",
            "My daughter Mia turns 7 next Saturday, so I'll be offline that weekend.",
            "third person",
        ),
    ],
)
def test_an_extracted_fact_must_be_stated_by_the_user_in_the_third_person(
    fact: str, message_text: str, why: str
) -> None:
    with pytest.raises(ValueError, match=why):
        check_facts([fact], message_text)


def test_a_fact_in_other_words_is_still_the_users() -> None:
    assert supported_by("The user prefers PostgreSQL over MySQL", "I prefer PostgreSQL over MySQL for the database.")
    assert supported_by("The user's wife is named Anne", "Sorry, I misspoke: my wife is Anne.")
    assert supported_by("The user checks US harbours", "I check the tide tables of US harbours daily.")


def test_questions_never_reach_extraction() -> None:
    assert not worth_extracting("Is my backend language Python?")
    assert worth_extracting("I use Python. Is that fine?")
