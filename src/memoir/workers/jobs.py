"""Jobs: the work derived from events, one outbox action each.

A job says which events it wants (`wants`) and processes a batch of them (`run`).
Ingest writes an outbox entry for every registered job that wants an event; the
runner hands the job its events in FIFO order and removes the entries in the
same transaction as the job's own store writes. So a job whose effects live in
the store runs exactly once per event, and a job with effects elsewhere (files,
other services) runs at least once and must make those effects idempotent.

Every job runs in a lane (`lane`, "fast" when a job does not say): the fast lane holds
store-side work measured in microseconds per event (the session catalogue, the search
index), the llm lane work that waits seconds on a model (fact extraction, summaries).
Each lane has its own runner and claims only its own jobs' entries, so a model that
hangs never delays indexing. Built-in jobs are registered in one place
(`memoir.facade.assembly`) through the same `JobRegistry.register` a user's job would use.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Protocol, runtime_checkable

from memoir.errors import ConfigError
from memoir.model import Event, OutboxAction
from memoir.store import Store
from memoir.workers.scheduler import PeriodicJob

__all__ = ["FAST_LANE", "LLM_LANE", "Job", "JobRegistry", "TrackSessionJob", "lane_of"]

FAST_LANE = "fast"  # store-side jobs: microseconds per event
LLM_LANE = "llm"  # jobs that wait on a model: seconds per event
_LANE_NAME = re.compile(r"[a-z0-9_]{1,32}")


@runtime_checkable
class Job(Protocol):
    """A unit of derived work. A job may also define `prepare(events, store)`: it runs
    before the transaction (for slow work such as embedding, which must not hold the
    write lock) and must be safe to repeat; `run` then commits with the entries' removal.
    A job may name its `lane` (default "fast"); a job that calls a model belongs in "llm".
    A job that takes seconds per event may name `commit_every` (events per commit, read at
    each claim): the runner then hands it that many events at a time and records each
    step's progress, so a crash costs one step, not everything claimed (default: all at once)."""

    name: str

    def wants(self, event: Event) -> bool: ...

    def run(self, events: Sequence[Event], store: Store) -> None: ...


class TrackSessionJob:
    """Keeps the session catalogue: per session, its span, event count and boundaries."""

    name = OutboxAction.TRACK_SESSION.value
    lane = FAST_LANE

    def wants(self, event: Event) -> bool:
        return True

    def run(self, events: Sequence[Event], store: Store) -> None:
        store.track_sessions(events)


class JobRegistry:
    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}
        self._periodic: dict[str, PeriodicJob] = {}
        self._lanes: list[str] = []

    def register(self, job: Job) -> Job:
        if not isinstance(job, Job):
            raise ConfigError(f"{job!r} is not a job: it needs a name, wants(event) and run(events, store)")
        if job.name in self._jobs and self._jobs[job.name] is not job:
            raise ConfigError(f"a job named {job.name!r} is already registered")
        if not _LANE_NAME.fullmatch(lane := lane_of(job)):
            raise ConfigError(f"job {job.name!r} names the lane {lane!r}: use lowercase letters, digits and _")
        self._jobs[job.name] = job
        lanes = [lane_of(j) for j in self._jobs.values()] + [j.lane for j in self._periodic.values()]
        self._lanes = list(dict.fromkeys(lanes))
        return job

    def register_periodic(self, job: PeriodicJob) -> PeriodicJob:
        """A job that finds its work in the store; its lane's runner ticks it when the outbox is empty."""
        if not isinstance(job, PeriodicJob):
            raise ConfigError(f"{job!r} is not a periodic job: it needs a name, a lane, backlog() and tick()")
        if job.name in self._jobs or (job.name in self._periodic and self._periodic[job.name] is not job):
            raise ConfigError(f"a job named {job.name!r} is already registered")
        self._periodic[job.name] = job
        self._lanes = list(dict.fromkeys([*self._lanes, job.lane]))
        return job

    def periodic_in(self, lane: str) -> list[PeriodicJob]:
        return [job for job in self._periodic.values() if job.lane == lane]

    @property
    def periodic(self) -> dict[str, PeriodicJob]:
        return dict(self._periodic)

    @property
    def all_names(self) -> list[str]:
        """Every job, outbox and periodic: what the scheduler can pause."""
        return [*self._jobs, *self._periodic]

    def get(self, name: str) -> Job | None:
        return self._jobs.get(name)

    @property
    def names(self) -> list[str]:
        return list(self._jobs)

    @property
    def lanes(self) -> list[str]:
        """The lanes that have jobs, in the order their first job was registered (asked at every ingest)."""
        return list(self._lanes)

    def lane(self, name: str) -> str:
        return lane_of(self._jobs[name])

    def names_in(self, lane: str) -> list[str]:
        return [name for name, job in self._jobs.items() if lane_of(job) == lane]

    def actions_for(self, event: Event) -> Iterator[str]:
        return (name for name, job in self._jobs.items() if job.wants(event))


def lane_of(job: Job) -> str:
    lane = getattr(job, "lane", FAST_LANE)
    return lane if isinstance(lane, str) else repr(lane)
