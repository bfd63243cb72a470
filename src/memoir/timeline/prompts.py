"""A segment's summary from a model: a strict schema, and checks that every bullet is said in the segment.

The model sees the segment's messages as `[role] text` lines and answers a title (5-10
words), 3-5 bullets and 3-7 keywords. Its answer is used only when every bullet is
supported by the segment's own events (`grips.match`); otherwise the answer is rejected
(one corrective retry quoting why), and the extractive summary stands in for the segment,
with the reason kept on its node.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from memoir.index.job import speaker_of
from memoir.ingest.answers import SPECIFIC as _SPECIFIC
from memoir.ingest.answers import is_placeholder
from memoir.llm import ChatClient
from memoir.model import Event
from memoir.model.checks import surrogate_at
from memoir.timeline.grips import Draft, keywords_of, match, title_of

__all__ = ["SEGMENT_PROMPT", "SUMMARY_SCHEMA", "summarize_with_llm"]

SEGMENT_PROMPT = """You summarize one part of a conversation for a table of contents.
Read the messages and answer with JSON only, an object with these keys:
- "title": what this part is about, in 5 to 10 words
- "bullets": 3 to 5 short statements, each about one thing the messages say (a fact, a decision,
  a question asked), using the messages' own words for names and numbers
- "keywords": 3 to 7 single words for searching
Write only what the messages say: nothing invented, no advice."""

SUMMARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "minLength": 3, "maxLength": 120},
        "bullets": {
            "type": "array",
            "items": {"type": "string", "minLength": 3, "maxLength": 300},
            "minItems": 1,
            "maxItems": 5,
        },
        "keywords": {"type": "array", "items": {"type": "string", "minLength": 2, "maxLength": 40}, "maxItems": 7},
    },
    "required": ["title", "bullets", "keywords"],
    "additionalProperties": False,
}

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
    said = " ".join(e.text for e in events).lower()

    def validate(value: Any) -> Draft:
        if not isinstance(value, dict):
            raise ValueError('expected {"title": ..., "bullets": [...], "keywords": [...]}')
        title = _text(value.get("title"), "the title", 120)
        bullets, keywords = value.get("bullets"), value.get("keywords", [])
        if not isinstance(bullets, list) or not 1 <= len(bullets) <= 5:
            raise ValueError("bullets must be a list of 3 to 5 statements")
        if not isinstance(keywords, list):
            raise ValueError("keywords must be a list of single words")
        matched = []
        for bullet in (_text(b, "each bullet", 300) for b in bullets):
            _named(bullet, said)
            found = match(bullet, events)
            if found is None:
                raise ValueError(f"the bullet {bullet!r} is not said in these messages")
            matched.append((bullet, found))
        words = [_text(k, "each keyword", 40).lower() for k in keywords[:7]]
        extra = [k for k in keywords_of(events) if k not in words]
        return Draft(title_of(title), tuple(matched), tuple(dict.fromkeys(words + extra))[:7])

    return validate


def summarize_with_llm(client: ChatClient, events: Sequence[Event]) -> Draft:
    messages = [
        {"role": "system", "content": SEGMENT_PROMPT},
        {"role": "user", "content": transcript(events)},
    ]
    return client.complete_json(messages, _validator(events), schema=SUMMARY_SCHEMA)


def answer_json(draft: Draft) -> str:
    """A draft as the model's JSON answer (for tests and replays)."""
    bullets = [text for text, _ in draft.bullets]
    return json.dumps({"title": draft.title, "bullets": bullets, "keywords": list(draft.keywords)})
