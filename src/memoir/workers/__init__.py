"""Background work: the outbox runner and the jobs it dispatches to."""

from memoir.workers.jobs import Job, JobRegistry, TrackSessionJob, default_registry
from memoir.workers.runner import BackgroundWorker, OutboxRunner

__all__ = ["BackgroundWorker", "Job", "JobRegistry", "OutboxRunner", "TrackSessionJob", "default_registry"]
