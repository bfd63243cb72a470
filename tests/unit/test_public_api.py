"""The public API is what `memoir` exports, pinned here so changes to it are deliberate."""

from __future__ import annotations

from pathlib import Path

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
    "MemoirAPI",
    "MemoirClient",
    "MemoirError",
    "MemoryNotFound",
    "ProviderUnavailable",
    "ThinkNotFound",
    "VaultFileError",
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
    for mistake in (
        memoir.InvalidEvent, memoir.InvalidQuery, memoir.ConfigError, memoir.EventNotFound, memoir.MemoryNotFound,
        memoir.ThinkNotFound,
    ):  # fmt: skip
        assert issubclass(mistake, memoir.UserError)
    failures = (
        memoir.StoreError,
        memoir.HomeError,
        memoir.WorkerError,
        memoir.ModelUnavailable,
        memoir.ModelOutputError,
        memoir.VaultFileError,
        memoir.ProviderUnavailable,
    )
    for failure in failures:
        assert issubclass(failure, memoir.RuntimeFailure)


def test_one_table_says_what_each_error_becomes_at_every_door() -> None:
    from memoir.errors import answer_for

    expected = {  # error: (HTTP status, gRPC status, exit code)
        memoir.InvalidQuery("k", "too big"): (422, "INVALID_ARGUMENT", 2),
        memoir.MemoryNotFound("01KJPWD6M0C7BDF51E1GE5VEH0"): (404, "NOT_FOUND", 2),
        memoir.ConfigError("llm.model: unknown"): (400, "FAILED_PRECONDITION", 2),
        memoir.ModelUnavailable("no server"): (503, "UNAVAILABLE", 1),
        memoir.VaultFileError(Path("a.md"), "unreadable"): (503, "UNAVAILABLE", 1),
        memoir.ModelOutputError("not JSON"): (502, "UNAVAILABLE", 1),
        memoir.WorkerError("stuck"): (500, "UNAVAILABLE", 1),
    }
    for error, (http, grpc_status, exit_code) in expected.items():
        answer = answer_for(error)
        assert (answer.http, answer.grpc, answer.exit) == (http, grpc_status, exit_code), type(error).__name__
