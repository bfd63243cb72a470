"""`memoir serve` as a user runs it: a real process, its banner, its answers, and a clean stop.

The process is started as `python -m memoir serve`, talked to over loopback with the
official `openai` client and plain HTTP, then stopped with SIGINT (Ctrl-C) or SIGTERM.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import openai

from memoir import Memoir, MemoirClient
from tests.conftest import cli, message
from tests.scripted_server import chat_reply, scripted_server


def start(home: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    """`memoir serve` in a process of its own, on a home made here (`memoir init` in this process)."""
    made = cli("init", home=home, MEMOIR_EMBEDDING_PROVIDER="hashing", **env)
    assert made.exit_code == 0, made.stderr
    variables = {**os.environ, "MEMOIR_HOME": str(home), "MEMOIR_EMBEDDING_PROVIDER": "hashing", **env}
    return subprocess.Popen(
        [sys.executable, "-m", "memoir", "serve", "--port", "0", "--grpc-port", "0", *args],
        env=variables,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )


def banner(process: subprocess.Popen[str]) -> tuple[str, str]:
    """The HTTP base URL and the gRPC address the server printed, once it listens."""
    assert process.stderr is not None
    lines: list[str] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line and process.poll() is not None:
            break
        lines.append(line)
        if line.strip().startswith("gRPC"):
            text = "".join(lines)
            url = re.search(r"REST API\s+(http://\S+)/api/v1", text)
            grpc = re.search(r"gRPC\s+(\S+)", text)
            assert url and grpc and f"{url.group(1)}/mcp" in text and "/hooks/claude" in text, text
            return url.group(1), grpc.group(1)
    raise AssertionError("no banner: " + "".join(lines))


def stop(process: subprocess.Popen[str], how: signal.Signals = signal.SIGINT) -> str:
    process.send_signal(how)
    _, rest = process.communicate(timeout=60)
    assert process.returncode == 0, rest
    return rest


def test_serve_answers_openai_and_rest_clients_then_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with scripted_server({"/v1/chat/completions": lambda body: (200, chat_reply("Postgres, on Fly."))}) as upstream:
        process = start(home, MEMOIR_PROXY_UPSTREAM_URL=upstream.url + "/v1")
        try:
            url, _ = banner(process)
            assert httpx.get(url + "/health").json() == {"status": "ok"}
            with MemoirClient(url) as client:
                client.remember("Lighthouse uses Postgres", conversation_id="lighthouse")
                client.ingest(message("The deploy runs on Fly.io", conversation_id="lighthouse"))
            chat = openai.OpenAI(base_url=url + "/v1", api_key="unused", max_retries=0)
            answer = chat.chat.completions.create(
                model="any",
                messages=[{"role": "user", "content": "Where is it?"}],
                extra_body={"memory_id": "lighthouse"},
            )
            assert answer.choices[0].message.content == "Postgres, on Fly."
        finally:
            log = stop(process)
        assert "Lighthouse uses Postgres" in upstream.requests[0][1]["messages"][-1]["content"]
    assert '"path": "/v1/chat/completions"' in log and "memoir stopped" in log
    with Memoir.open(home, embedding_provider="hashing", worker_enabled=False) as memoir:
        assert memoir.pending() == 0  # the fast lane was drained at shutdown: all acknowledged work is searchable
        texts = [e.text for e in memoir.events(conversation_id="lighthouse")]
        assert texts == ["The deploy runs on Fly.io", "Where is it?", "Postgres, on Fly."]
        assert memoir.search("Fly", conversation_id="lighthouse")


def test_sigterm_stops_it_as_ctrl_c_does(tmp_path: Path) -> None:
    process = start(tmp_path / "home")
    try:
        url, _ = banner(process)
        with MemoirClient(url) as client:
            client.ingest(message("kept"))
    finally:
        stop(process, signal.SIGTERM)
    with Memoir.open(tmp_path / "home", embedding_provider="hashing", worker_enabled=False) as memoir:
        assert [e.text for e in memoir.events()] == ["kept"]


def test_it_refuses_to_listen_beyond_loopback_without_a_key(tmp_path: Path) -> None:
    process = start(tmp_path / "home", "--host", "0.0.0.0")
    _, err = process.communicate(timeout=60)
    assert process.returncode != 0
    assert "MEMOIR_API_KEY" in err and "Traceback" not in err


def test_a_busy_port_is_named(tmp_path: Path) -> None:
    with scripted_server({}) as taken:
        port = taken.url.rsplit(":", 1)[1]
        process = start(tmp_path / "home", "--port", port)
        _, err = process.communicate(timeout=60)
    assert process.returncode != 0
    assert f"--port {port}" in err and "in use" in err and "Traceback" not in err
