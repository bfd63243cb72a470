"""A segment's summary from a model: a strict schema, and checks that every bullet is said in the segment.

The model sees the segment's messages as `[role] text` lines and answers a title (5-10
words), 3-5 bullets and 3-7 keywords. Its answer is used only when every bullet is
supported by the segment's own events (`grips.match`); otherwise the answer is rejected
(one corrective retry quoting why), and the extractive summary stands in for the segment,
with the reason kept on its node.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from memoir.index.job import speaker_of
from memoir.ingest.answers import is_placeholder
from memoir.llm import ChatClient
from memoir.model import Event
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

MAX_PROMPT_CHARS = 24_000  # a segment is at most 4,000 tokens; tool output beyond this says nothing new


def transcript(events: Sequence[Event]) -> str:
    # The speaker's name when the event has one: in a talk between two people "assistant" says nothing.
    lines = [f"[{speaker_of(e)}] {e.text.strip()}" for e in events if e.text.strip()]
    return "\n".join(lines)[:MAX_PROMPT_CHARS]


def _validator(events: Sequence[Event]) -> Callable[[Any], Draft]:
    def validate(value: Any) -> Draft:
        if not isinstance(value, dict):
            raise ValueError('expected {"title": ..., "bullets": [...], "keywords": [...]}')
        title, bullets, keywords = value.get("title"), value.get("bullets"), value.get("keywords", [])
        if not isinstance(title, str) or is_placeholder(title):
            raise ValueError("the title must say what this part is about")
        if not isinstance(bullets, list) or not bullets or not all(isinstance(b, str) for b in bullets):
            raise ValueError("bullets must be a list of 3 to 5 statements")
        matched = []
        for bullet in [b.strip() for b in bullets[:5]]:
            found = None if is_placeholder(bullet) else match(bullet, events)
            if found is None:
                raise ValueError(f"the bullet {bullet!r} is not said in these messages")
            matched.append((bullet, found))
        words = [k.strip().lower() for k in keywords if isinstance(k, str) and k.strip() and not is_placeholder(k)]
        extra = [k for k in keywords_of(events) if k not in words]
        return Draft(title_of(title.strip()), tuple(matched), tuple(dict.fromkeys(words + extra))[:7])

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
