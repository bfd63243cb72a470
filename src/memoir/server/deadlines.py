"""How long a client may take to send a request: the server's own limits against slow senders.

uvicorn bounds an idle keep-alive connection (5 s) but not a request on its way in: a
client that connects and sends nothing, or sends half its headers and stops, holds a
connection and its memory for ever, and a few hundred of them exhaust the server
(slowloris). `HeaderDeadline` closes a connection whose request headers are not complete
`HEADER_SECONDS` after its first byte (or after connecting), answering 408 first. The
body has its own bound, `BODY_SECONDS` between two pieces of it, kept by the `Guard`
(it reads the body on the request's way in). Neither touches a response: an answer may
stream for as long as the model writes.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["BODY_SECONDS", "HEADER_SECONDS", "HeaderDeadline"]

HEADER_SECONDS = 10.0  # from a request's first byte to the end of its headers
BODY_SECONDS = 30.0  # the longest pause between two pieces of a request's body


def timeout_answer(message: str) -> bytes:
    """A whole 408 response in the shared error shape, written before the connection closes."""
    body = json.dumps({"error": {"message": message, "type": "request_timeout", "param": None}}).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class HeaderDeadline(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol, with a deadline on each request's headers."""

    seconds = HEADER_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and self._between_requests():  # the first byte of the next request
            self._arm()
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _between_requests(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        self._deadline = self.loop.call_later(self.seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if not self.transport.is_closing() and self._between_requests():
            message = f"the request's headers did not arrive within {self.seconds:g} s"
            self.transport.write(timeout_answer(message))
            self.transport.close()
