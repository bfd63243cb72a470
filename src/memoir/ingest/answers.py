"""What a model's answer must be before memoir acts on it: no placeholders, no invented facts, none lost.

Small local models copy the example of a prompt (`"text": "..."`), repeat the user's
sentence in the first person, state as fact what the user only asked, and leave new
facts out of a list they were asked to complete. Each check here raises ValueError
saying what is wrong, which `ChatClient.complete_json` quotes back to the model for one
corrective retry; a second bad answer hands the whole turn to the rules (never half).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memoir.index.keyword import terms
from memoir.model.memory import Memory, normalise_content

__all__ = ["check_facts", "check_reconciliation", "is_placeholder", "supported_by"]

_NOT_CONTENT = {"user", "users", "the", "named", "called", "name"}
_FIRST_PERSON_START = re.compile(r"^(?:i|i'm|i've|i'd|my|me|we|we're|our)\b", re.IGNORECASE)
# Anywhere in a fact: "... so I'll be offline that weekend" (case matters: "US" is not "us").
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I'll|I've|I'd|[Mm]y|[Mm]e|[Ww]e|[Ww]e're|[Oo]ur|us)\b")
SPECIFIC = re.compile(r"\b(?:[A-Z][\w-]*|\d[\d.,:]*)")  # words with a capital (names), numbers
_TAUTOLOGY = re.compile(r"^(?P<x>.+?) (?:is|are|was|were) (?:named |called )?(?P=x)[.!]?$", re.IGNORECASE)
_PLACEHOLDERS = {"", "...", "…", "n/a", "na", "none", "null", "text", "fact", "new", "tbd", "todo"}


def is_placeholder(text: str) -> bool:
    """Text that says nothing: dots, "none", a word from a prompt's template."""
    return normalise_content(text).strip(" .…\"'") in _PLACEHOLDERS


def supported_by(fact: str, message: str) -> bool:
    """Does the message say what `fact` claims: most of its content words, and every name and number of it?

    Names and numbers are what a model invents ("The user's backend language is Python"
    from "Is my backend language Go?"): each must appear in the message. A real 0.5B model
    also embroiders ("The app uses advanced machine learning algorithms" from "a
    tide-prediction app"): at least half of the fact's content words must be the
    message's, compared by their first five letters (a plural's "s" aside), so "prefers"
    matches "prefer" and "keeps" "keep".
    """
    said = message.lower()
    specifics = [w for w in SPECIFIC.findall(fact)[1:] if w.lower() not in _NOT_CONTENT]  # [0]: the sentence start
    if any(w.lower() not in said for w in specifics):
        return False
    claimed = [w for w in terms(fact) if w not in _NOT_CONTENT]
    stems = {_stem(w) for w in terms(message)}
    found = sum(1 for w in claimed if _stem(w) in stems)
    return found > 0 and 2 * found >= len(claimed)


def _stem(word: str) -> str:
    """Enough of a word to match its forms: "prefers"/"prefer", "keeps"/"keep", "tides"/"tide"."""
    return (word[:-1] if word.endswith("s") and len(word) > 3 else word)[:5]


def check_facts(facts: Sequence[str], message: str) -> list[str]:
    """The facts of an extraction answer, each checked against the message; ValueError names the first bad one."""
    for fact in facts:
        if is_placeholder(fact):
            raise ValueError(f"{fact!r} is not a fact: write the fact itself")
        if _TAUTOLOGY.match(fact.strip()):
            raise ValueError(f"{fact!r} says nothing: say what the user stated about whom")
        if _FIRST_PERSON_START.match(fact.strip()) or _FIRST_PERSON.search(fact):
            raise ValueError(f"{fact!r} repeats the user's words: write it about 'the user', in the third person")
        if not supported_by(fact, message):
            raise ValueError(f"{fact!r} is not stated in the user's message")
    return list(facts)


def check_reconciliation(items: list[dict[str, str]], new_facts: Sequence[str], existing: Sequence[Memory]) -> None:
    """Every ADD or UPDATE carries one of the new facts, and every new fact is accounted for.

    A new fact is accounted for when an ADD or an UPDATE carries its text, or when an
    existing memory already says it (then NONE is right).
    """
    wanted = {normalise_content(f): f for f in new_facts}
    carried = set()
    for item in items:
        if item["event"] in ("ADD", "UPDATE"):
            said = normalise_content(item["text"])
            if is_placeholder(item["text"]) or said not in wanted:
                raise ValueError(f"{item['event']} must carry one of the new facts word for word, not {item['text']!r}")
            carried.add(said)
    known = {normalise_content(m.content) for m in existing}
    missing = [fact for said, fact in wanted.items() if said not in carried and said not in known]
    if missing:
        raise ValueError(f"the new fact {missing[0]!r} is missing: ADD it, or UPDATE the memory it changes")
