"""The web view's page times (issue 30's benchmark): every page, served, at 10,000 memories and 100,000 events.

Builds a home with `--events` chat events (100 conversations, sessions of 100 turns, a turn a
minute, a session a day; the hashing embedder, so the build is quick), its timeline, and
`--memories` facts; then serves it (`memoir serve` on 127.0.0.1, in this process) and asks
each page `--rounds` times over HTTP, printing p50 / p95 per page against the target
(p95 <= 300 ms on 2 cores), after one call of each to warm up (the first search loads the
vectors). The time is the request's whole round trip on loopback, so a little above what
the server spends. The doctor page shows the last check's findings (a check reads the whole
home, seconds at this size, and runs in the background).

    python bench/web.py                                  # 100,000 events, 10,000 memories (minutes to build)
    python bench/web.py --events 10000 --memories 1000   # a quick look
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.search_scale import sentence, vocabulary

from memoir import Memoir
from memoir.server import serving

TARGET_P95_MS = 300.0
CONVERSATIONS = 100
SESSION = 100
START_MS = 1_767_225_600_000  # 2026-01-01


def verdict(p95: float) -> str:
    return "met" if p95 <= TARGET_P95_MS else "NOT MET"


def build(memoir: Memoir, events: int, memories: int, rng: random.Random) -> None:
    words = vocabulary()
    batch = []
    for n in range(events):
        conversation, turn = n % CONVERSATIONS, n // CONVERSATIONS
        session = turn // SESSION
        batch.append(
            {
                "conversation_id": f"c{conversation:03d}",
                "session_id": f"c{conversation:03d}-s{session:04d}",
                "event_type": "user_message" if turn % 2 == 0 else "assistant_message",
                "text": sentence(rng, rng.randint(8, 40)) if words else "",
                "timestamp": START_MS + session * 86_400_000 + (turn % SESSION) * 60_000 + conversation,
            }
        )
        if len(batch) == 5_000:
            memoir.ingest(batch)
            batch = []
    if batch:
        memoir.ingest(batch)
    started = time.perf_counter()
    memoir.flush()
    memoir.update_timeline(rebuild=True)
    print(f"indexed and summarised {events} events in {time.perf_counter() - started:.0f} s", flush=True)
    facts = [
        {"text": f"The user {sentence(rng, rng.randint(5, 15))}", "conversation_id": f"c{n % CONVERSATIONS:03d}"}
        for n in range(memories)
    ]
    started = time.perf_counter()
    for start in range(0, len(facts), 500):
        memoir.remember_many(facts[start : start + 500])
    print(f"kept {memories} memories in {time.perf_counter() - started:.0f} s", flush=True)


def pages(client: httpx.Client, memoir: Memoir) -> dict[str, str]:
    """One address per page of the view, found by following its links as a person would."""
    conversation = client.get("/ui/c/c042").text
    node = re.findall(r'href="(/ui/c/c042/node/[^"?]+)"', conversation)[0]
    found = {"conversations": "/", "conversation": "/ui/c/c042", "year": node}
    for level in ("month", "week", "day", "segment"):
        page = client.get(found[list(found)[-1]]).text
        children = [link for link in re.findall(r'href="(/ui/c/c042/node/[^"?]+)"', page) if "%3A" + level in link]
        if not children:
            children = [
                link for link in re.findall(r'href="(/ui/c/c042/node/[^"?]+)"', page) if link not in found.values()
            ]
        found[level] = children[0]
    segment = client.get(found["segment"]).text
    found["evidence"] = re.findall(r'href="(/ui/grip/[^"]+)"', segment)[0]
    memory = memoir.memories("c042")[-1]
    found |= {
        "events": "/ui/c/c042/events",
        "search": "/ui/search?q=" + memory.content.split()[3] + "&conversation=c042",
        "memories": "/ui/memories",
        "memory": f"/ui/memory/{memory.id}",
        "work": "/ui/work",
        "doctor": "/ui/doctor",
    }
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args(argv)
    rng = random.Random(7)
    with (
        tempfile.TemporaryDirectory() as home,
        Memoir.open(home, worker_enabled=False, embedding_provider="hashing") as memoir,
    ):
        build(memoir, args.events, args.memories, rng)
        with serving(memoir) as where, httpx.Client(base_url=where.url, timeout=120) as client:
            addresses = pages(client, memoir)
            print(f"\n{args.events} events, {args.memories} memories; {args.rounds} requests a page")
            print(f"{'page':<14} {'p50 ms':>8} {'p95 ms':>8}  target p95 <= {TARGET_P95_MS:.0f} ms")
            worst = 0.0
            client.get("/ui/doctor")  # the first look starts the check in the background
            for path in addresses.values():  # first calls load what later ones reuse (vectors, templates)
                client.get(path)
            for name, path in addresses.items():
                times = []
                for _ in range(args.rounds):
                    started = time.perf_counter()
                    answer = client.get(path)
                    times.append((time.perf_counter() - started) * 1000)
                    assert answer.status_code == 200, (path, answer.status_code, answer.text[:200])
                p95 = statistics.quantiles(times, n=20)[18]
                worst = max(worst, p95)
                print(f"{name:<14} {statistics.median(times):>8.1f} {p95:>8.1f}  {verdict(p95)}")
            print(f"every page p95 <= {TARGET_P95_MS:.0f} ms: {verdict(worst)} (worst {worst:.0f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
