"""Crash safety: SIGKILL a process at random moments while it ingests and its runner works.

After each kill, every acknowledged event is present and intact, nothing is torn,
and every event not yet processed still has its outbox entry; a restarted runner
then processes each of those exactly once.
"""

from __future__ import annotations

import random
import signal
import time
from pathlib import Path

from tests.durability import Child, all_events, ingest_until_killed, intact, open_home, recorded_counts

KILLS = 24


def run_and_kill(home: Path, tag: str, seed: int, rng: random.Random) -> list[str]:
    """Start the ingest loop, SIGKILL it after a random delay, return the ids it acknowledged."""
    child = Child(ingest_until_killed, str(home), tag, seed)
    try:
        assert child.first.wait(60), "the child never acknowledged anything"
        time.sleep(rng.uniform(0.0, 0.4))
    finally:
        exit_code = child.kill()
    assert exit_code == -signal.SIGKILL
    return child.received


def check_after_crash(home: Path, acknowledged: set[str]) -> None:
    with open_home(home, worker=False) as memoir:
        store = memoir._parts.store
        assert store.integrity_check() == ["ok"]
        stored = store.get_many(list(acknowledged))
        assert set(stored) == acknowledged, "an acknowledged event was lost"
        everything = all_events(memoir)
        assert all(intact(e) for e in everything), "an event was torn"
        # Each event is either processed by each job or still has that job's outbox entry.
        pending = {(event_id, e.action) for e in store.outbox_entries() for event_id in e.event_ids}
        processed = recorded_counts(memoir)
        for event in everything:
            waiting = (event.event_id, "record") in pending
            assert processed.get(event.event_id, 0) == (0 if waiting else 1)
        sessions = {s.session_id: s.event_count for s in store.sessions()}
        for session_id in {e.session_id for e in everything}:
            waiting = sum(
                1 for e in everything if e.session_id == session_id and (e.event_id, "track_session") in pending
            )
            total = sum(1 for e in everything if e.session_id == session_id)
            assert sessions.get(session_id, 0) + waiting == total
        indexed = {e.event_id for e in everything} - {
            event_id for event_id, action in pending if action == "index_event"
        }
        assert store.index_count("turn") == len(indexed)
        # A restarted runner processes what was left, exactly once.
        assert memoir.flush(timeout=60)
        assert store.index_count("turn") == len(everything)
        assert store.outbox_entries() == []
        assert set(recorded_counts(memoir).values()) <= {1}
        assert set(recorded_counts(memoir)) == {e.event_id for e in everything}
        assert sum(s.event_count for s in store.sessions()) == len(everything)


def test_acknowledged_events_survive_sigkill_and_leftover_work_is_replayed_once(tmp_path: Path) -> None:
    rng = random.Random(20261121)
    home = tmp_path / "home"
    acknowledged: set[str] = set()
    for round_number in range(KILLS):
        acknowledged.update(run_and_kill(home, f"r{round_number}", round_number, rng))
        check_after_crash(home, acknowledged)
    assert len(acknowledged) > KILLS
