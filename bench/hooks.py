"""Coding-agent hooks (issue 12): hook latency, command and http forms, and injection latency.

A project home holds `--memories` (10,000) typed memories (gotchas, decisions, learnings
in equal parts) about `--modules` (500) source files, `src/<module>.py`, in the project's
scope, written with `Memoir.remember_many` and the default embedder (bundled int8 MiniLM).
The project's `.claude/memory.local.md` turns decisions and learnings on, so injection
considers all three types. Every call is a PostToolUse for a Read of one of those files
(a new session id per call, so session dedup never empties the answer).

1. command, no server   `python -m memoir hook PostToolUse` as a new process per call,
                        with `hooks.server_url` pointing at a closed port: the call is
                        spooled. Wall time from spawn to exit. Target: p95 <= 100 ms.
2. command, server      the same with `memoir.server.serving` running on the home: the
                        call is handed over, stored and answered with injected memories.
3. http                 `POST /hooks/claude` with one `httpx.Client` (what Claude Code's
                        `http` hook type does), same server. Target: p95 <= 20 ms.
4. injection            `handler.handle` in-process minus its capture: the search over
                        10,000 memories, selection and formatting. Target: p95 <= 50 ms.

    python bench/hooks.py                      # about 2 minutes on 2 cores
    python bench/hooks.py --memories 2000 --calls 50
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from memoir import Memoir
from memoir.hooks.capture import parse_call
from memoir.hooks.handler import context_for, handle
from memoir.model.project import project_scope
from memoir.model.secrets import Masker
from memoir.server import serving

TOPICS = (
    "rounds totals with floats and loses cents",
    "must close the database cursor before returning",
    "retries the payment call without an idempotency key",
    "reads the config once at import time",
    "uses UTC everywhere; local times are a bug",
    "keeps the cache warm by a background thread",
    "parses dates with dateutil, which guesses formats",
    "depends on the order of dictionary keys in the API answer",
)
KINDS = ("gotcha", "decision", "learning")
CONFIG = """---
injection:
  types:
    decision: {enabled: true}
    learning: {enabled: true}
---
"""


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def build(root: Path, memories: int, modules: int) -> tuple[Path, Path]:
    project = root / "shop"
    (project / ".git").mkdir(parents=True)
    (project / ".claude").mkdir()
    (project / ".claude" / "memory.local.md").write_text(CONFIG)
    home = root / "home"
    scope = project_scope(project)
    rng = random.Random(7)
    drafts = [
        {
            "text": f"src/mod{i % modules}.py {rng.choice(TOPICS)} (note {i})",
            "kind": KINDS[i % 3],
            "conversation_id": scope,
        }
        for i in range(memories)
    ]
    start = time.perf_counter()
    with Memoir.open(home, worker_enabled=False, embedding_provider="local") as memoir:
        for i in range(0, memories, 500):
            memoir.remember_many(drafts[i : i + 500])
    print(f"home: {memories:,} typed memories about {modules} files in {time.perf_counter() - start:.1f} s")
    return home, project


def call(project: Path, number: int, modules: int) -> dict[str, Any]:
    return {
        "session_id": f"bench-{number}",
        "transcript_path": str(project / "t.jsonl"),
        "cwd": str(project),
        "hook_event_name": "PostToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": str(project / "src" / f"mod{number % modules}.py")},
        "tool_response": {"content": "def f():\n    return 1\n"},
        "tool_use_id": f"toolu_{number}",
    }


def command_form(home: Path, project: Path, calls: int, modules: int, server_url: str) -> tuple[list[float], int]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMOIR_")}
    env["MEMOIR_HOOKS_SERVER_URL"] = server_url
    # The "no server" form measures the spool: a hook that starts a server (hooks.autostart)
    # would hand the next calls to it, and its start would compete for the CPU.
    env["MEMOIR_HOOKS_AUTOSTART"] = "false"
    samples, injected = [], 0
    for number in range(calls + 5):
        body = json.dumps(call(project, number, modules))
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "memoir", "--home", str(home), "hook", "PostToolUse"],
            input=body,
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        elapsed = (time.perf_counter() - start) * 1000
        if number >= 5:  # the first few warm the file cache
            samples.append(elapsed)
            injected += "hookSpecificOutput" in json.loads(done.stdout)
    return samples, injected


def http_form(url: str, project: Path, calls: int, modules: int) -> tuple[list[float], int]:
    samples, injected = [], 0
    with httpx.Client(base_url=url, trust_env=False) as http:
        for number in range(calls + 5):
            start = time.perf_counter()
            answer = http.post("/hooks/claude", json=call(project, 100_000 + number, modules))
            elapsed = (time.perf_counter() - start) * 1000
            if number >= 5:
                samples.append(elapsed)
                injected += "hookSpecificOutput" in answer.json()
    return samples, injected


def injection(memoir: Memoir, project: Path, calls: int, modules: int) -> list[float]:
    masker = Masker()
    samples = []
    for number in range(calls + 5):
        hook_call = parse_call("claude", call(project, 200_000 + number, modules))
        start = time.perf_counter()
        context_for(memoir, hook_call, masker)
        if number >= 5:
            samples.append((time.perf_counter() - start) * 1000)
    handle(memoir, parse_call("claude", call(project, 0, modules)), masker)  # the whole path works too
    return samples


def row(label: str, samples: list[float], target: float | None, note: str = "") -> bool:
    p50, p95 = percentiles(samples)
    met = target is None or p95 <= target
    verdict = "" if target is None else f"  p95 <= {target:.0f} ms: {'met' if met else 'NOT MET'}"
    print(f"{label:<34} {len(samples):>5} {p50:>8.1f} {p95:>8.1f}{verdict}{note}")
    return met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--modules", type=int, default=500)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="memoir-bench-hooks-") as scratch:
        home, project = build(Path(scratch), args.memories, args.modules)
        print(f"\n{'form':<34} {'calls':>5} {'p50 ms':>8} {'p95 ms':>8}")
        spooled, _ = command_form(home, project, args.calls, args.modules, "http://127.0.0.1:9")
        row("command, no server (spooled)", spooled, 100.0)
        with Memoir.open(home, embedding_provider="local") as memoir, serving(memoir) as where:
            memoir.search("warm up", conversation_id=project_scope(project))
            handed, injected = command_form(home, project, args.calls, args.modules, where.url)
            row("command, server (handed over)", handed, None, f"  ({injected} answers carried memories)")
            http, injected = http_form(where.url, project, args.calls, args.modules)
            row("http (POST /hooks/claude)", http, 20.0, f"  ({injected} answers carried memories)")
            inject = injection(memoir, project, args.calls, args.modules)
            row("injection (search, select, format)", inject, 50.0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
