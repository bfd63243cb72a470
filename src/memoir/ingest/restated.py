"""The fact a sentence changes without naming its old value, when no new value names it (`new_values`
does): a statement on the same thing after a change was announced ("change of plan: I'm doing the
Valencia half marathon instead", "switched to day shifts" of the nights, "We've switched to Asana" of
Trello), or a name corrected within its family ("Correction, … his name was Ole Haugen").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from memoir.index.keyword import terms
from memoir.ingest.changes import Reading
from memoir.ingest.cues import CORRECTION
from memoir.ingest.ended import of_work
from memoir.ingest.fact_words import mentions, same_subject, subject_of, swap_value
from memoir.ingest.known import Known
from memoir.ingest.lexicon import HOLIDAYS, KINDS, PEOPLE, PETS, kind_terms, word_list
from memoir.ingest.new_values import CHANGE_STEMS, of_a_job
from memoir.ingest.stemming import stem, stem_set, stems
from memoir.ingest.values import Value, values

__all__ = [
    "HOURS",
    "all_stems",
    "opposite",
    "renamed",
    "restated",
    "same_family",
    "switched_to",
    "upgraded",
    "upgraded_text",
]

# Verbs say how, not what: a fact is not the one a statement restates because both "go" or "do" something.
_VERB_STEMS = stem_set(
    "live lives work works learn learning do does doing go goes going play plays run runs training train study eat "
    "drink take have get make use like love need want start try keep find join move switch change book booked "
    "is are was look looks looking again "
    # "changing the band name" restates no name of the user's: a name changes by its topic ("name is …")
    "name please mention"
)

_HOLIDAY = re.compile(rf"\b(?:{HOLIDAYS})\b", re.I)
_TRIP = re.compile(r"\b(?:flying|driving|going|heading|travell?ing|spending|visiting|staying)\b", re.I)
_HABIT = re.compile(r"\b(?:every|each|always)\b", re.I)


def _trips(said: str, known: str) -> bool:
    """Are both a trip over one holiday, not a habit ("we go to Cornwall every Easter"), a gift or a birthday?"""
    one = len(_HOLIDAY.findall(known)) == 1
    return one and all(_TRIP.search(t) and not _HABIT.search(t) for t in (said, known))


def all_stems(text: str) -> frozenset[str]:
    """The stems of every word of a text, time words too ("day", which `stems` leaves out)."""
    return frozenset(stem(w) for w in terms(text))


def opposite(text: str) -> frozenset[str]:
    """The other of each pair a text's shifts name one of ("day shifts": night), unless it names both; only
    of work shifts ("I switched to day shifts"), not of anything said of a day ("now I go every day"); and the
    other of part-time and full-time."""
    said = all_stems(text)
    if HOURS.search(text):  # "going part-time": full-time
        return frozenset({"full", "part"} - said)
    if "shift" not in said:
        return frozenset()
    return frozenset(_OPPOSITES[w] for w in said if w in _OPPOSITES) - said


def _of_work(text: str) -> frozenset[str]:
    """A fact's words but a day or night that only says how often ("The user goes every day at seven" is not
    on day shifts; "The user is on nights" is on night shifts)."""
    return all_stems(_HOW_OFTEN.sub(" ", text))


def _same_worker(first: str, second: str) -> bool:
    """Do both facts speak of the same one's work: "The user's schedule is day shift" is the user's, as "The user
    works nights" is."""
    return _worker(first) == _worker(second)


def _worker(text: str) -> str:
    return "the user" if _USERS_ROTA.match(text) else subject_of(text)


_USERS_ROTA = re.compile(r"^the user's (?:schedule|rota|roster|shifts?|hours|pattern|work pattern)\b", re.I)
_HOW_OFTEN = re.compile(r"\b(?:every|each|a|per|all|one|some|the other|that|this)\s+(?:day|night)s?\b", re.I)


