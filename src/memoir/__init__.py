"""memoir: local-first long-term memory for LLM agents.

The public API is what this module exports; everything else is private and may
change. Start with `Memoir.open()`.
"""

from memoir.client import MemoirClient
from memoir.config import MultiAgentMode, Settings, load_settings
from memoir.engine import EventPage, Memoir, Status
from memoir.errors import (
    ConfigError,
    EventNotFound,
    HomeError,
    InvalidEvent,
    InvalidInput,
    InvalidQuery,
    MemoirError,
    ModelOutputError,
    ModelUnavailable,
    NotFound,
    RuntimeFailure,
    ServerUnavailable,
    StoreError,
    UserError,
    WorkerError,
)
from memoir.injection_methods import Injection
from memoir.model import Event, EventKey, EventRole, EventType, Memory, MemoryKind, OutboxAction, OutboxEntry, Severity
from memoir.model.timeline import Grip, GripContext, TocBullet, TocLevel, TocNode, TocPage
from memoir.retrieval import Context, Hit
from memoir.vault import MemoryDraft
from memoir.workers import Job

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
    "MemoirClient",
    "MemoirError",
    "Memory",
    "MemoryDraft",
    "MemoryKind",
    "ModelOutputError",
    "ModelUnavailable",
    "MultiAgentMode",
    "NotFound",
    "OutboxAction",
    "OutboxEntry",
    "RuntimeFailure",
    "ServerUnavailable",
    "Settings",
    "Severity",
    "Status",
    "StoreError",
    "TocBullet",
    "TocLevel",
    "TocNode",
    "TocPage",
    "UserError",
    "WorkerError",
    "__version__",
    "load_settings",
]
