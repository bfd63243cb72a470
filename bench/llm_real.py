"""The write path against a real OpenAI-compatible model (issue 9's benchmark; not part of `make test`).

Runs three sessions through `memoir ingest` as a user would (the README's Jane -> Anne
correction, unrelated facts, the example conversation), drains the llm lane, and prints
LLM calls per user turn, seconds per call, answers rejected by memoir's checks, and facts
right / wrong / missing against the facts written below.

A real model (the kind people run on a laptop):

    ollama serve & ollama pull qwen2.5:0.5b
    python bench/llm_real.py --base-url http://127.0.0.1:11434/v1 --model qwen2.5:0.5b

    # or llama.cpp's server with a small GGUF model:
    llama-server -m qwen2.5-coder-0.5b-instruct-q4_k_m.gguf --port 8080
    python bench/llm_real.py --base-url http://127.0.0.1:8080/v1 --model qwen

`--replay` serves the answers a real Qwen2.5 Coder 0.5B gave to memoir's prompts
(a copy of ../shared/data/llm-replays in tests/data) from a scripted server on 127.0.0.1: no model needed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.replays import Replayer  # noqa: E402
from tests.scripted_server import scripted_server  # noqa: E402

from memoir import Memoir  # noqa: E402


def _example_turns() -> list[str]:
    events = [json.loads(line) for line in (ROOT / "examples" / "conversation.jsonl").read_text().splitlines() if line]
    return [e["text"] for e in events if e.get("event_type") == "user_message"]


# Each session: its user turns, the facts a good memory keeps (each as words a live memory must
# all hold), and other true facts a model may keep too (not counted as wrong).
SESSIONS: dict[str, tuple[list[str], list[set[str]], list[set[str]]]] = {
    "jane-anne": (["My wife is Jane.", "Sorry, I misspoke: my wife is Anne."], [{"wife", "anne"}], []),
    "unrelated": (
        [
            "I live in Porto.",
            "My favourite colour is green.",
            "My cat Zanzibar sleeps on the piano.",
            "Quick check: what backend language did we pick?",
        ],
        [{"porto"}, {"colour", "green"}, {"zanzibar", "piano"}],
        [],
    ),
    "example": (
        _example_turns(),
        [{"lighthouse"}, {"peanuts"}, {"mia"}, {"go"}, {"postgresql"}, {"kotlin"}],
        [{"sam"}, {"mapbox"}, {"aquarium"}, {"otters"}, {"lisbon"}, {"utc"}, {"noaa"}],
    ),
}


def words_of(fact: str) -> set[str]:
    """Lower-case words, "Mia's" counted as "mia"."""
    return set(re.findall(r"[a-z0-9]+", fact.lower().replace("'s ", " ").replace("’s ", " ")))


def run_session(
    name: str, turns: list[str], expected: list[set[str]], also_true: list[set[str]], options: dict[str, Any]
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as home, Memoir.open(home, worker_enabled=False, **options) as memoir:
        memoir.ingest(
            [{"session_id": name, "event_type": "user_message", "text": t, "conversation_id": name} for t in turns]
        )
        memoir.flush()
        live = [m.content for m in memoir.memories(name)]
        usage = memoir.status().llm_usage.get("extract_facts", {"calls": 0, "tokens": 0})
        outcomes = (
            memoir._parts.store.connection()
            .execute("SELECT outcome, count(*), avg(duration_ms) FROM llm_calls GROUP BY outcome")
            .fetchall()
        )
    words = [words_of(fact) for fact in live]
    right = [want for want in expected if any(want <= have for have in words)]
    true = expected + also_true
    wrong = [fact for fact, have in zip(live, words, strict=True) if not any(want <= have for want in true)]
    seconds = sum(avg * n for _, n, avg in outcomes) / max(1, sum(n for _, n, _ in outcomes)) / 1000
    return {
        "session": name,
        "turns": len(turns),
        "calls": usage["calls"],
        "calls_per_turn": usage["calls"] / len(turns),
        "seconds_per_call": seconds,
        "rejected": sum(n for outcome, n, _ in outcomes if outcome == "rejected"),
        "right": len(right),
        "missing": len(expected) - len(right),
        "wrong": len(wrong),
        "live": live,
    }


def report(results: list[dict[str, Any]]) -> None:
    head = ("turns", 5), ("calls/turn", 10), ("s/call", 7), ("rejected", 8), ("right", 5), ("wrong", 5), ("missing", 7)
    print(f"{'session':<11} " + " ".join(f"{name:>{width}}" for name, width in head))
    for r in results:
        print(
            f"{r['session']:<11} {r['turns']:>5} {r['calls_per_turn']:>10.2f} {r['seconds_per_call']:>7.2f}"
            f" {r['rejected']:>8} {r['right']:>5} {r['wrong']:>5} {r['missing']:>7}"
        )
    for r in results:
        print(f"\n{r['session']}: " + "; ".join(r["live"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", help="an OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1")
    parser.add_argument("--model", help="the chat model it serves")
    parser.add_argument("--replay", action="store_true", help="serve the recorded answers of a real small model")
    args = parser.parse_args()
    base = {"embedding_provider": "hashing", "llm_retries": 0}
    if args.replay:
        with scripted_server({"/v1/chat/completions": Replayer()}) as server:
            options = {**base, "llm_model": "qwen2.5-coder-0.5b (replayed)", "llm_base_url": server.url + "/v1"}
            report([run_session(name, *session, options) for name, session in SESSIONS.items()])
        return
    if not (args.base_url and args.model):
        print("no model given: see the top of this file for how to run one (or use --replay)")
        return
    options = {**base, "llm_model": args.model, "llm_base_url": args.base_url}
    report([run_session(name, *session, options) for name, session in SESSIONS.items()])


if __name__ == "__main__":
    main()