HOURS = re.compile(r"\b(?:part|full)[- ]time\b", re.I)  # how much of a week the user works
_STUDY = re.compile(r"\b(?:student|studies|studying|degree|course|phd|masters?)\b", re.I)
# The user's hours changed, as said: "The user is going part-time", "… went full-time in March"
_GOING_HOURS = re.compile(
    r"^the user (?:is (?:now )?going|went|has gone|switched to|is (?:now )?working|works|is now|is)\s+(?:part|full)"
    r"[- ]time\b(?!.*\b(?:too|also|as well)\b)",
    re.I,
)
# Pairs where one replaces the other: a switch to day shifts is from the nights
_OPPOSITES = {"day": "night", "night": "day"}


def renamed(reading: Reading, live: Sequence[Known]) -> list[tuple[Known, str, str | None]]:
    """ "Correction, I was squinting at the wrong line — his name was Ole Haugen": the one known fact naming
    someone of that family by another first name ("Olaf Haugen") had it wrong."""
    if not _corrects(reading.message):
        return []
    found: list[tuple[Known, str, str | None]] = []
    for value in reading.new:
        if not re.search(
            rf"\bname(?:'s|’s|\s+is|\s+was)\s+(?:actually\s+)?{re.escape(value.text)}", reading.text, re.I
        ):
            continue  # a name given as a name: not "I forgot to call Jane Smith back", "his brother Nils Haugen"
        for known in live:
            named = [v.text for v in known.values if same_family(v, value)]
            if known.id is not None and len(named) == 1 and not any(k is known for k, _, _ in found):
                found.append((known, "renamed", named[0]))
    return found if len(found) == 1 else []


@lru_cache(maxsize=64)
def _corrects(message: str) -> bool:
    """Does a message say what was said before was wrong? Asked once a message, not once a sentence of it."""
    return CORRECTION.search(message) is not None


def same_family(old: Value, new: Value) -> bool:
    """Two names of one family, with other first names ("Olaf Haugen", "Ole Haugen")."""
    said, saying = old.text.lower().split(), new.text.lower().split()
    if not (old.kind == new.kind == "name" and len(said) > 1 and len(saying) > 1):
        return False
    return said[-1] == saying[-1] and said[0] != saying[0]


_PER = re.compile(r"\b(?:a|per|each)\s+(?:head|person|night|day|week|month|year|hour|kilo|kg)\b", re.I)


# That something changed, and nothing of what it is now: "my cousin upped the order", "we're changing the band name"
BARE_CHANGE = re.compile(
    r"^the user(?:'s [\w-]+)? (?:has |have |is |are )?(?:upped|changed|changing|moved|swapped|raised|cut|bumped|pushed|"
    r"postponed|rescheduled|increased|reduced|lowered) (?:the|their|our) (?!user\b)[\w-]+(?: name)?$",
    re.I,
)


def _but_kind(value: Value) -> str:
    """A value's words but what kind of thing it names: "Sydney" of "the Sydney Marathon", which restates "the Gold
    Coast Marathon" (a name's last word, where the name has more than one)."""
    words = value.text.split()
    return " ".join(words[:-1]) if value.kind in ("name", "place") and len(words) > 1 else value.text


_WHO = stem_set(" ".join(PEOPLE | PETS))  # "switched cat food" restates nothing of "a cat named Luna"
# "we decide to move closer to new job": the new job says where the user moves, it is not the job that changes
_NEAR_NEW = re.compile(
    r"\b(?:closer to|nearer to|near|next to)\s+(?:the\s+|my\s+|our\s+|their\s+)?new\s+(?P<what>[\w-]+)", re.I
)


