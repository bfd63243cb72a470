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
from memoir.ingest.ages import with_listed_age
from memoir.ingest.changes import SCHEDULE_CHANGED, Reading
from memoir.ingest.corrections import corrected, counterpart, is_number, swap_number
from memoir.ingest.cues import CORRECTION, job_ends
from memoir.ingest.done_to import stopped_taking
from memoir.ingest.ended import days_given_back, job_ended, ruled_out_searches, rules_out
from memoir.ingest.fact_words import (
    counts_people,
    habit_dropped,
    mentions,
    merge_values,
    named_by_kind,
    related,
    said_for,
    still_holds,
    subject_of,
    swap_kind,
    swap_value,
    taken_part,
    taken_words,
    takes_back,
    untouched,
    with_aliases,
    without_stay,
)
from memoir.ingest.known import Decision, Known, replace_known
from memoir.ingest.lexicon import HEADCOUNT, KINDS, kind_terms, word_list
from memoir.ingest.losses import gone_facts, gone_names, kind_words, makes_given_on, sold
from memoir.ingest.new_values import (
    CHANGE_STEMS,
    GROUP_WORDS,
    US_COUNT,
    bare_count,
    counted,
    moving_home,
    new_value,
)
from memoir.ingest.old_story import without_the_old_story
from memoir.ingest.partings import declined_by, parted_facts
from memoir.ingest.parts import counted_by, one_of_list, up_to_value, without_the_old, without_value
from memoir.ingest.person import third_person
from memoir.ingest.restated import (
    BARE_CHANGE,
    HOURS,
    opposite,
    renamed,
    restated,
    same_family,
    switched_to,
    upgraded,
    upgraded_text,
)
from memoir.ingest.settling import recounted, settle
from memoir.ingest.stemming import stem, stems
from memoir.ingest.values import WEEKDAYS, values
from memoir.model.memory import normalise_content

__all__ = ["Decision", "Known", "Names", "naming", "naming_again", "reconcile_by_rules", "reconcile_known"]

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
        "anymore again back forward earlier later reduce increase raise lower drop trim "
        "smaller bigger larger fewer less"  # "the team is smaller, five engineers": a count changed
        # who changed a schedule, and its name: "my boss changed my shifts so now it's fridays and sundays"
        " boss manager shifts shift schedule rota"
    )
)
# What says a new value may hold, not more of what holds: "The user can go up to 45k now" says the budget
_HOW = frozenset(word_list("can could will would may might go goes going need needs have has to up down total"))
# When a new value holds from, not more of what it is: "I'm Tuesday to Thursday from next week"
_FROM_WHEN = frozenset(word_list("from next week month starting"))


@dataclass(frozen=True)
class Names:
    """How a message's readings name the known facts they may decide on (`naming`; `live.LiveFacts.near`)."""

    alike: tuple[str, ...] = ()  # statements: a fact on its topic, holding all its stems, or held all by it
    sharing: tuple[str, ...] = ()  # a fact sharing a stem (or its first five letters) or a topic with one
    words: tuple[str, ...] = ()  # values: a fact that names one
    keys: tuple[str, ...] = ()  # a fact with one of these keys (`live.keys`): "@user|count", any count of the user's


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
    counts: list[str] = []
    jobs: list[str] = []
    for reading in readings:
        said = [statement.text for statement in reading.statements]
        alike += said
        if not reading.changing:
            continue
        sharing += [reading.text, *said, *(" ".join(opposite(text)) for text in said), *said_for(reading.text)]
        sharing += [" ".join(kind) for kind in KINDS if kind_terms(reading.text) & kind]  # "Asana" of Trello
        if reading.gone:  # "we lost our old dog": the border collie Buster
            sharing += [kind_words(reading.text), declined_by(reading.text, reading.message)]
        if job_ends(reading.text):  # "I got laid off": the user's job and employer, whatever their words
            jobs = ["@user|job", "@user|employer"]
        words += reading.old
        if CORRECTION.search(reading.message):  # "his name was Ole Haugen" may correct "Olaf Haugen"
            words += [v.text.split()[-1] for v in reading.new if v.kind == "name" and len(v.text.split()) > 1]
        for clause in reading.retracted:
            taken = taken_part(clause)
            sharing += [taken, third_person(taken) or taken, *said_for(taken)]
            if makes := makes_given_on(clause):  # "old card": the GTX the user had
                sharing.append(makes)
        if reading.moved:
            sharing.append(reading.message)
            words += counted(reading)  # "up to 45k now" may change "budget 30k pesos"
            if any(bare_count(v, reading.text) for v in reading.new):
                counts = ["@user|count"]  # "So only 22 now" may change the user's one count
            if SCHEDULE_CHANGED.search(reading.text):  # "change my days … Tuesday to Thursday": the days worked
                sharing.append(" ".join(WEEKDAYS))
            if counts_people(stems(reading.message)):  # "like 90 people" may change "140 guests"
                sharing.append(" ".join(HEADCOUNT))
            if any(US_COUNT.search(reading.text[: v.start]) for v in reading.new if v.kind == "number"):
                sharing.append(GROUP_WORDS)  # "so we're 7 now" may change "our team (four of us)"
    return Names(tuple(alike), tuple(sharing), tuple(words), tuple(counts + jobs))


