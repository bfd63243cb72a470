"""The rules' reconciliation (seed 004, 4.3, without a model): what a message's readings
(`changes`) do to the facts already known.

A known fact is changed only when the message names it so: it holds the old value and
shares a word with the sentence beyond it ("Elena is planning the offsite" for "Ravi is
planning it now, not Elena", never "Elena joined in June"), or it holds every word the
message takes back, or it holds a value of the new value's kind and shares a word with
the sentence. What replaces it is the fact as it holds now: the old fact with the new
values in it ("The user's wedding is in Seville on 14 June", keeping the date) when the
message changed values, the message's own statement when it said something new ("I'm a
joiner at a shipyard in Hull now"), or nothing (a deletion) when it only took a fact
back. The old fact becomes a tombstone pointing at its successor (`replaced_by`).

Statements the changes did not use are settled against the known facts (`settling`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memoir.index.keyword import terms
from memoir.ingest.changes import Reading
from memoir.ingest.cues import CORRECTION
from memoir.ingest.fact_words import (
    counts_people,
    habit_dropped,
    mentions,
    merge_values,
    related,
    said_for,
    same_subject,
    subject_of,
    swap_kind,
    swap_value,
    taken_part,
    taken_words,
    takes_back,
    untouched,
    with_aliases,
)
from memoir.ingest.known import Decision, Known, replace_known
from memoir.ingest.lexicon import HEADCOUNT, word_list
from memoir.ingest.new_values import CHANGE_STEMS, GROUP_WORDS, US_COUNT, counted, new_value, of_a_job
from memoir.ingest.person import third_person
from memoir.ingest.settling import settle
from memoir.ingest.topics import stem, stem_set, stems
from memoir.ingest.values import Value, values
from memoir.model.memory import normalise_content

__all__ = ["Decision", "Known", "Names", "naming", "reconcile_by_rules", "reconcile_known"]

# What a statement says of itself when it takes the place of what was taken back.
_NEW = re.compile(
    r"\b(?:now|instead|these days|nowadays|from now on|new|anymore|switch\w*|mov(?:ed|ing)|start\w*|joined|"
    r"only|in the end|finally|went with|went for|chose|picked)\b",
    re.I,
)
_CHANGE_WORDS = frozenset(
    word_list(
        "now got get gets moved move moves switched switch changed change pushed postponed rescheduled shifted cut "
        "upped raised reduced increased bumped brought relocated transferred swapped slipped delayed replaced instead "
        "anymore again back forward earlier later reduce increase raise lower drop trim"
    )
)
# What says a new value may hold, not more of what holds: "The user can go up to 45k now" says the budget
_HOW = frozenset(word_list("can could will would may might go goes going need needs have has to up down total"))
# Verbs say how, not what: a fact is not the one a statement restates because both "go" or "do" something.
_VERB_STEMS = stem_set(
    "live lives work works learn learning do does doing go goes going play plays run runs training train study eat "
    "drink take have get make use like love need want start try keep find join move switch change book booked "
    "is are was"
)


def all_stems(text: str) -> frozenset[str]:
    """The stems of every word of a text, time words too ("day", which `stems` leaves out)."""
    return frozenset(stem(w) for w in terms(text))


def _opposite(text: str) -> frozenset[str]:
    """The other of each pair a text's shifts name one of ("day shifts": night), unless it names both; only
    of work shifts ("I switched to day shifts"), not of anything said of a day ("now I go every day")."""
    said = all_stems(text)
    if "shift" not in said:
        return frozenset()
    return frozenset(_OPPOSITES[w] for w in said if w in _OPPOSITES) - said


def _of_work(text: str) -> frozenset[str]:
    """A fact's words but a day or night that only says how often ("The user goes every day at seven" is not
    on day shifts; "The user is on nights" is on night shifts)."""
    return all_stems(_HOW_OFTEN.sub(" ", text))


_HOW_OFTEN = re.compile(r"\b(?:every|each|a|per|all|one|some|the other|that|this)\s+(?:day|night)s?\b", re.I)


# Pairs where one replaces the other: a switch to day shifts is from the nights
_OPPOSITES = {"day": "night", "night": "day"}


@dataclass(frozen=True)
class Names:
    """How a message's readings name the known facts they may decide on (`naming`; `live.LiveFacts.near`)."""

    alike: tuple[str, ...] = ()  # statements: a fact on its topic, holding all its stems, or held all by it
    sharing: tuple[str, ...] = ()  # a fact sharing a stem (or its first five letters) or a topic with one
    words: tuple[str, ...] = ()  # values: a fact that names one