def restated(reading: Reading, live: Sequence[Known]) -> list[tuple[Known, str, str | None]]:
    if not reading.announced:
        return []
    found: list[tuple[Known, str, str | None]] = []
    # values say what changed, not what about: "3 nights in a row" is not "3 weeks back" restated
    names = stems(" ".join(_but_kind(v) for v in values(reading.text)))
    # ... but a holiday says when a trip is, as a date does: "Christmas in Jeju instead" is the Christmas trip again
    holidays = stems(" ".join(v.text for v in values(reading.text) if _HOLIDAY.fullmatch(v.text)))
    kinds_named = stems(" ".join(v.text for v in values(reading.text))) - names  # "marathon" of "the Sydney Marathon"
    for index, statement in enumerate(reading.statements):
        if BARE_CHANGE.match(statement.text):
            continue  # says that something changes, not what it is now
        switched = _SWITCHED.match(statement.text)  # "switched hotels": the hotel, whatever the new one is called
        said = _PER.sub(" ", statement.text)  # "400 dirhams a head" says nothing of a head chef
        own = stems(switched.group("kind")) if switched else stems(said) - CHANGE_STEMS - names
        if not statement.text.lower().startswith("the user "):
            own -= kinds_named  # "The Sydney Marathon moved to September" is news of the race, no switch of the user's
        own -= stems(" ".join(m.group("what") for m in _NEAR_NEW.finditer(said)))  # where to, not what changes
        others = opposite(statement.text)  # "switched to day shifts": from the nights
        kinds = {v.kind for v in values(statement.text)}
        named = [v.text for v in values(statement.text) if _but_kind(v) != v.text]
        best: tuple[int, Known] | None = None
        hours = HOURS.search(statement.text) is not None
        if hours and not _GOING_HOURS.match(statement.text):
            continue  # "never wants to go part-time", "is thinking about going part-time", "… at the cafe too"
        for known in live:
            if hours and (not same_subject(statement.text, known.text) or _STUDY.search(known.text)):
                continue  # "my wife is going part-time" leaves the user's full-time job, a job a full-time study
            opposed = others & _of_work(known.text) if _same_worker(statement.text, known.text) else frozenset()
            kin = _kin(statement.text, known.text, reading.text) if _kin_of(statement.text, known) else frozenset()
            # "Eko Hotel was fully booked" speaks of the known hotel, no other in its place
            same = stems(" ".join(n.split()[-1] for n in named if mentions(known.text, n)))
            # "My sister's team switched to Asana": not the user's
            trip = holidays & known.stems if _trips(statement.text, known.text) else frozenset()
            shared = (known.stems & (own - same)) | opposed | kin | trip
            if known.id is None or not shared - _VERB_STEMS or any(k is known for k, _, _ in found):
                continue
            who = shared - _VERB_STEMS
            if who and who <= _WHO and not opposed and not who & stems(subject_of(known.text)):
                continue  # "she raised me" of "writing about my lola": a person both name, not the fact's subject
            named_both = _people_of(known.text) & _names_of(f" {statement.text}")
            if who and who <= named_both and statement.text.split()[0].lower() not in who:
                continue  # "Nigel's wife will come here instead" of "The user's son Nigel lives in Toronto": of him
            if kinds and not kinds & {v.kind for v in known.values} and not opposed and not kin:
                continue  # "the atlas deadline slipped to November" is new beside "we migrate Atlas", not instead
            if not of_a_job(statement.text, known):
                continue
            score = 2 * len(shared) + len(opposed) + bool(kinds & {v.kind for v in known.values})
            if best is None or score > best[0]:
                best = (score, known)
        if best is not None:
            found.append((best[1], "restated", str(index)))
    return found


def _people_of(fact: str) -> frozenset[str]:
    """The stems of the names of the user's people a fact holds ("nigel" of "The user's son Nigel lives in …", of
    "Nigel lives in Toronto")."""
    subject = re.match(r"(?!The\b)((?-i:[A-Z])[\w-]+)\s+(?:lives|works|is|has|studies)\b", fact)
    return stems(
        " ".join([m.group("name") for m in _PERSON_NAMED.finditer(fact)] + list(subject.groups() if subject else []))
    )


_PERSON_NAMED = re.compile(
    rf"\b(?:{'|'.join(sorted(PEOPLE, key=len, reverse=True))})\s+(?P<name>(?-i:[A-Z])[\w-]+)", re.I
)


def _names_of(fact: str) -> frozenset[str]:
    """The stems of the names a fact holds (its capitalised words but its first), the possessive too."""
    return stems(" ".join(re.findall(r"(?<=\s)(?-i:[A-Z])[\w-]+", fact.replace("’", "'"))))


