"""A fact's words matched and rewritten: what the rules' reconciliation (`rule_decisions`) does
with a value, a name or a clause taken back.

Values are found by `values` (names, places, dates, numbers); a word matches another when
their stems are the same or begin alike (`alike_stems`), as the live facts' index finds them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memoir.ingest.cues import RETRACTION
from memoir.ingest.gate import content_words
from memoir.ingest.lexicon import CONSUMED, EVENTS, HEADCOUNT, JOB_ENDINGS, MEDICATIONS
from memoir.ingest.person import third_person
from memoir.ingest.stemming import stem, stem_set, stems
from memoir.ingest.values import MONTHS, WEEKDAYS, Value, values

__all__ = [
    "alike_stems",
    "counts_people",
    "gives_up",
    "habit_dropped",
    "mentions",
    "merge_values",
    "named_by_kind",
    "other_of_kind",
    "related",
    "said_for",
    "same_subject",
    "still_holds",
    "subject_of",
    "swap_kind",
    "swap_value",
    "taken_part",
    "taken_words",
    "takes_back",
    "untouched",
    "with_aliases",
    "without_stay",
]

# a habit dropped: a doing ("stopped smoking"), or a thing consumed ("stopped the Coca-Cola", "gave up sugar")
_HABIT = re.compile(
    r"\b(?:quit|stopped|stop|gave up|given up|give up)\s+(?:\w+ing\b|(?:the\s+)?(?-i:[A-Z])[\w-]+|(?:the\s+)?"
    rf"(?:{CONSUMED})\b)",
    re.I,
)
_BY_US = re.compile(r"^(?:(?:so|and|also|finally|just|then)\s+)*(?:i|we|i've|we've|i have|we have)\b", re.I)
_PAID_OFF = re.compile(
    r"\b(?:clos(?:e|ed|ing)|paid off|pay off|paying off|paid back|cleared|settle|settled)\s+"
    r"(?P<what>(?:the|my|our)\s+(?:[\w-]+\s+)?(?:loan|mortgage|debt|overdraft))\b",
    re.I,
)
# the same said alone, of a doing or a thing consumed only ("I stopped the Toyota at the lights" is no habit)
_GIVEN_UP = re.compile(rf"\b(?:quit|stopped|gave up|given up)\s+(?:\w+ing\b|(?:the\s+)?(?:{CONSUMED})\b)", re.I)
_TAKEN_BACK = stem_set(
    "don't doesn't didn't not no longer anymore any more used quit sold stopped stop gave give up got rid left "
    "cancelled canceled called off never mind broke dropped out moved isn't aren't wasn't happening do does did be "
    "have make go take the user user's given cut should says said handed hand notice resigned completely totally "
    "entirely fully job gig thing stuff plan plans idea lol haha out window split divorced separated dumped "
    "finally eventually already just actually really officially withdrawn withdraw withdrew pulled "
    "kill killing killed scrap scrapping scrapped ditch ditching ditched shelve shelving shelved binned abandon "
    "abandoned abandoning scratch scratching scratched forget let us close closed closing paid pay paying back "
    "cleared settled last day shift must back handed handing giving fell through return returned sent stepped step "
    "stepping down aside pulled unwell ill sick mrs mr ms dr"
)


def mentions(text: str, value: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(value)}s?(?!\w)", text, re.IGNORECASE) is not None


def taken_words(clause: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The stems a clause takes back, and those of its names (None: it takes back no word)."""
    clause = re.sub(r"\s*\([^()]*\)?\s*$", "", clause)  # "… are free now (and I'm on crutches)": an aside
    clause = _WORKED_OUT.sub("", taken_part(clause))  # "the Deloitte thing didn't work out": Deloitte
    clause = _WHEN_SAID.sub("", clause)  # "I moved out of halls this weekend": the halls
    if not any(v.kind == "weekday" for v in values(clause)):  # a day taken back is a schedule's part: as said
        clause = _SINCE_WHEN.sub("", clause)
    said = _DOER.sub(lambda m: m.group(1), third_person(clause) or clause)  # "not a bus driver": drives the bus
    taken = stems(" ".join(content_words(said))) - _TAKEN_BACK
    if not taken:
        return None
    return taken, stems(" ".join(v.text for v in values(clause) if v.kind in ("name", "place")))


