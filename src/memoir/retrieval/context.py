"""Context building: the block of memory injected before a user's message.

Seed 004, step 5: the conversation's summary first (when there is one, within a quarter
of the budget, and only where it adds: `wants_overview`), then the retrieved memories, one
plain sentence each, scores not shown:
a fact as it is ("The user lives in Rotterdam."), a turn as who said it ("The user said:
"…""), a typed memory with its type ("Gotcha (high): …"), a segment summary as what an
earlier part of the talk said. Plain sentences, not `[role] text` tags: a small model
read tagged turns as lines to continue, and answered as the user (decision 74). A turn
ends with the day it was said and the days its relative words mean (`when.told_when`:
`(8 May 2023; yesterday: 7 May 2023)`), so a reader can answer "when" (issue 28).

Left out: a turn whose words a segment summary among the hits already carries (a grip's
event), a turn the request being answered already holds (`exclude`), and memoir's own
earlier answers (assistant turns logged by the proxy or the chat agent): a model that
is shown its old answers as memory repeats them, and they are fed back again. Typed
memories (seed 001) are grouped and limited: gotcha before decision before learning,
then by score; per-type thresholds and limits; never more than 10 typed memories in all.
Lines are added best first until the token budget (estimated as characters / 4) is spent;
how many hits compete for it grows with the budget (`hits_for`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from memoir.model.limits import BUDGET_TOKENS
from memoir.retrieval.pipeline import Hit
from memoir.retrieval.when import told_when

__all__ = [
    "TYPED_KINDS",
    "Context",
    "TypeRule",
    "estimate_tokens",
    "format_context",
    "hits_for",
    "select_typed",
    "wants_overview",
]

TYPED_KINDS = ("gotcha", "decision", "learning")  # in priority order
TYPED_LIMIT = 10  # seed 001: hard limit, whatever the per-type limits say
TOKENS_PER_HIT = 75  # a budget's worth of hits: a line is about 45 tokens, so they fill about 60% of it
_OVERVIEW = re.compile(
    r"\b(?:summar(?:y|ise|ize|ised|ized)|recap|overview|so far|catch me up|remind me what|where were we|"
    r"what (?:have|did) we (?:talk|discuss|cover)\w*)\b",
    re.IGNORECASE,
)


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


def hits_for(budget_tokens: int, top_k: int) -> int:
    """How many hits compete for a context's budget: `top_k` (at least 10), more for a larger budget
    (20 for the default 1,500 tokens), so the budget, not a fixed count, bounds the block."""
    return max(top_k, 10, budget_tokens // TOKENS_PER_HIT)


def wants_overview(query: str) -> bool:
    """Does the conversation's summary add to the context for `query`? When the query asks for an
    overview ("catch me up", "what have we discussed so far", "recap").

    A specific question is answered by its hits (a search always finds some): the summary cites
    no event, so before every message it cost a quarter of the budget and brought no evidence
    (on LoCoMo, 0.60 of the evidence per token of the same block without it; decision 99).
    """
    return _OVERVIEW.search(query) is not None


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


OWN_ANSWERS = ("proxy", "chat")  # an assistant turn logged `via` these is memoir's own model speaking


def _line(hit: Hit) -> str:
    text = " ".join(hit.text.split())
    if hit.kind == "turn":
        who = hit.metadata.get("speaker") or {"user": "The user", "assistant": "The assistant"}.get(hit.role or "")
        return f'{who or "Someone"} said: "{text}" ({told_when(text, hit.created_at)})'
    if hit.kind == "summary":
        title, _, rest = hit.text.partition("\n")
        told = "; ".join(line.strip(" -") for line in rest.splitlines() if line.strip(" -"))
        return f'An earlier part of the conversation ("{title.strip()}"): {told or title.strip()}'
    if hit.kind in TYPED_KINDS:
        severity = f" ({hit.metadata['severity']})" if hit.kind == "gotcha" and hit.metadata.get("severity") else ""
        return f"{hit.kind.capitalize()}{severity}: {text}"
    return text if text.endswith((".", "!", "?")) else f"{text}."


def _own_answer(hit: Hit) -> bool:
    return hit.kind == "turn" and hit.role == "assistant" and hit.metadata.get("via") in OWN_ANSWERS


def _clip(text: str, tokens: int) -> str:
    """`text` within about `tokens` (chars/4), cut at a sentence or word boundary."""
    limit = tokens * 4
    if len(text) <= limit:
        return text
    cut = text[:limit]
    end = max(cut.rfind(". "), cut.rfind("\n"))
    return cut[: end + 1] if end > limit // 2 else cut[: cut.rfind(" ")] + " …"


def format_context(
    hits: Sequence[Hit],
    *,
    summary: str | None = None,
    budget_tokens: int = BUDGET_TOKENS,
    exclude: Collection[str] = (),
) -> Context:
    """The injection block for these hits, within the budget; turns whose text is in `exclude` are left out."""
    typed = select_typed(hits)
    present = {" ".join(text.split()).lower() for text in exclude}
    others = [
        h
        for h in hits
        if h.kind not in TYPED_KINDS
        and not _own_answer(h)
        and not (h.kind == "turn" and " ".join(h.text.split()).lower() in present)
    ]
    parts: list[str] = []
    used_hits: list[Hit] = []
    spent = 0
    if summary:
        # At most a quarter of the budget: the summary leads, the memories that answer the turn still fit.
        block = f"Summary of the conversation so far: {_clip(' '.join(summary.split()), budget_tokens // 4)}"
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
    parts.extend(lines)
    text = "\n".join(parts)
    return Context(text=text, hits=used_hits, tokens=estimate_tokens(text))
