"""Fact extraction from user messages: the LLM (seed 004, 5.1), or rules as the fallback.

Only the user's own words are read (assistant text is ignored, as in the reference).
A cheap gate first: a message with nothing first-person in it ("Thanks!", "What time is
it?") states no fact about the user, so neither the LLM nor the rules are asked.
"""

from __future__ import annotations

import re
from typing import Any

from memoir.ingest.answers import check_facts
from memoir.llm import ChatClient

__all__ = ["FACT_SYSTEM_PROMPT", "extract_by_rules", "extract_with_llm", "worth_extracting"]

MAX_FACTS = 3

FACT_SYSTEM_PROMPT = """You extract facts about the user from the user's latest message.
Return 0 to 3 short, atomic, standalone facts, each understandable without the message,
written in the third person about "the user" (example: "My wife is Anne" -> "The user's wife is named Anne").
Only facts the user states about themselves, their life, preferences, plans or work; nothing from
questions, greetings, thanks or acknowledgements. If there is nothing, return an empty list.
Answer with JSON only: an object whose one key "facts" holds the list of fact strings."""

_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|our|us)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")

# (pattern, template): first-person statements the rules understand. Order matters.
_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^my name is (?P<x>.+)$", re.I), "The user's name is {x}"),
    (re.compile(r"^call me (?P<x>.+)$", re.I), "The user's name is {x}"),
    (re.compile(r"^my (?P<what>[\w' -]{1,40}?) (?P<verb>is|are|was) (?P<x>.+)$", re.I), "The user's {what} {verb} {x}"),
    (
        re.compile(
            r"^i(?: a|')m (?P<x>(?:allergic|vegan|vegetarian|married|single|divorced|based|from|a|an|the) .+)$", re.I
        ),
        "The user is {x}",
    ),
    (re.compile(r"^i (?P<verb>live|work|study|grew up) (?P<x>(?:in|at|for|as|on) .+)$", re.I), "The user {verb}s {x}"),
    (
        re.compile(
            r"^i (?P<verb>like|love|hate|prefer|enjoy|dislike|own|have|use|speak|drive|play)"
            r" (?P<x>.+)$",
            re.I,
        ),
        "The user {verb}s {x}",
    ),
    (re.compile(r"^i(?:'m| am) (?P<x>\w+ing .+)$", re.I), "The user is {x}"),
    (re.compile(r"^we(?:'re| are) (?P<x>\w+ing .+)$", re.I), "The user and their team are {x}"),
    (re.compile(r"^[Ii](?:'m| am) (?P<x>[A-Z][\w-]+)$"), "The user's name is {x}"),
    (re.compile(r"^my (?P<x>[\w' -]+ .+)$", re.I), "The user's {x}"),
]
_SKIP = re.compile(
    r"^(i(?:'m| am) (?:not )?(?:sure|sorry|glad|happy|fine|ok|okay|good|great|here|back|done|just)"
    r"|i (?:think|guess|mean|see|know|wonder|hope)"
    r"|my (?:bad|pleasure|apologies|god|goodness|turn))\b",
    re.I,
)
# Clauses joined to a statement: "I'm allergic to peanuts, so no snacks" keeps the first.
_CLAUSE = re.compile(r",\s*(?:so|but|because|which|and then)\s+|\s+and (?=I\b|my\b)|\s*[:;]\s+", re.I)
_LEADING = re.compile(
    r"^(?:(?:also|and|but|so|oh|well|by the way|btw|actually|anyway|ok|okay|sorry|correction|wait|no),?\s+)+", re.I
)


def worth_extracting(text: str) -> bool:
    """Does the message state anything in the first person (the only place facts about the user are)?

    Questions state nothing ("Is my backend language Python?"): only sentences that do not
    end with a question mark count.
    """
    statements = [s for s in _SENTENCE.findall(text) if not s.strip().endswith("?")]
    return any(_FIRST_PERSON.search(s) for s in statements)


def _clean(text: str) -> str:
    return " ".join(text.split()).strip(" ,;:-")


def _third_person(x: str) -> str:
    swaps = {
        r"\bmy\b": "their",
        r"\bme\b": "them",
        r"\bmyself\b": "themselves",
        r"\bI\b": "they",
        r"\bi'm\b": "they're",
    }
    for pattern, replacement in swaps.items():
        x = re.sub(pattern, replacement, x, flags=re.IGNORECASE)
    return x


def extract_by_rules(text: str) -> list[str]:
    """Facts from first-person statements, by pattern: the fallback when no LLM answers."""
    facts: list[str] = []
    for raw in _SENTENCE.findall(text):
        if raw.strip().endswith("?"):
            continue
        for clause in _CLAUSE.split(raw):
            fact = _fact_from(_LEADING.sub("", _clean(clause)).rstrip(".!"))
            if fact and fact not in facts:
                facts.append(fact)
        if len(facts) >= MAX_FACTS:
            break
    return facts[:MAX_FACTS]


def _fact_from(sentence: str) -> str | None:
    if not sentence or _SKIP.match(sentence):
        return None
    for pattern, template in _RULES:
        match = pattern.match(sentence)
        if match:
            parts = {k: _third_person(_clean(v)) for k, v in match.groupdict().items()}
            if "verb" in parts:  # third-person singular: have -> has, study -> studies
                parts["verb"] = {"have": "ha", "study": "studie"}.get(parts["verb"].lower(), parts["verb"].lower())
            fact = template.format(**parts)
            return fact[0].upper() + fact[1:]
    return None


def _facts(value: Any) -> list[str]:
    items = value.get("facts") if isinstance(value, dict) else value
    if not isinstance(items, list) or not all(isinstance(f, str) for f in items):
        raise ValueError('expected {"facts": [strings]}')
    return [f.strip() for f in items if f.strip()][:MAX_FACTS]


# The answer's shape, sent as a strict JSON schema: a server that takes it can answer nothing else.
FACTS_SCHEMA = {
    "type": "object",
    "properties": {
        "facts": {"type": "array", "items": {"type": "string", "minLength": 3}, "maxItems": MAX_FACTS},
    },
    "required": ["facts"],
    "additionalProperties": False,
}


def extract_with_llm(client: ChatClient, text: str) -> list[str]:
    """The model's facts for a message, each checked against it (`answers.check_facts`)."""
    messages = [{"role": "system", "content": FACT_SYSTEM_PROMPT}, {"role": "user", "content": text}]
    return client.complete_json(messages, lambda value: _checked(value, text), schema=FACTS_SCHEMA)


def _checked(value: Any, text: str) -> list[str]:
    facts = check_facts(_facts(value), text)
    if not facts and (stated := extract_by_rules(text)):  # small models drop facts: none is not an answer here
        raise ValueError(f"the message states a fact ({stated[0]!r}), and the answer lists none")
    return facts
