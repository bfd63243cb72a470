"""What a summary may say: statements that tell something, and the changes a part of the talk made.

A table of contents is read to find things again, so its bullets and titles are
statements of what was said, decided or found out: never a question ("What's a good
icebreaker?"), never small talk ("Thanks!", "That sounds great"). And a part of the talk
in which a fact changed ("Actually we just moved, I live in Rotterdam now") says so in a
bullet of its own, "Changed: the user lives in Rotterdam now", read by the same rules that
update the facts (`ingest.changes`), its grip the sentence that said it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from memoir.history.sentences import clip, sentences
from memoir.ingest.changes import Reading, read
from memoir.ingest.gate import content_words
from memoir.ingest.person import third_person
from memoir.ingest.rules import Statement
from memoir.model import Event, EventType

__all__ = ["CHANGED", "change_bullets", "telling"]

CHANGED = "Changed: "
_SMALL_TALK = re.compile(
    r"^(?:thanks|thank you|thx|you're welcome|no problem|no worries|sounds (?:good|great|lovely|fun|perfect)|"
    r"that sounds|great|awesome|nice|cool|ok|okay|sure|haha|lol|hi|hello|hey|bye|good (?:morning|night|luck)|"
    r"see you|congrat\w*|happy|glad|sorry|wow|perfect|lovely|enjoy|have fun|that's (?:great|awesome|amazing|cool|"
    r"nice|lovely|wonderful|fantastic|exciting|fair|true)|what a|how (?:lovely|nice|exciting))\b",
    re.IGNORECASE,
)


def telling(sentence: str) -> bool:
    """A sentence worth a bullet or a title: a statement (not a question) that says something (not small talk)."""
    text = sentence.strip()
    return bool(text) and not text.endswith("?") and not _SMALL_TALK.match(text) and len(content_words(text)) >= 2


def change_bullets(events: Sequence[Event], limit: int = 2) -> list[tuple[str, int, str]]:
    """(bullet, index of the event, the sentence that said it) for each change the user's messages make."""
    found: list[tuple[str, int, str]] = []
    for index, event in enumerate(events):
        if event.event_type is not EventType.USER_MESSAGE:
            continue
        for reading in _readings(event.text):
            if not (reading.old or reading.retracted or reading.announced or reading.pairs):
                continue
            said = next((s for s in sentences(event.text) if reading.text[:40] in s), reading.text)
            for text in _what_changed(reading.statements, reading.retracted):
                text = text if text.endswith((".", "!")) else text + "."
                found.append((CHANGED + text[0].lower() + text[1:], index, clip(said, 200)))
    return found[:limit]


@lru_cache(maxsize=4096)
def _readings(text: str) -> tuple[Reading, ...]:
    """A message read by the rules once for every summary that tells its changes: its segment's and its
    conversation's read the same turns (the rules take about 1.5 ms a message; readings are frozen)."""
    return tuple(read(text))


def _what_changed(statements: Sequence[Statement], retracted: Sequence[str]) -> list[str]:
    """What holds now (the sentence's first statement), or what was taken back when nothing was said instead."""
    if statements:
        return [statements[0].text]
    return [(third_person(clause) or clause) for clause in retracted[:1]]
