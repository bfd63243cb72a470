"""Counts said without what they count: "So I have six left now" after "I have eight plants".

People say a new count in the fewest words once the thing counted is known: the rules read
"The user has six left now" as a count of "left", which matches no known count and replaces
none. Where the user has one known count (or one the message names), the count is of that.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memoir.ingest.stemming import stem
from memoir.ingest.topics import topics
from memoir.ingest.values import NUMBER_WORDS

__all__ = ["counted_left"]

_N = rf"(?:\d{{1,4}}|{'|'.join(NUMBER_WORDS)})"
# "I have six left now", "we've only got 3 left", "I'm down to two" (not "six left the company": a count said
# as the user's own, before "left" or "remaining" and nothing they count)
_LEFT = re.compile(
    rf"\b(?:i|we)(?:\s+(?:only|now|just))?\s+(?:have|'ve\s+got|’ve\s+got|have\s+got|got)\s+(?:only\s+|just\s+)?"
    rf"(?P<n>{_N})(?=\s+(?:left|remaining)\b(?!\s+(?:the|my|our|a|an|for|to|in|at|on)\b))",
    re.I,
)


def counted_left(text: str, facts: Iterable[str]) -> str:
    """The message with what its bare count counts ("six plants left"), where one known count of the
    user's says what (or the message names one of those counted); else the message as it was."""
    said = _LEFT.search(text)
    if said is None:
        return text
    counted: dict[str, str] = {}  # stem -> the word as the fact says it
    for fact in facts:
        for topic in topics(fact):
            if topic.subject == "user" and topic.attribute.startswith("count of "):
                word = re.search(rf"\b{re.escape(topic.value)}\s+(?:more\s+)?(?P<what>[a-z]+)", fact, re.I)
                if word:
                    counted.setdefault(topic.attribute.removeprefix("count of "), word.group("what"))
    if len(counted) > 1:  # "two of the hens" beside plants: the one the message names
        named = {stem(w.lower()) for w in re.findall(r"[a-z]+", text, re.I)}
        counted = {k: v for k, v in counted.items() if k in named}
    if len(counted) != 1:
        return text
    return f"{text[: said.end('n')]} {next(iter(counted.values()))}{text[said.end('n') :]}"
