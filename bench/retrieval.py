"""Retrieval quality on LoCoMo (issue 3's benchmark): recall of evidence turns.

Ingests every turn of the dev conversations (`shared/data/locomo-dev.json`) as an
event (`dia_id` and the speaker in metadata; a shared photo's caption appended to the
turn as `[shares a photo: …]`), asks every question of categories 1-4 scoped to its
conversation, and prints recall@5, recall@10 and hit@10 of the evidence turns, overall
and per category, search latency p50/p95, and the same figures for a BM25-only baseline
(the same FTS5 index, no vectors), a dense-only and a plain-RRF variant, in one run.

A turn counts as retrieved when it is a hit (strict). The `+context` column also counts
the neighbouring turns each hit carries as context (`search.neighbours`), which is what
an agent reading the injected block actually sees.

    python bench/retrieval.py [--data PATH] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memoir import Memoir
from memoir.blas import use_one_blas_thread
from memoir.config import SearchSettings
from memoir.index.keyword import match_expression
from memoir.retrieval import SearchPipeline, search_scope

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo-dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "inferential", 4: "single-hop"}
K = 10


def session_time(text: str) -> datetime:
    """'1:56 pm on 8 May, 2023' -> a UTC datetime."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def locomo_events(sample: dict[str, Any]) -> list[dict[str, Any]]:
    conversation = sample["conversation"]
    speaker_a = conversation["speaker_a"]
    events = []
    sessions = sorted((int(m.group(1)), key) for key in conversation if (m := re.fullmatch(r"session_(\d+)", key)))
    for _number, key in sessions:
        start = session_time(conversation[f"{key}_date_time"])
        for index, turn in enumerate(conversation[key]):
            text = turn["text"]
            if turn.get("blip_caption"):
                text = f"{text} [shares a photo: {turn['blip_caption']}]"
            events.append(
                {
                    "session_id": f"{sample['sample_id']}:{key}",
                    "conversation_id": sample["sample_id"],
                    "timestamp": int(start.timestamp() * 1000) + index * 30_000,
                    "event_type": "user_message" if turn["speaker"] == speaker_a else "assistant_message",
                    "text": text,
                    "metadata": {"dia_id": turn["dia_id"], "speaker": turn["speaker"]},
                }
            )
    return events


def evidence_of(qa: dict[str, Any]) -> set[str]:
    ids: set[str] = set()
    for item in qa.get("evidence", []):
        ids.update(part.strip() for part in re.split(r"[;,]", str(item)) if re.fullmatch(r"D\d+:\d+", part.strip()))
    return ids


class Scores:
    def __init__(self) -> None:
        self.rows: list[tuple[int, float, float, float, float]] = []
        self.latencies: list[float] = []

    def add(self, category: int, gold: set[str], ranked: list[str], context: set[str], seconds: float) -> None:
        top5, top10 = set(ranked[:5]), set(ranked[:K])
        self.rows.append(
            (
                category,
                len(gold & top5) / len(gold),
                len(gold & top10) / len(gold),
                float(bool(gold & top10)),
                len(gold & (top10 | context)) / len(gold),
            )
        )
        self.latencies.append(seconds)

    def summary(self) -> dict[str, Any]:
        def mean(rows: list[tuple[int, float, float, float, float]], column: int) -> float:
            return statistics.fmean(r[column] for r in rows) if rows else 0.0

        result: dict[str, Any] = {
            "questions": len(self.rows),
            "recall@5": mean(self.rows, 1),
            "recall@10": mean(self.rows, 2),
            "hit@10": mean(self.rows, 3),
            "recall@10+context": mean(self.rows, 4),
            "p50_ms": statistics.median(self.latencies) * 1000,
            "p95_ms": statistics.quantiles(self.latencies, n=20)[18] * 1000,
        }
        for category, name in CATEGORIES.items():
            rows = [r for r in self.rows if r[0] == category]
            result[name] = {
                "n": len(rows),
                "recall@5": mean(rows, 1),
                "recall@10": mean(rows, 2),
                "hit@10": mean(rows, 3),
            }
        return result


