"""`memoir doctor`: does the event log, the vault and the index agree, and do the models work?

Read-only: it reports; `memoir reindex` (index) and opening the home (vault sync) repair.
It takes the parts it checks (`memoir.facade.assembly.Parts`), not the façade, and compares the
vault with the index through the same `diff_vault` that the sync on open applies.
Each finding has a level: `ok`, `warning` (works, but worth knowing) or `error` (broken).
"""

from __future__ import annotations

from dataclasses import dataclass

from memoir.errors import MemoirError
from memoir.facade.assembly import Parts
from memoir.index import IndexEventJob
from memoir.model.wording import counted
from memoir.store import EventQuery, Store
from memoir.vault.diff import diff_vault

__all__ = ["Finding", "examine"]

PAGE = 5_000


@dataclass(frozen=True)
class Finding:
    level: str  # ok, warning, error
    area: str  # events, vault, index, database, models
    message: str


def examine(parts: Parts) -> list[Finding]:
    return [
        *_events(parts.store),
        *_vault(parts),
        *_index(parts.store, parts.index_job, parts.embedder.name),
        *_database(parts.store, parts.embedder.name),
        *_models(parts),
    ]


def _events(store: Store) -> list[Finding]:
    integrity = store.integrity_check()
    findings = [
        Finding("ok", "events", f"{counted(store.count_events(), 'event')}; database integrity ok")
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


def _vault(parts: Parts) -> list[Finding]:
    diff = diff_vault(parts.vault, parts.store)
    findings = [Finding("error", "vault", f"unreadable memory file, left alone: {error}") for error in diff.broken]
    findings += [Finding("warning", "vault", f"duplicate id, left alone: {error}") for error in diff.duplicates]
    if unreadable := parts.store.memory_unreadable_count():
        findings.append(
            Finding("warning", "vault", f"{counted(unreadable, 'memory')} shown from their last good copy: note broken")
        )
    for what, count in (
        ("changed on disk", len(diff.changed)),
        ("not yet indexed", len(diff.added)),
        ("deleted on disk", len(diff.gone)),
        ("left behind by an interrupted delete", len(diff.superseded)),
    ):
        if count:
            findings.append(
                Finding("warning", "vault", f"{counted(count, 'memory file')} {what}; reopening syncs them")
            )
    if not findings:
        findings.append(Finding("ok", "vault", f"the index agrees with {counted(len(diff.files), 'memory file')}"))
    return findings


def _index(store: Store, job: IndexEventJob, model: str) -> list[Finding]:
    pending = store.outbox_pending([job.name])
    missing = 0
    after: tuple[int, str] | None = None
    while True:  # every event the index job wants must be an index item (or still be pending)
        page = store.scan(EventQuery(after=after, limit=PAGE))
        wanted = [e.event_id for e in page if job.wants(e)]
        missing += len(set(wanted) - store.index_items_by_ref(wanted)) if wanted else 0
        if len(page) < PAGE:
            break
        after = (page[-1].timestamp_ms, page[-1].event_id)
    live = store.memory_live_ids()
    unindexed_memories = len(live - store.index_items_by_ref(list(live))) if live else 0
    if missing > pending or unindexed_memories:
        return [
            Finding(
                "error",
                "index",
                _missing(missing - pending, unindexed_memories) + " from the search index: run `memoir reindex`",
            )
        ]
    stale = store.index_without_vectors(model)
    if stale:
        return [
            Finding(
                "error",
                "index",
                f"{counted(stale, 'indexed item')} {'has' if stale == 1 else 'have'} no vector of the embedding"
                f" model {model} (the model changed):"
                " run `memoir reindex`",
            )
        ]
    note = f" ({pending} waiting in the outbox)" if pending else ""
    return [Finding("ok", "index", f"{store.index_count():,} searchable items{note}")]


def _database(store: Store, model: str) -> list[Finding]:
    """The engine's settings that must grow with the data (PostgreSQL's; none on SQLite)."""
    checked = store.tuning(model)
    findings = [
        Finding("warning", "database", f"{t.setting} is {t.current}; set it to at least {t.wanted}: {t.why}")
        for t in checked
        if not t.enough
    ]
    if checked and not findings:
        findings.append(Finding("ok", "database", f"{', '.join(t.setting for t in checked)} suffice for the data"))
    return findings


def _models(parts: Parts) -> list[Finding]:
    findings = []
    try:
        parts.embedder.inner.embed(["memoir doctor"])
        findings.append(Finding("ok", "models", f"embeddings: {parts.embedder.name} works"))
    except MemoirError as exc:
        findings.append(Finding("error", "models", f"embeddings: {exc}"))
    search = parts.settings.search
    if search.rerank == "none":
        findings.append(Finding("ok", "models", "rerank: none configured, the stage is skipped (search.rerank)"))
    else:
        findings.append(
            Finding("ok", "models", f"rerank: {search.rerank} ({search.rerank_model or search.rerank_url})")
        )
    llm = parts.llm
    if llm.client is None:
        findings.append(Finding("warning", "models", "LLM: no llm.model configured; facts are extracted by rules"))
    else:
        health = llm.client.health()
        level = "ok" if health.ok else "warning"
        findings.append(Finding(level, "models", f"LLM: {health.detail}; circuit breaker {llm.breaker.state}"))
    return findings


def _missing(events: int, memories: int) -> str:
    """What is not there, counted: "1 event is missing", "2 events and 1 memory are missing"."""
    parts = [counted(n, noun) for n, noun in ((events, "event"), (memories, "memory")) if n > 0]
    return " and ".join(parts) + (" is missing" if len(parts) == 1 and events + memories == 1 else " are missing")
