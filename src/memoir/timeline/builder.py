"""The timeline's slow work: closing aged segments, summarizing them, rolling nodes up.

- A closed segment becomes a TOC node at level `segment` with its grips: from the model
  when one answers well (`prompts`), else extractive (`grips.extractive`), the reason kept
  on the node. The model is asked outside any transaction; the node, its grips, the
  segment's new state and its search item then commit together, so a crash before the
  commit redoes the segment and a crash after it finds it done: never two nodes.
- Rollups: day <- segments, week <- days (ISO weeks, cut at the ends of months), month <- weeks,
  year <- months, so a day is always under its own month and year.
  A period's node is written with its first child, so the tree is whole at once (a
  node's children are found by their `parent_id`, so browsing never waits); later
  changes of its children are rolled into it once the period has aged (day 1 h after it
  ends, week and month 24 h, year 7 days), or at once when forced, as a new version.
  A rollup's bullets are its children's, grips and all, picked in turn from each child,
  so every claim of a year still ends at messages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime

from memoir.index.embedders import CachedEmbedder, content_hash
from memoir.llm import LLM
from memoir.model import Event, now_ms
from memoir.model.timeline import Grip, Segment, TocBullet, TocLevel, TocNode, period_of, period_start
from memoir.store import IndexItem, Store
from memoir.timeline.grips import Draft, extractive, grip_id
from memoir.timeline.prompts import summarize_with_llm
from memoir.timeline.segments import Segmenter, SegmentJob

__all__ = ["ROLLUP_AGE_MS", "TimelineBuilder"]

HOUR_MS = 3_600_000
SEGMENT_JOB = SegmentJob.name
ROLLUP_AGE_MS = {
    TocLevel.DAY: HOUR_MS,
    TocLevel.WEEK: 24 * HOUR_MS,
    TocLevel.MONTH: 24 * HOUR_MS,
    TocLevel.YEAR: 7 * 24 * HOUR_MS,
}
Progress = Callable[[int, int], None]


class TimelineBuilder:
    def __init__(
        self,
        store: Store,
        llm: Callable[[], LLM],
        embedder: Callable[[], CachedEmbedder] | None = None,
        segmenter: Segmenter | None = None,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.store = store
        self.llm = llm
        self.embedder = embedder
        self.segmenter = segmenter or Segmenter()
        self.clock = clock

    # -- segments -------------------------------------------------------------------------

    def close_aged(self, *, all_open: bool = False) -> int:
        """Close open segments whose session went quiet (every open one with `all_open`).

        Not while events wait for the `segment` job: an old conversation imported in several
        batches looks quiet by its timestamps, and closing its segment between two batches
        would cut a session where a batch happened to end. The check and the closing share
        one write transaction with the job's, so none can slip in between.
        """
        now = self.clock()
        until = None if all_open else now - self.segmenter.rules.gap_ms
        with self.store.atomic():
            if self.store.outbox_pending([SEGMENT_JOB]):
                return 0
            aged = self.store.segments("open", ended_before_ms=until, limit=10_000)
            for segment in aged:
                self.store.segment_save(replace(segment, state="closed"))
        return len(aged)

    def summarize_closed(self, limit: int = 20, progress: Progress | None = None) -> int:
        """Summarize up to `limit` closed segments, oldest first; returns how many."""
        waiting = self.store.segments("closed", limit=limit)
        for done, segment in enumerate(waiting, 1):
            self.summarize(segment)
            if progress is not None:
                progress(done, len(waiting))
        return len(waiting)

    def summarize(self, segment: Segment) -> TocNode:
        found = self.store.get_many(segment.event_ids)
        events = [found[i] for i in segment.event_ids if i in found and found[i].text.strip()]
        events.sort(key=lambda e: (e.timestamp_ms, e.event_id))
        llm = self.llm()
        result = llm.run(
            lambda client: summarize_with_llm(client, events),
            lambda: extractive(events),
            job="summarize",
            background=True,
        )
        note = None
        if result.error and llm.configured:
            note = f"the model's summary was replaced by an extractive one: {result.error}"
        source = "llm" if result.source == "llm" else "extractive"
        node, grips = self._segment_node(segment, events, result.value, source, note)
        item = summary_item(node, segment, [e.event_id for e in events], grips)
        if self.embedder is not None:
            self.embedder().embed_hashed([item.search_text])  # before the transaction: slow work holds no lock
        with self.store.atomic():
            stored = self.store.toc_put(node, grips, created_ms=self.clock())
            self.store.segment_save(replace(segment, state="summarized"))
            self.store.index_remove([node.node_id])
            self.store.index_add([item])
        return stored

    def _segment_node(
        self, segment: Segment, events: Sequence[Event], draft: Draft, source: str, note: str | None
    ) -> tuple[TocNode, list[Grip]]:
        start = datetime.fromtimestamp(segment.start_ms / 1000, UTC)
        day_id = period_of(TocLevel.DAY, start.date())[0]
        grips: list[Grip] = []
        bullets: list[TocBullet] = []
        maker = "segment_summarizer" if source == "llm" else "extractive_summarizer"
        for text, found in draft.bullets:
            first, last = events[found.start], events[found.end]
            grip = Grip(
                grip_id=grip_id(first.timestamp_ms, segment.node_id, text, found.excerpt),
                excerpt=found.excerpt,
                event_id_start=first.event_id,
                event_id_end=last.event_id,
                timestamp=first.timestamp,
                source=maker,
                toc_node_id=segment.node_id,
                conversation_id=segment.conversation_id,
                agent_id=segment.agent_id,
            )
            grips.append(grip)
            bullets.append(TocBullet(text, (grip.grip_id,)))
        node = TocNode(
            node_id=segment.node_id,
            level=TocLevel.SEGMENT,
            title=draft.title,
            start_time=start,
            end_time=datetime.fromtimestamp(segment.end_ms / 1000, UTC),
            bullets=tuple(bullets),
            keywords=draft.keywords,
            conversation_id=segment.conversation_id,
            agent_id=segment.agent_id,
            parent_id=day_id,
            source=source,
            note=note,
        )
        return node, grips

    def index_items(self) -> list[IndexItem]:
        """Every segment summary as a search item (for `memoir reindex`)."""
        items = []
        for segment in self.store.segments("summarized", limit=2**31):
            node = self.store.toc_get(segment.conversation_id, segment.agent_id, segment.node_id)
            if node is not None:
                grips = list(self.store.grips_get(node.grip_ids).values())
                items.append(summary_item(node, segment, list(segment.event_ids), grips))
        return items

    # -- rollups --------------------------------------------------------------------------

    def roll_up(self, *, force: bool = False) -> int:
        """Build or rebuild every aged parent of a changed node, level by level; returns nodes written."""
        written = 0
        for level in (TocLevel.SEGMENT, TocLevel.DAY, TocLevel.WEEK, TocLevel.MONTH):
            for conversation_id, agent_id, parent_id in self._due(level, force):
                children = self.store.toc_children(conversation_id, agent_id, parent_id)
                parent_level = TocLevel(parent_id.split(":")[1])
                node = rollup(parent_level, period_start(parent_id), children, conversation_id, agent_id)
                self.store.toc_put(node, created_ms=self.clock())
                written += 1
        return written

    def rollups_due(self) -> int:
        """Parents waiting for a rollup now (those of the levels whose children exist already)."""
        return sum(
            len(self._due(level, False)) for level in (TocLevel.SEGMENT, TocLevel.DAY, TocLevel.WEEK, TocLevel.MONTH)
        )

    def _due(self, level: TocLevel, force: bool) -> list[tuple[str, str | None, str]]:
        """Parents of changed `level` nodes to (re)build now: those missing (a period's node exists
        from its first child on, so the tree is whole), those whose period has aged, all when forced."""
        parent_level = level.parent
        assert parent_level is not None
        due = []
        for conversation_id, agent_id, parent_id, missing in self.store.toc_stale_parents(level):
            end = period_of(parent_level, period_start(parent_id))[3]
            if missing or force or self.clock() >= int(end.timestamp() * 1000) + ROLLUP_AGE_MS[parent_level]:
                due.append((conversation_id, agent_id, parent_id))
        return due

    def backlog(self) -> int:
        """Segments waiting for a summary (closed, or open in a quiet session)."""
        closed = self.store.segment_counts().get("closed", 0)
        if self.store.outbox_pending([SEGMENT_JOB]):
            return closed  # quiet segments close once the segment job has caught up (close_aged)
        return closed + self.store.segment_counts(self.clock() - self.segmenter.rules.gap_ms).get("open", 0)


def summary_item(node: TocNode, segment: Segment, order: list[str], grips: Sequence[Grip]) -> IndexItem:
    """A segment's summary as a search item (kind `summary`): its hits carry the grips' events."""
    cited: list[str] = []
    for grip in grips:
        if grip.event_id_start in order and grip.event_id_end in order:
            cited.extend(order[order.index(grip.event_id_start) : order.index(grip.event_id_end) + 1])
    text = node.title + "\n" + "\n".join(f"- {b.text}" for b in node.bullets)
    return IndexItem(
        kind="summary",
        ref=node.node_id,
        conversation_id=node.conversation_id,
        agent_id=node.agent_id,
        created_ms=segment.end_ms,
        text=text,
        search_text=text,
        content_hash=content_hash(text),
        event_ids=tuple(dict.fromkeys(cited)),
        metadata={"node_id": node.node_id, "title": node.title, "source": node.source},
        session_id=segment.session_id,
    )


def rollup(
    level: TocLevel, first_day: date, children: Sequence[TocNode], conversation_id: str, agent_id: str | None
) -> TocNode:
    node_id, title, start, end = period_of(level, first_day)
    parent = level.parent  # every period lies inside its parent (decision 91): its first day places it
    parent_id = period_of(parent, first_day)[0] if parent is not None else None
    bullets: list[TocBullet] = []
    seen: set[str] = set()
    for rank in range(max((len(c.bullets) for c in children), default=0)):
        for child in children:  # in turn from each child: a busy day does not crowd out a quiet one
            if rank < len(child.bullets) and len(bullets) < 5 and child.bullets[rank].text.lower() not in seen:
                seen.add(child.bullets[rank].text.lower())
                bullets.append(child.bullets[rank])
    keywords = Counter(k for c in children for k in c.keywords)
    return TocNode(
        node_id=node_id,
        level=level,
        title=title,
        start_time=start,
        end_time=end,
        bullets=tuple(bullets),
        keywords=tuple(k for k, _ in keywords.most_common(7)),
        child_node_ids=tuple(c.node_id for c in children),
        conversation_id=conversation_id,
        agent_id=agent_id,
        parent_id=parent_id,
        source="rollup",
    )
