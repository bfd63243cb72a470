"""Grips: which events support a bullet (seed 002's matching rule), and the extractive summarizer.

An event supports a bullet when more than 30% of the bullet's words longer than 3
characters appear in it; the grip's span runs from the best event over its neighbours
that score at least 0.8 of the best; its excerpt (at most 200 characters) is the
sentence of the best event that shares most words with the bullet, so an excerpt is
always text the events hold.

The extractive summarizer needs no model: its bullets are the segment's most telling
sentences, each its own excerpt, so its grips are exact.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from memoir.index.keyword import terms
from memoir.model import Event, EventType

__all__ = ["Draft", "Match", "extractive", "match", "sentences"]

SUPPORT = 0.3  # share of a bullet's long words an event must hold
SPAN = 0.8  # neighbours scoring this share of the best join the span
EXCERPT_CHARS = 200
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
# What the user said is what a summary is for; a tool's output is long and says least about the talk.
_WEIGHT = {EventType.USER_MESSAGE: 1.25, EventType.TOOL_RESULT: 0.5}
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


@dataclass(frozen=True)
class Match:
    start: int  # index of the first supporting event
    end: int  # index of the last
    excerpt: str
    score: float


@dataclass(frozen=True)
class Draft:
    """A summary before it is stored: title, bullets (each with the events that support it), keywords."""

    title: str
    bullets: tuple[tuple[str, Match], ...]
    keywords: tuple[str, ...]


def sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(text) if len(part.strip()) > 1]


def long_words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if len(w) > 3}


def match(bullet: str, events: Sequence[Event]) -> Match | None:
    """The run of events that supports `bullet`, or None when none holds over 30% of its long words."""
    wanted = long_words(bullet)
    if not wanted:
        return None
    scores = [len(wanted & long_words(e.text)) / len(wanted) for e in events]
    best = max(range(len(events)), key=lambda i: scores[i], default=None)
    if best is None or scores[best] <= SUPPORT:
        return None
    start = end = best
    while start > 0 and scores[start - 1] >= SPAN * scores[best]:
        start -= 1
    while end + 1 < len(events) and scores[end + 1] >= SPAN * scores[best]:
        end += 1
    said = sentences(events[best].text) or [events[best].text]
    excerpt = max(said, key=lambda s: len(wanted & long_words(s)))
    return Match(start, end, clip(excerpt), scores[best])


def clip(text: str, limit: int = EXCERPT_CHARS) -> str:
    """At most `limit` characters, cut at a word boundary: still a substring of the text."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    return cut[: cut.rfind(" ")] if " " in cut else cut


def extractive(events: Sequence[Event], *, bullets: int = 5) -> Draft:
    """The segment's most telling sentences (user turns weigh more), in the order they were said."""
    weights = Counter(word for e in events for word in terms(e.text))
    candidates: list[tuple[float, int, str]] = []
    for index, event in enumerate(events):
        for sentence in sentences(event.text):
            words = terms(sentence)
            if len(words) < 2:
                continue
            score = sum(weights[w] for w in words) / math.sqrt(len(words))
            score *= _WEIGHT.get(event.event_type, 1.0)
            candidates.append((score, index, clip(sentence)))
    chosen: list[tuple[int, str]] = []
    seen: set[str] = set()
    for _, index, sentence in sorted(candidates, key=lambda c: (-c[0], c[1])):
        if sentence.lower() not in seen and len(chosen) < bullets:
            seen.add(sentence.lower())
            chosen.append((index, sentence))
    if not chosen:  # nothing but one-word turns: the first event's text still says what happened
        first = next((i for i, e in enumerate(events) if e.text.strip()), 0)
        chosen = [(first, clip(events[first].text.strip()))] if events else []
    chosen.sort()
    drafted = tuple((text, Match(i, i, text, 1.0)) for i, text in chosen)
    return Draft(title_of(chosen[0][1] if chosen else "Conversation"), drafted, keywords_of(events))


def title_of(text: str, words: int = 10) -> str:
    said = text.split()
    return " ".join(said[:words]).rstrip(".,;:!?") or "Conversation"


def keywords_of(events: Sequence[Event], limit: int = 7) -> tuple[str, ...]:
    counts = Counter(word for e in events for word in terms(e.text) if len(word) > 3)
    return tuple(word for word, _ in counts.most_common(limit))


def grip_id(start_ms: int, *parts: str) -> str:
    """Seed 002's `grip:{timestamp_ms}:{suffix}`; the suffix derives from what the grip anchors,
    so summarizing a segment again after a crash writes the same grips, not new ones."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"grip:{start_ms}:{digest}"