def naming_again(readings: Sequence[Reading], near: Sequence[Known]) -> Names:
    """What names the facts a message may change that only the facts `naming` found can tell: what else is
    known of a pet gone, by the name a fact found by its kind gives ("Buster don't like being left")."""
    names = [name for r in readings if r.gone for name in gone_names(r.text, near)]
    return Names(words=tuple(names))


def reconcile_by_rules(readings: Sequence[Reading], existing: Sequence[tuple[str, str]]) -> list[Decision]:
    """What a message's readings do to the known facts, given as (memory id, text), in order."""
    return reconcile_known(readings, [Known(memory_id, text) for memory_id, text in existing])


def reconcile_known(readings: Sequence[Reading], live: list[Known]) -> list[Decision]:
    """`reconcile_by_rules` over facts read already, in order; `live` follows the decisions.

    Only the facts `naming` finds can be changed or found again by the readings: the
    others may be left out (`live.LiveFacts.near`) and the decisions are the same.
    """
    decisions: list[Decision] = []
    before = {k.id: k.text for k in live if k.id is not None}
    changes: list[Decision] = []  # the message's, so far: a later reading's story of what they replaced is old
    departed: set[str] = set()  # who the message took away so far ("Marcus told me he's leaving")
    for reading in readings:
        used: set[int] = set()
        changed = _changes(reading, live, used) if reading.changing else []
        changes += changed
        said: list[Decision] = []
        for index, statement in enumerate(reading.statements):
            if index in used or (changed and (BARE_CHANGE.match(statement.text) or rules_out(statement.text))):
                # "my cousin upped the order, it's 200 conchas now": the order says 200, nothing more; "Kettering is
                # too expensive now", of the search it ended, is why, no fact
                continue
            said += settle(without_the_old(statement, reading.old) if changed else statement, live)
        # What a later sentence of the message says of someone an earlier one took away is their story too
        # ("Marcus told me he's leaving. He wants to go back to research"; not of one only replaced in a role:
        # "Ravi is planning it now, not Elena. She's on parental leave"), and what a model's facts (a reading of
        # their own, after the rules') say of any value replaced ("… rostered them on for the Gold Coast weekend")
        by_model = bool(reading.statements) and all(s.source == "llm" for s in reading.statements)
        kept = without_the_old_story(said, changes if by_model else changed, before, live, by_model, departed)
        decisions += changed + kept
        if any(d.event == "DELETE" for d in changed):
            departed |= {v.text.lower() for c in reading.retracted for v in values(c) if v.kind == "name"}
    return decisions


