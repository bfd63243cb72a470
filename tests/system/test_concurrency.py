"""Four processes ingesting into one home at once lose and duplicate nothing."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from tests.durability import all_events, intact, make_event, open_home, recorded_counts

PROCESSES, OWN_EVENTS = 4, 1500
# Fixed ids (valid ULIDs), the same in every process: each must be stored once.
SHARED = [make_event("shared", n, event_id=f"01HF7YAT00{n:016d}") for n in range(200)]


def ingest_in_child(home: str, tag: str) -> list[str]:
    acknowledged = []
    with open_home(Path(home), worker=True) as memoir:
        own = [make_event(tag, n) for n in range(OWN_EVENTS)]
        for start in range(0, OWN_EVENTS, 50):
            batch = own[start : start + 50]
            if start % 300 == 0:  # every process also sends the same shared events
                batch = batch + SHARED[start // 300 * 40 : start // 300 * 40 + 40]
            acknowledged.extend(memoir.ingest(batch))
            acknowledged.extend(memoir.ingest(make_event(tag, OWN_EVENTS + start)))  # and single events
    return acknowledged


@pytest.mark.slow
def test_four_processes_ingesting_into_one_home_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    open_home(home, worker=False).close()
    with multiprocessing.get_context("spawn").Pool(PROCESSES) as pool:
        results = pool.starmap(ingest_in_child, [(str(home), f"p{i}") for i in range(PROCESSES)])
    acknowledged = {event_id for result in results for event_id in result}
    expected = PROCESSES * (OWN_EVENTS + OWN_EVENTS // 50) + len(SHARED)
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
