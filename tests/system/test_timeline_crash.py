"""A worker killed while it summarizes segments: replayed, never a duplicate node (issue 10).

The segments of twelve old sessions wait for their summaries. A child process summarizes
them against a scripted model on 127.0.0.1 and is SIGKILLed at a random moment after its
k-th summary call (inside a call, between the answer and the commit, or in a commit).
After every kill: the database is intact, each summarized segment has exactly one node,
at version 1, with one grip per bullet and one search item, and a closed segment has no
node at all. At the end, every segment has its summary, once.

The child runs `work_until_killed` (a `Child` of tests/durability.py: a real process, killed with SIGKILL).
"""

from __future__ import annotations

import json
import random
import re
import signal
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from memoir import Memoir
from memoir.timeline.prompts import SEGMENT_PROMPT
from tests.durability import Child, preload
from tests.scripted_server import chat_reply, scripted_server

SESSIONS = 12
KILLS = 4
preload(__name__)  # the child's function, ready in the process it is forked from


class Summarizer:
    """Answers every segment with bullets taken from its transcript; counts the calls."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.calls = 0
        self.reached = threading.Event()
        self._target = -1
        self._lock = threading.Lock()

    def kill_after(self, calls: int) -> None:
        with self._lock:
            self._target = self.calls + calls
            self.reached.clear()

    def __call__(self, body: dict[str, Any]) -> tuple[int, Any]:
        system, user = body["messages"][0]["content"], body["messages"][1]["content"]
        lines = [re.sub(r"^\[\w+\] ", "", line) for line in user.splitlines()]
        if not system.startswith(SEGMENT_PROMPT[:40]):
            return 200, chat_reply(json.dumps({"summary": lines[0]}))
        with self._lock:
            self.calls += 1
            if self.calls == self._target:
                self.reached.set()
        time.sleep(self.delay)
        answer = {
            "title": "A day at the lighthouse",
            "bullets": lines[:3],
            "keywords": ["lighthouse", "keeper", "lamp"],
        }
        return 200, chat_reply(json.dumps(answer))


def open_home(home: Path, url: str, *, worker: bool) -> Memoir:
    return Memoir.open(
        home,
        worker_enabled=worker,
        worker_poll_interval=0.05,
        embedding_provider="hashing",
        memory_extract=False,
        llm_model="scripted",
        llm_base_url=url,
        llm_retries=0,
    )


def work_until_killed(ready: Connection, home: str, url: str) -> None:
    with open_home(Path(home), url, worker=True):
        ready.send_bytes(b"ready")
        while True:
            time.sleep(1)


def check(memoir: Memoir) -> int:
    """The invariants a kill must leave standing; returns the segments still waiting."""
    store = memoir._parts.store
    assert store.integrity_check() == ["ok"]
    summarized = store.segments("summarized", limit=1000)
    waiting = store.segments("closed", limit=1000) + store.segments("open", limit=1000)
    for segment in summarized:
        node = store.toc_get(segment.conversation_id, None, segment.node_id)
        assert node is not None and node.version == 1, f"{segment.node_id} summarized twice"
        assert len(store.grips_get(node.grip_ids)) == len(node.bullets)
    for segment in waiting:
        assert store.toc_get(segment.conversation_id, None, segment.node_id) is None, "a node without its segment done"
    assert store.index_count("summary") == len(summarized), "a summary indexed twice, or not at all"
    return len(waiting)


def test_summaries_interrupted_by_kills_are_replayed_without_duplicate_nodes(tmp_path: Path) -> None:
    rng = random.Random(20261122)
    home = tmp_path / "home"
    model = Summarizer(delay=0.05)
    with scripted_server({"/v1/chat/completions": model}) as server:
        url = server.url + "/v1"
        with open_home(home, url, worker=False) as memoir:
            for n in range(SESSIONS):
                day = f"2025-04-{n + 1:02d}"
                memoir.ingest(
                    [
                        {"session_id": day, "event_type": "user_message", "timestamp": f"{day}T09:0{i}:00Z",
                         "text": f"Keeper log {n}.{i}: the lamp of the lighthouse burned {n + i} hours tonight."}
                        for i in range(3)
                    ]
                )  # fmt: skip
            assert memoir.flush(timeout=60, lanes=["fast"])
        backlog = [SESSIONS]
        for _ in range(KILLS):
            model.kill_after(rng.randint(1, 2))
            child = Child(work_until_killed, str(home), url)
            try:
                assert child.first.wait(60) and child.received == ["ready"]
                assert model.reached.wait(60), "the child never reached its summary calls"
                time.sleep(rng.uniform(0.0, 2.5 * model.delay))
            finally:
                assert child.kill() == -signal.SIGKILL
            with open_home(home, url, worker=False) as memoir:
                backlog.append(check(memoir))
        print(f"segments waiting after each kill: {backlog}")
        assert backlog[-1] < SESSIONS
        with open_home(home, url, worker=False) as memoir:
            assert memoir.flush(timeout=120)
            assert check(memoir) == 0
            assert memoir._parts.store.index_count("summary") == SESSIONS
