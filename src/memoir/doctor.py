"""`memoir doctor`: does the event log, the vault and the index agree, and do the models work?

Read-only: it reports; `memoir reindex` (index) and opening the home (vault sync) repair.
Each finding has a level: `ok`, `warning` (works, but worth knowing) or `error` (broken).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memoir.errors import MemoirError
from memoir.vault import VaultFileError

if TYPE_CHECKING:
    from memoir.engine import Memoir

__all__ = ["Finding", "examine"]


@dataclass(frozen=True)
class Finding:
    level: str  # ok, warning, error
    area: str  # events, vault, index, models
    message: str


def examine(memoir: Memoir) -> list[Finding]:
    return [*_events(memoir), *_vault(memoir), *_index(memoir), *_models(memoir)]


def _events(memoir: Memoir) -> list[Finding]:
    store = memoir.store
    integrity = getattr(store, "integrity_check", lambda: ["ok"])()
    findings = [
        Finding("ok", "events", f"{store.count_events():,} events; database integrity ok")
        if integrity == ["ok"]
        else Finding("error", "events", f"database integrity check failed: {'; '.join(integrity[:3])}")
    ]
    failed = store.stats().outbox_failed
    if failed:
        listing = ", ".join(f"{job} {count}" for job, count in failed.items())
        findings.append(
            Finding(
                "error",
                "events",
                f"outbox entries set aside after failures: {listing}"
                " (see the log; `memoir worker --retry-failed` retries them)",
            )
        )
    return findings


def _vault(memoir: Memoir) -> list[Finding]:
    findings: list[Finding] = []
    known = memoir.store.memory_files()
    on_disk: dict[str, tuple[str, str]] = {}
    for path, found in memoir.vault.scan():
        if isinstance(found, VaultFileError):
            findings.append(Finding("error", "vault", f"unreadable memory file: {found}"))
        else:
            on_disk[found.id] = (str(path), hashlib.sha256(path.read_bytes()).hexdigest())
    changed = [i for i in on_disk if i in known and known[i] != on_disk[i]]
    new = [i for i in on_disk if i not in known]
    gone = [i for i in known if i not in on_disk and known[i][1]]
    for what, ids in (("changed on disk", changed), ("not yet indexed", new), ("deleted on disk", gone)):
        if ids:
            findings.append(Finding("warning", "vault", f"{len(ids)} memory file(s) {what}; reopening syncs them"))
    if not findings:
        findings.append(Finding("ok", "vault", f"{len(on_disk)} memory files agree with the index"))
    return findings


def _index(memoir: Memoir) -> list[Finding]:
    store = memoir.store
    job = memoir.jobs.get("index_event")
    pending = store.outbox_pending(["index_event"])
    missing = 0
    cursor = None
    while True:  # every event the index job wants must be an index item (or still be pending)
        page = memoir.events(limit=5000, cursor=cursor)
        wanted = [e.event_id for e in page if job is not None and job.wants(e)]
        items = store.index_items_by_ref(wanted) if wanted else set()
        missing += len(set(wanted) - items)
        cursor = page.next_cursor
        if cursor is None:
            break
    live = {m.id for m in store.memory_list()}
    unindexed_memories = len(live - store.index_items_by_ref(list(live))) if live else 0
    if missing > pending or unindexed_memories:
        return [
            Finding(
                "error",
                "index",
                f"{missing - pending} event(s) and {unindexed_memories} memory(ies) are"
                " missing from the search index: run `memoir reindex`",
            )
        ]
    note = f" ({pending} waiting in the outbox)" if pending else ""
    return [Finding("ok", "index", f"{store.index_count():,} searchable items{note}")]


def _models(memoir: Memoir) -> list[Finding]:
    findings = []
    try:
        memoir.embedder.inner.embed(["memoir doctor"])
        findings.append(Finding("ok", "models", f"embeddings: {memoir.embedder.name} works"))
    except MemoirError as exc:
        findings.append(Finding("error", "models", f"embeddings: {exc}"))
    settings = memoir.settings
    if settings.search_rerank == "none":
        findings.append(Finding("ok", "models", "rerank: none configured, the stage is skipped (search.rerank)"))
    else:
        findings.append(
            Finding(
                "ok",
                "models",
                f"rerank: {settings.search_rerank} ({settings.search_rerank_model or settings.search_rerank_url})",
            )
        )
    llm = memoir.llm
    if llm.client is None:
        findings.append(Finding("warning", "models", "LLM: no llm.model configured; facts are extracted by rules"))
    else:
        health = llm.client.health()
        level = "ok" if health.ok else "warning"
        findings.append(Finding(level, "models", f"LLM: {health.detail}; circuit breaker {llm.breaker.state}"))
    return findings