_DOER = re.compile(r"\b(drive|teach|clean)(?:r|er)\b", re.I)
_WHEN_SAID = re.compile(r"\s+(?:(?:this|last)\s+(?:week|weekend|month|year)|yesterday|today|recently)\b", re.I)
_WORKED_OUT = re.compile(r"\b(?:didn't|did not|didnt)\s+work\s+out\b", re.I)
# When a thing taken back ends, which no fact of it says: "no more nights starting March 3rd" takes back the nights
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_SINCE_WHEN = re.compile(
    r",?\s+(?:starting|from|as of|beginning|effective)\s+(?:on\s+|in\s+)?(?:the\s+)?"
    rf"(?:(?:{_MONTH})\.?(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?|\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+(?:{_MONTH})|"
    rf"next\s+(?:week|month|year)|{'|'.join(WEEKDAYS[:7])})\b",
    re.I,
)


def alike_stems(words: frozenset[str], others: frozenset[str]) -> frozenset[str]:
    """The stems of `words` that are `others`', or begin alike ("retirem" of retirement, "retir" of retires)."""
    starts = {o[:5] for o in others if len(o) >= 5}
    return frozenset(w for w in words if w in others or (len(w) >= 5 and w[:5] in starts))


def still_holds(swapped: str, known: str, retracted: Sequence[str]) -> bool:
    """Does a fact, its value swapped, still hold all a retraction takes back: every word, and every value of the
    fact it names ("no more nights" of "three night shifts"; not "no longer 3 times a week" of "3 times a week")?"""
    named = [v.text for clause in retracted for v in values(clause) if mentions(known, v.text)]
    if any(not mentions(swapped, value) for value in named):
        return False
    taken = [words[0] for clause in retracted if (words := taken_words(clause)) is not None]
    return bool(taken) and all(alike_stems(words, stems(swapped)) == words for words in taken)


_HOW_IT_ENDED = re.compile(r"\s*\b(?:in the end|eventually|at last|after all)\b", re.I)


def taken_part(clause: str) -> str:
    """The clause up to what it takes back: "Arjun has left us" of "Arjun has left us to do his MBA in Pune"."""
    clause = _HOW_IT_ENDED.sub("", clause)  # "We cancelled Lanzarote in the end", "gave up eventually on piano"
    cue = RETRACTION.search(clause)
    if cue is None:
        return clause
    if re.search(r"\b(?:used|using|with)\b.*\bto\s*$", clause[: cue.start()], re.I):
        clause, cue = clause[cue.start() :], RETRACTION.search(clause[cue.start() :])  # "used my bonus to close …"
        assert cue is not None
    # what follows is why, or where every club and shift is ("the wednesday club thing at school"), or when a job
    # ends ("last day at the hagwon is july 31")
    why = re.search(
        r"\s+(?:(?:to|because|for|since|after|as|so|in order to|due to)\s|at (?:school|work|uni|college)\b|"
        r"(?:is|was|will be)\s)",
        clause[cue.end() :],
        re.I,
    )
    return clause[: cue.end() + why.start()] if why else clause


def gives_up(clause: str) -> bool:
    """Does the user say they gave something up ("I gave up alcohol in January", "we quit smoking")?"""
    return _GIVEN_UP.search(clause) is not None and _BY_US.match(clause) is not None


def habit_dropped(retracted: Sequence[str]) -> str | None:
    """ "I stopped smoking": taken back, and a fact of its own (a habit dropped says something of the user)."""
    for clause in retracted:
        paid = _PAID_OFF.search(clause) if _BY_US.match(clause) else None
        if paid:  # "used my bonus to close the car loan": a debt paid off, as much a fact
            what = re.sub(r"^(?:my|our)\b", "their", paid.group("what"), flags=re.I)
            return f"The user paid off {what}"
        if _HABIT.search(clause) and (said := third_person(clause)):
            # a habit dropped is done by the time it is told: "i stop smoking" (as typed) is "stopped"
            return re.sub(r"^(The user) (?:stops|gives up|quits)\b", _in_the_past, said)
    return None


def _in_the_past(match: re.Match[str]) -> str:
    verb = match.group(0).split()[-1].lower()
    return f"{match.group(1)} {_PAST_OF.get(verb, verb)}"


_PAST_OF = {"stops": "stopped", "quits": "quit", "up": "gave up"}


def swap_value(text: str, old: str, new: str) -> str:
    """`text` with `old` written as `new`; a name replaces the whole name it is part of ("Kevin Doyle")."""
    for value in values(text):
        if value.kind in ("place", "name") and mentions(value.text, old) and not mentions(new, value.text):
            return text[: value.start] + new + text[value.end :]
    return re.sub(rf"(?<!\w){re.escape(old)}s?(?!\w)", new.replace("\\", ""), text, count=1, flags=re.IGNORECASE)


def other_of_kind(found: Sequence[Value], value: Value) -> bool:
    return any(v.kind == value.kind and v.key != value.key for v in found)


