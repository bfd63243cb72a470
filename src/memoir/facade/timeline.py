"""`Memoir`'s timeline and scheduler methods (a mixin, so the façade stays one screenful per topic).

Browsing follows seed 002: `toc_root`, `toc_node`, `browse_toc` and `expand_grip`, with
its field names. Node ids (`toc:day:2024-01-15`) are unique within a conversation (and,
in unified mode, an agent): a call may name the conversation, and must when the same id
exists in several of the caller's conversations. Grip ids are unique everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from memoir.errors import InvalidQuery, NotFound
from memoir.facade.assembly import Parts
from memoir.model.checks import check_count, check_filters, check_flag, check_id
from memoir.model.limits import MAX_AROUND, MAX_TOC_PAGE
from memoir.model.timeline import Grip, GripContext, TocLevel, TocNode, TocPage
from memoir.store import EventQuery
from memoir.workers.scheduler import JobStatus, job_statuses, set_paused

__all__ = ["TimelineMethods"]


class TimelineMethods:
    _parts: Parts

    # -- the table of contents ------------------------------------------------------------

    def toc_root(self, conversation_id: str | None = None, *, agent_id: str | None = None) -> list[TocNode]:
        """The year nodes of a conversation's timeline (of every conversation the caller sees, by default)."""
        check_filters(conversation_id=conversation_id, agent_id=agent_id)
        agent = self._parts.agent_scope(agent_id)
        store = self._parts.store
        scopes = [conversation_id] if conversation_id else [c for c, _ in store.toc_conversations(agent)]
        return [node for c in scopes for node in store.toc_children(c, agent, None, level=TocLevel.YEAR)]

    def toc_node(
        self,
        node_id: str,
        version: int | None = None,
        *,
        conversation_id: str | None = None,
        agent_id: str | None = None,
    ) -> TocNode:
        """A node (its latest version, or `version`); `NotFound` when there is none."""
        check_id("node_id", node_id, error=InvalidQuery)
        if version is not None:
            check_count("version", version, 1, 2**31)
        conversation, agent = self._node_scope(node_id, conversation_id, agent_id)
        node = self._parts.store.toc_get(conversation, agent, node_id, version)
        if node is None:
            raise NotFound(f"node {node_id!r} has no version {version} in conversation {conversation!r}")
        return node

    def browse_toc(
        self,
        parent_id: str,
        limit: int = 20,
        cursor: str | None = None,
        *,
        conversation_id: str | None = None,
        agent_id: str | None = None,
    ) -> TocPage:
        """A node's children in time order, a page at a time (`cursor` from the page before)."""
        check_count("limit", limit, 1, MAX_TOC_PAGE)
        conversation, agent = self._node_scope(parent_id, conversation_id, agent_id)
        after = _parse_cursor(cursor)
        found = self._parts.store.toc_children(conversation, agent, parent_id, after=after, limit=limit + 1)
        page, more = found[:limit], len(found) > limit
        last = page[-1] if page else None
        next_cursor = f"{int(last.start_time.timestamp() * 1000)}:{last.node_id}" if more and last else None
        return TocPage(page, next_cursor, more)

    def expand_grip(self, grip_id: str, before: int = 3, after: int = 3, *, agent_id: str | None = None) -> GripContext:
        """The events a grip stands on, with `before` and `after` events of their session around them."""
        check_id("grip_id", grip_id, error=InvalidQuery)
        check_count("before", before, 0, MAX_AROUND)
        check_count("after", after, 0, MAX_AROUND)
        check_filters(agent_id=agent_id)
        grip = self._grip(grip_id, agent_id)
        store = self._parts.store
        ends = store.get_many([grip.event_id_start, grip.event_id_end])
        if grip.event_id_start not in ends or grip.event_id_end not in ends:
            raise NotFound(f"the events of grip {grip_id!r} are gone from the event log")
        first, last = ends[grip.event_id_start], ends[grip.event_id_end]
        agent = grip.agent_id if self._parts.unified else None  # another agent's turns are not its context
        session = EventQuery(session_id=first.session_id, conversation_id=first.conversation_id, agent_id=agent)
        start, end = (first.timestamp_ms, first.event_id), (last.timestamp_ms, last.event_id)
        span = store.scan(replace(session, since_ms=start[0], until_ms=end[0] + 1, limit=MAX_AROUND))
        excerpt = [e for e in span if start <= (e.timestamp_ms, e.event_id) <= end]
        earlier = store.scan(replace(session, before=start, newest_first=True, limit=before)) if before else []
        later = store.scan(replace(session, after=end, limit=after)) if after else []
        return GripContext(grip, list(reversed(earlier)), excerpt, later)

    # -- building it ----------------------------------------------------------------------

    def update_timeline(self, *, rebuild: bool = False, progress: Callable[[int, int], None] | None = None) -> int:
        """Summarize closed segments and roll up aged periods now; returns the nodes written.

        `rebuild=True` also closes every open segment and rolls up every period, aged or not
        (`memoir timeline --rebuild`). The background worker does the same work on its own.
        """
        check_flag("rebuild", rebuild)
        if progress is not None and not callable(progress):
            raise InvalidQuery("progress", "must be a function of (done, total)")
        timeline = self._parts.timeline
        timeline.close_aged(all_open=rebuild)
        written = 0
        while True:
            done = timeline.summarize_closed(limit=50, progress=progress)
            written += done
            if not done:
                break
        return written + timeline.roll_up(force=rebuild)

    # -- the scheduler --------------------------------------------------------------------

    def scheduler_status(self) -> list[JobStatus]:
        """Every job: lane, paused, backlog, last run, work done, failures."""
        registry = self._parts.registry
        lanes = {name: registry.lane(name) for name in registry.names}
        return job_statuses(self._parts.store, lanes, registry.periodic)

    def pause_job(self, name: str) -> None:
        """Stop a job's work (for every process of the home, across restarts) until `resume_job`."""
        check_id("name", name, error=InvalidQuery)
        set_paused(self._parts.store, self._parts.registry.all_names, name, True)

    def resume_job(self, name: str) -> None:
        check_id("name", name, error=InvalidQuery)
        set_paused(self._parts.store, self._parts.registry.all_names, name, False)
        self._parts.lanes.wake()

    # -- helpers --------------------------------------------------------------------------

    def _node_scope(self, node_id: str, conversation_id: str | None, agent_id: str | None) -> tuple[str, str | None]:
        check_id("node_id", node_id, error=InvalidQuery)
        check_filters(conversation_id=conversation_id, agent_id=agent_id)
        agent = self._parts.agent_scope(agent_id)
        if conversation_id is not None:
            if self._parts.store.toc_get(conversation_id, agent, node_id) is None:
                raise NotFound(f"no node {node_id!r} in conversation {conversation_id!r}")
            return conversation_id, agent
        holders = self._parts.store.toc_scopes_of(node_id, agent)
        if not holders:
            raise NotFound(
                f"no node {node_id!r}: open the timeline from its top (the years) to find the nodes there are"
            )
        if len(holders) > 1:
            shown = ", ".join(holders[:5])
            raise InvalidQuery("conversation_id", f"node {node_id!r} is in several conversations ({shown}): name one")
        return holders[0], agent

    def _grip(self, grip_id: str, agent_id: str | None) -> Grip:
        grip = self._parts.store.grip_get(grip_id)
        agent = self._parts.agent_scope(agent_id)
        if grip is None or (self._parts.unified and grip.agent_id != agent):
            raise NotFound(f"no grip {grip_id!r}: each bullet of the timeline names its grips")
        return grip


def _parse_cursor(cursor: str | None) -> tuple[int, str] | None:
    if cursor is None:
        return None
    stamp, sep, node_id = cursor.partition(":") if isinstance(cursor, str) else ("", "", "")
    tame = stamp.isascii() and stamp.isdigit() and len(stamp) <= 15 and node_id.startswith("toc:")
    if not sep or not tame:
        raise InvalidQuery("cursor", "not a cursor from browse_toc: pass the next_cursor of the page before")
    check_id("cursor", node_id, error=InvalidQuery)
    return int(stamp), node_id
