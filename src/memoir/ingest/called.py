"""What the user's things are called, said as "the name is …" ("I have small landscaping company in Wokingham, the name
is Zielony Garden Services"; "School name is Little Banyan Public School"), and when "the name is" names the user
("hi there, the name is Dave, 52, retired plumber")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memoir.ingest.introductions import NAME, introduction

if TYPE_CHECKING:
    from memoir.ingest.referents import Context

__all__ = ["Named", "name_said"]


@dataclass(frozen=True)
class Named:
    facts: list[str] | None  # None: "the name is …" said, and no reading of it (other readers may try)


def name_said(what: str, rest: str, context: Context) -> Named | None:
    """ "the name is X" (`what` "name") or "School name is X" (`what` "School name"), `rest` what follows "is": what
    it names, or None where `what` is no name."""
    if what.lower() == "name":
        return Named(_called(rest, context))
    whose = _A_NAME.match(what)
    if whose is None:
        return None
    called = _A_TITLE.match(rest)
    return Named([f"The user's {whose.group('x').lower()} is called {called.group('name')}"] if called else None)


# What "the name is" names, said before it: a thing of the user's, not the user ("I have small landscaping company in
# Wokingham, the name is Zielony Garden Services")
_NAMED_BEFORE = re.compile(
    r"\b(?:my|our|a|an|small|own|little|new)\s+(?:[\w-]+\s+){0,2}?(?P<thing>company|business|shop|store|studio|band|"
    r"team|cafe|café|restaurant|bakery|salon|startup|brand|channel|podcast|blog|app|project|charity|club|boat|farm|"
    r"dog|cat|puppy|kitten|horse|van|car|book|novel|show|play)\b",
    re.I,
)


# A name of a thing, in its words up to the clause's end: "Zielony Garden Services", "Little Banyan Public School"
_A_TITLE = re.compile(
    r"\s+(?P<name>(?-i:[A-Z])[\w'’&-]*(?:\s+(?:of\s+|&\s+)?(?-i:[A-Z])[\w'’&-]*){0,6})"
    r"(?=\s*(?:[,(;.!]|$|(?:now|then|instead)\b))"
)
_A_NAME = re.compile(
    r"^(?P<x>school|company|business|shop|band|team|dog|cat|boat|club|studio|cafe|café|bakery) name$", re.I
)


def _called(rest: str, context: Context) -> list[str] | None:
    """ "the name is X": what the sentence named before it is called X, or nothing (no name of the user's)."""
    things = list(_NAMED_BEFORE.finditer(context.said))
    name = _A_TITLE.match(rest)
    yours = re.match(rf"\s+(?P<name>{NAME})", rest)
    by_the_way = yours and re.search(rf"{re.escape(yours.group('name'))},?\s+(?:btw|by the way)\b", context.said, re.I)
    if yours and (not things or by_the_way):  # "hi there, the name is Dave, 52, retired plumber"
        return introduction(f"my name is{rest}", context)
    if not things or name is None:
        return None
    thing = things[-1]  # the one named last
    return [f"The user's {thing.group('thing').lower()} is called {name.group('name')}"]
