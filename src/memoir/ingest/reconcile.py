"""Reconciliation by a model: what new facts do to the memories a scope already holds (seed 004, 4.3).

The rules decide first (`rule_decisions.reconcile_by_rules`); a model, when configured, is asked
about the facts the rules would add, beside the nearest existing memories renumbered
0..n-1 (short ids it cannot confuse), and answers every memory with an event: ADD,
UPDATE (the same topic with new content: the old one becomes a tombstone with
`replaced_by`), DELETE (contradicted) or NONE.

Its answer is read as meant where a small model's mistake is plain, item by item: an ADD
or UPDATE carrying an existing memory's own words says that memory stays (NONE); an
UPDATE or NONE of id "new" is an ADD; a text that is not quite a new fact's words is the
new fact it is closest to; an item naming an unknown id, an unknown event or no fact at
all is dropped, and only an answer with nothing usable in it is asked again.

What the model may change is guarded (the reference's PR #109: models answer UPDATE for
unrelated topics, which would silently destroy a memory): an UPDATE is carried out only
when the old and new text share a content word other than "user", and an UPDATE or
DELETE only for a message that says something changed or a new value on the old one's
topic. So with any model memoir ends with the rules' facts at least (`job`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memoir.index.keyword import terms
from memoir.ingest.answers import is_placeholder
from memoir.ingest.lexicon import word_list
from memoir.ingest.rule_decisions import Decision, reconcile_by_rules
from memoir.ingest.stemming import stems
from memoir.llm import ChatClient
from memoir.model.memory import Memory, normalise_content

__all__ = [
    "RECONCILIATION_SCHEMA",
    "UPDATE_MEMORY_PROMPT",
    "Decision",
    "read_decisions",
    "reconcile_by_rules",
    "reconcile_with_llm",
    "same_topic",
]

UPDATE_MEMORY_PROMPT = """You keep a user's memory up to date. You get the EXISTING memories (with ids)
and NEW facts. Return every memory, existing and new, each with one event:
- "ADD": a new fact that is not in the existing memories (give it id "new")
- "UPDATE": an existing memory about the SAME topic whose content the new fact changes (keep its id, give the new text)
- "DELETE": an existing memory the new facts explicitly contradict
- "NONE": an existing memory that is unrelated to the new facts, or a new fact that is an exact duplicate
Never UPDATE a memory about a different topic: ADD the new fact and leave the other memory as NONE.
Every existing memory must appear exactly once, and every new fact must appear (ADD or UPDATE) unless
an existing memory already says it. ADD and UPDATE carry the new fact's text word for word.
Answer with JSON only: an object whose one key "memory" holds a list of objects with the keys
"id" (an existing id, or "new" for an ADD), "text" and "event"."""

# A worked example, sent as an earlier turn: with it a 0.5B model lists the existing memories under their
# own ids and the new facts under "new" (without it, it numbered the new facts as existing ones).
RECONCILIATION_EXAMPLE = (
    {
        "existing": [{"id": "0", "text": "The user lives in Lyon"}, {"id": "1", "text": "The user has a cat"}],
        "new_facts": ["The user lives in Nice now", "The user plays chess"],
    },
    {
        "memory": [
            {"id": "0", "text": "The user lives in Nice now", "event": "UPDATE"},
            {"id": "1", "text": "The user has a cat", "event": "NONE"},
            {"id": "new", "text": "The user plays chess", "event": "ADD"},
        ]
    },
)
EVENTS = ("ADD", "UPDATE", "DELETE", "NONE")
RECONCILIATION_SCHEMA = {  # small: a server's grammar compiler must never choke on it (no enums, no bounds)
    "type": "object",
    "properties": {
        "memory": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "text": {"type": "string"}, "event": {"type": "string"}},
                "required": ["id", "text", "event"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["memory"],
    "additionalProperties": False,  # OpenAI's strict mode wants it; no grammar compiler minds it
}
CLOSE = 0.5  # share of a new fact's words a rewritten text must hold to be read as that fact


# Said of anything counted or dated ("Sota is 4 years", "the juniper is 60 years old"): they tie no two facts.
_NOT_A_TOPIC = frozenset(
    word_list("user users the year years month months week weeks day days hour hours minute minutes time times old")
)


def same_topic(old: str, new: str) -> bool:
    """Do two facts share a content word besides "user" and units? (The guard against unrelated UPDATEs.)"""
    return bool((set(terms(old)) - _NOT_A_TOPIC) & (set(terms(new)) - _NOT_A_TOPIC))


def reconcile_with_llm(client: ChatClient, new_facts: Sequence[str], existing: Sequence[Memory]) -> list[Decision]:
    """The model's decisions on `new_facts` against `existing`, read leniently (`read_decisions`)."""
    if not existing:  # seed 004: with nothing to compare, new facts are added directly
        return [Decision("ADD", fact, source="llm", reconciled_by="llm") for fact in new_facts]
    payload = {
        "existing": [{"id": str(i), "text": m.content} for i, m in enumerate(existing)],
        "new_facts": list(new_facts),
    }
    shown, answered = RECONCILIATION_EXAMPLE
    messages = [
        {"role": "system", "content": UPDATE_MEMORY_PROMPT},
        {"role": "user", "content": json.dumps(shown)},
        {"role": "assistant", "content": json.dumps(answered)},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]
    return client.complete_json(
        messages,
        lambda value: read_decisions(value, new_facts, existing),
        schema=RECONCILIATION_SCHEMA,
        purpose="reconciliation",
    )


