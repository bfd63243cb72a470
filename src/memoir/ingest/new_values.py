"""The fact a new value replaces (`new_value`): "the exam got moved to 10 March", "so we're 7 now",
"Declan is off to Australia" (not the café he ran with the user).

A sentence that changes something by a verb of change gives a new value without the old
one; the known fact it replaces is the one that shares most words with what the value is
said of and holds a value of its kind that measures the same (a count is no age), on the
same topic where the statement tells a job (`rule_decisions` reconciles with it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memoir.ingest.ages import still_before
from memoir.ingest.changes import SCHEDULE_CHANGED, Reading
from memoir.ingest.fact_words import alike_stems, counts_people, other_of_kind, subject_of, with_aliases
from memoir.ingest.known import Known
from memoir.ingest.lexicon import PEOPLE, word_list
from memoir.ingest.person import ADVERBS, IRREGULAR_PAST
from memoir.ingest.stemming import stem, stem_set, stems
from memoir.ingest.topics import topics
from memoir.ingest.values import Value

__all__ = ["CHANGE_STEMS", "GROUP_WORDS", "US_COUNT", "bare_count", "counted", "moving_home", "new_value", "of_a_job"]

# Stems that say a change happened, not what it is about: they never make a fact the one changed.
CHANGE_STEMS = stem_set(
    "switch switched switching move moved moving change changed changing push pushed postpone postponed reschedule "
    "rescheduled shift shifted cut upgrade upgraded downgrade downgraded raise raised increase increased reduce "
    "reduced bump bumped brought bring relocate relocated transfer transferred swap swapped actually now turns out "
    "update correction plan plans new old former previous instead rather got get back forward"
)
# "… so now 16", "down to 180": the value the change gives
_AFTER_TO = re.compile(r"(?:\b(?:to|now|down to|up to|is|are)|\bwe're)\s+(?:the\s+|about\s+|around\s+)?$", re.I)
# "new schedule from Monday": when a change holds from, not a new value ("the exams are from 15 February" is one).
_SINCE = re.compile(
    r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bbe )\b(?:from|starting|starts|started|as of|effective|"
    r"beginning|since)\s+(?:next\s+|this\s+)?$",
    re.I,
)


def new_value(reading: Reading, live: Sequence[Known]) -> list[tuple[Known, str, str | None]]:
    """The known fact a new value after a verb of change replaces, as (fact, "implicit", the value)."""
    if not reading.moved:
        return []
    given = [v for v in reading.new if v.kind in ("date", "time", "number", "weekday", "place")]
    given = [v for v in given if not _SINCE.search(reading.text[: v.start])]  # when, not what: "from Monday"
    # A place no statement of the sentence says moves nothing: "Now Zosia need new school in Swords", "… clashes
    # with Tunde's brother's graduation in Lagos" (a count or a date does: "Now 720 acres")
    given = [v for v in given if v.kind != "place" or any(v.text in s.text for s in reading.statements)]
    given.sort(key=lambda v: not _AFTER_TO.search(reading.text[: v.start]))  # "hired 4 more, so now 16": 16
    best: tuple[int, Known, Value] | None = None
    for value in given:
        about = _about(value, reading) - CHANGE_STEMS - stems(" ".join(v.text for v in given))
        goer = _going(value, reading, live)
        theirs = _someone_elses(value, reading)
        aged = _aged(value, reading)
        for known in live:
            if aged and not any(t.attribute == "age" and t.subject in aged for t in known.topics):
                continue  # "so I'm 73 now. Peggy says …" is the user's age, not the one Peggy wants
            if goer is not None and goer not in known.text.lower().split()[:4]:  # "The user's brother Tom lives"
                continue  # "Declan is off to Australia" moves Declan, not the café he ran with the user
            if theirs is not None and not known.text.lower().startswith(theirs):
                continue  # "My brother's race got moved to November 3" moves his race, not the user's marathon
            counted = value.kind == "number" and (
                (_a_headcount(value, reading.text, about) and counts_people(known.stems))
                or (US_COUNT.search(reading.text[: value.start]) is not None and bool(known.stems & _GROUPS))
            )
            measured = value.kind == "number" and _counts_alike(value, reading.text, known)  # "45k" for "30k"
            named = known.stems if _done(known.text) else with_aliases(known.stems)  # "race" of a marathon to run
            # "change my days … I'm Tuesday to Thursday": a range of days, not "bins still Thursday"
            ranged = re.search(r"\s(?:to|and|-|through|till|until)\s", value.text) is not None
            days = value.kind == "weekday" and ranged and SCHEDULE_CHANGED.search(reading.text) is not None
            # "my shifts": the user's work, not the gym's days, and changed ("my boss might change my shifts" is not)
            days = days and _WORK.match(known.text) is not None and not _NOT_YET.search(reading.text)
            shared = len(alike_stems(about, named)) + counted + measured + days  # "90 people" for "140 guests"
            if known.id is None or not shared or not other_of_kind(known.values, value):
                continue
            if value.kind == "number" and not _same_measure(value, reading.text, known):
                continue  # "so we're 7 now" is no age: "67 years old" stays
            if value.kind == "number" and _counts_many(reading.text, value.end) and _an_age(known) and not measured:
                continue  # "now it is sixteen children" counts the guests, not Oliver's years ("three kids": kids)
            if _WHAT_THE_USER_DID.match(known.text) and not _SAID_OF_THE_PAST.search(reading.text):
                continue  # "I live in Manchester now" moves no "The user lived in Leeds when they were a student"
            if _HEDGED_BEFORE.search(reading.text[max(0, value.start - 30) : value.start]) or _IF_AFTER.match(
                reading.text, value.end
            ):
                continue  # "I will accept £48k now if the role is good": a value the user would take, not one they have
            if still_before(known.text, value.text):
                continue  # "(she's 9!!)" of "Poppy is turning 10 next month"
            if not _same_topic(value, reading, known):
                continue  # a new job's clinic in Brunswick is not where the user studies
            if best is None or shared > best[0]:
                best = (shared, known, value)
    if best is None:  # "one of my bonsai died. So only 22 now": the one count the user has
        bare = [v for v in given if bare_count(v, reading.text)]
        counts = [
            k
            for k in live
            if k.id is not None and any(t.subject == "user" and t.attribute.startswith("count of ") for t in k.topics)
        ]
        if len(bare) == 1 and len(counts) == 1:
            return [(counts[0], "implicit", bare[0].text)]
    return [(best[1], "implicit", best[2].text)] if best else []


_WORK = re.compile(r"^the user\s+(?:works|is working|has shifts|does shifts)\b(?!\s+out\b)", re.I)
_NOT_YET = re.compile(r"\b(?:might|may|could|would|wants? to|want|going to|will|if|maybe|hope)\b", re.I)


def _counts_many(text: str, end: int) -> bool:
    """Does the number ending at `end` count things said in the plural ("sixteen children", "20 guests"), not years
    said as people type them ("8 yo", "8 yr old", "8 anos")?"""
    unit = _things_counted(text, end)
    return (unit.endswith("s") or unit in ("children", "people")) and unit not in _YEARS


_YEARS = frozenset(word_list("years yrs anos ans jahre años yos months mos weeks"))


def _an_age(known: Known) -> bool:
    return any(t.attribute == "age" for t in known.topics)


def _aged(value: Value, reading: Reading) -> set[str]:
    """ "user" where the value is the user's age as its statement says ("The user is 73 now"; not "The user's team
    is 7 now", a count). Only the user's: a relative's age said again ("my son is 8 now") is found by the words it
    shares with the fact that holds it ("The user's son Leo is 7"), whose topic is Leo's."""
    return {
        t.subject
        for s in reading.statements
        if value.text in s.text
        for t in topics(s.text)
        if t.attribute == "age" and t.value == value.text and t.subject == "user"
    }


