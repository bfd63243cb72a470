"""Key facts (seed 000): the memories the agent is always given, and how a correction updates one.

- Which: of the conversation and of `global` (what holds in every chat), live memories
  tagged `important`, the 10 most recent of them, then the 5 most recent of the others.
- Shown in the system prompt in facts.md's shape, under `## Important` and `## Recent`,
  each fact on one line (a fact with line breaks cannot forge a heading of the prompt),
  introduced as data about the user, not instructions.
- A correction: a remembered text whose keywords overlap an important fact's by more
  than 70% replaces that fact rather than adding one beside it ("Josh prefers dark mode"
  then "Josh prefers light mode"). Seed 000's v1 rule is keyword overlap, not meaning:
  overlap is the shared keywords over the larger of the two sets, so a changed word in
  a four-keyword fact (75%) is a correction and two facts that only share a name are not.
  The corrected fact keeps its `created_at` and takes the conversation as its `source`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from memoir.model.event import format_timestamp
from memoir.model.memory import Memory, normalise_content

__all__ = [
    "IMPORTANT_IN_PROMPT",
    "MATCH_OVERLAP",
    "RECENT_IN_PROMPT",
    "closest_important",
    "format_key_facts",
    "keyword_overlap",
    "keywords",
    "select_key_facts",
]

IMPORTANT_IN_PROMPT = 10
RECENT_IN_PROMPT = 5
MATCH_OVERLAP = 0.7  # seed 000: more than 70% overlap is the same fact, corrected
_WORD = re.compile(r"\w+")
_STOP_WORDS = (
    "a an the is are was were be been am i me my you your he she it its we our they their them this that these those"
    " of in on at to for from by with and or but not no so as do does did has have had will would can could should"
    " s t d ll m re ve all any some very just also than then there here"
)
_STOP = frozenset(_STOP_WORDS.split())


def select_key_facts(memories: Iterable[Memory]) -> list[Memory]:
    """The 10 most recent important facts, then the 5 most recent others (live ones only, each content once:
    what the `remember` tool kept and what the rules read in the same words are one fact to the model)."""
    newest = sorted((m for m in memories if not m.deleted), key=lambda m: (m.created_at, m.id), reverse=True)
    once: dict[str, Memory] = {}
    for memory in newest:
        once.setdefault(normalise_content(memory.content), memory)
    live = list(once.values())
    important = [m for m in live if m.important][:IMPORTANT_IN_PROMPT]
    recent = [m for m in live if not m.important][:RECENT_IN_PROMPT]
    return important + recent


def _line(text: str) -> str:
    return " ".join(text.split())


def format_key_facts(facts: Sequence[Memory]) -> str:
    """facts.md's two sections (seed 000's format), for the system prompt; '' when there are none."""
    if not facts:
        return ""
    important = [f"- {_line(m.content)} #important" for m in facts if m.important]
    recent = [f"- [{format_timestamp(m.created_at)[:10]}] {_line(m.content)}" for m in facts if not m.important]
    return (
        "## Important\n\n"
        + ("\n".join(important) or "_none yet_")
        + "\n\n## Recent\n\n"
        + ("\n".join(recent) or "_none yet_")
    )


def keywords(text: str) -> frozenset[str]:
    """The words that carry a fact: lower case, without stop words and single letters."""
    return frozenset(w for w in _WORD.findall(text.lower()) if len(w) > 1 and w not in _STOP)


def keyword_overlap(first: str, second: str) -> float:
    """Shared keywords over the larger set (0 to 1); 0 when either has none."""
    a, b = keywords(first), keywords(second)
    if not a or not b:
        return 0.0
    return len(a & b) / max(len(a), len(b))


def closest_important(text: str, memories: Iterable[Memory]) -> Memory | None:
    """The live important fact that `text` corrects (overlap above 70%), the closest one; None if none.

    A text equal to a fact (case, spacing and final punctuation aside) is not a correction:
    remembering it again merges into that fact.
    """
    wanted = normalise_content(text)
    best: tuple[float, Memory] | None = None
    for memory in memories:
        if memory.deleted:
            continue
        if normalise_content(memory.content) == wanted:
            return None
        if not memory.important:
            continue
        score = keyword_overlap(text, memory.content)
        if score > MATCH_OVERLAP and (best is None or score > best[0]):
            best = (score, memory)
    return None if best is None else best[1]