def evaluate(data: list[dict[str, Any]], ask: Callable[[str, str], tuple[list[str], set[str]]]) -> dict[str, Any]:
    scores = Scores()
    for sample in data:
        for qa in sample["qa"]:
            gold = evidence_of(qa)
            if qa["category"] not in CATEGORIES or not gold:
                continue
            start = time.perf_counter()
            ranked, context = ask(qa["question"], sample["sample_id"])
            scores.add(qa["category"], gold, ranked, context, time.perf_counter() - start)
    return scores.summary()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args(argv)
    use_one_blas_thread()  # as memoir's own processes do (memoir.blas): no spinning BLAS threads
    data = json.loads(args.data.read_text())

    with tempfile.TemporaryDirectory() as home, Memoir.open(home, worker_enabled=False) as memoir:
        events = [e for sample in data for e in locomo_events(sample)]
        start = time.perf_counter()
        ids = memoir.ingest(events)
        memoir.flush()
        build = time.perf_counter() - start
        dia = {event_id: e["metadata"]["dia_id"] for event_id, e in zip(ids, events, strict=True)}
        print(
            f"indexed {len(events)} turns of {len(data)} conversations in {build:.1f} s "
            f"({len(events) / build:.0f} turns/s, embedding included)"
        )

        parts = memoir._parts  # the benchmark compares the pipeline's stages, below the façade

        def ask_memoir(question: str, conversation: str) -> tuple[list[str], set[str]]:
            hits = memoir.search(question, k=K, conversation_id=conversation, kinds=["turn"])
            context = {dia[e] for h in hits for e in h.context_event_ids}
            return [h.metadata["dia_id"] for h in hits], context

        def ask_bm25(question: str, conversation: str) -> tuple[list[str], set[str]]:
            match = match_expression(question)
            if match is None:
                return [], set()
            scope = search_scope(conversation, ["turn"], None, None, agent_id=None)
            found = parts.store.keyword_search(match, scope, K)
            items = parts.store.index_items([item_id for item_id, _ in found])
            return [items[item_id].metadata["dia_id"] for item_id, _ in found], set()

        plain = sqlite3.connect(":memory:")
        plain.execute("CREATE VIRTUAL TABLE turns USING fts5 (text, conversation UNINDEXED, dia UNINDEXED)")
        plain.executemany(
            "INSERT INTO turns VALUES (?, ?, ?)",
            [(e["text"], e["conversation_id"], e["metadata"]["dia_id"]) for e in events],
        )

        def ask_plain_bm25(question: str, conversation: str) -> tuple[list[str], set[str]]:
            match = match_expression(question)
            if match is None:
                return [], set()
            rows = plain.execute(
                "SELECT dia FROM turns WHERE turns MATCH ? AND conversation = ? ORDER BY bm25(turns) LIMIT ?",
                (match, conversation, K),
            )
            return [row[0] for row in rows], set()

        def ask_variant(parameters: SearchSettings) -> Callable[[str, str], tuple[list[str], set[str]]]:
            base = parts.pipeline
            pipeline = SearchPipeline(base.store, base.embedder, base.vectors, parameters)

            def ask(question: str, conversation: str) -> tuple[list[str], set[str]]:
                scope = search_scope(conversation, ["turn"], None, None, agent_id=None)
                return [h.metadata["dia_id"] for h in pipeline.search(question, scope, K)], set()

            return ask

        memoir.search("warm up the model", k=1, conversation_id=data[0]["sample_id"])
        results = {
            "memoir": evaluate(data, ask_memoir),
            "bm25 plain": evaluate(data, ask_plain_bm25),
            "bm25 memoir": evaluate(data, ask_bm25),
            "dense only": evaluate(
                data, ask_variant(SearchSettings(sources=("vector",), mmr_lambda=1.0, recency_weight=0, neighbours=0))
            ),
            "plain rrf": evaluate(
                data,
                ask_variant(
                    SearchSettings(fusion="rrf", speaker_boost=0, mmr_lambda=1.0, recency_weight=0, neighbours=0)
                ),
            ),
            "no mmr": evaluate(data, ask_variant(SearchSettings(mmr_lambda=1.0, neighbours=0))),
            "seed mmr": evaluate(data, ask_variant(SearchSettings(mmr_floor=0.0, neighbours=0))),
        }
    print(f"\nLoCoMo dev, categories 1-4, {results['memoir']['questions']} questions, evidence turns in the top {K}")
    print(f"{'system':<12} {'R@5':>6} {'R@10':>6} {'hit@10':>7} {'R@10+ctx':>9} {'p50 ms':>7} {'p95 ms':>7}")
    for name, r in results.items():
        print(
            f"{name:<12} {r['recall@5']:>6.3f} {r['recall@10']:>6.3f} {r['hit@10']:>7.3f} "
            f"{r['recall@10+context']:>9.3f} {r['p50_ms']:>7.1f} {r['p95_ms']:>7.1f}"
        )
    print(
        "\nper category, recall@10 (n): "
        + ", ".join(
            f"{name} "
            + " / ".join(f"{results[s][name]['recall@10']:.3f}" for s in ("memoir", "bm25 plain"))
            + f" ({results['memoir'][name]['n']})"
            for name in CATEGORIES.values()
        )
        + "   [memoir / bm25 plain]"
    )
    ratio = results["memoir"]["recall@10"] / results["bm25 plain"]["recall@10"]
    print(f"memoir / plain BM25 recall@10: {ratio:.2f}x; target recall@10 >= 0.75 (BM25 reference 0.53)")
    print_targets(results["memoir"])
    print("bm25 plain: FTS5 over the raw turn text; bm25 memoir: memoir's keyword index alone (speaker,")
    print("stemming, neighbouring turns as extra columns); no mmr / seed mmr: MMR off / MMR counting all similarity")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


# Issue 28's targets (recall@10 on LoCoMo dev; search latency on 2 cores), each printed met or not.
TARGETS = {"overall": 0.83, "multi-hop": 0.65, "temporal": 0.88, "inferential": 0.55, "single-hop": 0.854}
LATENCY_TARGETS = {"p50_ms": 10.0, "p95_ms": 20.0}


def print_targets(memoir: dict[str, Any]) -> None:
    """Each of issue 28's targets beside memoir's figure, met or not (an honest line each)."""
    print("\nissue 28's targets, memoir:")
    for name, target in TARGETS.items():
        figure = memoir["recall@10"] if name == "overall" else memoir[name]["recall@10"]
        verdict = "met" if figure >= target else "NOT MET"
        print(f"  recall@10 {name:<12} {figure:.3f}  target >= {target:.3f}: {verdict}")
    for name, target in LATENCY_TARGETS.items():
        figure = memoir[name]
        verdict = "met" if figure <= target else "NOT MET"
        print(f"  search {name:<15} {figure:5.1f}  target <= {target:.0f} ms: {verdict}")


if __name__ == "__main__":
    sys.exit(main())
