"""Statements no change used, settled against the known facts (the rules' reconciliation, second half).

The same fact again is nothing to do (the same words, the same value on a topic, or no
content word the known fact lacks); a new value on a single-valued topic replaces the old
one, keeping what the old fact said besides it (an event's date beside its new place, a
workplace beside a promotion, the rest of an old job's fact beside a new job); a fact that
says all a known fact says and more replaces it; anything else is added.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memoir.ingest.ages import LISTED_AGE, still_before, with_listed_age
from memoir.ingest.counts import number
from memoir.ingest.fact_words import mentions, merge_values, same_subject
from memoir.ingest.known import Decision, Known, replace_known
from memoir.ingest.named_kin import as_named, relation_named
from memoir.ingest.rules import Statement
from memoir.ingest.stemming import stems
from memoir.ingest.topics import FULL_NAME, Topic, job_words, topics
from memoir.ingest.values import values
from memoir.ingest.workplaces import employer, workplace
from memoir.model.memory import normalise_content

__all__ = ["recounted", "settle"]


def settle(statement: Statement, live: list[Known]) -> list[Decision]:
    """A statement no change used: nothing (known), an update (a topic's new value, or more said), or an add.

    A model's statement (`source` llm) never replaces a known fact: it is added, or dropped when it
    contradicts one on a topic that holds one value.
    """
    new = Known(None, statement.text)
    said = normalise_content(statement.text)
    if any(k.normalised == said for k in live):
        return []
    flipped = [k for k in live if k.id is not None and _said_the_other_way(statement.text, k.text)]
    if flipped and statement.source != "llm":  # "I am VAT registered now" of "The user is not VAT registered"
        return replace_known(flipped[0], statement.text, None, statement.important, statement.source, live)
    said_topics = topics(statement.text)
    for known in live:
        mine = as_named(said_topics, known.text)
        if any(t.key == o.key and t.value == o.value for t in mine for o in known.topics):
            return []
        conflict = any(t.key == o.key and t.value != o.value for t in mine for o in known.topics)  # "day" of "night"
        if new.stems and new.stems <= known.stems and same_subject(statement.text, known.text) and not conflict:
            return []
    decisions: list[Decision] = []
    mine = said_topics
    replaced = [k for k in live if k.id is not None and _replaces(statement.text, as_named(mine, k.text), new, k)]
    if statement.source == "llm" and replaced:
        # A model's fact only adds: one on a topic known with another value ("The user's name is Ada" beside
        # "… is Tom Walker", from "Ada is 9") is a misreading, and a fact it says more of stays as it is.
        if any(t.key == o.key for k in replaced for t in as_named(mine, k.text) for o in k.topics):
            return []
        replaced = []
    for known in replaced:
        if decisions:  # a second fact on the same topic is stale too
            decisions.append(Decision("DELETE", known.text, known.id))
            live.remove(known)
            continue
        # what it says of the old value is no part of the new one: "… to Mississauga, the rent in Toronto was crazy"
        text = _without_the_old_place(
            _topic_text(statement.text, mine, known), _old_places(statement.text, mine, known)
        )
        rest = _beside_the_job(text, mine, known) or _beside_the_home(mine, known)
        decisions += replace_known(known, text, rest, statement.important, statement.source, live)
    if not decisions:
        decisions.append(Decision("ADD", statement.text, None, statement.important, statement.source))
        live.append(new)
    return decisions


def _without_the_old_place(text: str, olds: Sequence[str]) -> str:
    """A new value's fact without its clauses about the old place ("…, the rent in Toronto was crazy"); what places
    the new one stays ("…, near their parents in Toronto")."""
    head, *parts = re.split(r",\s+", text)
    kept = [p for p in parts if not (any(mentions(p, o) for o in olds) and _A_VERB.search(p))]
    return ", ".join([head, *kept])


_A_VERB = re.compile(r"\b(?:is|was|were|are|has|had|got|cost|costs)\b", re.I)


def _old_places(text: str, mine: Sequence[Topic], known: Known) -> list[str]:
    """The places of the value a statement replaces on a topic ("Toronto" of "… living in Toronto since 2
    years"), not those the statement's head says too, nor those of the rest of the fact ("Isla" of a listed age)."""
    changed = [o.value for o in known.topics for t in mine if t.key == o.key and t.value != o.value]
    head = text.split(",")[0].lower()
    return [
        v.text
        for v in values(known.text)
        if v.kind == "place" and any(v.text.lower() in c for c in changed) and v.text.lower() not in head
    ]


def _replaces(text: str, mine: Sequence[Topic], new: Known, known: Known) -> bool:
    """Is `known` what the statement changes: the same single-valued topic with another value,
    or a fact of two or more words that the statement says all of, and more?"""
    if _new_surname(text, known.text):
        return True
    for t in mine:
        for o in known.topics:
            if t.key == o.key and t.value != o.value:
                if o.attribute == "age" and still_before(known.text, t.value):
                    return False  # "she's 9" of "Poppy is turning 10 next month": no change
                # an age in a list changes only by what is said of that one: "Isla is 9", not "my niece Isla is 3"
                return (
                    o.attribute != "age"
                    or not LISTED_AGE.search(known.text)
                    or with_listed_age(known.text, text) is not None
                )
    return len(known.stems) >= 2 and known.stems < new.stems and same_subject(text, known.text)


def _said_the_other_way(text: str, known: str) -> bool:
    """ "I registered for VAT last month" of "The user is not VAT registered", "I have a car now" of "… doesn't have a
    car either": the same words (up to the first comma), one with "not" and one without."""
    if (_NEGATED.search(text) is None) == (_NEGATED.search(known) is None):
        return False  # both said the same way
    if any(v.kind in ("date", "time", "weekday", "number") for v in values(known)):
        return False  # "my interview is not on the 3rd, it's on the 5th": a value corrected, not a fact denied
    said, was = (stems(t.split(",")[0]) - _NEGATION_WORDS for t in (text, known))
    return bool(was) and said == was and same_subject(text, known)


_NEGATED = re.compile(r"\b(?:not|never|no longer)\b|n['’]t\b", re.I)
_NEGATION_WORDS = frozenset(
    {"doesn't", "don't", "isn't", "aren't", "wasn't", "didn't", "never", "either", "anymore", "too", "also", "again"}
)


def _new_surname(text: str, known: str) -> bool:
    """ "So I'm Thandi Dlamini now" of "The user's name is Thandi Nkosi": the same first name, a new surname."""
    full = FULL_NAME.match(text)
    named = re.match(r"^the user's name is (?P<first>\w+) (?P<last>\w+)$", known.rstrip("."), re.I)
    return bool(
        full and named and full.group("first") == named.group("first") and full.group("last") != named.group("last")
    )


def _beside_the_job(text: str, mine: Sequence[Topic], known: Known) -> str | None:
    """What an old job's fact said besides the job, which a new job somewhere else leaves true: "The user is
    a UX researcher at Loonie Labs, originally from Ohio" keeps "The user is originally from Ohio"."""
    if not any(t.attribute == "job" for t in mine) or workplace(text) is None:
        return None
    head, *parts = re.split(r",\s+", known.text)
    lead = re.match(r"^(?P<s>.+?\s(?:is|are))\s", head)
    # what follows a comma and says something of its own ("originally from Ohio"), not a name's
    # continuation ("at Hill, Cole & Partners", "at St Mary's, London")
    # ("pastry chef in hotel downtown, the Fairmont": the hotel's name too)
    parts = [part for part in parts if re.match(r"(?!the\s+(?-i:[A-Z]))[a-z]", part) and len(part.split()) >= 2]
    if not parts or lead is None or workplace(head) is None:
        return None
    return f"{lead.group('s')} {', '.join(parts)}"


_LIVES_WITH = re.compile(
    r"^the user (?:lives|is living|lives now) in (?-i:[A-Z])[\w'-]+(?: (?-i:[A-Z])[\w'-]+)* "
    r"(?P<with>with (?:their |my )?"
    r"(?:wife|husband|partner|boyfriend|girlfriend|family|kids|children|son|daughter|parents|mum|mom|dad)\b.+)$",
    re.I,
)


def _beside_the_home(mine: Sequence[Topic], known: Known) -> str | None:
    """Whom the user lives with, which a move leaves true: "The user lives in Tallaght with wife Agnieszka and
    daughter Zosia" keeps "The user lives with wife Agnieszka and daughter Zosia" after "we moved to Swords"."""
    if not any(t.attribute == "residence" for t in mine):
        return None
    home = _LIVES_WITH.match(known.text.rstrip("."))
    return f"The user lives {home.group('with')}" if home else None


def _topic_text(text: str, mine: Sequence[Topic], known: Known) -> str:
    """An event's new place or date keeps the rest of what was known of it ("… on 14 June"); a new job said
    without a workplace keeps the old one's ("I am now sous-chef" of a chef de partie in a restaurant in Lyon)."""
    if all(t.attribute in ("place", "date", "time") for t in mine):
        merged = merge_values(known.text, text)
        if merged != known.text:
            return merged
    if listed := with_listed_age(known.text, text):  # "Isla (8)" of three kids, after "she's 9": the list stays
        return listed
    if any(t.attribute.startswith("count of ") for t in mine):
        return recounted(known.text, text)
    if renamed := _renamed_in(known.text, mine, text):  # "a band called Los Faros", then "We're Marea Alta now"
        return renamed
    # A new employer said without a job keeps the old job: "since joining Flipkart" of a backend dev at Infosys
    if (new_employer := employer(text)) and not job_words(text) and (moved := _job_moved(known.text, new_employer)):
        return moved
    # A promotion (the old job's word in the new one, or said so) stays where it was; a new career may not.
    promoted = bool(job_words(text) & job_words(known.text)) or re.search(r"\bpromot", text, re.I) is not None
    if promoted and (where := workplace(known.text)) and workplace(text) is None:
        return f"{text.rstrip('.!')} {where}"
    return _as_known(text, known)


def recounted(known: str, text: str) -> str:
    """A new count keeps what the old fact said of the things counted besides how many: "… eight plants, all
    Moneymaker, in the glasshouse, except two outside" recounted as "six plants left now, all in the glasshouse"
    keeps "all Moneymaker" (not "except two outside", a count of its own, nor what the new one says). What all
    of them were holds of fewer, not of more ("3 kids, all boys", then "4 kids now, finally a girl")."""
    said = stems(text)
    old, new = _count_in(known), _count_in(text)
    fewer = old is not None and new is not None and new < old
    kept = [
        part
        for part in re.split(r",\s+", known)[1:]
        if not re.search(r"\d", part)
        and not any(v.kind in ("number", "date", "time", "weekday") for v in values(part))
        and stems(part)
        and not stems(part) <= said
        and (fewer or not re.match(r"(?:all|both|each|every|none|most|neither)\b", part, re.I))
    ]
    return ", ".join([text.rstrip(".!"), *kept])


def _count_in(fact: str) -> int | None:
    return next((number(t.value) for t in topics(fact) if t.attribute.startswith("count of ")), None)


def _job_moved(known: str, new_employer: str) -> str | None:
    """The job a known fact tells, held at the new employer ("The user is a backend dev at Flipkart" of "… at
    Infosys, Bangalore"; "works at Infosys as a backend developer" keeps its role after the place), or None: the
    fact tells no job, or no employer by name. What followed the old employer stays only where it tells where the
    user is ("here in Berlin") or the role ("as a backend developer")."""
    old = employer(known)
    plain = " ".join(known.replace("’", "'").split()).rstrip(".!")
    if old is None or not (job_words(plain) or re.search(r"\bas\s+(?:an?\s+)?\w", plain)):
        return None
    at = plain.find(old)
    if at < 0:
        return None
    after = plain[at + len(old) :]
    kept = [m.group(0) for p in (_HERE, _AS_ROLE) if (m := p.search(after))]
    return f"{plain[:at]}{new_employer}{''.join(kept)}"


_HERE = re.compile(r"\s+here\s+in\s+(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?")
_AS_ROLE = re.compile(r"\s+as\s+(?:an?\s+)?[\w-]+(?:\s+[\w-]+){0,3}$")


def _renamed_in(known: str, mine: Sequence[Topic], text: str) -> str | None:
    """The known fact with a thing's new name (or size) where it says the old one as part of more ("The user is a
    bass player in a band called Los Faros here in CDMX" after "The user's band is Marea Alta now"; "… plays with a
    trio called Low Tide" after "the band is a quartet now"), or None."""
    for topic in (t for t in mine if t.attribute in ("name", "size")):
        old = next((o for o in topics(known) if o.key == topic.key and o.value != topic.value), None)
        new = re.search(re.escape(topic.value).replace(r"\ ", r"\s+"), text, re.I)
        at = re.search(rf"\b{re.escape(old.value)}\b", known, re.I) if old else None
        if old and new and at and not re.match(r"^the user's [\w-]+(?: is| 's name is)", known, re.I):
            return f"{known[: at.start()]}{new.group(0)}{known[at.end() :]}"
    return None


def _as_known(text: str, known: Known) -> str:
    """A new fact of someone by name keeps who they are to the user: "Freddie is starting at Bright Horizons"
    in place of "The user's son Freddie goes to Little Acorns nursery" is the user's son's."""
    whose = re.match(r"^(?P<who>the user's (?:[\w-]+ ){1,2}?(?P<name>(?-i:[A-Z])[\w'-]+))\s", known.text, re.I)
    if whose and text.startswith(f"{whose.group('name')} "):
        return f"{whose.group('who')}{text[len(whose.group('name')) :]}"
    named = relation_named(known.text)  # "The user's dad turned 85": Paddy, as the known fact names him
    if named and re.match(rf"the user's {named[0]}(?:['’]s\b| (?!{named[1]}\b))", text, re.I):
        at = len(f"the user's {named[0]}")
        return f"{text[:at]} {named[1]}{text[at:]}"
    return text
