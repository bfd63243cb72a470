"""History compression on LoCoMo: compression ratio, time, and evidence kept at 4,000 tokens.

Each dev conversation (`shared/data/locomo-dev.json`) becomes one chat history: a system
prompt, then every turn as a message (the first speaker as `user`, the second as
`assistant`, "Name: text", a shared photo's caption appended), stamped with its session's
date and carrying its `dia_id` as `event_id`, so a summary's grips name the turns they
quote. For `whole_history_multiple_system_messages` each session opens with a system
message naming its date (the blocks it summarizes one by one); the other strategies see
no such messages. `from_timestamp` cuts at the session holding the conversation's 3/4 mark.

1. Ratio and time: `manage(messages, HistoryParams(strategy))`, no limit. Ratio = tokens
   before / after. Time: the median of `--repeats` runs with on-demand token counts (every
   message tokenized) and with the cache warm (a conversation managed again next turn).
2. Evidence kept at 4,000 tokens: `max_tokens=4000` with each strategy, and trimming alone
   (no strategy) as the baseline. For every question of categories 1-4, the share of its
   evidence turns still there: verbatim, or quoted in a summary (a grip naming the turn).
   Averaged over a conversation's questions.
3. The same with summaries from a model: a scripted OpenAI-compatible server on 127.0.0.1
   answers each TL;DR request at once with the five sections, filled with the first words
   of the transcript it was sent, cut to the length asked. A TL;DR is a paraphrase and
   carries no grips, so only turns kept verbatim count as evidence kept; the turns a TL;DR
   stands for are shown apart ("in a TL;DR"), as an upper bound of what it could carry.

Every figure is the median over the conversations.

    python bench/history.py [--data PATH] [--json out.json] [--conversations N] [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memoir.history import (
    TLDR_SECTIONS,
    Chunked,
    FromLastNMessages,
    FromTimestamp,
    HistoryParams,
    Managed,
    Strategy,
    WholeHistory,
    WholeHistoryMultipleSystemMessages,
    count_tokens,
    manage,
)
from memoir.llm import LLM, ChatClient
from memoir.model.chat import Message
from retrieval import CATEGORIES, DEFAULT_DATA, evidence_of, locomo_events

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from scripted_server import chat_reply, scripted_server

BUDGET = 4000
SYSTEM = "You are a friendly assistant. Carry on the conversation below as its second speaker."


# -- the histories -----------------------------------------------------------------------------


def history(sample: dict[str, Any], sessions: bool) -> list[Message]:
    """The conversation as chat messages; `sessions`: a system message opens each session."""
    messages = [Message("system", SYSTEM)]
    last_session = None
    for event in locomo_events(sample):
        when = datetime.fromtimestamp(event["timestamp"] / 1000, UTC)
        if sessions and event["session_id"] != last_session:
            messages.append(Message("system", f"A new session starts on {when:%d %B %Y, %H:%M}.", timestamp=when))
        last_session = event["session_id"]
        role = "user" if event["event_type"] == "user_message" else "assistant"
        content = f"{event['metadata']['speaker']}: {event['text']}"
        messages.append(Message(role, content, timestamp=when, event_id=event["metadata"]["dia_id"]))
    return messages


def strategies(messages: list[Message]) -> dict[str, Strategy]:
    return {
        "whole_history": WholeHistory(),
        "from_last_n_messages:20": FromLastNMessages(20),
        "chunked:40": Chunked(40),
        "from_timestamp (3/4)": FromTimestamp(session_start(messages, len(messages) * 3 // 4)),
        "multiple_system (sessions)": WholeHistoryMultipleSystemMessages(),
    }


def session_start(messages: list[Message], index: int) -> datetime:
    """When the session holding message `index` starts (turns are 30 s apart, sessions days)."""
    while index > 1 and _gap(messages[index - 1], messages[index]) < 3600:
        index -= 1
    stamp = messages[index].timestamp
    assert stamp is not None
    return stamp


def _gap(before: Message, after: Message) -> float:
    assert before.timestamp is not None
    assert after.timestamp is not None
    return (after.timestamp - before.timestamp).total_seconds()


def questions(sample: dict[str, Any]) -> list[set[str]]:
    said = {e["metadata"]["dia_id"] for e in locomo_events(sample)}
    found = [evidence_of(qa) & said for qa in sample["qa"] if qa.get("category") in CATEGORIES]
    return [gold for gold in found if gold]


# -- the measures ------------------------------------------------------------------------------


def evidence(managed: Managed, given: list[Message], gold: list[set[str]], grips: bool = True) -> float:
    """Mean share of each question's evidence turns still there (verbatim, or through a grip)."""
    there = {given[i].event_id for i in managed.report.kept}
    if grips:
        there |= {event for grip in managed.report.grips for event in grip.event_ids}
    return statistics.mean(len(g & there) / len(g) for g in gold)


def in_summaries(managed: Managed, given: list[Message], gold: list[set[str]]) -> float:
    stood_for = {given[i].event_id for s in managed.report.summaries for i in s.covers}
    return statistics.mean(len(g & stood_for) / len(g) for g in gold)


def timed(run: Callable[[], Managed], repeats: int) -> tuple[Managed, float]:
    times, managed = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        managed = run()
        times.append(time.perf_counter() - start)
    assert managed is not None
    return managed, statistics.median(times) * 1000