_BARE_COUNT = re.compile(r"\b(?:only|just|down to|up to|so)\s+$", re.I)


def bare_count(value: Value, text: str) -> bool:
    """Is the new number a count said without what it counts ("So only 22 now")?"""
    return (
        value.kind == "number"
        and _BARE_COUNT.search(text[: value.start]) is not None
        and _unit(text, value.end) in ("", "now", "left")
    )


def _same_topic(value: Value, reading: Reading, known: Known) -> bool:
    """May the new value be the known fact's (`of_a_job`)?"""
    return all(of_a_job(s.text, known) for s in reading.statements if value.text in s.text)


def of_a_job(statement: str, known: Known) -> bool:
    """Not when the statement tells a job and the known fact tells none: a new job at a clinic in Brunswick
    is not instead of studying at Melbourne uni, whatever words ("vet") they share."""
    return not any(t.attribute == "job" for t in topics(statement)) or any(
        t.attribute == "job" for t in topics(known.text)
    )


def _unit(text: str, end: int) -> str:
    """The word after a number: what it counts or measures ("67 years", "7 now": "now")."""
    unit = re.match(r"\s*([a-z]+)", text[end:].lower())
    return unit.group(1) if unit else ""


_HEDGED_BEFORE = re.compile(
    r"\b(?:would|willing to|will accept|would accept|happy to accept|minimum|at least|looking for|hoping for)\b"
    r"[^,.;]*$",
    re.I,
)
_WHAT_THE_USER_DID = re.compile(r"^the user (?:lived|worked|studied|grew up|used to|was born)\b", re.I)
_SAID_OF_THE_PAST = re.compile(r"\b(?:lived|worked|studied|grew up|used to|was|were)\b", re.I)
_IF_AFTER = re.compile(r"\s*(?:now\s+)?if\b", re.I)


