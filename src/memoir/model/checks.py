"""Value rules shared by events, memories and read filters: whole characters, one-line ids, bounded numbers.

Each rule raises the `InvalidInput` subclass its caller names (`InvalidEvent` for what is
stored, `InvalidQuery` for filters), with the field and the reason. Messages show a
value through `brief`, which stays short and never fails whatever the value: a
5,000-digit int cannot even be turned into text by default, and a megabyte of text
has no place in a one-line error.
"""

from __future__ import annotations

import re
import reprlib
from typing import Any

from memoir.errors import InvalidEvent, InvalidInput, InvalidQuery

__all__ = [
    "MAX_ID_LENGTH",
    "brief",
    "check_count",
    "check_filters",
    "check_id",
    "check_query",
    "check_whole",
    "surrogate_at",
]

MAX_ID_LENGTH = 256
# Ids are one-line tokens. C0 and C1 controls and the Unicode line and paragraph separators
# break the one-line formats ids end up in: U+0085 (NEL) in a YAML front-matter value reads
# back as a space, and a log line or `line N: reason` would be split in two.
_NOT_ONE_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class _Brief(reprlib.Repr):
    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 64:  # past Python's digit limit, repr() itself raises ValueError
            return f"<a {x.bit_length()}-bit number>"
        return super().repr_int(x, level)


_BRIEF = _Brief()
_BRIEF.maxstring = _BRIEF.maxother = _BRIEF.maxlong = 60
_BRIEF.maxlevel = 2
_BRIEF.maxlist = _BRIEF.maxtuple = _BRIEF.maxdict = _BRIEF.maxset = _BRIEF.maxfrozenset = 3
_WIDTH = 80


def brief(value: object) -> str:
    """`repr(value)`, cut to at most 80 characters; it never raises."""
    text = _BRIEF.repr(value)
    return text if len(text) <= _WIDTH else text[: _WIDTH - 3] + "..."


def surrogate_at(value: str) -> int | None:
    """Where `value` holds a lone surrogate, which UTF-8 (so SQLite, files) cannot carry."""
    if value.isascii():  # O(1) in CPython: the usual case costs nothing
        return None
    try:
        value.encode()
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def check_whole(field: str, value: str, error: type[InvalidInput] = InvalidEvent) -> None:
    """Refuse a lone surrogate (what a JSON `\\ud83d` escape without its pair, or a non-UTF-8 argument, gives)."""
    at = surrogate_at(value)
    if at is not None:
        raise error(field, f"holds half of a UTF-16 surrogate pair at position {at}: send whole characters (UTF-8)")


def check_id(field: str, value: object, *, optional: bool = False, error: type[InvalidInput] = InvalidEvent) -> None:
    """An id: non-empty text of at most MAX_ID_LENGTH whole characters on one line."""
    if value is None and optional:
        return
    if type(value) is not str:
        raise error(field, f"expected text, got {type(value).__name__}")
    if not value or value.isspace():
        raise error(field, "must not be empty")
    if len(value) > MAX_ID_LENGTH:
        raise error(field, f"longer than {MAX_ID_LENGTH} characters")
    if not value.isprintable():  # a fast pass for the usual case
        check_whole(field, value, error)  # surrogates are not printable either
        found = _NOT_ONE_LINE.search(value)
        if found:
            raise error(field, f"contains a control character or line break ({ord(found[0]):#06x}): ids are one line")


def check_filters(**filters: object) -> None:
    """Read filters by id (session, conversation, agent): each absent, or an id as events have them."""
    for field, value in filters.items():
        check_id(field, value, optional=True, error=InvalidQuery)


def check_query(field: str, value: object, max_length: int) -> None:
    """Text to search for: not blank, at most `max_length` whole characters."""
    if not isinstance(value, str):
        raise InvalidQuery(field, f"expected text, got {brief(value)}")
    if not value.strip():
        raise InvalidQuery(field, "must not be empty")
    if len(value) > max_length:
        raise InvalidQuery(field, f"longer than {max_length} characters")
    check_whole(field, value, InvalidQuery)


def check_flag(field: str, value: object) -> None:
    """True or False, nothing truthy: `all_agents="no"` must not read across agents."""
    if not isinstance(value, bool):
        raise InvalidQuery(field, f"must be True or False, got {brief(value)}")


def check_seconds(field: str, value: object) -> None:
    """None (no limit) or a number of seconds, not negative."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0):
        raise InvalidQuery(field, f"must be a number of seconds (or None), got {brief(value)}")


def check_count(field: str, value: Any, low: int, high: int) -> None:
    """A whole number from `low` to `high`; a bool is no number here."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidQuery(field, f"must be a whole number from {low} to {high}, got {brief(value)}")