def naming(readings: Sequence[Reading]) -> Names:
    """What names every known fact the readings may change or find again (`reconcile_known`).

    A statement that no change used is settled against a fact on the same topic, or one
    holding all its stems, or one whose stems it holds all of, and nothing else (`settling.settle`,
    `_replaces`). A sentence that changes something names the fact it changes by an old
    value (`mentions`), by a clause taken back (its stems as `takes_back` reads them), or
    by a stem shared with the sentence or a statement of it (`_restated`, `new_value`), and
    after a verb of change with the message ("so only 22 now": `_about`). A fact named by
    none of these may be left out of the comparison: keep this in step with the rules.
    """
    alike: list[str] = []
    sharing: list[str] = []
    words: list[str] = []
    for reading in readings:
        said = [statement.text for statement in reading.statements]
        alike += said
        if not reading.changing:
            continue
        sharing += [reading.text, *said, *(" ".join(_opposite(text)) for text in said), *said_for(reading.text)]
        sharing += [" ".join(kind) for kind in _KINDS if set(terms(reading.text)) & kind]  # "Asana" of Trello
        words += reading.old
        if CORRECTION.search(reading.message):  # "his name was Ole Haugen" may correct "Olaf Haugen"
            words += [v.text.split()[-1] for v in reading.new if v.kind == "name" and len(v.text.split()) > 1]
        for clause in reading.retracted:
            taken = taken_part(clause)
            sharing += [taken, third_person(taken) or taken, *said_for(taken)]
        if reading.moved:
            sharing.append(reading.message)
            words += counted(reading)  # "up to 45k now" may change "budget 30k pesos"
            if counts_people(stems(reading.message)):  # "like 90 people" may change "140 guests"
                sharing.append(" ".join(HEADCOUNT))
            if any(US_COUNT.search(reading.text[: v.start]) for v in reading.new if v.kind == "number"):
                sharing.append(GROUP_WORDS)  # "so we're 7 now" may change "our team (four of us)"
    return Names(tuple(alike), tuple(sharing), tuple(words))


def reconcile_by_rules(readings: Sequence[Reading], existing: Sequence[tuple[str, str]]) -> list[Decision]:
    """What a message's readings do to the known facts, given as (memory id, text), in order."""
    return reconcile_known(readings, [Known(memory_id, text) for memory_id, text in existing])


def reconcile_known(readings: Sequence[Reading], live: list[Known]) -> list[Decision]:
    """`reconcile_by_rules` over facts read already, in order; `live` follows the decisions.

    Only the facts `naming` finds can be changed or found again by the readings: the
    others may be left out (`live.LiveFacts.near`) and the decisions are the same.
    """
    decisions: list[Decision] = []
    for reading in readings:
        used: set[int] = set()
        changed = _changes(reading, live, used) if reading.changing else []
        decisions += changed
        for index, statement in enumerate(reading.statements):
            if index in used or (changed and _BARE_CHANGE.match(statement.text)):
                continue  # "my cousin upped the order, it's 200 conchas now": the order says 200, nothing more
            decisions += settle(statement, live)
    return decisions


# That something changed, and nothing of what it is now: said by the fact the change rewrote
_BARE_CHANGE = re.compile(
    r"^the user(?:'s [\w-]+)? (?:has |have )?(?:upped|changed|moved|swapped|raised|cut|bumped|pushed|postponed|"
    r"rescheduled|increased|reduced|lowered) (?:the|their|our) [\w-]+$",
    re.I,
)


def _changes(reading: Reading, live: list[Known], used: set[int]) -> list[Decision]:
    decisions = []
    targets = _targets(reading, live) or _implicit(reading, live)
    for known, how, old in targets:
        text, took = _replacement(known, how, old, reading, used)
        used |= took
        important = any(reading.statements[i].important for i in took)
        source = "llm" if any(reading.statements[i].source == "llm" for i in took) else "heuristics"
        if text is None or normalise_content(text) == normalise_content(known.text):
            decisions.append(Decision("DELETE", known.text, known.id))
            live.remove(known)
        else:  # with a rest: the change named one part of the fact, that part is replaced, the rest holds
            decisions += replace_known(known, text, _rest(known, reading, old, text), important, source, live)
    return decisions


