"""memoir: local-first long-term memory for LLM agents.

The public API is what this module exports; everything else is private and may
change. Start with `Memoir.open()`.

Names are imported when first used (PEP 562): a coding agent's hook runs `memoir hook`
as a new process for every tool call, and must not pay for the embedder, numpy and
httpx before it has written one event.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memoir.config import MultiAgentMode, Settings, load_settings
    from memoir.errors import (
        ConfigError,
        EventNotFound,
        HomeError,
        InvalidEvent,
        InvalidInput,
        InvalidQuery,
        MemoirError,
        MemoryNotFound,
        ModelOutputError,
        ModelUnavailable,
        NotFound,
        ProviderUnavailable,
        RuntimeFailure,
        ServerUnavailable,
        StoreError,
        ThinkNotFound,
        UserError,
        VaultFileError,
        WorkerError,
    )
    from memoir.facade.context import Injection
    from memoir.facade.engine import EventPage, Memoir, Status
    from memoir.model import (
        Event,
        EventKey,
        EventRole,
        EventType,
        Memory,
        MemoryKind,
        OutboxAction,
        OutboxEntry,
        Severity,
    )
    from memoir.model.timeline import Grip, GripContext, TocBullet, TocLevel, TocNode, TocPage
    from memoir.remote.api import MemoirAPI
    from memoir.remote.client import MemoirClient
    from memoir.retrieval import Context, Hit
    from memoir.vault import MemoryDraft
    from memoir.workers import Job

    def _one_api(embedded: Memoir, served: MemoirClient) -> tuple[MemoirAPI, MemoirAPI]:
        return embedded, served  # mypy: both satisfy the one protocol of memory operations


_HOMES: dict[str, str] = {
    "ConfigError": "memoir.errors",
    "Context": "memoir.retrieval",
    "Event": "memoir.model",
    "EventKey": "memoir.model",
    "EventNotFound": "memoir.errors",
    "EventPage": "memoir.facade.engine",
    "EventRole": "memoir.model",
    "EventType": "memoir.model",
    "Grip": "memoir.model.timeline",
    "GripContext": "memoir.model.timeline",
    "Hit": "memoir.retrieval",
    "HomeError": "memoir.errors",
    "Injection": "memoir.facade.context",
    "InvalidEvent": "memoir.errors",
    "InvalidInput": "memoir.errors",
    "InvalidQuery": "memoir.errors",
    "Job": "memoir.workers",
    "Memoir": "memoir.facade.engine",
    "MemoirAPI": "memoir.remote.api",
    "MemoirClient": "memoir.remote.client",
    "MemoirError": "memoir.errors",
    "VaultFileError": "memoir.errors",
    "ThinkNotFound": "memoir.errors",
    "ProviderUnavailable": "memoir.errors",
    "MemoryNotFound": "memoir.errors",
    "Memory": "memoir.model",
    "MemoryDraft": "memoir.vault",
    "MemoryKind": "memoir.model",
    "ModelOutputError": "memoir.errors",
    "ModelUnavailable": "memoir.errors",
    "MultiAgentMode": "memoir.config",
    "NotFound": "memoir.errors",
    "OutboxAction": "memoir.model",
    "OutboxEntry": "memoir.model",
    "RuntimeFailure": "memoir.errors",
    "ServerUnavailable": "memoir.errors",
    "Settings": "memoir.config",
    "Severity": "memoir.model",
    "Status": "memoir.facade.engine",
    "StoreError": "memoir.errors",
    "TocBullet": "memoir.model.timeline",
    "TocLevel": "memoir.model.timeline",
    "TocNode": "memoir.model.timeline",
    "TocPage": "memoir.model.timeline",
    "UserError": "memoir.errors",
    "WorkerError": "memoir.errors",
    "load_settings": "memoir.config",
}

__version__ = "0.1.0"

__all__ = [
    "ConfigError",
    "Context",
    "Event",
    "EventKey",
    "EventNotFound",
    "EventPage",
    "EventRole",
    "EventType",
    "Grip",
    "GripContext",
    "Hit",
    "HomeError",
    "Injection",
    "InvalidEvent",
    "InvalidInput",
    "InvalidQuery",
    "Job",
    "Memoir",
    "MemoirAPI",
    "MemoirClient",
    "MemoirError",
    "Memory",
    "MemoryDraft",
    "MemoryKind",
    "MemoryNotFound",
    "ModelOutputError",
    "ModelUnavailable",
    "MultiAgentMode",
    "NotFound",
    "OutboxAction",
    "OutboxEntry",
    "ProviderUnavailable",
    "RuntimeFailure",
    "ServerUnavailable",
    "Settings",
    "Severity",
    "Status",
    "StoreError",
    "ThinkNotFound",
    "TocBullet",
    "TocLevel",
    "TocNode",
    "TocPage",
    "UserError",
    "VaultFileError",
    "WorkerError",
    "__version__",
    "load_settings",
]


def __getattr__(name: str) -> Any:
    module = _HOMES.get(name)
    if module is None:
        raise AttributeError(f"module 'memoir' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
