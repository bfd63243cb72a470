"""A sentence and its clauses as the readers take them (`rules`): plain order, nothing in the way.

What people write puts things in many orders; the readers know one. So reported speech is
opened ("Physio says my knee can't handle marathons"), an apposition goes before its name
("Biscuit, my beagle, joins the runs" -> "my beagle Biscuit joins the runs"), a name said
before its pronoun takes its place ("Yui, she's turning 7"), openers and emoji go, "me and
Jess" is "Jess and I", what someone did to the user's plans is said of the plans ("they
moved my dentist appointment to Thursday" -> "my dentist appointment got moved to
Thursday"), a bare relation is the user's ("Son Arjun is 8"), and a fronted time goes last
("On Wednesdays I do the late shift" -> "I do the late shift on Wednesdays").
"""

from __future__ import annotations

import re

from memoir.ingest.lexicon import PEOPLE

__all__ = ["FIRST_PERSON", "plain_clause", "plain_sentence"]

_FRONTED = re.compile(
    r"^(?P<adv>(?:on|every|each|at|in|since|after|before|during|from|this|next|last|right now|these days|"
    r"nowadays|most|some|usually|normally)\b[^,]{0,40}?),?\s+(?P<rest>(?:i|i'm|i've|i'd|i'll|we|we're|we've|my|our)\b.+)$",
    re.I,
)
_REPORTED = re.compile(
    r"^(?:(?:my|the|our)\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:says|said|thinks|reckons|told me|tells me)(?:\s+that)?"
    r"\s+(?P<said>.+)$",
    re.I,
)
_APPOSITION = re.compile(
    r"(?:^|(?<=[.!?:;]\s)|(?<=\bso\s)|(?<=\band\s)|(?<=\bbut\s)|(?<=\bthen\s))(?P<name>(?-i:[A-Z])[\w'’-]+),\s+(?P<rel>(?:my|our)\s+[\w-]+(?:\s+[\w-]+)?),\s+(?P<rest>.+)$",
    re.I,
)
FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|im|me|my|mine|we|we're|our|ours|us)\b", re.IGNORECASE)


def plain_sentence(text: str) -> str:
    """A sentence as the readers take it: reported speech opened, appositions before their names, a name
    said before its pronoun put in its place."""
    return _named_first(_apposed(_reported(text)))


_NAMED_FIRST = re.compile(
    r"^(?P<name>(?-i:[A-Z])[\w'’-]+),\s+(?:she|he)(?P<verb>'s|’s|\s+is|\s+was|\s+has|\s+had|\s+will)\s+(?P<rest>.+)$",
    re.I,
)


def _named_first(text: str) -> str:
    """ "Yui, she's turning 7 on the 12th" -> "Yui is turning 7 on the 12th"."""
    match = _NAMED_FIRST.match(text)
    if match is None:
        return text
    verb = match.group("verb").strip()
    verb = "is" if verb in ("'s", "\u2019s") else verb
    return f"{match.group('name')} {verb} {match.group('rest')}"


_DONE_TO_PLANS = re.compile(
    r"^(?:they|someone|the \w+|(?-i:[A-Z])[\w'’-]+)\s+(?:have\s+|has\s+)?"
    r"(?P<verb>moved|pushed|postponed|rescheduled|bumped|brought)(?P<how>\s+(?:back|forward|up))?\s+"
    r"(?P<whose>my|our)\s+(?P<what>[\w-]+(?:\s+(?!back\b|forward\b|up\b)[\w-]+)?)(?P<how2>\s+(?:back|forward|up))?"
    r"\s+(?P<to>to|till|until)\s+(?P<rest>.+)$",
    re.I,
)


def _done_to_plans(text: str) -> str:
    """ "they moved my dentist appointment to Thursday the 11th" -> "my dentist appointment got moved to …"."""
    match = _DONE_TO_PLANS.match(text)
    if match is None:
        return text
    how = match.group("how") or match.group("how2") or ""
    return (
        f"{match.group('whose')} {match.group('what')} got {match.group('verb').lower()}{how} "
        f"{match.group('to')} {match.group('rest')}"
    )


def _reported(text: str) -> str:
    """ "Physio says my knee can't handle marathons": what was said of the user (a hearsay of their own)."""
    match = _REPORTED.match(text)
    return match.group("said") if match and FIRST_PERSON.search(match.group("said")) else text


# "Our youngest, Kate, is off to uni", "My sister, Ana, lives in Porto": the relation first
_NAME_BETWEEN = re.compile(
    r"^(?P<rel>(?:my|our)\s+[\w-]+(?:\s+[\w-]+)?),\s+(?P<name>(?-i:[A-Z])[\w'’-]+),\s+(?P<rest>\S.*)$", re.I
)


def _apposed(text: str) -> str:
    """ "Biscuit, my beagle, joins the runs" and "My sister, Ana, lives in Porto" -> "my beagle Biscuit joins
    the runs", "My sister Ana lives in Porto"."""
    match = _APPOSITION.search(text)
    if match:
        return f"{text[: match.start()]}{match.group('rel')} {match.group('name')} {match.group('rest')}"
    between = _NAME_BETWEEN.match(text)
    if between:
        return f"{between.group('rel')} {between.group('name')} {between.group('rest')}"
    return text


_BARE_RELATION = re.compile(rf"^(?:{'|'.join(sorted(PEOPLE, key=len, reverse=True))}) (?-i:[A-Z])[\w'-]+\b", re.I)


def plain_clause(clause: str) -> str:
    """The clause without openers, in plain order: fronted time last ("On Wednesdays I …")."""
    clause = re.sub(r"^(?:(?:and|also|plus|so|but|then|oh|now|actually|ok|okay)\b[,\s]*)+", "", clause, flags=re.I)
    clause = re.sub(r"[\U0001F000-\U0001FAFF\u2600-\u27BF]+", "", clause).strip()
    # "me and Jess got a flat", "me and my brother Tom run a garage"
    clause = re.sub(
        r"^(?:me and|me &) ((?:(?:my|our)\s+)?[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?)\b(?![\w'’-])",
        r"\1 and I",
        clause,
        flags=re.I,
    )
    clause = re.sub(r"^([\w'-]+) and me\b", r"\1 and I", clause, flags=re.I)
    clause = _done_to_plans(clause)
    if _BARE_RELATION.match(clause):  # "Son Arjun is 8": the user's son
        clause = "my " + clause[0].lower() + clause[1:]
    fronted = _FRONTED.match(clause)
    if fronted:
        adverb = fronted.group("adv")
        clause = f"{fronted.group('rest')} {adverb[0].lower()}{adverb[1:]}"
    return clause.strip()
