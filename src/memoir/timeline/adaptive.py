"""Adaptive conversation summaries (seed 004, 4.4): the depth follows the conversation's length.

    tokens       level          parts
    < 100        none           none: the facts say enough
    < 500        brief          L3, one sentence
    < 3,000      standard       L3, one paragraph
    < 15,000     detailed       L1 per chunk, L3 of the L1s
    >= 15,000    hierarchical   L1 per chunk, L2 per 5 L1s, L3 of the L2s

Chunks hold consecutive turns worth about 3,000 tokens; each after the first repeats up
to 200 tokens of the turns before it, so a thought cut at a boundary is read whole once.
Every part names the events it covers, so a summary can be traced to what was said.

A model writes a part when one answers, under a strict `{"summary": ...}` schema; its
answer is used only when it is text, not a placeholder copied from a template, shorter
than what it summarizes and sharing content words with it. Otherwise (and without a
model) the extractive summarizer writes the part: the most telling sentences of its input,
in the order they were said, within a length target. The same turns give the same
extractive summary, so a summary written again after a crash is the same summary.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from memoir.errors import InvalidInput
from memoir.history.sentences import clip, ranked
from memoir.history.tokens import count_tokens
from memoir.index.keyword import terms
from memoir.llm.client import ChatClient
from memoir.llm.service import LLM
from memoir.model import Event, EventType
from memoir.model.checks import surrogate_at
from memoir.timeline.telling import change_bullets, telling

__all__ = [
    "BRIEF_PROMPT",
    "CHUNK_PROMPT",
    "META_PROMPT",
    "STANDARD_PROMPT",
    "SUMMARY_SCHEMA",
    "Chunk",
    "ConversationSummary",
    "SummaryLevel",
    "SummaryPart",
    "chunk_turns",
    "extractive",
    "level_for",
    "summarize_conversation",
    "transcript",
]

PartLevel = Literal["L1", "L2", "L3"]
PartSource = Literal["llm", "extractive"]

CHUNK_TOKENS = 3_000
OVERLAP_TOKENS = 200
GROUP_SIZE = 5  # L1s per L2
# Length targets of the extractive summaries, as shares of their input (seed 004, 4.4).
BRIEF_SHARE = 0.2
STANDARD_SHARE = 0.12
CHUNK_SHARE = 0.07
META_SHARE = 0.5  # a meta-summary halves its parts' summaries...
META_MAX_TOKENS = 600  # ...up to what a context window can spare for one conversation
MIN_TARGET_TOKENS = 40  # below this a target allows no real sentence
SENTENCE_CHARS = 400  # a "sentence" without punctuation (a log line) is cut to this
MAX_PROMPT_CHARS = 48_000  # a chunk is 3,000 tokens; only a single huge turn reaches this
# Tool output is noisy, the user's words are what a summary is for.
_ROLE_WEIGHT = {EventType.USER_MESSAGE: 1.25, EventType.TOOL_RESULT: 0.5}
CHANGE_WEIGHT = 3.0  # a message that changes a fact ("we moved, I live in Rotterdam now") is what a summary must say


class SummaryLevel(StrEnum):
    NONE = "none"
    BRIEF = "brief"
    STANDARD = "standard"
    DETAILED = "detailed"
    HIERARCHICAL = "hierarchical"


# Each level applies under its bound (reference behaviours, agent-cli); hierarchical above all.
_BOUNDS = (
    (SummaryLevel.NONE, 100),
    (SummaryLevel.BRIEF, 500),
    (SummaryLevel.STANDARD, 3_000),
    (SummaryLevel.DETAILED, 15_000),
)


def level_for(tokens: int) -> SummaryLevel:
    """How deep a conversation of `tokens` tokens is summarized."""
    return next((level for level, bound in _BOUNDS if tokens < bound), SummaryLevel.HIERARCHICAL)


@dataclass(frozen=True)
class SummaryPart:
    level: PartLevel
    index: int
    text: str
    event_ids: tuple[str, ...]  # every event the part covers, in time order
    source: PartSource
    tokens_in: int
    tokens_out: int


@dataclass(frozen=True)
class ConversationSummary:
    conversation_id: str
    agent_id: str | None
    level: SummaryLevel
    parts: tuple[SummaryPart, ...] = ()

    @property
    def final(self) -> SummaryPart | None:
        """The L3: the one summary of the whole conversation (None at level none)."""
        return next((part for part in self.parts if part.level == "L3"), None)

    @property
    def event_ids(self) -> tuple[str, ...]:
        return _union(part.event_ids for part in self.parts)


def _union(groups: Iterable[Sequence[str]]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(event_id for group in groups for event_id in group))


# -- chunks ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chunk:
    turns: tuple[Event, ...]
    tokens: int
    overlap: int  # how many of the first turns repeat the end of the chunk before

    @property
    def event_ids(self) -> tuple[str, ...]:
        return tuple(turn.event_id for turn in self.turns)


Sized = tuple[Event, int]


def chunk_turns(
    turns: Sequence[Event], chunk_tokens: int = CHUNK_TOKENS, overlap_tokens: int = OVERLAP_TOKENS
) -> list[Chunk]:
    """Consecutive turns in chunks of at most `chunk_tokens` (a bigger single turn is a chunk of its own)."""
    return _chunks([(turn, count_tokens(turn.text)) for turn in turns], chunk_tokens, overlap_tokens)


def _chunks(sized: Sequence[Sized], chunk_tokens: int, overlap_tokens: int) -> list[Chunk]:
    if chunk_tokens < 1 or not 0 <= overlap_tokens < chunk_tokens:
        raise InvalidInput("overlap_tokens", f"must be at least 0 and under chunk_tokens ({chunk_tokens})")
    chunks: list[Chunk] = []
    current: list[Sized] = []
    size = overlap = 0
    for turn, tokens in sized:
        if current and size + tokens > chunk_tokens:
            chunks.append(_chunk(current, overlap))
            # The overlap must leave room for this turn: a chunk grows past the size only when one turn does.
            current = _tail(current, min(overlap_tokens, chunk_tokens - tokens))
            size, overlap = sum(n for _, n in current), len(current)
        current.append((turn, tokens))
        size += tokens
    if current:
        chunks.append(_chunk(current, overlap))
    return chunks


def _tail(sized: Sequence[Sized], limit: int) -> list[Sized]:
    """The last turns worth at most `limit` tokens: the overlap that starts the next chunk."""
    tail: list[Sized] = []
    total = 0
    for turn, tokens in reversed(sized):
        if total + tokens > limit:
            break
        tail.insert(0, (turn, tokens))
        total += tokens
    return tail


def _chunk(sized: Sequence[Sized], overlap: int) -> Chunk:
    return Chunk(tuple(turn for turn, _ in sized), sum(n for _, n in sized), overlap)


# -- the extractive summarizer --------------------------------------------------------------


def extractive(
    texts: Sequence[str],
    target_tokens: int,
    *,
    weights: Sequence[float] | None = None,
    max_sentences: int | None = None,
) -> str:
    """The most telling sentences of `texts`, in their order, within `target_tokens` (at least one).

    A sentence tells more the more of its content words recur across the texts (a
    conversation's subject recurs); `weights` scale each text's sentences.
    """
    candidates = _candidates(texts, weights or [1.0] * len(texts))
    if not candidates:  # nothing but one-word turns: the first one still says what happened
        return next((clip(text.strip(), SENTENCE_CHARS) for text in texts if text.strip()), "")
    chosen: list[tuple[int, str]] = []
    total = 0
    for _, position, sentence in sorted(candidates, key=lambda c: (-c[0], c[1])):
        tokens = count_tokens(sentence)
        if total + tokens <= target_tokens:
            chosen.append((position, sentence))
            total += tokens
        if total >= target_tokens or (max_sentences is not None and len(chosen) >= max_sentences):
            break
    if not chosen:  # no sentence fits the target: the best one, rather than nothing
        best = min(candidates, key=lambda c: (-c[0], c[1]))
        chosen = [(best[1], best[2])]
    return " ".join(sentence for _, sentence in sorted(chosen))


def _candidates(texts: Sequence[str], weights: Sequence[float]) -> list[tuple[float, int, str]]:
    return [(r.score, r.order, r.sentence) for r in ranked(texts, weights, SENTENCE_CHARS, keep=telling)]


# -- the model ------------------------------------------------------------------------------

_RULES = """Write only what the text says, using its own names and numbers: nothing invented, no advice,
no introduction such as "This conversation". Answer with JSON only: an object whose one key
"summary" holds your summary as text."""

BRIEF_PROMPT = f"""You summarize a short conversation between a user and an assistant in one sentence.
Say in at most 30 words what it was about and what was decided or found out.
{_RULES}"""

STANDARD_PROMPT = f"""You summarize a conversation between a user and an assistant in one paragraph.
In 3 to 6 sentences say what the user wanted, what was done or decided, what was found out
and what is still open, in the order it happened.
{_RULES}"""

CHUNK_PROMPT = f"""You summarize one part of a longer conversation between a user and an assistant.
In 2 to 5 sentences say what this part is about: what the user asked for, what was done or
decided and what was found out, in the order it happened.
{_RULES}"""

META_PROMPT = f"""You receive the summaries of consecutive parts of one conversation, in order,
separated by blank lines. Combine them into one summary of 3 to 8 sentences that tells the
whole conversation in order: its purpose, the decisions and results, and what is still open.
{_RULES}"""

# Small on purpose: a long maxLength here made llama-cpp-python's grammar compiler fail and its server die
# (issue 25). The answer's length is checked after it comes (`_validator`).
SUMMARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"summary": {"type": "string"}},
    "required": ["summary"],
    "additionalProperties": False,  # OpenAI's strict mode wants it; no grammar compiler minds it
}

# What small models copy from a template or write when they have nothing to say.
_PLACEHOLDERS = {"", "n/a", "na", "none", "null", "summary", "text", "tbd", "todo", "your summary"}


def _validator(source: str) -> Callable[[Any], str]:
    def validate(value: Any) -> str:
        text = value.get("summary") if isinstance(value, dict) else None
        if not isinstance(text, str):
            raise ValueError('expected an object {"summary": text}')
        text = text.strip()
        if " ".join(text.lower().split()).strip(" .…\"'<>[]{}") in _PLACEHOLDERS:
            raise ValueError(f"{text[:40]!r} is not a summary: write what the text says")
        if surrogate_at(text) is not None:
            raise ValueError("the summary holds half of a UTF-16 surrogate pair: write whole characters")
        if len(text) > len(source):
            raise ValueError("the summary is longer than the text it summarizes: write it shorter")
        if not set(terms(text)) & set(terms(source)):
            raise ValueError("the summary shares no words with the text: summarize what the text says")
        return text

    return validate


def _write(llm: LLM | None, prompt: str, source: str, fallback: Callable[[], str]) -> tuple[str, PartSource]:
    """The model's summary of `source` when it gives a usable one, else `fallback()`."""
    if llm is None:
        return fallback(), "extractive"
    messages = [{"role": "system", "content": prompt}, {"role": "user", "content": source[:MAX_PROMPT_CHARS]}]

    def attempt(client: ChatClient) -> str:
        return client.complete_json(messages, _validator(source), schema=SUMMARY_SCHEMA, purpose="summary")

    result = llm.run(attempt, fallback, job="summarize", background=True)
    return result.value, "llm" if result.source == "llm" else "extractive"


# -- the parts ------------------------------------------------------------------------------


def summarize_conversation(
    conversation_id: str, turns: Sequence[Event], llm: LLM | None, *, agent_id: str | None = None
) -> ConversationSummary:
    """The summary a conversation of these turns (its events, in time order) deserves by its length."""
    sized = [(turn, count_tokens(turn.text)) for turn in turns]
    level = level_for(sum(tokens for _, tokens in sized))
    if level is SummaryLevel.NONE:
        parts: list[SummaryPart] = []
    elif level is SummaryLevel.BRIEF:
        parts = [_whole(sized, llm, BRIEF_PROMPT, 1)]
    elif level is SummaryLevel.STANDARD:
        parts = [_whole(sized, llm, STANDARD_PROMPT, None)]
    else:
        parts = [_chunk_part(i, chunk, llm) for i, chunk in enumerate(_chunks(sized, CHUNK_TOKENS, OVERLAP_TOKENS))]
        below = parts
        if level is SummaryLevel.HIERARCHICAL:
            below = [
                _meta("L2", i // GROUP_SIZE, parts[i : i + GROUP_SIZE], llm) for i in range(0, len(parts), GROUP_SIZE)
            ]
            parts = parts + below
        parts.append(_meta("L3", 0, below, llm))
    return ConversationSummary(conversation_id, agent_id, level, tuple(parts))


def _target(tokens: int, share: float) -> int:
    return max(MIN_TARGET_TOKENS, round(tokens * share))


def _whole(sized: Sequence[Sized], llm: LLM | None, prompt: str, sentences: int | None) -> SummaryPart:
    """The one L3 of a brief (one sentence) or standard (a paragraph) summary."""
    turns = [turn for turn, _ in sized]
    tokens = sum(n for _, n in sized)
    target = _target(tokens, BRIEF_SHARE if sentences else STANDARD_SHARE)
    text, source = _write(llm, prompt, transcript(turns), lambda: _from_turns(turns, target, sentences))
    return _part("L3", 0, text, tuple(turn.event_id for turn in turns), source, tokens)


def _chunk_part(index: int, chunk: Chunk, llm: LLM | None) -> SummaryPart:
    target = _target(chunk.tokens, CHUNK_SHARE)
    turns = list(chunk.turns)
    text, source = _write(llm, CHUNK_PROMPT, transcript(turns), lambda: _from_turns(turns, target, None))
    return _part("L1", index, text, chunk.event_ids, source, chunk.tokens)


def _meta(level: PartLevel, index: int, below: Sequence[SummaryPart], llm: LLM | None) -> SummaryPart:
    """A summary of summaries: an L2 of a group of L1s, or the L3 of the L1s or L2s."""
    texts = [part.text for part in below]
    tokens = sum(part.tokens_out for part in below)
    target = min(META_MAX_TOKENS, _target(tokens, META_SHARE))
    text, source = _write(llm, META_PROMPT, "\n\n".join(texts), lambda: extractive(texts, target))
    return _part(level, index, text, _union(part.event_ids for part in below), source, tokens)


def _from_turns(turns: Sequence[Event], target: int, sentences: int | None) -> str:
    changed = {index for _, index, _ in change_bullets(turns, limit=len(turns))}  # what changed is told first
    weights = [
        _ROLE_WEIGHT.get(t.event_type, 1.0) * (CHANGE_WEIGHT if i in changed else 1.0) for i, t in enumerate(turns)
    ]
    return extractive([turn.text for turn in turns], target, weights=weights, max_sentences=sentences)


def _part(
    level: PartLevel, index: int, text: str, ids: tuple[str, ...], source: PartSource, tokens: int
) -> SummaryPart:
    return SummaryPart(level, index, text, ids, source, tokens, count_tokens(text))


def transcript(turns: Sequence[Event]) -> str:
    """Turns as the model reads them: `[role] text` lines."""
    return "\n".join(f"[{turn.role.value}] {turn.text.strip()}" for turn in turns if turn.text.strip())
