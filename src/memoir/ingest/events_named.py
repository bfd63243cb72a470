"""The events a sentence names, made plain for the readers: "we moved it to May" says which event moved
("moved the wedding to May"), "Party is Saturday 17 now" is the party's; the event named last is what "it"
of a later sentence may move (`Context.event`)."""

from __future__ import annotations

import re

from memoir.ingest.lexicon import EVENTS, word_list
from memoir.ingest.referents import Context

__all__ = ["HOSTED", "events_named", "headcount"]

_EVENT = re.compile(rf"\b(?:{'|'.join(sorted(EVENTS, key=len, reverse=True))})(?:e?s)?\b", re.I)
# "we have moved it to 20th February", "UWC postponed it to September": an event moved, named before
_MOVED_IT = re.compile(
    r"\b(?P<verb>moved|postponed|pushed|rescheduled|shifted|bumped|delayed|changed|cancelled|canceled|"
    r"brought forward)\s+(?:it|them)\b",
    re.I,
)
# "Party is Saturday 17 now", "Wedding got moved": an event typed without its article
_BARE_EVENT = re.compile(
    rf"^(?P<event>(?:{'|'.join(sorted(EVENTS))}))(?:\s+(?=(?:is|was|got|has|will|moved|starts)\b)|['’]s\s+(?=on\b|in\b|at\b))",
    re.I,
)


def events_named(text: str, context: Context) -> str:
    """The sentence with "it" of an event moved named ("moved it to May" -> "moved the wedding to May"),
    and an event typed without its article given one ("Party is Saturday 17 now" -> "The party is …")."""
    bare = _BARE_EVENT.match(text)
    if bare:  # "Dinner's on 1 November": the dinner is
        verb = "is " if bare.group(0).rstrip().endswith(("'s", "’s")) else ""
        text = f"The {bare.group('event').lower()} {verb}{text[bare.end() :]}"
    said = []
    position = 0
    for moved in _MOVED_IT.finditer(text):
        before = list(_EVENT.finditer(text, 0, moved.start()))
        event = _singular(before[-1].group(0)) if before else context.event
        if event:
            said.append(f"{text[position : moved.start()]}{moved.group('verb')} the {event.lower()}")
            position = moved.end()
    text = "".join(said) + text[position:]
    named = list(_EVENT.finditer(text))
    if named:
        context.event, context.event_known = _singular(named[-1].group(0)), False
    return text


def _singular(event: str) -> str:
    lowered = event.lower()
    return lowered if lowered in EVENTS else lowered[:-2] if lowered[:-2] in EVENTS else lowered[:-1]


_HEADCOUNT_ALONE = re.compile(
    r"^(?:(?:about|around|roughly|maybe|over|nearly|almost|at least|just|like|only)\s+)?(?P<n>\d[\d,]*)\s+"
    r"(?P<who>guests|people|kids|children|attendees|adults)$",
    re.I,
)


# Events the user holds, whose guests they count: of one the known facts or the message before named
HOSTED = frozenset(
    word_list("wedding party dinner lunch birthday reunion retreat ceremony launch offsite conference graduation camp")
)


def headcount(clause: str, context: Context) -> list[str] | None:
    """ "About 140 guests." said of the event the user holds that the known facts or the message before name:
    how many it will have."""
    match = _HEADCOUNT_ALONE.match(clause)
    if match is None or context.event not in HOSTED or not context.event_known:
        return None  # "Went to a concert last night. About 20000 people.": no event of the user's to come
    return [f"The user's {context.event} will have {clause[0].lower()}{clause[1:]}"]
