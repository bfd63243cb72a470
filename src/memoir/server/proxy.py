"""The OpenAI-compatible memory proxy (seed 004, 1.1 and 3).

`POST /v1/chat/completions` takes any OpenAI chat request, logs its last user message as
an event of the conversation it names (the body's `memory_id`, as the reference, or the
`X-Memoir-Conversation` header; `default` otherwise; `X-Memoir-Agent` for the agent),
puts that conversation's memory before the message (`Memoir.inject`: quoted as data), and
forwards it to the upstream (`proxy.upstream_url`, by default `llm.base_url`). The answer
comes back as the upstream gave it, streamed chunk by chunk or whole, and is logged as the
assistant's turn once complete. A stream cut short (the client hung up, the upstream timed
out or closed before `[DONE]`) logs what arrived, marked partial; when the upstream is what
failed, the client reads it as a last `data: {"error": ...}` event, which the `openai`
clients raise as `APIError`. Other `/v1/*` requests pass through, to paths under the
upstream's own base path only: dot segments and encoded slashes are refused, so the
upstream's key never leaves for another path of that host.

History management (seed 003, `memoir.history`) per request: `history_compression` (a
strategy's text or JSON object), `history_max_tokens`, `history_max_size` and
`history_token_caching`, prefixed because `max_tokens` is already OpenAI's completion
limit. When any is given, the request's messages are compressed and trimmed before the
memory goes in, and the answer carries `X-Memoir-History` (tokens before and after, what
was kept, summarized and dropped). A bad value is a 422 naming the request's field. A
request with fewer than 10 messages is sent uncompressed (a chat's first turns are always
that short; the header says so) rather than refused. Each (conversation, agent) keeps its
last compression in memory (the last 256), so the next request of the conversation
reuses its summaries byte for byte and the upstream's prompt cache holds. Summaries are
extractive: `Memoir` exposes no LLM to the server.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio
import httpx
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

import memoir.remote.wire as wire
from memoir.errors import InvalidQuery, failure_kind, no_answer
from memoir.facade.chat_history import HISTORY_FIELDS
from memoir.facade.engine import Memoir
from memoir.model.checks import brief
from memoir.model.limits import BUDGET_TOKENS
from memoir.server.errors import error

__all__ = ["add_proxy_routes"]

MAX_DEPTH = 200  # JSON nesting a chat request may have (OpenAI's tool schemas nest a few dozen at most)
# The reference's per-request knobs and ours: not the upstream's, so they are taken out before forwarding.
PROXY_FIELDS = ("memory_id", "memory_top_k", "memory_budget_tokens", *HISTORY_FIELDS)
Remember = Callable[[str, bool], Awaitable[None]]


def add_proxy_routes(app: FastAPI, memoir: Memoir, client: Callable[[], httpx.AsyncClient]) -> None:
    settings = memoir.settings
    upstream = (settings.proxy.upstream_url or settings.llm.base_url or "").rstrip("/")
    key = settings.proxy.api_key or settings.llm.api_key
    auth = {"Authorization": f"Bearer {key}"} if key else {}

    @app.post("/v1/chat/completions", tags=["proxy"])
    async def chat(request: Request) -> Response:
        """An OpenAI chat completion with memory: see the module's docstring."""
        body = _json_object(await request.body())
        if not isinstance(body.get("messages"), list) or not body["messages"]:
            return _refused("messages", "must be a non-empty list of chat messages, as OpenAI requires")
        conversation = body.get("memory_id") or request.headers.get("x-memoir-conversation") or "default"
        agent = request.headers.get("x-memoir-agent")
        session = request.headers.get("x-memoir-session") or f"proxy-{conversation}"
        turn: dict[str, Any] = {
            "conversation_id": conversation,
            "session_id": session,
            "agent_id": agent,
            "via": "proxy",
        }
        knobs: dict[str, Any] = {
            "top_k": body.get("memory_top_k"),
            "budget_tokens": body.get("memory_budget_tokens", BUDGET_TOKENS),
        }
        messages, headers = body.get("messages"), {}
        if any(name in body for name in HISTORY_FIELDS):  # before the memory goes in: it is not history
            managed = await run_in_threadpool(
                lambda: memoir.manage_history(body, conversation_id=conversation, agent_id=agent)
            )
            messages, headers = managed[0], {"X-Memoir-History": managed[1]}
        # The façade keeps the user's words (before forwarding: said, whatever the upstream does) and injects.
        injection = await run_in_threadpool(lambda: memoir.take_turn(messages, **turn, **knobs))
        forwarded = {k: v for k, v in body.items() if k not in PROXY_FIELDS}
        forwarded["messages"] = injection.messages

        async def remember_answer(text: str, partial: bool) -> None:
            await run_in_threadpool(lambda: memoir.take_answer(text, **turn, partial=partial))

        url = f"{upstream}/chat/completions"
        upstream_client = client()
        waiting = contextlib.ExitStack()  # a person waits on this answer: memoir's own work on that server waits
        waiting.enter_context(memoir.foreground(upstream))
        try:
            request_out = upstream_client.build_request("POST", url, json=forwarded, headers=auth)
            answer = await upstream_client.send(request_out, stream=True)
        except httpx.HTTPError as exc:
            waiting.close()
            return _unreachable(url, exc)
        if answer.status_code != 200 or not forwarded.get("stream"):
            with waiting:
                content = await answer.aread()
                await answer.aclose()
            if answer.status_code == 200:
                await remember_answer(_message_text(content), False)
            headers.update(_kept_headers(answer))
            return Response(content, answer.status_code, headers, media_type=answer.headers.get("content-type"))
        relayed = _relay(answer, remember_answer, waiting)
        headers.update(_kept_headers(answer))
        return StreamingResponse(relayed, headers=headers, media_type="text/event-stream")

    @app.api_route("/v1/{path:path}", methods=["GET", "POST", "PUT", "DELETE"], include_in_schema=False)
    async def passthrough(path: str, request: Request) -> Response:
        """Any other OpenAI path (`/v1/models`, `/v1/embeddings`...), passed to the upstream as it is."""
        if (refusal := _outside(request.scope.get("raw_path", b""), path)) is not None:
            return _refused("path", refusal)
        url = f"{upstream}/{path}"
        try:
            answer = await client().request(
                request.method,
                url,
                content=await request.body(),
                headers={**auth, "Content-Type": request.headers.get("content-type", "application/json")},
                params=request.query_params,
            )
        except httpx.HTTPError as exc:
            return _unreachable(url, exc)
        return Response(
            answer.content, answer.status_code, _kept_headers(answer), media_type=answer.headers.get("content-type")
        )


