"""Four processes ingesting into one home at once lose and duplicate nothing.

The four start ingesting together (a barrier), so their writes and their runners' work
interleave for the whole run: batches of their own events, each with a share of 200 events
every process sends (fixed ids), and single events between the batches.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from tests.durability import (
    CHILDREN,
    all_events,
    as_here,
    here,
    intact,
    make_event,
    open_home,
    preload,
    recorded_counts,
)

PROCESSES, OWN_EVENTS, BATCH = 4, 400, 50
# Fixed ids (valid ULIDs), the same in every process: each must be stored once.
SHARED = [make_event("shared", n, event_id=f"01HF7YAT00{n:016d}") for n in range(200)]
SHARED_PER_BATCH = len(SHARED) * BATCH // OWN_EVENTS
START: Any = None  # the barrier, in each child
preload(__name__)  # the children's function, ready in the process they are forked from


def keep_barrier(barrier: Any) -> None:
    global START
    START = barrier


def ingest_in_child(home: str, tag: str) -> tuple[list[str], float, float]:
    acknowledged = []
    with open_home(Path(home), worker=True) as memoir:
        own = [make_event(tag, n) for n in range(OWN_EVENTS)]
        START.wait(timeout=120)  # every process has its home open: all four write from here on
        began = time.time()
        for start in range(0, OWN_EVENTS, BATCH):
            shared = SHARED[start // BATCH * SHARED_PER_BATCH :][:SHARED_PER_BATCH]
            acknowledged.extend(memoir.ingest(own[start : start + BATCH] + shared))  # every process sends them
            acknowledged.extend(memoir.ingest(make_event(tag, OWN_EVENTS + start)))  # and single events
        ended = time.time()
    return acknowledged, began, ended


def test_four_processes_ingesting_into_one_home_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    open_home(home, worker=False).close()
    # Forked from the server of tests/durability.py, where memoir is imported already.
    started = (here(), keep_barrier, CHILDREN.Barrier(PROCESSES))
    with CHILDREN.Pool(PROCESSES, initializer=as_here, initargs=started) as pool:
        results = pool.starmap(ingest_in_child, [(str(home), f"p{i}") for i in range(PROCESSES)])
    assert max(began for _, began, _ in results) < min(ended for _, _, ended in results)  # all wrote at once
    acknowledged = {event_id for ids, _, _ in results for event_id in ids}
    expected = PROCESSES * (OWN_EVENTS + OWN_EVENTS // BATCH) + len(SHARED)
    assert len(acknowledged) == expected
    with open_home(home, worker=False) as memoir:
        status = memoir.status()
        assert status.events == expected  # no duplicates: the shared ids are stored once
        events = all_events(memoir)
        assert {e.event_id for e in events} == acknowledged and all(intact(e) for e in events)
        assert memoir.flush(timeout=120)
        counts = recorded_counts(memoir)
        assert set(counts) == acknowledged and set(counts.values()) == {1}
        assert sum(s.event_count for s in memoir._parts.store.sessions()) == expected


def test_a_search_while_another_process_reindexes_sees_the_whole_index(home: Path) -> None:
    """Issue 27 item 16 across processes: `memoir reindex` in a child, searches here, each sees every turn."""
    import subprocess
    import sys

    from memoir import Memoir
    from tests.conftest import message

    turns = 1_200
    with Memoir.open(home, worker_enabled=False, embedding_provider="hashing", create=True) as memoir:
        memoir.ingest([message(f"Turn {n}: the heron by the pier", session_id=f"s{n % 7}") for n in range(turns)])
        assert memoir.flush(timeout=120)
        whole = len(memoir.search("heron pier", k=100))
        env = {**os.environ, "MEMOIR_HOME": str(home), "MEMOIR_EMBEDDING_PROVIDER": "hashing"}
        child = subprocess.Popen(
            [sys.executable, "-m", "memoir", "reindex"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        seen = []
        while child.poll() is None:
            seen.append(len(memoir.search("heron pier", k=100)))
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        assert len(seen) >= 3, f"{len(seen)} searches ran beside the reindex"
        assert set(seen) == {whole}, f"a search beside the reindex saw {sorted(set(seen))} hits, not {whole}"
        assert b"reindexed" in out
