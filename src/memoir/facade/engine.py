"""`Memoir`, the one façade every interface (CLI, HTTP, gRPC, MCP, hooks) calls.

It composes the parts `memoir.facade.assembly` builds and keeps them private: each method checks
the caller's arguments and hands the work to one part. The rules live below it: `model`
(validation), `store`, `workers`, `retrieval`, `vault`, `timeline`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any

from memoir.config import MultiAgentMode, Settings, load_settings
from memoir.errors import EventNotFound, InvalidEvent, InvalidQuery
from memoir.facade.assembly import Parts, assemble, prepare_home
from memoir.facade.chat_history import HistoryMethods
from memoir.facade.context import InjectionMethods, TurnMethods
from memoir.facade.doctor import Finding, examine
from memoir.facade.memories import MemoryMethods
from memoir.facade.overview import OverviewMethods
from memoir.facade.search import IndexMethods, SearchMethods
from memoir.facade.spool import drain_spool
from memoir.facade.think import ThinkMethods
from memoir.facade.timeline import TimelineMethods
from memoir.facade.views import EventPage, Status, llm_usage, model_state, parse_cursor
from memoir.llm import LLM
from memoir.model import Event, admit, is_ulid, now_ms
from memoir.model.admission import refuse_conflicts
from memoir.model.checks import brief, check_count, check_filters, check_flag, check_seconds
from memoir.model.limits import MAX_PAGE
from memoir.retrieval import TimeLike, time_bound
from memoir.store import EventQuery
from memoir.vault.watcher import VaultWatcher
from memoir.workers import FAST_LANE, Job, run_in_foreground

__all__ = ["EventPage", "Memoir", "Status"]

EventLike = Event | Mapping[str, Any]


class Memoir(
    MemoryMethods,
    SearchMethods,
    IndexMethods,
    TimelineMethods,
    InjectionMethods,
    TurnMethods,
    HistoryMethods,
    ThinkMethods,
    OverviewMethods,
):
    """Long-term memory for agents: the event log, search and memories, behind one façade."""

    def __init__(self, parts: Parts) -> None:
        self._parts = parts

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

        `options` are settings given as call arguments, by dotted key or attribute name
        (`worker_enabled=False`, `**{"search.top_k": 8}`); they win over environment
        variables and files.
        """
        overrides = {"home": home, **options}
        if settings is None:
            settings = load_settings(overrides, config_file=config_file)
        else:
            settings = settings.replace(**overrides)
        prepare_home(settings.home, create)
        memoir = cls(assemble(settings))
        try:
            memoir.sync_vault()  # files people edited, or a crash between file and index
            drain_spool(settings.home, memoir.ingest)  # what hooks wrote while the store was away
            parts = memoir._parts
            if settings.vault.watch:
                parts.watcher = VaultWatcher(parts.vault.root, memoir.sync_vault)
                parts.watcher.start()
            if settings.worker.enabled:
                parts.lanes.start()
        except BaseException:
            memoir.close()
            raise
        return memoir

    @property
    def settings(self) -> Settings:
        return self._parts.settings

    @property
    def home(self) -> Path:
        return self._parts.settings.home

    @property
    def llm(self) -> LLM:
        """The chat model memoir's own work uses (`llm.*`), behind its circuit breaker; heuristics without one."""
        return self._parts.llm

    @property
    def vault_root(self) -> Path:
        """The vault folder: memories, facts.md and daily notes, an Obsidian vault."""
        return self._parts.vault.root

    @property
    def database(self) -> str:
        """Where the store keeps its data (a file path for SQLite)."""
        return self._parts.store.location

    def start_worker(self) -> None:
        """Run each lane's outbox runner on a background thread (the default for `open`)."""
        self._parts.lanes.start()

    def register_job(self, job: Job) -> Job:
        """Add a job; events ingested from now on get outbox entries for it."""
        return self._parts.registry.register(job)

    def close(self) -> None:
        self._parts.close()

    def __enter__(self) -> Memoir:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- write path ---------------------------------------------------------------------

    def ingest(self, event_or_events: EventLike | Iterable[EventLike], *, agent_id: str | None = None) -> list[str]:
        """Append events durably; returns their ids in input order.

        Accepts `Event` objects or plain mappings with the same field names, one or
        many. All are validated before anything is written: one bad event rejects the
        call (`InvalidEvent` says which and why). `agent_id` is given to events that name
        none (default: the configured agent).

        An id names one event forever. The same event sent again is not written twice
        (a retry is harmless; an event with an id but no timestamp is dated by its ULID,
        so its retries match too). An event whose id is already stored with other content
        is not written either, and after the others are stored (durably) the call raises
        `InvalidEvent` for `event_id`, at the first such event's position in a batch:
        the stored event stands, and the new one needs an id of its own.
        """
        events = self.prepare(event_or_events, agent_id=agent_id)
        for index, event in enumerate(events):  # a payload cannot speak for another agent than the caller
            if agent_id is not None and event.agent_id != agent_id:
                raise InvalidEvent(
                    "agent_id", f"{brief(event.agent_id)} is not the caller {brief(agent_id)}", index=index
                )
        with self._parts.lanes.ingesting():
            stored = self._parts.store.append(events, self._parts.registry.actions_for)
        refuse_conflicts(events, stored, batch=not isinstance(event_or_events, Event | Mapping))
        return [e.event_id for e in stored]

    def prepare(self, event_or_events: EventLike | Iterable[EventLike], *, agent_id: str | None = None) -> list[Event]:
        """Validate (and mask secrets in) without writing: the events `ingest` would store."""
        settings = self.settings
        return admit(
            event_or_events,
            now_ms=now_ms(),
            allowance_ms=int(settings.max_clock_skew * 1000),
            agent_id=settings.agent_id if agent_id is None else agent_id,
            agent_required=settings.multi_agent_mode is MultiAgentMode.UNIFIED,
            masker=self._parts.masker,
        )

    def flush(self, timeout: float | None = None, *, lanes: Iterable[str] | None = None) -> bool:
        """Wait until the lanes' outbox is drained (all by default); False if `timeout` seconds passed first.

        Lanes without a live runner thread in this process are drained by the calling
        thread, unless another process's runner holds them, which is then waited for.
        """
        check_seconds("timeout", timeout)
        return self._parts.lanes.flush(timeout, lanes)

    def wait_searchable(self, timeout: float | None = None) -> bool:
        """Wait until what was ingested is searchable (the fast lane), not for the model's work."""
        return self.flush(timeout, lanes=[FAST_LANE])

    @property
    def uses_model(self) -> bool:
        """Whether a chat model is configured (its work waits in the llm lane; rules are instant)."""
        return self._parts.llm.configured

    def pending(self) -> int:
        """Events whose background work (indexing, extraction) is still to do."""
        return self._parts.lanes.pending()

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
        all_agents: bool = False,
    ) -> EventPage:
        """Events in time order (`since` inclusive, `until` exclusive), a page at a time.

        In unified mode only the calling agent's events (`agent_id`, default the configured
        one); `all_agents=True` reads every agent's, for administration, and must be asked for.
        """
        check_count("limit", limit, 1, MAX_PAGE)
        check_filters(session_id=session_id, conversation_id=conversation_id, agent_id=agent_id)
        query = EventQuery(
            since_ms=time_bound("since", since),
            until_ms=time_bound("until", until),
            session_id=session_id,
            conversation_id=conversation_id,
            agent_id=_events_agent(self._parts, agent_id, all_agents),
            after=parse_cursor(cursor),
            limit=limit,
        )
        found = self._parts.store.scan(query)
        next_cursor = str(found[-1].key) if len(found) == limit else None
        return EventPage(found, next_cursor)

    def get_event(self, event_id: str, *, agent_id: str | None = None) -> Event:
        """The event with this id; `EventNotFound` if there is none (or, in unified mode, it is another agent's)."""
        normalised = event_id.strip().upper() if isinstance(event_id, str) else event_id
        if not is_ulid(normalised):
            raise InvalidQuery("event_id", f"{brief(event_id)} is not a 26-character ULID")
        event = self._parts.store.get(normalised)
        if event is None or (self._parts.unified and event.agent_id != self._parts.agent_scope(agent_id)):
            raise EventNotFound(normalised)
        return event

    # -- health and upkeep ----------------------------------------------------------------

    def doctor(self) -> list[Finding]:
        """Check that events, vault and index agree and that the models work (read-only)."""
        return examine(self._parts)

    def status(self) -> Status:
        """Counts, backlog, workers, the model and its breaker, and the database, for `memoir status`."""
        parts = self._parts
        current = Status.of(parts.store, str(self.home), parts.lanes.describe(), self.settings.multi_agent_mode.value)
        usage = llm_usage(parts.store, now_ms() - 24 * 3600 * 1000)
        jobs = [job.to_dict() for job in self.scheduler_status()]
        return replace(current, model=model_state(parts.settings, parts.llm), llm_usage=usage, jobs=jobs)

    def retry_failed(self) -> int:
        """Put outbox entries that were set aside after failures back in the queue; returns how many."""
        return self._parts.store.retry_failed()

    def work(
        self,
        lanes: Iterable[str] | None = None,
        *,
        once: bool = False,
        report: Callable[[str], None],
        stop: threading.Event | None = None,
    ) -> int:
        """Run the named lanes' runners here (all by default) until `stop` is set or interrupted.

        With `once`, drain them instead and return.
        """
        return run_in_foreground(self._parts.lanes, lanes, once=once, report=report, stop=stop)


def _events_agent(parts: Parts, agent_id: str | None, all_agents: bool) -> str | None:
    """Whose events a listing shows: the caller's in unified mode, unless every agent's is asked for."""
    check_flag("all_agents", all_agents)
    return agent_id if all_agents or not parts.unified else parts.agent_scope(agent_id)
