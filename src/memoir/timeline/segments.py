"""Segmentation (seed 002 and the reference's defaults): a session's events, grouped for summarizing.

A segment closes when the next event comes more than 30 minutes after its last one, or
would take it past 4,000 tokens (cl100k), or at the session's end; an open segment whose
session has been quiet for 30 minutes closes when the timeline next looks (`aged`). The
next segment starts with overlap events from the one before it (those within 5 minutes
of its first event, at most 500 tokens), for context; they are not counted in its tokens.
Tool results count their first 1,000 characters. A segment is not split before it has 2
events, so a single huge turn or a lone message followed by a long pause still joins the
next one; only a session's last segment can hold one event.

`SegmentJob` keeps this up to date in the fast lane: its writes commit with the outbox
entries it consumes, so each event is placed exactly once, and segment ids derive from
their first event, so nothing depends on the process that placed them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from memoir.history.tokens import count_tokens
from memoir.model import Event, EventType
from memoir.model.timeline import Segment
from memoir.store import Store

__all__ = ["SegmentJob", "SegmentRules", "Segmenter", "event_tokens"]


@dataclass(frozen=True)
class SegmentRules:
    gap_ms: int = 30 * 60_000
    max_tokens: int = 4_000
    overlap_ms: int = 5 * 60_000
    overlap_tokens: int = 500
    tool_chars: int = 1_000
    min_events: int = 2


def event_tokens(event: Event, rules: SegmentRules = SegmentRules()) -> int:
    text = event.text[: rules.tool_chars] if event.event_type is EventType.TOOL_RESULT else event.text
    return count_tokens(text)


class Segmenter:
    """Places events, one at a time, in their session's open segment."""

    def __init__(self, rules: SegmentRules = SegmentRules(), tokens: Callable[[Event], int] | None = None) -> None:
        self.rules = rules
        self.tokens = tokens or (lambda event: event_tokens(event, rules))

    def starts_new(self, open_segment: Segment, event: Event, tokens: int) -> bool:
        if len(open_segment.event_ids) < self.rules.min_events:
            return False
        gap = event.timestamp_ms - open_segment.end_ms
        return gap > self.rules.gap_ms or open_segment.token_count + tokens > self.rules.max_tokens

    def overlap(self, previous: Sequence[Event], start_ms: int) -> tuple[str, ...]:
        """The last events of the previous segment within the overlap window and token allowance."""
        chosen: list[str] = []
        total = 0
        for event in reversed(previous):
            tokens = self.tokens(event)
            if start_ms - event.timestamp_ms > self.rules.overlap_ms or total + tokens > self.rules.overlap_tokens:
                break
            chosen.append(event.event_id)
            total += tokens
        return tuple(reversed(chosen))

    def aged(self, segment: Segment, now_ms: int) -> bool:
        return now_ms - segment.end_ms > self.rules.gap_ms


def start(event: Event, tokens: int, agent_id: str | None, overlap: tuple[str, ...] = ()) -> Segment:
    return Segment(
        segment_id=f"seg-{event.event_id.lower()}",
        conversation_id=event.conversation_id,
        session_id=event.session_id,
        event_ids=(event.event_id,),
        start_ms=event.timestamp_ms,
        end_ms=event.timestamp_ms,
        token_count=tokens,
        overlap_event_ids=overlap,
        agent_id=agent_id,
    )


def extend(segment: Segment, event: Event, tokens: int) -> Segment:
    return replace(
        segment,
        event_ids=(*segment.event_ids, event.event_id),
        start_ms=min(segment.start_ms, event.timestamp_ms),
        end_ms=max(segment.end_ms, event.timestamp_ms),
        token_count=segment.token_count + tokens,
    )


class SegmentJob:
    """The `segment` job (fast lane): every event with text joins its session's open segment."""

    name = "segment"
    lane = "fast"

    def __init__(self, segmenter: Segmenter | None = None, *, unified: bool = False) -> None:
        self.segmenter = segmenter or Segmenter()
        self.unified = unified  # outside unified mode agent ids are informational: one scope per conversation

    def wants(self, event: Event) -> bool:
        return event.event_type is EventType.SESSION_END or bool(event.text.strip())

    def run(self, events: Sequence[Event], store: Store) -> None:
        sessions: dict[tuple[str, str | None, str], list[Event]] = {}
        for event in events:
            agent = event.agent_id if self.unified else None
            sessions.setdefault((event.conversation_id, agent, event.session_id), []).append(event)
        for (conversation_id, agent_id, session_id), group in sessions.items():
            current = store.segment_open(conversation_id, agent_id, session_id)
            for event in group:
                current = self._place(current, event, agent_id, store)
            if current is not None:
                store.segment_save(current)

    def _place(self, current: Segment | None, event: Event, agent_id: str | None, store: Store) -> Segment | None:
        if event.event_type is EventType.SESSION_END:
            if current is not None:
                store.segment_save(replace(current, state="closed"))
            return None
        tokens = self.segmenter.tokens(event)
        if current is None:
            return start(event, tokens, agent_id)
        if not self.segmenter.starts_new(current, event, tokens):
            return extend(current, event, tokens)
        store.segment_save(replace(current, state="closed"))
        tail = store.get_many(current.event_ids[-20:])  # more than 500 tokens' worth of short turns
        previous = [tail[i] for i in current.event_ids[-20:] if i in tail]
        return start(event, tokens, agent_id, self.segmenter.overlap(previous, event.timestamp_ms))
