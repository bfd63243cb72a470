"""`memoir hook EVENT`: a coding agent's `command` hook, reading the call's JSON on stdin.

It runs as a new process for every call, so it imports little and does little: it hands
the call to a running `memoir serve` when there is one (which stores it and answers with
context), and otherwise spools the call's events (`memoir.store.spool`) without touching
the database, and starts that server in the background (`hooks.autostart`), so that the
next call gets context: a user who installed the hooks should not have to learn to keep
`memoir serve` running. It always prints a JSON answer with `"continue": true` and exits 0,
whatever happens: a memory system must never stop the agent (fail-open). Problems go to
stderr, one line.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from memoir.config import Settings, load_settings
from memoir.facade.spool import spool_events
from memoir.hooks.capture import MAX_PAYLOAD_BYTES, events_for, parse_call
from memoir.model.secrets import Masker

__all__ = ["run_hook", "start_server"]

_START_GRACE = 60.0  # seconds a start may take before another call tries again
MAX_ANSWER_BYTES = 16 * 1024 * 1024  # a hook's answer is a few KiB of context: more is not our server


def run_hook(event: str | None, agent: str, home: Path | None = None, config: Path | None = None) -> int:
    """Handle one call from stdin; prints the agent's answer on stdout and returns 0."""
    answer: dict[str, Any] = {"continue": True}
    try:
        body = sys.stdin.buffer.read(MAX_PAYLOAD_BYTES + 1)
        settings = load_settings({"home": home}, config_file=config)
        answer = _handle(settings, agent, event, body, config) or answer
    except Exception as exc:  # noqa: BLE001  # fail-open: whatever went wrong, the agent goes on
        message = f"{type(exc).__name__}: {exc}" if not str(exc).startswith(type(exc).__name__) else str(exc)
        sys.stderr.write(f"memoir hook: {message}"[:2000].replace("\n", " ") + "\n")
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    return 0


def _handle(
    settings: Settings, agent: str, event: str | None, body: bytes, config: Path | None = None
) -> dict[str, Any] | None:
    call = parse_call(agent, body, event)
    payload = dict(call.payload)
    if not isinstance(payload.get("timestamp"), str):
        # The server and a local fallback must derive the same event ids from the same call.
        payload["timestamp"] = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        call = parse_call(agent, payload, event)
    try:
        answered = _ask_server(settings, agent, payload, call.hook_name)
    except ConnectionRefusedError:
        answered = None
        if settings.hooks.autostart:
            start_server(settings, config)
    if answered is not None:
        return answered
    events = events_for(call, Masker(settings.privacy.secret_patterns))
    if settings.agent_id is not None:
        for item in events:
            item["agent_id"] = settings.agent_id
    if events:
        spool_events(settings.home, events)
    return None


def _ask_server(settings: Settings, agent: str, payload: dict[str, Any], hook_name: str) -> dict[str, Any] | None:
    """The server's answer, or None when there is no server or it could not store the call."""
    url = settings.hooks.server_url
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise ValueError(f"hooks.server_url {url!r} is not an http:// URL (use the http hook for others)")
    headers = {"Host": parts.netloc, "Content-Type": "application/json", "Connection": "close"}
    if settings.api_key:
        headers["Authorization"] = f"Bearer {settings.api_key}"
    body = json.dumps({**payload, "hook_event_name": hook_name}).encode()  # ASCII: json escapes the rest
    path = f"{parts.path.rstrip('/')}/hooks/{agent}"
    try:
        status, answer_headers, data = _post(
            parts.hostname, parts.port or 80, path, headers, body, settings.hooks.timeout
        )
    except ConnectionRefusedError:
        raise  # nothing listens there: the caller may start the server
    except (OSError, ValueError):
        return None  # no server, or it did not answer in time: write locally
    if status != 200 or "x-memoir-error" in answer_headers:
        return None
    try:
        answer = json.loads(data)
    except ValueError:
        return None
    return answer if isinstance(answer, dict) else None


def start_server(settings: Settings, config: Path | None = None) -> bool:
    """Start `memoir serve` for `hooks.server_url` in the background; False when it is not ours to start.

    Only a loopback URL is started (another host's server is someone else's), and one start
    at a time: a marker file in the home, taken with O_EXCL, keeps a burst of hook calls from
    starting a server each; a marker older than a minute is a start that failed, and is
    taken over. The server runs detached (its own session, no terminal), logging to
    `<home>/logs/serve.log`, and outlives the agent's session.
    """
    parts = urlsplit(settings.hooks.server_url or "")
    if parts.hostname not in ("127.0.0.1", "localhost", "::1") or not settings.home.is_dir():
        return False
    marker = settings.home / "serve.starting"
    try:
        if marker.exists() and time.time() - marker.stat().st_mtime > _START_GRACE:
            marker.unlink(missing_ok=True)
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        return False  # another call is starting it
    import subprocess  # here: every hook call imports this module, few start a server

    logs = settings.home / "logs"
    logs.mkdir(exist_ok=True)
    command = [sys.executable, "-m", "memoir", "--home", str(settings.home)]
    command += ["--config", str(config), "serve"] if config is not None else ["serve"]
    command += ["--host", parts.hostname, "--port", str(parts.port or 80), "--no-grpc"]
    with open(logs / "serve.log", "ab") as log:
        server = subprocess.Popen(  # our own interpreter and module, arguments from our settings
            command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True, close_fds=True
        )
    marker.write_text(f"{server.pid}\n")  # which process it was, for whoever wants to stop it
    sys.stderr.write(f"memoir hook: started `memoir serve` on {parts.netloc} (log: {logs / 'serve.log'})\n")
    return True


def _post(
    host: str, port: int, path: str, headers: dict[str, str], body: bytes, timeout: float
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 POST on a fresh connection, read to its end.

    A few lines of socket code instead of `http.client`, whose import (email parsing, ssl)
    costs more than the rest of a hook call. The server is ours, on loopback, and answers
    with a Content-Length and closes.
    """
    lines = [f"POST {path} HTTP/1.1", *(f"{k}: {v}" for k, v in headers.items()), f"Content-Length: {len(body)}"]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
    # One deadline for the whole call: a socket timeout bounds each read, and a server that
    # trickles a byte at a time would keep the agent waiting for ever.
    deadline = time.monotonic() + timeout
    with socket.create_connection((host, port), timeout=timeout) as connection:
        connection.sendall(request)
        chunks, size = [], 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no whole answer within hooks.timeout ({timeout:g} s)")
            connection.settimeout(left)
            if not (chunk := connection.recv(65536)):
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_ANSWER_BYTES:
                raise ValueError(f"the server's answer is over {MAX_ANSWER_BYTES} bytes")
    head, _, data = b"".join(chunks).partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found = dict(line.split(":", 1) for line in header_lines if ":" in line)
    answer_headers = {key.strip().lower(): value.strip() for key, value in found.items()}
    length = int(answer_headers.get("content-length", len(data)))
    return int(status_line.split()[1]), answer_headers, data[:length]
