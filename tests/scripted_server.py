"""A small scripted OpenAI-compatible HTTP server on 127.0.0.1, for tests.

It plays an embeddings, rerank or chat endpoint so memoir's real HTTP client code
runs end to end. Each route is a function of the parsed JSON body returning
(status, JSON-able body); requests are recorded for assertions.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Route = Callable[[dict[str, Any]], tuple[int, Any]]


class ScriptedServer:
    def __init__(self, routes: dict[str, Route]) -> None:
        self.routes = routes
        self.requests: list[tuple[str, dict[str, Any]]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # the name http.server dispatches to
                self._answer({})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self._answer(json.loads(self.rfile.read(length) or b"{}"))

            def _answer(self, body: dict[str, Any]) -> None:
                server.requests.append((self.path, body))
                route = server.routes.get(self.path)
                status, answer = route(body) if route else (404, {"error": f"no route {self.path}"})
                raw = isinstance(answer, bytes)  # server-sent events, as a streaming chat endpoint sends them
                payload = answer if raw else json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/event-stream" if raw else "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                pass

        class Server(ThreadingHTTPServer):
            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client killed mid-request (the crash tests do that on purpose): nothing to report

        self._httpd = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def start(self) -> ScriptedServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def chat_reply(content: str) -> dict[str, Any]:
    """A /v1/chat/completions answer carrying `content`."""
    return {
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
    }


def replies(*answers: tuple[int, Any] | str) -> Route:
    """A route that gives these answers in turn (text becomes a chat reply), then repeats the last."""
    queue = list(answers)

    def route(body: dict[str, Any]) -> tuple[int, Any]:
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        return (200, chat_reply(answer)) if isinstance(answer, str) else answer

    return route


@contextmanager
def scripted_server(routes: dict[str, Route]) -> Iterator[ScriptedServer]:
    server = ScriptedServer(routes).start()
    try:
        yield server
    finally:
        server.stop()
