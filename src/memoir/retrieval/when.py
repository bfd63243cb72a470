"""Time in questions: the dates and periods a question names, and whether it asks "when".

Two uses in the read pipeline, both measured on LoCoMo dev (docs/decisions.md, issue 28):

- `question_terms`: the calendar terms (`memoir.index.dates`) of the dates and periods a
  question names, added to its keyword query. The keyword index holds each turn's own day
  and the days its words resolve to ("yesterday" said on 8 May 2023 is `d20230507`), so
  "What did she do on 7 May 2023?", "... in January 2022?" or "between August 11 and
  August 15 2023" find the turns of those days, whatever words they used.
- `asks_when` and `favour_time_words`: a question that asks when something happened
  ("When did...", "How long ago...", "What year...") is answered by a turn that says when
  ("yesterday", "last Saturday", "in 2019"); among the candidates, those that say so are
  favoured, as a named speaker's turns are (`stages.boost_named_speakers`).

A date without a year ("in May", "on 1 May") is any year's: its terms are asked for in each
year of a window around now (the question's period is rarely far in the future, and a
memory of more than `YEARS_BACK` years is asked about with its year). Periods relative to
an event ("the week before the trip") are not dates and are left to the words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

from memoir.index.dates import (
    WEEKDAYS,
    day_term,
    has_time_words,
    month_term,
    resolve,
    week_term,
    year_term,
)
from memoir.index.periods import DAY, MONTH, WEEK, Span
from memoir.index.spoken_dates import spoken
from memoir.retrieval.stages import Candidate, by_fused

__all__ = [
    "asks_when",
    "favour_time_words",
    "keyword_query",
    "question_spans",
    "question_terms",
    "told_when",
]

YEARS_BACK = 10  # a date without a year is looked for in this many years before now, and the next
MAX_TERMS = 48  # calendar terms one question may add to its keyword query
WHEN_CANDIDATES = 30  # candidates `favour_time_words` reads, best first

_ASKS_WHEN = re.compile(
    r"\bwhen\b|\bwhat (?:year|month|date|day|time|week|weekend|season)\b|\bwhich (?:year|month|date|day|week|weekend)\b"
    r"|\bhow long\b|\bhow (?:many|much) (?:years?|months?|weeks?|days?|time)\b|\bwhat age\b|\bhow old\b",
    re.IGNORECASE,
)
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3}
_WEEK_OF = re.compile(r"\b(?P<ordinal>first|1st|second|2nd|third|3rd|fourth|4th|last) week of\b", re.IGNORECASE)
# "the beginning of November 2022": the part of the month named just before it (or in its phrase).
_PART_OF = re.compile(
    r"\b(?P<part>beginning of|start of|early|mid|middle of|end of|late)[ -](?:the month of )?(?:in )?"
    r"[A-Za-z]+\.?(?:,? \d{4})?$",
    re.IGNORECASE,
)
_BEFORE_AFTER = re.compile(
    r"\b(?:the )?(?P<unit>day|week|weekend|month|" + "|".join(sorted(WEEKDAYS, key=len, reverse=True)) + r")"
    r" (?P<side>before|after|of)\s*$",
    re.IGNORECASE,
)
_BETWEEN = re.compile(r"\b(?:between|from)\s*$", re.IGNORECASE)
_AND = re.compile(r"^\s*(?:and|to|until|till|-)\s*$", re.IGNORECASE)


def asks_when(question: str) -> bool:
    """Whether the question asks for a time: when, how long, what year, how many weeks..."""
    return _ASKS_WHEN.search(question) is not None


def question_spans(question: str, today: date) -> list[tuple[Span, bool]]:
    """The periods a question names, each with whether its year was said (False: any year's).

    The dates `memoir.index.dates` reads, widened or narrowed by the words around them:
    "between August 11 and August 15 2023" is one period, "the week before 16 November
    2023" the seven days before it, "the second week of November" days 8-14, "the
    beginning of November 2022" days 1-10.
    """
    found = resolve(question, today)
    spans: list[tuple[Span, bool]] = []
    skip = 0
    for index, span in enumerate(found):
        if skip:
            skip -= 1
            continue
        at = question.find(span.phrase)
        before = question[:at] if at >= 0 else ""
        stated = not span.yearless
        following = found[index + 1] if index + 1 < len(found) else None
        if following is not None and _BETWEEN.search(before) and at >= 0:
            gap = question[at + len(span.phrase) : question.find(following.phrase, at + len(span.phrase))]
            if _AND.match(gap):
                stated_after = not following.yearless
                start = span.start if stated or not stated_after else _in_year(span.start, following.start.year)
                if start <= following.end:
                    spans.append(
                        (Span(start, following.end, "period", f"{span.phrase}{gap}{following.phrase}"), stated_after)
                    )
                    skip = 1
                    continue
        spans.append((_narrowed(span, before), stated))
    return spans


def _in_year(day: date, year: int) -> date:
    try:
        return day.replace(year=year)
    except ValueError:  # 29 February
        return day.replace(year=year, day=28)


def _narrowed(span: Span, before: str) -> Span:
    """The span as the words before it shape it: a part of a month, or a period before or after a day."""
    if span.grain == MONTH and (week := _WEEK_OF.search(before[-24:] + span.phrase)):
        ordinal = week.group("ordinal").lower()
        if ordinal == "last":
            return Span(span.end - timedelta(days=6), span.end, WEEK, span.phrase)
        start = span.start + timedelta(weeks=_ORDINALS[ordinal])
        return Span(start, start + timedelta(days=6), WEEK, span.phrase)
    if span.grain == MONTH and (part := _PART_OF.search(before[-24:] + span.phrase)):
        which = part.group("part").lower()
        if which in ("beginning of", "start of", "early"):
            return Span(span.start, span.start + timedelta(days=9), "period", span.phrase)
        if which in ("mid", "middle of"):
            return Span(span.start + timedelta(days=9), span.start + timedelta(days=19), "period", span.phrase)
        return Span(span.start + timedelta(days=20), span.end, "period", span.phrase)
    if span.grain == DAY and (side := _BEFORE_AFTER.search(before)):
        unit, direction = side.group("unit").lower(), side.group("side").lower()
        day = span.start
        if direction == "of":
            if unit == "week":
                monday = day - timedelta(days=day.weekday())
                return Span(monday, monday + timedelta(days=6), WEEK, span.phrase)
            return span
        step = -1 if direction == "before" else 1
        if unit == "day":
            return Span(day + timedelta(days=step), day + timedelta(days=step), DAY, span.phrase)
        if unit in ("week", "month"):
            length = 7 if unit == "week" else 31
            if step < 0:
                return Span(day - timedelta(days=length), day - timedelta(days=1), "period", span.phrase)
            return Span(day + timedelta(days=1), day + timedelta(days=length), "period", span.phrase)
        if unit == "weekend":
            shift = -((day.weekday() - 5) % 7 or 7) if step < 0 else (5 - day.weekday()) % 7 or 7
            saturday = day + timedelta(days=shift)
            return Span(saturday, saturday + timedelta(days=1), "period", span.phrase)
        weekday = WEEKDAYS[unit]
        shift = -((day.weekday() - weekday) % 7 or 7) if step < 0 else (weekday - day.weekday()) % 7 or 7
        return Span(day + timedelta(days=shift), day + timedelta(days=shift), DAY, span.phrase)
    return span


def _terms(start: date, end: date) -> list[str]:
    """The fewest terms that cover a period: its days up to a week, else its weeks up to a
    month, else its months up to a year, else its years (whole months as their month)."""
    days = (end - start).days + 1
    if days <= 7:
        return [day_term(start + timedelta(days=offset)) for offset in range(days)]
    if start.day == 1 and (end + timedelta(days=1)).day == 1 and days <= 31:
        return [month_term(start)]
    if days <= 31:
        step, term = timedelta(days=7), week_term
    elif days <= 366:
        step, term = timedelta(days=28), month_term
    else:
        step, term = timedelta(days=365), year_term
    found: dict[str, None] = {}
    day = start
    while day <= end:
        found[term(day)] = None
        day += step
    found[term(end)] = None
    return list(found)


def question_terms(question: str, today: date) -> list[str]:
    """Calendar terms for the periods a question names; a period without its year, in every
    year from `YEARS_BACK` before `today` to the next (as weeks, when it is longer than a day)."""
    terms: dict[str, None] = {}
    for span, stated in question_spans(question, today):
        if stated:
            terms.update(dict.fromkeys(_terms(span.start, span.end)))
            continue
        for year in range(today.year + 1, today.year - YEARS_BACK - 1, -1):
            start = _in_year(span.start, year)
            end = _in_year(span.end, year + (span.end.year - span.start.year))
            if span.start == span.end or span.grain == MONTH:
                terms.update(dict.fromkeys(_terms(start, end)))
            else:
                terms.update(dict.fromkeys({week_term(start): None, week_term(end): None}))
    return list(terms)[:MAX_TERMS]


def favour_time_words(
    candidates: list[Candidate], texts: dict[int, str], question: str, boost: float
) -> list[Candidate]:
    """For a question that asks when, add `boost` to the candidates whose text (`texts`, by
    item id) says when (`has_time_words`); other questions' candidates are left as they are.

    Only the `WHEN_CANDIDATES` best are read (candidates come best first): one further down
    rarely reaches the top k with a boost of 0.1, and reading a text costs ~10 µs.
    """
    if boost <= 0 or not asks_when(question):
        return candidates
    for candidate in candidates[:WHEN_CANDIDATES]:
        if has_time_words(texts.get(candidate.item_id, "")):
            candidate.fused += boost
    return by_fused(candidates)


def keyword_query(question: str, terms: Sequence[str]) -> str:
    """The question with its calendar terms after it: what the keyword index is asked."""
    return f"{question} {' '.join(terms)}" if terms else question


def told_when(text: str, said_at: datetime) -> str:
    """When a turn was said, and the days its relative words mean: "8 May 2023; yesterday: 7 May 2023".

    What the context block shows beside a turn, so a reader can answer "when": the turn's
    words say "yesterday", the reader needs the day. Calendar dates the words already give
    ("May 7", "in 2019") are not repeated.
    """
    day = said_at.astimezone(UTC).date()
    told = [f"{span.phrase.lower()}: {spoken(span)}" for span in resolve(text, day) if span.relative]
    return "; ".join([spoken(Span(day, day, DAY)), *dict.fromkeys(told)])
