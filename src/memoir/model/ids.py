"""Identifiers and storage keys: ULIDs and time-ordered event keys.

A ULID is 48 bits of milliseconds since the epoch followed by 80 random bits,
written as 26 Crockford base-32 characters, so string order is time order.
memoir derives a generated event id from the event's own timestamp (not the
ingestion clock): ids, keys and timestamps then all sort the same way.

The generator is monotonic within one millisecond, as the ULID spec suggests:
two ids made for the same millisecond by one process sort in the order they
were made, so a batch of events with equal timestamps keeps its order.

`now_ms` is the one wall clock memoir stores: epoch milliseconds, the unit of every
timestamp in the log, the outbox and the index.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import threading
import time
from dataclasses import dataclass
from typing import TypeGuard

from memoir.errors import InvalidEvent
from memoir.model.checks import brief

__all__ = ["EventKey", "derived_ulid", "is_ulid", "new_ulid", "now_ms", "ulid_timestamp_ms"]

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_DECODE = {c: i for i, c in enumerate(CROCKFORD)}
MAX_TIMESTAMP_MS = (1 << 48) - 1
ULID_LENGTH = 26


_PAIRS = [CROCKFORD[i >> 5] + CROCKFORD[i & 31] for i in range(1024)]
_ULID_RE = re.compile(r"[0-7][0-9A-HJKMNP-TV-Z]{25}")


# byte -> Crockford character of its low 5 bits (4 bits for the first random character,
# which keeps the top bit of the random part clear so counting up cannot overflow).
_BYTE_TO_CHAR = bytes(ord(CROCKFORD[b & 31]) for b in range(256))
_BYTE_TO_CHAR_HEADROOM = bytes(ord(CROCKFORD[b & 15]) for b in range(256))


@functools.lru_cache(maxsize=64)
def _encode_time_high(high: int) -> str:
    """The first 6 characters of a timestamp (its bits above the lowest 20): they change every ~17 min."""
    return "".join([_PAIRS[(high >> shift) & 1023] for shift in (20, 10, 0)])


def _encode_time(ms: int) -> str:
    return _encode_time_high(ms >> 20) + _PAIRS[(ms >> 10) & 1023] + _PAIRS[ms & 1023]


def _encode_random(value: int) -> str:
    return "".join([_PAIRS[(value >> shift) & 1023] for shift in (70, 60, 50, 40, 30, 20, 10, 0)])


def _decode(text: str) -> int:
    value = 0
    for c in text:
        value = (value << 5) | _DECODE[c]
    return value


class _MonotonicUlids:
    """Makes ULIDs; within one millisecond the random part counts up."""

    def __init__(self) -> None:
        self._reset()
        # A forked child must not reuse its parent's entropy or counter: it would repeat ids.
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._lock = threading.Lock()
        self._last_ms = -1
        self._time = ""
        self._random = ""
        self._counter: int | None = None  # the random part as a number, once counting up began
        self._entropy = b""
        self._used = 0

    def new(self, timestamp_ms: int) -> str:
        if not 0 <= timestamp_ms <= MAX_TIMESTAMP_MS:
            raise InvalidEvent("timestamp", f"{timestamp_ms} ms is outside the ULID range")
        with self._lock:
            if timestamp_ms == self._last_ms:
                self._counter = (_decode(self._random) if self._counter is None else self._counter) + 1
                self._random = _encode_random(self._counter)
            else:
                self._last_ms = timestamp_ms
                self._time = _encode_time(timestamp_ms)
                self._random = self._fresh_random()
                self._counter = None
            return self._time + self._random

    def _fresh_random(self) -> str:
        # Random bytes map straight to characters (C speed); one urandom call serves 256 ids.
        if self._used + 16 > len(self._entropy):
            self._entropy, self._used = os.urandom(4096), 0
        start = self._used
        self._used = start + 16
        head = self._entropy[start : start + 1].translate(_BYTE_TO_CHAR_HEADROOM)
        return (head + self._entropy[start + 1 : start + 16].translate(_BYTE_TO_CHAR)).decode("ascii")


_GENERATOR = _MonotonicUlids()


def now_ms() -> int:
    """The wall clock in epoch milliseconds."""
    return time.time_ns() // 1_000_000


def new_ulid(timestamp_ms: int) -> str:
    """A new ULID whose time part is `timestamp_ms`."""
    return _GENERATOR.new(timestamp_ms)


def derived_ulid(timestamp_ms: int, *key: str) -> str:
    """The same ULID for the same time and key: ids for records that have ids of their own.

    An imported transcript line or a hook call names its message (a uuid, a call id); its
    event's id is derived from that name, so seeing it twice yields the same event, which
    the log then keeps once. The random part is 80 bits of a hash of the key.
    """
    digest = hashlib.blake2b("\x1f".join(key).encode("utf-8", "surrogatepass"), digest_size=10).digest()
    return _encode_time(timestamp_ms) + _encode_random(int.from_bytes(digest, "big"))


def is_ulid(value: object) -> TypeGuard[str]:
    """True when `value` is a canonical (upper-case) 26-character ULID."""
    # The first character holds only the top 3 bits of the timestamp, hence [0-7].
    return isinstance(value, str) and _ULID_RE.fullmatch(value) is not None


def ulid_timestamp_ms(ulid: str) -> int:
    """The millisecond timestamp embedded in a ULID."""
    if not is_ulid(ulid):
        raise InvalidEvent("event_id", f"{brief(ulid)} is not a 26-character ULID")
    return _decode(ulid[:10])


@dataclass(frozen=True, slots=True, order=True)
class EventKey:
    """The storage key of an event: `evt:{timestamp_ms:013}:{ulid}`.

    The zero-padded timestamp first makes byte order equal time order, so a time
    range is a contiguous key range; the ULID breaks ties and makes keys unique.
    """

    timestamp_ms: int
    ulid: str

    PREFIX = "evt"

    def __post_init__(self) -> None:
        if not 0 <= self.timestamp_ms < 10**13:
            raise InvalidEvent("timestamp", f"{self.timestamp_ms} ms does not fit 13 digits")
        if not is_ulid(self.ulid):
            raise InvalidEvent("event_id", f"{brief(self.ulid)} is not a 26-character ULID")

    def __str__(self) -> str:
        return f"{self.PREFIX}:{self.timestamp_ms:013d}:{self.ulid}"

    @property
    def event_id(self) -> str:
        return self.ulid

    @classmethod
    def parse(cls, text: str) -> EventKey:
        parts = text.split(":") if isinstance(text, str) else []
        # isascii too: "²" is a digit to isdigit() but not to int()
        if (
            len(parts) != 3
            or parts[0] != cls.PREFIX
            or len(parts[1]) != 13
            or not parts[1].isascii()
            or not parts[1].isdigit()
        ):
            raise InvalidEvent("key", f"{brief(text)} is not an event key like evt:1706540400000:<ulid>")
        return cls(int(parts[1]), parts[2])

    @classmethod
    def from_event_id(cls, event_id: str) -> EventKey:
        """The key an event would have if its timestamp were its ULID's time."""
        return cls(ulid_timestamp_ms(event_id), event_id)