def _rest(known: Known, reading: Reading, old: str | None, text: str) -> str | None:
    """The parts of a known fact a change left as they were, when its new text does not say them again."""
    if not any(normalise_content(text) == normalise_content(s.text) for s in reading.statements):
        return None  # the fact rewritten with its new value: nothing of it was left out
    rest = untouched(known.text, stems(reading.text) - CHANGE_STEMS, old)
    if rest is None or not (stems(rest) - stems(text) - stems(subject_of(rest))):
        return None
    if re.search(r"\b(?:is|are|was|were)\s+\w+$", rest):
        return None  # "The class is big" without its 52 students says how it was, not what still holds
    return rest


def _targets(reading: Reading, live: Sequence[Known]) -> list[tuple[Known, str, str | None]]:
    """The known facts a sentence names as changed: by an old value, or by taking them back."""
    found: list[tuple[Known, str, str | None]] = []
    about = stems(reading.text) - CHANGE_STEMS
    only_values = not (about - stems(" ".join(v.text for v in values(reading.text))))
    taken = [words for clause in reading.retracted if (words := taken_words(clause)) is not None]
    for known in live:
        if known.id is None:
            continue
        old = next(
            (a for a in reading.old if mentions(known.text, a) and (only_values or related(known.stems, about, a))),
            None,
        )
        if old is not None:
            found.append((known, "value", old))
        elif any(takes_back(words, known.stems) for words in taken):
            found.append((known, "retracted", None))
    for old in reading.old:  # "the trip is in September now, not April": the one fact that says April
        if not any(o == old for _, how, o in found if how == "value"):
            saying = [k for k in live if k.id is not None and mentions(k.text, old)]
            if len(saying) == 1 and not any(k is saying[0] for k, _, _ in found):
                found.append((saying[0], "value", old))
    return found


def _implicit(reading: Reading, live: Sequence[Known]) -> list[tuple[Known, str, str | None]]:
    """The fact a sentence changes without naming its old value: a new value after a verb of change ("the
    exam got moved to 10 March"), or a statement on the same thing after a change was announced ("change of
    plan: I'm doing the Valencia half marathon instead")."""
    return new_value(reading, live) or _renamed(reading, live) or _restated(reading, live)


def _renamed(reading: Reading, live: Sequence[Known]) -> list[tuple[Known, str, str | None]]:
    """ "Correction, I was squinting at the wrong line — his name was Ole Haugen": the one known fact naming
    someone of that family by another first name ("Olaf Haugen") had it wrong."""
    if CORRECTION.search(reading.message) is None:
        return []
    found: list[tuple[Known, str, str | None]] = []
    for value in reading.new:
        for known in live:
            named = [v.text for v in known.values if _same_family(v, value)]
            if known.id is not None and len(named) == 1 and not any(k is known for k, _, _ in found):
                found.append((known, "renamed", named[0]))
    return found if len(found) == 1 else []


def _same_family(old: Value, new: Value) -> bool:
    """Two names of one family, with other first names ("Olaf Haugen", "Ole Haugen")."""
    said, saying = old.text.lower().split(), new.text.lower().split()
    if not (old.kind == new.kind == "name" and len(said) > 1 and len(saying) > 1):
        return False
    return said[-1] == saying[-1] and said[0] != saying[0]


_SPAN_AFTER = re.compile(r"\s*(?:seconds?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?|yrs?)\b", re.I)
_PER = re.compile(r"\b(?:a|per|each)\s+(?:head|person|night|day|week|month|year|hour|kilo|kg)\b", re.I)


