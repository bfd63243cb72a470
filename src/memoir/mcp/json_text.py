"""One member of a JSON settings file set or taken out, every other byte of the file left as it was.

Agents' settings files are the user's, often hand-formatted, and `~/.claude.json` holds a
great deal besides MCP servers: re-serialising the whole document would reformat all of it.
So the document is parsed only to find where things are (the standard library's decoder,
value by value, gives their offsets) and the text is edited at those offsets. New text
copies the indentation and line endings of its neighbours, and a member inserted then
removed leaves the file byte for byte as it was.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from memoir.errors import ConfigError

__all__ = ["parse_object", "remove_member", "set_member"]

_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_UNIT = "  "  # the indentation step of a file that shows none


@dataclass(frozen=True)
class _Member:
    key: str
    key_start: int
    value_start: int
    value_end: int
    value: Any


def parse_object(text: str, where: str) -> dict[str, Any]:
    """The document as a dict; a ConfigError naming `where` when it is not a JSON object."""
    try:
        value = json.loads(text) if text.strip() else {}
    except ValueError as exc:
        raise ConfigError.at(where, f"is not valid JSON ({exc}); fix it first, memoir leaves it untouched") from None
    if not isinstance(value, dict):
        raise ConfigError.at(where, "is not a JSON object; memoir leaves it untouched")
    return value


def set_member(text: str, outer: str, key: str, value: Any, where: str) -> str:
    """`text` with `outer[key] = value` (creating `outer` when it is missing)."""
    parse_object(text, where)
    if not text.strip() or _members(text, _start(text))[0] == []:
        return json.dumps({outer: {key: value}}, indent=_UNIT, ensure_ascii=False) + _newline(text)
    top, _ = _members(text, _start(text))
    holder = _only(top, outer, where)
    if holder is None:
        return _insert(text, _start(text), outer, {key: value}, "")
    if not isinstance(holder.value, dict):
        raise ConfigError.at(f"{where}: {outer}", "is not a JSON object; fix it first, memoir leaves the file as it is")
    inner, _ = _members(text, holder.value_start)
    current = _only(inner, key, f"{where}: {outer}")
    indent = _indent_at(text, holder.key_start)
    if current is None:
        return _insert(text, holder.value_start, key, value, indent)
    own = _indent_at(text, current.key_start)
    rendered = _render(value, own, _step(own, indent), _newline(text))
    return text[: current.value_start] + rendered + text[current.value_end :]


def remove_member(text: str, outer: str, key: str, where: str) -> str | None:
    """`text` without `outer[key]` (and without `outer` when nothing else was in it); None when it is absent.

    An empty string means nothing else was in the document either.
    """
    document = parse_object(text, where)
    holder_value = document.get(outer)
    if not isinstance(holder_value, dict) or key not in holder_value:
        return None
    top, _ = _members(text, _start(text))
    holder = _only(top, outer, where)
    assert holder is not None  # the parsed document has it
    inner, _ = _members(text, holder.value_start)
    if len(inner) > 1:
        return _cut(text, inner, key)
    if len(top) == 1:
        return ""
    return _cut(text, top, outer)


def _start(text: str) -> int:
    return _SPACE.match(text).end()  # type: ignore[union-attr]  # the pattern matches the empty string


def _skip(text: str, index: int) -> int:
    return _SPACE.match(text, index).end()  # type: ignore[union-attr]


def _members(text: str, brace: int) -> tuple[list[_Member], int]:
    """The members of the object whose `{` is at `brace` (text already known to parse), and where its `}` is."""
    found: list[_Member] = []
    index = _skip(text, brace + 1)
    while text[index] != "}":
        key, after_key = _DECODER.raw_decode(text, index)
        value_start = _skip(text, _skip(text, after_key) + 1)  # past the colon
        value, value_end = _DECODER.raw_decode(text, value_start)
        found.append(_Member(key, index, value_start, value_end, value))
        index = _skip(text, value_end)
        if text[index] == ",":
            index = _skip(text, index + 1)
    return found, index


def _only(members: list[_Member], key: str, where: str) -> _Member | None:
    named = [m for m in members if m.key == key]
    if len(named) > 1:
        raise ConfigError.at(where, f"names {key!r} {len(named)} times; keep one, memoir leaves the file untouched")
    return named[0] if named else None


def _insert(text: str, brace: int, key: str, value: Any, parent_indent: str | None) -> str:
    """`key: value` added as the last member of the object at `brace`."""
    members, close = _members(text, brace)
    newline = _newline(text)
    if not members:  # `{}`: opened up one step in from its owner (which is as far in as the owner's members)
        body = _render({key: value}, parent_indent, parent_indent or _UNIT, newline)
        return text[:brace] + body + text[close + 1 :]
    last = members[-1]
    own = _indent_at(text, last.key_start)
    member = f"{json.dumps(key, ensure_ascii=False)}: {_render(value, own, _step(own, parent_indent), newline)}"
    joint = ", " if own is None else f",{newline}{own}"
    return text[: last.value_end] + joint + member + text[last.value_end :]


def _cut(text: str, members: list[_Member], key: str) -> str:
    """`text` without the member `key`, and the comma and spacing that joined it to its neighbour."""
    index = next(i for i, m in enumerate(members) if m.key == key)
    if index > 0:
        return text[: members[index - 1].value_end] + text[members[index].value_end :]
    return text[: members[0].key_start] + text[members[1].key_start :]


def _render(value: Any, indent: str | None, step: str, newline: str) -> str:
    if indent is None:  # members on one line: stay on one line
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, indent=step, ensure_ascii=False).replace("\n", newline + indent)


def _indent_at(text: str, index: int) -> str | None:
    """The blanks before `index` on its line; None when something else comes first (members on one line)."""
    line_start = text.rfind("\n", 0, index) + 1
    prefix = text[line_start:index]
    return prefix if not prefix.strip() else None


def _step(own: str | None, parent: str | None) -> str:
    """The indentation step, from a member's indentation and its owner's."""
    parent = parent or ""
    if own is not None and own.startswith(parent) and len(own) > len(parent):
        return own[len(parent) :]
    return _UNIT


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"
