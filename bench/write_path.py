"""The write path (issue 4's benchmark): memories per second, LLM calls per turn, ingest latency.

1. Memories written per second in heuristic mode (no LLM): user messages stating facts
   go through the `extract_facts` job (rules, reconciliation, Markdown file, index with
   the default MiniLM embedder); also `Memoir.remember` called directly.
2. LLM calls per user turn, against a scripted OpenAI-compatible server on 127.0.0.1:
   a conversation mixing fact-free turns, new facts and corrections.
3. What the write path adds to `ingest` acknowledgement: one-call-per-event ingest latency
   with fact extraction on and off (runner thread on). Target: nothing, it runs behind.

    python bench/write_path.py
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from memoir import Memoir
from scripted_server import chat_reply, scripted_server

NAMES = ["Anne", "Jane", "Rex", "Mia", "Tom", "Lisbon", "Porto", "Berlin", "Kyoto", "Oslo"]
RELATIONS = ["wife", "dog", "daughter", "cat", "boss", "dentist", "landlord", "coach", "neighbour", "editor"]


def fact_messages(count: int, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    templates = [
        lambda: f"My {rng.choice(RELATIONS)} is {rng.choice(NAMES)}.",
        lambda: f"I live in {rng.choice(NAMES)}.",
        lambda: f"I like {rng.choice(['sailing', 'jazz', 'chess', 'tea', 'rust', 'hiking'])} {rng.randint(1, 9999)}.",
        lambda: (
            f"I have {rng.randint(2, 9)} {rng.choice(['cats', 'bikes', 'guitars'])} and {rng.randint(1, 999)} books."
        ),
    ]
    return [rng.choice(templates)() for _ in range(count)]


def message(text: str, n: int) -> dict[str, Any]:
    return {"session_id": f"s{n // 50}", "conversation_id": "bench", "event_type": "user_message", "text": text}


def memories_per_second(count: int) -> tuple[float, float, int]:
    with tempfile.TemporaryDirectory() as home, Memoir.open(home, worker_enabled=False) as memoir:
        memoir.ingest([message(t, n) for n, t in enumerate(fact_messages(count))])
        start = time.perf_counter()
        memoir.flush()
        extracted = time.perf_counter() - start
        made = len(memoir.memories("bench", include_deleted=True))
        start = time.perf_counter()
        for n, text in enumerate(fact_messages(count, seed=9)):
            memoir.remember(f"{text} ({n})", conversation_id="direct")
        direct = time.perf_counter() - start
    return made / extracted, count / direct, made


def llm_calls_per_turn() -> list[tuple[str, int]]:
    turns = [
        "Thanks, that helps!",
        "My wife is Jane.",
        "What time is it in Lisbon?",
        "Sorry, my wife is Anne.",
        "I live in Porto and I like sailing.",
        "Great, see you tomorrow.",
        "I like sailing.",
    ]

    def route(body: dict[str, Any]) -> tuple[int, Any]:
        system = body["messages"][0]["content"]
        user = body["messages"][-1]["content"]
        if "extract facts" in system:
            facts = [f"The user says: {user}"] if any(w in user for w in ("My ", "I live", "I like")) else []
            return 200, chat_reply(json.dumps({"facts": facts}))
        existing = json.loads(user)["existing"]
        decisions = [{"id": m["id"], "text": m["text"], "event": "NONE"} for m in existing]
        decisions += [{"id": "new", "text": f, "event": "ADD"} for f in json.loads(user)["new_facts"]]
        return 200, chat_reply(json.dumps({"memory": decisions}))

    calls = []
    with scripted_server({"/v1/chat/completions": route}) as server, tempfile.TemporaryDirectory() as home:
        options = {"embedding_provider": "hashing", "llm_base_url": server.url + "/v1", "llm_model": "scripted"}
        memoir = Memoir.open(home, worker_enabled=False, **options)
        try:
            for n, text in enumerate(turns):
                before = len(server.requests)
                memoir.ingest(message(text, n))
                memoir.flush()
                calls.append((text, len(server.requests) - before))
        finally:
            memoir.close()
    return calls


def ack_latency(extract: bool, count: int) -> float:
    samples = []
    with (
        tempfile.TemporaryDirectory() as home,
        Memoir.open(home, worker_enabled=True, memory_extract=extract, embedding_provider="hashing") as memoir,
    ):
        for n, text in enumerate(fact_messages(count, seed=13)):
            start = time.perf_counter()
            memoir.ingest(message(text, n))
            samples.append(time.perf_counter() - start)
        memoir.flush()
    return statistics.median(samples) * 1000


def main() -> int:
    made_rate, direct_rate, made = memories_per_second(300)
    print("write path, heuristic mode (no LLM), default MiniLM embedder")
    print(f"  extracted from user messages: {made_rate:,.0f} memories/s ({made} memories from 300 messages)")
    print(f"  Memoir.remember directly:      {direct_rate:,.0f} memories/s")
    calls = llm_calls_per_turn()
    print("LLM calls per user turn (scripted OpenAI-compatible server on 127.0.0.1):")
    for text, n in calls:
        print(f"  {n}  {text}")
    worst = max(n for _, n in calls)
    print(
        f"  at most {worst} per turn (target <= 2: extraction + reconciliation); "
        f"fact-free turns: {max(n for t, n in calls if 'Thanks' in t or 'time' in t or 'see you' in t)}"
    )
    with_extract = statistics.median(ack_latency(True, 400) for _ in range(3))
    without = statistics.median(ack_latency(False, 400) for _ in range(3))
    print(
        f"ingest acknowledgement, one event per call, p50: {with_extract:.2f} ms with fact extraction, "
        f"{without:.2f} ms without (target: the write path adds nothing; it runs in the background)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
