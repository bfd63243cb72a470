"""Ingest throughput of the embedded store (issue 2's benchmark).

Measures, each as the median of N runs into a fresh home, with every call
acknowledged durably (SQLite WAL, synchronous=FULL: the WAL is fsynced at each commit):

  batched      100,000 events as 100 calls of 1,000
  one-by-one   10,000 events, one `ingest` call each

each in three set-ups:

  runner off        the outbox runner is not running: the cost of acknowledgement alone
  runner thread     the default `Memoir.open()`: the runner works in a thread of the same process
  runner process    the runner works in another process (`memoir worker`), as a deployment would

and the runner's own drain rate (outbox entries processed per second).

The runner's jobs are the session catalogue and the search index with the hashing
embedder (`embedding.provider = "hashing"`), fact extraction off: this benchmark is about
the log; embedding throughput is bench/retrieval.py's, and a MiniLM index job drains
about 150 events/s whichever way events arrive.

Events are plain dicts as a client would send them (validated on the way in), with
chat-sized text (40-400 characters) and a metadata entry: five conversations active at
once, interleaved turn by turn, each made of sessions of 100 turns.

    python bench/ingest.py            # full run (a few minutes)
    python bench/ingest.py --quick    # smaller counts, one run: a smoke test
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from memoir import Memoir

_VOCABULARY = """
the a memory agent user said project deploy database python rust config token model cache index
meeting tomorrow friday wife dog trip berlin coffee prefers dark mode tests failing because of
timeout retry we should remember that it is important to keep the log append only and fast
"""
WORDS = _VOCABULARY.split()
BASE_MS = 1_700_000_000_000


def make_events(count: int, seed: int = 7) -> list[dict[str, Any]]:
    """Five agents talk at once (conversations interleaved turn by turn), each in sessions of 100 turns."""
    rng = random.Random(seed)
    events = []
    for i in range(count):
        words = rng.randint(8, 70)
        conversation, turn = i % 5, i // 5
        events.append(
            {
                "session_id": f"conv-{conversation}-session-{turn // 100}",
                "conversation_id": f"conv-{conversation}",
                "event_type": "user_message" if i % 2 == 0 else "assistant_message",
                "text": " ".join(rng.choices(WORDS, k=words)),
                "timestamp": BASE_MS + i * 1000,
                "metadata": {"turn": str(i)},
            }
        )
    return events


OPTIONS: dict[str, Any] = {"embedding_provider": "hashing", "memory_extract": False}


def _worker_process(home: str, stop: Any) -> None:
    with Memoir.open(home, worker_enabled=True, **OPTIONS):
        stop.wait()


def run_once(events: list[dict[str, Any]], batch: int, setup: str) -> tuple[float, float]:
    """Returns (ingested events/s, seconds the runner then needed to drain)."""
    with tempfile.TemporaryDirectory() as home:
        ctx = multiprocessing.get_context("spawn")
        stop = ctx.Event()
        helper = None
        if setup == "runner process":
            helper = ctx.Process(target=_worker_process, args=(home, stop))
            Memoir.open(home, worker_enabled=False, **OPTIONS).close()  # create the schema first
            helper.start()
        memoir = Memoir.open(home, worker_enabled=(setup == "runner thread"), **OPTIONS)
        try:
            start = time.perf_counter()
            if batch == 1:
                for event in events:
                    memoir.ingest(event)
            else:
                for i in range(0, len(events), batch):
                    memoir.ingest(events[i : i + batch])
            elapsed = time.perf_counter() - start
            drain_start = time.perf_counter()
            memoir.flush()
            drain = time.perf_counter() - drain_start
            assert memoir.status().events == len(events)
        finally:
            memoir.close()
            stop.set()
            if helper is not None:
                helper.join(30)
        return len(events) / elapsed, drain


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="10x fewer events, one run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args(argv)
    runs = 1 if args.quick else args.runs
    batched_n, single_n = (10_000, 1_000) if args.quick else (100_000, 10_000)
    batched_events, single_events = make_events(batched_n), make_events(single_n, seed=11)

    cases = [
        (f"{label}, {setup}", events, batch, setup, target)
        for setup in ("runner off", "runner thread", "runner process")
        for label, events, batch, target in (
            (f"batched {batched_n:,} x1000", batched_events, 1000, 50_000),
            (f"one-by-one {single_n:,}", single_events, 1, 2_000),
        )
    ]
    print(f"memoir ingest benchmark: median of {runs} run(s), durable commits (WAL, synchronous=FULL)")
    print("cases run round-robin, so drift in the machine's speed spreads over all of them")
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name, *_ in cases}
    for _ in range(runs):
        for name, events, batch, setup, _target in cases:
            samples[name].append(run_once(events, batch, setup))
    print(f"{'case':<42} {'events/s':>10} {'min':>8} {'max':>8} {'drain s':>8}  target")
    results = []
    for name, _events, _batch, _setup, target in cases:
        rates = [rate for rate, _ in samples[name]]
        rate = statistics.median(rates)
        drain = statistics.median(d for _, d in samples[name])
        results.append(
            {"case": name, "median_events_per_s": rate, "rates": rates, "median_drain_s": drain, "target": target}
        )
        verdict = "ok" if rate >= target else "below"
        print(
            f"{name:<42} {rate:>10,.0f} {min(rates):>8,.0f} {max(rates):>8,.0f} {drain:>8.2f}  >= {target:,} {verdict}"
        )
    off = results[0]
    drain_rate = batched_n / off["median_drain_s"] if off["median_drain_s"] else float("inf")
    print(f"runner drain rate after a batched ingest (sessions + hashing index): {drain_rate:,.0f} events/s")
    print("reference: agent-memory (Rust, RocksDB) reports 30,000-46,000 events/s")
    if args.json:
        args.json.write_text(json.dumps({"results": results, "drain_entries_per_s": drain_rate}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