def swap_kind(text: str, value: Value, said: str = "") -> str | None:
    """`text` with its value of `value`'s kind written as `value` (None: it holds none, or the same).

    Of several, the one counting what the new value counts in `said` (the message it came in) is
    swapped: "max is now 6 guests" changes "max 8 guests", not "5 days"."""
    kinds = {"place", "name"} if value.kind in ("place", "name") else {value.kind}
    found = [f for f in values(text) if f.kind in kinds and f.key != value.key]
    # Not one the message names again where another is left: "Tom moved to York" changes where Tom
    # lives, not who he is; "600 euros now, up from 500 euros" still changes the 500.
    found = [f for f in found if not (said and mentions(said, f.text))] or found
    found.sort(key=lambda f: f.kind != value.kind)  # a place for a place before a name (the kinds are guesses)
    unit = _unit(said, value.end) if said else ""
    counting = [f for f in found if unit and _unit(text, f.end) == unit]
    for chosen in counting or found:
        swapped = text[: chosen.start] + value.text + text[chosen.end :]
        # "We live in North York now": not "since two years", which was the old place's
        return without_stay(swapped, value.text, said) if value.kind == "place" else swapped
    return None


def _unit(text: str, end: int) -> str:
    """The stem of the word after a value ("guests" after "6"): what it counts."""
    after = re.match(r"\s+([a-z]+)", text[end:], re.I)
    return next(iter(stems(after.group(1))), "") if after else ""


def merge_values(text: str, said: str) -> str:
    """`text` with the dates, times, days and numbers `said` gives instead of its own."""
    for value in values(said):
        if value.kind in ("date", "time", "weekday", "number") and not mentions(text, value.text):
            text = swap_kind(text, value) or text
    return text


def same_subject(first: str, second: str) -> bool:
    """Do both facts speak of the same one: the user, or the same named person or thing?"""
    return subject_of(first) == subject_of(second)


def subject_of(text: str) -> str:
    lowered = text.lower()
    if lowered.startswith("the user's "):
        return "the user's " + lowered.split()[2]
    return "the user" if lowered.startswith("the user ") else lowered.split()[0] if lowered else ""


_EVENT_STEMS = stem_set(" ".join(EVENTS) + " plan plans idea thing")
_HEADCOUNT = stem_set(" ".join(HEADCOUNT))


def related(known: frozenset[str], about: frozenset[str], old: str) -> bool:
    """Does a fact (its stems, `known`) share a word with the sentence besides the old value?"""
    return bool((known - stems(old)) & (about - stems(old)))


# What a fact is about, in the words people take it back or change it with: "not milk at all" of lactose
# intolerance, "quit the cafe" of barista shifts, "the race got pushed" of a marathon
_SAID_OF = {
    "lactose": ("milk", "dairy"),
    "coeliac": ("gluten", "wheat"),
    "celiac": ("gluten", "wheat"),
    "peanut": ("nut",),
    "barista": ("cafe", "café", "coffee"),
    "waiter": ("restaurant", "cafe", "café", "diner"),
    "waitress": ("restaurant", "cafe", "café", "diner"),
    "bartender": ("bar", "pub"),
    "baker": ("bakery",),
    "goalie": ("soccer", "football", "hockey"),
    "due": ("deadline",),  # "teacher moved the deadline to monday" of "essay due friday"
    # a race of its kind: "the race got pushed to March 2" of the half marathon
    "marathon": ("race",),
    "triathlon": ("race",),
    "ultramarathon": ("race",),
    "goalkeeper": ("soccer", "football", "hockey"),
    "leaving": ("heading", "departing"),  # "now we're heading out February 3rd" of "leaving January 10th"
    "fly": ("flight", "flights"),  # "I have cancelled the flights" of "booked to fly out in September"
    "flying": ("flight", "flights"),
    # "I quit coffee" of "5 americanos a day": a coffee by its kind
    "americano": ("coffee",),
    "espresso": ("coffee",),
    "latte": ("coffee",),
    "cappuccino": ("coffee",),
    "rent": ("rental",),  # "I returned the rental" of "I rent the cello from Musikhaus Kessler"
    "rented": ("rental",),
}
# "took me off the old pill" of metformin
_SAID_OF |= dict.fromkeys(MEDICATIONS.split(), ("pill", "pills", "meds", "medication", "medicine", "tablet"))
_ALIASES = {stem(word): frozenset(stem(a) for a in aliases) for word, aliases in _SAID_OF.items()}


def with_aliases(known: frozenset[str]) -> frozenset[str]:
    """A fact's stems and the words people may name what it is about by ("race" of a marathon)."""
    return known | frozenset(alias for word in known for alias in _ALIASES.get(word, ()))


