"""The timeline's types (seed 002): segments, TOC nodes and bullets, grips and their context.

A segment groups a session's events for summarizing; each summarized segment is a TOC
node at level `segment`, rolled up into day, week, month and year nodes. Every bullet
names grips, and a grip names the range of events (`event_id_start`..`event_id_end`)
that supports it, so any claim of a summary ends at messages.

Node ids follow the seed (`toc:day:2024-01-15`) and are unique within a scope: one
conversation (and, in unified mode, one agent). Every node carries its scope.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum

from memoir.model.event import Event

__all__ = [
    "Grip",
    "GripContext",
    "Segment",
    "TocBullet",
    "TocLevel",
    "TocNode",
    "TocPage",
    "period_of",
    "period_start",
]


class TocLevel(StrEnum):
    YEAR = "year"
    MONTH = "month"
    WEEK = "week"
    DAY = "day"
    SEGMENT = "segment"

    @property
    def parent(self) -> TocLevel | None:
        order = list(TocLevel)
        index = order.index(self)
        return order[index - 1] if index else None

    @property
    def child(self) -> TocLevel | None:
        order = list(TocLevel)
        index = order.index(self)
        return order[index + 1] if index + 1 < len(order) else None


@dataclass(frozen=True)
class TocBullet:
    text: str
    grip_ids: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"text": self.text, "grip_ids": list(self.grip_ids)}


@dataclass(frozen=True)
class Grip:
    """An excerpt anchored to the events that support it."""

    grip_id: str
    excerpt: str
    event_id_start: str
    event_id_end: str
    timestamp: datetime
    source: str  # which process made it: segment_summarizer, extractive_summarizer
    toc_node_id: str | None = None
    conversation_id: str = ""
    agent_id: str | None = None

    def to_dict(self) -> dict[str, object]:
        data = {name: getattr(self, name) for name in self.__dataclass_fields__}
        data["timestamp"] = _iso(self.timestamp)
        return data


# What makes two versions of a node differ: all but the version and when it was written.
_CONTENT = ("title", "bullets", "keywords", "child_node_ids", "start_time", "end_time", "parent_id", "source", "note")


@dataclass(frozen=True)
class TocNode:
    node_id: str
    level: TocLevel
    title: str
    start_time: datetime
    end_time: datetime
    bullets: tuple[TocBullet, ...] = ()
    keywords: tuple[str, ...] = ()
    child_node_ids: tuple[str, ...] = ()
    version: int = 1
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    conversation_id: str = ""
    agent_id: str | None = None
    parent_id: str | None = None
    source: str = "extractive"  # what wrote the bullets: llm, extractive, rollup
    note: str | None = None  # why a model's answer was replaced, when it was

    @property
    def grip_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(g for b in self.bullets for g in b.grip_ids))

    def to_dict(self) -> dict[str, object]:
        data = {name: getattr(self, name) for name in self.__dataclass_fields__}
        data.update(
            level=self.level.value,
            start_time=_iso(self.start_time),
            end_time=_iso(self.end_time),
            created_at=_iso(self.created_at),
            bullets=[b.to_dict() for b in self.bullets],
            keywords=list(self.keywords),
            child_node_ids=list(self.child_node_ids),
        )
        return data

    def same_content(self, other: TocNode) -> bool:
        """Equal but for version and creation time: no new version is needed (a node moved is a change)."""
        return all(getattr(self, k) == getattr(other, k) for k in _CONTENT)


@dataclass(frozen=True)
class TocPage:
    nodes: list[TocNode]
    next_cursor: str | None
    has_more: bool


@dataclass(frozen=True)
class GripContext:
    grip: Grip
    events_before: list[Event]
    excerpt_events: list[Event]
    events_after: list[Event]


@dataclass(frozen=True)
class Segment:
    """A run of a session's events summarized together; `overlap_event_ids` come from the one before."""

    segment_id: str
    conversation_id: str
    session_id: str
    event_ids: tuple[str, ...]
    start_ms: int
    end_ms: int
    token_count: int
    overlap_event_ids: tuple[str, ...] = ()
    agent_id: str | None = None
    state: str = "open"  # open, closed (to summarize), summarized

    @property
    def node_id(self) -> str:
        return f"toc:segment:{_day(self.start_ms).isoformat()}:{self.segment_id}"


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _day(ms: int) -> date:
    return datetime.fromtimestamp(ms / 1000, UTC).date()


