"""Shared fixtures: every test gets its own home and a clean environment, and no network."""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from typer.testing import CliRunner, Result

from memoir import Memoir
from memoir.cli import app
from memoir.cli.app import err as cli_err
from memoir.cli.app import out as cli_out
from memoir.index.embedders import MiniLMEmbedder

REPO = Path(__file__).resolve().parent.parent

# The machines this runs on vary in speed by a third from minute to minute: no per-example deadline.
settings.register_profile("memoir", deadline=None)
settings.load_profile("memoir")


@pytest.fixture(scope="session")
def shared_models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One int8 MiniLM build for the whole run (1.5 s each), instead of one per test home.

    Built here, before any test: a test that compares what a command prints must not see
    the build's log line because it happened to be the first to embed.
    """
    folder = tmp_path_factory.mktemp("models")
    MiniLMEmbedder(int8_dir=folder).embed(["warm up"])
    return folder


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_models: Path) -> None:
    """No MEMOIR_* variable or user config file of the developer's leaks into a test."""
    for name in list(os.environ):
        if name.startswith("MEMOIR_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("MEMOIR_HOME", str(tmp_path / "default-home"))
    monkeypatch.setenv("MEMOIR_EMBEDDING_MODEL_DIR", str(shared_models))


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests may talk to loopback only; anything else is a bug (memoir runs offline)."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: Any) -> Any:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            host = address[0]
            if host != "localhost" and not ipaddress.ip_address(host).is_loopback:
                raise OSError(f"tests may not reach the network ({host})")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def open_memoir(home: Path) -> Iterator[Callable[..., Memoir]]:
    """Opens Memoir on the test's home (runner off unless asked) and closes it afterwards."""
    opened: list[Memoir] = []

    def factory(**options: Any) -> Memoir:
        options.setdefault("worker_enabled", False)
        memoir = Memoir.open(options.pop("home", home), **options)
        opened.append(memoir)
        return memoir

    yield factory
    for memoir in opened:
        memoir.close()


@pytest.fixture
def memoir(open_memoir: Callable[..., Memoir]) -> Memoir:
    return open_memoir()


def message(text: str = "hello", **fields: Any) -> dict[str, Any]:
    """A valid user message as a plain dict; fields override."""
    return {"session_id": "s1", "event_type": "user_message", "text": text, **fields}


def cli(*args: str, home: Path | None = None, stdin: str | bytes | None = None, **env: str) -> Result:
    """Run the `memoir` command in this process, as typer's CliRunner does: exit code, stdout and stderr apart.

    MEMOIR_DEBUG is set so that an unexpected exception fails the test with its traceback
    instead of becoming `internal error` and exit 1.
    """
    environment = {"MEMOIR_DEBUG": "1", "COLUMNS": "200", **env}
    if home is not None:
        environment["MEMOIR_HOME"] = str(home)
    # The consoles are made at import, when a terminal's width (or a COLUMNS of the test
    # runner's) may have been fixed: give them the width this call asks for.
    for console in (cli_out, cli_err):
        console.width = int(environment["COLUMNS"])
    return CliRunner().invoke(app, list(args), input=stdin, env=environment, catch_exceptions=False)


def run_cli(
    *args: str, home: Path | None = None, stdin: str | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """Run the real `memoir` entry point in a child process (slow: keep it for what only a process shows)."""
    environment = {**os.environ, **env}
    if home is not None:
        environment["MEMOIR_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "memoir", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=False,
    )
