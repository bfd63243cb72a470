"""Whose deed a model's fact tells: "The user explains it so fast" of "mr delgado explains it so fast", "The user took
one of the girls" of a stoat, "The user threw a party" of "they threw me a party" are someone else's (`someone_elses`).
"""

from __future__ import annotations

import re

from memoir.ingest.lexicon import word_list
from memoir.ingest.person import IRREGULAR_PAST

__all__ = ["someone_elses"]


def someone_elses(fact: str, source: str) -> bool:
    """Is "The user VERBs …" what someone else does in the sentence: the user would not say "explains" of
    themselves ("The user explains it so fast" of "mr delgado explains it so fast i never get it"); or
    "The user is …" what "she's …" says of someone else; or "The user is in Vienna" where the sentence puts
    nobody in Vienna?"""
    placed = re.match(
        r"^the user (?:is|lives|works|is based|is staying) (?:in|at) (?P<where>(?-i:[A-Z])[\w -]+)$", fact, re.I
    )
    if placed is not None:  # "Vienna is lovely at Christmas, right?": "The user is in Vienna" says no one was there
        where = re.escape(placed.group("where"))
        put = rf"\b(?:in|at|to|from|near|around)\s+(?:the\s+)?{where}\b|\b{where}(?:'s|’s|\s+is)\s+(?:my\s+)?home\b"
        return re.search(put, source, re.I) is None
    being = re.match(r"^the user is (?:a |an )?(?P<what>\w+)", fact, re.I)
    if being is not None:  # "she's a saint" of Elena: "The user is a saint"
        what = re.escape(being.group("what"))
        theirs = rf"\b(?:he|she|they)(?:'s|’s|\s+is|\s+are|'re)\s+(?:a\s+|an\s+)?{what}\b"
        mine = rf"\b(?:i'm|i’m|im|i am)\s+(?:a\s+|an\s+)?{what}\b"
        return re.search(theirs, source, re.I) is not None and re.search(mine, source, re.I) is None
    claim = re.match(r"^the user (?P<verb>[a-z]+s)\s+(?P<rest>\S.*)$", fact, re.I)
    if claim is None or claim.group("verb").lower() in ("is", "has", "does", "was"):
        return _someone_elses_deed(fact, source)
    said = re.search(
        rf"(?P<who>[\w'’]+)\s+{re.escape(claim.group('verb'))}\s+{re.escape(claim.group('rest').split()[0])}",
        source,
        re.I,
    )
    return said is not None and said.group("who").lower() not in ("i", "we", "also", "just", "still", "really")


def _someone_elses_deed(fact: str, source: str) -> bool:
    """Is "The user VERBed …" what someone else did in the sentence ("The user took one of the girls" of "a stoat
    got into the run and took one of the girls", "The user came early" of "GRANDBABY CAME EARLY"), or did to the
    user ("The user threw a party" of "They threw me a party")?"""
    claim = re.match(r"^the user (?P<verb>[a-z]+)\s+(?P<first>[\w'’-]+)", fact, re.I)
    if claim is None or claim.group("verb").lower() == "was" or not _PAST.fullmatch(claim.group("verb").lower()):
        return False
    verb, first = re.escape(claim.group("verb")), re.escape(claim.group("first"))
    said = re.search(rf"(?P<who>[\w'’]+)\s+{verb}\s+(?P<to>(?:me|us)\s+)?{first}\b", source, re.I)
    if said is None:
        return False
    if said.group("to"):  # "They threw me a party": done to the user, by someone else
        return True
    who = said.group("who").lower()
    if who in ("and", "but", "then", "so"):  # "a stoat got into the run … and took": the clause's subject
        opening = re.sub(r"^\W*(?:(?:oh|and|so|well|ok|okay|then|but|also|yesterday|today|sadly)\W+)*", "", source)
        return re.match(r"(?:i|we|i've|we've|i'd|we'd)\b", opening, re.I) is None
    return who not in _MY_OWN_DOING


_PAST = re.compile(rf"[a-z]+ed|{'|'.join(sorted(IRREGULAR_PAST))}")
# Words before a verb that leave it the user's: "I took", "we came", "finally got", "yesterday sold"
_MY_OWN_DOING = frozenset(
    word_list(
        "i we i've we've also just still really finally then yesterday today recently already never once lol ok "
        "okay well oh actually literally even both all"
    )
)