def period_of(level: TocLevel, moment: date) -> tuple[str, str, datetime, datetime]:
    """(node id, title, start, end) of the calendar period at `level` holding `moment` (UTC).

    Weeks are ISO weeks cut at the ends of months (decision 91): a week whose days fall in
    two months is one node per month, `toc:week:2026-W01:2025-12` and `toc:week:2026-W01:2026-01`,
    so every day is under a week of its own month and year; a whole week keeps its ISO id.
    """
    if level is TocLevel.DAY:
        start = datetime(moment.year, moment.month, moment.day, tzinfo=UTC)
        title = (
            f"{calendar.day_name[moment.weekday()]}, {calendar.month_name[moment.month]} {moment.day}, {moment.year}"
        )
        return f"toc:day:{moment.isoformat()}", title, start, start + timedelta(days=1)
    if level is TocLevel.WEEK:
        return _week_of(moment)
    if level is TocLevel.MONTH:
        title = f"{calendar.month_name[moment.month]} {moment.year}"
        return (
            f"toc:month:{moment.year}-{moment.month:02d}",
            title,
            _midnight(moment.replace(day=1)),
            _month_end(moment),
        )
    if level is TocLevel.YEAR:
        start = datetime(moment.year, 1, 1, tzinfo=UTC)
        return f"toc:year:{moment.year}", str(moment.year), start, datetime(moment.year + 1, 1, 1, tzinfo=UTC)
    raise ValueError(f"segments are not calendar periods: {level}")


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def _month_end(moment: date) -> datetime:
    return _midnight(moment.replace(day=1)) + timedelta(days=calendar.monthrange(moment.year, moment.month)[1])


def _week_of(moment: date) -> tuple[str, str, datetime, datetime]:
    """The ISO week holding `moment`, or its part in `moment`'s month when the week spans two."""
    year, week, weekday = moment.isocalendar()
    monday = _midnight(moment - timedelta(days=weekday - 1))
    start = max(monday, _midnight(moment.replace(day=1)))
    end = min(monday + timedelta(days=7), _month_end(moment))
    node_id = f"toc:week:{year}-W{week:02d}"
    if end - start < timedelta(days=7):  # cut by the start or the end of the month
        node_id += f":{moment.year}-{moment.month:02d}"
    last = end - timedelta(days=1)
    span = f"{calendar.month_abbr[start.month]} {start.day} - {calendar.month_abbr[last.month]} {last.day}"
    return node_id, f"Week {week}, {year} ({span})", start, end


def period_start(node_id: str) -> date:
    """The first day of the period a calendar node id names (`toc:week:2025-W01:2024-12` -> 2024-12-30)."""
    _, level, stamp = node_id.split(":", 2)
    if level == TocLevel.DAY.value:
        return date.fromisoformat(stamp)
    if level == TocLevel.WEEK.value:
        iso, _, month = stamp.partition(":")
        year, week = iso.split("-W")
        monday = date.fromisocalendar(int(year), int(week), 1)
        return max(monday, period_start(f"toc:month:{month}")) if month else monday  # a part: from the 1st
    if level == TocLevel.MONTH.value:
        year, month = stamp.split("-")
        return date(int(year), int(month), 1)
    if level == TocLevel.YEAR.value:
        return date(int(stamp), 1, 1)
    raise ValueError(f"{node_id!r} names no calendar period")
