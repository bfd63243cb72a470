"""`Memoir`, the one façade every interface (CLI, HTTP, gRPC, MCP, hooks) calls.

It owns a Store, the job registry and, by default, a background outbox runner.
Everything it does is a short composition of those parts; the rules live in
`memoir.model` (validation), `memoir.store` (durability) and `memoir.workers`.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from memoir.config import MultiAgentMode, Settings, load_settings
from memoir.doctor import Finding, examine
from memoir.errors import EventNotFound, HomeError, InvalidEvent, InvalidInput, InvalidQuery
from memoir.index import (
    CachedEmbedder,
    Embedder,
    HashingEmbedder,
    IndexEventJob,
    MiniLMEmbedder,
    OpenAIEmbedder,
    VectorIndex,
)
from memoir.ingest import ExtractFactsJob
from memoir.llm import LLM, ChatClient, CircuitBreaker
from memoir.model import DEFAULT_CONVERSATION, Event, EventKey, Memory, is_ulid, parse_timestamp
from memoir.model.event import to_ms
from memoir.retrieval import Context, Hit, SearchParameters, SearchPipeline, format_context
from memoir.retrieval.rerank import HTTPReranker, ONNXReranker, Reranker
from memoir.store import Checkpoint, EventQuery, IndexScope, SQLiteStore, Store
from memoir.vault import MemoryBook, SyncReport, Vault
from memoir.vault.book import index_item
from memoir.vault.git import GitHistory
from memoir.vault.watcher import VaultWatcher
from memoir.workers import BackgroundWorker, Job, JobRegistry, OutboxRunner, default_registry

__all__ = ["EventPage", "Memoir", "Status"]

MAX_PAGE = 10_000
MAX_K = 100
GLOBAL_SCOPE = "global"  # memories visible from every conversation (seed 004)
KINDS = ("turn", "fact", "gotcha", "decision", "learning", "summary")
TimeLike = datetime | str | int
ProgressCallback = Callable[[int, int], None]


class EventPage(list[Event]):
    """A page of events in time order; `next_cursor` fetches the next page (None at the end)."""

    def __init__(self, events: Iterable[Event], next_cursor: str | None) -> None:
        super().__init__(events)
        self.next_cursor = next_cursor


@dataclass(frozen=True)
class Status:
    home: str
    database: str
    backend: str
    size_bytes: int
    schema: list[str]
    events: int
    sessions: int
    conversations: int
    outbox_pending: dict[str, int]
    outbox_failed: dict[str, int]
    checkpoints: list[Checkpoint]
    worker: str
    multi_agent_mode: str
    indexed_items: int = 0

    @property
    def backlog(self) -> int:
        return sum(self.outbox_pending.values())

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["outbox_backlog"] = self.backlog
        return data


def _prepare_home(home: Path, create: bool) -> None:
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


class Memoir:
    """Long-term memory for agents: the event log now; search, memories and the timeline build on it."""

    def __init__(self, settings: Settings, store: Store, registry: JobRegistry) -> None:
        self.settings = settings
        self.store = store
        self.jobs = registry
        self.runner = OutboxRunner(
            store, registry, batch_size=settings.worker_batch_size, max_attempts=settings.worker_max_attempts
        )
        self._worker: BackgroundWorker | None = None
        self.embedder = CachedEmbedder(_embedder_from(settings), store.embeddings_load, store.embeddings_save)
        registry.register(IndexEventJob(self.embedder))
        self._pipeline: SearchPipeline | None = None
        self._llm: LLM | None = None
        self._watcher: VaultWatcher | None = None
        self.vault = Vault(settings.home / "vault")
        git = GitHistory(self.vault.root) if settings.vault_git else None
        self.book = MemoryBook(store, self.vault, self.embedder, git)
        if settings.memory_extract:
            registry.register(
                ExtractFactsJob(self.book, lambda: self.llm, self._nearest_facts, settings.memory_max_entries)
            )

    @classmethod
    def open(
        cls,
        home: Path | str | None = None,
        *,
        config_file: Path | str | None = None,
        settings: Settings | None = None,
        create: bool = True,
        **options: Any,
    ) -> Memoir:
        """Open (and by default create) a memoir home.

        `options` are settings given as call arguments, e.g. `worker_enabled=False`;
        they win over environment variables and files.
        """
        overrides = {"home": home, **options}
        if settings is None:
            settings = load_settings(overrides, config_file=config_file)
        else:
            settings = settings.replace(**overrides)
        _prepare_home(settings.home, create)
        store = SQLiteStore(
            settings.database, synchronous=settings.store_synchronous, busy_timeout_s=settings.store_busy_timeout
        )
        memoir = cls(settings, store, default_registry())
        memoir.sync_vault()  # files people edited, or a crash between file and index
        if settings.vault_watch:
            memoir._watcher = VaultWatcher(memoir.vault.root, memoir.sync_vault)
            memoir._watcher.start()
        if settings.worker_enabled:
            memoir.start_worker()
        return memoir

    @property
    def home(self) -> Path:
        return self.settings.home

    def start_worker(self) -> None:
        """Run the outbox runner on a background thread (the default for `open`)."""
        if self._worker is None:
            self._worker = BackgroundWorker(self.runner, poll_interval=self.settings.worker_poll_interval)
            self._worker.start()

    def register_job(self, job: Job) -> Job:
        """Add a job; events ingested from now on get outbox entries for it."""
        return self.jobs.register(job)

    def close(self) -> None:
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None
        if self._worker is not None:
            self._worker.stop()
            self._worker = None
        if self._llm is not None and self._llm.client is not None:
            self._llm.client.close()
        self.store.close()

    def __enter__(self) -> Memoir:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- write path ---------------------------------------------------------------------

    def ingest(self, event_or_events: Event | Mapping[str, Any] | Iterable[Event | Mapping[str, Any]]) -> list[str]:
        """Append events durably; returns their ids in input order.

        Accepts `Event` objects or plain mappings with the same field names, one or
        many. All are validated before anything is written: one bad event rejects the
        call (`InvalidEvent` says which and why). An id that is already stored is not
        written again; its stored event stands.
        """
        events = self.prepare(event_or_events)
        stored = self.store.append(events, self.jobs.actions_for)
        if self._worker is not None:
            self._worker.wake()
        return [e.event_id for e in stored]

    def prepare(self, event_or_events: Event | Mapping[str, Any] | Iterable[Event | Mapping[str, Any]]) -> list[Event]:
        """Validate without writing: the events `ingest` would store."""
        raw: object = event_or_events  # checked at run time whatever the annotation says
        items: Iterable[Any]
        single = isinstance(raw, Event | Mapping)
        if single:
            items = [raw]
        elif isinstance(raw, str | bytes) or not isinstance(raw, Iterable):
            raise InvalidEvent("event", f"expected an Event, a mapping or a list of them, got {raw!r:.80}")
        else:
            items = raw
        now = int(time.time() * 1000)
        skew = int(self.settings.max_clock_skew * 1000)
        prepared = []
        for index, item in enumerate(items):
            try:
                prepared.append(self._prepare_one(item, now, skew))
            except InvalidInput as exc:
                if single:
                    raise
                raise exc.at(index) from None
        return prepared

    def _prepare_one(self, item: Any, now: int, skew: int) -> Event:
        event = item if isinstance(item, Event) else Event.from_dict(item)
        event.check_not_future(now, skew)
        if event.agent_id is None and self.settings.agent_id is not None:
            event = dataclasses.replace(event, agent_id=self.settings.agent_id)
        if event.agent_id is None and self.settings.multi_agent_mode is MultiAgentMode.UNIFIED:
            raise InvalidEvent("agent_id", "required in unified mode: set it on the event, or configure agent_id")
        return event

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until the outbox is drained; False if `timeout` seconds passed first.

        With no live runner thread in this process, the calling thread drains the
        outbox itself, unless another process's runner holds the lease, in which case
        it waits for that one.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        if self._worker is not None and self._worker.alive:
            self._worker.wake()
        else:
            lease = self.store.try_runner_lease()
            if lease is not None:
                try:
                    return self.runner.drain(timeout)
                finally:
                    lease.release()
        while self.runner.pending():
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    # -- read path ----------------------------------------------------------------------

    def events(
        self,
        since: TimeLike | None = None,
        until: TimeLike | None = None,
        session_id: str | None = None,
        conversation_id: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        agent_id: str | None = None,
    ) -> EventPage:
        """Events in time order (`since` inclusive, `until` exclusive), a page at a time."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_PAGE:
            raise InvalidQuery("limit", f"must be a whole number from 1 to {MAX_PAGE}, got {limit!r}")
        query = EventQuery(
            since_ms=_time_bound("since", since),
            until_ms=_time_bound("until", until),
            session_id=session_id,
            conversation_id=conversation_id,
            agent_id=agent_id,
            after=_parse_cursor(cursor),
            limit=limit,
        )
        found = self.store.scan(query)
        next_cursor = str(found[-1].key) if len(found) == limit else None
        return EventPage(found, next_cursor)

    def get_event(self, event_id: str) -> Event:
        """The event with this id; `EventNotFound` if there is none."""
        normalised = event_id.strip().upper() if isinstance(event_id, str) else event_id
        if not is_ulid(normalised):
            raise InvalidQuery("event_id", f"{event_id!r} is not a 26-character ULID")
        event = self.store.get(normalised)
        if event is None:
            raise EventNotFound(normalised)
        return event

    # -- memories -------------------------------------------------------------------------

    def remember(
        self,
        text: str,
        *,
        kind: str = "fact",
        conversation_id: str | None = None,
        tags: Iterable[str] = (),
        severity: str | None = None,
    ) -> Memory:
        """Keep a memory (fact, gotcha, decision or learning); the same content again adds nothing."""
        return self.book.remember(text, kind=kind, conversation_id=conversation_id, tags=tags, severity=severity)

    def forget(self, memory_id: str) -> Memory:
        """Soft-delete a memory: its file moves under `deleted/`, search stops finding it."""
        return self.book.forget(memory_id)

    def memories(
        self, conversation_id: str | None = None, kind: str | None = None, include_deleted: bool = False
    ) -> list[Memory]:
        """Memories in creation order, optionally of one conversation and kind."""
        return self.store.memory_list(conversation_id, kind, include_deleted)

    def memory_history(self, memory_id: str) -> list[Memory]:
        """Every version of a memory, oldest first, linked by `replaced_by`."""
        return self.book.history(memory_id)

    def _nearest_facts(self, text: str, event: Event) -> list[Memory]:
        """The live facts of the event's conversation most like `text` (for reconciliation)."""
        scope = IndexScope(conversation_ids=(event.conversation_id,), kinds=("fact",))
        hits = self.pipeline.search(text, scope, 5, rerank=False)
        found = [self.store.memory_get(h.memory_id) for h in hits if h.memory_id]
        return [m for m in found if m is not None and not m.deleted]

    def doctor(self) -> list[Finding]:
        """Check that events, vault and index agree and that the models work (read-only)."""
        return examine(self)

    def sync_vault(self) -> SyncReport:
        """Bring the index in line with the vault's files; broken files are reported, not touched."""
        return self.book.sync()

    # -- search -------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        conversation_id: str | None = None,
        kinds: Iterable[str] | None = None,
        since: TimeLike | None = None,
        until: TimeLike | None = None,
    ) -> list[Hit]:
        """The `k` most relevant memories and turns of a conversation (plus `global`), best first."""
        k = self.settings.search_top_k if k is None else k
        if not isinstance(query, str) or not query.strip():
            raise InvalidQuery("query", "must not be empty")
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise InvalidQuery("k", f"must be a whole number from 1 to {MAX_K}, got {k!r}")
        scope = self._scope(conversation_id, kinds, since, until)
        return self.pipeline.search(query.strip(), scope, k)

    def build_context(self, query: str, *, conversation_id: str | None = None, budget_tokens: int = 1500) -> Context:
        """The memory block to inject before `query`: summary, then memories as `[role] content`."""
        if isinstance(budget_tokens, bool) or not isinstance(budget_tokens, int) or budget_tokens < 1:
            raise InvalidQuery("budget_tokens", f"must be a positive whole number, got {budget_tokens!r}")
        hits = self.search(query, k=max(self.settings.search_top_k, 10), conversation_id=conversation_id)
        return format_context(hits, summary=None, budget_tokens=budget_tokens)

    def reindex(self, progress: ProgressCallback | None = None, batch_size: int = 256) -> int:
        """Rebuild the search index from the event log; returns how many items it holds.

        Embeddings are cached by content hash, so a rebuild only embeds text it never saw.
        """
        total = self.store.count_events()
        self.store.index_clear()
        for memory in self.store.memory_list():  # memories are indexed from the vault's mirror
            self.embedder.embed_hashed([memory.content])
            self.store.index_add([index_item(memory)])
        done = indexed = 0
        cursor: str | None = None
        job = self.jobs.get("index_event")
        assert isinstance(job, IndexEventJob)
        while True:
            page = self.events(limit=batch_size, cursor=cursor)
            wanted = [e for e in page if job.wants(e)]
            job.prepare(wanted, self.store)
            with self.store.atomic():
                job.run(wanted, self.store)
            done, indexed = done + len(page), indexed + len(wanted)
            if progress is not None:
                progress(done, total)
            cursor = page.next_cursor
            if cursor is None:
                return indexed

    @property
    def llm(self) -> LLM:
        """The configured chat model behind its circuit breaker (heuristics only without `llm.model`)."""
        if self._llm is None:
            settings = self.settings
            client = None
            if settings.llm_model and settings.llm_base_url:
                client = ChatClient(
                    base_url=settings.llm_base_url,
                    model=settings.llm_model,
                    api_key=settings.llm_api_key,
                    timeout=settings.llm_timeout,
                    retries=settings.llm_retries,
                )
            self._llm = LLM(client, CircuitBreaker(settings.llm_breaker_threshold, settings.llm_breaker_reset))
        return self._llm

    @property
    def pipeline(self) -> SearchPipeline:
        if self._pipeline is None:
            settings = self.settings
            vectors = VectorIndex(
                self.store,
                self.embedder.name,
                hnsw_threshold=settings.index_hnsw_threshold,
                path=settings.home / "index" / "vectors.hnsw",
            )
            parameters = SearchParameters(
                candidates=settings.search_candidates,
                fusion=settings.search_fusion,
                keyword_weight=settings.search_keyword_weight,
                speaker_boost=settings.search_speaker_boost,
                rrf_k=settings.search_rrf_k,
                mmr_lambda=settings.search_mmr_lambda,
                mmr_floor=settings.search_mmr_floor,
                recency_weight=settings.search_recency_weight,
                score_threshold=settings.search_score_threshold,
                rerank_candidates=settings.search_rerank_candidates,
                neighbours=settings.search_neighbours,
            )
            self._pipeline = SearchPipeline(
                self.store, self.embedder.inner, vectors, parameters, _reranker_from(settings)
            )
        return self._pipeline

    def _scope(
        self, conversation_id: str | None, kinds: Iterable[str] | None, since: TimeLike | None, until: TimeLike | None
    ) -> IndexScope:
        known = isinstance(conversation_id, str) and (
            self.store.count_events(EventQuery(conversation_id=conversation_id)) > 0
            or bool(self.store.memory_list(conversation_id, include_deleted=True))
        )
        if conversation_id is not None and conversation_id != GLOBAL_SCOPE and not known:
            raise InvalidQuery("conversation_id", f"no conversation {conversation_id!r} in this home")
        kind_list = None
        if kinds is not None:
            kind_list = tuple(kinds) if not isinstance(kinds, str) else tuple(kinds.split(","))
            unknown = [kind for kind in kind_list if kind not in KINDS]
            if unknown or not kind_list:
                raise InvalidQuery(
                    "kinds", f"unknown kind {unknown[0] if unknown else ''!r}; known: {', '.join(KINDS)}"
                )
        conversation = conversation_id or DEFAULT_CONVERSATION
        agent = None
        if self.settings.multi_agent_mode is MultiAgentMode.UNIFIED:
            if self.settings.agent_id is None:  # searching as nobody would mean searching as everybody
                raise InvalidQuery("agent_id", "unified mode searches as one agent: configure agent_id")
            agent = self.settings.agent_id
        return IndexScope(
            conversation_ids=tuple(dict.fromkeys((conversation, GLOBAL_SCOPE))),
            agent_id=agent,
            kinds=kind_list,
            since_ms=_time_bound("since", since),
            until_ms=_time_bound("until", until),
        )

    def status(self) -> Status:
        stats = self.store.stats()
        return Status(
            home=str(self.home),
            database=stats.location,
            backend=stats.backend,
            size_bytes=stats.size_bytes,
            schema=stats.schema,
            events=stats.events,
            sessions=stats.sessions,
            conversations=stats.conversations,
            outbox_pending=stats.outbox_pending,
            outbox_failed=stats.outbox_failed,
            checkpoints=self.store.checkpoints(),
            worker=self._worker_state(),
            multi_agent_mode=self.settings.multi_agent_mode.value,
            indexed_items=self.store.index_count(),
        )

    def _worker_state(self) -> str:
        if self._worker is not None and self._worker.alive and self._worker.holds_lease:
            if self._worker.last_error:
                return f"running in this process, retrying after an error: {self._worker.last_error}"
            return "running in this process"
        lease = self.store.try_runner_lease()
        if lease is None:
            return "running in another process"
        lease.release()
        return "not running (background jobs wait for `memoir worker` or the next Memoir.open)"


