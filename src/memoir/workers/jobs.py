"""Jobs: the work derived from events, one outbox action each.

A job says which events it wants (`wants`) and processes a batch of them (`run`).
Ingest writes an outbox entry for every registered job that wants an event; the
runner hands the job its events in FIFO order and removes the entries in the
same transaction as the job's own store writes. So a job whose effects live in
the store runs exactly once per event, and a job with effects elsewhere (files,
other services) runs at least once and must make those effects idempotent.

Built-in jobs are registered through the same `JobRegistry.register` a user's job
would use. This release has one: `track_session`, the session catalogue that
status and later the timeline read. Search indexing, fact extraction and the
timeline arrive as further jobs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol, runtime_checkable

from memoir.errors import ConfigError
from memoir.model import Event, OutboxAction
from memoir.store import Store

__all__ = ["Job", "JobRegistry", "TrackSessionJob", "default_registry"]


@runtime_checkable
class Job(Protocol):
    """A unit of derived work. A job may also define `prepare(events, store)`: it runs
    before the transaction (for slow work such as embedding, which must not hold the
    write lock) and must be safe to repeat; `run` then commits with the entries' removal."""

    name: str

    def wants(self, event: Event) -> bool: ...

    def run(self, events: Sequence[Event], store: Store) -> None: ...


class TrackSessionJob:
    """Keeps the session catalogue: per session, its span, event count and boundaries."""

    name = OutboxAction.TRACK_SESSION.value

    def wants(self, event: Event) -> bool:
        return True

    def run(self, events: Sequence[Event], store: Store) -> None:
        store.track_sessions(events)


class JobRegistry:
    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}

    def register(self, job: Job) -> Job:
        if not isinstance(job, Job):
            raise ConfigError(f"{job!r} is not a job: it needs a name, wants(event) and run(events, store)")
        if job.name in self._jobs and self._jobs[job.name] is not job:
            raise ConfigError(f"a job named {job.name!r} is already registered")
        self._jobs[job.name] = job
        return job

    def get(self, name: str) -> Job | None:
        return self._jobs.get(name)

    @property
    def names(self) -> list[str]:
        return list(self._jobs)

    def actions_for(self, event: Event) -> Iterator[str]:
        return (name for name, job in self._jobs.items() if job.wants(event))


def default_registry() -> JobRegistry:
    registry = JobRegistry()
    registry.register(TrackSessionJob())
    return registry
