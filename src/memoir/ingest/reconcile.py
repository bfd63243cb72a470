"""Reconciliation: decide what new facts do to the memories a scope already holds (seed 004, 4.3).

The model sees the nearest existing memories, renumbered 0..n-1 (short ids it cannot
confuse), and the new facts, and must return *every* memory with an event:
ADD (new), UPDATE (same topic, new content: the old one becomes a tombstone with
`replaced_by`), DELETE (contradicted) or NONE. Answers naming unknown ids are rejected
(and asked again once), and so are answers whose ADD or UPDATE text is not one of the
new facts (a copied placeholder such as "...") or that leave a new fact unaccounted for
(`answers.check_reconciliation`); after a second bad answer the rules decide the turn.

Guard (the reference's PR #109): models answer UPDATE for unrelated topics, which
would silently destroy a memory. An UPDATE is only carried out when the old and new
text share a content word other than "user"; otherwise the old memory stays and the
new text is added. A DELETE needs the same: a new fact on the memory's topic.

Without an LLM, the rules decide: the same content is NONE, a fact filling the same slot
as an existing one ("The user's wife is ...") is an UPDATE, anything else an ADD.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memoir.index.keyword import terms
from memoir.ingest.answers import check_reconciliation
from memoir.llm import ChatClient
from memoir.model.memory import Memory, normalise_content

__all__ = ["UPDATE_MEMORY_PROMPT", "Decision", "reconcile_by_rules", "reconcile_with_llm", "same_topic"]

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

EVENTS = ("ADD", "UPDATE", "DELETE", "NONE")


@dataclass(frozen=True)
class Decision:
    event: str  # ADD, UPDATE, DELETE or NONE
    text: str
    memory_id: str | None = None  # the existing memory concerned (UPDATE, DELETE, NONE)


def same_topic(old: str, new: str) -> bool:
    """Do two facts share a content word besides "user"? (The guard against unrelated UPDATEs.)"""
    ignore = {"user", "users", "the"}
    return bool((set(terms(old)) - ignore) & (set(terms(new)) - ignore))


_SLOT = re.compile(r"^(the user's [\w' -]+?) (?:is|are|was|were) ", re.IGNORECASE)


def _slot(fact: str) -> str | None:
    match = _SLOT.match(fact.strip())
    return match.group(1).lower() if match else None


def reconcile_by_rules(new_facts: Sequence[str], existing: Sequence[Memory]) -> list[Decision]:
    decisions: list[Decision] = []
    for fact in new_facts:
        if any(normalise_content(m.content) == normalise_content(fact) for m in existing):
            continue  # already known: nothing to do
        slot = _slot(fact)
        replaced = next((m for m in existing if slot is not None and _slot(m.content) == slot), None)
        if replaced is not None:
            decisions.append(Decision("UPDATE", fact, replaced.id))
        else:
            decisions.append(Decision("ADD", fact))
    return decisions


def decisions_schema(new_facts: Sequence[str], existing: Sequence[Memory]) -> dict[str, Any]:
    """The answer's shape as a strict JSON schema: ids limited to those in the prompt and "new",
    texts to the new facts and the existing memories' texts, so a server that constrains its
    output (llama.cpp, Ollama, vLLM) cannot send a placeholder or an invented fact at all."""
    texts = list(dict.fromkeys([*new_facts, *(m.content for m in existing)]))
    item = {
        "type": "object",
        "properties": {
            "id": {"type": "string", "enum": [*(str(i) for i in range(len(existing))), "new"]},
            "text": {"type": "string", "enum": texts},
            "event": {"type": "string", "enum": list(EVENTS)},
        },
        "required": ["id", "text", "event"],
        "additionalProperties": False,
    }
    memory = {"type": "array", "items": item}
    return {"type": "object", "properties": {"memory": memory}, "required": ["memory"], "additionalProperties": False}


def _validator(new_facts: Sequence[str], existing: Sequence[Memory]) -> Any:
    known = {str(i) for i in range(len(existing))}

    def validate(value: Any) -> list[dict[str, str]]:
        items = value.get("memory") if isinstance(value, dict) else value
        if not isinstance(items, list):
            raise ValueError('expected {"memory": [...]}')
        checked = []
        for item in items:
            if not isinstance(item, dict) or item.get("event") not in EVENTS or not isinstance(item.get("text"), str):
                raise ValueError(f"each memory needs an id, a text and an event in {EVENTS}: {item!r}")
            memory_id = str(item.get("id", "new"))
            if memory_id == "new" and item["event"] in ("UPDATE", "NONE"):
                # A small model's way of saying ADD (seen from Qwen2.5 0.5B): a new fact with no
                # memory to change is added; the checks below still want its words to be a new fact's.
                item = {**item, "event": "ADD"}
            if item["event"] != "ADD" and memory_id not in known:
                raise ValueError(f"unknown id {memory_id!r}: existing ids are {sorted(known)}")
            checked.append({"id": memory_id, "text": item["text"].strip(), "event": item["event"]})
        check_reconciliation(checked, new_facts, existing)
        return checked

    return validate


def reconcile_with_llm(client: ChatClient, new_facts: Sequence[str], existing: Sequence[Memory]) -> list[Decision]:
    if not existing:  # seed 004: with nothing to compare, new facts are added directly
        return [Decision("ADD", fact) for fact in new_facts]
    payload = {
        "existing": [{"id": str(i), "text": m.content} for i, m in enumerate(existing)],
        "new_facts": list(new_facts),
    }
    messages = [
        {"role": "system", "content": UPDATE_MEMORY_PROMPT},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]
    decisions: list[Decision] = []
    schema = decisions_schema(new_facts, existing)
    answer = client.complete_json(messages, _validator(new_facts, existing), schema=schema)
    for item in answer:
        old = existing[int(item["id"])] if item["event"] != "ADD" else None
        if item["event"] == "UPDATE" and old is not None and not same_topic(old.content, item["text"]):
            decisions.append(Decision("ADD", item["text"]))  # the PR #109 guard: keep the unrelated memory
        elif item["event"] == "DELETE" and old is not None and not any(same_topic(old.content, f) for f in new_facts):
            continue  # the same guard for DELETE: only a new fact on the same topic can contradict a memory
        elif (
            item["event"] == "UPDATE"
            and old is not None
            and normalise_content(old.content) == normalise_content(item["text"])
        ):
            continue  # an "update" to the same words changes nothing
        elif item["event"] != "NONE" and item["text"]:
            decisions.append(Decision(item["event"], item["text"], old.id if old else None))
    return decisions
