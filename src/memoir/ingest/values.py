"""The values a fact holds (dates, days, times, numbers, places, names), found and swapped.

A change usually swaps one value of a fact for another of the same kind: the exam moves
from 3 March to 10 March, the offsite from Porto to Lisbon, the guest list from 80 to
60, the gym days from Mondays and Thursdays to Mondays and Saturdays, the organiser from
Elena to Ravi. Knowing each value's kind lets the rules write the fact as it holds now
("The user's anatomy exam is on 10 March") instead of keeping the old one beside a
sentence that only says what moved.

Kinds: `date` (a date, a month, a year), `weekday` (one day or a list of days), `time`,
`number` (digits or words), `place` (a capitalized name after in/at/to/from/near) and
`name` (any other capitalized name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memoir.index.keyword import STOPWORDS
from memoir.ingest.lexicon import FEASTS, word_list

__all__ = ["MONTHS", "NUMBER_WORDS", "WEEKDAYS", "Value", "replace_value", "values"]

MONTHS = word_list(
    "january february march april may june july august september october november december jan feb mar "
    "apr jun jul aug sep sept oct nov dec"
)
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "weekend", "weekday"]
NUMBER_WORDS = word_list(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred "
    "thousand dozen"
)
_MONTH = (
    r"(?:"
    + "|".join(m.capitalize() for m in MONTHS if len(m) > 3 or m == "may")
    + r"|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?)"
)
# A month typed in lower case, known a month by the day beside it: "on 14 of may", "oct 12", "jan 10th"
_MONTH_TYPED = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?(?![\w'])"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
# A day of the year by its feast: "we go to Krakow for Christmas" is when, as "in February" is (not "a Christmas tree",
# "Christmas week", nor a bound: "before Christmas", "after Eid")
_HOLIDAY = (
    r"(?<!before )(?<!after )(?<!until )(?<!till )(?<!around )(?<!since )(?<!by )"
    rf"(?i:(?:{FEASTS})(?:(?:'s)?\s+(?:eve|day))?)(?!\s+(?:tree|trees|card|cards|present|presents|gift|gifts|party|"
    r"parties|dinner|lunch|market|jumper|sweater|lights|decorations|songs?|movie|film|special|bonus|shopping|break|"
    r"holidays?|resolutions?|week|weekend|season|time|period|egg|eggs|hunt|rush|cake|play|show|concert|service|fair)"
    r"\b)"
)
# What a number after a month counts, so that it is no day: "jan 10 yrs ago", "in May 5 people came"
_COUNTED_AFTER = r"(?:yrs?|years?|months?|weeks?|days?|hours?|hrs?|times|things|people|guests|kids|of)\b"
_WEEKDAY_NAME = r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day"
_WEEKDAY = (
    r"(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?|weekends?|weekdays?)(?:\s+(?:morning|afternoon|evening|night)s?)?"
)
_SHORT_DAY = r"(?:mon|tues?|wed|weds|thu|thurs?|fri|sat|sun)\.?"
_PLAIN_DAY = r"(?:mon|tues?|thu|thurs?|fri)\.?"
_NUMBER_WORD = r"(?:" + "|".join(NUMBER_WORDS) + r")(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?"
# "one" standing for a thing counts nothing: "the octavia estate, 2019 one", "the new one", "one of the girls"
_NOT_A_PRONOUN = r"(?:(?!one\b)|(?<!\d )(?<!\bthe )(?<!\ba )(?<!\bthis )(?<!\bthat )(?<!\bnew )(?<!\bold )(?!one of\b))"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "date",
        re.compile(
            # "1. june" as many Europeans write a day; "Tuesday 10th" as "Tuesday the 10th"
            rf"\b(?:(?:{_WEEKDAY_NAME},? )?(?:the )?{_DAY}\.?(?: of)? (?:{_MONTH}|{_MONTH_TYPED})(?:,? \d{{4}})?"
            rf"|(?:{_MONTH}|{_MONTH_TYPED}) {_DAY}(?:,? \d{{4}})?(?![\w:])(?!\s+{_COUNTED_AFTER})"
            rf"|{_WEEKDAY_NAME},? (?:the )?\d{{1,2}}(?:st|nd|rd|th)|the \d{{1,2}}(?:st|nd|rd|th)\b"
            rf"|\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?|{_MONTH}(?: \d{{4}})?|(?:19|20)\d{{2}}"
            rf"|{_HOLIDAY})\b"
        ),
    ),
    (
        "weekday",
        re.compile(
            rf"\b(?:{_WEEKDAY})(?:(?:,\s*|,?\s+(?:and|or|&|to|through|till|until)\s+|\s*-\s*)(?:{_WEEKDAY}))*\b"
            # days as typed in haste, known days only beside another: "mon and wed", "tue-sun", "tues & thurs"
            rf"|\b{_SHORT_DAY}(?:(?:,\s*|,?\s+(?:and|or|&|to)\s+|\s*[-/+]\s*){_SHORT_DAY})+(?![\w'])"
            # or by spaces alone, three of them or two that are no other word: "mon wed fri", "tue thu" (not "we
            # wed sat")
            rf"|\b{_SHORT_DAY}(?:\s+{_SHORT_DAY}){{2,}}(?![\w'])|\b{_PLAIN_DAY}\s+{_PLAIN_DAY}(?![\w'])"
            # one alone, before its time ("Tues 5pm", "Sat 9am", "Weds 4.30"), or one no other word is ("thurs")
            rf"|\b{_SHORT_DAY}(?=\s+(?:\d{{1,2}}(?:[:.]\d{{2}})?\s?[ap]\.?m\b|\d{{1,2}}[:.]\d{{2}}\b))"
            r"|\b(?:tues|weds|thurs)\b",
            re.IGNORECASE,
        ),
    ),
    ("time", re.compile(r"\b\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?|\b\d{1,2}\s?[ap]\.?m\b\.?|\b(?:noon|midnight)\b", re.I)),
    # not what a compound says of a thing: "a five-star hotel", "a 10-year-old car"
    (
        "number",
        re.compile(
            rf"\b(?!\d+(?:[.,]\d+)?-[a-z])\d+(?:[.,]\d+)?%?|\b{_NOT_A_PRONOUN}{_NUMBER_WORD}\b(?!-[a-z])", re.IGNORECASE
        ),
    ),
]
_PROPER = re.compile(  # tried once per run of letters, apostrophes and hyphens: "A'A'A'…" pasted is read once
    r"(?<![\w'’-])(?:[A-Z][\w'’-]*[a-z0-9][\w'’-]*|[A-Z]{2,})(?:\s+(?:[A-Z][\w'’-]*|of|de|la|del|van|von)(?=\W|$))*"
)
_PLACE_BEFORE = re.compile(
    r"\b(?:in|at|to|from|near|around|into|for|outside|inside|visit|visiting)(?:\s+the)?\s*$", re.I
)
# Capitalized words that are not names: sentence openers, pronouns, days and months (their own kinds).
_COMMON = frozenset(
    word_list(
        "turns turned actually also just thanks sorry please remember note change update yeah well okay sure "
        "great cool nice love looks sounds seems got had went moved switched quick good bad today tomorrow "
        "yesterday tonight next last every always never sometimes maybe perhaps wait let's lets congrats "
        "congratulations happy wow oh ah haha lol hmm anyway btw yep nope sounds feel hope think guess glad "
        "seriously definitely totally finally"
    )
)
_NOT_NAMES = frozenset(
    word_list(
        "i i'm i've i'd i'll the a an this that these those there it it's my our we he she they his her their nobody "
        "everyone everybody someone somebody people "
        "what when where why how who which yes no not ok okay hi hey hello thanks user user's"
    )
)


@dataclass(frozen=True)
class Value:
    kind: str  # date, weekday, time, number, place or name
    text: str  # as written: "10 March", "Mondays and Saturdays", "1:50", "nine", "Lisbon"
    start: int
    end: int

    @property
    def key(self) -> str:
        """The value compared: case, "the" and a plural's "s" aside ("Friday nights" = "friday night")."""
        words = [w.rstrip("s") if len(w) > 3 else w for w in self.text.lower().replace(",", " ").split()]
        return " ".join(w for w in words if w not in ("the", "and", "or", "&"))


