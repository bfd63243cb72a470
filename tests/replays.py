"""The recorded answers of a real small model (Qwen2.5 Coder 0.5B) to memoir's prompts, as an upstream.

Copies of ../shared/data/llm-replays live in tests/data/llm-replays, so a fresh clone runs
the tests: `qwen2.5-coder-0.5b-q4.jsonl` (the prompts of 2026-11-21) and
`qwen2.5-coder-0.5b-q4-facts.jsonl` (issue 25's prompts: extraction with worked examples,
reconciliation, segment and conversation summaries, chat turns; `bench/facts.py --record`
wrote it). One JSON object a line: `request` (messages, response_format, temperature,
tools), `status`, `seconds`, `content` (the raw answer), `usage`, and for chat turns
`message` (the answer's message, tool calls included).

`Replayer` serves them from a scripted server on 127.0.0.1: the recorded answer to the
very request when there is one (`bench/facts.py --replay` reproduces a recorded run), else
an answer recorded for a request of the same kind (extraction, reconciliation, summary...),
in turn, so a test sees what a real model says whatever prompt arrives. `Recorder` is the
other side: an upstream that forwards to a real model and writes each exchange down.
Shared by the tests and by `bench/facts.py` (no pytest here).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import httpx

from tests.scripted_server import chat_reply

__all__ = [
    "EXTRACTIONS",
    "RECONCILIATIONS",
    "REPLAYS",
    "ROWS",
    "Recorder",
    "Replayer",
    "kind_of",
    "load",
    "request_key",
    "user_text",
]

FOLDER = Path(__file__).parent / "data" / "llm-replays"
REPLAYS = FOLDER / "qwen2.5-coder-0.5b-q4.jsonl"
FACTS_REPLAYS = FOLDER / "qwen2.5-coder-0.5b-q4-facts.jsonl"
_KINDS = (
    ("You extract facts", "extraction"),
    ("You pick out what the user says", "extraction"),
    ("You keep a user's memory", "reconciliation"),
    ("You summarize one part of a conversation for a table", "segment summary"),
    ("You summarize", "conversation summary"),
    ("You receive the summaries", "conversation summary"),
)


def load(*paths: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in paths:
        if path.exists():
            rows += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows


def kind_of(request: dict[str, Any]) -> str:
    """What a request asks for, by its system prompt: extraction, reconciliation, a summary, or chat."""
    if request.get("tools"):
        return "chat"
    first = next((m for m in request.get("messages", []) if m.get("role") == "system"), None)
    text = str(first.get("content", "")) if first else ""
    return next((kind for start, kind in _KINDS if text.startswith(start)), "chat")


def request_key(request: dict[str, Any]) -> str:
    """A request's identity: its messages (and tools), whatever the transport's other fields."""
    wanted = {"messages": request.get("messages"), "tools": request.get("tools")}
    return hashlib.sha256(json.dumps(wanted, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


ROWS = load(REPLAYS)
EXTRACTIONS = [r for r in ROWS if kind_of(r["request"]) == "extraction"]
RECONCILIATIONS = [r for r in ROWS if kind_of(r["request"]) == "reconciliation"]


def user_text(row: dict[str, Any]) -> str:
    """The message the call was about (a corrective retry repeats it first, then adds its complaint)."""
    return str(row["request"]["messages"][1]["content"])


class Replayer:
    """The recordings as an upstream: the answer to the very request, else one of its kind, in turn."""

    def __init__(self, rows: Iterable[dict[str, Any]] | None = None, *, exact_only: bool = False) -> None:
        self.rows = list(ROWS if rows is None else rows)
        self.exact = {request_key(r["request"]): r for r in self.rows}
        self.by_kind: dict[str, list[dict[str, Any]]] = {}
        for row in self.rows:  # a refusal answered its own request's format: never another request's
            if row.get("status", 200) == 200:
                self.by_kind.setdefault(kind_of(row["request"]), []).append(row)
        self.exact_only = exact_only
        self.calls = self.hits = self.misses = 0
        self._turn: dict[str, int] = {}
        self._lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> tuple[int, Any]:
        with self._lock:
            self.calls += 1
            row = self.exact.get(request_key(body))
            if row is not None:
                self.hits += 1
            else:
                self.misses += 1
                row = self._of_kind(kind_of(body))
        if row is None:
            return 200, chat_reply('{"facts": []}')
        if row.get("status", 200) != 200:
            return int(row["status"]), {"error": row.get("content", "")}
        if "message" in row:  # a chat turn: the whole message, tool calls and all
            return 200, {"object": "chat.completion", "choices": [{"index": 0, "message": row["message"]}]}
        return 200, chat_reply(str(row["content"]))

    def _of_kind(self, kind: str) -> dict[str, Any] | None:
        rows = [] if self.exact_only else self.by_kind.get(kind, [])
        if not rows:
            return None
        turn = self._turn.get(kind, 0)
        self._turn[kind] = turn + 1
        return rows[turn % len(rows)]


class Recorder:
    """An upstream that asks a real model (`base_url`, OpenAI-compatible) and appends each exchange to `path`.

    A streamed request is asked whole (the client reads a whole answer as well), so what is
    written is the message the model gave, tool calls included. A request `path` holds already
    is answered from it (with its recorded seconds), so a run cut short goes on where it was.
    """

    def __init__(self, base_url: str, path: Path, timeout: float = 600.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.path = path
        self._http = httpx.Client(timeout=timeout)
        self._lock = threading.Lock()
        self.seconds: list[tuple[str, float]] = []  # (kind, seconds) of each call
        self.recorded = Replayer(load(path), exact_only=True)

    def __call__(self, body: dict[str, Any]) -> tuple[int, Any]:
        known = self.recorded.exact.get(request_key(body))
        if known is not None:
            with self._lock:
                self.seconds.append((kind_of(body), float(known.get("seconds") or 0.0)))
            return self.recorded(body)
        asked = {k: v for k, v in body.items() if k != "stream"}
        started = time.monotonic()
        try:
            response = self._http.post(f"{self.base_url}/chat/completions", json=asked)
        except httpx.HTTPError as exc:
            return 502, {"error": f"the model server did not answer: {type(exc).__name__}"}
        seconds = round(time.monotonic() - started, 3)
        row: dict[str, Any] = {"request": _request(body), "status": response.status_code, "seconds": seconds}
        try:
            answer = response.json()
        except ValueError:
            answer = {}
        message = ((answer.get("choices") or [{}])[0] or {}).get("message") or {}
        row["content"] = message.get("content") if response.status_code == 200 else response.text[:2000]
        row["usage"] = answer.get("usage")
        if body.get("tools"):
            row["message"] = {k: message.get(k) for k in ("role", "content", "tool_calls") if k in message}
        with self._lock:
            self.seconds.append((kind_of(body), seconds))
            with self.path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
        return response.status_code, answer if answer else {"error": response.text[:2000]}

    def models(self, body: dict[str, Any]) -> tuple[int, Any]:
        """The model server's `/models` (the chat agent checks it at start)."""
        try:
            response = self._http.get(f"{self.base_url}/models")
            return response.status_code, response.json()
        except (httpx.HTTPError, ValueError) as exc:
            return 502, {"error": f"the model server did not answer: {type(exc).__name__}"}

    def close(self) -> None:
        self._http.close()


def _request(body: dict[str, Any]) -> dict[str, Any]:
    kept = ("messages", "response_format", "temperature", "tools")
    return {key: body[key] for key in kept if key in body}
