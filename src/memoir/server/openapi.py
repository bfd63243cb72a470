"""The OpenAPI document of `memoir serve`, describing the server that answers, not FastAPI's defaults.

FastAPI documents a 422 as its own `{detail: [...]}` and every other answer as an untyped
object; memoir answers every error as `{"error": {"message", "type", "param", ...}}` (the
shape of `server.errors`, which `MemoirClient` and any OpenAI client read) and may answer
401, 404, 413 and 503 besides. This module rewrites the generated document once: each
route lists every status it can answer, each error is the one `Error` schema, and every
answer of `/api/v1` is typed from the `to_dict()` and `memoir.remote.wire` form the route
sends (hits, memories, events, the context block, the timeline, jobs, the overview, the
status), so that a client generated from the document reads what the server sends.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from memoir.facade.views import AGENT_MODES, BREAKER_STATES
from memoir.model.limits import MEMORY_KINDS, SEARCH_KINDS, SEVERITIES
from memoir.model.timeline import TocLevel

__all__ = ["describe"]

_NULLABLE_TEXT = {"type": ["string", "null"]}
_NULLABLE_TIME = {"type": ["string", "null"], "format": "date-time"}
_TEXTS = {"type": "array", "items": {"type": "string"}}
_TIME = {"type": "string", "format": "date-time"}
_DAY = {"type": "string", "format": "date"}
_COUNT = {"type": "integer", "minimum": 0}
_COUNTS = {"type": "object", "additionalProperties": _COUNT}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _list_of(key: str, name: str, **more: Any) -> dict[str, Any]:
    """`{key: [name, ...]}`, and the keys a page sends beside it (`next_cursor`), always sent too."""
    return _record(**{key: {"type": "array", "items": _ref(name)}}, **more)


def _record(**properties: Any) -> dict[str, Any]:
    """An object whose every key is always sent (a dataclass's `to_dict`): required, even where it may be null."""
    return {"type": "object", "required": list(properties), "properties": properties}


def _one_of(*values: str | None) -> dict[str, Any]:
    """A text from a fixed set (an enum's members are sent as their values)."""
    types = ["string", "null"] if None in values else "string"
    return {"type": types, "enum": [None if v is None else str(v) for v in values]}


SCHEMAS: dict[str, dict[str, Any]] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["message", "type"],
                "properties": {
                    "message": {"type": "string", "description": "what went wrong and what to do"},
                    "type": {"type": "string", "description": "the MemoirError class (InvalidQuery, NotFound, ...)"},
                    "param": {**_NULLABLE_TEXT, "description": "the field at fault, when one is"},
                    "index": {"type": ["integer", "null"], "description": "the position in a batch"},
                    "problems": {"type": "array", "items": {"type": "object"}},
                },
            }
        },
    },
    "Hit": {
        "type": "object",
        "required": [  # every key is sent (`Hit.to_dict`), null where it has no value
            *("kind", "text", "score", "relevance", "event_ids", "memory_id", "metadata", "created_at"),
            *("conversation_id", "session_id", "role", "context", "context_event_ids", "sources", "agent_id"),
        ],
        "properties": {
            "kind": {"type": "string", "enum": list(SEARCH_KINDS)},
            "text": {"type": "string"},
            "score": {"type": "number"},
            "relevance": {"type": "number"},
            "event_ids": _TEXTS,
            "memory_id": _NULLABLE_TEXT,
            "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
            "created_at": _TIME,
            "conversation_id": {"type": "string"},
            "session_id": _NULLABLE_TEXT,
            "role": _NULLABLE_TEXT,
            "context": _TEXTS,
            "context_event_ids": _TEXTS,
            "sources": _TEXTS,
            "agent_id": _NULLABLE_TEXT,
        },
    },
    "Memory": {
        "type": "object",
        "required": [  # every key is sent (`Memory.to_dict`), null where it has no value
            *("id", "kind", "content", "conversation_id", "created_at", "tags", "severity", "event_ids"),
            *("source", "replaced_by", "deleted_at", "agent_id", "reconciled_by", "unreadable"),
        ],
        "properties": {
            "id": {"type": "string"},
            "kind": {"type": "string", "enum": [*MEMORY_KINDS, "summary"]},
            "content": {"type": "string"},
            "conversation_id": {"type": "string"},
            "created_at": _TIME,
            "tags": _TEXTS,
            "severity": {"type": ["string", "null"], "enum": [*SEVERITIES, None]},
            "event_ids": _TEXTS,
            "source": {"type": "string"},
            "replaced_by": _NULLABLE_TEXT,
            "deleted_at": {"type": ["string", "null"], "format": "date-time"},
            "agent_id": _NULLABLE_TEXT,
            "reconciled_by": _NULLABLE_TEXT,
            "unreadable": _NULLABLE_TEXT,
        },
    },
    "Event": {
        "type": "object",
        "required": [  # every key is sent (`Event.to_dict`)
            *("event_id", "session_id", "timestamp", "event_type", "role", "text", "metadata", "conversation_id"),
            "agent_id",
        ],
        "properties": {
            "event_id": {"type": "string"},
            "session_id": {"type": "string"},
            "timestamp": _TIME,
            "event_type": {"type": "string"},
            "role": {"type": "string"},
            "text": {"type": "string"},
            "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
            "conversation_id": {"type": "string"},
            "agent_id": _NULLABLE_TEXT,
        },
    },
    # -- the timeline (`TocNode.to_dict`, `Grip.to_dict`, `wire.grip_context_to`)
    "TocBullet": _record(text={"type": "string"}, grip_ids=_TEXTS),
    "TocNode": _record(
        node_id={"type": "string", "description": "toc:year:2025, toc:day:2025-07-01, toc:segment:..."},
        level=_one_of(*TocLevel),
        title={"type": "string"},
        start_time=_TIME,
        end_time=_TIME,
        bullets={"type": "array", "items": _ref("TocBullet")},
        keywords=_TEXTS,
        child_node_ids=_TEXTS,
        version={"type": "integer", "minimum": 1},
        created_at=_TIME,
        conversation_id={"type": "string"},
        agent_id=_NULLABLE_TEXT,
        parent_id=_NULLABLE_TEXT,
        source=_one_of("llm", "extractive", "rollup"),  # what wrote the bullets (the timeline builder's words)
        note={**_NULLABLE_TEXT, "description": "why a model's summary was replaced, when it was"},
    ),
    "Grip": _record(
        grip_id={"type": "string"},
        excerpt={"type": "string"},
        event_id_start={"type": "string"},
        event_id_end={"type": "string"},
        timestamp=_TIME,
        source=_one_of("segment_summarizer", "extractive_summarizer"),
        toc_node_id=_NULLABLE_TEXT,
        conversation_id={"type": "string"},
        agent_id=_NULLABLE_TEXT,
    ),
    "GripContext": _record(
        grip=_ref("Grip"),
        events_before={"type": "array", "items": _ref("Event")},
        excerpt_events={"type": "array", "items": _ref("Event")},
        events_after={"type": "array", "items": _ref("Event")},
    ),
    # -- jobs and the status (`JobStatus.to_dict`, `Status.to_dict`)
    "Job": _record(
        name={"type": "string"},
        lane={"type": "string"},  # not an enum: a plugin's job may name its own lane
        kind=_one_of("outbox", "periodic"),
        paused={"type": "boolean"},
        backlog=_COUNT,
        last_run_ms={"type": ["integer", "null"], "description": "epoch milliseconds; null: never ran"},
        runs=_COUNT,
        failures=_COUNT,
        last_error=_NULLABLE_TEXT,
    ),
    "JobState": _record(job={"type": "string"}, state=_one_of("paused", "running")),
    "Checkpoint": _record(
        job={"type": "string"}, last_seq=_COUNT, processed=_COUNT, failed=_COUNT, updated_at_ms=_COUNT
    ),
    "ModelState": _record(  # `facade.views.model_state`: the chat model and its breaker, as every process sees it
        model={"type": "string"},
        base_url={"type": "string"},
        breaker=_one_of(*BREAKER_STATES),
        failures=_COUNT,
        last_error=_NULLABLE_TEXT,
        since=_NULLABLE_TIME,
    ),
    "LLMUsage": _record(  # `facade.views.llm_usage`: calls and tokens, then how the calls ended
        **dict.fromkeys(
            ("calls", "tokens", "calls_last_day", "tokens_last_day", "ok", "rejected", "failed", "timed_out"), _COUNT
        )
    ),
    "Status": _record(
        home={"type": "string"},
        database={"type": "string"},
        backend=_one_of("sqlite", "postgresql"),
        size_bytes=_COUNT,
        schema=_TEXTS,
        events=_COUNT,
        sessions=_COUNT,
        conversations=_COUNT,
        outbox_pending={**_COUNTS, "description": "job -> entries waiting"},
        outbox_failed={**_COUNTS, "description": "job -> entries set aside after failures"},
        checkpoints={"type": "array", "items": _ref("Checkpoint")},
        workers={"type": "object", "additionalProperties": {"type": "string"}, "description": "lane -> its worker"},
        multi_agent_mode=_one_of(*AGENT_MODES),
        indexed_items=_COUNT,
        model={"anyOf": [_ref("ModelState"), {"type": "null"}], "description": "null: no model, rules only"},
        llm_usage={"type": "object", "additionalProperties": _ref("LLMUsage"), "description": "by job"},
        jobs={"type": "array", "items": _ref("Job")},
        timeline={**_COUNTS, "description": "segments per state, TOC nodes"},
        outbox_backlog=_COUNT,
    ),
    # -- the overview (`facade.overview`) and `memoir doctor`
    "Conversation": _record(
        conversation_id={"type": "string"}, sessions=_COUNT, events=_COUNT, first_at=_TIME, last_at=_TIME
    ),
    "ActivityDay": _record(day=_DAY, events=_COUNT),
    "LedgerDay": _record(
        day=_DAY,
        job={"type": "string"},
        calls=_COUNT,
        prompt_tokens=_COUNT,
        completion_tokens=_COUNT,
        seconds={"type": "number", "minimum": 0},
    ),
    "Finding": _record(
        level=_one_of("ok", "warning", "error"),
        area=_one_of("events", "vault", "index", "database", "models"),
        message={"type": "string"},
    ),
}