def _json_object(raw: bytes) -> dict[str, Any]:
    try:
        body = json.loads(raw)
    except ValueError as exc:
        raise InvalidQuery("body", f"not JSON: {exc}") from None
    except RecursionError:  # `[[[[...` a hundred thousand deep: the caller's error, in the one shape
        raise InvalidQuery("body", "nested too deeply to be a chat request") from None
    if not isinstance(body, dict):
        raise InvalidQuery("body", f"must be a JSON object, got {brief(body)}")
    if _deeper_than(body, MAX_DEPTH):
        # Parsed here, but encoded again for the upstream deeper in the stack, where a few hundred levels
        # more than Python's recursion allows would end the request in a 500 (found by the deep-JSON test).
        raise InvalidQuery("body", f"nested more than {MAX_DEPTH} deep: no chat request needs that")
    return body


def _deeper_than(value: Any, limit: int) -> bool:
    """Does a parsed JSON value nest more than `limit` deep (counted without recursion)?"""
    stack = [(value, 1)] if isinstance(value, dict | list) else []
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))  # strings: leaves
    return False


def _refused(field: str, reason: str) -> Response:
    """A 400 in the shared error shape, naming the request's field (as OpenAI answers a bad request)."""
    return JSONResponse(wire.error_body(InvalidQuery(field, reason)), status_code=400)


