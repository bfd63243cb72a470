"""Progress under repeated crashes: a worker killed again and again while it extracts facts
still moves the backlog forward (issue 8, item 5).

One ingest call of many user messages leaves one `extract_facts` outbox entry. A child
process works on it against a scripted chat model on 127.0.0.1 and is SIGKILLed at a
random moment after its k-th extraction call of the round (k >= 2: the call for the next
event starts only once the previous one is settled, so each round settles at least one).
After every kill the backlog is smaller than before and not yet empty (progress is kept
event by event, not per entry), every acknowledged event is there, the database is intact,
each event out of the backlog has its fact in the vault, and no fact is stored twice.

The child runs `work_until_killed` (a `Child` of tests/durability.py: a real process, killed with SIGKILL).
"""

from __future__ import annotations

import json
import random
import signal
import threading
import time
from collections import Counter
from itertools import pairwise
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from memoir import Memoir
from memoir.ingest.extract import FACT_SYSTEM_PROMPT
from tests.durability import Child, preload
from tests.scripted_server import chat_reply, scripted_server

MESSAGES = 120
KILLS = 8
preload(__name__)  # the child's function, ready in the process it is forked from


def fact_of(text: str) -> str:
    """The fact a good model states for a message, in the third person."""
    return text.replace("My note", "The user's note").replace("says I keep", "says the user keeps")


class SlowModel:
    """One fact per message, every new fact added; each call takes `delay` so kills land inside calls too.

    `kill_after(k)` arms `reached`, set when the k-th extraction call from now arrives.
    """

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.extractions = 0
        self.reached = threading.Event()
        self._target = -1
        self._lock = threading.Lock()  # the server answers each request on its own thread

    def kill_after(self, calls: int) -> None:
        with self._lock:
            self._target = self.extractions + calls
            self.reached.clear()

    def __call__(self, body: dict[str, Any]) -> tuple[int, Any]:
        system, user = body["messages"][0]["content"], body["messages"][-1]["content"]
        extraction = system.startswith(FACT_SYSTEM_PROMPT)
        if extraction:
            with self._lock:
                self.extractions += 1
                if self.extractions == self._target:
                    self.reached.set()
        time.sleep(self.delay)
        if extraction:
            return 200, chat_reply(json.dumps({"facts": [fact_of(user)]}))
        added = [{"id": "new", "text": fact, "event": "ADD"} for fact in json.loads(user)["new_facts"]]
        return 200, chat_reply(json.dumps({"memory": added}))


def open_home(home: Path, model_url: str, *, worker: bool) -> Memoir:
    return Memoir.open(
        home,
        worker_enabled=worker,
        worker_poll_interval=0.05,
        embedding_provider="hashing",
        llm_model="scripted",
        llm_base_url=model_url,
        llm_retries=0,
    )


def work_until_killed(ready: Connection, home: str, model_url: str) -> None:
    """The child: both lanes' workers on, standing by until SIGKILL."""
    with open_home(Path(home), model_url, worker=True):
        ready.send_bytes(b"ready")
        while True:
            time.sleep(1)


def run_and_kill(home: Path, model: SlowModel, model_url: str, rng: random.Random) -> None:
    model.kill_after(rng.randint(2, 5))
    child = Child(work_until_killed, str(home), model_url)
    try:
        assert child.first.wait(60) and child.received == ["ready"], "the child did not open the home"
        assert model.reached.wait(60), "the child never got as far as the extraction calls it was given"
        time.sleep(rng.uniform(0.0, 2.5 * model.delay))  # inside a call, a vault write or a commit
    finally:
        exit_code = child.kill()
    assert exit_code == -signal.SIGKILL


def check_after_crash(memoir: Memoir, acknowledged: list[str]) -> int:
    """The invariants a kill must leave standing; returns the extraction backlog."""
    store = memoir._parts.store
    assert store.integrity_check() == ["ok"]
    events = store.get_many(acknowledged)
    assert set(events) == set(acknowledged), "an acknowledged event was lost"
    facts = Counter(m.content for m in memoir.memories(kind="fact"))
    assert all(count == 1 for count in facts.values()), "a fact was stored twice"
    waiting = {event_id for e in store.outbox_entries() if e.action == "extract_facts" for event_id in e.event_ids}
    settled = [events[event_id] for event_id in acknowledged if event_id not in waiting]
    assert all(fact_of(e.text) in facts for e in settled), "an event left the backlog before its fact was kept"
    return store.outbox_pending(["extract_facts"])


def test_a_worker_killed_again_and_again_still_moves_the_extraction_backlog_forward(tmp_path: Path) -> None:
    rng = random.Random(20260508)
    home = tmp_path / "home"
    model = SlowModel(delay=0.04)
    with scripted_server({"/v1/chat/completions": model}) as server:
        url = server.url + "/v1"
        with open_home(home, url, worker=False) as memoir:
            texts = [f"My note number {n} says I keep {n} {rng.choice(['red', 'blue'])} pens" for n in range(MESSAGES)]
            acknowledged = memoir.ingest([{"session_id": "s1", "event_type": "user_message", "text": t} for t in texts])
        backlogs = [MESSAGES]
        for _ in range(KILLS):
            run_and_kill(home, model, url, rng)
            with open_home(home, url, worker=False) as memoir:
                backlogs.append(check_after_crash(memoir, acknowledged))
        print(f"extraction backlog after each kill: {backlogs}")
        assert all(after < before for before, after in pairwise(backlogs)), f"a round made no progress: {backlogs}"
        assert backlogs[-1] > 0, "the whole backlog went in one step: nothing here tests progress within it"
        model.delay = 0.0
        with open_home(home, url, worker=False) as memoir:
            assert memoir.flush(timeout=120)
            assert check_after_crash(memoir, acknowledged) == 0
            facts = {m.content for m in memoir.memories(kind="fact")}
            assert facts == {fact_of(t) for t in texts}
            [checkpoint] = [c for c in memoir._parts.store.checkpoints() if c.job == "extract_facts"]
            assert checkpoint.processed == MESSAGES  # every event's extraction committed exactly once