def _embedder_from(settings: Settings) -> Embedder:
    if settings.embedding_provider == "openai":
        return OpenAIEmbedder(
            base_url=settings.embedding_base_url or "",
            model=settings.embedding_model or "",
            api_key=settings.embedding_api_key,
        )
    if settings.embedding_provider == "hashing":
        return HashingEmbedder()
    return MiniLMEmbedder(threads=settings.embedding_threads)


def _reranker_from(settings: Settings) -> Reranker | None:
    if settings.search_rerank == "http":
        return HTTPReranker(url=settings.search_rerank_url or "", model=settings.search_rerank_model or "")
    if settings.search_rerank == "onnx":
        return ONNXReranker(Path(settings.search_rerank_model or "cross-encoder.onnx").expanduser())
    return None


def _time_bound(name: str, value: TimeLike | None) -> int | None:
    if value is None:
        return None
    try:
        return to_ms(parse_timestamp(value, name))
    except InvalidInput as exc:
        raise InvalidQuery(exc.field, exc.reason) from None


def _parse_cursor(cursor: str | None) -> tuple[int, str] | None:
    if cursor is None:
        return None
    try:
        key = EventKey.parse(cursor)
    except InvalidInput:
        raise InvalidQuery("cursor", f"{cursor!r} is not a cursor returned by events()") from None
    return key.timestamp_ms, key.ulid
