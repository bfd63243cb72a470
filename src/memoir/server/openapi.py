"""The OpenAPI document of `memoir serve`, describing the server that answers, not FastAPI's defaults.

FastAPI documents a 422 as its own `{detail: [...]}` and every other answer as an untyped
object; memoir answers every error as `{"error": {"message", "type", "param", ...}}` (the
shape of `server.errors`, which `MemoirClient` and any OpenAI client read) and may answer
401, 404, 413 and 503 besides. This module rewrites the generated document once: each
route lists every status it can answer, each error is the one `Error` schema, and the
answers a client most needs to read (hits, memories, events, the context block) are typed, so that a client
generated from the document reads a hit and an error.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from memoir.model.limits import MEMORY_KINDS, SEARCH_KINDS, SEVERITIES

__all__ = ["describe"]

_NULLABLE_TEXT = {"type": ["string", "null"]}
_TEXTS = {"type": "array", "items": {"type": "string"}}
_TIME = {"type": "string", "format": "date-time"}

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
        "required": ["kind", "text", "score", "event_ids", "created_at", "conversation_id"],
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
        "required": ["id", "kind", "content", "conversation_id", "created_at", "tags", "event_ids", "source"],
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
        "required": ["event_id", "session_id", "timestamp", "event_type", "role", "text", "conversation_id"],
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
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _list_of(key: str, name: str, **more: Any) -> dict[str, Any]:
    return {"type": "object", "required": [key], "properties": {key: {"type": "array", "items": _ref(name)}, **more}}


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