def _changes(reading: Reading, live: list[Known], used: set[int]) -> list[Decision]:
    decisions = []
    targets = _targets(reading, live) or _implicit(reading, live)
    # "I got laid off": the user's job, unless what the sentence says instead replaced it already
    targets += [(k, "retracted", None) for k in job_ended(reading, live) if not any(k is t for t, _, _ in targets)]
    if reading.gone:  # "Okafor is retiring", "Kestrel … gave the job to someone else": unless replaced already
        parted = parted_facts(reading.text, reading.message, live)
        targets += [(k, "gone", None) for k in parted if not any(k is t for t, _, _ in targets)]
    for known, how, old in targets:
        text, took = _replacement(known, how, old, reading, used)
        if how == "value" and old is not None and is_number(old) and (text is None or text == known.text):
            continue  # "it's 5 miles not 5km": no number to put in its place, the fact stays as it was
        if text is None and how == "value" and old is not None:  # the rest of the fact holds
            text = without_value(known.text, old)
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
    hours = HOURS.search(known.text)
    if hours and opposite(text):  # "going part-time" of "works full-time as a paralegal, Monday to Friday"
        job = " ".join(re.split(r",\s+", f"{known.text[: hours.start()]}{known.text[hours.end() :]}")[0].split())
        return job if len(job.split()) > 3 else None  # "The user works" says nothing left
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
    single_number = sum(is_number(o) for o in reading.old) == 1  # one number corrected: `corrections`
    for known in live:
        if known.id is None:
            continue
        old = next(
            (
                a
                for a in reading.old
                if not (is_number(a) and single_number)
                and mentions(known.text, a)
                and (only_values or related(known.stems, about, a))
            ),
            None,
        )
        if old is not None:
            found.append((known, "value", old))
        elif any(takes_back(words, known.stems) for words in taken) or sold(reading.retracted, known.text):
            found.append((known, "retracted", None))
    by_kind = [  # taken back by a word for their kind alone ("pill" of metformin)
        k
        for k, how, _ in found
        if how == "retracted"
        and not any(takes_back(w, k.stems, False) for w in taken)
        and any(takes_back(w, k.stems) for w in taken)
    ]
    # "the doctor took me off the old pill": of the user's medicines only, and of one (which of two is not said)
    theirs = [k for k in by_kind if not k.text.lower().startswith("the user ")]
    kinds = {s for k in by_kind if k not in theirs for w, _ in taken for s in named_by_kind(k.stems, w)}
    dropped = by_kind if len(kinds) > 1 else theirs
    found = [f for f in found if not any(f[0] is k for k in dropped)]
    found += [c for c in corrected(reading, live) if not any(c[0] is f[0] for f in found)]  # "it's 16h not 15h"
    # "Declan is moving home for good" of "… Declan lives in Boston"; "Kettering is too expensive now" of a search
    ended = [(k, "retracted") for k in moving_home(reading, live)] + [
        (k, "gone") for k in [*ruled_out_searches(reading, live), *days_given_back(reading, live)]
    ]
    found += [(k, how, None) for k, how in ended if not any(k is f for f, _, _ in found)]
    for known in gone_facts(reading.text, live) if reading.gone else ():  # "we lost our old dog": Buster's
        if not any(k is known for k, _, _ in found):
            found.append((known, "gone", None))
    for old in reading.old:  # "the trip is in September now, not April": the one fact that says April
        if not any(o == old for _, how, o in found if how == "value"):
            numbered = is_number(old) and single_number
            saying = [k for k in live if k.id is not None and mentions(k.text, old)] if not numbered else []
            if len(saying) == 1 and not any(k is saying[0] for k, _, _ in found):
                found.append((saying[0], "value", old))
    return found


def _implicit(reading: Reading, live: Sequence[Known]) -> list[tuple[Known, str, str | None]]:
    """The fact a sentence changes without naming its old value: a new value after a verb of change ("the
    exam got moved to 10 March"), or a statement on the same thing after a change was announced ("change of
    plan: I'm doing the Valencia half marathon instead")."""
    if reading.pairs and not any(mentions(k.text, a) for a, _ in reading.pairs for k in live if k.id is not None):
        return []  # "I moved from VS Code to Neovim": what was never known is replaced by nothing known
    return upgraded(reading, live) or new_value(reading, live) or renamed(reading, live) or restated(reading, live)


