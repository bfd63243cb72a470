"""`Memoir.search` and `Memoir.reindex`, and time-travel reads: what memoir knew at a moment (a mixin of the façade).

`search(..., as_of=T)` answers with what was known just before T: turns and summaries
stored before T, and the memories live then with the content they had then. A memory
changed since is a tombstone now (an update writes a new memory and tombstones the old
one, `replaced_by`): it was live from its `created_at` until its `deleted_at`, so a read
as of a moment in between finds it again, though the index holds only what is live now.
Those memories compete by meaning (their vectors join the vector ranking; the keyword index
never held them). Relative words in the query ("last week") and recency are read as of T.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Protocol

from memoir.config import Settings
from memoir.errors import InvalidQuery
from memoir.facade.assembly import Parts
from memoir.index.rebuild import ProgressCallback, rebuild_index
from memoir.model.checks import brief, check_count, check_filters, check_query
from memoir.model.event import to_ms
from memoir.model.ids import ulid_timestamp_ms
from memoir.model.limits import MAX_K, MAX_PAGE, MAX_QUERY_LENGTH
from memoir.model.memory import Memory
from memoir.retrieval import Hit, TimeLike, search_scope, time_bound
from memoir.store import IndexItem, IndexScope
from memoir.vault.drafts import index_item

__all__ = ["IndexMethods", "SearchMethods", "known_then"]


class _Owner(Protocol):  # what these methods need of the façade
    _parts: Parts

    @property
    def settings(self) -> Settings: ...


class SearchMethods:
    def search(
        self: _Owner,
        query: str,
        *,
        k: int | None = None,
        conversation_id: str | None = None,
        kinds: Iterable[str] | None = None,
        since: TimeLike | None = None,
        until: TimeLike | None = None,
        agent_id: str | None = None,
        as_of: TimeLike | None = None,
    ) -> list[Hit]:
        """The `k` most relevant memories and turns of a conversation (plus `global`), best first.

        With no `conversation_id`, of every conversation in the home, as `events` reads them
        (each hit names its conversation). A conversation with nothing stored yet is not an
        error: it has no hits of its own.
        In unified mode only `agent_id`'s (default: the configured agent) and shared ones.
        `as_of`: what was known just before that moment (the module's docstring).
        """
        k = self.settings.search.top_k if k is None else k
        check_query("query", query, MAX_QUERY_LENGTH)
        check_count("k", k, 1, MAX_K)
        check_filters(agent_id=agent_id)
        scope = search_scope(conversation_id, kinds, since, until, agent_id=self._parts.agent_scope(agent_id))
        moment = time_bound("as_of", as_of)
        if moment is None:
            return self._parts.pipeline.search(query.strip(), scope, k)
        scope, then, hidden = known_then(self._parts, scope, moment)
        return self._parts.pipeline.search(query.strip(), scope, k, moment, extra=then, hidden=hidden)


class IndexMethods:
    def reindex(self: _Owner, progress: ProgressCallback | None = None, batch_size: int = 256) -> int:
        """Rebuild the search index from the event log and the vault; returns how many items it holds.

        Embeddings are cached by content hash, so a rebuild only embeds text it never saw.
        """
        check_count("batch_size", batch_size, 1, MAX_PAGE)
        if progress is not None and not callable(progress):
            raise InvalidQuery("progress", f"must be a function of (done, total), got {brief(progress)}")
        parts = self._parts

        def memories() -> list[IndexItem]:
            items = [index_item(m) for m in parts.store.memory_list() if not m.unreadable]
            return items + parts.timeline.index_items()

        return rebuild_index(
            parts.store, parts.index_job, parts.embedder, memories, progress=progress, batch_size=batch_size
        )


def known_then(parts: Parts, scope: IndexScope, moment_ms: int) -> tuple[IndexScope, list[IndexItem], set[str]]:
    """`scope` narrowed to what was stored before `moment_ms`; the memories of the scope live then
    and not now (their tombstones' content, as it was); and the live ones not yet written then.

    A memory's version is dated by its id (a ULID, minted when that version was written), not by
    `created_at`, which a correction keeps from the version it replaces.
    """
    until = moment_ms if scope.until_ms is None else min(scope.until_ms, moment_ms)
    narrowed = replace(scope, until_ms=until)
    memories: list[Memory] = []
    for conversation in scope.conversation_ids or (None,):
        memories += parts.store.memory_list(conversation, include_deleted=True, visible_to=scope.agent_id)
    wanted = [m for m in memories if scope.kinds is None or m.kind.value in scope.kinds]
    then = [m for m in wanted if m.deleted_at is not None and not m.unreadable and _known(m, narrowed)]
    hidden = {m.id for m in wanted if m.deleted_at is None and not _known(m, narrowed)}
    return narrowed, [index_item(m) for m in then], hidden


def _known(memory: Memory, scope: IndexScope) -> bool:
    """Was this version written before the scope's end, in its range, and not deleted before the end?"""
    assert scope.until_ms is not None
    written = ulid_timestamp_ms(memory.id)
    created = to_ms(memory.created_at)
    if written >= scope.until_ms or (scope.since_ms is not None and created < scope.since_ms):
        return False
    return memory.deleted_at is None or to_ms(memory.deleted_at) >= scope.until_ms
