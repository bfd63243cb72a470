"""The reader of a clause about a thing of the user's named without "my": "the wedding is in Malaga on 14 June",
"Deck pour deadline is 30 April", "Standup is at 9:30", "…, venue is Eko Hotel" (of the event named last), "the name
is …" (`called`). `readers` describes a reader."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memoir.ingest.called import name_said
from memoir.ingest.events_named import HOSTED
from memoir.ingest.lexicon import EVENTS, word_list
from memoir.ingest.person import others
from memoir.ingest.values import values

if TYPE_CHECKING:
    from memoir.ingest.referents import Context

__all__ = ["OF_AN_EVENT", "TERSE_OWN", "noun_phrase"]

_NOUN_PHRASE = re.compile(
    r"^(?:(?P<det>the|this|that|our|my)\s+)?(?P<what>(?!(?:his|her|their|its|your)\b)[A-Za-z][\w-]*(?:\s+(?!(?:is|are|was|were|will|has|had|have|been)\b)[a-z][\w-]*){0,2})\s+"
    r"(?P<verb>is|are|was|will be|will have|launches|starts|begins|opens|closes|ends|expires|happens|takes place|runs|"
    # the event moved, not something moved by it ("the rain delayed our flight")
    r"meets|(?:got|was|has been|had been|been)\s+(?:moved|pushed|postponed|rescheduled|delayed|bumped|brought)"
    r"|moved|slipped|(?:came|went|has come|has gone) (?:down|up)(?= (?:to|from)\b))\b(?P<rest>.*)$",
    re.I,
)
_AN_ADVERB = re.compile(
    r"^(?-i:[A-Z])[\w'’-]+\s(?:actually|just|also|finally|still|now|recently|really|already|then|probably|basically|"
    r"literally|even)$",
    re.I,
)
_WHERE = re.compile(r"^(?:is|are)\s+(?:on|in|under|behind|at|next to|inside|above|below|by|beside|with)\b", re.I)
_COMMON_SUBJECTS = {
    "weather",
    "mine",  # "mine is 340": of what was said before, not a thing called "mine"
    "ours",
    "yours",
    "it",
    "life",
    "work",
    "everything",
    "nothing",
    "food",
    "world",
    "news",
    "traffic",
    "rest",
    # "the thing is, I'm …", "the problem is …": a way of saying, not something of the user's
    "thing",
    "point",
    "problem",
    "issue",
    "truth",
    "catch",
    # "There are three potholes now", "Here is the draft": where, not a thing of the user's
    "there",
    "here",
    "this",
    "that",
}

# What the user speaks of as their own without "my" once they spoke of themselves: "I'm CTO at X. Eng team is 12."
TERSE_OWN = frozenset(
    word_list(
        "team budget office company startup business shop restaurant salary rent deadline launch funding stack "
        "car van truck laptop mortgage deposit"
    )
)

_ELSEWHERE = re.compile(r"\b(?:there|for (?:the|a|my|our) (?:spare|other|second)\b)", re.I)

# What an event has: "the date is …" said of the event named last
OF_AN_EVENT = frozenset(
    word_list("date venue time location place theme budget dress code colours colors guest list start end")
)


_OF_AN_EVENT_KNOWN = frozenset(word_list("date venue theme dress code colours colors guest list"))


def noun_phrase(clause: str, context: Context) -> list[str] | None:
    """ "the wedding is in Malaga on 14 June", "Deck pour deadline is 30 April", "Standup is at 9:30": the user's,
    when it holds a date, a time, a place, a number or a name."""
    match = _NOUN_PHRASE.match(clause)
    if not match or match.group("what").lower() in _COMMON_SUBJECTS or _AN_ADVERB.search(match.group("what")):
        return None  # "Craig actually moved to Phoenix": a name, and how it is said; no thing of the user's
    what, det = match.group("what"), (match.group("det") or "").lower()
    if (
        match.group("verb").lower() == "is"
        and det in ("the", "")
        and (called := name_said(what, match.group("rest"), context))
    ):
        return called.facts  # "I have small landscaping company, the name is Zielony …", "School name is Little Banyan"
    # the user's own (`user`) or a name (`named`); not a word of theirs a known fact holds ("Rent is ₹21,000 here")
    # ("Shop rent is 28,500": the shop's rent, a thing of the user's, however its first word is known)
    named = what[0].isupper() and what.split()[0].lower() in context.known and what.split()[-1].lower() not in TERSE_OWN
    if det in ("my", "our") or (not det and named):
        return None
    # "…, venue is Eko Hotel"; of an event only the known facts name, only what no job or trip also has
    of_event = bool(context.event) and what.lower() in (_OF_AN_EVENT_KNOWN if context.event_known else OF_AN_EVENT)
    of_event = of_event and (context.event in HOSTED or what.lower() not in TERSE_OWN)  # not the holidays' budget
    if not det and not (
        context.first_person
        or context.important
        or context.changing
        or of_event
        or what.split()[-1] in EVENTS
        # "I'm CTO at X. Eng team is 12."; not "My parents moved to Spain. Rent is €600 there."
        or (context.spoke_of_self and what.split()[-1].lower() in TERSE_OWN and not _ELSEWHERE.search(clause))
        or (what.lower() in TERSE_OWN and f"user's {what.lower()}" in context.known)  # the user's truck, known
    ):
        return None
    rest = f"{match.group('verb')}{match.group('rest')}"
    # "remember that the lighthouse keeper is Ada", "…the wifi password is on the fridge": as said, with a value
    # or where a thing is; not "remember that the earth is round"
    valued = bool(values(rest))
    said = valued or _WHERE.match(rest) is not None
    as_said = context.important and det == "the" and what.split()[-1].lower() not in EVENTS and said
    if not valued and not as_said and not of_event:  # "the theme is dinosaurs" of the party
        return []
    if not det and not what[:2].isupper():  # "A1C" stays
        what = what[0].lower() + what[1:]  # capitalized as the sentence's first word, not as a name
    if of_event:  # "our wedding card …" then "The date is 12th December"
        what = f"{context.event} {what.lower()}"
    if as_said:
        return [f"The {what} {others(rest)}"]
    context.thing = f"the user's {what}"
    return [f"The user's {what} {others(rest)}"]
