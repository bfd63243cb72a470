"""The live facts a message is compared with (`ingest.live`): found by word, kept in step with the store.

A message reconciled with the facts `LiveFacts.near` finds for it (`changes.naming`) must
be decided exactly as when reconciled with every live fact, and `LiveFacts.words` must
answer as `rules.known_words` of every fact does; the copy must follow every change to
the store's memories, made by this process or another.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from itertools import count
from pathlib import Path

import pytest
from bench.facts import SET_NAMES

from memoir import Memoir
from memoir.ingest import read, reconcile_by_rules
from memoir.ingest.live import Fact, FactCache, LiveFacts, keys
from memoir.ingest.rule_decisions import Names, reconcile_known
from memoir.ingest.rules import known_words
from memoir.store import IndexItem
from tests.unit.test_fact_rules import settle

FACTS = Path(__file__).parents[1] / "data" / "facts"


def _fact(item_id: int, memory_id: str, text: str) -> Fact:
    item = IndexItem(
        kind="fact",
        ref=memory_id,
        conversation_id="c",
        created_ms=item_id,
        text=text,
        search_text=text,
        content_hash="",
        event_ids=(),
        item_id=item_id,
    )
    return Fact.of(item)


def _user_turns(name: str) -> Iterator[tuple[str, list[str]]]:
    for conversation in json.loads((FACTS / f"{name}.json").read_text()):
        yield conversation["name"], [t["text"] for t in conversation["turns"] if t["role"] == "user"]


SETS = SET_NAMES


@pytest.mark.parametrize("name", SETS)
def test_the_facts_near_a_message_decide_as_every_fact_does(name: str) -> None:
    """Each set's conversations, each beside the facts every other conversation of the set leaves (alike in
    kind, topic and wording: "The user lives in …"), read and reconciled both ways, turn by turn."""
    conversations = list(_user_turns(name))
    left = {key: settle(turns) for key, turns in conversations}
    compared = everything = 0
    for key, turns in conversations:
        ids = count()
        every: dict[str, str] = {}
        near = LiveFacts()

        def add(text: str, every: dict[str, str] = every, near: LiveFacts = near, ids: Iterator[int] = ids) -> None:
            number = next(ids)
            every[f"m{number}"] = text
            near.add(_fact(number, f"m{number}", text))

        for other, facts in left.items():
            if other != key:
                for text in facts:
                    add(text)
        for turn in turns:
            readings = read(turn, known_words(every.values()))
            assert read(turn, near.words) == readings, turn
            decisions = reconcile_by_rules(readings, list(every.items()))
            candidates = near.named_by(readings)
            assert reconcile_known(readings, candidates) == decisions, turn
            compared, everything = compared + len(candidates), everything + len(every)
            versions: dict[str, str] = {}  # a memory updated has a new id: a later decision on it is on that one
            for decision in decisions:
                if decision.event in ("UPDATE", "DELETE"):
                    memory_id = versions.get(str(decision.memory_id), str(decision.memory_id))
                    gone = near.get(memory_id)
                    assert gone is not None
                    near.remove(memory_id, gone.item_id)
                    every.pop(memory_id)
                if decision.event in ("ADD", "UPDATE"):
                    add(decision.text)
                if decision.event == "UPDATE":
                    versions[str(decision.memory_id)] = list(every)[-1]
    assert compared < everything / 4  # and a message is compared with few of them


def test_keys_are_word_starts_and_topics_never_the_user() -> None:
    found = keys("The user's daughter Mia is 7 and lives in Lisbon")
    assert {"daugh", "~daugh", "mia", "~mia", "7", "live", "~live", "lisbo", "~lisbo"} <= found
    assert not {"user", "~user"} & found
    assert "@user|residence" in keys("The user lives in Lisbon")
    assert keys("") == keys("?!") == frozenset({""})


def test_known_words_follow_the_facts_held() -> None:
    facts = LiveFacts()
    first, second = _fact(1, "a", "Ravi Shah is the user's manager"), _fact(2, "b", "The user's manager Ravi likes tea")
    facts.add(first)
    facts.add(second)
    assert set(facts.words) == known_words([first.text, second.text])
    facts.remove("a", 1)
    assert set(facts.words) == known_words([second.text])
    assert "shah" not in facts.words and "ravi" in facts.words
    facts.remove("b", 1)  # an older item of the memory: nothing to do
    assert len(facts) == 1
    facts.add(_fact(3, "b", "The user's manager Ravi likes coffee"))  # the memory's new item replaces it
    assert [f.text for f in facts] == ["The user's manager Ravi likes coffee"]
    assert [f.text for f in facts.near(Names(sharing=("I love coffee",)))] == ["The user's manager Ravi likes coffee"]
    assert facts.near(Names(sharing=("I love tea",))) == []


def _texts(facts: LiveFacts) -> list[str]:
    return [f.text for f in facts]


def _stored(memoir: Memoir, conversation: str) -> list[str]:
    return [m.content for m in memoir.memories(conversation, kind="fact")]


def test_the_copy_follows_every_change_to_the_store(
    open_memoir: Callable[..., Memoir], home: Path, fresh_store: Callable[[], dict[str, str]]
) -> None:
    options = {"embedding_provider": "hashing", **fresh_store()}
    memoir = open_memoir(**options)
    cache = FactCache(memoir._parts.store, unified=False)
    rex, tom, _ = memoir.remember_many(
        [
            {"text": "The user's dog is Rex", "conversation_id": "c"},
            {"text": "The user's cat is Tom", "conversation_id": "c"},
            {"text": "The user lives in Oslo", "conversation_id": "elsewhere"},
        ]
    )
    memoir.remember("Use the staging database for tests", kind="gotcha", conversation_id="c")
    facts = cache.live("c")
    assert _texts(facts) == _stored(memoir, "c") == ["The user's dog is Rex", "The user's cat is Tom"]
    assert "rex" in facts.words and "oslo" not in facts.words

    memoir.forget(rex.id)
    memoir.correct(tom.id, "The user's cat is Tom, a tabby")  # keeps its place: the same created_at
    memoir.remember("The user plays the cello", conversation_id="c")
    assert cache.live("c") is facts
    assert _texts(facts) == _stored(memoir, "c") == ["The user's cat is Tom, a tabby", "The user plays the cello"]
    assert "rex" not in facts.words
    assert [f.text for f in facts.near(Names(alike=("The user's cat is Tom",)))] == ["The user's cat is Tom, a tabby"]

    other = open_memoir(home=home, **options)  # another process, as far as the store can tell
    cello = next(m for m in other.memories("c") if "cello" in m.content)
    other.forget(cello.id)
    other.remember("The user's sister is Ana", conversation_id="c")
    assert (
        _texts(cache.live("c"))
        == _stored(memoir, "c")
        == ["The user's cat is Tom, a tabby", "The user's sister is Ana"]
    )

    memoir.reindex()  # a new index generation: every scope is read again
    facts = cache.live("c")
    assert _texts(facts) == _stored(memoir, "c")
    assert _texts(cache.live("elsewhere")) == ["The user lives in Oslo"]


def test_in_unified_mode_a_scope_is_one_agents_facts(
    open_memoir: Callable[..., Memoir], fresh_store: Callable[[], dict[str, str]]
) -> None:
    memoir = open_memoir(embedding_provider="hashing", multi_agent_mode="unified", **fresh_store())
    memoir.remember("The user's dog is Rex", conversation_id="c", agent_id="ada")
    memoir.remember("The user's cat is Tom", conversation_id="c", agent_id="bob")
    cache = FactCache(memoir._parts.store, unified=True)
    assert _texts(cache.live("c", "ada")) == ["The user's dog is Rex"]
    assert _texts(cache.live("c", "bob")) == ["The user's cat is Tom"]
    memoir.remember("The user's dog is Max", conversation_id="c", agent_id="bob")
    assert _texts(cache.live("c", "ada")) == ["The user's dog is Rex"]
    assert _texts(cache.live("c", "bob")) == ["The user's cat is Tom", "The user's dog is Max"]


def test_the_least_recently_asked_scope_goes_first(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    for conversation in "abc":
        memoir.remember(
            f"The user's code for {conversation} is {conversation}{conversation}", conversation_id=conversation
        )
    cache = FactCache(memoir._parts.store, unified=False, max_scopes=2)
    first = cache.live("a")
    cache.live("b")
    assert cache.live("a") is first
    cache.live("c")  # "b" goes
    assert cache.live("a") is first
    assert _texts(cache.live("b")) == ["The user's code for b is bb"]
