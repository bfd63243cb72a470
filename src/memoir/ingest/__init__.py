"""The write path beyond the log: fact extraction (rules, and a model on top), reconciliation, eviction."""

from memoir.ingest.changes import Reading, read
from memoir.ingest.extract import extract_by_rules, extract_with_llm, worth_extracting
from memoir.ingest.job import ExtractFactsJob, ExtractionStats
from memoir.ingest.reconcile import reconcile_with_llm, same_topic
from memoir.ingest.rule_decisions import Decision, reconcile_by_rules
from memoir.ingest.rules import Statement, statements

__all__ = [
    "Decision",
    "ExtractFactsJob",
    "ExtractionStats",
    "Reading",
    "Statement",
    "extract_by_rules",
    "extract_with_llm",
    "read",
    "reconcile_by_rules",
    "reconcile_with_llm",
    "same_topic",
    "statements",
    "worth_extracting",
]
