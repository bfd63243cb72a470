"""Each stage of the read pipeline on its own."""

from __future__ import annotations

import math

import numpy as np
import pytest

from memoir.retrieval.context import TYPED_LIMIT, format_context, select_typed
from memoir.retrieval.pipeline import Hit
from memoir.retrieval.stages import (
    Candidate,
    boost_named_speakers,
    mmr,
    recency,
    reciprocal_rank_fusion,
    score_fusion,
    threshold,
    weigh_recency,
)

DAY = 86_400_000


def test_rrf_sums_reciprocal_ranks_across_lists() -> None:
    fused = reciprocal_rank_fusion({"vector": [(1, 0.9), (2, 0.8)], "keyword": [(2, 7.0), (3, 5.0)]}, k=60)
    scores = {c.item_id: c.fused for c in fused}
    assert scores[2] == pytest.approx(1 / 62 + 1 / 61)
    assert scores[1] == pytest.approx(1 / 61) and scores[3] == pytest.approx(1 / 62)
    assert [c.item_id for c in fused] == [2, 1, 3]
    assert fused[0].relevance == 1.0 and fused[0].sources == ["vector", "keyword"]


def test_score_fusion_keeps_margins_and_uses_every_candidates_cosine() -> None:
    rankings = {"keyword": [(1, 10.0), (2, 1.0)], "vector": [(3, 0.8)]}
    fused = score_fusion(rankings, {1: 0.2, 2: 0.1, 3: 0.8}, keyword_weight=0.5)
    by_id = {c.item_id: c for c in fused}
    assert by_id[1].fused == pytest.approx(0.5 + 0.5 * 0.2 / 0.8)
    assert by_id[3].fused == pytest.approx(0.5)
    assert by_id[2].fused == pytest.approx(0.05 + 0.5 * 0.1 / 0.8)
    assert [c.item_id for c in fused] == [1, 3, 2]


def test_a_named_speaker_is_favoured_only_when_exactly_one_is_named() -> None:
    def run(query: str) -> list[int]:
        candidates = [Candidate(1, fused=0.50), Candidate(2, fused=0.45)]
        speakers: dict[int, str | None] = {1: "Melanie", 2: "Caroline"}
        return [c.item_id for c in boost_named_speakers(candidates, speakers, query, 0.1)]

    assert run("What did Caroline research?") == [2, 1]
    assert run("What did Caroline's friend Melanie say?") == [1, 2]
    assert run("What was researched?") == [1, 2]


def test_threshold_drops_what_is_below_it_and_zero_keeps_all() -> None:
    candidates = [Candidate(1, relevance=0.9), Candidate(2, relevance=0.2)]
    assert [c.item_id for c in threshold(candidates, 0.35)] == [1]
    assert threshold(candidates, 0.0) == candidates


def test_recency_is_exp_minus_age_over_30_days() -> None:
    now = 1_700_000_000_000
    assert recency(now, now) == 1.0
    assert recency(now - 30 * DAY, now) == pytest.approx(math.exp(-1))
    assert recency(now + DAY, now) == 1.0  # clock skew never scores above "now"


def test_recency_weight_lifts_newer_items_with_equal_relevance() -> None:
    now = 1_700_000_000_000
    old, new = Candidate(1, relevance=0.8, created_ms=now - 90 * DAY), Candidate(2, relevance=0.8, created_ms=now)
    ranked = weigh_recency([old, new], 0.2, now)
    assert [c.item_id for c in ranked] == [2, 1]
    assert ranked[0].score == pytest.approx(0.8 * 0.8 + 0.2)


def unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_mmr_pushes_near_duplicates_down_in_favour_of_something_new() -> None:
    candidates = [Candidate(1, score=1.0), Candidate(2, score=0.95), Candidate(3, score=0.7)]
    vectors = {1: unit(1, 0, 0), 2: unit(1, 0.01, 0), 3: unit(0, 1, 0)}
    assert [c.item_id for c in mmr(candidates, vectors, 2, lam=0.7)] == [1, 3]
    assert [c.item_id for c in mmr(candidates, vectors, 2, lam=1.0)] == [1, 2]


def test_mmr_floor_treats_alike_but_different_items_as_not_redundant() -> None:
    candidates = [Candidate(1, score=1.0), Candidate(2, score=0.95), Candidate(3, score=0.7)]
    alike = {1: unit(1, 0.8, 0), 2: unit(1, 0, 0.8), 3: unit(0, 0, 1)}  # cosine 0.6 between 1 and 2
    assert [c.item_id for c in mmr(candidates, alike, 2, lam=0.7, floor=0.0)] == [1, 3]
    assert [c.item_id for c in mmr(candidates, alike, 2, lam=0.7, floor=0.85)] == [1, 2]


def hit(kind: str, score: float, text: str = "x", **metadata: str) -> Hit:
    from datetime import UTC, datetime

    return Hit(
        kind,
        text,
        score,
        ("01HN4QXKN6YWXVKZ3JMHP4BCDE",),
        None,
        dict(metadata),
        datetime.now(UTC),
        "c",
        role="user",
        relevance=score,
    )


def test_typed_memories_come_by_type_priority_then_score_within_limits() -> None:
    hits = [hit("learning", 0.9), hit("decision", 0.5), hit("gotcha", 0.3), hit("gotcha", 0.8), hit("turn", 0.99)]
    chosen = select_typed(hits)
    assert [(h.kind, h.score) for h in chosen] == [
        ("gotcha", 0.8),
        ("gotcha", 0.3),
        ("decision", 0.5),
        ("learning", 0.9),
    ]


def test_typed_thresholds_limits_and_the_hard_limit_of_ten() -> None:
    many = [hit("gotcha", 0.9)] * 8 + [hit("decision", 0.9)] * 8 + [hit("learning", 0.9)] * 8 + [hit("learning", 0.3)]
    chosen = select_typed(many)
    assert [h.kind for h in chosen].count("gotcha") == 5  # per-type limits: 5, 3, 2
    assert [h.kind for h in chosen].count("decision") == 3
    assert [h.kind for h in chosen].count("learning") == 2
    assert len(chosen) == TYPED_LIMIT
    assert not select_typed([hit("learning", 0.39)])  # below the learning threshold of 0.4
    assert select_typed([hit("gotcha", 0.3)], multiplier=1.2)  # effective threshold 0.2 * 1.2 = 0.24
    assert not select_typed([hit("gotcha", 0.3)], multiplier=2.0)  # 0.4: stricter, e.g. a Bash hook


def test_context_puts_the_summary_first_then_memories_as_role_and_content() -> None:
    hits = [hit("turn", 0.9, "I moved to Go"), hit("gotcha", 0.8, "Parse times as UTC", severity="high")]
    context = format_context(hits, summary="Sam builds Lighthouse.", budget_tokens=200)
    said = hits[0].created_at  # a turn ends with the day it was said (issue 28)
    assert context.text == (
        "Summary of the conversation so far: Sam builds Lighthouse.\n"
        f'Gotcha (high): Parse times as UTC\nThe user said: "I moved to Go" ({said.day} {said:%B} {said.year})'
    )
    assert [h.text for h in context.hits] == ["Parse times as UTC", "I moved to Go"]


def test_context_stays_within_its_token_budget() -> None:
    hits = [hit("turn", 0.9 - i / 100, f"memory number {i} " + "word " * 20) for i in range(20)]
    context = format_context(hits, budget_tokens=100)
    assert context.tokens <= 100
    assert 0 < len(context.hits) < 20
