"""Fact extraction from user messages: the rules always, a model (seed 004, 5.1) on top when one is set.

Only the user's own words are read (assistant text is ignored, as in the reference). The
rules (`rules`, `changes`) read every message; a model, when configured, is asked only
about messages that say something in the first person, and what it adds is kept only
where it is stated in the message and not said already by a rule's fact (`answers`).

The prompt shows a small model what to do with three worked examples rather than a
template to fill in: a 0.5B model copies a template's placeholders (`"..."`), and copies
an example's facts far less once each is checked against the message.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from typing import Any

from memoir.ingest.answers import usable_facts
from memoir.ingest.rules import Statement, statements
from memoir.ingest.sentences import sentences
from memoir.llm import ChatClient

__all__ = ["FACTS_SCHEMA", "FACT_SYSTEM_PROMPT", "extract_by_rules", "extract_with_llm", "worth_extracting"]

MAX_FACTS = 5

FACT_SYSTEM_PROMPT = """You pick out what the user says about themselves in their latest message: facts about \
their life, work, family, pets, plans, preferences and habits, and what changed.
Write each fact as one short sentence about "the user". Leave out questions, greetings, thanks, feelings about \
the chat and anything the user only asks about. If there is nothing, give an empty list.
Answer with JSON only: {"facts": [sentences]}"""
# Worked examples, sent as earlier turns: a small model follows a shown answer better than a described one.
FACT_EXAMPLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "I'm Ana, I teach maths in Porto and my dog Rex is 5.",
        ("The user's name is Ana", "The user teaches maths in Porto", "The user's dog Rex is 5"),
    ),
    ("Thanks! What should I cook tonight?", ()),
    ("Actually we moved, I live in Lyon now.", ("The user lives in Lyon now",)),
)
# Small on purpose: no length bounds, enums or nesting that a server's grammar compiler may choke on
# (llama-cpp-python dies compiling a long maxLength); lengths and counts are checked after the answer.
FACTS_SCHEMA = {
    "type": "object",
    "properties": {"facts": {"type": "array", "items": {"type": "string"}}},
    "required": ["facts"],
    "additionalProperties": False,  # OpenAI's strict mode wants it; no grammar compiler minds it
}

_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|our|us)\b", re.IGNORECASE)


def worth_extracting(text: str) -> bool:
    """Does the message state anything in the first person (where a model finds facts the rules may not)?

    Questions state nothing ("Is my backend language Python?"): only statements count.
    """
    return any(_FIRST_PERSON.search(s.said) for s in sentences(text))


def extract_by_rules(text: str) -> list[str]:
    """The facts the rules read in a message, in the third person (the rules' part of extraction)."""
    return [s.text for s in statements(text)]


def fact_messages(text: str) -> list[dict[str, str]]:
    """The extraction request: the instructions, the worked examples as earlier turns, the message."""
    messages = [{"role": "system", "content": FACT_SYSTEM_PROMPT}]
    for said, facts in FACT_EXAMPLES:
        messages.append({"role": "user", "content": said})
        messages.append({"role": "assistant", "content": json.dumps({"facts": list(facts)})})
    messages.append({"role": "user", "content": text})
    return messages


def extract_with_llm(
    client: ChatClient,
    text: str,
    ruled: Sequence[Statement] = (),
    taken_back: Sequence[str] = (),
    known: Collection[str] = (),
) -> list[str]:
    """The model's facts for a message that the rules' `ruled` do not say already, each checked (`answers`).

    `taken_back`: what the rules read as no longer holding; a fact that says it again is dropped.
    `known`: the names and stems of the known facts (a named subject must be one, or the user's).

    A whole answer that is not `{"facts": [...]}` is asked again once, then `ModelOutputError`; a bad
    fact in a good answer costs that fact only.
    """

    def read(value: Any) -> list[str]:
        items = value.get("facts") if isinstance(value, dict) else value
        if not isinstance(items, list):
            raise ValueError('expected {"facts": [sentences]}')
        return usable_facts(items, text, ruled, taken_back, known)[:MAX_FACTS]

    return client.complete_json(fact_messages(text), read, schema=FACTS_SCHEMA, purpose="fact extraction")
