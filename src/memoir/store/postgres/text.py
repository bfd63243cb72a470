"""Text with NUL characters on PostgreSQL, stored losslessly.

PostgreSQL's `text` cannot hold U+0000, which SQLite stores and memoir accepts (an event's
text is what the agent said, byte for byte). So every string memoir sends is escaped and
every string it reads is unescaped, on each connection, with U+10FFFF (a noncharacter,
never meant to appear in interchanged text) as the escape: U+0000 is sent as U+10FFFF "0",
and U+10FFFF itself as two of them. Text without either character, nearly all of it, is
sent and read unchanged; equality and `strpos` lookups still work, since their parameters
are escaped alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.pq import Format
from psycopg.types.string import StrDumperUnknown, TextBinaryLoader, TextLoader

__all__ = ["escape", "read_plain_text", "register_text", "unescape", "unescaped"]

_TEXT_TYPES = ("text", "varchar", "bpchar")

ESCAPE = "\U0010ffff"
_ESCAPED = re.compile(ESCAPE + "(.)", re.DOTALL)


def escape(text: str) -> str:
    if "\x00" not in text and ESCAPE not in text:
        return text
    return text.replace(ESCAPE, ESCAPE + ESCAPE).replace("\x00", ESCAPE + "0")


def unescape(text: str) -> str:
    if ESCAPE not in text:
        return text
    return _ESCAPED.sub(lambda found: "\x00" if found.group(1) == "0" else found.group(1), text)


class _Dumper(StrDumperUnknown):
    def dump(self, obj: str) -> bytes:
        return escape(obj).encode()


class _Loader(TextLoader):
    def load(self, data: Any) -> str:
        return unescape(str(data, "utf-8"))


class _BinaryLoader(_Loader):
    format = Format.BINARY


def register_text(conn: psycopg.Connection[Any]) -> None:
    """Escape and unescape NUL in every string this connection sends and reads, all of it UTF-8.

    The client encoding is UTF-8 whatever the server, the URL or PGCLIENTENCODING say: the
    escaping loaders decode UTF-8 themselves, psycopg's own (`read_plain_text`) the connection's
    encoding, and a search's hits read as LATIN1 (or as bytes, from an SQL_ASCII database)
    while every other read was right."""
    if conn.info.encoding != "utf-8":
        conn.execute("SET client_encoding TO 'UTF8'")
    conn.adapters.register_dumper(str, _Dumper)
    for name in _TEXT_TYPES:
        conn.adapters.register_loader(name, _Loader)
        conn.adapters.register_loader(name, _BinaryLoader)


def read_plain_text(cursor: psycopg.Cursor[Any]) -> None:
    """This cursor's strings read as they come, by psycopg's own loaders (in C), escapes kept:
    for a search's rows, a hundred items of 13 strings each, where a call into Python per
    string cost a millisecond. Whoever reads them undoes the escapes (`unescaped`)."""
    for name in _TEXT_TYPES:
        cursor.adapters.register_loader(name, TextLoader)
        cursor.adapters.register_loader(name, TextBinaryLoader)


def unescaped(values: Sequence[Any]) -> list[Any]:
    """A row read by a `read_plain_text` cursor, its strings as `register_text` would give them."""
    return [unescape(value) if type(value) is str and ESCAPE in value else value for value in values]
