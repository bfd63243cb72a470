"""The write path: facts extracted from user messages and reconciled into the vault.

With a scripted OpenAI-compatible server on 127.0.0.1 playing the LLM (the real HTTP
path), and without one (the rules).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from memoir import Memoir
from memoir.ingest import extract_by_rules, read, reconcile_by_rules, same_topic
from memoir.model import Memory, new_ulid
from tests.scripted_server import ScriptedServer, chat_reply, scripted_server


def say(memoir: Memoir, text: str, conversation: str = "sam", event_type: str = "user_message") -> str:
    [event_id] = memoir.ingest(
        {"session_id": "s1", "conversation_id": conversation, "event_type": event_type, "text": text}
    )
    assert memoir.flush(timeout=30)
    return event_id


def live(memoir: Memoir, conversation: str = "sam") -> list[str]:
    return [m.content for m in memoir.memories(conversation)]


class ScriptedLLM:
    """Answers extraction and reconciliation prompts from two scripts, recording what it was asked."""

    def __init__(self) -> None:
        self.extractions: list[Any] = []
        self.reconciliations: list[Any] = []
        self.seen: list[str] = []

    def __call__(self, body: dict[str, Any]) -> tuple[int, Any]:
        system = body["messages"][0]["content"]
        kind = "extract" if "pick out what the user says" in system else "reconcile"
        self.seen.append(kind)
        script = self.extractions if kind == "extract" else self.reconciliations
        answer = script.pop(0) if script else '{"facts": []}'
        if isinstance(answer, tuple):
            return answer
        return 200, chat_reply(answer if isinstance(answer, str) else json.dumps(answer))


@contextmanager
def with_llm(
    open_memoir: Callable[..., Memoir], **options: Any
) -> Iterator[tuple[Memoir, ScriptedLLM, ScriptedServer]]:
    script = ScriptedLLM()
    with scripted_server({"/v1/chat/completions": script}) as server:
        memoir = open_memoir(
            embedding_provider="hashing",
            llm_base_url=server.url + "/v1",
            llm_model="qwen2.5:3b",
            llm_retries=0,
            **options,
        )
        yield memoir, script, server


def test_with_rules_a_correction_replaces_the_fact_and_leaves_a_tombstone(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    say(memoir, "My wife is Jane.")
    anne_event = say(memoir, "Actually, my wife is Anne.")
    [anne] = memoir.memories("sam")
    assert anne.content == "The user's wife is Anne" and anne.source == "heuristics"
    assert anne.event_ids == (anne_event,)
    [jane] = [m for m in memoir.memories("sam", include_deleted=True) if m.deleted]
    assert jane.content == "The user's wife is Jane" and jane.replaced_by == anne.id
    assert [m.content for m in memoir.memory_history(anne.id)] == ["The user's wife is Jane", "The user's wife is Anne"]
    [hit] = memoir.search("who is the user's wife?", conversation_id="sam", kinds=["fact"], k=1)
    assert hit.memory_id == anne.id
    assert memoir.get_event(hit.event_ids[0]).text == "Actually, my wife is Anne."  # traced back to the message


def test_an_unrelated_fact_is_added_and_the_old_one_kept(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    say(memoir, "My wife is Anne.")
    say(memoir, "I live in Lisbon.")
    assert sorted(live(memoir)) == ["The user lives in Lisbon", "The user's wife is Anne"]


def test_assistant_messages_and_fact_free_turns_add_nothing(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    say(memoir, "My wife is Anne.", event_type="assistant_message")
    say(memoir, "Thanks, that helps!")
    say(memoir, "What time is my flight?")
    assert live(memoir) == []


def test_a_batch_of_messages_is_settled_in_order(open_memoir: Callable[..., Memoir]) -> None:
    """Rules extract a whole batch before any fact is written; each message still sees the facts before it."""
    memoir = open_memoir(embedding_provider="hashing", worker_enabled=False)
    texts = ["My wife is Jane.", "I live in Lisbon and I love sailing.", "Actually, my wife is Anne.", "I love sailing"]
    ids = memoir.ingest(
        [{"session_id": "s1", "conversation_id": "sam", "event_type": "user_message", "text": t} for t in texts]
    )
    assert memoir.flush(timeout=30)
    assert sorted(live(memoir)) == ["The user lives in Lisbon", "The user loves sailing", "The user's wife is Anne"]
    [jane] = [m for m in memoir.memories("sam", include_deleted=True) if m.deleted]
    [anne] = [m for m in memoir.memories("sam") if "Anne" in m.content]
    assert (jane.content, jane.replaced_by, anne.event_ids) == ("The user's wife is Jane", anne.id, (ids[2],))
    [sailing] = [m for m in memoir.memories("sam") if "sailing" in m.content]
    assert sailing.event_ids == (ids[1],)  # the same fact again is a NONE: nothing changes


def test_the_same_fact_again_changes_nothing(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    say(memoir, "I have two dogs.")
    before = memoir.memories("sam")
    say(memoir, "I have two dogs!")
    assert memoir.memories("sam") == before


def test_with_an_llm_the_model_adds_what_the_rules_miss(open_memoir: Callable[..., Memoir]) -> None:
    with with_llm(open_memoir) as (memoir, llm, _):
        llm.extractions += [
            '```json\n{"facts": ["The user unwinds by sailing on the Tagus"]}\n```',
            '<think>a correction</think>{"facts": ["The user\'s wife is named Anne"]}',
        ]
        sailing = "The user unwinds by sailing on the Tagus"
        llm.reconciliations += [
            {"memory": [{"id": "0", "text": sailing, "event": "NONE"}, {"id": "new", "text": "x", "event": "ADD"}]}
        ]
        say(memoir, "Sailing on the Tagus is how I unwind.")  # the rules read nothing here
        say(memoir, "My wife is Anne")  # the rules read this: the model's version says nothing new
    [sailing] = [m for m in memoir.memories("sam") if "sailing" in m.content]
    [anne] = [m for m in memoir.memories("sam") if "Anne" in m.content]
    assert (sailing.content, sailing.source) == ("The user unwinds by sailing on the Tagus", "llm")
    assert (anne.content, anne.source) == ("The user's wife is Anne", "heuristics")
    assert llm.seen == ["extract", "extract"]  # nothing said changed: no reconciliation to ask for


def test_a_models_fact_of_what_declined_the_user_is_not_kept(open_memoir: Callable[..., Memoir]) -> None:
    """ "Cloudflare: rejected." is the end of what the user had with Cloudflare; a small model's reading of it (a real
    answer, `blind9`) would keep Cloudflare live, and a job it read earlier ("saturday job at nandos") is taken back
    when "nandos ghosted me", in lower case."""
    with with_llm(open_memoir) as (memoir, llm, _):
        llm.extractions += [
            '{"facts": ["The user\'s job is at Nandos"]}',
            '{"facts": ["The user\'s cloudflare provider rejected"]}',
            '{"facts": []}',
        ]
        say(memoir, "saturday job at nandos, my cuz said theyre hiring")
        say(memoir, "Cloudflare: rejected. Went with someone w/ more Rust. Fine.")
        say(memoir, "UPDATE nandos ghosted me but greggs on the high st said yes!!! start this sat")
    assert not [fact for fact in live(memoir) if re.search("cloudflare|nandos", fact, re.I)]


def test_a_model_reconciliation_replaces_a_fact_only_when_the_message_says_it_changed(
    open_memoir: Callable[..., Memoir],
) -> None:
    """The rules miss which instrument "now" replaces (no name, no value, no word of the old fact); the model's
    UPDATE is taken for a changing message."""

    def replace_the_cello(body: dict[str, Any]) -> tuple[int, Any]:
        if "extract facts" in body["messages"][0]["content"] or "pick out" in body["messages"][0]["content"]:
            return 200, chat_reply('{"facts": []}')
        shown = json.loads(body["messages"][-1]["content"])
        cello = next(m["id"] for m in shown["existing"] if "cello" in m["text"])
        answer = {"memory": [{"id": cello, "text": shown["new_facts"][0], "event": "UPDATE"}]}
        return 200, chat_reply(json.dumps(answer))

    with scripted_server({"/v1/chat/completions": replace_the_cello}) as server:
        memoir = open_memoir(
            embedding_provider="hashing", llm_base_url=server.url + "/v1", llm_model="m", llm_retries=0
        )
        say(memoir, "I play the cello.")
        say(memoir, "I play the piano.")  # says nothing changed: the model may not remove the cello
        assert sorted(live(memoir)) == ["The user plays the cello", "The user plays the piano"]
        say(memoir, "Actually, I play the viola now.")
    assert sorted(live(memoir)) == ["The user plays the piano", "The user plays the viola now"]
    [cello] = [m for m in memoir.memories("sam", include_deleted=True) if m.deleted]
    [viola] = [m for m in memoir.memories("sam") if "viola" in m.content]
    assert cello.content == "The user plays the cello" and cello.replaced_by == viola.id
    assert viola.reconciled_by == "llm"


def test_unknown_ids_are_rejected_and_asked_again(open_memoir: Callable[..., Memoir]) -> None:
    with with_llm(open_memoir) as (memoir, llm, server):
        llm.extractions += ['{"facts": ["The user has a dog named Rex"]}', '{"facts": ["The user has a cat"]}']
        llm.reconciliations += [
            {"memory": [{"id": "7", "text": "The user has a cat", "event": "UPDATE"}]},
            {
                "memory": [
                    {"id": "0", "text": "The user has a dog named Rex", "event": "NONE"},
                    {"id": "new", "text": "The user has a cat", "event": "ADD"},
                ]
            },
        ]
        say(memoir, "I have a dog named Rex")
        say(memoir, "Actually, I have a cat")
    assert sorted(live(memoir)) == ["The user has a cat", "The user has a dog named Rex"]
    retry = [body for path, body in server.requests if "unknown id '7'" in json.dumps(body)]
    assert retry, "the corrective retry quotes the unknown id"


def test_the_breaker_opens_after_three_failures_and_rules_take_over(open_memoir: Callable[..., Memoir]) -> None:
    with with_llm(open_memoir) as (memoir, llm, _):
        llm.extractions += [(500, {"error": "overloaded"})] * 10
        llm.reconciliations += [(500, {"error": "overloaded"})] * 10
        for text in ("My dog is Rex.", "My cat is Tom.", "My car is blue.", "My bike is red.", "My boat is old."):
            say(memoir, text)
        assert memoir._parts.llm.breaker.state == "open"
        failed = memoir.status().llm_usage["extract_facts"]["calls"]
    assert failed == 3  # three failed operations (extraction or reconciliation), then the server is left alone
    assert len(live(memoir)) == 5 and {m.source for m in memoir.memories("sam")} == {"heuristics"}


def test_answers_memoir_cannot_use_are_counted_apart_and_never_open_the_breaker(
    open_memoir: Callable[..., Memoir],
) -> None:
    """A server that answers is up: a small model's unusable answers are not an outage."""
    with with_llm(open_memoir) as (memoir, llm, _):
        llm.extractions += ["I cannot answer in JSON, sorry."] * 20
        texts = ("My dog is Rex.", "My cat is Tom.", "My car is blue.", "My bike is red.", "My boat is old.")
        for text in texts:
            say(memoir, text)
        assert memoir._parts.llm.breaker.state == "closed"
        usage = memoir.status().llm_usage["extract_facts"]
    assert usage["rejected"] >= 5 and usage["failed"] == usage["timed_out"] == 0
    assert len(live(memoir)) == 5  # the rules' facts, every one
    assert llm.seen.count("extract") == 10  # every message was asked (with one corrective retry each)


