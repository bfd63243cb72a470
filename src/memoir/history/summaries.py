"""Summaries of the messages a strategy compresses: a TL;DR from the LLM, or an extractive one.

- With an LLM (`memoir.llm.LLM`, job `compress_history`), the model gets the messages as
  a transcript (each clipped to 2,000 characters: a tool's output says least about the
  talk) and writes a TL;DR in Koog's five sections (Key Objectives, Tools Used & Results,
  Key Findings, Current Status, Next Steps), told that it will be the only context left
  besides the system message. When the model fails (or the breaker is open, or the job's
  budget is spent) the extractive summary stands in, unless the caller said
  `fallback=False`: then `CompressionFailed` says why.
- Without one, the summary quotes the messages' most telling sentences
  (`sentences.ranked`; user messages weigh more, tool results less) within a token
  allowance, in the order they were said. Each sentence carries a grip to the message it
  came from: its index in the input and its event id, where the message has one. The same
  messages give the same summary, byte for byte.

A summary is an assistant message, as Koog makes it: it is the conversation's own record,
not an instruction, so it must not gain a system message's authority; and many chat
templates refuse a system message anywhere but first. Its first line says which messages
it stands for ("Summary of messages 3-40 (earlier in this conversation):").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from memoir.errors import CompressionFailed, ModelOutputError, ModelUnavailable
from memoir.history.sentences import clip, ranked
from memoir.history.tokens import count_tokens
from memoir.llm.client import ChatClient
from memoir.llm.service import LLM
from memoir.model.chat import Message

__all__ = ["TLDR_SECTIONS", "Grip", "Summarizer", "Summary"]

Source = Literal["llm", "heuristics"]
Member = tuple[int, Message]  # a message to summarize, with its index in the input
EXCERPT_CHARS = 200
TRANSCRIPT_CHARS = 2_000
# What the user said is what a summary is for; a tool's output is long and says least about the talk.
_WEIGHT = {"user": 1.25, "tool": 0.5, "function": 0.5}
TLDR_SECTIONS = ("Key Objectives", "Tools Used & Results", "Key Findings", "Current Status", "Next Steps")
TLDR_SYSTEM = (
    "You condense a conversation between a user and an assistant. Your summary replaces the messages"
    " you are shown: after it, it will be the only context left of them besides the system message,"
    " so it must hold everything needed to carry on the conversation without them."
)
TLDR_ASK = (
    "Write a TL;DR of the conversation above in at most {words} words, under these headings:\n"
    + "\n".join(f"## {section}" for section in TLDR_SECTIONS)
    + "\nKeep names, numbers, dates, file names and decisions exactly as they were said. Write only the TL;DR."
)


@dataclass(frozen=True)
class Grip:
    """A summary's sentence and where it came from: the input messages (by index) and their events."""

    excerpt: str
    messages: tuple[int, ...]
    event_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Summary:
    message: Message  # the assistant message that stands for `covers`
    covers: tuple[int, ...]  # indices (in the input it was made from) of the messages it replaced
    event_ids: tuple[str, ...]  # their events, where they have them
    source: Source
    grips: tuple[Grip, ...] = ()  # extractive only: a model's paraphrase cannot point at its sources
    error: str | None = None  # why the extractive summary stood in for the LLM's


class Summarizer:
    """Summarizes regions for one compression: through `llm` when given, else extractively."""

    def __init__(self, llm: LLM | None, strategy: str, *, fallback: bool = True) -> None:
        self.llm = llm
        self.strategy = strategy
        self.fallback = fallback

    def summarize(self, members: Sequence[Member], allowance: int) -> Summary:
        covers = tuple(index for index, _ in members)
        events = tuple(m.event_id for _, m in members if m.event_id)
        if self.llm is None:
            body, grips = extractive(members, allowance)
            return Summary(_message(covers, body), covers, events, "heuristics", grips)
        text, error = self._tldr(members, allowance)
        if text is not None:
            return Summary(_message(covers, text), covers, events, "llm")
        body, grips = extractive(members, allowance)
        return Summary(_message(covers, body), covers, events, "heuristics", grips, error)

    def _tldr(self, members: Sequence[Member], allowance: int) -> tuple[str | None, str | None]:
        """The model's TL;DR, or (None, why) when the extractive summary is to stand in."""
        assert self.llm is not None
        failures: list[BaseException] = []
        words = max(30, allowance * 3 // 4)  # about 4 tokens to 3 words
        ask = [
            {"role": "system", "content": TLDR_SYSTEM},
            {"role": "user", "content": transcript(members) + "\n\n" + TLDR_ASK.format(words=words)},
        ]

        def attempt(client: ChatClient) -> str | None:
            try:
                text = client.chat(ask, purpose="history summary").strip()
                if not text:
                    raise ModelOutputError(f"model {client.model!r} wrote an empty summary")
                return text
            except Exception as exc:
                failures.append(exc)  # kept for CompressionFailed: `LLM.run` hands the fallback no error
                raise

        def instead() -> str | None:
            if not self.fallback:
                cause = failures[-1] if failures else ModelUnavailable(_not_asked(self.llm))
                raise CompressionFailed(self.strategy, cause)
            return None

        sourced = self.llm.run(attempt, instead, job="compress_history")
        return sourced.value, sourced.error


def _not_asked(llm: LLM | None) -> str:
    if llm is None or llm.client is None:
        return "no LLM is configured (llm.model)"
    return "the LLM was not asked: its circuit breaker is open or the job's token budget is spent"


def transcript(members: Sequence[Member]) -> str:
    """The messages as the model reads them: `[index] speaker: text`, tool calls named."""
    lines = []
    for index, message in members:
        speaker = f"tool {message.name}" if message.is_result and message.name else message.role
        text = clip(message.content.strip(), TRANSCRIPT_CHARS)
        calls = "; ".join(f"calls {c.name}({clip(c.arguments, 300)})" for c in message.tool_calls)
        lines.append(f"[{index}] {speaker}: " + " ".join(part for part in (text, calls) if part))
    return "\n".join(lines)


def extractive(members: Sequence[Member], allowance: int) -> tuple[str, tuple[Grip, ...]]:
    """The most telling sentences that fit `allowance` tokens, in the order said, each with its grip."""
    texts = [m.content for _, m in members]
    best = ranked(texts, [_WEIGHT.get(m.role, 1.0) for _, m in members], EXCERPT_CHARS)
    chosen, spent = [], 0
    for found in best:
        index = members[found.text][0]
        cost = count_tokens(_line(found.sentence, index)) + 1
        if spent + cost <= allowance:  # a shorter sentence further down may still fit
            chosen.append(found)
            spent += cost
        if allowance - spent < 8:  # no sentence is shorter than that, with its grip
            break
    chosen.sort(key=lambda r: r.order)
    grips = tuple(_grip(r.sentence, members[r.text]) for r in chosen)
    lines = [_line(g.excerpt, g.messages[0]) for g in grips]
    if not lines:
        lines = [f"- ({len(members)} messages; none of their sentences fitted the summary's {allowance} tokens)"]
    return "\n".join(lines), grips


def _grip(sentence: str, member: Member) -> Grip:
    index, message = member
    return Grip(sentence, (index,), (message.event_id,) if message.event_id else ())


def _line(sentence: str, index: int) -> str:
    return f"- {sentence} [message {index}]"


def _message(covers: tuple[int, ...], body: str) -> Message:
    span = f"message {covers[0]}" if covers[0] == covers[-1] else f"messages {covers[0]}-{covers[-1]}"
    return Message("assistant", f"Summary of {span} (earlier in this conversation):\n{body}")
