"""Errors as HTTP answers: each `MemoirError` class has one status, and every answer one shape.

The shape is OpenAI's (`{"error": {"message", "type", "param"}}`), so any OpenAI client
shows the message, plus what `MemoirClient` needs to raise the same class again
(`memoir.remote.wire.error_body`). Caller mistakes are 4xx, failures of memoir or what it runs on 5xx.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

import memoir.remote.wire as wire
from memoir.errors import InvalidInput, MemoirError, answer_for

__all__ = ["error", "install_error_handlers", "status_of"]


HTTP_KINDS = {404: "not_found", 405: "method_not_allowed", 408: "request_timeout", 413: "request_too_large"}


def status_of(exc: MemoirError) -> int:
    """The HTTP status of an error: `memoir.errors.answer_for`, the one table every door reads."""
    return answer_for(exc).http


def error(status: int, message: str, kind: str = "error", field: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": kind, "param": field}}, status_code=status)


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(MemoirError)
    async def memoir_error(request: Request, exc: MemoirError) -> JSONResponse:
        return JSONResponse(wire.error_body(exc), status_code=status_of(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(_validation_body(exc.errors()), status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        kind = {404: "not_found", 405: "method_not_allowed", 408: "request_timeout", 413: "request_too_large"}.get(
            exc.status_code, "error"
        )
        return error(exc.status_code, str(exc.detail), kind)


def _validation_body(problems: Any) -> dict[str, Any]:
    """Pydantic's findings as an `InvalidInput`: the first names the field; all are listed."""
    first = problems[0] if problems else {"loc": ("body",), "msg": "invalid request"}
    location = list(first.get("loc", ()))
    if location and location[0] in ("body", "query", "path", "header"):
        location = location[1:]  # where it was sent, not which field
    index = None
    if len(location) > 1 and location[0] == "events" and isinstance(location[1], int):
        index, location = location[1], location[2:]  # a batch's event: placed as the façade places it
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in location).lstrip(".") or "body"
    reason = str(first.get("msg", "invalid"))
    shown = [{"loc": list(p.get("loc", ())), "msg": str(p.get("msg", ""))} for p in problems[:20]]
    error = InvalidInput(field, reason, index=index)
    body = wire.error_body(error)
    body["error"]["problems"] = shown
    return body
