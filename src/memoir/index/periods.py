"""Calendar periods: `Span` (days, both ends included, and the grain they were said in) and the
arithmetic that finds a day, weekend, week, month or year counted from an anchor day.

What `dates.py` reads in a text ("yesterday", "two weeks ago", "May 7") it resolves with
these; no words here, only the calendar.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta

__all__ = [
    "DAY",
    "MONTH",
    "WEEK",
    "WEEKEND",
    "YEAR",
    "Span",
    "day_span",
    "month_span",
    "nearest_year",
    "period",
]

DAY, WEEKEND, WEEK, MONTH, YEAR = "day", "weekend", "week", "month", "year"


@dataclass(frozen=True)
class Span:
    """A period of calendar days, both ends included, and the grain it was said in."""

    start: date
    end: date
    grain: str  # day, weekend, week, month or year
    phrase: str = ""  # the words it was read from
    relative: bool = False  # read from words that name no date ("yesterday", "last June"): worth telling
    yearless: bool = False  # a calendar date said without its year ("May 7", "in June"): the nearest taken

    def days(self) -> Iterator[date]:
        day = self.start
        while day <= self.end:
            yield day
            day += timedelta(days=1)


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def month_span(year: int, month: int, phrase: str) -> Span:
    start = date(year, month, 1)
    following = date(year + (month == 12), month % 12 + 1, 1)
    return Span(start, following - timedelta(days=1), MONTH, phrase)


def _add_months(day: date, months: int) -> tuple[int, int]:
    index = day.year * 12 + day.month - 1 + months
    return index // 12, index % 12 + 1


def nearest_year(anchor: date, month: int, day: int = 1) -> int | None:
    """The year that puts month/day nearest the anchor: "on December 28" said on 2 January is last year's."""
    best: tuple[int, int] | None = None
    for year in (anchor.year - 1, anchor.year, anchor.year + 1):
        try:
            distance = abs((date(year, month, day) - anchor).days)
        except ValueError:
            continue
        if best is None or distance < best[0]:
            best = (distance, year)
    return None if best is None else best[1]


def day_span(year: int, month: int, day: int, phrase: str) -> Span | None:
    try:
        found = date(year, month, day)
    except ValueError:
        return None
    return Span(found, found, DAY, phrase)


def period(anchor: date, unit: str, offset: int, phrase: str) -> Span | None:
    """The day, weekend, week, month or year `offset` of them from the anchor's."""
    if unit == "day":
        day = anchor + timedelta(days=offset)
        return Span(day, day, DAY, phrase)
    if unit == "week":
        monday = _monday(anchor) + timedelta(weeks=offset)
        return Span(monday, monday + timedelta(days=6), WEEK, phrase)
    if unit == "weekend":
        saturday = _monday(anchor) + timedelta(days=5, weeks=offset)
        return Span(saturday, saturday + timedelta(days=1), WEEKEND, phrase)
    if unit == "month":
        return month_span(*_add_months(anchor, offset), phrase)
    year = anchor.year + offset
    if not 1 <= year <= 9999:
        return None
    return Span(date(year, 1, 1), date(year, 12, 31), YEAR, phrase)