# The typed 2xx answers, by (method, path).
ANSWERS: dict[tuple[str, str], dict[str, Any]] = {
    ("post", "/api/v1/search"): _list_of("hits", "Hit"),
    ("post", "/api/v1/memories"): _ref("Memory"),
    ("get", "/api/v1/memories"): _list_of("memories", "Memory"),
    ("delete", "/api/v1/memories/{memory_id}"): _ref("Memory"),
    ("put", "/api/v1/memories/{memory_id}"): _ref("Memory"),  # the corrected memory, its new version
    ("post", "/api/v1/context"): {
        "type": "object",
        "required": ["text", "hits", "tokens"],
        "properties": {
            "text": {"type": "string", "description": "the memory block, to put before a model"},
            "hits": {"type": "array", "items": _ref("Hit")},
            "tokens": {"type": "integer"},
        },
    },
    ("get", "/api/v1/memories/{memory_id}/history"): _list_of("memories", "Memory"),
    ("get", "/api/v1/events"): _list_of("events", "Event", next_cursor=_NULLABLE_TEXT),
    ("get", "/api/v1/events/{event_id}"): _ref("Event"),
    ("post", "/api/v1/events"): {"type": "object", "required": ["event_ids"], "properties": {"event_ids": _TEXTS}},
    ("post", "/api/v1/events/batch"): {
        "type": "object",
        "required": ["event_ids"],
        "properties": {"event_ids": _TEXTS},
    },
    ("get", "/api/v1/status"): _ref("Status"),
    ("get", "/api/v1/timeline"): _list_of("nodes", "TocNode"),  # the year nodes
    ("get", "/api/v1/timeline/nodes/{node_id}"): _ref("TocNode"),
    ("get", "/api/v1/timeline/nodes/{node_id}/children"): _list_of(
        "nodes", "TocNode", next_cursor=_NULLABLE_TEXT, has_more={"type": "boolean"}
    ),
    ("get", "/api/v1/grips/{grip_id}"): _ref("GripContext"),
    ("get", "/api/v1/scheduler"): _list_of("jobs", "Job"),
    ("post", "/api/v1/scheduler/{name}/pause"): _ref("JobState"),
    ("post", "/api/v1/scheduler/{name}/resume"): _ref("JobState"),
    ("get", "/api/v1/conversations"): _list_of("conversations", "Conversation"),
    ("get", "/api/v1/conversations/{conversation_id}/activity"): _list_of("days", "ActivityDay"),
    ("get", "/api/v1/llm/ledger"): _list_of("days", "LedgerDay"),
    ("get", "/api/v1/doctor"): _list_of("findings", "Finding"),
}