def _outside(raw_path: bytes, path: str) -> str | None:
    """Why a passthrough path could leave the upstream's base path, or None when it cannot.

    The decoded path is checked for dot segments, backslashes and what is still encoded
    (`%252e`), the raw one for encoded slashes, dots and backslashes (`..%2f`, `%2e%2e`):
    an HTTP client or the upstream's router may resolve any of them, and the request
    carries the upstream's key.
    """
    raw = raw_path.decode("latin-1").lower()
    if any(code in raw for code in ("%2f", "%5c", "%2e")) or "%" in path:  # `%` left after decoding: twice encoded
        return "encoded slashes and dots are not forwarded: send the path plainly"
    if "\\" in path or any(part in (".", "..") for part in path.split("/")):
        return "dot segments are not forwarded: only paths under the upstream's base path are"
    return None


# What an upstream says about its answer that a client may rely on: caching, request ids, rate limits.
_KEPT_HEADERS = ("cache-control", "x-request-id", "openai-processing-ms", "retry-after")


def _kept_headers(answer: httpx.Response) -> dict[str, str]:
    kept = {name: answer.headers[name] for name in _KEPT_HEADERS if name in answer.headers}
    kept.update({k: v for k, v in answer.headers.items() if k.lower().startswith("x-ratelimit-")})
    return kept


def _unreachable(url: str, exc: httpx.HTTPError) -> Response:
    if failure_kind(exc) == "timeout":
        return error(504, no_answer(f"the upstream at {url}", exc, "raise proxy.timeout"), "upstream_timeout")
    message = no_answer(f"the upstream at {url}", exc, "start it or set proxy.upstream_url")
    return error(502, message, "upstream_error")


def _message_text(content: bytes) -> str:
    try:
        return str(json.loads(content)["choices"][0]["message"]["content"] or "")
    except (ValueError, KeyError, IndexError, TypeError):
        return ""


async def _relay(
    answer: httpx.Response, remember: Remember, waiting: contextlib.ExitStack | None = None
) -> AsyncIterator[bytes]:
    """The upstream's server-sent events, passed on as they come; the text they carry, remembered.

    An upstream that fails mid-stream (a timeout, a dropped connection, a body that ends
    before `[DONE]`) ends the client's stream with an error event it can read, and the turn
    is kept as partial. `waiting` (the foreground mark) is released once the stream has
    ended, however it ends.
    """
    parts: list[str] = []
    finished, failure = False, None
    try:
        try:
            async for line in answer.aiter_lines():
                data = line[len("data:") :].strip() if line.startswith("data:") else ""
                if data == "[DONE]":
                    finished = True
                elif data:
                    parts.append(_delta_text(data))
                yield (line + "\n").encode()
        except httpx.HTTPError as exc:
            failure = _stream_failure(exc)
        if not finished and failure is None:
            failure = "the upstream's stream ended before it said [DONE]"
        if failure is not None:
            yield _error_event(failure)
    finally:
        # Shielded: a client that hangs up as soon as it reads [DONE] cancels this generator,
        # and the turn must be stored all the same (an early hang-up: what arrived, partial).
        with anyio.CancelScope(shield=True):
            if waiting is not None:
                waiting.close()
            await answer.aclose()
            await remember("".join(parts), not finished)


def _stream_failure(exc: httpx.HTTPError) -> str:
    return no_answer("the upstream", exc, "the answer is cut short (proxy.timeout bounds each wait)")


def _error_event(message: str) -> bytes:
    """The last event of a failed stream: OpenAI's error shape, which its clients raise as APIError."""
    body = {"error": {"message": message, "type": "upstream_error", "param": None}}
    return b"\n" + b"data: " + json.dumps(body).encode() + b"\n\n"


def _delta_text(data: str) -> str:
    try:
        choices = json.loads(data).get("choices") or []
        return str((choices[0].get("delta") or {}).get("content") or "") if choices else ""
    except (ValueError, AttributeError, IndexError, TypeError):
        return ""
