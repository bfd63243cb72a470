"""String enums that parse what clients send: a member, its value, or its seed or proto spelling.

Seed 002 spells event types in CamelCase (`UserMessage`) and its gRPC API as prefixed
upper case (`EVENT_TYPE_USER_MESSAGE`); memoir stores the snake-case value. One parser
serves every such enum; each says, as class keywords, which field its errors name.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import TypeVar

from memoir.errors import InvalidEvent, InvalidInput
from memoir.model.checks import brief

__all__ = ["ParsedEnum"]

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def _normalise_enum_name(value: str, proto_prefix: str) -> str:
    """'UserMessage', 'USER_MESSAGE', 'EVENT_TYPE_USER_MESSAGE' -> 'user_message'."""
    text = value.strip()
    if text.upper().startswith(proto_prefix):
        text = text[len(proto_prefix) :]
    if not text.isupper() and "_" not in text:
        text = _CAMEL.sub("_", text)
    return text.lower()


E = TypeVar("E", bound="ParsedEnum")


class ParsedEnum(StrEnum):
    """A string enum whose `parse` takes a member, its value, or its seed or proto spelling.

    Subclasses say how their errors read, as class keywords:
    `class EventRole(ParsedEnum, field="role", prefix="EVENT_ROLE_")`.
    """

    def __init_subclass__(
        cls, *, field: str = "", prefix: str = "", noun: str = "", error: type[InvalidInput] = InvalidEvent
    ) -> None:
        super().__init_subclass__()
        _PARSING[cls] = (field, prefix, noun or field, error)

    @classmethod
    def parse(cls: type[E], value: object) -> E:
        """A member from itself, its value, or its seed (CamelCase) or proto (PREFIX_UPPER) spelling."""
        field_name, prefix, noun, error = _PARSING[cls]
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            try:
                return cls(_normalise_enum_name(value, prefix))
            except ValueError:
                pass
        allowed = ", ".join(member.value for member in cls)
        raise error(field_name, f"unknown {noun} {brief(value)}; expected one of {allowed}")


_PARSING: dict[type, tuple[str, str, str, type[InvalidInput]]] = {}
