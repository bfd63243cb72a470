"""The write path beyond the log: fact extraction, reconciliation, eviction."""

from memoir.ingest.extract import extract_by_rules, extract_with_llm, worth_extracting
from memoir.ingest.job import ExtractFactsJob, ExtractionStats
from memoir.ingest.reconcile import Decision, reconcile_by_rules, reconcile_with_llm, same_topic

__all__ = [
    "Decision",
    "ExtractFactsJob",
    "ExtractionStats",
    "extract_by_rules",
    "extract_with_llm",
    "reconcile_by_rules",
    "reconcile_with_llm",
    "same_topic",
    "worth_extracting",
]
