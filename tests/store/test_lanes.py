"""Runner lanes: a model that hangs in the llm lane never holds back the fast lane's indexing."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from memoir import ConfigError, Event, Memoir
from memoir.store import Store
from memoir.workers import FAST_LANE, LLM_LANE, JobRegistry, TrackSessionJob
from tests.conftest import message
from tests.scripted_server import chat_reply, scripted_server


class HeldModel:
    """A chat route that answers only when the test lets it: the LLM lane is stuck until then."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls = 0

    def __call__(self, body: dict[str, Any]) -> tuple[int, Any]:
        self.calls += 1
        self.release.wait(30)
        return 200, chat_reply('{"facts": []}')


def wait_for(condition: Callable[[], bool], seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_built_in_jobs_declare_their_lanes(memoir: Memoir) -> None:
    registry = memoir._parts.registry
    assert registry.names_in(FAST_LANE) == ["track_session", "index_event", "segment"]
    assert registry.names_in(LLM_LANE) == ["extract_facts"]
    assert [job.name for job in registry.periodic_in(LLM_LANE)] == ["summarize", "rollup", "conversation_summary"]


def test_a_turn_is_searchable_while_the_model_is_stuck(open_memoir: Callable[..., Memoir]) -> None:
    model = HeldModel()
    with scripted_server({"/v1/chat/completions": model}) as server:
        memoir = open_memoir(
            worker_enabled=True,
            embedding_provider="hashing",
            llm_model="scripted",
            llm_base_url=server.url + "/v1",
            llm_retries=0,
        )
        try:
            memoir.ingest(message("I moved to Lisbon last spring", session_id="s1"))
            assert wait_for(lambda: model.calls >= 1), "the llm lane never called the model"
            [later] = memoir.ingest(message("The quarterly report mentions zebras", session_id="s1"))
            assert wait_for(lambda: any(later in h.event_ids for h in memoir.search("zebras quarterly report")))
            assert model.calls == 1 and not model.release.is_set()  # the model is still stuck
            # the fast lane's other jobs (segment) finish soon after the turn is searchable; the llm lane's never
            assert wait_for(lambda: memoir.status().outbox_pending == {"extract_facts": 2}), memoir.status()
        finally:
            model.release.set()
    assert memoir.flush(timeout=30)


class Slow:
    """A user's job in its own lane."""

    name = "slow"
    lane = "batchwork"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def wants(self, event: Event) -> bool:
        return True

    def run(self, events: Sequence[Event], store: Store) -> None:
        self.seen.extend(e.text for e in events)


def test_a_job_may_open_its_own_lane_and_flush_drains_every_lane(memoir: Memoir) -> None:
    job = Slow()
    memoir.register_job(job)
    memoir.ingest([message("one"), message("two")])
    assert memoir.pending() > 0
    assert memoir.flush(timeout=30)
    assert job.seen == ["one", "two"] and memoir.pending() == 0
    assert set(memoir.status().workers) == {FAST_LANE, LLM_LANE, "batchwork"}


def test_the_worker_runs_only_the_lanes_named(memoir: Memoir) -> None:
    memoir.ingest(message("I like green tea"))
    processed = memoir.work([FAST_LANE], once=True, report=lambda line: None)
    assert processed == 3  # the session catalogue, the index and the segments; extraction still waits
    assert memoir.status().outbox_pending == {"extract_facts": 1}
    with pytest.raises(ConfigError, match="no lane 'nope'"):
        memoir.work(["nope"], once=True, report=lambda line: None)


def test_a_lane_name_must_be_plain() -> None:
    job = Slow()
    job.lane = "Not A Lane"  # type: ignore[misc]
    with pytest.raises(ConfigError, match="names the lane"):
        JobRegistry().register(job)
    assert JobRegistry().register(TrackSessionJob()).lane == FAST_LANE  # type: ignore[attr-defined]


def test_each_lane_has_its_own_lease(memoir: Memoir) -> None:
    store = memoir._parts.store
    fast = store.try_runner_lease(FAST_LANE)
    assert fast is not None
    try:
        assert store.try_runner_lease(FAST_LANE) is None
        llm = store.try_runner_lease(LLM_LANE)
        assert llm is not None
        llm.release()
        status = memoir.status().workers
        assert status[FAST_LANE] == "running in another process" and status[LLM_LANE].startswith("not running")
    finally:
        fast.release()


def test_workers_hold_back_while_ingest_is_under_way(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(worker_enabled=False, embedding_provider="hashing", memory_extract=False)
    lanes = memoir._parts.lanes
    lanes.pacer.max_defer = 30.0  # long enough that only the end of ingest can release the workers
    with lanes.ingesting():
        memoir._parts.store.append(
            memoir.prepare(message("written while a long ingest call is still running")),
            memoir._parts.registry.actions_for,
        )
        # Started here, not at open: a worker already inside a step when ingest began (a slow first
        # poll on a loaded machine) would rightly finish that step, and the test would race it.
        lanes.start([FAST_LANE])
        worker = lanes.worker(FAST_LANE)
        assert worker is not None
        worker.wake()
        time.sleep(0.3)
        assert memoir.pending() == 3  # the fast lane (sessions, index, segments) waited for ingest to finish
    assert wait_for(lambda: memoir.pending() == 0)
