"""Dates as people write them, and facts that keep the day their relative words meant.

"7 May 2023", "6-7 May 2023", "the week of 1 May 2023", "May 2023", "2023": how a span
read from what was said (`dates.resolve`) is told back to a reader, in the context block
beside a turn (`retrieval.when.told_when`) and inside a fact (`with_dates`).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from memoir.index.dates import resolve
from memoir.index.periods import MONTH, WEEK, YEAR, Span

__all__ = ["MONTH_NAMES", "spoken", "undated", "with_dates"]

_DEICTIC = re.compile(r"\b(?:yesterday|today|tonight|tomorrow|last|next|this|ago|day before|day after)\b", re.I)


MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)  # not strftime's %B, which follows the locale


def spoken(span: Span) -> str:
    """A span as people write it: 7 May 2023, 6-7 May 2023, the week of 1 May 2023, May 2023, 2023."""
    start, end = span.start, span.end
    first, last = MONTH_NAMES[start.month - 1], MONTH_NAMES[end.month - 1]
    if span.grain == YEAR:
        return str(start.year)
    if span.grain == MONTH:
        return f"{first} {start.year}"
    if span.grain == WEEK:
        return f"the week of {start.day} {first} {start.year}"
    if start == end:
        return f"{start.day} {first} {start.year}"
    if start.month == end.month:
        return f"{start.day}-{end.day} {last} {end.year}"
    return f"{start.day} {first}-{end.day} {last} {end.year}"


def with_dates(text: str, said_at: datetime, before: str = "", anew: str = "") -> str:
    """`text` with the day each relative phrase means after it: "… yesterday (7 May 2023)".

    What a fact keeps of when it was said: read weeks later, "The user ran a 10k yesterday"
    is wrong, and the event it came from is one step away. Only words that point from the
    moment they were said are dated ("yesterday", "last Saturday", "next month", "two weeks
    ago"): "on the 1st and 15th of the lunar month" is a habit, not a day. A phrase told
    already is left as it is, so dating twice changes nothing; `before` is the fact a change
    rewrote (`text` is its new text): a phrase it kept keeps the day it was told then, not
    the day of the change ("next month" said in March is still April when May's message moves
    the trip from Lisbon to Porto), unless `anew`, the message of the change, says it again
    ("We moved the trip to next month").
    """
    text = _carried(text, before, anew) if before else text
    day = said_at.astimezone(UTC).date()
    dated, cursor = [], 0
    for span in resolve(text, day):
        if not span.relative or not _DEICTIC.search(span.phrase):
            continue
        at = text.find(span.phrase, cursor)
        if at < 0:
            continue
        end = at + len(span.phrase)
        dated.append(text[cursor:end] + ("" if _TOLD.match(text, end) else f" ({spoken(span)})"))
        cursor = end
    return "".join(dated) + text[cursor:]


_MONTH = "|".join(MONTH_NAMES)
# A day as `with_dates` tells it after a phrase: " (7 May 2023)", " (6 May-7 June 2023)", " (the week of 1 May 2023)"
_TOLD = re.compile(rf" \((?:the week of )?(?:\d{{1,2}}(?: (?:{_MONTH}))?-)?(?:\d{{1,2}} )?(?:(?:{_MONTH}) )?\d{{4}}\)")


def undated(text: str) -> str:
    """A fact in the user's words: without the days `with_dates` told after its relative phrases. The
    rules compare and rewrite these (a fact's "(2027)" is no year the user gave a wedding moved to
    October); the days are told again when the new text is written (`with_dates` with `before`)."""
    return _TOLD.sub(lambda m: "" if _TOLD_OF.search(text, max(0, m.start() - 40), m.start()) else m.group(), text)


# What a told day follows: a relative phrase's last words ("next year", "two weeks ago"), not the user's own "(1990)"
_TOLD_OF = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|ago|(?:day|night) (?:before|after)|"
    r"(?:last|next|this)\s+(?:week|weekend|month|year|night|morning|afternoon|evening|summer|winter|spring|autumn|"
    r"fall|term|semester|\w+day|" + "|".join(MONTH_NAMES) + r"))$",
    re.I,
)


def _carried(text: str, before: str, anew: str) -> str:
    """`text` with the days `before` told after the relative phrases it still says and `anew` does not."""
    for span in resolve(undated(before), datetime.now(UTC).date()):  # the phrases only: their day is `before`'s
        at = before.find(span.phrase)
        told = _TOLD.match(before, at + len(span.phrase)) if at >= 0 else None
        here = text.find(span.phrase)
        if told is None or here < 0 or _TOLD.match(text, here + len(span.phrase)) or span.phrase.lower() in anew:
            continue
        end = here + len(span.phrase)
        text = text[:end] + told.group() + text[end:]
    return text
