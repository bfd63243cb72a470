"""The timeline's periodic jobs, ticked by the llm lane's runner when its outbox is empty."""

from __future__ import annotations

from memoir.timeline.builder import TimelineBuilder

__all__ = ["RollupJob", "SummarizeJob"]


class SummarizeJob:
    """Closes the segments of quiet sessions and summarizes closed segments, a few per tick."""

    name = "summarize"
    lane = "llm"  # it may wait on a model

    def __init__(self, builder: TimelineBuilder, per_tick: int = 5) -> None:
        self.builder = builder
        self.per_tick = per_tick

    def backlog(self) -> int:
        return self.builder.backlog()

    def tick(self) -> int:
        return self.builder.close_aged() + self.builder.summarize_closed(limit=self.per_tick)


class RollupJob:
    """Rolls segments up into days, weeks, months and years once their periods have aged."""

    name = "rollup"
    lane = "llm"  # after the summaries it rolls up, in the same runner

    def __init__(self, builder: TimelineBuilder) -> None:
        self.builder = builder

    def backlog(self) -> int:
        return self.builder.rollups_due()

    def tick(self) -> int:
        return self.builder.roll_up()