def _kin_of(said: str, known: Known) -> bool:
    """May a statement name another of a kind for what a known fact holds: the same one's, and a fact of having or
    using it (not "The user works at Toyota", "The user hates Windows", "The user was a goalkeeper as a kid")?"""
    if not _same_owner(said, known.text) or _NOT_HELD.search(known.text):
        return False
    return not of_work(known.topics)


# What one feels about a thing, wants, or once had, rather than has now
_NOT_HELD = re.compile(
    r"\b(?:hates?|loves?|likes?|dislikes?|wants?|wishes|dreams?|supports?|prefers?|misses|was|were|used to|as a kid|"
    r"once|never)\b",
    re.I,
)


def _same_owner(said: str, known: str) -> bool:
    """Is what both facts name the same one's: the user's, of "The user's pc has a GTX 1660" and "The user switched
    to an RTX 4060" (a thing the user has is theirs; not their wife's, nor what their company does)."""
    one, other = subject_of(said), subject_of(known)
    if one == other:
        return True
    theirs = [s for s in (one, other) if s.startswith("the user's ")]
    return {one, other} - {*theirs} == {"the user"} and all(s.split()[-1] in _THINGS for s in theirs)


# What the user has and uses, whose make is the user's ("the user's company moved the user to the 777 fleet" is the
# company's doing, and says nothing of the A380 the user flew)
_THINGS = frozenset(
    word_list("pc computer laptop notebook desktop car truck van ute bike motorbike phone tablet console rig gpu card")
)


def _kin(said: str, known: str, sentence: str) -> frozenset[str]:
    """The name in `known` that `said` gives another of its kind for ("trello" of "switched to Asana"): named as
    what is taken up (`_TAKEN_UP`), for good, not said in passing ("replacing the windows in the house", "upgraded the
    TV to a samsung oled", "never switching to android", "switched to my old samsung till the repair is done")."""
    if _NOT_FOR_GOOD.search(sentence):  # as the user said it: "I'm on lisinopril now too" keeps its "too"
        return frozenset()
    taken = [m.group("what") for pattern in (_TAKEN_UP, _ON_NOW) for m in pattern.finditer(said)]
    new, old = kind_terms(" ".join(taken)), kind_terms(known)
    for kind in KINDS:
        if (new & kind) - old and (old & kind) - new:
            return frozenset((old & kind) - new)
    return frozenset()


# What a sentence says the user switched to: "switched to Asana", "moving to sleeper", "switched from Excel to Xero",
# "my GP switched me to Jardiance", "put me on Jardiance instead" (an article and a word before the name); not what is
# got, bought or gone with, which is as often a second one ("got a samsung tv", "bought a Honda lawnmower")
_TAKEN_UP = re.compile(
    r"\b(?:(?:switch|switched|switching|move|moved|moving|change|changed|changing|swap|swapped|swapping|"
    r"transferred|migrated|migrating)\s+(?:(?:me|us|him|her|them|it|over|across)\s+)?(?:to|onto)|"
    r"(?:switched|moved|changed)\s+from\s+(?:[\w'-]+\s+){1,4}?(?:to|onto)|"
    r"(?:put|started)\s+(?:me|us|him|her|them)\s+on(?:to)?)\s+"
    r"(?P<what>(?:(?:an?|the|my|our|their)\s+)?(?:[\w-]+\s+)?[\w-]+)",
    re.I,
)
# ... or is on now: "The user is on Jardiance now", "we're on kendamil now" (not "I'm on the A380 to Dubai")
_ON_NOW = re.compile(
    r"\b(?:is|are|am|'m|’m|'re|’re)\s+(?:now\s+)?on\s+(?P<what>(?:(?:an?|the)\s+)?[\w-]+)\s+now\b", re.I
)
# Not for good, or not in place of the user's own: "never switching to android", "till the repair is done", "for a
# week", "for my wife", "at work", "next spring"
_NOT_FOR_GOOD = re.compile(
    r"\b(?:never|not|won't|wouldn't|don't|didn't|till|until|while|temporarily|for now|for a (?:week|day|month|bit)|"
    r"for the (?:weekend|week|day|trip)|this (?:week|weekend)|loaner|courtesy|hired|rental|rented|renting|borrow\w*|"
    r"at work|for work|work phone|office|second|too(?=\s*(?:[.,;!?]|$))|also|as well|as a passenger|"
    r"next (?:week|month|year|spring|summer|autumn|fall|winter)|"
    r"for (?:my|his|her|our|the) (?:wife|husband|son|daughter|kids|mum|mom|dad|partner))\b|"
    r"n't\b",
    re.I,
)
_SWITCHED = re.compile(r"^the user (?:has )?(?:switched|changed|swapped) (?P<kind>[a-z]+)s$", re.I)


