"""Sentences and how telling they are: what the extractive summarizers choose from.

Shared by the timeline (segment and conversation summaries) and history compression
(the summary of dropped messages), so it lives in the lower layer of the two.

A sentence tells more the more distinct content words it holds that recur in the text
around it (a conversation's subject recurs), damped (log) so that two very common words
do not outweigh a sentence that says something; sentences under three content words
("Wow, that's cool!") are small talk and never chosen while others exist.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memoir.index.keyword import terms

__all__ = ["Ranked", "clip", "ranked", "sentences"]

MIN_WORDS = 3
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class Ranked:
    score: float
    text: int  # which text it comes from
    order: int  # its place among all sentences, for ties and for telling them in order
    sentence: str


def sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(text) if len(part.strip()) > 1]


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a word boundary: still a substring of the text."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    return cut[: cut.rfind(" ")] if " " in cut else cut


def ranked(
    texts: Sequence[str], weights: Sequence[float], limit: int, keep: Callable[[str], bool] | None = None
) -> list[Ranked]:
    """Every distinct sentence of `texts` (clipped to `limit` characters), best first; with `keep`, only the
    sentences it keeps (a summary's bullets are statements, never questions or small talk)."""
    recurring = Counter(word for text in texts for word in terms(text))
    found: list[Ranked] = []
    seen: set[str] = set()
    for index, (text, weight) in enumerate(zip(texts, weights, strict=True)):
        for sentence in sentences(text):
            sentence = clip(sentence, limit)
            words = terms(sentence)
            if len(words) < 2 or sentence.lower() in seen or (keep is not None and not keep(sentence)):
                continue
            seen.add(sentence.lower())
            score = weight * sum(math.log1p(recurring[w]) for w in words) / math.sqrt(len(words))
            if len(words) < MIN_WORDS:
                score /= 10  # small talk: chosen only when nothing else is there
            found.append(Ranked(score, index, len(found), sentence))
    return sorted(found, key=lambda r: (-r.score, r.order))