def named_by_kind(known: frozenset[str], taken: frozenset[str]) -> frozenset[str]:
    """The stems of a fact that `taken` names only by a word for their kind ("metformin" of "pill")."""
    return frozenset(s for s in known if _ALIASES.get(s, frozenset()) & taken)


def said_for(text: str) -> list[str]:
    """The words a text's words may take back ("milk": lactose; "pill": metformin), for finding the facts they name."""
    said = stems(text)
    return [word for word, aliases in _SAID_OF.items() if said & _ALIASES[stem(word)]]


def takes_back(words: tuple[frozenset[str], frozenset[str]], known: frozenset[str], aliases: bool = True) -> bool:
    """Does a fact (its stems) hold every word a clause takes back ("no more Friday nights": friday,
    night), or its names and no word that is not an event's ("the Mombasa trip is off": Mombasa)?
    (`taken_words`; `aliases`: or a word it may be named by, "pill" of metformin)"""
    taken, names = words
    known = with_aliases(known) if aliases else known
    if alike_stems(taken, known) == taken:
        return True
    return bool(names) and names <= known and not (taken - names - _EVENT_STEMS)


def counts_people(words: frozenset[str]) -> bool:
    """Do these stems count people ("90 people", "140 guests": one count in other words)?"""
    return bool(words & _HEADCOUNT)


_ROLE_AT = re.compile(
    r"^(?P<head>the user is (?:a|an) (?P<job>[\w-]+(?: [\w-]+){0,2}))\s+(?P<where>(?:at|with|for)\s+.+)$", re.I
)


def untouched(text: str, about: frozenset[str], old: str | None) -> str | None:
    """What a fact of several parts still says when a change names only its later parts: "The user is a
    staff nurse at the Queen Elizabeth hospital, on the renal ward" keeps the nurse after "I've moved off the
    renal ward" (`about`: the stems the change speaks of). None: the change names its first part (the one
    with the subject), or no part, or the fact has one part."""
    head, *parts = re.split(r"(,\s+)", text)
    role = _ROLE_AT.match(head)  # "The user is a pharmacist at Korle Bu Hospital": the job, and where
    if role and role.group("job").lower().split()[-1].endswith(JOB_ENDINGS):
        head, parts = role.group("head"), [" ", role.group("where"), *parts]
    said_of = re.match(r"^(.+?)\s+(?:is|are|was|were|has|have|had|does|do|will)\b", head)
    subject = stems(said_of.group(1) if said_of else subject_of(text))  # "the user's daughter Anjali"

    def named(part: str) -> bool:
        return bool(alike_stems(stems(part) - subject, about)) or (old is not None and mentions(part, old))

    pairs = list(zip(parts[::2], parts[1::2], strict=True))  # (separator, part)
    if not pairs or named(head) or not any(named(p) for _, p in pairs):
        return None
    return head + "".join(sep + p for sep, p in pairs if not named(p))


_CORRECTED = re.compile(r"\b(?:meant|mean|sorry|typo|correction|mistake|misspoke|wrong|oops)\b", re.I)
_LIVES_IN = re.compile(r"\b(?:lives?|living|lived|based|resident|settled)\s+(?:\w+\s+)?(?:in|at|near)\s+$", re.I)
# How long the user has been somewhere: "since two years" (as typed by many), "for 6 years", "since 2019"
_STAY = re.compile(
    r"(?:,?\s+(?:since|for)\s+(?:(?:the\s+)?(?:last|past)\s+)?(?:\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|"
    r"nine|ten|a few|a couple of|several)\s+(?:years?|yrs?|months?|weeks?)(?:\s+now)?\b"
    r"|,?\s+since\s+(?:(?:19|20)\d\d|last\s+(?:year|yr|month))\b"
    r")(?=\s*$|\s*,\s+(?!since\b|for\b))",  # all of it: not "for 6 months a year", "since two years ago"
    re.I,
)


def without_stay(text: str, place: str, said: str) -> str:
    """A fact of where the user lives whose place was just swapped, without how long they had lived in the old
    one (not a trip's length: "travelling to Korea for 3 weeks in May" keeps its three weeks; not where `said`, the
    sentence, corrects the place: "sorry i meant Munich, not Berlin" keeps the six years)."""
    if _CORRECTED.search(said):
        return text
    at = text.find(place)
    lives = _LIVES_IN.search(text[:at]) if at >= 0 else None
    stay = _STAY.match(text, at + len(place)) if lives else None  # right after it: not "…, married for 3 years"
    return text[: stay.start()] + text[stay.end() :] if stay else text