ERRORS = {
    "401": "no API key, or a wrong one (when the server has `api_key` set)",
    "413": "the body is larger than `server.max_body_bytes`",
    "422": "a value breaks a rule; `param` names the field",
    "500": "a bug of memoir: the server's log has the details",
    "503": "the store or the model is not available now: retry later",
}
NOT_FOUND = "no such id, node, grip or job (or another agent's, in unified mode)"


def describe(app: FastAPI) -> None:
    """Make `app.openapi()` answer the rewritten document (built once, on first request)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = rewritten(generate())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to customise it


def rewritten(document: dict[str, Any]) -> dict[str, Any]:
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    schemas.update(SCHEMAS)
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            _describe_operation(operation, method, path)
    return document


def _describe_operation(operation: dict[str, Any], method: str, path: str) -> None:
    responses = operation.setdefault("responses", {})
    answer = ANSWERS.get((method, path))
    if answer is not None:
        success = next((code for code in responses if code.startswith("2")), "200")
        responses[success] = {
            "description": responses.get(success, {}).get("description", "Successful Response"),
            "content": {"application/json": {"schema": answer}},
        }
    if path in ("/health",):
        return
    errors = dict(ERRORS)
    if method == "get" or path.startswith("/v1/"):
        errors.pop("413")  # no body to be too large (the proxy's limit is the upstream's)
    if "{" in path or path.startswith("/hooks/"):
        errors["404"] = NOT_FOUND
    for code, description in sorted(errors.items()):
        responses[code] = {"description": description, "content": {"application/json": {"schema": _ref("Error")}}}
