"""The spool: events written durably outside the database, ingested when the home next opens.

`memoir hook` runs as a new process for each call of a coding agent and must answer in
well under 100 ms whether or not the database is reachable: locked by a long write,
missing, or broken. With no server to hand the call to, it appends the call's events (as
JSON lines, secrets already masked) to `<home>/spool/events.jsonl` and fsyncs; nothing
heavier is imported. Whoever opens the home next (`memoir serve`, a worker, any command)
moves the file aside and ingests it. Event ids are fixed before spooling, so a drain cut
short by a crash is simply done again.

Writers hold a shared lock while appending and the drainer an exclusive one after
moving the file aside, so no line can land in a file that is being drained: a writer
whose file was moved aside between opening and locking it notices (the path no longer
names its file) and writes to the new one.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["drain_spool", "spool_events"]

log = logging.getLogger("memoir.facade.spool")

SPOOL = "events.jsonl"
DRAINING = "draining-"
REJECTED = "rejected.jsonl"
BATCH = 500


def spool_events(home: Path, events: Sequence[dict[str, Any]]) -> None:
    """Append events durably (one JSON line each, fsynced) for the next opening of `home`."""
    folder = home / "spool"
    folder.mkdir(parents=True, exist_ok=True)
    data = "".join(json.dumps(event, ensure_ascii=False) + "\n" for event in events).encode("utf-8", "replace")
    path = folder / SPOOL
    for _ in range(10):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
            if _same_file(fd, path):
                os.write(fd, data)
                os.fsync(fd)
                return
        finally:
            os.close(fd)  # closing releases the lock
    raise OSError(f"could not append to {path}: it kept being moved aside")


def _same_file(fd: int, path: Path) -> bool:
    try:
        here, there = os.fstat(fd), os.stat(path)
    except FileNotFoundError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def drain_spool(home: Path, ingest: Callable[[list[dict[str, Any]]], object]) -> int:
    """Ingest every spooled event (earlier drains cut short first); returns how many lines were read.

    A line that is not an event (a torn write, a bad value) is kept in `rejected.jsonl`
    with the reason, and the lines around it are still ingested.
    """
    folder = home / "spool"
    if not folder.is_dir():
        return 0
    current = folder / SPOOL
    if current.exists():
        with contextlib.suppress(FileNotFoundError):  # another process moved it first
            os.replace(current, folder / f"{DRAINING}{os.getpid()}-{os.urandom(4).hex()}.jsonl")
    read = 0
    for path in sorted(folder.glob(f"{DRAINING}*.jsonl")):
        read += _drain_file(path, ingest)
    return read


def _drain_file(path: Path, ingest: Callable[[list[dict[str, Any]]], object]) -> int:
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return 0  # another process drained it
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # writers that still hold it finish first
        with os.fdopen(os.dup(fd), "rb") as handle:
            lines = handle.read().splitlines()
        batch: list[dict[str, Any]] = []
        for number, line in enumerate(lines, 1):
            event = _event(path, number, line)
            if event is not None:
                batch.append(event)
            if len(batch) >= BATCH:
                _ingest(path, batch, ingest)
                batch = []
        if batch:
            _ingest(path, batch, ingest)
        path.unlink(missing_ok=True)
        return len(lines)
    finally:
        os.close(fd)


def _event(path: Path, number: int, line: bytes) -> dict[str, Any] | None:
    if not line.strip():
        return None
    try:
        event = json.loads(line)
        if isinstance(event, dict):
            return event
        reason = "not a JSON object"
    except (ValueError, RecursionError) as exc:
        reason = f"not JSON: {exc}"
    _reject(path, number, line.decode("utf-8", "replace"), reason)
    return None


def _ingest(path: Path, batch: list[dict[str, Any]], ingest: Callable[[list[dict[str, Any]]], object]) -> None:
    from memoir.errors import InvalidInput

    try:
        ingest(batch)
    except InvalidInput:
        for event in batch:  # one bad event must not cost the others: one at a time
            try:
                ingest([event])
            except InvalidInput as exc:
                _reject(path, 0, json.dumps(event, ensure_ascii=False), str(exc))


def _reject(path: Path, number: int, line: str, reason: str) -> None:
    log.warning("spooled line %s:%d set aside in %s: %s", path.name, number, REJECTED, reason)
    record = json.dumps({"file": path.name, "line": number, "reason": reason, "text": line[:100_000]})
    with open(path.parent / REJECTED, "a", encoding="utf-8") as out:
        out.write(record + "\n")
