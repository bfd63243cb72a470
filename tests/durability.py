"""Helpers for the crash and concurrency tests: a child that ingests forever, and checks.

Run as a script, it opens a home with the background runner on, ingests batches of
1-50 events in a loop and prints each acknowledged id, one per line, as soon as
`ingest` returns. Every event carries a digest of its own content, so a reader can
tell an intact event from a torn one.
"""

from __future__ import annotations

import hashlib
import random
import sqlite3
import sys
from collections.abc import Sequence
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
    text = f"{tag} event {n}: " + "lorem ipsum " * (n % 40)
    return {
        "session_id": f"{tag}-session-{n // 100}",
        "conversation_id": f"{tag}-conv",
        "event_type": "user_message",
        "text": text,
        "metadata": {"n": str(n), "digest": digest(text)},
        **fields,
    }


def open_home(home: Path, *, worker: bool) -> Memoir:
    # The hashing embedder: these tests are about durability, not about meaning.
    # Workers hold back from ingest at most 20 ms: the kills must land in runner transactions too.
    memoir = Memoir.open(
        home, worker_enabled=False, worker_poll_interval=0.05, worker_max_defer=0.02, embedding_provider="hashing"
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


def ingest_forever(home: Path, tag: str, seed: int) -> None:
    rng = random.Random(seed)
    n = 0
    with open_home(home, worker=True) as memoir:
        while True:
            size = rng.choice([1, 1, 1, 5, 20, 50])
            batch = [make_event(tag, n + i) for i in range(size)]
            n += size
            for event_id in memoir.ingest(batch):
                sys.stdout.write(event_id + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    ingest_forever(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]))