def _restated(reading: Reading, live: Sequence[Known]) -> list[tuple[Known, str, str | None]]:
    if not reading.announced:
        return []
    found: list[tuple[Known, str, str | None]] = []
    # values say what changed, not what about: "3 nights in a row" is not "3 weeks back" restated
    names = stems(" ".join(v.text for v in values(reading.text)))
    for index, statement in enumerate(reading.statements):
        switched = _SWITCHED.match(statement.text)  # "switched hotels": the hotel, whatever the new one is called
        said = _PER.sub(" ", statement.text)  # "400 dirhams a head" says nothing of a head chef
        own = stems(switched.group("kind")) if switched else stems(said) - CHANGE_STEMS - names
        opposite = _opposite(statement.text)  # "switched to day shifts": from the nights
        kinds = {v.kind for v in values(statement.text)}
        best: tuple[int, Known] | None = None
        for known in live:
            opposed = opposite & _of_work(known.text) if same_subject(statement.text, known.text) else frozenset()
            shared = (known.stems & own) | opposed | _kin(statement.text, known.text)
            if known.id is None or not shared - _VERB_STEMS or any(k is known for k, _, _ in found):
                continue
            if kinds and not kinds & {v.kind for v in known.values}:
                continue  # "the atlas deadline slipped to November" is new beside "we migrate Atlas", not instead
            if not of_a_job(statement.text, known):
                continue
            score = 2 * len(shared) + len(opposed) + bool(kinds & {v.kind for v in known.values})
            if best is None or score > best[0]:
                best = (score, known)
        if best is not None:
            found.append((best[1], "restated", str(index)))
    return found


# Names of one kind, where a team or a person uses one at a time: "We've switched to Asana" of "We track everything
# in Trello", "I'm on Android now" of "I have an iPhone"
_KINDS = tuple(
    frozenset(word_list(kind))
    for kind in (
        "trello asana jira notion clickup basecamp linear wrike airtable",
        "slack discord whatsapp telegram signal",
        "iphone android pixel samsung galaxy",
    )
)


def _kin(said: str, known: str) -> frozenset[str]:
    """The name in `known` that `said` gives another of its kind for ("trello" of "switched to Asana")."""
    new, old = set(terms(said)), set(terms(known))
    for kind in _KINDS:
        if (new & kind) - old and (old & kind) - new:
            return frozenset((old & kind) - new)
    return frozenset()


def _replacement(
    known: Known, how: str, old: str | None, reading: Reading, used: set[int]
) -> tuple[str | None, set[int]]:
    """The fact as it holds now (None: taken back, nothing said instead), and the statements it used."""
    if how == "renamed" and old is not None:
        value = next(v for v in values(known.text) if v.text == old)
        return swap_value(known.text, old, next(v.text for v in reading.new if _same_family(value, v))), set()
    if how == "restated" and old is not None:
        restated = reading.statements[int(old)].text
        return _switched_to(restated, known, reading) or restated, {int(old)}
    best = _best_statement(reading, known, old, used)
    took = {best} if best is not None else set()
    said = reading.statements[best].text if best is not None else None
    if how == "implicit" and old is not None:
        value = next(v for v in reading.new if v.text == old)
        carrying = [i for i, s in enumerate(reading.statements) if old in s.text and i not in used]
        for index in carrying:  # "she's on day shifts now, Monday to Thursday" says more than the days
            said_of = _up_to_value(reading.statements[index].text, old)  # not why: ", payment gateway approval …"
            more = set(terms(said_of)) - set(terms(known.text)) - set(terms(old))
            # another form of a word the fact holds, or the value with its unit ("45k"): no more said
            named = with_aliases(known.stems)  # "race" of a half marathon
            more = {w for w in more if stem(w) not in named and not w.startswith(old.lower())}
            if more - _CHANGE_WORDS - _HOW - {"user", "user's"}:
                return reading.statements[index].text, {index}
        return swap_kind(known.text, value, reading.text), set(carrying)
    if how == "retracted":
        # "I no longer go on Thursdays, it's Mondays and Saturdays now": a schedule's new value takes the
        # old one's place; a name never does (one dropped, "Valparaíso" said beside it, is no replacement),
        # nor a value the words of another statement carry ("a postdoc starting in June, so I dropped the JLPT")
        schedule = [
            v
            for v in reading.new
            if v.kind in ("weekday", "date", "time", "number")
            and not any(re.search(rf"(?<!\w){re.escape(v.text)}(?!\w)", s.clause or s.text) for s in reading.statements)
            and not (v.kind == "number" and _SPAN_AFTER.match(reading.text, v.end))  # "3 weeks no cigarette": how long
        ]
        swapped = next((t for v in schedule if (t := swap_kind(known.text, v)) is not None), None)
        if swapped is None and (listed := _one_of_list(known.text, reading.retracted)) is not None:
            return listed, set()  # the rest of the list holds; what the sentence says besides is its own fact
        if said is not None:
            return said, took
        return swapped or habit_dropped(reading.retracted), set()
    assert old is not None
    new = _counterpart(old, reading, known, said)
    if new is None or not any(v.text.lower().removeprefix("the ") == old.lower() for v in values(reading.text)):
        return said, took  # "instead of the dinner": what replaces it is what the sentence says
    lead = new.split()[0]  # "October 3rd", "not the 3rd", "October 10th": the whole date goes
    whole = f"{lead} {old}" if len(new.split()) > 1 and mentions(known.text, f"{lead} {old}") else old
    text = swap_value(known.text, whole, new)
    shares = best is not None and bool((known.stems - stems(old)) & stems(reading.statements[best].text))
    return (merge_values(text, said) if said is not None else text), (took if shares else set())


