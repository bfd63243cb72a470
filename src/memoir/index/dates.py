"""Calendar dates in what people say: relative time resolved from the turn's own timestamp.

A turn dated 8 May 2023 that says "I went to a support group yesterday" is about 7 May
2023, and the answer to "when did she go to the support group?" is that date; but no word
of the turn says it. This module finds the time expressions of a text ("yesterday", "last
Saturday", "two weeks ago", "next month", "May 7", "in 2019") and resolves each against
an anchor day (the event's own UTC date) to a period of calendar days (`Span`; the calendar's
arithmetic is in `periods.py`).

The spans become keyword terms (`calendar_terms`) that the keyword index holds beside the
turn's words, never in the stored text and never in the embedded text (a vector of
"d20230507" is noise): `d20230507` for a day, `w2023w19` for its ISO week, `m202305` for
its month, `y2023` for its year. Questions are turned into the same terms
(`memoir.retrieval.when`), so "what did she do on 7 May 2023?" matches the turn that said
"yesterday" on the 8th, on SQLite (FTS5) and PostgreSQL (tsvector) alike: the terms are
plain lower-case words both tokenizers keep whole and neither stemmer changes.

Only what can be resolved without guessing is: a bare weekday ("on Friday": last or
next?), "a few days ago" and "recently" are time words (`has_time_words`) but give no
span. The day is the UTC day of the timestamp, as stored: near midnight, a user far from
UTC may mean the day before or after.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from datetime import UTC, date, datetime

from memoir.index.periods import DAY, WEEK, WEEKEND, YEAR, Span
from memoir.index.periods import day_span as _day
from memoir.index.periods import month_span as _month_span
from memoir.index.periods import nearest_year as _nearest_year
from memoir.index.periods import period as _period

__all__ = [
    "calendar_terms",
    "dated_text",
    "day_term",
    "has_time_words",
    "month_term",
    "resolve",
    "span_terms",
    "week_term",
    "year_term",
]


MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
WEEKDAYS = {
    name: number
    for number, names in enumerate(
        (
            ("monday", "mon"),
            ("tuesday", "tue", "tues"),
            ("wednesday", "wed"),
            ("thursday", "thu", "thur", "thurs"),
            ("friday", "fri"),
            ("saturday", "sat"),
            ("sunday", "sun"),
        )
    )
    for name in names
}
NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
}


# -- terms -------------------------------------------------------------------------------------


def day_term(day: date) -> str:
    return f"d{day.year:04d}{day.month:02d}{day.day:02d}"


def week_term(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"w{year:04d}w{week:02d}"


def month_term(day: date) -> str:
    return f"m{day.year:04d}{day.month:02d}"


def year_term(day: date) -> str:
    return f"y{day.year:04d}"


def span_terms(span: Span) -> tuple[str, ...]:
    """The terms a span is indexed under: each coarser period it lies in, so a question about
    any of them finds it; its days only when it is a day or a weekend (a week's seven days
    would outweigh the turn's words)."""
    return _period_terms(span.start, span.end, span.grain)


@functools.lru_cache(maxsize=4096)  # a conversation's turns share their days
def _period_terms(start: date, end: date, grain: str) -> tuple[str, ...]:
    terms: dict[str, None] = {}
    if grain in (DAY, WEEKEND):
        terms.update((day_term(day), None) for day in Span(start, end, grain).days())
    if grain in (DAY, WEEKEND, WEEK):
        terms.update((week_term(day), None) for day in (start, end))
    if grain != YEAR:
        terms.update((month_term(day), None) for day in (start, end))
    terms.update((year_term(day), None) for day in (start, end))
    return tuple(terms)


def calendar_terms(text: str, when: datetime | date) -> list[str]:
    """The terms of the day `when` falls on, then of every span `text` mentions, without repeats."""
    anchor = when.astimezone(UTC).date() if isinstance(when, datetime) else when
    terms: dict[str, None] = dict.fromkeys(span_terms(Span(anchor, anchor, DAY)))
    for span in resolve(text, anchor):
        terms.update(dict.fromkeys(span_terms(span)))
    return list(terms)


def dated_text(text: str, when: datetime | date) -> str:
    """`text` with its calendar terms after it, on a line of their own: what the keyword index reads."""
    return f"{text}\n{' '.join(calendar_terms(text, when))}"


# -- reading time expressions ------------------------------------------------------------------

_COUNT = r"\d{1,3}|a couple(?: of)?|couple of|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_WEEKDAY = (
    r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)"
)
_MONTH_NAME = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
# Month names that are also common words ("you may", "to march"): read as a month only when
# capitalised or beside a year.
AMBIGUOUS_MONTHS = frozenset({"may", "mar", "march"})
_ORDINAL = r"(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d\d"

