"""What the sentence of a change says of the value it replaced, which is not kept (decision 118): "Marcus left
for Amazon, my new lead is Hannah", "Eko Hotel was fully booked, so we went with The Lagoon Garden"."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from memoir.ingest.fact_words import subject_of
from memoir.ingest.known import Decision, Known
from memoir.ingest.lexicon import word_list
from memoir.ingest.losses import DIED

__all__ = ["without_the_old_story"]


def _gone(decisions: Sequence[Decision], before: dict[str, str]) -> set[str]:
    """The names the facts a sentence replaced held and their new text does not ("Marcus" of a lead now Hannah);
    a fact taken back leaves its subject ("Lwazi" of "Lwazi plays cricket")."""
    gone: set[str] = set()
    for decision in decisions:
        if decision.event in ("UPDATE", "DELETE") and decision.memory_id in before:
            old = before[decision.memory_id]
            left = _names(decision.text) if decision.event == "UPDATE" else _names(subject_of(old).title())
            gone |= _names(old) - left
    return gone


def without_the_old_story(
    said: list[Decision],
    changed: list[Decision],
    before: dict[str, str],
    live: list[Known],
    by_model: bool = False,
    departed: Collection[str] = (),
) -> list[Decision]:
    """What the sentence of a change says of the value it replaced is the old value's story, not a fact to keep:
    "Marcus left for Amazon, my new lead is Hannah", "Eko Hotel was fully booked, so we went with The Lagoon
    Garden" (the event log keeps every word of it). `by_model`: the facts are a model's, of the user's too;
    `departed`: whom an earlier sentence of the message took away ("Marcus told me he's leaving")."""
    gone = _gone(changed + said, before) | set(departed)
    kept = []
    for decision in said:
        # "my boss Tom retired" says who Tom was, not who he is: no relation is named anew of whom is gone
        theirs = by_model or not _OF_THE_USER.match(decision.text) or _RELATION_NAMED.match(decision.text) is not None
        kept_on = _STILL.search(decision.text) or DIED.search(decision.text)  # a death is news, not an old story
        if decision.event == "ADD" and theirs and _names(decision.text) & gone and not kept_on:
            live[:] = [k for k in live if not (k.id is None and k.text == decision.text)]
            continue
        kept.append(decision)
    return kept


_OF_THE_USER = re.compile(r"^the user\b", re.I)
_RELATION_NAMED = re.compile(r"^the user's [\w-]+(?: [\w-]+)? is (?-i:[A-Z])[\w'-]+(?: (?-i:[A-Z])[\w'-]+)*$", re.I)
# What still holds of them beside the change: "Marcus is still my mentor though", "Dana coaches the under-12s instead"
_STILL = re.compile(r"\b(?:still|instead|as well|also|too(?=\s*(?:$|[,.;!])))\b", re.I)  # not "too choked"
# a title is no name: "Dr Okafor is taking over" tells nothing of the "Dr Hebert" it replaces
_NOT_NAMES = frozenset(word_list("the user user's dr mr mrs ms miss prof professor"))


def _names(text: str) -> set[str]:
    """The names a fact holds: its capitalised words, but for "The user"."""
    found = {w.lower().removesuffix("'s") for w in re.findall(r"\b(?-i:[A-Z])[\w'-]*", text.replace("’", "'"))}
    return found - _NOT_NAMES
