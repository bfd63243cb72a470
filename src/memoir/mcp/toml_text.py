"""memoir's table in a TOML file (Codex's `config.toml`) set or taken out, the rest of the file left as it was.

The standard library reads TOML but does not write it, and a writer would reformat the
user's file anyway. So memoir's table, `[mcp_servers.memoir]` (and any sub-table of it),
is found by its header line and replaced, appended or cut as text. A header-like line
inside a multi-line string could mislead that search, so every edit is checked by parsing
the result: it must hold exactly what the original held, with memoir's entry changed. An
edit that fails the check is refused and the file left alone.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from memoir.errors import ConfigError

__all__ = ["parse_toml", "remove_table", "set_table"]

_HEADER = re.compile(r"^[ \t]*\[\[?(?P<name>[^\[\]\n]*)\]\]?[ \t]*(?:#.*)?$", re.MULTILINE)
_KEY = re.compile(r"""[ \t]*("[^"\n]*"|'[^'\n]*'|[A-Za-z0-9_-]+)[ \t]*""")
_FILLER = re.compile(r"[ \t]*(?:#.*)?$")  # a line that holds no value: blank, or a comment


def parse_toml(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError.at(where, f"is not valid TOML ({exc}); fix it first, memoir leaves it untouched") from None


def set_table(text: str, outer: str, key: str, value: dict[str, Any], where: str) -> str:
    """`text` with the table `[outer.key]` holding `value` (strings, integers and lists of strings)."""
    document = parse_toml(text, where)
    servers = _servers(document, outer, where)
    block = _table(outer, key, value)
    spans = _spans(text, (outer, key))
    if spans:  # replaced where it is; its sub-tables, later in the file, are cut first
        start, end = spans[0]
        edited = _without(text, spans[1:])
        edited = edited[:start] + block + edited[end:]
    else:
        edited = text + ("" if not text or text.endswith("\n") else "\n") + ("\n" if text.strip() else "") + block
    _check(edited, {**document, outer: {**servers, key: value}}, outer, where)
    return edited


def remove_table(text: str, outer: str, key: str, where: str) -> str | None:
    """`text` without memoir's table; None when it has none."""
    document = parse_toml(text, where)
    servers = _servers(document, outer, where)
    if key not in servers:
        return None
    spans = _spans(text, (outer, key))
    edited = _without(text, spans)
    if spans and spans[-1][1] == len(text) and edited.endswith("\n\n"):
        edited = edited[:-1]  # the blank line `set_table` put before the table it appended
    _check(edited, {**document, outer: {k: v for k, v in servers.items() if k != key}}, outer, where)
    return edited


def _servers(document: dict[str, Any], outer: str, where: str) -> dict[str, Any]:
    servers = document.get(outer, {})
    if not isinstance(servers, dict):
        raise ConfigError.at(f"{where}: {outer}", "is not a table; fix it first, memoir leaves the file untouched")
    return servers


def _table(outer: str, key: str, value: dict[str, Any]) -> str:
    lines = [f"[{outer}.{key}]"] + [f"{name} = {_toml(item)}" for name, item in value.items()]
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    # A JSON string is a TOML basic string (same escapes); integers and arrays read the same too.
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _spans(text: str, prefix: tuple[str, ...]) -> list[tuple[int, int]]:
    """Where the tables whose name starts with `prefix` are: header line to their last value line."""
    headers = list(_HEADER.finditer(text))
    spans = []
    for number, header in enumerate(headers):
        if _name(header["name"])[: len(prefix)] != prefix:
            continue
        end = headers[number + 1].start() if number + 1 < len(headers) else len(text)
        spans.append((header.start(), _trimmed_end(text, header.end(), end)))
    return spans


def _name(text: str) -> tuple[str, ...]:
    parts = []
    for part in text.split("."):  # a dot inside a quoted part makes this misread: _check catches it
        found = _KEY.fullmatch(part)
        if found is None:
            return ()
        parts.append(found[1].strip("\"'"))
    return tuple(parts)


def _trimmed_end(text: str, header_end: int, end: int) -> int:
    """`end` moved back over blank and comment lines, which belong to what follows (a comment on the next table)."""
    lines = text[header_end:end].splitlines(keepends=True)
    while lines and _FILLER.match(lines[-1].rstrip("\r\n")) and len(lines) > 1:
        end -= len(lines.pop())
    return end


def _without(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in reversed(spans):
        text = text[:start] + text[end:]
    return text


def _check(edited: str, expected: dict[str, Any], outer: str, where: str) -> None:
    try:
        found: dict[str, Any] | None = tomllib.loads(edited)
    except tomllib.TOMLDecodeError:
        found = None
    if found is None or _tidy(found, outer) != _tidy(expected, outer):
        raise ConfigError.at(where, f"memoir cannot edit its [{outer}.memoir] entry here safely; edit the file by hand")


def _tidy(document: dict[str, Any], outer: str) -> dict[str, Any]:
    """An empty `outer` table reads the same as none: cutting the last server may leave either."""
    return {k: v for k, v in document.items() if not (k == outer and v == {})}
