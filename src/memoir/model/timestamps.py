"""Event timestamps: read from what senders give (a datetime, ISO 8601, epoch ms), written as memoir writes them.

Every timestamp memoir keeps is timezone-aware UTC with millisecond precision, from 1970
(`EPOCH`) until 2286 (13 digits of milliseconds, what keys and ULIDs hold); what cannot be
one is an `InvalidEvent` naming the field. `memoir.model.event` applies these rules to
events, and the vault, the store and the doors read and write times with them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memoir.errors import InvalidEvent
from memoir.model.checks import brief
from memoir.model.ids import ulid_timestamp_ms

__all__ = ["EPOCH", "format_timestamp", "is_normalised", "parse_timestamp", "time_of_id", "to_ms", "utc_now"]

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = timedelta(milliseconds=1)
_MAX_MS = 10**13  # 13 digits: year 2286, what keys and ULIDs hold
_ISO_HINT = "ISO 8601 (like 2024-01-15T10:00:00Z) or epoch milliseconds"


def parse_timestamp(value: object, field_name: str = "timestamp") -> datetime:
    """A UTC datetime truncated to milliseconds from a datetime, ISO 8601 text or epoch ms.

    Any other value is an InvalidEvent naming `field_name`, including those Python itself
    trips on: a date that leaves datetime's range in UTC (year 1 at +14:00), digits int()
    cannot read ("²") and numbers past its digit limit.
    """
    if type(value) is int:
        return _from_ms(value, field_name)  # already UTC with millisecond precision
    if isinstance(value, datetime):
        dt = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    elif isinstance(value, str):
        dt = _parse_text(value.strip(), field_name)
    else:
        raise InvalidEvent(field_name, f"expected a datetime, {_ISO_HINT}, got {brief(value)}")
    try:
        dt = dt.astimezone(UTC)
    except (OverflowError, ValueError):
        raise InvalidEvent(field_name, f"{brief(value)} is out of range once converted to UTC") from None
    if dt < EPOCH:
        raise InvalidEvent(field_name, f"{dt.isoformat()} is before 1970")
    return dt.replace(microsecond=dt.microsecond // 1000 * 1000)


def _parse_text(text: str, field_name: str) -> datetime:
    # ASCII digits only: int() refuses "²" (a digit to isdigit()) and reads "١٢" or "１２",
    # which no sender means as epoch milliseconds.
    if text.isascii() and text.isdigit():
        if len(text) > 20:  # before int(): past Python's digit limit it raises ValueError
            raise InvalidEvent(field_name, f"{brief(text)} is not a plausible epoch millisecond timestamp")
        return _from_ms(int(text), field_name)
    try:
        dt = datetime.fromisoformat(text)
    except (ValueError, OverflowError):
        raise InvalidEvent(field_name, f"{brief(text)} is not {_ISO_HINT}") from None
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def _from_ms(ms: int, field_name: str) -> datetime:
    if not 0 <= ms < _MAX_MS:
        raise InvalidEvent(field_name, f"{brief(ms)} is not a plausible epoch millisecond timestamp")
    return EPOCH + timedelta(milliseconds=ms)


def is_normalised(value: object) -> bool:
    return type(value) is datetime and value.tzinfo is UTC and value.microsecond % 1000 == 0


def to_ms(dt: datetime) -> int:
    return (dt - EPOCH) // _ONE_MS


def format_timestamp(dt: datetime) -> str:
    """ISO 8601 in UTC with milliseconds and a Z, the form memoir writes."""
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def time_of_id(event_id: str) -> datetime:
    """The time of an event that names its id but not its time: when its ULID was made.

    So a retry of such an event is the same event, not one stamped anew at each arrival.
    """
    ms = ulid_timestamp_ms(event_id)
    if ms >= _MAX_MS:
        raise InvalidEvent("timestamp", f"not given, and the time in event_id {event_id} is after 2286: give one")
    return EPOCH + timedelta(milliseconds=ms)


def utc_now() -> datetime:
    """Now, as an event timestamp: UTC, truncated to the millisecond."""
    now = datetime.now(UTC)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)
