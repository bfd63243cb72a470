"""Parsers of setting values: each takes what a file, a variable or a call gave and returns the typed
value, or raises ValueError saying what is wrong (the caller names the key)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "parse_agent_id",
    "parse_bool",
    "parse_budgets",
    "parse_choice",
    "parse_number",
    "parse_optional_text",
    "parse_origins",
    "parse_path",
    "parse_patterns",
    "parse_sources",
]


def parse_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{value!r} is not true/false")


def parse_number(kind: type[int] | type[float], minimum: float, maximum: float | None = None) -> Callable[[Any], Any]:
    def parse(value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError(f"{value!r} is not a number")
        try:
            number = kind(value)
        except (TypeError, ValueError):
            noun = "a whole number" if kind is int else "a number"
            raise ValueError(f"{value!r} is not {noun}") from None
        if number < minimum:
            raise ValueError(f"{number} is below the minimum {minimum:g}")
        if maximum is not None and number > maximum:
            raise ValueError(f"{number} is above the maximum {maximum:g}")
        return number

    return parse


def parse_choice(*choices: str) -> Callable[[Any], str]:
    def parse(value: Any) -> str:
        text = str(value).strip().lower()
        if text not in choices:
            raise ValueError(f"{value!r} is not one of {', '.join(choices)}")
        return text

    return parse


def parse_path(value: Any) -> Path:
    # Text or a Path only: `Memoir.open(5)` must not quietly make a folder named "5".
    if isinstance(value, bool) or not isinstance(value, str | os.PathLike):
        raise ValueError(f"{type(value).__name__} is not a path: give text or a Path")
    text = os.fspath(value)
    if not isinstance(text, str):
        raise ValueError("a path in bytes: give text or a Path")
    if not text.strip():
        raise ValueError("an empty path")
    if "\x00" in text:
        raise ValueError("a path with a NUL character")
    return Path(os.path.expanduser(text))


def parse_optional_text(value: Any) -> str | None:
    text = str(value).strip()
    return text or None


def parse_store_url(value: Any) -> str | None:
    """A PostgreSQL URL (postgresql://USER[:PASSWORD]@HOST[:PORT]/DB), or nothing: the SQLite file."""
    text = parse_optional_text(value) if value is not None else None
    if text is None:
        return None
    scheme = text.partition("://")[0].lower()
    if scheme not in ("postgresql", "postgres") or not text.isprintable():
        # The value itself may hold a password: say what was wrong without echoing it.
        raise ValueError("not a PostgreSQL URL: use postgresql://USER@HOST:PORT/DATABASE, or leave it unset for SQLite")
    return text


def parse_optional_path(value: Any) -> Path | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return parse_path(value)


def parse_agent_id(value: Any) -> str | None:
    """An agent id as events carry it: one printable line of at most 256 characters (empty: none)."""
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{value!r} is not an agent id (text)")
    text = parse_optional_text(value)
    if text is not None and (len(text) > 256 or not text.isprintable()):
        raise ValueError(f"{text[:40]!r} is not an agent id: one printable line of at most 256 characters")
    return text


def parse_sources(value: Any) -> tuple[str, ...]:
    items = value if isinstance(value, list | tuple) else str(value).split(",")
    names = tuple(dict.fromkeys(str(item).strip().lower() for item in items if str(item).strip()))
    unknown = [name for name in names if name not in ("vector", "keyword")]
    if unknown or not names:
        raise ValueError(f"{value!r} is not a list of vector, keyword")
    return names


def parse_origins(value: Any) -> tuple[str, ...]:
    """Browser origins (`http://localhost:3000`), or `*` for any; comma-separated or a list."""
    items = value if isinstance(value, list | tuple) else str(value).split(",")
    origins = tuple(dict.fromkeys(str(item).strip().rstrip("/") for item in items if str(item).strip()))
    for origin in origins:
        if origin != "*" and not origin.startswith(("http://", "https://")):
            raise ValueError(f"{origin!r} is not an origin like http://localhost:3000 (or *)")
    return origins


def parse_patterns(value: Any) -> tuple[str, ...]:
    """Regular expressions: a list in a file, or in a variable one pattern or a JSON list (commas are regex)."""
    if isinstance(value, str):
        text = value.strip()
        # a ValueError from json names the problem; the caller adds the key
        value = json.loads(text) if text.startswith("[") else [text] if text else []
    if not isinstance(value, list | tuple) or not all(isinstance(item, str) for item in value):
        raise ValueError("expected a list of regular expressions")
    for item in value:
        try:
            re.compile(item)
        except re.error as exc:
            raise ValueError(f"{item!r} is not a regular expression: {exc}") from None
    return tuple(value)


def parse_budgets(value: Any) -> tuple[tuple[str, int], ...]:
    """Daily token budgets per job: a table in a file, or `job=tokens,job=tokens` in a variable."""
    if isinstance(value, tuple):  # already parsed (a Settings value given back)
        return value
    items = value.items() if isinstance(value, dict) else (p.split("=", 1) for p in str(value).split(",") if p.strip())
    budgets = {}
    for item in items:
        if len(item) != 2:
            raise ValueError(f"{value!r} is not a list of job=tokens")
        job, tokens = str(item[0]).strip(), str(item[1]).strip()
        if not job or not tokens.isdigit():
            raise ValueError(f"{job}={tokens} is not job=tokens (a whole number)")
        budgets[job] = int(tokens)
    return tuple(sorted(budgets.items()))