def _same_measure(value: Value, text: str, known: Known) -> bool:
    """Does some number of the known fact measure what the new one may: not a span of time or a measure
    ("67 years", "5 km") unless the new number is one of the same."""
    said = _unit(text, value.end)
    new = stem(said)
    for old in known.values:
        if old.kind != "number":
            continue
        unit = _unit(known.text, old.end)
        if stem(unit) == new or (unit not in _NOT_PEOPLE and said not in _SPANS):
            return True  # not "he's 2 hours away now", "one weekend a month" for "Raymond is 84"
    return False


def counted(reading: Reading) -> list[str]:
    """The new numbers with what they count, as written ("45k", "30 thousand"): what names the facts whose
    counts they may be (`_counts_alike`; `live.keys`)."""
    found = []
    for value in reading.new:
        unit = _things_counted(reading.text, value.end) if value.kind == "number" else ""
        if unit:
            found.append(reading.text[value.start : reading.text.lower().index(unit, value.end) + len(unit)])
    return found


def _done(text: str) -> bool:
    """Does a fact of the user's tell a deed done ("The user ran their first marathon in 2019")? A race moved
    is one still to run."""
    words = [w for w in text.lower().split() if w not in ADVERBS]
    if words[:2] != ["the", "user"] or len(words) < 3:
        return False
    return words[2] in IRREGULAR_PAST or (words[2].endswith("ed") and words[2] not in ("need", "feed"))


def _counts_alike(value: Value, text: str, known: Known) -> bool:
    """Does the new number count what one of the known fact's counts ("can go up to 45k now" of "budget
    30k pesos", "reduce to 30 thousand" of "40 thousand dollars", "4 grandchildren" of "3 grandchildren")?
    Not a span or a measure ("10 years"): those are said of too many things."""
    unit = _things_counted(text, value.end)
    if not unit:
        return False
    return any(old.kind == "number" and stem(_unit(known.text, old.end)) == stem(unit) for old in known.values)


def _things_counted(text: str, end: int) -> str:
    """What the number ending at `end` counts, when it counts things ("30k": "k", "4 grandchildren"); "" for a
    span or a measure ("10 years") or no word that says ("22 now")."""
    unit = _unit(text, end)
    return "" if unit in _NOT_PEOPLE or unit in _NOT_UNITS else unit


_NOT_UNITS = frozenset(word_list("now more total in at on of and or so to a the this that then only each per"))


# "Declan is off to Australia", "my sister moved to Leeds": someone goes to a place
_GOES = re.compile(
    r"^(?P<who>.+?)\s+(?:is\s+|has\s+|'s\s+)?(?:off|moving|moved|going|gone|heading|headed|relocating|"
    r"relocated|emigrat\w+)\s+(?:back\s+|over\s+|out\s+)?to\s+(?:the\s+)?(?P<place>.+?)\s*$",
    re.I,
)


_OTHERS_OWN = re.compile(r"^(?P<whose>the user's [\w-]+(?: (?-i:[A-Z])[\w-]+)?|(?-i:[A-Z])[\w-]+)'s\s", re.I)


def _someone_elses(value: Value, reading: Reading) -> str | None:
    """Whose thing a statement carrying the new value changes, when someone else's ("The user's brother's race
    got moved to …", "The user's neighbour had to reduce to 30 thousand for his bathroom": "the user's
    brother", "the user's neighbour"); None where it is the user's own."""
    carrying = [s.text for s in reading.statements if value.text in s.text]
    for text in carrying:
        own = _OTHERS_OWN.match(text)
        if own is not None:
            return own.group("whose").lower()
        said = subject_of(text)  # "The user's neighbour had to reduce to 30 thousand for his bathroom",
        # "The user's brother is 80 kg now"; not "The user's teacher moved the deadline to monday": the user's
        if said.startswith("the user's ") and said.split()[-1] in PEOPLE and re.search(r"\b(?:his|her|is)\b", text):
            return said
    # "Tom's salary is 70k now though": said of someone else's thing, though no statement of the user's says it
    # (not "Skye's been moved": a name's "has")
    own = None if carrying else _THEIR_THING.match(reading.text)
    if own is None or own.group("next").lower() in IRREGULAR_PAST:  # "my dad's put in £4,000": has put
        return None
    return re.sub(r"^my ", "the user's ", own.group("whose").lower())