def managing(given: list[Message], params: HistoryParams) -> Callable[[], Managed]:
    return lambda: manage(given, params)


def scripted_tldr(body: dict[str, Any]) -> tuple[int, Any]:
    """A TL;DR as a small model writes it: the five sections, the transcript's first words, the length asked."""
    asked = body["messages"][-1]["content"]
    words = int(m.group(1)) if (m := re.search(r"at most (\d+) words", asked)) else 200
    said = re.sub(r"^\[\d+\] \w+: ", "", asked.split("\n\nWrite a TL;DR")[0], flags=re.MULTILINE).split()
    share = max(1, (words - 10) // len(TLDR_SECTIONS))
    parts = [f"## {section}\n{' '.join(said[n * share : (n + 1) * share])}" for n, section in enumerate(TLDR_SECTIONS)]
    return 200, chat_reply("\n".join(parts))


def measure(sample: dict[str, Any], repeats: int, llm: LLM) -> dict[str, dict[str, float]]:
    plain, sessions = history(sample, False), history(sample, True)
    gold = questions(sample)
    rows: dict[str, dict[str, float]] = {}
    trimmed = manage(plain, HistoryParams(max_tokens=BUDGET))
    kept = evidence(trimmed, plain, gold)
    rows["trim only (no strategy)"] = {"at_budget": trimmed.report.tokens_after, "evidence": kept, "verbatim": kept}
    for name, strategy in strategies(plain).items():
        given = sessions if "multiple_system" in name else plain
        cold, cold_ms = timed(managing(given, HistoryParams(strategy, enable_token_caching=False)), repeats)
        _, warm_ms = timed(managing(given, HistoryParams(strategy)), repeats)
        fitted = manage(given, HistoryParams(strategy, max_tokens=BUDGET))
        by_model = manage(given, HistoryParams(strategy, max_tokens=BUDGET), llm=llm, fallback=False)
        rows[name] = {
            "tokens_before": cold.report.tokens_before,
            "ratio": cold.report.tokens_before / cold.report.tokens_after,
            "cold_ms": cold_ms,
            "warm_ms": warm_ms,
            "at_budget": fitted.report.tokens_after,
            "evidence": evidence(fitted, given, gold),
            "verbatim": evidence(fitted, given, gold, grips=False),
            "evidence_llm": evidence(by_model, given, gold, grips=False),
            "in_tldr": in_summaries(by_model, given, gold),
        }
    return rows


# -- the report --------------------------------------------------------------------------------


def median(rows: list[dict[str, dict[str, float]]], name: str, key: str) -> float:
    values = [r[name][key] for r in rows if key in r[name]]
    return statistics.median(values) if values else float("nan")


def shown(value: float, width: int, digits: int) -> str:
    return f"{'-':>{width}}" if value != value else f"{value:>{width}.{digits}f}"  # NaN: not measured


def report(rows: list[dict[str, dict[str, float]]]) -> None:
    print(f"\n1. compression without a limit (extractive), and 2-3. evidence kept at {BUDGET:,} tokens")
    print(
        f"{'strategy':<28} {'ratio':>6} {'ms cold':>8} {'ms warm':>8} | {'tokens':>6} {'evidence':>8} "
        f"{'verbatim':>8} | {'LLM: kept':>9} {'in a TL;DR':>10}"
    )
    for name in rows[0]:
        figures = [
            shown(median(rows, name, key), width, digits)
            for key, width, digits in [
                ("ratio", 6, 1), ("cold_ms", 8, 0), ("warm_ms", 8, 0), ("at_budget", 6, 0), ("evidence", 8, 3),
                ("verbatim", 8, 3), ("evidence_llm", 9, 3), ("in_tldr", 10, 3),
            ]
        ]  # fmt: skip
        print(f"{name:<28} {' '.join(figures[:3])} | {' '.join(figures[3:6])} | {' '.join(figures[6:])}")
    print(
        "ratio: tokens before / after, no limit. ms cold: token counts on demand; warm: the cache holds them.\n"
        "evidence: share of a question's evidence turns kept verbatim or quoted through a grip; verbatim: kept\n"
        "word for word only. LLM: TL;DRs from the scripted server; 'kept' counts verbatim turns only (a TL;DR\n"
        "carries no grips), 'in a TL;DR': turns a TL;DR stands for (an upper bound of what it could carry)."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    parser.add_argument("--conversations", type=int, default=5, help="how many conversations (of 5)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per timing (median)")
    args = parser.parse_args(argv)
    data = json.loads(args.data.read_text())[: args.conversations]
    started = time.perf_counter()
    count_tokens("load the tokenizer before the clock runs")
    rows = []
    with scripted_server({"/v1/chat/completions": scripted_tldr}) as server:
        client = ChatClient(base_url=server.url + "/v1", model="scripted", retries=0, timeout=30)
        for sample in data:
            rows.append(measure(sample, args.repeats, LLM(client)))
            tokens = rows[-1]["whole_history"]["tokens_before"]
            print(f"{sample['sample_id']}: {tokens:.0f} tokens, {len(questions(sample))} questions")
        client.close()
    report(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    print(f"\nwall time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
