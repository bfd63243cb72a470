"""Counts said without what they count: "So I have six left now" after "I have eight plants".

People say a new count in the fewest words once the thing counted is known: the rules read
"The user has six left now" as a count of "left", which matches no known count and replaces
none. Where the user has one known count of things (or one the message names) that the bare
count is fewer than, the count is of that; a count "left till payday" or "left to go" is money
or time, and people are never counted so ("I have 5 left" is no fewer kids).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memoir.ingest.lexicon import PEOPLE
from memoir.ingest.stemming import stem
from memoir.ingest.topics import topics
from memoir.ingest.values import NUMBER_WORDS

__all__ = ["counted_left", "number"]

_N = rf"(?:\d{{1,4}}|{'|'.join(NUMBER_WORDS)})"
# "I have six left now", "we've only got 3 left" (not "six left the company", "20 left till payday")
_LEFT = re.compile(
    rf"\b(?:i|we)(?:\s+(?:only|now|just))?\s+(?:have|'ve\s+got|’ve\s+got|have\s+got|got)\s+(?:only\s+|just\s+)?"
    rf"(?P<n>{_N})(?=\s+(?:left|remaining)\b"
    r"(?!\s+(?:the|my|our|a|an|for|to|in|at|on|till|until|til|before|of|over|after|this|each|per)\b))",
    re.I,
)
# Some of them gone, said before the count: "pulled out the two outside ones", "a fox got two", "sold one"
_TAKEN = re.compile(
    rf"\b(?:pulled out|pulled up|dug up|lost|sold|gave away|given away|got rid of|took|got|killed|ate|rehomed|"
    rf"culled|put down)\s+(?:the\s+|another\s+)?(?:(?P<n>{_N})|one|ones|them|some|a couple)\b"
    r"(?P<after>(?:\s+(?:of them|of the \w+|[a-z]+\s+ones|[a-z]+))?)(?=\s*(?:[,.;!?]|$|\s+(?:and|so|but|now)\b))",
    re.I,
)
_SMALL = {word: n for n, word in enumerate(NUMBER_WORDS[:20])}


def number(text: str) -> int | None:
    """A count as a number: "six" 6, "12" 12 (None for what is no count)."""
    lowered = text.lower()
    return int(lowered) if lowered.isdigit() else _SMALL.get(lowered)


def counted_left(text: str, facts: Iterable[str]) -> str:
    """The message with what its bare count counts ("six plants left"), where the message said some of them
    went ("pulled out the two outside ones", "a fox got two") and one known count of the user's, as many as
    those gone and those left, says what (or the message names one of those counted); else the message."""
    said = _LEFT.search(text)
    if said is None or (n := number(said.group("n"))) is None:
        return text
    counted: dict[str, str] = {}  # stem -> the words the fact counts with ("rental properties")
    for fact in facts:
        counts = [t for t in topics(fact) if t.subject == "user" and t.attribute.startswith("count of ")]
        if len(counts) != 1 or len(re.findall(rf"\b{_N}\s+(?:[a-z]+\s+)?[a-z]+s\b", fact, re.I)) != 1:
            continue  # "3 cats and 2 dogs": which of them is left, the count does not say
        what = re.search(rf"\b{re.escape(counts[0].value)}\s+(?P<what>(?:[a-z]+\s+)?[a-z]+s)\b", fact, re.I)
        known = number(counts[0].value)
        if what and known is not None and what.group("what").split()[-1].lower() not in PEOPLE:
            thing = counts[0].attribute.removeprefix("count of ")
            if _went(text[: said.start()], thing, known - n):
                counted.setdefault(thing, what.group("what"))
    if len(counted) > 1:  # "two of the hens" beside plants: the one the message names
        named = {stem(w.lower()) for w in re.findall(r"[a-z]+", text, re.I)}
        counted = {k: v for k, v in counted.items() if k in named}
    if len(counted) != 1:
        return text
    return f"{text[: said.end('n')]} {next(iter(counted.values()))}{text[said.end('n') :]}"


def _went(before: str, thing: str, gone: int) -> bool:
    """Does the message say, before the count, that `gone` of the things went: "pulled out the two outside
    ones", "a fox got two", "sold one" (not "took 2 days off", "lost 2 kilos", "sold one saddle")?"""
    for match in _TAKEN.finditer(before):
        said = number(match.group("n")) if match.group("n") else None
        if said is not None and said != gone:
            continue
        after = match.group("after")
        if not after or stem(after.split()[-1].lower()) in (thing, stem("one")):
            return True
    return False
