"""Assembly: memoir's parts built from `Settings`, in one place.

`Memoir` (the façade) composes what this module builds and nothing else builds them:
the store, the embedder behind its content-hash cache, the vault and its memory book,
the job registry with every built-in job (registered here and only here), the lanes
that run them, and, on first use, the search pipeline and the LLM. Embedders and
rerankers are chosen by name from their registries (`EMBEDDERS`, `RERANKERS`), where
built-ins and a user's own are registered alike.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import cast

from memoir.config import MultiAgentMode, Settings
from memoir.errors import ConfigError, HomeError, InvalidQuery
from memoir.index import CachedEmbedder, IndexEventJob, VectorIndex
from memoir.index.database_vectors import DatabaseVectors, VectorIndexJob, VectorSearching
from memoir.index.providers import EMBEDDERS
from memoir.ingest import ExtractFactsJob
from memoir.llm import LLM, ChatClient, CircuitBreaker
from memoir.llm.breaker import RowStorage
from memoir.llm.priority import ForegroundGate
from memoir.llm.service import CallRecord
from memoir.model import Event, Memory, now_ms
from memoir.model.checks import check_id
from memoir.model.secrets import Masker
from memoir.retrieval import SearchPipeline
from memoir.retrieval.rerank import RERANKERS
from memoir.store import IndexScope, SQLiteStore, Store
from memoir.timeline.builder import TimelineBuilder
from memoir.timeline.conversations import ConversationSummaryJob
from memoir.timeline.jobs import RollupJob, SummarizeJob
from memoir.timeline.segments import SegmentJob
from memoir.vault import MemoryBook, Vault
from memoir.vault.git import GitHistory
from memoir.vault.summaries import SummaryFiles
from memoir.vault.watcher import VaultWatcher
from memoir.workers import JobRegistry, Lanes, TrackSessionJob

__all__ = ["Parts", "assemble", "prepare_home"]

NEIGHBOURS = 5  # existing facts a new fact is reconciled against
DAY_MS = 24 * 3600 * 1000  # the window of llm.daily_tokens


@dataclass
class Parts:
    """Everything a home runs on; built by `assemble`, owned and closed by `Memoir`."""

    settings: Settings
    store: Store
    embedder: CachedEmbedder
    vault: Vault
    book: MemoryBook
    registry: JobRegistry
    lanes: Lanes
    watcher: VaultWatcher | None = None
    _timeline: TimelineBuilder | None = field(default=None, repr=False)
    _summaries: SummaryFiles | None = field(default=None, repr=False)
    _pipeline: SearchPipeline | None = field(default=None, repr=False)
    _llm: LLM | None = field(default=None, repr=False)
    # The server's threads and the workers' lanes ask for the pipeline and the model at once: one builds
    # them (two would each open a model client, and the one dropped would leak its connections).
    _building: threading.RLock = field(default_factory=threading.RLock, repr=False)

    @cached_property
    def masker(self) -> Masker | None:
        """What masks secrets in outside text at the façade (`privacy.mask_secrets`); None when off."""
        privacy = self.settings.privacy
        return Masker(privacy.secret_patterns) if privacy.mask_secrets else None

    @property
    def index_job(self) -> IndexEventJob:
        job = self.registry.get(IndexEventJob.name)
        assert isinstance(job, IndexEventJob)
        return job

    @property
    def pipeline(self) -> SearchPipeline:
        """The read pipeline, built on first search (loading vectors is not free)."""
        if self._pipeline is not None:
            return self._pipeline
        with self._building:
            return self._build_pipeline()

    def _build_pipeline(self) -> SearchPipeline:
        if self._pipeline is None:
            settings = self.settings
            vectors: VectorIndex | DatabaseVectors
            if self.store.searches_vectors:  # PostgreSQL: the database searches (pgvector)
                vectors = DatabaseVectors(self.store, cast(VectorSearching, self.store), self.embedder.name)
            else:
                vectors = VectorIndex(
                    self.store,
                    self.embedder.name,
                    hnsw_threshold=settings.index.hnsw_threshold,
                    path=settings.home / "index" / "vectors.hnsw",
                )
            reranker = RERANKERS.create(settings.search.rerank, settings)
            self._pipeline = SearchPipeline(self.store, self.embedder.inner, vectors, settings.search, reranker)
        return self._pipeline

    @property
    def llm(self) -> LLM:
        """The chat model behind its circuit breaker (heuristics only without `llm.model`)."""
        if self._llm is not None:
            return self._llm
        with self._building:
            return self._build_llm()

    def _build_llm(self) -> LLM:
        if self._llm is None:
            section = self.settings.llm
            client = None
            if section.model and section.base_url:
                client = ChatClient(
                    base_url=section.base_url,
                    model=section.model,
                    api_key=section.api_key,
                    timeout=section.timeout,
                    retries=section.retries,
                    budget=section.budget,
                    formats=self.store.server_formats(section.base_url),
                    remember_formats=partial(self.store.set_server_formats, section.base_url),
                )
            self._llm = LLM(
                client,
                self._breaker(),
                ledger=self._record_call,
                spent_today=self._tokens_today,
                budgets=dict(section.daily_tokens),
                gate=ForegroundGate.of(self.settings.home, section.base_url) if section.base_url else None,
            )
        return self._llm

    def _record_call(self, call: CallRecord) -> None:
        tokens = (call.prompt_tokens, call.completion_tokens)
        self.store.ledger_add(now_ms(), call.job, call.model, *tokens, call.duration_ms, call.outcome)

    def _tokens_today(self, job: str) -> int:
        _, prompt, completion = self.store.ledger_usage(now_ms() - DAY_MS).get(job, (0, 0, 0))
        return prompt + completion

    def _breaker(self) -> CircuitBreaker:
        """The model's breaker, kept in the store: every process of the home shares it."""
        section = self.settings.llm
        key = f"{section.base_url} {section.model}"
        storage = RowStorage(partial(self.store.breaker_row, key), partial(self.store.breaker_update, key))
        return CircuitBreaker(section.breaker_threshold, section.breaker_reset, clock=time.time, storage=storage)

    @property
    def summaries(self) -> SummaryFiles:
        if self._summaries is None:
            self._summaries = SummaryFiles(self.vault.root)
        return self._summaries

    @property
    def timeline(self) -> TimelineBuilder:
        """Segments' summaries and the rollups (the model is asked on first use, not at open)."""
        if self._timeline is None:
            self._timeline = TimelineBuilder(self.store, lambda: self.llm, lambda: self.embedder)
        return self._timeline

    @property
    def unified(self) -> bool:
        return self.settings.multi_agent_mode is MultiAgentMode.UNIFIED

    def agent_scope(self, agent_id: str | None = None) -> str | None:
        """The agent a read is limited to: in unified mode the caller's (default: the configured
        one), which is then required; in separate mode none (agent ids are informational)."""
        if not self.unified:
            return None
        check_id("agent_id", agent_id, optional=True, error=InvalidQuery)
        agent = self.settings.agent_id if agent_id is None else agent_id
        if agent is None:  # reading as nobody would mean reading as everybody
            raise InvalidQuery("agent_id", "unified mode reads as one agent: pass agent_id or configure one")
        return agent

    def nearest_facts(self, text: str, event: Event) -> list[Memory]:
        """The live facts where the event's facts go, of its agent, most like `text` (for reconciliation)."""
        scope = IndexScope(
            conversation_ids=(event.facts_conversation,),
            kinds=("fact",),
            agent_id=event.agent_id if self.unified else None,
        )
        found = [self.store.memory_get(item.ref) for item in self.pipeline.nearest(text, scope, NEIGHBOURS)]
        return [m for m in found if m is not None and not m.deleted]

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None
        self.lanes.stop()
        if self._llm is not None and self._llm.client is not None:
            self._llm.client.close()
        self.store.close()


