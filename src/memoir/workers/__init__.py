"""Background work: jobs, the outbox runner, and the workers that run one runner per lane."""

from memoir.workers.jobs import FAST_LANE, LLM_LANE, Job, JobRegistry, TrackSessionJob, lane_of
from memoir.workers.runner import OutboxRunner
from memoir.workers.worker import BackgroundWorker, Lanes, run_in_foreground

__all__ = [
    "FAST_LANE",
    "LLM_LANE",
    "BackgroundWorker",
    "Job",
    "JobRegistry",
    "Lanes",
    "OutboxRunner",
    "TrackSessionJob",
    "lane_of",
    "run_in_foreground",
]