def test_llm_calls_per_user_turn(open_memoir: Callable[..., Memoir]) -> None:
    with with_llm(open_memoir) as (memoir, llm, _):
        llm.extractions += ['{"facts": ["The user likes sailing"]}', '{"facts": ["The user likes kayaking"]}']
        llm.reconciliations += [{"memory": [{"id": "0", "text": "The user likes sailing", "event": "NONE"}]}]
        calls = []
        for text in ("Thanks!", "I like sailing", "Actually, I like kayaking now"):
            before = len(llm.seen)
            say(memoir, text)
            calls.append(len(llm.seen) - before)
    # nothing to read; a fact with nothing beside it; a change, with a known fact it may be about
    assert calls == [0, 1, 2]


def test_the_oldest_memories_are_evicted_beyond_max_entries(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing", memory_max_entries=3)
    for text in ("My dog is Rex.", "My cat is Tom.", "My car is blue.", "My bike is red.", "My boat is old."):
        say(memoir, text)
    assert live(memoir) == ["The user's car is blue", "The user's bike is red", "The user's boat is old"]
    assert len(memoir.memories("sam", include_deleted=True)) == 5  # soft-deleted, never destroyed
    assert memoir.status().events == 5  # the event log is never trimmed


def test_in_unified_mode_each_agent_keeps_max_entries_of_its_own(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing", memory_max_entries=2, multi_agent_mode="unified")
    said = [
        ("ada", "My dog is Rex."),
        ("bob", "My cat is Tom."),
        ("ada", "My car is blue."),
        ("ada", "My bike is red."),
    ]
    for agent, text in said:
        memoir.ingest(
            {
                "session_id": "s1",
                "conversation_id": "sam",
                "event_type": "user_message",
                "text": text,
                "agent_id": agent,
            }
        )
        assert memoir.flush(timeout=30)
    kept = {agent: [m.content for m in memoir.memories("sam", agent_id=agent)] for agent in ("ada", "bob")}
    assert kept == {"ada": ["The user's car is blue", "The user's bike is red"], "bob": ["The user's cat is Tom"]}


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("My wife is Jane.", ["The user's wife is Jane"]),
        ("I'm allergic to peanuts, so no peanut snacks.", ["The user is allergic to peanuts"]),
        ("I live in Lisbon and I love sailing.", ["The user lives in Lisbon", "The user loves sailing"]),
        ("Hi! I'm Sam.", ["The user's name is Sam"]),
        ("Sorry, I misspoke: my wife is Anne.", ["The user's wife is Anne"]),
        ("What is my wife's name?", []),
        ("I think so.", []),
    ],
)
def test_rules_extract_first_person_statements(text: str, facts: list[str]) -> None:
    assert extract_by_rules(text) == facts


def test_rules_reconcile_by_topic() -> None:
    jane = Memory(id=new_ulid(1), kind="fact", content="The user's wife is Jane")
    decisions = reconcile_by_rules(read("My wife is Anne. I have a cat."), [(jane.id, jane.content)])
    assert [(d.event, d.text, d.memory_id) for d in decisions] == [
        ("UPDATE", "The user's wife is Anne", jane.id),
        ("ADD", "The user has a cat", None),
    ]
    assert same_topic("The user's wife is Jane", "The user's wife is named Anne")
    assert not same_topic("The user likes pizza", "The user lives in Lisbon")
