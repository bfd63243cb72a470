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
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from memoir.history.sentences import clip, ranked, sentences
from memoir.index.keyword import STOPWORDS, terms
from memoir.model import Event, EventType
from memoir.timeline.telling import change_bullets, telling

__all__ = ["Draft", "Match", "extractive", "match", "readable", "sentences"]

SUPPORT = 0.3  # share of a bullet's long words an event must hold
SPAN = 0.8  # neighbours scoring this share of the best join the span
EXCERPT_CHARS = 200
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


def long_words(text: str) -> set[str]:
    """Words over 3 characters (seed 002), leaving out function words ("this", "that",
    "with", "have") that would let any chatter seem to support any bullet."""
    return {w for w in (m.lower() for m in _WORD.findall(text)) if len(w) > 3 and w not in STOPWORDS}


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
    return Match(start, end, clip(excerpt, EXCERPT_CHARS), scores[best])


def extractive(events: Sequence[Event], *, bullets: int = 5) -> Draft:
    """The segment's most telling statements (`sentences.ranked`), in the order they were said.

    A change the user made ("we just moved, I live in Rotterdam now") is a bullet of its own
    (`telling.change_bullets`); questions and small talk are never bullets nor the title.
    """
    changes = change_bullets(events)
    weights = [_WEIGHT.get(e.event_type, 1.0) for e in events]
    told = {said for _, _, said in changes}  # the sentence a change bullet says already

    def keep(sentence: str) -> bool:
        return telling(sentence) and sentence not in told

    told_texts = [readable(e) for e in events]
    best = ranked(told_texts, weights, EXCERPT_CHARS, keep=keep)[: bullets - len(changes)]
    chosen = sorted(
        [(r.text, r.order, r.sentence, r.sentence) for r in best]
        + [(index, -1, text, said) for text, index, said in changes]
    )
    if not chosen:  # nothing but one-word turns: the first event's text still says what happened
        first = next((i for i, text in enumerate(told_texts) if text.strip()), 0)
        text = clip(told_texts[first].strip(), EXCERPT_CHARS) if events else ""
        chosen = [(first, 0, text, text)] if events else []
    drafted = tuple((text, Match(i, i, said, 1.0)) for i, _, text, said in chosen)
    statements = [r.sentence for r in best]
    short = [s for s in statements if len(s.split()) <= 10]  # a whole sentence reads better than a cut one
    # a change is what the part of the talk is remembered by, in the words that made it
    titles = [said for _, _, said in changes[:1]] + short + statements + [c[2] for c in chosen[:1]]
    title = title_of(titles[0] if titles else "Conversation")
    return Draft(title, drafted, keywords_of(events))


def readable(event: Event) -> str:
    """What an event says, as a summary may quote it: a person's or model's words as they
    are; a tool's call as a line (`Read src/checkout.py`), never its raw input and output,
    which are JSON and logs that no one reads as a summary of the work."""
    if event.event_type is not EventType.TOOL_RESULT:
        return event.text
    name = event.metadata.get("tool_name") or event.text.partition("(")[0].strip()[:60] or "a tool"
    files = [f for f in event.metadata.get("file_paths", "").splitlines() if f.strip()][:3]
    return f"Used {name} on {', '.join(files)}." if files else f"Used {name}."


def title_of(text: str, words: int = 10) -> str:
    said = text.split()
    title = " ".join(said[:words]).rstrip(".,;:!?") or "Conversation"
    return title + " …" if len(said) > words else title


def keywords_of(events: Sequence[Event], limit: int = 7) -> tuple[str, ...]:
    counts = Counter(word for e in events for word in terms(e.text) if len(word) > 3)
    return tuple(word for word, _ in counts.most_common(limit))


def grip_id(start_ms: int, *parts: str) -> str:
    """Seed 002's `grip:{timestamp_ms}:{suffix}`; the suffix derives from what the grip anchors,
    so summarizing a segment again after a crash writes the same grips, not new ones."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"grip:{start_ms}:{digest}"
