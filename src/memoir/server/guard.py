"""What every HTTP request passes first: the API key, the body's size and pace, and the access log.

Without a key the server listens on loopback only, where a web page can still reach it:
through DNS rebinding (its own name resolved to 127.0.0.1) or by posting across sites. So
then a request must name a loopback host, and one sent by a browser must come from a
loopback page or a configured `server.cors_origins` (decision 69). Agents, hooks and SDK
clients send no `Origin` and a loopback `Host`, so they pass.

A plain ASGI middleware rather than a FastAPI dependency, so the proxy's streams, the
docs and any route added later are covered without each remembering to ask. The log is
one JSON object per request on the `memoir.access` logger (method, path, status, time,
bytes, client); the query string and headers are left out, since they may carry keys.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memoir.auth import WEB_SESSION_COOKIE, bearer_token, key_matches, web_session_valid
from memoir.server.deadlines import BODY_SECONDS

__all__ = ["Guard", "cookie", "is_web_page"]

access_log = logging.getLogger("memoir.access")
OPEN_PATHS = frozenset({"/health", "/ui/signin", "/ui/static/memoir.css"})  # no key: probes, the sign-in page
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})


class Guard:
    def __init__(
        self, app: ASGIApp, *, api_key: str | None, max_body_bytes: int, cors_origins: tuple[str, ...] = ()
    ) -> None:
        self.app = app
        self.api_key = api_key
        self.max_body_bytes = max_body_bytes
        self.cors_origins = frozenset(origin.rstrip("/") for origin in cors_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        seen: dict[str, Any] = {"status": 0, "bytes": 0}

        async def watched_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                seen["status"] = message["status"]
            elif message["type"] == "http.response.body":
                seen["bytes"] += len(message.get("body", b""))
            await send(message)

        try:
            await self._checked(scope, receive, watched_send)
        finally:
            _log(scope, seen, time.perf_counter() - started)

    async def _checked(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if self.api_key is None and (refusal := self._foreign(headers)):
            await _refuse(send, *refusal)
            return
        if not self._allowed(scope, headers):
            if is_web_page(scope["path"]) and scope["method"] == "GET":  # a person at a browser: the sign-in page
                await _redirect(send, "/ui/signin")
                return
            await _refuse(send, 401, "a valid API key is required: send `Authorization: Bearer <key>`", "auth")
            return
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_body_bytes:
            await _refuse(send, 413, self._too_large(), "request_too_large")
            return
        body = await self._body(receive)
        if isinstance(body, tuple):
            await _refuse(send, *body)
            return
        whole: Message = {"type": "http.request", "body": body, "more_body": False}
        replay = [whole if body is not None else {"type": "http.disconnect"}]

        async def replayed_receive() -> Message:
            return replay.pop() if replay else await receive()  # then: a disconnect, waited for with no deadline

        await self.app(scope, replayed_receive, send)

    async def _body(self, receive: Receive) -> bytes | tuple[int, str, str] | None:
        """The whole request body, read here so that every route and mounted app (`/mcp`) gets the
        same refusals in the one error shape: over `max_body_bytes` (a body sent without its length,
        or chunked), or paused for over `BODY_SECONDS` (a slow sender holding the connection).
        None: the client left before sending it all."""
        parts, received = [], 0
        while True:
            try:
                with anyio.fail_after(BODY_SECONDS):
                    message = await receive()
            except TimeoutError:
                return 408, f"the request's body paused for over {BODY_SECONDS:g} s", "request_timeout"
            if message["type"] != "http.request":
                return None
            parts.append(message.get("body", b""))
            received += len(parts[-1])
            if received > self.max_body_bytes:
                return 413, self._too_large(), "request_too_large"
            if not message.get("more_body", False):
                return b"".join(parts)

    def _allowed(self, scope: Scope, headers: dict[str, str]) -> bool:
        if self.api_key is None or scope["path"] in OPEN_PATHS or scope["method"] == "OPTIONS":
            return True  # OPTIONS: a browser's CORS preflight never carries the key
        if key_matches(bearer_token(headers.get("authorization")), self.api_key):
            return True
        # The web view's pages also take the session cookie its sign-in set; the API never does,
        # so a page of another site can never spend it there (the cookie is SameSite=Strict too).
        session = cookie(headers.get("cookie", ""), WEB_SESSION_COOKIE)
        return is_web_page(scope["path"]) and web_session_valid(session, self.api_key, time.time())

    def _foreign(self, headers: dict[str, str]) -> tuple[int, str, str] | None:
        """Why a keyless server refuses a request from a web page, or None."""
        host = headers.get("host", "")
        if _hostname(host) not in LOOPBACK_HOSTS:
            return 421, f"this server answers to loopback names only, not Host {host[:100]!r}", "host_not_allowed"
        origin = headers.get("origin")
        if origin is None:  # not a browser
            return None
        origin = origin.rstrip("/")
        if {"*", origin} & self.cors_origins or _hostname(origin.partition("://")[2]) in LOOPBACK_HOSTS:
            return None
        reason = f"requests from the web page {origin[:100]!r} are refused: add it to server.cors_origins"
        return 403, reason, "origin_not_allowed"

    def _too_large(self) -> str:
        return f"the request body is over {self.max_body_bytes} bytes (server.max_body_bytes)"


def is_web_page(path: str) -> bool:
    """The web view's paths (`memoir.web`): `/` and everything under `/ui/`."""
    return path == "/" or path.startswith("/ui/")


def cookie(header: str, name: str) -> str | None:
    """One cookie's value from a `Cookie` header, read leniently (a malformed pair is skipped)."""
    for pair in header.split(";"):
        key, sep, value = pair.strip().partition("=")
        if sep and key == name:
            return value.strip().strip('"')
    return None


async def _redirect(send: Send, location: str) -> None:
    headers = [(b"location", location.encode()), (b"content-length", b"0")]
    await send({"type": "http.response.start", "status": 303, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


async def _refuse(send: Send, status: int, message: str, kind: str) -> None:
    body = json.dumps({"error": {"message": message, "type": kind, "param": None}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _hostname(host: str) -> str:
    """`localhost` of `localhost:8765`, `[::1]` of `[::1]:8765`."""
    if host.startswith("["):
        return host[: host.find("]") + 1].lower()
    return host.rpartition(":")[0].lower() if ":" in host else host.lower()


def _log(scope: Scope, seen: dict[str, Any], seconds: float) -> None:
    if not access_log.isEnabledFor(logging.INFO):
        return
    client = scope.get("client")
    record = {
        "method": scope["method"],
        "path": scope["path"],
        "status": seen["status"],
        "ms": round(seconds * 1000, 1),
        "bytes": seen["bytes"],
        "client": f"{client[0]}:{client[1]}" if client else None,
    }
    access_log.info(json.dumps(record, ensure_ascii=False))
