"""The write path (issues 4 and 6's benchmark): memories per second, LLM calls per turn, ingest latency.

1. Memories written per second with the default MiniLM embedder (each a Markdown file, a
   mirror row and an index item): `Memoir.remember` one at a time, and `Memoir.remember_many`
   in batches of 100 (one embedding call, one transaction, one facts.md per batch; target
   >= 200/s); run round-robin, medians and the ratio within each round.
2. Memories per second in heuristic mode (no LLM): user messages stating facts go through
   the `extract_facts` job (rules, nearest facts, reconciliation, files, index).
3. LLM calls per user turn, against a scripted OpenAI-compatible server on 127.0.0.1:
   a conversation mixing fact-free turns, new facts and corrections.
4. What the write path adds to `ingest` acknowledgement: one-call-per-event ingest latency
   with fact extraction on and off (runner thread on). Target: nothing, it runs behind.

    python bench/write_path.py [--runs 3]
    python bench/write_path.py --quick    # smaller counts, one run: under a minute
"""

from __future__ import annotations

import argparse
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
REMEMBER_TARGET = 200  # memories/s written by remember in batches (issue 6)
BATCH = 100


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


def spread(values: list[float], unit: str = "", digits: int = 0) -> str:
    return f"{statistics.median(values):,.{digits}f}{unit} ({min(values):,.{digits}f}-{max(values):,.{digits}f})"


def remember_rate(count: int, batch: int, seed: int) -> float:
    """Memories/s written by `remember` (batch 1) or `remember_many` (batches of `batch`), distinct texts."""
    texts = [f"{text} (note {n})" for n, text in enumerate(fact_messages(count, seed=seed))]
    with tempfile.TemporaryDirectory() as home, Memoir.open(home, worker_enabled=False) as memoir:
        memoir.remember("warm up: load the model", conversation_id="warm")
        start = time.perf_counter()
        if batch == 1:
            for text in texts:
                memoir.remember(text, conversation_id="direct")
        else:
            for i in range(0, count, batch):
                memoir.remember_many([{"text": t, "conversation_id": "direct"} for t in texts[i : i + batch]])
        elapsed = time.perf_counter() - start
        assert len(memoir.memories("direct")) == count
    return count / elapsed


def remembering(runs: int, count: int) -> dict[str, Any]:
    cases = {"remember, one at a time": 1, f"remember_many, batches of {BATCH}": BATCH}
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for run in range(runs):
        for name, batch in cases.items():
            samples[name].append(remember_rate(count, batch, seed=run))
    print(f"1. memories written per second, MiniLM, {count} distinct facts per run, median of {runs} run(s):")
    for name, rates in samples.items():
        verdict = f"target >= {REMEMBER_TARGET}: {'met' if statistics.median(rates) >= REMEMBER_TARGET else 'NOT MET'}"
        print(f"   {name:<30} {spread(rates, ' /s'):>24}   {verdict if name.startswith('remember_many') else ''}")
    single, many = samples.values()
    ratios = [b / a for a, b in zip(single, many, strict=True)]
    print(f"   remember_many / remember: {spread(ratios, 'x', 1)} (ratio within each round)")
    return {**samples, "ratio": ratios}


def extraction_rate(count: int) -> tuple[float, int]:
    """Memories/s made by the extract_facts job from `count` user messages, rules only."""
    with tempfile.TemporaryDirectory() as home, Memoir.open(home, worker_enabled=False) as memoir:
        memoir.remember("warm up: load the model", conversation_id="warm")
        memoir.ingest([message(t, n) for n, t in enumerate(fact_messages(count))])
        start = time.perf_counter()
        memoir.flush()
        elapsed = time.perf_counter() - start
        made = len(memoir.memories("bench", include_deleted=True))
    return made / elapsed, made


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller counts, one run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args(argv)
    runs = 1 if args.quick else args.runs
    results: dict[str, Any] = {"remember": remembering(runs, 200 if args.quick else 1000)}

    messages = 100 if args.quick else 300
    rates, made = zip(*(extraction_rate(messages) for _ in range(runs)), strict=True)
    print(f"2. extract_facts job, heuristic mode (no LLM), MiniLM, median of {runs} run(s):")
    print(f"   {spread(list(rates), ' memories/s')} ({made[0]} memories from {messages} messages)")
    results["extraction_per_s"] = list(rates)

    calls = llm_calls_per_turn()
    print("3. LLM calls per user turn (scripted OpenAI-compatible server on 127.0.0.1):")
    for text, n in calls:
        print(f"   {n}  {text}")
    fact_free = max(n for t, n in calls if "Thanks" in t or "time" in t or "see you" in t)
    print(
        f"   at most {max(n for _, n in calls)} per turn (target <= 2: extraction + reconciliation); "
        f"fact-free turns: {fact_free}"
    )
    results["llm_calls"] = calls

    count = 100 if args.quick else 400
    with_extract = [ack_latency(True, count) for _ in range(runs)]
    without = [ack_latency(False, count) for _ in range(runs)]
    print(
        f"4. ingest acknowledgement, one event per call, p50: {statistics.median(with_extract):.2f} ms with fact "
        f"extraction, {statistics.median(without):.2f} ms without (target: the write path adds nothing)"
    )
    results["ack_p50_ms"] = {"with_extraction": with_extract, "without": without}
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
