"""Context building: the block of memory injected before a user's message.

Seed 004, step 5: the conversation's summary first (when there is one, within a quarter
of the budget), then the retrieved memories as `[role] content` lines, scores not shown;
a turn whose words a segment summary among the hits already carries (a grip's event) is
left out. Typed memories (seed
001) are grouped and limited: gotcha before decision before learning, then by score;
per-type thresholds and limits; never more than 10 typed memories in all. Lines are
added best first until the token budget (estimated as characters / 4) is spent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from memoir.retrieval.pipeline import Hit

__all__ = ["TYPED_KINDS", "Context", "TypeRule", "estimate_tokens", "format_context", "select_typed"]

TYPED_KINDS = ("gotcha", "decision", "learning")  # in priority order
TYPED_LIMIT = 10  # seed 001: hard limit, whatever the per-type limits say


@dataclass(frozen=True)
class TypeRule:
    enabled: bool
    threshold: float
    limit: int


# Seed 001's defaults. Decisions and learnings are opt-in there; memoir turns them on
# because a memory engine is asked for them on purpose (see docs/decisions.md).
DEFAULT_TYPE_RULES = {
    "gotcha": TypeRule(True, 0.2, 5),
    "decision": TypeRule(True, 0.35, 3),
    "learning": TypeRule(True, 0.4, 2),
}


@dataclass(frozen=True)
class Context:
    text: str
    hits: list[Hit] = field(default_factory=list)
    tokens: int = 0


def estimate_tokens(text: str) -> int:
    return (len(text) + 3) // 4


def select_typed(hits: Sequence[Hit], rules: dict[str, TypeRule] | None = None, multiplier: float = 1.0) -> list[Hit]:
    """Typed memories that pass their type's threshold (times `multiplier`), by priority then score."""
    rules = rules or DEFAULT_TYPE_RULES
    chosen: list[Hit] = []
    for kind in TYPED_KINDS:
        rule = rules[kind]
        if not rule.enabled:
            continue
        cutoff = min(1.0, rule.threshold * multiplier)
        passing = sorted((h for h in hits if h.kind == kind and h.relevance >= cutoff), key=lambda h: -h.score)
        chosen.extend(passing[: rule.limit])
    return chosen[:TYPED_LIMIT]


def _line(hit: Hit) -> str:
    label = hit.kind if hit.kind != "turn" else (hit.role or "turn")
    if hit.kind == "gotcha" and hit.metadata.get("severity"):
        label = f"gotcha, {hit.metadata['severity']}"
    return f"[{label}] {' '.join(hit.text.split())}"


def _clip(text: str, tokens: int) -> str:
    """`text` within about `tokens` (chars/4), cut at a sentence or word boundary."""
    limit = tokens * 4
    if len(text) <= limit:
        return text
    cut = text[:limit]
    end = max(cut.rfind(". "), cut.rfind("\n"))
    return cut[: end + 1] if end > limit // 2 else cut[: cut.rfind(" ")] + " …"


def format_context(hits: Sequence[Hit], *, summary: str | None = None, budget_tokens: int = 1500) -> Context:
    """The injection block for these hits, within the budget."""
    typed = select_typed(hits)
    others = [h for h in hits if h.kind not in TYPED_KINDS]
    parts: list[str] = []
    used_hits: list[Hit] = []
    spent = 0
    if summary:
        # At most a quarter of the budget: the summary leads, the memories that answer the turn still fit.
        block = f"Summary of the conversation so far:\n{_clip(summary.strip(), budget_tokens // 4)}"
        parts.append(block)
        spent += estimate_tokens(block)
    lines: list[str] = []
    # A segment summary's bullets say what its grips' turns say: those turns would repeat them.
    summarized = {i for h in others if h.kind == "summary" for i in h.event_ids}
    others = [h for h in others if h.kind != "turn" or not set(h.event_ids) <= summarized]
    for hit in [*typed, *others]:
        line = _line(hit)
        cost = estimate_tokens(line) + 1
        if spent + cost > budget_tokens:
            continue  # a shorter memory further down may still fit
        lines.append(line)
        used_hits.append(hit)
        spent += cost
    if lines:
        parts.append("Relevant memories:\n" + "\n".join(lines))
    text = "\n\n".join(parts)
    return Context(text=text, hits=used_hits, tokens=estimate_tokens(text))
