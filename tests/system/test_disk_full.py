"""A full disk (issue 8, item 6): reads go on, a failed write is reported and undone, nothing acknowledged is lost.

Every test puts a memoir home on a small tmpfs: mounted directly when the tests run as
root, otherwise inside `unshare -rm` (an unprivileged user and mount namespace), where
the test's scenario runs in a child process; skipped where neither is allowed. Only the
home is squeezed: the embedding model folder stays outside (conftest's `shared_models`),
and the homes use the hashing embedder, which needs none, to keep these tests fast.

The scenarios are module functions taking the mounted folder, so that either way runs
the same code; `SmallDisk.run` picks the way.
"""

from __future__ import annotations

import errno
import gc
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memoir import Memoir
from memoir.errors import StoreError
from memoir.model import new_ulid, now_ms
from memoir.store import SQLiteStore
from memoir.vault.git import GitHistory
from tests.conftest import REPO, cli, run_cli

# About the SQLite file itself (a full disk under it); PostgreSQL keeps its files elsewhere.
pytestmark = pytest.mark.sqlite_only

DISK_BYTES = 4 << 20
INODES = 2048  # few enough to use up in a blink, plenty for a home and its git history
MOUNT_OPTIONS = f"size={DISK_BYTES},nr_inodes={INODES}"
PAGE = 4096
# The CLI must open the homes as the scenarios do: the same embedder, git on.
HOME_ENV = {"MEMOIR_EMBEDDING_PROVIDER": "hashing", "MEMOIR_VAULT_GIT": "true"}
Scenario = Callable[..., None]

# Run in the child: mount the disk inside the new namespace, then the scenario (module, name, args).
_CHILD = """
import importlib, subprocess, sys
from pathlib import Path

disk, options, module, name, *args = sys.argv[1:]
subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", disk], check=True)
getattr(importlib.import_module(module), name)(Path(disk), *args)
"""


