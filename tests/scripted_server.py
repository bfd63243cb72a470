"""A small scripted OpenAI-compatible HTTP server on 127.0.0.1, for tests.

It plays an embeddings, rerank or chat endpoint so memoir's real HTTP client code
runs end to end. Each route is a function of the parsed JSON body returning
(status, JSON-able body); requests are recorded for assertions. A body of bytes is
sent as server-sent events, and an iterator of bytes is sent piece by piece as it
yields them (a stream that pauses, or stops, mid-answer).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Route = Callable[[dict[str, Any]], tuple[int, Any]]
DROP = object()  # a route's answer: close the connection without a word, as a server that crashed on the request


class ScriptedServer:
    def __init__(self, routes: dict[str, Route], headers: dict[str, str] | None = None) -> None:
        self.routes = routes
        self.headers = headers or {}  # sent with every answer (an upstream's Cache-Control, request ids)
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
                if answer is DROP:
                    self.close_connection = True
                    return
                if isinstance(answer, Iterator):  # a stream sent as it is made, pauses included
                    self._stream(status, answer)
                    return
                raw = isinstance(answer, bytes)  # server-sent events, as a streaming chat endpoint sends them
                payload = answer if raw else json.dumps(answer).encode()
                self.send_response(status)
                self._extra_headers()
                self.send_header("Content-Type", "text/event-stream" if raw else "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def _stream(self, status: int, pieces: Iterator[bytes]) -> None:
                self.send_response(status)
                self._extra_headers()
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")  # no length: the end of the stream is the end of the body
                self.end_headers()
                for piece in pieces:
                    self.wfile.write(piece)
                    self.wfile.flush()
                self.close_connection = True

            def _extra_headers(self) -> None:
                for name, value in server.headers.items():
                    self.send_header(name, value)

            def log_message(self, *args: Any) -> None:
                pass

        class Server(ThreadingHTTPServer):
            # socketserver listens with a backlog of 5: a hundred clients connecting at once on a
            # loaded machine overflow it, and the kernel resets the connections it drops.
            request_queue_size = 256

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client killed mid-request (the crash tests do that on purpose): nothing to report

        self._httpd = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        # serve_forever looks for shutdown() every poll_interval: 0.5 s by default, half a second
        # lost at every stop, and the suite stops hundreds of these.
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True)

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
def scripted_server(routes: dict[str, Route], headers: dict[str, str] | None = None) -> Iterator[ScriptedServer]:
    server = ScriptedServer(routes, headers).start()
    try:
        yield server
    finally:
        server.stop()


# -- chat with tools, streamed (the chat agent's tests) --------------------------------------


def tool_call(name: str, arguments: Any = None, call_id: str | None = None) -> dict[str, Any]:
    """An OpenAI tool call; `arguments` as given when text, else as JSON."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments or {})
    return {"id": call_id or f"call_{name}", "type": "function", "function": {"name": name, "arguments": text}}


def sse(*pieces: str, tool_calls: list[dict[str, Any]] | None = None, fragments: int = 1) -> bytes:
    """A streamed chat completion as OpenAI sends it: a chunk per piece of text, then the tool calls.

    Each call's arguments are cut into `fragments` chunks, each naming the call's `index`
    (the id and name come in the first only), as OpenAI streams them; `fragments=1` sends
    each call whole in one chunk, as Ollama does.
    """
    chunks: list[dict[str, Any]] = [{"choices": [{"index": 0, "delta": {"role": "assistant"}}]}]
    chunks += [{"choices": [{"index": 0, "delta": {"content": piece}}]} for piece in pieces]
    for index, call in enumerate(tool_calls or []):
        arguments = call["function"]["arguments"]
        size = max(1, -(-len(arguments) // fragments))
        parts = [arguments[n : n + size] for n in range(0, len(arguments), size)] or [""]
        for number, part in enumerate(parts):
            delta: dict[str, Any] = {"index": index, "function": {"arguments": part}}
            if number == 0:
                delta.update(id=call["id"], type="function")
                delta["function"]["name"] = call["function"]["name"]
            chunks.append({"choices": [{"index": 0, "delta": {"tool_calls": [delta]}}]})
    reason = "tool_calls" if tool_calls else "stop"
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})
    return b"".join(f"data: {json.dumps(chunk)}\n\n".encode() for chunk in chunks) + b"data: [DONE]\n\n"


def models(*names: str) -> Route:
    """A /v1/models route listing `names`."""
    return lambda body: (200, {"object": "list", "data": [{"id": name, "object": "model"} for name in names]})


class ScriptedChat:
    """A chat model scripted turn by turn: each request takes the next answer (the last repeats).

    An answer is text (streamed as `sse`, or whole when the request does not stream), a
    list of tool calls, a (status, body) pair, or a function of the request body giving
    any of these. `delay` makes each of the first `slow` requests sleep that long first.
    """

    def __init__(self, *answers: Any, delay: float = 0.0, slow: int = 0) -> None:
        self.answers = list(answers)
        self.bodies: list[dict[str, Any]] = []
        self.delay, self.slow = delay, slow
        self._lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> tuple[int, Any]:
        with self._lock:
            self.bodies.append(body)
            number = len(self.bodies)
            answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if number <= self.slow:
            time.sleep(self.delay)
        if callable(answer):
            answer = answer(body)
        if isinstance(answer, tuple):
            return answer
        calls = answer if isinstance(answer, list) else None
        text = "" if calls is not None else str(answer)
        if body.get("stream"):
            return 200, sse(*([text] if text else []), tool_calls=calls)
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if calls:
            message["tool_calls"] = calls
        return 200, {"object": "chat.completion", "choices": [{"index": 0, "message": message}]}