def values(text: str) -> list[Value]:
    """Every value of `text`, in order, none inside another (a date's day is not also a number)."""
    found: list[Value] = []
    taken = [False] * len(text)
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            if not any(taken[match.start() : match.end()]):
                found.append(Value(kind, match.group(), match.start(), match.end()))
                taken[match.start() : match.end()] = [True] * (match.end() - match.start())
    for match in _PROPER.finditer(text):
        if any(taken[match.start() : match.end()]):
            continue
        words = [w.removesuffix("'s").removesuffix("’s") for w in match.group().split()]
        while words and words[0].lower() in _NOT_NAMES:  # "The Berlin" -> "Berlin"
            words.pop(0)
        if not words or (match.start() == 0 and len(words) == 1 and words[0] == match.group() and _opener(text)):
            continue
        start = match.start() + match.group().index(words[0])
        name = " ".join(words)
        # The words just before it: searching the whole text before every name was quadratic.
        kind = "place" if _PLACE_BEFORE.search(text[max(0, start - 80) : start]) else "name"
        found.append(Value(kind, name, start, start + len(name)))
    return sorted(found, key=lambda v: v.start)


def _opener(text: str) -> bool:
    """Is the first word capitalized only because it starts the sentence? (A verb or a common word.)"""
    first = text.split(None, 1)[0].lower().strip(",.!:;") if text.split() else ""
    return first in _NOT_NAMES or first in _COMMON or first in STOPWORDS or first.endswith(("ing", "ed", "ly"))


def replace_value(text: str, old: Value, new: str) -> str:
    """`text` with `old` (a value found in it) written as `new`."""
    return text[: old.start] + new + text[old.end :]
