"""The public API is what `memoir` exports, pinned here so changes to it are deliberate."""

from __future__ import annotations

import memoir

PUBLIC = {
    "Grip",
    "GripContext",
    "Injection",
    "TocBullet",
    "TocLevel",
    "TocNode",
    "TocPage",
    "ConfigError",
    "Context",
    "Event",
    "EventKey",
    "EventNotFound",
    "EventPage",
    "EventRole",
    "EventType",
    "Hit",
    "HomeError",
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
    "Severity",
    "Settings",
    "Status",
    "StoreError",
    "UserError",
    "WorkerError",
    "__version__",
    "load_settings",
}


def test_the_exported_names_are_exactly_the_public_api() -> None:
    assert set(memoir.__all__) == PUBLIC
    for name in memoir.__all__:
        assert hasattr(memoir, name), name


def test_all_errors_share_one_root_and_split_caller_mistakes_from_failures() -> None:
    errors = [
        getattr(memoir, n)
        for n in PUBLIC
        if n.endswith("Error")
        or n in ("InvalidEvent", "InvalidQuery", "InvalidInput", "EventNotFound", "NotFound", "RuntimeFailure")
    ]
    assert all(issubclass(e, memoir.MemoirError) for e in errors)
    for mistake in (memoir.InvalidEvent, memoir.InvalidQuery, memoir.ConfigError, memoir.EventNotFound):
        assert issubclass(mistake, memoir.UserError)
    failures = (
        memoir.StoreError,
        memoir.HomeError,
        memoir.WorkerError,
        memoir.ModelUnavailable,
        memoir.ModelOutputError,
    )
    for failure in failures:
        assert issubclass(failure, memoir.RuntimeFailure)
