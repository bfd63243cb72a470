"""A shared deployment as the README shows it: one PostgreSQL, two servers, two workers.

Real processes: two `memoir serve --no-workers` and two `memoir worker`, each with a home of
its own, sharing the database and the vault folder. What one server took in, the other
finds; the workers, not the servers, index it; agents stay apart in unified mode.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from memoir import MemoirClient
from tests.conftest import cli
from tests.system.test_serve import banner, stop


@pytest.fixture
def deployment(tmp_path: Path, postgres_url: str) -> Iterator[tuple[MemoirClient, MemoirClient]]:
    shared = {
        **os.environ,
        "MEMOIR_STORE_URL": postgres_url,
        "MEMOIR_VAULT_PATH": str(tmp_path / "shared-vault"),
        "MEMOIR_EMBEDDING_PROVIDER": "hashing",
        "MEMOIR_MULTI_AGENT_MODE": "unified",
        "MEMOIR_AGENT_ID": "ops",
        "PYTHONFAULTHANDLER": "1",  # a process that hangs at exit can be made to show where
    }
    processes: list[subprocess.Popen[str]] = []
    stack = contextlib.ExitStack()

    def start(name: str, *args: str) -> subprocess.Popen[str]:
        env = {**shared, "MEMOIR_HOME": str(tmp_path / name)}
        made = cli("init", home=tmp_path / name, **{k: v for k, v in shared.items() if k.startswith("MEMOIR_")})
        assert made.exit_code == 0, made.stderr  # made here: a process less to start for each
        # A server's stderr is read for its banner; a worker's goes to a file (nobody reads it).
        log = subprocess.PIPE if args[0] == "serve" else stack.enter_context((tmp_path / f"{name}.log").open("w"))
        process = subprocess.Popen(
            [sys.executable, "-m", "memoir", *args], env=env, stderr=log, stdout=subprocess.DEVNULL, text=True
        )
        processes.append(process)
        return process

    try:
        servers = [
            start(f"server{i}", "serve", "--port", "0", "--grpc-port", "0", "--no-workers", "--no-access-log")
            for i in (1, 2)
        ]
        urls = [banner(server)[0] for server in servers]
        for i in (1, 2):
            start(f"worker{i}", "worker")
        clients = (MemoirClient(urls[0]), MemoirClient(urls[1]))
        yield clients
        for client in clients:
            client.close()
        for server in servers:
            stop(server)
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
        for process in processes:
            _reap(process, tmp_path)
        stack.close()


def _reap(process: subprocess.Popen[str], folder: Path) -> None:
    """Wait for a process told to stop; one still running after 30 s shows its threads, then is killed.

    The shutdown of a worker is not what these tests are about, so a slow one is a warning
    (with its threads' stacks, from faulthandler), not a failure; never a process left behind.
    """
    try:
        process.wait(timeout=30)
        return
    except subprocess.TimeoutExpired:
        pass
    process.send_signal(signal.SIGABRT)  # faulthandler writes every thread's stack to its log
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    logs = "".join(path.read_text(errors="replace")[-4000:] for path in folder.glob("*.log"))
    warnings.warn(f"{' '.join(map(str, process.args))} did not stop within 30 s of SIGINT:\n{logs}", stacklevel=1)


def wait_until_indexed(client: MemoirClient, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        status = client.status()
        if not sum(status.outbox_pending.values()):
            return
        time.sleep(0.2)
    raise AssertionError(f"the workers did not drain the outbox: {client.status().outbox_pending}")


def turn(text: str, conversation: str, session: str = "s1") -> dict[str, str]:
    return {"session_id": session, "event_type": "user_message", "text": text, "conversation_id": conversation}


def test_two_servers_and_two_workers_on_one_database_act_as_one(
    deployment: tuple[MemoirClient, MemoirClient],
) -> None:
    first, second = deployment
    first.ingest([turn(f"Deploy note {i}: the canary runs in zone {i}", "ops") for i in range(20)], agent_id="ops")
    second.ingest(turn("My favourite editor is Helix", "ops", "s2"), agent_id="ops")
    wait_until_indexed(first)

    for client in (first, second):
        hits = client.search("which zone runs the canary 7?", conversation_id="ops", k=3, agent_id="ops")
        assert any("zone 7" in hit.text for hit in hits)
        assert client.status().events == 21
    assert list(first.events(conversation_id="ops", limit=100)) == list(second.events(conversation_id="ops", limit=100))
    remembered = first.remember("The on-call rotation changes on Tuesdays", conversation_id="ops", agent_id="ops")
    assert [m.id for m in second.memories(conversation_id="ops", agent_id="ops") if m.id == remembered.id]


def test_agents_stay_apart_across_servers(deployment: tuple[MemoirClient, MemoirClient]) -> None:
    first, second = deployment
    first.ingest(turn("The vault code for agent alpha is 4411", "shared-room"), agent_id="alpha")
    second.ingest(turn("Agent beta keeps its notes in the blue folder", "shared-room"), agent_id="beta")
    wait_until_indexed(first)
    for client in (first, second):
        beta_hits = client.search("vault code", conversation_id="shared-room", k=5, agent_id="beta")
        assert all("4411" not in hit.text for hit in beta_hits)
        alpha_events = client.events(conversation_id="shared-room", agent_id="alpha")
        assert [e.text for e in alpha_events] == ["The vault code for agent alpha is 4411"]
