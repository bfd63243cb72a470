"""The read pipeline's stages, each a small pure function over candidates.

Order (seed 004, section 3, with hybrid candidates from seed 002):
  candidates from vector and keyword search -> fusion (of scores, or of ranks)
  -> speaker awareness -> time words for "when" questions (`when.favour_time_words`)
  -> optional rerank -> score threshold -> recency weighting
  -> MMR diversity -> top k.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "Candidate",
    "boost_named_speakers",
    "by_fused",
    "mmr",
    "recency",
    "reciprocal_rank_fusion",
    "score_fusion",
    "threshold",
    "weigh_recency",
]

MS_PER_DAY = 86_400_000


@dataclass
class Candidate:
    item_id: int
    fused: float = 0.0  # reciprocal-rank fusion score
    cosine: float | None = None  # vector similarity, when known
    keyword: float | None = None  # BM25, when the keyword index found it
    relevance: float = 0.0  # in [0, 1]: reranker probability, or fused score scaled to the best
    score: float = 0.0  # final: relevance weighed with recency
    created_ms: int = 0
    sources: list[str] = field(default_factory=list)


def reciprocal_rank_fusion(rankings: dict[str, Sequence[tuple[int, float]]], k: int = 60) -> list[Candidate]:
    """Fuse ranked lists: each item scores sum(1 / (k + rank)); best first (Cormack et al. 2009)."""
    fused: dict[int, Candidate] = {}
    for source, ranking in rankings.items():
        for rank, (item_id, score) in enumerate(ranking, start=1):
            candidate = fused.setdefault(item_id, Candidate(item_id))
            candidate.fused += 1.0 / (k + rank)
            candidate.sources.append(source)
            if source == "vector":
                candidate.cosine = score
            elif source == "keyword":
                candidate.keyword = score
    return by_fused(list(fused.values()))


def score_fusion(
    rankings: dict[str, Sequence[tuple[int, float]]], cosines: dict[int, float], keyword_weight: float = 0.5
) -> list[Candidate]:
    """Fuse by normalised scores: w * bm25 / best bm25 + (1 - w) * cosine / best cosine.

    Unlike rank fusion this keeps how much better one candidate is than the next, and
    gives every candidate its true cosine (`cosines`), not only those the vector list
    returned. An item the keyword search did not return scores 0 on that side. On the
    LoCoMo dev set it beats reciprocal-rank fusion by 0.09 recall@10 (docs/decisions.md).
    """
    keyword = dict(rankings.get("keyword", ()))
    candidates: dict[int, Candidate] = {}
    for source, ranking in rankings.items():
        for item_id, _ in ranking:
            candidate = candidates.setdefault(item_id, Candidate(item_id))
            candidate.sources.append(source)
    best_keyword = max(keyword.values(), default=0.0) or 1.0
    best_cosine = max((max(cosines.get(i, 0.0), 0.0) for i in candidates), default=0.0) or 1.0
    for item_id, candidate in candidates.items():
        candidate.keyword = keyword.get(item_id)
        candidate.cosine = cosines.get(item_id)
        cosine = max(candidate.cosine or 0.0, 0.0)
        candidate.fused = keyword_weight * (candidate.keyword or 0.0) / best_keyword
        candidate.fused += (1 - keyword_weight) * cosine / best_cosine
    return by_fused(list(candidates.values()))


def by_fused(candidates: list[Candidate]) -> list[Candidate]:
    """Best fused score first, each candidate's relevance its fused score scaled to the best."""
    ordered = sorted(candidates, key=lambda c: -c.fused)
    best = ordered[0].fused if ordered and ordered[0].fused > 0 else 1.0
    for candidate in ordered:
        candidate.relevance = candidate.fused / best
    return ordered


def boost_named_speakers(
    candidates: list[Candidate], speakers: dict[int, str | None], query: str, boost: float
) -> list[Candidate]:
    """When the query names exactly one of the candidates' speakers, favour that speaker's turns.

    "What did Caroline research?" is about what Caroline said; both people's turns
    mention Caroline, but only hers can answer it.
    """
    names = {name for name in speakers.values() if name}
    words = set(re.findall(r"[^\W_]+", query.lower()))
    named = [name for name in names if name.lower() in words]
    if boost <= 0 or len(named) != 1:
        return candidates
    for candidate in candidates:
        if speakers.get(candidate.item_id) == named[0]:
            candidate.fused += boost
    return by_fused(candidates)


def threshold(candidates: list[Candidate], minimum: float) -> list[Candidate]:
    """Drop candidates whose relevance is below `minimum` (0 keeps everything)."""
    return [c for c in candidates if c.relevance >= minimum] if minimum > 0 else candidates


def recency(created_ms: int, now_ms: int, half_life_days: float = 30.0) -> float:
    """exp(-age_days / 30): 1 for now, 0.37 a month ago (seed 004, step 3)."""
    age_days = max(0.0, (now_ms - created_ms) / MS_PER_DAY)
    return math.exp(-age_days / half_life_days)


def weigh_recency(candidates: list[Candidate], weight: float, now_ms: int) -> list[Candidate]:
    """score = (1 - w) * relevance + w * recency; best first."""
    for candidate in candidates:
        candidate.score = (1 - weight) * candidate.relevance + weight * recency(candidate.created_ms, now_ms)
    return sorted(candidates, key=lambda c: -c.score)


def mmr(
    candidates: list[Candidate], vectors: dict[int, np.ndarray], k: int, lam: float, floor: float = 0.0
) -> list[Candidate]:
    """Maximal marginal relevance: pick by lam * score - (1 - lam) * redundancy with those picked.

    Redundancy is the cosine similarity to the closest item picked, counted only above
    `floor` and rescaled to [0, 1]: turns of one conversation about one topic are alike
    (cosine 0.5-0.7) without repeating each other, and must not push each other out;
    near-duplicates ("user likes apples" five ways) must. Candidates without a vector are
    never penalised (nothing to compare them with).
    """
    if lam >= 1.0 or len(candidates) <= 1:
        return candidates[:k]
    top = max((c.score for c in candidates), default=1.0) or 1.0
    # Scores on the scale the trade-off assumes (best = 1): recency weighting of old
    # items would otherwise shrink every score and tilt the balance toward diversity.
    relevance = np.array([c.score / top for c in candidates])
    similarity = _redundancy(candidates, vectors, floor)
    redundancy = np.zeros(len(candidates))
    available = np.ones(len(candidates), dtype=bool)
    chosen: list[Candidate] = []
    while available.any() and len(chosen) < k:
        value = np.where(available, lam * relevance - (1 - lam) * redundancy, -np.inf)
        pick = int(np.argmax(value))
        chosen.append(candidates[pick])
        available[pick] = False
        redundancy = np.maximum(redundancy, similarity[:, pick])
    return chosen


def _redundancy(candidates: list[Candidate], vectors: dict[int, np.ndarray], floor: float) -> np.ndarray:
    """Pairwise cosine above `floor`, rescaled to [0, 1]; 0 for candidates without a vector."""
    n = len(candidates)
    known = [i for i, c in enumerate(candidates) if c.item_id in vectors]
    similarity = np.zeros((n, n))
    if known and floor < 1.0:
        matrix = np.stack([vectors[candidates[i].item_id] for i in known])
        similarity[np.ix_(known, known)] = np.clip(matrix @ matrix.T - floor, 0.0, None) / (1.0 - floor)
    return similarity
