"""The HTTP app: health, readiness, and the OpenAI-compatible memory proxy (seed 004, 1.1 and 3).

`POST /v1/chat/completions` takes any OpenAI chat request, logs its last user message as
an event of the conversation it names (the body's `memory_id`, as the reference, or the
`X-Memoir-Conversation` header; `default` otherwise; `X-Memoir-Agent` for the agent),
puts that conversation's memory before the message (`Memoir.inject`: quoted as data), and
forwards it to the upstream (`proxy.upstream_url`, by default `llm.base_url`). The answer
comes back as the upstream gave it, streamed chunk by chunk or whole, and is logged as the
assistant's turn once complete; a stream cut short logs what arrived, marked partial.
Other `/v1/*` requests pass through untouched. The app holds no logic of its own beyond
that: everything else is the façade's.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from memoir.engine import Memoir
from memoir.errors import MemoirError, UserError
from memoir.retrieval.injection import last_user_text

__all__ = ["create_app"]

PROXY_FIELDS = ("memory_id", "memory_top_k")  # the reference's per-request knobs: ours, not the upstream's


def error(status: int, message: str, kind: str = "error", field: str | None = None) -> JSONResponse:
    """The one error shape: OpenAI's, so any client shows the message."""
    body: dict[str, Any] = {"message": message, "type": kind}
    if field is not None:
        body["param"] = field
    return JSONResponse({"error": body}, status_code=status)


def memoir_error(exc: MemoirError) -> JSONResponse:
    status = 400 if isinstance(exc, UserError) else 503
    return error(status, str(exc), type(exc).__name__, getattr(exc, "field", None))


def create_app(memoir: Memoir) -> FastAPI:
    settings = memoir.settings
    upstream = (settings.proxy.upstream_url or settings.llm.base_url or "").rstrip("/")
    key = settings.proxy.api_key or settings.llm.api_key
    auth = {"Authorization": f"Bearer {key}"} if key else {}
    clients: dict[str, httpx.AsyncClient] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        clients["upstream"] = httpx.AsyncClient(timeout=settings.proxy.timeout, trust_env=False)
        try:
            yield
        finally:
            await clients["upstream"].aclose()

    app = FastAPI(title="memoir", lifespan=lifespan, docs_url=None, redoc_url=None)

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/ready")
    async def ready() -> Response:
        try:
            backlog = await run_in_threadpool(memoir.pending)
        except MemoirError as exc:
            return memoir_error(exc)
        return JSONResponse({"status": "ready", "backlog": backlog})

    @app.post("/v1/chat/completions")
    async def chat(request: Request) -> Response:
        try:
            body = json.loads(await request.body())
        except ValueError as exc:
            return error(400, f"the request body is not JSON: {exc}", "invalid_request_error")
        if not isinstance(body, dict):
            return error(400, "the request body must be a JSON object", "invalid_request_error")
        conversation = body.get("memory_id") or request.headers.get("x-memoir-conversation") or "default"
        agent = request.headers.get("x-memoir-agent")
        session = request.headers.get("x-memoir-session") or f"proxy-{conversation}"
        turn = {"session_id": session, "conversation_id": conversation, "metadata": {"via": "proxy"}}
        forwarded = {k: v for k, v in body.items() if k not in PROXY_FIELDS}
        try:
            said = last_user_text(body.get("messages"))
            injection = await run_in_threadpool(
                lambda: memoir.inject(body.get("messages"), conversation_id=conversation, agent_id=agent)
            )
            if said is not None:  # logged before forwarding: the user said it, whatever the upstream does
                event = {**turn, "event_type": "user_message", "text": said[1]}
                await run_in_threadpool(lambda: memoir.ingest([event], agent_id=agent))
        except MemoirError as exc:
            return memoir_error(exc)
        forwarded["messages"] = injection.messages

        async def remember_answer(text: str, partial: bool) -> None:
            if text.strip():
                metadata = {"via": "proxy", **({"partial": "true"} if partial else {})}
                event = {**turn, "event_type": "assistant_message", "text": text, "metadata": metadata}
                await run_in_threadpool(lambda: memoir.ingest([event], agent_id=agent))

        client = clients["upstream"]
        url = f"{upstream}/chat/completions"
        try:
            answer = await client.send(client.build_request("POST", url, json=forwarded, headers=auth), stream=True)
        except httpx.HTTPError as exc:
            return error(
                502,
                f"no answer from the upstream at {url} ({type(exc).__name__}): start it or set proxy.upstream_url",
                "upstream_error",
            )
        if answer.status_code != 200 or not forwarded.get("stream"):
            content = await answer.aread()
            await answer.aclose()
            if answer.status_code == 200:
                await remember_answer(_message_text(content), partial=False)
            return Response(content, answer.status_code, media_type=answer.headers.get("content-type"))
        return StreamingResponse(_relay(answer, remember_answer), media_type="text/event-stream")

    @app.api_route("/v1/{path:path}", methods=["GET", "POST", "PUT", "DELETE"])
    async def passthrough(path: str, request: Request) -> Response:
        url = f"{upstream}/{path}"
        try:
            answer = await clients["upstream"].request(
                request.method,
                url,
                content=await request.body(),
                headers={**auth, "Content-Type": request.headers.get("content-type", "application/json")},
                params=request.query_params,
            )
        except httpx.HTTPError as exc:
            return error(502, f"no answer from the upstream at {url} ({type(exc).__name__})", "upstream_error")
        return Response(answer.content, answer.status_code, media_type=answer.headers.get("content-type"))

    return app


def _message_text(content: bytes) -> str:
    try:
        return str(json.loads(content)["choices"][0]["message"]["content"] or "")
    except (ValueError, KeyError, IndexError, TypeError):
        return ""


async def _relay(answer: httpx.Response, remember: Any) -> AsyncIterator[bytes]:
    """The upstream's server-sent events, passed on as they come; the text they carry, remembered."""
    parts: list[str] = []
    finished = False
    try:
        async for line in answer.aiter_lines():
            yield (line + "\n").encode()
            data = line[len("data:") :].strip() if line.startswith("data:") else ""
            if data == "[DONE]":
                finished = True
            elif data:
                parts.append(_delta_text(data))
    finally:
        await answer.aclose()
        await remember("".join(parts), partial=not finished)


def _delta_text(data: str) -> str:
    try:
        choices = json.loads(data).get("choices") or []
        return str((choices[0].get("delta") or {}).get("content") or "") if choices else ""
    except (ValueError, AttributeError, IndexError, TypeError):
        return ""
