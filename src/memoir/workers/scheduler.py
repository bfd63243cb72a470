"""The scheduler: every job's status, and pause and resume that survive restarts.

Two kinds of job share a lane's runner. Outbox jobs (index, extract, segment) work on
the entries ingest writes, and their checkpoints are the outbox itself: an entry goes
only with the commit of its work. Periodic jobs (summarize, rollup) look for work the
store already describes (closed segments, aged periods) whenever their lane's outbox
is empty; each unit of their work commits alone and says it is done in the same
transaction (a segment's state, a node's version), which is their checkpoint: a crash
costs the unit under way, and a replay finds the rest done.

A paused job keeps its backlog: its entries stay in the outbox and its periodic work
waits, for every process of the home, until it is resumed (the flag is in the store).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from memoir.errors import InvalidQuery, StoreError
from memoir.model import now_ms
from memoir.store import Store, TimelineStore

__all__ = ["JobStatus", "PeriodicJob", "Ticker", "job_statuses", "set_paused"]

log = logging.getLogger("memoir.workers")


@runtime_checkable
class PeriodicJob(Protocol):
    """Work found in the store rather than handed over by the outbox."""

    name: str
    lane: str

    def backlog(self) -> int: ...

    def tick(self) -> int: ...


@dataclass(frozen=True)
class JobStatus:
    name: str
    lane: str
    kind: str  # outbox or periodic
    paused: bool
    backlog: int
    last_run_ms: int | None
    runs: int  # events processed (outbox jobs) or units of work done (periodic jobs)
    failures: int
    last_error: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def job_statuses(store: Store, outbox: dict[str, str], periodic: dict[str, PeriodicJob]) -> list[JobStatus]:
    """Every registered job (`outbox`: name -> lane), in registration order."""
    states = store.job_states()
    checkpoints = {c.job: c for c in store.checkpoints()}
    stats = store.stats()
    statuses = []
    for name, lane in outbox.items():
        paused = states.get(name, (False, None, 0, 0, None))[0]
        checkpoint = checkpoints.get(name)
        statuses.append(
            JobStatus(
                name, lane, "outbox", paused, stats.outbox_pending.get(name, 0),
                checkpoint.updated_at_ms if checkpoint else None, checkpoint.processed if checkpoint else 0,
                stats.outbox_failed.get(name, 0),
            )
        )  # fmt: skip
    for name, job in periodic.items():
        paused, last, runs, failures, error = states.get(name, (False, None, 0, 0, None))
        statuses.append(JobStatus(name, job.lane, "periodic", paused, job.backlog(), last, runs, failures, error))
    return statuses


def set_paused(store: TimelineStore, known: list[str], name: str, paused: bool) -> None:
    if name not in known:
        raise InvalidQuery("name", f"no job {name!r}: the jobs are {', '.join(known)}")
    store.job_pause(name, paused)


class Ticker:
    """Ticks a lane's periodic jobs; a job that fails waits `backoff_s` before its next tick, and
    its backlog does not count meanwhile, so a drain never waits on a job that keeps failing."""

    def __init__(self, store: Store, backoff_s: float = 30.0) -> None:
        self.store = store
        self.backoff_s = backoff_s
        self._retry_at: dict[str, float] = {}

    def ready(self, jobs: list[PeriodicJob]) -> list[PeriodicJob]:
        paused = self.store.paused_jobs() if jobs else set()
        now = time.monotonic()
        return [j for j in jobs if j.name not in paused and self._retry_at.get(j.name, 0.0) <= now]

    def backlog(self, jobs: list[PeriodicJob]) -> int:
        return sum(job.backlog() for job in self.ready(jobs))

    def tick(self, jobs: list[PeriodicJob]) -> int:
        """One tick of each ready job; returns the units of work done."""
        done = 0
        for job in self.ready(jobs):
            try:
                # One process at a time per job: on a shared database, other processes skip it.
                with self.store.periodic_turn(job.name) as mine:
                    worked = job.tick() if mine else 0
            except StoreError:
                raise  # the store itself: not the job's fault, the runner waits and retries
            except Exception as exc:  # noqa: BLE001 - a job's failure is its own: recorded, retried later
                error = f"{type(exc).__name__}: {exc}"
                log.warning("periodic job %s failed (retried in %g s): %s", job.name, self.backoff_s, error)
                self._retry_at[job.name] = time.monotonic() + self.backoff_s
                self.store.job_ran(job.name, now_ms(), error)
                continue
            if worked:
                self.store.job_ran(job.name, now_ms(), done=worked)
                done += worked
        return done