# One alternation, tried left to right at each position; the named group that matched says
# which rule resolves it. Longer phrases come first ("the day before yesterday", "last week").
_PATTERNS: tuple[tuple[str, str], ...] = (
    ("day_before_yesterday", r"the day before yesterday"),
    ("day_after_tomorrow", r"the day after tomorrow"),
    ("yesterday", r"yesterday|last night"),
    ("today", r"today|tonight|this (?:morning|afternoon|evening)"),
    ("tomorrow", r"tomorrow"),
    ("iso_day", rf"(?P<iso_y>{_YEAR})-(?P<iso_m>[01]\d)-(?P<iso_d>[0-3]\d)"),
    (
        "month_day",
        rf"(?P<md_month>{_MONTH_NAME})\.? (?P<md_day>[0-3]?\d){_ORDINAL}(?![\d:])(?:,? (?P<md_year>{_YEAR}))?",
    ),
    (
        "day_month",
        rf"(?:the )?(?P<dm_day>[0-3]?\d){_ORDINAL} (?:of )?(?P<dm_month>{_MONTH_NAME})\b\.?"
        rf"(?:,? (?P<dm_year>{_YEAR}))?",
    ),
    ("month_year", rf"(?P<my_month>{_MONTH_NAME}),? (?P<my_year>{_YEAR})"),
    ("nth_of_month", r"(?:on|by|until|till|since|after|before|from) the (?P<nth>[0-3]?\d)(?:st|nd|rd|th)"),
    ("ago", rf"(?P<ago_n>{_COUNT}) (?P<ago_unit>day|week|weekend|month|year)s? ago"),
    ("ahead", rf"in (?P<ahead_n>{_COUNT}) (?P<ahead_unit>day|week|month|year)s?(?! ago)"),
    ("last_weekday", rf"(?:last|this past) (?P<last_weekday_name>{_WEEKDAY})"),
    ("next_weekday", rf"(?:next|this coming) (?P<next_weekday_name>{_WEEKDAY})"),
    (
        "relative",
        r"(?P<which>last|this past|the past|this|next|this coming) (?P<period>weekend|week|month|year)(?! of\b)",
    ),
    (
        "named_month",
        r"(?P<nm_which>in|of|during|since|until|by|last|next|this|early|late|mid|end of|beginning of|start of)[ -]"
        rf"(?P<nm_month>{_MONTH_NAME})(?!\.? [0-3]?\d(?:st|nd|rd|th)?\b)(?:,? (?P<nm_year>{_YEAR}))?",
    ),
    ("year", rf"(?P<year_only>{_YEAR})"),
)
_READER_PATTERN = r"(?<![\w-])(?:" + "|".join(f"(?P<{name}>{pattern})" for name, pattern in _PATTERNS) + r")(?![\w-])"
# The reader scans lower-cased text (case-insensitive matching is ~4x slower in `re`), and
# reads capitals from the original; text whose length lower-casing changes uses _READER_ANY_CASE.
_READER = re.compile(_READER_PATTERN)
_READER_ANY_CASE = re.compile(_READER_PATTERN, re.IGNORECASE)
# Words that say when, resolvable or not ("recently", "on Friday", "for four years"): what
# `has_time_words` looks for. Chosen on LoCoMo dev (issue 28): seasons, holidays and
# birthdays added nothing; "May" and "March" only capitalised ("you may", "to march").
_TIME_WORDS = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|ago|recently|lately|earlier|the other day|soon|since|until"
    r"|weekends?|weeks?|months?|years?|days?|nights?|mornings?|afternoons?|evenings?"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|(?:last|next|past|coming) (?:mon|tues?|wed|thur?s?|fri|sat|sun)"
    r"|january|february|april|june|july|august|september|october|november|december"
    r"|jan|feb|apr|jun|jul|aug|sept?|oct|nov|dec|[0-3]?\d(?:st|nd|rd|th)|(?:19|20)\d\d)\b"
)  # on lower-cased text
_CAPITAL_MONTHS = re.compile(r"\b(?:May|Mar(?:ch)?)\b")


def _number(text: str) -> int:
    text = text.lower()
    return int(text) if text.isdigit() else NUMBERS[text]


def _month(name: str) -> int:
    return MONTHS[name.lower()]


def _month_meant(name: str, year: str | None) -> bool:
    """Whether a month name is a month here: "May" or "may 2023", not "you may"."""
    return name[0].isupper() or year is not None or name.lower() not in AMBIGUOUS_MONTHS