_THEIR_THING = re.compile(
    r"^(?P<whose>(?-i:[A-Z])[\w-]+|my [\w-]+)['’]s\s+(?!(?:been|got|gone|going|moved|now|just|still|also|not|a|an|"
    r"the|back|off|on|in|at|over|done|finished)\b)(?![a-z]+(?:ed|ing)\b)(?P<next>[a-z]+)"
)


def _going(value: Value, reading: Reading, live: Sequence[Known] = ()) -> str | None:
    """Whom a statement sends to the new place (as `subject_of` names them), when it is not the user; or whom,
    by their name alone, the statement carrying the new value is about ("Funmi just relocated to Manchester to
    work for the NHS" changes nothing of where Emeka works; "Carol … moved there" after "The user's daughter is
    Carol" moves Carol, not the user)."""
    for statement in reading.statements:
        going = _GOES.match(statement.text)
        if going and going.group("place").startswith(value.text):
            who = subject_of(statement.text)
            return None if who.startswith("the user") else who
    for statement in reading.statements:
        if value.text in statement.text and re.fullmatch(r"[a-z][\w'-]*", who := subject_of(statement.text)):
            kin = re.search(rf"\b(?:my|our)\s+(?P<rel>[\w-]+)\s+{re.escape(who)}\b", reading.text, re.I)
            known_kin = (re.match(rf"^the user's (?P<rel>[\w-]+) is {re.escape(who)}$", k.text, re.I) for k in live)
            kin = kin or next((m for m in known_kin if m), None)
            return who if kin and kin.group("rel").lower() in PEOPLE else None  # not "Spanish is on Mondays now"
    return None


# "so we're 7 now": how many the user's group counts
US_COUNT = re.compile(r"\b(?:we're|we are|there are|there're)\s+(?:now\s+|only\s+|just\s+)?$", re.I)
GROUP_WORDS = "team staff class group crew squad band family household"
_GROUPS = stem_set(GROUP_WORDS)


def _a_headcount(value: Value, text: str, about: frozenset[str]) -> bool:
    """Does the number count people: "like 90 people", "so only 22 now" of guests, not "she lives 10
    minutes from me, so she can help in person" (what follows a number is what it counts)."""
    if _unit(text, value.end) in _NOT_PEOPLE:
        return False
    return counts_people(about)


# What a number measures when it is no headcount: "10 minutes from me", "2 hours", "5 km".
_NOT_PEOPLE = frozenset(
    word_list(
        "second seconds minute minutes min mins hour hours hr hrs day days week weeks month months year years yrs "
        "km kms mile miles metre metres meter meters m kg kilos pounds lbs euro euros dollars quid bucks percent "
        "pm am times floors floor stops dirham dirhams rupees rupee lakh lakhs naira rand yen pesos reais zloty "
        "krona kronor kroner francs ringgit baht shekels dinars"
    )
)
# A span or a measure said of a new number, which a bare number known (an age, a count) is never: years aside, as
# ages are said in them ("35 years old now")
_SPANS = (_NOT_PEOPLE - {"year", "years", "yrs"}) | frozenset(word_list("weekend weekends night nights"))


def _about(value: Value, reading: Reading) -> frozenset[str]:
    """What a new value is said of: its own statement's words ("moved to Nairobi" is not about teaching), the
    sentence's when no statement carries it, the message's when the sentence says nothing but the value."""
    carrying = [s.text for s in reading.statements if value.text in s.text]
    said = stems(" ".join(carrying)) if carrying else stems(reading.text)
    if not said - stems(value.text) - CHANGE_STEMS:  # "so only 22 now"
        said = stems(reading.message)
    return said


# "Declan is moving home for good in June": someone of the user's coming to live where the user does
_MOVING_HOME = re.compile(
    r"^(?P<who>(?-i:[A-Z])[\w'-]+) (?:is|are|will be) (?:moving|coming|going) (?:back )?home\b"
    r"(?! for (?:the|a|christmas)\b)"  # not a visit home
)


def moving_home(reading: Reading, live: Sequence[Known]) -> list[Known]:
    """Where a statement says someone is moving home, the known facts of where they live elsewhere."""
    found = []
    for statement in reading.statements:
        if (home := _MOVING_HOME.match(statement.text)) is not None:
            who = home.group("who")
            found += [k for k in live if k.id is not None and re.search(rf"\b{re.escape(who)} lives in\b", k.text)]
    return found
