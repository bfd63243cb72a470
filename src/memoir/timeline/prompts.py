"""A segment's summary from a model: a small schema, and checks that every bullet is said in the segment.

The model sees the segment's messages as `[role] text` lines and answers a title (5-10
words), 3-5 bullets and 3-7 keywords. Each bullet is kept only when the segment's events
support it (`grips.match`), its names and numbers are in the very events that support it,
and it is neither a question nor small talk (`telling`); a bad bullet costs itself, and a
title that is a question gives way to the first bullet. An answer with no usable bullet
is asked again once quoting why, then the extractive summary stands in for the segment,
with the reason kept on its node. A change the user made that no bullet tells is added
as a bullet of its own ("Changed: the user lives in Rotterdam now").
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from memoir.index.job import speaker_of
from memoir.ingest.answers import SPECIFIC as _SPECIFIC
from memoir.ingest.answers import is_placeholder
from memoir.ingest.values import values
from memoir.llm import ChatClient
from memoir.model import Event
from memoir.model.checks import surrogate_at
from memoir.timeline.grips import Draft, Match, keywords_of, match, title_of
from memoir.timeline.telling import CHANGED, change_bullets, telling

__all__ = ["SEGMENT_PROMPT", "SUMMARY_SCHEMA", "summarize_with_llm"]

SEGMENT_PROMPT = """You summarize one part of a conversation for a table of contents.
Read the messages and answer with JSON only, an object with these keys:
- "title": what this part is about, in 5 to 10 words
- "bullets": 3 to 5 short statements, each about one thing the messages say (a fact, a decision,
  something found out or changed), using the messages' own words for names and numbers; never a
  question, a greeting or thanks
- "keywords": 3 to 7 single words for searching
Write only what the messages say: nothing invented, no advice."""

# Small on purpose (no length or count bounds a server's grammar compiler may choke on): lengths and counts
# are checked after the answer (`_validator`).
SUMMARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "bullets": {"type": "array", "items": {"type": "string"}},
        "keywords": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["title", "bullets", "keywords"],
    "additionalProperties": False,  # OpenAI's strict mode wants it; no grammar compiler minds it
}

_TAUTOLOGY = re.compile(r"^(?P<x>.+?) (?:is|are|was|were) (?:named |called )?(?P=x)[.!]?$", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")  # incl. bidi overrides
MAX_PROMPT_CHARS = 24_000  # a segment is at most 4,000 tokens; tool output beyond this says nothing new


def transcript(events: Sequence[Event]) -> str:
    # The speaker's name when the event has one: in a talk between two people "assistant" says nothing.
    lines = [f"[{speaker_of(e)}] {e.text.strip()}" for e in events if e.text.strip()]
    return "\n".join(lines)[:MAX_PROMPT_CHARS]


def _text(value: Any, what: str, limit: int) -> str:
    """A string the answer may hold: no lone surrogate, no control character, within `limit`."""
    if not isinstance(value, str) or is_placeholder(value):
        raise ValueError(f"{what} must be text that says something")
    text = " ".join(value.split())
    if len(text) > limit or surrogate_at(text) is not None or _CONTROL.search(text):
        raise ValueError(f"{what} must be plain text of at most {limit} characters")
    return text


def _named(bullet: str, said: str) -> None:
    """Every name and number of a bullet is in the messages: a copied sentence with one name
    changed ("Rust" to "Ruby", "Sam" to "Pam", "6" to "60") still passes the 30% rule."""
    for word in _SPECIFIC.findall(bullet)[1:]:  # [0] starts the sentence: capitalized anyway
        if word.lower() not in said:
            raise ValueError(f"the bullet {bullet!r} names {word!r}, which these messages do not")


def _validator(events: Sequence[Event]) -> Callable[[Any], Draft]:
    """The answer's usable bullets (a bad bullet costs itself), a title that is a statement, the changes said."""

    def validate(value: Any) -> Draft:
        if not isinstance(value, dict):
            raise ValueError('expected {"title": ..., "bullets": [...], "keywords": [...]}')
        bullets, keywords = value.get("bullets"), value.get("keywords")
        if not isinstance(keywords, list):  # a string would be read letter by letter
            keywords = []
        if not isinstance(bullets, list) or not bullets:
            raise ValueError("bullets must be a list of 3 to 5 statements")
        problems: list[str] = []
        matched = [found for b in bullets[:8] if (found := _bullet(b, events, problems)) is not None][:5]
        if not matched:
            raise ValueError(problems[0] if problems else "no bullet says what these messages say")
        matched = _with_changes(matched, events)
        words = [_text(k, "each keyword", 40).lower() for k in keywords[:7] if isinstance(k, str) and k.strip()]
        extra = [k for k in keywords_of(events) if k not in words]
        return Draft(_title(value.get("title"), matched), tuple(matched), tuple(dict.fromkeys(words + extra))[:7])

    return validate


def _bullet(value: Any, events: Sequence[Event], problems: list[str]) -> tuple[str, Match] | None:
    """A bullet with the events that say it, or None (the problem noted for the corrective retry).

    Its names and numbers must be in its own grip's events, not just somewhere in the segment:
    "Elena is planning the offsite for March" joins an "Elena" and a "March" said apart.
    """
    try:
        bullet = _text(value, "each bullet", 300)
        found = match(bullet, events)
        if found is None:
            raise ValueError(f"the bullet {bullet!r} is not said in these messages")
        _named(bullet, " ".join(e.text for e in events[found.start : found.end + 1]).lower())
        if _TAUTOLOGY.match(bullet) or not telling(bullet) or not telling(found.excerpt):
            raise ValueError(f"the bullet {bullet!r} is a question or small talk, not what was said or decided")
    except ValueError as exc:
        problems.append(str(exc))
        return None
    return bullet, found


def _with_changes(matched: list[tuple[str, Match]], events: Sequence[Event]) -> list[tuple[str, Match]]:
    """The model's bullets, and a bullet for each change the user made that none of them tells."""
    told = " ".join(b for b, _ in matched).lower()
    for text, index, said in change_bullets(events):
        if not any(v.text.lower() in told for v in values(text)) and len(matched) < 5:
            matched.append((text, Match(index, index, said, 1.0)))
    return sorted(matched, key=lambda item: item[1].start)


def _title(value: Any, matched: Sequence[tuple[str, Match]]) -> str:
    """The model's title when it is a statement; else the first bullet's words."""
    try:
        title = _text(value, "the title", 120)
    except ValueError:
        title = ""
    if title.endswith("?") or not title:
        title = next((b for b, _ in matched if not b.startswith(CHANGED)), matched[0][0])
    return title_of(title)


def summarize_with_llm(client: ChatClient, events: Sequence[Event]) -> Draft:
    messages = [
        {"role": "system", "content": SEGMENT_PROMPT},
        {"role": "user", "content": transcript(events)},
    ]
    return client.complete_json(messages, _validator(events), schema=SUMMARY_SCHEMA, purpose="segment summary")


def answer_json(draft: Draft) -> str:
    """A draft as the model's JSON answer (for tests and replays)."""
    bullets = [text for text, _ in draft.bullets]
    return json.dumps({"title": draft.title, "bullets": bullets, "keywords": list(draft.keywords)})