def switched_to(said: str, known: Known, reading: Reading) -> str | None:
    """ "Switched doctors too, Patel retired, new guy is Dr. Okafor": the known doctor's fact with the new
    name, rather than "The user switched doctors" in its place."""
    switched = _SWITCHED.match(said)
    if switched is None:
        return None
    named = ("name", "place")  # "the Hotel Granvia" reads as a place, "Hotel Keihan Kyoto" as a name
    new = [v for v in reading.new if v.kind in named and v.text.lower() not in _TITLES]
    new = [v for v in new if not mentions(known.text, v.text) and not mentions(reading.text[: v.start], v.text)]
    kind = switched.group("kind").lower()
    old = [v for v in known.values if v.kind in named and v.text.lower() not in _TITLES]
    old = [v for v in old if kind in v.text.lower()] or old  # of several, the one that is a hotel
    if not new or not old:
        return None
    new = [v for v in new if v.kind == "name"] or new  # "Dr. Okafor at Kettering": Okafor
    return swap_value(known.text, old[0].text, new[-1].text)


_TITLES = frozenset(word_list("dr dr. mr mrs ms prof"))


# A thing moved to another version of itself: "upgraded to python 3.12", "updated to iOS 17"
VERSION = re.compile(
    r"^the user (?:has\s+|just\s+|finally\s+)*(?:upgraded|updated|moved|switched|went)\s+(?:up\s+)?to\s+"
    r"(?P<name>[a-z][\w+#-]*)\s+v?(?P<v>\d+(?:\.\d+){0,2})\b(?![.\d])"
    r"(?!\s*(?:years?|yrs?|months?|weeks?|days?|hours?|minutes?|mins?|am|pm|%|k|people|kids|times)\b)"
    # the user's own, done: not a side project's, nor one taken back
    r"(?!.*\b(?:side project|own project|at home|rolled back|reverted|went back)\b)",
    re.I,
)


def upgraded(reading: Reading, live: Sequence[Known]) -> list[tuple[Known, str, str | None]]:
    """The one known fact naming the thing a statement upgraded at another version ("The user uses python 3.9
    on windows 10" of "I upgraded to python 3.12"): its old version, to be replaced."""
    found: list[tuple[Known, str, str | None]] = []
    for statement in reading.statements:
        moved = VERSION.search(statement.text)
        if moved is None:
            continue
        name, new = re.escape(moved.group("name")), moved.group("v")
        for known in live:
            if re.search(r"\b(?:at work|at home|team|side project)\b", known.text, re.I):
                continue  # of a place the upgrade did not name: "Postgres 16 at work and Postgres 15 at home"
            at = re.search(rf"\b{name}\s+v?(?P<v>\d+(?:\.\d+){{0,2}})\b", known.text, re.I)
            if known.id is not None and at and at.group("v") != new:
                found.append((known, "version", at.group("v")))
    return found if len(found) == 1 else []


def upgraded_text(known: Known, old: str, reading: Reading) -> tuple[str, set[int]]:
    """The known fact at the version a statement upgraded it to, and that statement (`upgraded` found it)."""
    new, index = next((m.group("v"), i) for i, s in enumerate(reading.statements) if (m := VERSION.search(s.text)))
    return re.sub(rf"(?<![\w.]){re.escape(old)}(?![\w.])", new, known.text, count=1), {index}
