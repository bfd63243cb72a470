"""Domain types and their validation rules. No I/O lives here.

The names below are imported from their modules when first asked for (PEP 562): `memoir hook`
starts for every tool call a coding agent makes and reads events, not memories or outbox rows.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memoir.model.admission import admit
    from memoir.model.event import DEFAULT_CONVERSATION, Event, EventRole, EventType, parse_timestamp
    from memoir.model.ids import EventKey, is_ulid, new_ulid, now_ms, ulid_timestamp_ms
    from memoir.model.memory import Memory, MemoryKind, Severity, normalise_content
    from memoir.model.outbox import OutboxAction, OutboxEntry

_HOMES = {
    "admission": ("admit",),
    "event": ("DEFAULT_CONVERSATION", "Event", "EventRole", "EventType", "parse_timestamp"),
    "ids": ("EventKey", "is_ulid", "new_ulid", "now_ms", "ulid_timestamp_ms"),
    "memory": ("Memory", "MemoryKind", "Severity", "normalise_content"),
    "outbox": ("OutboxAction", "OutboxEntry"),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "DEFAULT_CONVERSATION",
    "Event",
    "EventKey",
    "EventRole",
    "EventType",
    "Memory",
    "MemoryKind",
    "OutboxAction",
    "OutboxEntry",
    "Severity",
    "admit",
    "is_ulid",
    "new_ulid",
    "normalise_content",
    "now_ms",
    "parse_timestamp",
    "ulid_timestamp_ms",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'memoir.model' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"memoir.model.{module}"), name)
    globals()[name] = value  # asked once
    return value
