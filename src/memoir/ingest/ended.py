"""What a sentence ends without a new value in its place: a search ruled out by its place's name ("Kettering is too
expensive now" of "The user looks in Kettering"), the user's job lost ("I got laid off").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from memoir.ingest.changes import Reading
from memoir.ingest.cues import days_freed, job_ends
from memoir.ingest.known import Known
from memoir.ingest.topics import Topic, topics
from memoir.ingest.values import values

__all__ = ["days_given_back", "job_ended", "of_work", "ruled_out_searches", "rules_out"]


# "Kettering is too expensive now, prices go up": a place or thing ruled out by its name
_RULED_OUT_NAME = re.compile(
    r"(?:^|[,;:]\s*|\b(?:but|because|since|as)\s+)(?P<x>(?-i:[A-Z])[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?)\s+"
    r"(?:is|'s|’s)\s+(?:(?:now|just|way|much|far|a bit)\s+)*(?:too\s+(?:expensive|pricey|dear|far|small|big|noisy|"
    r"cramped)|out(?!\s+(?:of|till|until|for)\b)|off the table|a no-go|not an option|no longer an option)\b"
    r"(?!\s+(?:for|near|in|to|with|till|until)\b)",  # "too expensive for a 4 bed" narrows the search, no end
    re.I,
)
# What is searched for, not had: "The user looks in Kettering", "… is house hunting in Kettering"
_SEARCH = re.compile(r"\b(?:look|looks|looking|hunting|search|searches|searching|considering|viewing)\b", re.I)


def ruled_out_searches(reading: Reading, live: Sequence[Known]) -> list[Known]:
    """The known searches a sentence rules out by the name of where or what was searched ("Kettering is too
    expensive now" of "The user looks in Kettering"); never what the user has ("Leeds is too expensive, so we are
    looking in Bradford" leaves "The user lives in Leeds")."""
    names = [m.group("x") for m in _RULED_OUT_NAME.finditer(reading.text)]
    if not names or _STILL.search(reading.text):
        return []  # "Didsbury is too far from town, but we love it so still looking"
    return [
        k
        for k in live
        if k.id is not None
        and _SEARCH.search(k.text)
        and any(re.search(rf"\b{re.escape(n)}\b", k.text, re.I) and not _one_of(n, k.text) for n in names)
    ]


def _one_of(name: str, fact: str) -> bool:
    """Is `name` one of several the fact searches among ("flats in Bristol and Bath", "Tesla or Kia"): the search goes
    on for the others."""
    other = r"(?:the\s+)?(?-i:[A-Z])[\w-]+"
    n = rf"(?:the\s+)?{re.escape(name)}"  # "the Toyota Yaris and the Honda Jazz": a model's word after the make
    joined = r"(?:\s+[\w-]+)?\s*(?:,|and|or|&|/)\s*"
    return re.search(rf"\b{n}{joined}{other}|{other}{joined}{n}\b", fact) is not None


_STILL = re.compile(r"\b(?:still|love it|loved it|buying there)\b", re.I)


def job_ended(reading: Reading, live: Sequence[Known]) -> list[Known]:
    """The user's job and employer facts, where a sentence says the user's job ended ("I got laid off last
    week" of "The user works at Loonie Labs as a designer")."""
    if not job_ends(reading.text) or any(of_work(topics(s.text)) for s in reading.statements):
        return []  # "I got laid off, but I'm joining Shopify as …": the new job replaces the old by its topic
    return [k for k in live if k.id is not None and of_work(k.topics)]


def of_work(found: Iterable[Topic]) -> bool:
    """Do a fact's topics say the user's job or employer?"""
    return any(t.subject == "user" and t.attribute in ("job", "employer") for t in found)


def rules_out(statement: str) -> bool:
    """Is a statement only the ruling out of what it names ("Kettering is too expensive now, prices go up"), or a day
    given back ("Tuesdays are free now")?"""
    found = _RULED_OUT_NAME.match(statement)
    return (found is not None and found.start("x") == 0) or re.match(
        r"^\w+days are (?:free|clear)", statement
    ) is not None


def days_given_back(reading: Reading, live: Sequence[Known]) -> list[Known]:
    """What the user did on a day the sentence gives back ("so Tuesdays are free now" of "The user has netball on
    Tuesday nights"): only the user's own, held on that day alone (not "works Monday to Friday", "Tuesday is the
    user's day off", a daughter's ballet)."""
    freed = days_freed(reading.text)
    if not freed:
        return []
    found = []
    for known in live:
        days = [v.text.lower() for v in values(known.text) if v.kind == "weekday"]
        own = re.match(r"^the user (?!and\b)", known.text, re.I) is not None
        if own and len(days) == 1 and any(days[0].startswith(day) for day in freed) and not _OFF.search(known.text):
            found.append(known)
    return found


_OFF = re.compile(r"\b(?:off|free|holiday|rest|to|through|till|until|-)\b", re.I)