_SPAN_AFTER = re.compile(r"\s*(?:seconds?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?|yrs?)\b", re.I)


def _replacement(
    known: Known, how: str, old: str | None, reading: Reading, used: set[int]
) -> tuple[str | None, set[int]]:
    """The fact as it holds now (None: taken back, nothing said instead), and the statements it used."""
    if how == "gone":
        return None, set()  # what the sentence says is its own fact ("The user lost their old dog on Tuesday")
    if how == "renamed" and old is not None:
        value = next(v for v in values(known.text) if v.text == old)
        return swap_value(known.text, old, next(v.text for v in reading.new if same_family(value, v))), set()
    if how == "version" and old is not None:  # "upgraded to python 3.12": the known fact, at its new version
        return upgraded_text(known, old, reading)
    if how == "restated" and old is not None:
        restated = reading.statements[int(old)].text
        return switched_to(restated, known, reading) or restated, {int(old)}
    best = _best_statement(reading, known, old, used)
    took = {best} if best is not None else set()
    # what it says of the value it replaced is no part of what holds: "The user is vegetarian now, not vegan"
    said = without_the_old(reading.statements[best], reading.old).text if best is not None else None
    if how == "implicit" and old is not None:
        value = next(v for v in reading.new if v.text == old)
        for statement in reading.statements:  # "Tobe is 6 now" of "two children, Chidera (9) and Tobe (5)"
            if old in statement.text and (listed := with_listed_age(known.text, statement.text)):
                return listed, set()
        carrying = [i for i, s in enumerate(reading.statements) if old in s.text and i not in used]
        for index in carrying:  # "she's on day shifts now, Monday to Thursday" says more than the days
            said_of = up_to_value(reading.statements[index].text, old)  # not why: ", payment gateway approval …"
            more = set(terms(said_of)) - set(terms(known.text)) - set(terms(old)) - counted_by(said_of, value)
            # another form of a word the fact holds, or the value with its unit ("45k"): no more said
            named = with_aliases(known.stems)  # "race" of a half marathon
            more = {w for w in more if stem(w) not in named and not w.startswith(old.lower())}
            if more - _CHANGE_WORDS - _HOW - _FROM_WHEN - {"user", "user's"}:
                text = reading.statements[index].text
                recount = any(t.attribute.startswith("count of ") for t in known.topics)
                return (recounted(known.text, text) if recount else text), {index}
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
        if swapped is not None and still_holds(swapped, known.text, reading.retracted):
            swapped = None  # "no more nights …, I'll be 7a to 7p": no number of nights is what is taken back
        if swapped is None and (listed := one_of_list(known.text, reading.retracted)) is not None:
            return listed, set()  # the rest of the list holds; what the sentence says besides is its own fact
        if said is not None:
            return said, took
        return swapped or stopped_taking(habit_dropped(reading.retracted), known.text), set()
    assert old is not None
    new = counterpart(old, reading, known, said)
    if new is None or not any(v.text.lower().removeprefix("the ") == old.lower() for v in values(reading.text)):
        return said, took  # "instead of the dinner": what replaces it is what the sentence says
    lead = new.split()[0]  # "October 3rd", "not the 3rd", "October 10th": the whole date goes
    whole = f"{lead} {old}" if len(new.split()) > 1 and mentions(known.text, f"{lead} {old}") else old
    numbered = swap_number(known.text, old, new, reading.text) if is_number(old) else None
    text = numbered or swap_value(known.text, whole, new)  # "dinner is 20h not 19h": the number at its unit
    if any(v.kind == "place" and v.text == old for v in values(known.text)):  # "since two years" was Berlin's
        text = without_stay(text, new, reading.text)
    shares = best is not None and bool((known.stems - stems(old)) & stems(reading.statements[best].text))
    if numbered is not None:  # the rest of the fact as it was
        return text, took if shares else set()
    return (merge_values(text, said) if said is not None else text), (took if shares else set())


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