def prepare_home(home: Path, create: bool) -> None:
    if home.exists() and not home.is_dir():
        raise HomeError(f"the memoir home {home} exists but is not a folder")
    if not home.exists():
        if not create:
            raise HomeError(f"no memoir home at {home}: run `memoir init`, or set MEMOIR_HOME to an existing home")
        try:
            home.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise HomeError(f"cannot create the memoir home {home}: {exc.strerror}") from None
    if not os.access(home, os.W_OK | os.X_OK):
        raise HomeError(f"the memoir home {home} is not writable by this user")


def assemble(settings: Settings) -> Parts:
    """Build a home's parts (the home folder must exist; see `prepare_home`)."""
    store = open_store(settings)
    try:
        inner = EMBEDDERS.create(settings.embedding.provider, settings)
        embedder = CachedEmbedder(inner, store.embeddings_load, store.embeddings_save)
        vault = Vault(settings.vault_folder)
        git = GitHistory(vault.root) if settings.vault.git else None
        registry = JobRegistry()
        parts = Parts(
            settings=settings,
            store=store,
            embedder=embedder,
            vault=vault,
            book=MemoryBook(
                store,
                vault,
                embedder,
                git,
                unified=settings.multi_agent_mode is MultiAgentMode.UNIFIED,
                default_agent=settings.agent_id,
            ),
            registry=registry,
            lanes=Lanes(store, registry, settings.worker),
        )
        register_builtin_jobs(parts)
    except BaseException:
        store.close()
        raise
    return parts


def open_store(settings: Settings) -> Store:
    """The home's store: the SQLite file, or the PostgreSQL database `store.url` names."""
    if settings.store.url is None:
        return SQLiteStore(
            settings.database, synchronous=settings.store.synchronous, busy_timeout_s=settings.store.busy_timeout
        )
    try:
        from memoir.store.postgres import PostgresStore
    except ImportError as exc:
        raise ConfigError(
            f"store.url names PostgreSQL, but its driver is not installed ({exc.name}): pip install 'memoir[postgres]'"
        ) from None
    return PostgresStore(settings.store.url, pool_size=settings.store.pool_size, timeout_s=settings.store.busy_timeout)


def register_builtin_jobs(parts: Parts) -> None:
    """The one place built-in jobs are registered, in the order their entries are written."""
    registry = parts.registry
    registry.register(TrackSessionJob())
    registry.register(IndexEventJob(parts.embedder))
    registry.register(SegmentJob(parts.timeline.segmenter, unified=parts.unified))
    if parts.settings.memory.extract:
        registry.register(
            ExtractFactsJob(parts.book, lambda: parts.llm, parts.nearest_facts, parts.settings.memory.max_entries)
        )
    if parts.store.searches_vectors:  # PostgreSQL: the items' vectors kept in step, an HNSW index once it pays
        searcher = cast(VectorSearching, parts.store)
        threshold = parts.settings.index.hnsw_threshold
        registry.register_periodic(VectorIndexJob(parts.store, searcher, parts.embedder.inner, threshold))
    registry.register_periodic(SummarizeJob(parts.timeline))
    registry.register_periodic(RollupJob(parts.timeline))
    registry.register_periodic(
        ConversationSummaryJob(parts.store, parts.summaries, lambda: parts.llm, unified=parts.unified)
    )