def read_decisions(value: Any, new_facts: Sequence[str], existing: Sequence[Memory]) -> list[Decision]:
    """The usable decisions of an answer (see the module's docstring); ValueError when none is."""
    items = value.get("memory") if isinstance(value, dict) else value
    if not isinstance(items, list):
        raise ValueError('expected {"memory": [...]}')
    decisions: list[Decision] = []
    problems: list[str] = []
    for item in items:
        decision = _decision(item, new_facts, existing, problems)
        if decision is not None and decision.event != "NONE":
            decisions.append(decision)
    if items and len(problems) == len(items):
        raise ValueError(
            f"no item could be used ({problems[0]}): existing ids are {list(map(str, range(len(existing))))}"
        )
    return decisions


def _decision(
    item: object, new_facts: Sequence[str], existing: Sequence[Memory], problems: list[str]
) -> Decision | None:
    """One item of an answer as the decision it means, or None (its problem noted) when it means none."""
    if not isinstance(item, dict) or not isinstance(item.get("text"), str):
        problems.append(f"{str(item)[:80]!r} is not an object with an id, a text and an event")
        return None
    event, text = str(item.get("event", "")).strip().upper(), item["text"]
    memory_id = str(item.get("id", "new")).strip()
    if event not in EVENTS or (is_placeholder(text) and event in ("ADD", "UPDATE")):
        problems.append(f"event {event!r} with text {text[:60]!r} says nothing")
        return None
    index = int(memory_id) if memory_id.isdigit() and int(memory_id) < len(existing) else None
    if memory_id != "new" and index is None:
        problems.append(f"unknown id {memory_id!r}")
        return None  # an id that was never shown
    said = normalise_content(text)
    own = next((m for m in existing if normalise_content(m.content) == said), None)
    if own is not None and event in ("ADD", "UPDATE"):
        return Decision("NONE", own.content, own.id)  # an existing memory listed with its own words: it stays
    if index is None:  # "new": whatever the event, a new fact to add (NONE and UPDATE of "new" are ADDs)
        fact = _new_fact(text, new_facts)
        if fact is None:
            problems.append(f"{text[:60]!r} is not one of the new facts")
            return None
        return Decision("ADD", fact, source="llm", reconciled_by="llm")
    old = existing[index]
    if event in ("NONE", "DELETE"):
        return Decision(event, old.content, old.id, reconciled_by="llm")
    fact = _new_fact(text, new_facts)
    if fact is None:
        problems.append(f"{text[:60]!r} is not one of the new facts")
        return None
    if event == "ADD":
        return Decision("ADD", fact, reconciled_by="llm")
    return Decision("UPDATE", fact, old.id, reconciled_by="llm")


def _new_fact(text: str, new_facts: Sequence[str]) -> str | None:
    """The new fact a text carries: word for word, or the one holding most of its words."""
    said = normalise_content(text)
    for fact in new_facts:
        if normalise_content(fact) == said:
            return fact
    own = stems(text)
    scored = [(len(own & stems(f)) / max(1, len(stems(f))), f) for f in new_facts]
    best = max(scored, default=(0.0, ""))
    return best[1] if best[0] >= CLOSE else None
