"""The memory proxy under load (issue 11): added latency, throughput, REST search, worker placement.

Every part serves a copy of one template home holding `--memories` (10,000) distinct fact
sentences (seeded templates: people, relations, cities, jobs, allergies, deadlines...) in
the conversation `bench`, written with `Memoir.remember_many` and the default embedder
(`embedding.provider = "local"`: bundled int8 MiniLM). `memory.max_entries` is raised to
1,000,000 so fact extraction does not evict them (its default, 500, would). The server is
`memoir.server.serving` (uvicorn on a thread of this process, HTTP only); the upstream is
a minimal OpenAI-compatible server written here (raw asyncio HTTP/1.1, keep-alive) in a
child process: it answers a fixed-shape chat completion, or a server-sent stream of 8
chunks plus `[DONE]` written at once, each answer numbered so no two assistant turns are
the same text. Requests name the conversation with `X-Memoir-Conversation: bench`, which
the upstream ignores, so direct and proxied requests are byte-for-byte the same. Every
user message is a distinct question about the stored people (or, in part 4, a distinct
first-person fact plus a question), so no query is served from the embedder's cache of
its last 256 texts.

1. latency   sequential requests with one `httpx.Client`, direct to the upstream and
             through the proxy alternately (order swapped every request), after 20
             warm-up requests of each; non-streaming: time to the full answer; streaming:
             time to the first `data:` line (the stream is then read to its end).
             Added = proxy percentile - direct percentile. Workers in the server's process
             (`memoir serve`'s default). Target: added p50 <= 25 ms.
2. throughput  N clients (asyncio tasks sharing one `httpx.AsyncClient`, in a child process)
             send non-streaming requests back to back through the proxy for `--seconds`
             after 3 s of warm-up; req/s = answers completed in the window / seconds, and
             p50/p95 of their latency. Workers off in the server (the proxy's own cost; the
             backlog is left), and the same load straight to the upstream as the ceiling of
             the load generator. Target: >= 50 req/s on 2 cores.
3. rest      `POST /api/v1/search` (k = 10, conversation `bench`) over httpx next to
             `Memoir.search` in-process on the same server's `Memoir`, same queries,
             alternately; the embedder's recent-text cache is emptied before every call.
4. workers   part 2's load with user messages that state facts (extraction by rules: no
             LLM), so the workers index every logged turn and extract, reconcile and write
             facts: (off) no workers, (thread) `worker_enabled=True` in the server's process,
             (process) `worker_enabled=False` and `python -m memoir worker` as a child process
             with the same settings (`MEMOIR_*` variables). After the load: the backlog
             (`Memoir.pending()`) and the seconds until it reaches 0 (off: `Memoir.flush()` in
             the server's process, nothing else running).

    python bench/proxy.py                       # all parts, about 8 minutes on 2 cores
    python bench/proxy.py --part latency --requests 100 --memories 2000   # quick look
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

import httpx

from memoir import Memoir
from memoir.server import serving

CONVERSATION = "bench"
HEADERS = {"X-Memoir-Conversation": CONVERSATION}
MAX_ENTRIES = 1_000_000
WARMUP_REQUESTS = 20
WARMUP_SECONDS = 3.0
TARGET_ADDED_MS = 25.0
TARGET_RPS = 50.0
SETTINGS: dict[str, Any] = {"embedding_provider": "local", "memory_extract": True, "memory_max_entries": MAX_ENTRIES}
ENV = {"MEMOIR_EMBEDDING_PROVIDER": "local", "MEMOIR_MEMORY_EXTRACT": "true", "MEMOIR_MEMORY_MAX_ENTRIES": "1000000"}


def _words(text: str) -> list[str]:
    return text.split()


FIRST = _words(
    "Anne Aisha Bruno Carla Chen Dmitri Elena Farid Greta Hugo Ines Jonas Kaito Lena Marco Nadia Omar Priya Quentin "
    "Rosa Sven Tariq Uma Viktor Wen Yara Zoe Ahmed Bianca Diego Emma Felix Hana Ivan Julia Karim Lucia Mateo Nora Oscar"
)
LAST = _words("Keller Moreau Tanaka Silva Novak Berg Costa Haddad Lindqvist Okafor Petrov Rossi Schmidt Varga Weber")
RELATIONS = _words(
    "sister brother mother father wife husband daughter son cousin neighbour boss dentist landlord coach "
    "colleague mentor doctor accountant"
)
CITIES = _words(
    "Lisbon Porto Berlin Kyoto Oslo Lyon Seville Krakow Dublin Tallinn Zagreb Ghent Bergen Turin Malmo Graz "
    "Leipzig Bilbao Nantes Utrecht Riga Vilnius Bologna Salzburg Aarhus Tampere Cork Brno Split Basel"
)
JOBS = _words("nurse pilot architect baker chemist teacher plumber translator surgeon librarian carpenter journalist")
COMPANIES = _words("Acme Globex Initech Umbrella Hooli Vandelay Stark Wayne Tyrell Cyberdyne Soylent Wonka")
ALLERGENS = _words("peanuts shellfish penicillin pollen cats gluten latex sesame strawberries walnuts")
DRINKS = ("green tea", "espresso", "oat latte", "hot chocolate", "mint tea", "black coffee", "rooibos", "chai")
INSTRUMENTS = _words("cello piano violin trumpet drums banjo flute saxophone harp ukulele")
PROJECTS = _words("Atlas Beacon Cobalt Delta Ember Falcon Granite Harbor Indigo Juniper Kestrel Lumen")
MONTHS = _words("January February March April May June July August September October November December")
DAYS = _words("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")


# -- data: distinct, plausible, seeded ------------------------------------------------------


def _fact(rng: random.Random) -> str:
    name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    templates: list[Callable[[], str]] = [
        lambda: f"{name}'s {rng.choice(RELATIONS)} lives in {rng.choice(CITIES)}.",
        lambda: f"{name} works as a {rng.choice(JOBS)} at {rng.choice(COMPANIES)}.",
        lambda: f"{name} is allergic to {rng.choice(ALLERGENS)}.",
        lambda: f"{name} drinks {rng.choice(DRINKS)} every {rng.choice(DAYS)} morning.",
        lambda: f"{name} has played the {rng.choice(INSTRUMENTS)} for {rng.randint(2, 30)} years.",
        lambda: f"The {rng.choice(PROJECTS)} deadline {name} owns is {rng.randint(1, 28)} {rng.choice(MONTHS)}.",
        lambda: f"{name} moved to {rng.choice(CITIES)} in {rng.randint(1990, 2025)}.",
    ]
    return rng.choice(templates)()


def _question(rng: random.Random) -> str:
    name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    templates: list[Callable[[], str]] = [
        lambda: f"Where does {name}'s {rng.choice(RELATIONS)} live?",
        lambda: f"What does {name} do for a living, and where?",
        lambda: f"Is {name} allergic to anything I should know about?",
        lambda: f"What should I bring {name} on {rng.choice(DAYS)} morning?",
        lambda: f"Which instrument does {name} play, and since when?",
        lambda: f"When is the {rng.choice(PROJECTS)} deadline that {name} owns?",
        lambda: f"When did {name} move to {rng.choice(CITIES)}?",
    ]
    return rng.choice(templates)()


def _statement(rng: random.Random) -> str:
    """A first-person fact (the rules extract it) and a question (the injection's query)."""
    name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    templates: list[Callable[[], str]] = [
        lambda: f"My {rng.choice(RELATIONS)} is {name}.",
        lambda: f"My {rng.choice(RELATIONS)} {name} lives in {rng.choice(CITIES)}.",
        lambda: f"I have {rng.randint(2, 99)} {rng.choice(INSTRUMENTS)} lessons with {name} this year.",
        lambda: f"I work with {name} on the {rng.choice(PROJECTS)} project.",
    ]
    return f"{rng.choice(templates)()} {_question(rng)}"


def distinct(make: Callable[[random.Random], str], count: int, seed: int) -> list[str]:
    """`count` distinct texts from `make`, the same for the same seed."""
    rng = random.Random(seed)
    seen: dict[str, None] = {}
    while len(seen) < count:
        seen[make(rng)] = None
    return list(seen)


def percentiles(samples: list[float]) -> tuple[float, float]:
    """(p50, p95) in milliseconds of samples in seconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(0.95 * (len(ordered) - 1))] * 1000


def chat(text: str, stream: bool = False) -> dict[str, Any]:
    messages = [{"role": "system", "content": "You are a helpful assistant."}, {"role": "user", "content": text}]
    return {"model": "bench-model", "messages": messages, "stream": stream}


# -- the upstream: a minimal OpenAI-compatible server in a child process --------------------


def _completion(n: int) -> bytes:
    message = {"role": "assistant", "content": f"Answer {n}: noted, I will keep that in mind for you."}
    body = {"id": f"c{n}", "object": "chat.completion", "created": 0, "model": "bench-model"}
    body["choices"] = [{"index": 0, "message": message, "finish_reason": "stop"}]
    return json.dumps(body).encode()


def _sse(n: int) -> list[bytes]:
    words = f"Answer {n}: noted, I will keep that in mind for you.".split(" ")
    deltas = (
        [{"role": "assistant", "content": ""}] + [{"content": w + " "} for w in words[:-1]] + [{"content": words[-1]}]
    )
    chunks = [{"id": f"c{n}", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": d}]} for d in deltas]
    return [f"data: {json.dumps(c)}\n\n".encode() for c in chunks] + [b"data: [DONE]\n\n"]


class Upstream:
    def __init__(self) -> None:
        self.count = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                body = await reader.readexactly(length) if length else b"{}"
                self.count += 1
                await self.answer(writer, bool(json.loads(body).get("stream")))
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    async def answer(self, writer: asyncio.StreamWriter, stream: bool) -> None:
        if not stream:
            payload = _completion(self.count)
            head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
            writer.write(head.encode() + payload)
            await writer.drain()
            return
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
        for event in _sse(self.count):
            writer.write(f"{len(event):x}\r\n".encode() + event + b"\r\n")
            await writer.drain()
        writer.write(b"0\r\n\r\n")
        await writer.drain()


def _upstream_main(ports: Queue[int]) -> None:
    async def run() -> None:
        server = await asyncio.start_server(Upstream().handle, "127.0.0.1", 0, backlog=1024)
        ports.put(server.sockets[0].getsockname()[1])
        await server.serve_forever()

    asyncio.run(run())


@contextmanager
def upstream() -> Iterator[str]:
    """The upstream's base URL (`.../v1`) while the block runs."""
    context = multiprocessing.get_context("spawn")
    ports: Queue[int] = context.Queue()
    process = context.Process(target=_upstream_main, args=(ports,), daemon=True)
    process.start()
    try:
        yield f"http://127.0.0.1:{ports.get(timeout=60)}/v1"
    finally:
        process.terminate()
        process.join(5)


# -- the load: N clients in a child process ------------------------------------------------


@dataclass
class Load:
    url: str
    clients: int
    seconds: float
    messages: list[str]
    warmup: float = WARMUP_SECONDS


@dataclass
class LoadResult:
    clients: int
    seconds: float
    done: int
    errors: int
    latencies: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.done / self.seconds


async def _client(load: Load, http: httpx.AsyncClient, number: int, start: float, result: LoadResult) -> None:
    window = (start + load.warmup, start + load.warmup + load.seconds)
    turn = number
    while time.perf_counter() < window[1]:
        body = chat(load.messages[turn % len(load.messages)])
        turn += load.clients
        sent = time.perf_counter()
        answer = await http.post(load.url + "/chat/completions", json=body, headers=HEADERS)
        ended = time.perf_counter()
        if window[0] <= sent and ended <= window[1]:
            result.latencies.append(ended - sent)
        if window[0] <= ended <= window[1]:
            result.done += answer.status_code == 200
            result.errors += answer.status_code != 200


async def _load(load: Load) -> LoadResult:
    result = LoadResult(load.clients, load.seconds, 0, 0)
    limits = httpx.Limits(max_connections=load.clients, max_keepalive_connections=load.clients)
    async with httpx.AsyncClient(timeout=120, trust_env=False, limits=limits) as http:
        start = time.perf_counter()
        await asyncio.gather(*(_client(load, http, n, start, result) for n in range(load.clients)))
    return result


def _load_main(load: Load, results: Queue[LoadResult]) -> None:
    results.put(asyncio.run(_load(load)))


def run_load(load: Load) -> LoadResult:
    """The load, from a child process (so the clients' CPU is not this process's interpreter lock)."""
    context = multiprocessing.get_context("spawn")
    results: Queue[LoadResult] = context.Queue()
    process = context.Process(target=_load_main, args=(load, results), daemon=True)
    process.start()
    result = results.get(timeout=load.warmup + load.seconds + 300)
    process.join(30)
    return result


# -- homes and servers ---------------------------------------------------------------------


def build_template(root: Path, count: int) -> Path:
    """A closed home with `count` memories in `bench` (and the int8 model, built once)."""
    home = root / "template"
    texts = distinct(_fact, count, seed=1)
    start = time.perf_counter()
    with Memoir.open(home, worker_enabled=False, **SETTINGS) as memoir:
        for i in range(0, count, 500):
            memoir.remember_many([{"text": t, "conversation_id": CONVERSATION} for t in texts[i : i + 500]])
        assert len(memoir.memories(CONVERSATION)) == count
    print(f"template home: {count:,} memories written in {time.perf_counter() - start:.1f} s (remember_many)")
    return home


@contextmanager
def served(template: Path, upstream_url: str, *, workers: bool) -> Iterator[tuple[Memoir, str]]:
    """A copy of the template served over HTTP: (the server's Memoir, the base URL)."""
    with tempfile.TemporaryDirectory(dir=template.parent) as scratch:
        home = Path(scratch) / "home"
        shutil.copytree(template, home)
        options: dict[str, Any] = {
            **SETTINGS,
            "worker_enabled": workers,
            "proxy_upstream_url": upstream_url,
            "llm_model": None,
        }
        with Memoir.open(home, **options) as memoir, serving(memoir) as where:
            memoir.search("warm up: load the model and the vectors", conversation_id=CONVERSATION)
            yield memoir, where.url


@contextmanager
def worker_process(home: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMOIR_")} | ENV
    command = [sys.executable, "-m", "memoir", "--home", str(home), "worker"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield process
    finally:
        process.terminate()
        process.wait(30)


# -- 1. latency ----------------------------------------------------------------------------


def _timed(client: httpx.Client, url: str, text: str, stream: bool) -> float:
    """Seconds to the full answer, or to the first `data:` line of a stream (read to its end after)."""
    body = chat(text, stream)
    start = time.perf_counter()
    if not stream:
        answer = client.post(url, json=body, headers=HEADERS)
        elapsed = time.perf_counter() - start
        assert answer.status_code == 200, answer.text
        return elapsed
    elapsed = 0.0
    with client.stream("POST", url, json=body, headers=HEADERS) as answer:
        assert answer.status_code == 200
        for line in answer.iter_lines():
            if line.startswith("data:") and not elapsed:
                elapsed = time.perf_counter() - start
    return elapsed


def latency(template: Path, upstream_url: str, requests: int) -> dict[str, Any]:
    texts = iter(distinct(_question, 4 * (requests + WARMUP_REQUESTS) + 1, seed=2))
    results: dict[str, Any] = {}
    with served(template, upstream_url, workers=True) as (memoir, base), httpx.Client(trust_env=False) as client:
        injected = memoir.inject(chat(next(texts))["messages"], conversation_id=CONVERSATION).context
        print(f"injection check: {len(injected.hits)} hits, {injected.tokens} tokens put before the message")
        urls = {"direct": upstream_url + "/chat/completions", "proxy": base + "/v1/chat/completions"}
        for stream in (False, True):
            samples: dict[str, list[float]] = {"direct": [], "proxy": []}
            for i in range(WARMUP_REQUESTS + requests):
                for name in ("direct", "proxy") if i % 2 else ("proxy", "direct"):
                    elapsed = _timed(client, urls[name], next(texts), stream)
                    if i >= WARMUP_REQUESTS:
                        samples[name].append(elapsed)
            results["streaming" if stream else "non-streaming"] = samples
    return results


def print_latency(results: dict[str, Any], requests: int, memories: int) -> float:
    print(f"\n1. latency the proxy adds: {requests} sequential requests each, {memories:,} memories, MiniLM")
    print(f"{'mode':<28} {'direct p50':>10} {'p95':>7} {'proxy p50':>10} {'p95':>7} {'added p50':>10} {'p95':>7}")
    added = {}
    for mode, samples in results.items():
        d50, d95 = percentiles(samples["direct"])
        p50, p95 = percentiles(samples["proxy"])
        label = f"{mode} ({'first chunk' if mode == 'streaming' else 'full answer'})"
        print(f"{label:<28} {d50:>10.2f} {d95:>7.2f} {p50:>10.2f} {p95:>7.2f} {p50 - d50:>10.2f} {p95 - d95:>7.2f}")
        added[mode] = p50 - d50
    print("(ms; added = proxy percentile - direct percentile)")
    return max(added.values())


# -- 2. throughput -------------------------------------------------------------------------


def print_load(label: str, result: LoadResult, base: float | None = None) -> None:
    p50, p95 = percentiles(result.latencies) if result.latencies else (0.0, 0.0)
    ratio = f"{result.rate / base:>7.2f}x" if base else f"{'':>8}"
    print(f"{label:<28} {result.clients:>7} {result.rate:>8.1f} {ratio} {p50:>8.1f} {p95:>8.1f} {result.errors:>6}")


def throughput(template: Path, upstream_url: str, clients: list[int], seconds: float) -> float:
    questions = distinct(_question, 4000, seed=3)
    print(f"\n2. throughput, non-streaming, {seconds:.0f} s per row after {WARMUP_SECONDS:.0f} s warm-up, 2 cores")
    print(f"{'target':<28} {'clients':>7} {'req/s':>8} {'vs direct':>8} {'p50 ms':>8} {'p95 ms':>8} {'errors':>6}")
    best = 0.0
    with served(template, upstream_url, workers=False) as (_, base):
        for n in clients:
            direct = run_load(Load(upstream_url, n, min(seconds, 5.0), questions))
            print_load("upstream direct", direct)
            proxied = run_load(Load(base + "/v1", n, seconds, questions))
            print_load("proxy with injection", proxied, direct.rate)
            best = max(best, proxied.rate)
    print("(workers off in the server: the proxy's own cost; 'vs direct' is proxy req/s / direct req/s)")
    return best


# -- 3. REST search ------------------------------------------------------------------------


def _forget_recent(memoir: Memoir) -> None:
    """Empty the embedder's cache of its last texts, so each call embeds its query."""
    recent = getattr(memoir._parts.embedder.inner, "_recent", None)
    if recent is not None:
        recent.clear()


def rest(template: Path, upstream_url: str, requests: int) -> dict[str, list[float]]:
    queries = distinct(_question, requests + WARMUP_REQUESTS, seed=4)
    samples: dict[str, list[float]] = {"in-process": [], "REST": []}
    with served(template, upstream_url, workers=True) as (memoir, base), httpx.Client(trust_env=False) as client:
        for i, query in enumerate(queries):
            for name in ("in-process", "REST") if i % 2 else ("REST", "in-process"):
                _forget_recent(memoir)
                start = time.perf_counter()
                if name == "REST":
                    body = {"query": query, "conversation_id": CONVERSATION, "k": 10}
                    answer = client.post(base + "/api/v1/search", json=body)
                    assert answer.status_code == 200, answer.text
                    assert answer.json()["hits"]
                else:
                    assert memoir.search(query, conversation_id=CONVERSATION, k=10)
                if i >= WARMUP_REQUESTS:
                    samples[name].append(time.perf_counter() - start)
    return samples


def print_rest(samples: dict[str, list[float]], memories: int) -> None:
    count = len(samples["REST"])
    print(f"\n3. search, k = 10, {count} queries each, {memories:,} memories, MiniLM, alternately")
    print(f"{'call':<34} {'p50 ms':>8} {'p95 ms':>8} {'p50 ratio':>10}")
    base, _ = percentiles(samples["in-process"])
    for name, label in (("in-process", "Memoir.search, in-process"), ("REST", "POST /api/v1/search (httpx)")):
        p50, p95 = percentiles(samples[name])
        print(f"{label:<34} {p50:>8.2f} {p95:>8.2f} {p50 / base:>9.2f}x")


# -- 4. worker placement -------------------------------------------------------------------


@dataclass
class Placement:
    name: str
    result: LoadResult
    backlog: int
    drain: float


def _drain(memoir: Memoir, placement: str) -> float:
    start = time.perf_counter()
    if placement == "off":
        memoir.flush(600)
    while memoir.pending():
        time.sleep(0.05)
    return time.perf_counter() - start


def placement(template: Path, upstream_url: str, name: str, clients: int, seconds: float) -> Placement:
    messages = distinct(_statement, 4000, seed=5)
    with (
        served(template, upstream_url, workers=name == "thread") as (memoir, base),
        worker_process(memoir.home) if name == "process" else nullcontext(),
    ):
        result = run_load(Load(base + "/v1", clients, seconds, messages))
        backlog = memoir.pending()
        drain = _drain(memoir, name)
    return Placement(name, result, backlog, drain)


def workers(template: Path, upstream_url: str, clients: list[int], seconds: float) -> list[Placement]:
    found = []
    for n in clients:
        for name in ("off", "thread", "process"):
            found.append(placement(template, upstream_url, name, n, seconds))
    return found


def print_workers(found: list[Placement], seconds: float) -> None:
    print(f"\n4. worker placement: {seconds:.0f} s of fact-stating turns through the proxy, then the backlog drained")
    head = f"{'workers':<26} {'clients':>7} {'req/s':>8} {'vs thread':>9} {'p50 ms':>8} {'p95 ms':>8}"
    print(f"{head} {'p95 vs thr':>10} {'backlog':>8} {'drain s':>8}")
    labels = {"off": "off (none running)", "thread": "thread (in the server)", "process": "process (memoir worker)"}
    for item in found:
        thread = next(p for p in found if p.name == "thread" and p.result.clients == item.result.clients)
        r, t = item.result, thread.result
        p50, p95 = percentiles(r.latencies)
        t95 = percentiles(t.latencies)[1]
        print(
            f"{labels[item.name]:<26} {r.clients:>7} {r.rate:>8.1f} {r.rate / t.rate:>8.2f}x {p50:>8.1f} {p95:>8.1f}"
            f" {p95 / t95:>9.2f}x {item.backlog:>8} {item.drain:>8.1f}"
        )
    print("(backlog: events still to index or extract when the load stopped; off: drained by flush() afterwards)")


# -- main ----------------------------------------------------------------------------------


def verdict(met: bool) -> str:
    return "met" if met else "NOT MET"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=["latency", "throughput", "rest", "workers", "all"], default="all")
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=300, help="sequential requests per case (parts 1 and 3)")
    parser.add_argument("--seconds", type=float, default=20.0, help="load duration per row (parts 2 and 4)")
    parser.add_argument("--clients", type=int, nargs="+", default=[8, 32], help="concurrent clients (parts 2, 4)")
    parser.add_argument("--worker-clients", type=int, nargs="+", default=[8], help="concurrent clients (part 4)")
    args = parser.parse_args(argv)
    parts = ["latency", "throughput", "rest", "workers"] if args.part == "all" else [args.part]
    summary = []
    with tempfile.TemporaryDirectory(prefix="memoir-bench-proxy-") as root, upstream() as upstream_url:
        template = build_template(Path(root), args.memories)
        if "latency" in parts:
            added = print_latency(latency(template, upstream_url, args.requests), args.requests, args.memories)
            met = verdict(added <= TARGET_ADDED_MS)
            summary.append(f"added latency p50 <= {TARGET_ADDED_MS:.0f} ms (worse mode: {added:.1f} ms): {met}")
        if "throughput" in parts:
            best = throughput(template, upstream_url, args.clients, args.seconds)
            met = verdict(best >= TARGET_RPS)
            summary.append(f"throughput >= {TARGET_RPS:.0f} req/s, workers off (best: {best:.1f}): {met}")
        if "rest" in parts:
            print_rest(rest(template, upstream_url, args.requests), args.memories)
        if "workers" in parts:
            found = workers(template, upstream_url, args.worker_clients, args.seconds)
            print_workers(found, args.seconds)
            summary.extend(placement_choice(found))
    print("\nsummary")
    for line in summary:
        print(f"  {line}")
    return 0


def placement_choice(found: list[Placement]) -> list[str]:
    """The default setup's figure against the target, and the placement the figures choose."""
    by_name = {name: [p for p in found if p.name == name] for name in ("thread", "process")}
    rates = {name: statistics.fmean(p.result.rate for p in items) for name, items in by_name.items()}
    p95s = {
        name: statistics.fmean(percentiles(p.result.latencies)[1] for p in items) for name, items in by_name.items()
    }
    drains = {name: statistics.fmean(p.drain for p in items) for name, items in by_name.items()}
    best = max(rates, key=lambda name: rates[name])
    figures = ", ".join(f"{n}: {rates[n]:.1f} req/s, p95 {p95s[n]:.0f} ms, drain {drains[n]:.1f} s" for n in rates)
    return [
        f"throughput >= {TARGET_RPS:.0f} req/s with the workers busy in the server (memoir serve's default):"
        f" {rates['thread']:.1f}: {verdict(rates['thread'] >= TARGET_RPS)}",
        f"worker placement by the figures: {best} ({figures})",
    ]


if __name__ == "__main__":
    raise SystemExit(main())
