"""What is left of a known fact when a change takes part of it: one thing of a list ("we cut Hiroshima" of Kyoto
and Hiroshima), a part after a comma ("took me off the old pill" of "has type 2 diabetes, been on metformin"), a
value's phrase (`without_value`); and of a new statement, its clause about the value it replaced, the part up to
the clause after its new value (`up_to_value`), and what its new count counts (`counted_by`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from memoir.ingest.fact_words import (
    alike_stems,
    mentions,
    subject_of,
    taken_words,
    takes_back,
    with_aliases,
)
from memoir.ingest.statement import Statement
from memoir.ingest.stemming import stems
from memoir.ingest.values import Value, values

__all__ = ["counted_by", "one_of_list", "up_to_value", "without_the_old", "without_value"]


def one_of_list(text: str, retracted: Sequence[str]) -> str | None:
    """A fact without the one of its listed things a clause took back: "The user is visiting Kyoto in May" of
    "… Kyoto and Hiroshima in May" after "we cut Hiroshima", "The user is doing gym 4 times a week" of "… doing
    intermittent fasting and gym …" after "the fasting thing is out the window" (None: none of them)."""
    for clause in retracted:
        for value in (v.text.split() for v in values(clause) if v.kind in ("name", "place")):
            for name in (" ".join(value[i:]) for i in range(len(value))):  # "Dropped Florence": Florence
                n = re.escape(name)
                # (the next of a list, "Kyoto, Hiroshima", or what it is, "BrightHouse, an ad agency"; not what is said
                # of it: "is Gary, been doing am-dram")
                cut = re.sub(
                    rf"(?:,\s*|\s+and\s+){n}\b|\b{n}(?:,\s*(?=(?-i:[A-Z])|(?:a|an|the)\s)|\s+and\s+)",
                    " ",
                    text,
                    count=1,
                )
                if cut != text:
                    return " ".join(cut.split()).replace(" ,", ",")
    said = [found for clause in retracted if (found := taken_words(clause)) is not None]
    head, *parts = re.split(r",\s+", text)  # "… has type 2 diabetes, been on metformin" of "took me off the old pill"
    kept = [p for p in parts if not any(takes_back(w, stems(p)) for w in said)]
    if len(kept) < len(parts) and not any(alike_stems(w[0], with_aliases(stems(head))) for w in said):
        return ", ".join([head, *kept])
    both = _TWO_DOINGS.match(text)  # "doing intermittent fasting and gym 4 times a week", "the fasting thing is out"
    taken = [w[0] for w in said]
    if both is None or not taken:
        return None
    qualified = _QUALIFIED.match(both.group("b"))
    second, qualifier = (qualified.group("item"), qualified.group("rest")) if qualified else (both.group("b"), "")
    first, then = stems(both.group("a")), stems(second)
    for words in (w - stems(both.group("head")) for w in taken):
        if words <= first and not words & then:
            return f"{both.group('head')} {both.group('b')}"
        if words <= then and not words & first:  # "tennis and squash on Mondays": tennis, still on Mondays
            return f"{both.group('head')} {both.group('a')}{qualifier}"
    return None


# The last thing of a list, and what is said of the whole list after it ("squash" and " on Mondays")
_QUALIFIED = re.compile(
    r"^(?P<item>.+?)(?P<rest>(?:\s+(?:on|in|at|every|each|twice|once|with|for|during|\d+\s+times)\b.*)?)$", re.I
)


_TWO_DOINGS = re.compile(r"^(?P<head>the user (?:is |are |was )?\w+) (?P<a>[^,]+?) and (?P<b>[^,]+)$", re.I)


def without_the_old(statement: Statement, old: Sequence[str]) -> Statement:
    """A statement without its parts that say why an old value went: "The user installed ubuntu 22.04, windows
    was too slow" is the new system; the old one's story is in the event log."""
    head, *parts = re.split(r",\s+", statement.text)
    kept = [p for p in parts if not any(mentions(p, o) for o in old)]
    if len(kept) == len(parts) or any(mentions(head, o) for o in old):
        return statement
    return replace(statement, text=", ".join([head, *kept]))


def without_value(text: str, old: str) -> str | None:
    """A fact without the phrase that holds a value ruled out, when it says more than that: "The user uses
    python 3.9 on windows 10, with VS Code" after "windows was too slow" still uses python 3.9 and VS Code.
    None: the value is no phrase of its own ("uses Trello for everything"), or nothing is left of what the
    fact says of its subject."""
    phrase = re.compile(
        rf"\s+(?:on|in|at|with|using|from)\s+(?:the\s+|a\s+|an\s+)?{re.escape(old)}(?:\s+v?\d+(?:\.\d+)*)?(?=,|$)",
        re.I,
    )
    found = phrase.search(text)
    if found is None:
        return None
    left = text[: found.start()] + text[found.end() :]
    head = left.split(",")[0]
    if re.search(r"\b(?:is|are|was|were|has|have)$", head) or not stems(head) - stems(subject_of(head)):
        return None
    return left


def counted_by(text: str, value: Value) -> set[str]:
    """What a new count counts, which is no more said of it: "engineers" of "the team is smaller, five engineers"."""
    at = text.find(value.text)
    after = re.match(r"\s+([a-z]+s)\b", text[at + len(value.text) :]) if value.kind == "number" and at >= 0 else None
    return {after.group(1)} if after else set()


def up_to_value(text: str, value: str) -> str:
    """A statement up to the clause after its new value: "The user's store launch is pushed to 5 September"
    of "…, payment gateway approval is delayed" (a clause of its own after the value is another matter)."""
    at = text.find(value)
    comma = text.find(",", at + len(value)) if at >= 0 else -1
    if comma < 0 or not re.search(r"\b(?:is|are|was|were|has|have|had)\b", text[comma:]):
        return text  # ", 15 min to office now" says more of the new value, no other matter
    return text[:comma]
