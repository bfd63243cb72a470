"""Helpers for the crash and concurrency tests: children to kill, a child that ingests forever, and checks.

`Child` runs a function in a child process forked from a server process that has
imported memoir already (multiprocessing's forkserver, one per test process): a real process
of its own, with its own connections, that a test kills with SIGKILL, without paying
Python's start and memoir's imports (a second or two) for every kill.

`ingest_until_killed`, the child of the crash test, opens a home with the background runner
on, ingests batches of 1-50 events in a loop and sends each acknowledged id as soon as
`ingest` returns. Every event carries a digest of its own content, so a reader can tell an
intact event from a torn one.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import random
import signal
import sqlite3
import threading
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from memoir import Event, Memoir
from memoir.errors import StoreError
from memoir.store import SQLiteStore, Store


class RecordJob:
    """Writes each event id it processes to its own table, in the runner's transaction."""

    name = "record"

    def wants(self, event: Event) -> bool:
        return True

    def run(self, events: Sequence[Event], store: Store) -> None:
        rows = [(e.event_id,) for e in events]
        if isinstance(store, SQLiteStore):
            conn = store.connection()
            conn.execute("CREATE TABLE IF NOT EXISTS recorded (event_id TEXT NOT NULL)")
            conn.executemany("INSERT INTO recorded VALUES (?)", rows)
            return
        pg = store._conn()  # type: ignore[attr-defined]  # PostgreSQL: the runner's transaction
        # Made once per database; a process that loses the race to make it fails this try, and retries.
        pg.execute("CREATE TABLE IF NOT EXISTS recorded (event_id TEXT NOT NULL)")
        pg.cursor().executemany("INSERT INTO recorded VALUES (%s)", rows)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def make_event(tag: str, n: int, **fields: Any) -> dict[str, Any]:
    # The assistant's words: the timeline's "Changed:" bullets read each user message with the
    # fact rules (1.5-6 ms for these texts), which was half of the kill -9 test's time and none of
    # what it proves; the segments, their summaries and every job's outbox work are the same.
    text = f"{tag} event {n}: " + "lorem ipsum " * (n % 40)
    return {
        "session_id": f"{tag}-session-{n // 100}",
        "conversation_id": f"{tag}-conv",
        "event_type": "assistant_message",
        "text": text,
        "metadata": {"n": str(n), "digest": digest(text)},
        **fields,
    }


def open_home(home: Path, *, worker: bool) -> Memoir:
    # The hashing embedder and no fact extraction: these tests are about durability, not about
    # meaning (the rules' extraction of thousands of generated messages was most of their time;
    # tests/system/test_crash_extraction.py kills the extraction job itself).
    # Workers hold back from ingest at most 20 ms: the kills must land in runner transactions too.
    memoir = Memoir.open(
        home,
        worker_enabled=False,
        worker_poll_interval=0.05,
        worker_max_defer=0.02,
        embedding_provider="hashing",
        memory_extract=False,
    )
    memoir.register_job(RecordJob())
    if worker:
        memoir.start_worker()
    return memoir


def all_events(memoir: Memoir) -> list[Event]:
    """Every event of the home, page by page."""
    found: list[Event] = []
    cursor = None
    while True:
        page = memoir.events(limit=5_000, cursor=cursor)
        found.extend(page)
        cursor = page.next_cursor
        if cursor is None:
            return found


def intact(event: Event) -> bool:
    return event.metadata.get("digest") == digest(event.text)


def recorded_counts(memoir: Memoir) -> dict[str, int]:
    store = memoir._parts.store
    query = "SELECT event_id, count(*) FROM recorded GROUP BY event_id"
    try:
        if isinstance(store, SQLiteStore):
            return dict(store.connection().execute(query).fetchall())
        return {event_id: int(count) for event_id, count in store._read(query)}  # type: ignore[attr-defined]
    except (sqlite3.OperationalError, StoreError):  # the job never committed anything yet
        return {}


CHILDREN = multiprocessing.get_context("forkserver")
PRELOADED = ["tests.durability"]  # memoir and this module, imported once in the server
CHILDREN.set_forkserver_preload(PRELOADED)


def preload(module: str) -> None:
    """Import `module` (a test module whose function a `Child` runs) in the server too; at import time."""
    PRELOADED.append(module)
    CHILDREN.set_forkserver_preload(PRELOADED)


class Child:
    """`target(sender, *args)` in a new process: what it sends is collected, as it comes, in `received`.

    `first` is set at the first message; a message cut by a kill is not kept.
    """

    def __init__(self, target: Callable[..., None], *args: Any) -> None:
        receiver, sender = CHILDREN.Pipe(duplex=False)
        self.process: BaseProcess = CHILDREN.Process(target=as_here, args=(here(), target, sender, *args), daemon=True)
        self.process.start()
        sender.close()
        self.received: list[str] = []
        self.first = threading.Event()
        self._reader = threading.Thread(target=self._read, args=(receiver,), daemon=True)
        self._reader.start()

    def _read(self, receiver: Connection) -> None:  # a thread of the parent
        with receiver:
            while True:
                try:
                    self.received.append(receiver.recv_bytes().decode())
                except (EOFError, OSError):  # the child is gone, maybe in the middle of a message
                    return
                self.first.set()

    def kill(self) -> int | None:
        """SIGKILL, then its exit code once it is gone and its last whole messages are read."""
        assert self.process.pid is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.join(30)
        self._reader.join(30)
        return self.process.exitcode


def here() -> tuple[dict[str, str], str]:
    """This process's environment and folder, for `as_here` in a child."""
    return dict(os.environ), os.getcwd()


def as_here(where: tuple[dict[str, str], str], target: Callable[..., None], *args: Any) -> None:
    """`target(*args)` in the test's environment and folder of now (`here()`), not the server's of its start."""
    environment, folder = where
    os.environ.clear()
    os.environ.update(environment)
    os.chdir(folder)
    target(*args)


def ingest_until_killed(acks: Connection, home: str, tag: str, seed: int) -> None:
    rng = random.Random(seed)
    n = 0
    with open_home(Path(home), worker=True) as memoir:
        while True:
            size = rng.choice([1, 1, 1, 5, 20, 50])
            batch = [make_event(tag, n + i) for i in range(size)]
            n += size
            for event_id in memoir.ingest(batch):
                acks.send_bytes(event_id.encode())
