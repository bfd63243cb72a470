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

__all__ = ["MONTH_NAMES", "spoken", "with_dates"]

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


def with_dates(text: str, said_at: datetime) -> str:
    """`text` with the day each relative phrase means after it: "… yesterday (7 May 2023)".

    What a fact keeps of when it was said: read weeks later, "The user ran a 10k yesterday"
    is wrong, and the event it came from is one step away. Only words that point from the
    moment they were said are dated ("yesterday", "last Saturday", "next month", "two weeks
    ago"): "on the 1st and 15th of the lunar month" is a habit, not a day. A phrase told
    already (the text was dated before) is left as it is, so dating twice changes nothing.
    """
    day = said_at.astimezone(UTC).date()
    dated, cursor = [], 0
    for span in resolve(text, day):
        if not span.relative or not _DEICTIC.search(span.phrase):
            continue
        at = text.find(span.phrase, cursor)
        if at < 0:
            continue
        end = at + len(span.phrase)
        told = f" ({spoken(span)})"
        dated.append(text[cursor:end] + ("" if text.startswith(told, end) else told))
        cursor = end
    return "".join(dated) + text[cursor:]