class SmallDisk:
    """A filesystem of DISK_BYTES and INODES at `root`; `run` calls a scenario on it."""

    def __init__(self, root: Path, in_namespace: bool) -> None:
        self.root = root
        self.in_namespace = in_namespace

    def run(self, scenario: Scenario, *args: str) -> None:
        if not self.in_namespace:
            scenario(self.root, *args)
            return
        command = [*_UNSHARE, sys.executable, "-c", _CHILD, str(self.root), MOUNT_OPTIONS]
        result = subprocess.run(
            [*command, __name__, scenario.__name__, *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if result.returncode != 0:
            pytest.fail(f"{scenario.__name__} failed in its namespace:\n{result.stdout}\n{result.stderr}")


_UNSHARE = ["unshare", "--user", "--map-root-user", "--mount"]


def _mount(root: Path) -> bool:
    command = ["mount", "-t", "tmpfs", "-o", MOUNT_OPTIONS, "tmpfs", str(root)]
    return subprocess.run(command, capture_output=True, check=False).returncode == 0


def _unmount(root: Path) -> None:
    if subprocess.run(["umount", str(root)], capture_output=True, check=False).returncode == 0:
        return
    gc.collect()  # a connection or file not closed yet keeps the mount busy
    if subprocess.run(["umount", str(root)], capture_output=True, check=False).returncode != 0:
        subprocess.run(["umount", "--lazy", str(root)], capture_output=True, check=False)


def _namespaces_work(root: Path) -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = [*_UNSHARE, "sh", "-c", 'mount -t tmpfs -o size=64k tmpfs "$0"', str(root)]
    return subprocess.run(probe, capture_output=True, check=False, timeout=30).returncode == 0


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    root = tmp_path / "disk"
    root.mkdir()
    if os.geteuid() == 0 and _mount(root):
        try:
            yield SmallDisk(root, in_namespace=False)
        finally:
            _unmount(root)
        return
    if _namespaces_work(root):
        yield SmallDisk(root, in_namespace=True)  # the mount ends with the child's namespace
        return
    pytest.skip(
        "needs a small filesystem: run as root (mount -t tmpfs), or allow unprivileged user "
        "namespaces (unshare -rm; e.g. sysctl kernel.apparmor_restrict_unprivileged_userns=0)"
    )


# -- helpers for the scenarios ----------------------------------------------------------


def free_bytes(disk: Path) -> int:
    stats = os.statvfs(disk)
    return stats.f_bavail * stats.f_frsize


def fill(disk: Path, leave: int = 0) -> Path:
    """A file that takes all the disk's free space but `leave` bytes."""
    filler = disk / f"filler-{len(list(disk.glob('filler-*')))}"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        left = free_bytes(disk) - leave
        while left > 0:
            try:
                left -= os.write(fd, bytes(min(left, 1 << 20)))
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                break
    finally:
        os.close(fd)
    assert free_bytes(disk) <= leave
    return filler


def use_up_inodes(disk: Path) -> int:
    """Empty files until no file can be made (a disk can be full with bytes to spare); how many."""
    made = 0
    while True:
        try:
            (disk / f"filler-inode-{made}").touch()
        except OSError as exc:
            if exc.errno != errno.ENOSPC:
                raise
            return made
        made += 1


def free_space(disk: Path) -> None:
    for filler in disk.glob("filler-*"):
        filler.unlink()


def open_files_on(disk: Path) -> list[str]:
    """Files this process still holds open on the disk: none once every home is closed."""
    held = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue  # closed meanwhile (the listing's own descriptor)
        if target.startswith(f"{disk}/"):
            held.append(target)
    return held


def open_home(home: Path) -> Memoir:
    return Memoir.open(home, worker_enabled=False, embedding_provider="hashing", vault_git=True)


def events(tag: str, count: int) -> list[dict[str, Any]]:
    """`count` events with ids of their own (so a caller can check them) and some text to weigh."""
    return [
        {
            "event_id": new_ulid(now_ms()),
            "session_id": f"{tag}-session",
            "event_type": "user_message",
            "text": f"{tag} message {n}: " + "the tide comes in over the harbour wall " * 8,
        }
        for n in range(count)
    ]


def texts(batch: list[dict[str, Any]]) -> dict[str, str]:
    return {e["event_id"]: e["text"] for e in batch}


def ingest_until_full(memoir: Memoir, tag: str, acknowledged: dict[str, str]) -> StoreError:
    """Ingest batches until one fails; every batch acknowledged is added to `acknowledged` (id -> text)."""
    for number in range(10_000):
        batch = events(f"{tag}{number}", 25)
        try:
            ids = memoir.ingest(batch)
        except StoreError as exc:  # any other error fails the test as it is
            return exc
        assert ids == [e["event_id"] for e in batch]
        acknowledged.update(texts(batch))
    raise AssertionError("the disk never filled up")


def says_disk_full(error: BaseException | str) -> None:
    """The message names the problem and the remedy, and the error is memoir's own."""
    message = str(error)
    assert "full" in message or "no space" in message, message
    assert "free disk space" in message, message
    if isinstance(error, BaseException):
        assert isinstance(error, StoreError), repr(error)


def vault_notes(home: Path) -> dict[str, bytes]:
    """The vault's files as people see them (git's own folder aside)."""
    vault = home / "vault"
    return {
        str(path.relative_to(vault)): path.read_bytes()
        for path in sorted(vault.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(vault).parts
    }


def assert_whole(home: Path, acknowledged: dict[str, str], memories: dict[str, tuple[str, ...]]) -> Memoir:
    """After space returns: every acknowledged event and exactly `memories` (id -> tags), a sound file."""
    memoir = open_home(home)
    store = memoir._parts.store
    assert isinstance(store, SQLiteStore)
    assert store.integrity_check() == ["ok"]
    stored = store.get_many(list(acknowledged))
    assert {i: e.text for i, e in stored.items()} == acknowledged
    assert memoir.status().events == len(acknowledged)  # and nothing of a batch that failed
    assert {m.id: m.tags for m in memoir.memories()} == memories
    assert not list((home / "vault").rglob(".tmp-*")), "a temporary file was left behind"
    return memoir


def cli_json(*args: str, home: Path) -> list[Any]:
    result = cli(*args, "--json", home=home, **HOME_ENV)
    assert result.exit_code == 0, result.stderr
    text = result.stdout.strip()
    return [json.loads(text)] if text.startswith("{\n") else [json.loads(line) for line in text.splitlines()]


def reads_work(home: Path, events_stored: int, memory_ids: list[str], query: str) -> None:
    """`memoir status`, `memoir memories` and `memoir search` answer, each in a home of its own opening."""
    [status] = cli_json("status", home=home)
    assert status["events"] == events_stored
    assert [m["id"] for m in cli_json("memories", home=home)] == memory_ids
    hits = cli_json("search", query, home=home)
    assert hits and hits[0]["memory_id"] == memory_ids[0], hits


# -- the scenarios ------------------------------------------------------------------------


def events_fill_the_disk(disk: Path) -> None:
    home = disk / "home"
    acknowledged: dict[str, str] = {}
    with open_home(home) as memoir:
        sky = memoir.remember("The sky over the harbour is blue")
        first = events("first", 5)
        memoir.ingest(first)
        acknowledged.update(texts(first))
    fill(disk, leave=1 << 20)
    with open_home(home) as memoir:
        failure = ingest_until_full(memoir, "a", acknowledged)
        print(f"disk {DISK_BYTES} bytes: {len(acknowledged)} events acknowledged, then: {failure}")
        says_disk_full(failure)
        fill(disk)  # whatever the failed batch left, and a retry could take
        before = len(acknowledged)
        says_disk_full(ingest_until_full(memoir, "b", acknowledged))
        print(f"with no byte free, {len(acknowledged) - before} more (in the log's room the failed batch left)")

        # Reads go on, in this process and in others.
        assert memoir.status().events == len(acknowledged)
        assert [m.id for m in memoir.memories()] == [sky.id]
        assert memoir.search("harbour sky")[0].memory_id == sky.id
        reads_work(home, len(acknowledged), [sky.id], "harbour sky")

        # Each write fails whole, says why, and leaves the vault as it was.
        notes = vault_notes(home)
        for write in (lambda: memoir.remember("The boats are red"), lambda: memoir.forget(sky.id)):
            with pytest.raises(StoreError) as caught:
                write()
            says_disk_full(caught.value)
            assert vault_notes(home) == notes
        assert [m.id for m in memoir.memories()] == [sky.id]
        failed = cli("remember", "The boats are red", home=home, **HOME_ENV)
        assert failed.exit_code == 1 and "Traceback" not in failed.stderr
        says_disk_full(failed.stderr)
        late = events("cli", 3)
        piped = "".join(json.dumps(e) + "\n" for e in late)
        result = cli("ingest", "-", "--no-wait", home=home, stdin=piped, **HOME_ENV)
        print(f"`memoir ingest` of 3 events: exit {result.exit_code}")
        if result.exit_code == 0:  # it fit in the log's room left by the failed batch: acknowledged
            acknowledged.update(texts(late))
        else:
            says_disk_full(result.stderr)
    print(f"{len(acknowledged)} events acknowledged in all")

    free_space(disk)
    with assert_whole(home, acknowledged, {sky.id: ()}) as memoir:
        # Writes work again, background work included.
        more = memoir.ingest(events("after", 5))
        boats = memoir.remember("The boats are red")
        memoir.forget(sky.id)
        assert memoir.flush(timeout=60) and memoir.pending() == 0
        assert memoir.search("boats")[0].memory_id == boats.id
        assert len(more) == 5 and memoir.status().events == len(acknowledged) + 5
    assert not open_files_on(disk)


def a_change_fails_half_way(disk: Path, change: str) -> None:
    """Room for one note but not for the transaction after it: the note must be taken back."""
    home = disk / "home"
    with open_home(home) as memoir:
        sky = memoir.remember("The sky is blue")
        grass = memoir.remember("Grass is green", tags=["garden"])
        lake = memoir.remember("The lake is frozen")  # forgotten, but its embedding stays cached:
        memoir.forget(lake.id)  # remembering it again goes straight to the files
        first = events("first", 5)
        memoir.ingest(first)
    acknowledged = texts(first)
    # Closed, the log is folded into the database: the next transaction needs new pages.
    expected = {sky.id: (), grass.id: ("garden",)}
    with open_home(home) as memoir:
        fill(disk, leave=PAGE)
        notes = vault_notes(home)
        attempt = {
            "forget": lambda: memoir.forget(sky.id),
            "merge": lambda: memoir.remember("Grass is green", tags=["lawn"]),
            "remember": lambda: memoir.remember("The lake is frozen"),
        }[change]
        with pytest.raises(StoreError) as caught:
            attempt()
        print(f"{change} with {PAGE} bytes free: {caught.value}")
        says_disk_full(caught.value)
        assert vault_notes(home) == notes, "the failed change left the vault changed"
        assert {m.id: m.tags for m in memoir.memories()} == expected
    free_space(disk)
    # Opening syncs the vault into the index: a note left behind would come back here.
    with assert_whole(home, acknowledged, expected) as memoir:
        attempt()  # and the same change now works
        assert memoir.memories() != [] and memoir._parts.store.integrity_check() == ["ok"]
    assert not open_files_on(disk)


def full_before_opening(disk: Path) -> None:
    """The disk filled while memoir was closed (its log folded away): opening still reads."""
    home = disk / "home"
    with open_home(home) as memoir:
        sky = memoir.remember("The sky is blue")
        first = events("first", 5)
        memoir.ingest(first)
    acknowledged = texts(first)
    fill(disk)
    reads_work(home, 5, [sky.id], "sky")
    process = run_cli("status", "--json", home=home, **HOME_ENV)
    assert process.returncode == 0 and json.loads(process.stdout)["events"] == 5, process.stderr
    process = run_cli("remember", "The sea is grey", home=home, **HOME_ENV)
    assert process.returncode == 1 and "Traceback" not in process.stderr
    says_disk_full(process.stderr)
    with pytest.raises(StoreError) as caught:
        open_home(disk / "new-home")  # a home cannot even be made
    says_disk_full(caught.value)
    assert not open_files_on(disk)

    memoir = open_home(home)  # a long-lived process, opened while the disk is full
    try:
        assert memoir.status().events == 5 and [m.id for m in memoir.memories()] == [sky.id]
        assert memoir.search("sky")[0].memory_id == sky.id
        for write in (lambda: memoir.ingest(events("late", 1)), lambda: memoir.remember("The sea is grey")):
            with pytest.raises(StoreError) as caught:
                write()
            says_disk_full(caught.value)
        free_space(disk)
        later = events("later", 2)
        memoir.ingest(later)  # the same process writes once space returns
        acknowledged.update(texts(later))
        sea = memoir.remember("The sea is grey")
    finally:
        memoir.close()
    with assert_whole(home, acknowledged, {sky.id: (), sea.id: ()}):
        pass
    assert not open_files_on(disk)


def inodes_run_out(disk: Path) -> None:
    """No file can be made, not even SQLite's -wal and -shm: reads go on all the same."""
    home = disk / "home"
    with open_home(home) as memoir:
        sky = memoir.remember("The sky is blue")
        first = events("first", 5)
        memoir.ingest(first)
    print(f"{use_up_inodes(disk)} empty files took the last inodes, {free_bytes(disk)} bytes still free")
    with open_home(home) as memoir:
        assert [m.id for m in memoir.memories()] == [sky.id]
        assert memoir.search("sky")[0].memory_id == sky.id
        assert [e.event_id for e in memoir.events()] == [e["event_id"] for e in first]
        with pytest.raises(StoreError) as caught:
            memoir.remember("The sea is grey")
        says_disk_full(caught.value)
        free_space(disk)
        sea = memoir.remember("The sea is grey")
    with assert_whole(home, texts(first), {sky.id: (), sea.id: ()}):
        pass
    assert not open_files_on(disk)


def status_with_no_inode_left(disk: Path) -> None:
    """`memoir status` asks each lane's lock whether a runner holds it: a lock file never made cannot be."""
    home = disk / "home"
    open_home(home).close()  # with no runner started, no lock file was made
    use_up_inodes(disk)
    [status] = cli_json("status", home=home)
    assert status["events"] == 0


def git_on_a_full_disk(disk: Path) -> None:
    repo = disk / "vault"
    git = GitHistory(repo)
    (repo / "one.md").parent.mkdir(parents=True)
    (repo / "one.md").write_text("one\n")
    assert git.commit("first")
    (repo / "two.md").write_text("two\n" * 200)
    fill(disk)
    assert git.commit("second") is False  # reported (a warning), never raised
    free_space(disk)
    assert git.commit("third")
    assert git.log() == ["third", "first"]
    listed = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True, check=True).stdout
    assert listed.split() == [".gitignore", "one.md", "two.md"]


# -- the tests ------------------------------------------------------------------------------


def test_ingest_fills_the_disk_reads_go_on_and_nothing_acknowledged_is_lost(small_disk: SmallDisk) -> None:
    small_disk.run(events_fill_the_disk)


@pytest.mark.parametrize(
    "change",
    ["forget", "merge", "remember"],
)
def test_a_change_that_fails_half_way_leaves_nothing_behind(small_disk: SmallDisk, change: str) -> None:
    small_disk.run(a_change_fails_half_way, change)


def test_a_disk_full_before_opening_still_reads_and_recovers(small_disk: SmallDisk) -> None:
    small_disk.run(full_before_opening)


def test_with_no_inode_left_reads_go_on_and_writes_say_why(small_disk: SmallDisk) -> None:
    small_disk.run(inodes_run_out)


def test_status_with_no_inode_left(small_disk: SmallDisk) -> None:
    small_disk.run(status_with_no_inode_left)


def test_git_on_a_full_disk_reports_and_catches_up(small_disk: SmallDisk) -> None:
    small_disk.run(git_on_a_full_disk)