def _one_of_list(text: str, retracted: Sequence[str]) -> str | None:
    """A fact without the one of its listed things a clause took back: "The user is visiting Kyoto in May" of
    "… Kyoto and Hiroshima in May" after "we cut Hiroshima", "The user is doing gym 4 times a week" of "… doing
    intermittent fasting and gym …" after "the fasting thing is out the window" (None: none of them)."""
    for clause in retracted:
        for name in (v.text for v in values(clause) if v.kind in ("name", "place")):
            n = re.escape(name)
            cut = re.sub(rf"(?:,\s*|\s+and\s+){n}\b|\b{n}(?:,\s*|\s+and\s+)", " ", text, count=1)
            if cut != text:
                return " ".join(cut.split()).replace(" ,", ",")
    both = _TWO_DOINGS.match(text)  # "doing intermittent fasting and gym 4 times a week", "the fasting thing is out"
    taken = [found[0] for clause in retracted if (found := taken_words(clause)) is not None]
    if both is None or not taken:
        return None
    first, second = stems(both.group("a")), stems(both.group("b"))
    for words in (w - stems(both.group("head")) for w in taken):
        if words <= first and not words & second:
            return f"{both.group('head')} {both.group('b')}"
        if words <= second and not words & first:
            return f"{both.group('head')} {both.group('a')}"
    return None


_TWO_DOINGS = re.compile(r"^(?P<head>the user (?:is |are |was )?\w+) (?P<a>[^,]+?) and (?P<b>[^,]+)$", re.I)


def _up_to_value(text: str, value: str) -> str:
    """A statement up to the clause after its new value: "The user's store launch is pushed to 5 September"
    of "…, payment gateway approval is delayed" (a clause of its own after the value is another matter)."""
    at = text.find(value)
    comma = text.find(",", at + len(value)) if at >= 0 else -1
    if comma < 0 or not re.search(r"\b(?:is|are|was|were|has|have|had)\b", text[comma:]):
        return text  # ", 15 min to office now" says more of the new value, no other matter
    return text[:comma]


_SWITCHED = re.compile(r"^the user (?:has )?(?:switched|changed|swapped) (?P<kind>[a-z]+)s$", re.I)


def _switched_to(said: str, known: Known, reading: Reading) -> str | None:
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


def _best_statement(reading: Reading, known: Known, old: str | None, used: set[int]) -> int | None:
    """The statement of the sentence that says what the fact is now: the one sharing most words with it,
    or the sentence's only statement when it says it is new ("…, I'm a joiner in Hull now")."""
    free = [i for i in range(len(reading.statements)) if i not in used]
    if not free:
        return None
    left = known.stems - (stems(old) if old else frozenset())
    scored = [(len(left & stems(reading.statements[i].text)), -i, i) for i in free]
    shared, _, index = max(scored)
    alone = len(free) == 1 and _NEW.search(reading.statements[index].clause) is not None
    return index if shared or alone else None


def _counterpart(old: str, reading: Reading, known: Known, said: str | None) -> str | None:
    """The new value that takes `old`'s place: B of "from A to B", else a value of the same kind."""
    for a, b in reading.pairs:
        if a.strip().lower() == old.lower():
            return b.strip()
    named = values(reading.text)  # "not the 3rd": the value is "the 3rd"
    kind = next((v.kind for v in named if v.text.lower().removeprefix("the ") == old.lower()), "name")
    kinds = {"place", "name"} if kind in ("place", "name") else {kind}
    candidates = [v for v in reading.new if v.kind in kinds and not mentions(known.text, v.text)]
    preferred = [v for v in candidates if said is not None and v.text in said]
    chosen = preferred or candidates
    return chosen[0].text if chosen else None