def _read(match: re.Match[str], anchor: date, text: str) -> Span | None:
    """The span of one match of the reader in (lower-cased) text; `text` is the original."""

    def said(name: str) -> str | None:
        start = match.start(name)
        return None if start < 0 else text[start : match.end(name)]

    def word(name: str) -> str:
        return said(name) or ""

    rule, phrase = match.lastgroup, text[match.start() : match.end()]
    if rule in _DAYS_FROM_TODAY:
        return _period(anchor, "day", _DAYS_FROM_TODAY[rule], phrase)
    if rule == "iso_day":
        return _day(int(word("iso_y")), int(word("iso_m")), int(word("iso_d")), phrase)
    if rule in ("month_day", "day_month"):
        prefix = "md" if rule == "month_day" else "dm"
        name, stated = word(f"{prefix}_month"), said(f"{prefix}_year")
        if not _month_meant(name, stated):
            return None  # "the 3rd may be": not the 3rd of May
        month, day = _month(name), int(word(f"{prefix}_day"))
        year = int(stated) if stated else _nearest_year(anchor, month, day)
        return None if year is None else _day(year, month, day, phrase)
    if rule == "month_year":
        return _month_span(int(word("my_year")), _month(word("my_month")), phrase)
    if rule == "nth_of_month":
        return _day(anchor.year, anchor.month, int(word("nth")), phrase)
    if rule in ("ago", "ahead"):
        count = _number(word(f"{rule}_n"))
        if count > 400:
            return None
        return _period(anchor, word(f"{rule}_unit").lower(), -count if rule == "ago" else count, phrase)
    if rule in ("last_weekday", "next_weekday"):
        weekday = WEEKDAYS[word(f"{rule}_name").lower()]
        if rule == "last_weekday":
            back = (anchor.weekday() - weekday) % 7 or 7  # "last Friday" said on a Friday: a week ago
            return _period(anchor, "day", -back, phrase)
        return _period(anchor, "day", (weekday - anchor.weekday()) % 7 or 7, phrase)
    if rule == "relative":
        offset = {"next": 1, "this coming": 1, "this": 0}.get(word("which").lower(), -1)
        return _period(anchor, word("period").lower(), offset, phrase)
    if rule == "named_month":
        return _named_month(anchor, word("nm_month"), word("nm_which").lower(), said("nm_year"), phrase)
    if rule == "year":
        year = int(word("year_only"))
        return Span(date(year, 1, 1), date(year, 12, 31), YEAR, phrase)
    return None


_DAYS_FROM_TODAY = {"day_before_yesterday": -2, "yesterday": -1, "today": 0, "tomorrow": 1, "day_after_tomorrow": 2}


def _named_month(anchor: date, name: str, which: str, stated: str | None, phrase: str) -> Span | None:
    """ "in June", "last July", "by March 2024": the month meant, its year said or the nearest."""
    if not _month_meant(name, stated):
        return None  # "in may", "by march": a verb more often than a month
    month = _month(name)
    if stated:
        year = int(stated)
    elif which == "last":
        year = anchor.year - (month >= anchor.month)
    elif which == "next":
        year = anchor.year + (month <= anchor.month)
    elif which == "this":
        year = anchor.year
    else:
        year = _nearest_year(anchor, month) or anchor.year
    return _month_span(year, month, phrase)


_RELATIVE_RULES = frozenset(
    {*_DAYS_FROM_TODAY, "nth_of_month", "ago", "ahead", "last_weekday", "next_weekday", "relative"}
)
_YEAR_GROUPS = {"month_day": "md_year", "day_month": "dm_year", "named_month": "nm_year"}


def _is_relative(match: re.Match[str]) -> bool:
    if match.lastgroup == "named_month":
        return match.group("nm_which").lower() in ("last", "next", "this")
    return match.lastgroup in _RELATIVE_RULES


def _is_yearless(match: re.Match[str]) -> bool:
    year = _YEAR_GROUPS.get(match.lastgroup or "")
    return year is not None and match.group(year) is None and not _is_relative(match)


def resolve(text: str, anchor: date) -> list[Span]:
    """Every time expression of `text` that names a period, resolved against `anchor`, in order."""
    spans: list[Span] = []
    folded = text.lower()
    reader = _READER if len(folded) == len(text) else _READER_ANY_CASE
    for match in reader.finditer(folded if reader is _READER else text):
        span = _read(match, anchor, text)
        if span is not None:
            span = replace(span, relative=_is_relative(match), yearless=_is_yearless(match))
        if span is not None and date.min < span.start and span.end < date.max:
            spans.append(span)
    return spans


def has_time_words(text: str) -> bool:
    """Whether `text` says when something happened ("yesterday", "last week", "in 2019",
    "recently", "for four years"): one scan for a time word, cheap enough for every candidate
    of a search."""
    return _TIME_WORDS.search(text.lower()) is not None or _CAPITAL_MONTHS.search(text) is not None
