"""`memoir reindex`: the search index rebuilt from the sources of truth.

The index is derived data, written again from the memories mirror (the vault's files)
and from every event the index job wants, a page at a time, each page embedded before
its transaction (the content-hash cache means a rebuild only embeds text it never saw)
and written in one. It is rebuilt in place, never cleared first (decision 93): an item
equal to the one indexed is left as it is, under its id, and a changed one replaces it
in the transaction that writes it; an item nothing stands for any more (a forgotten
memory, an event the job does not want) is removed in the transaction of its page. So a
search beside a reindex finds every item all along, never half an index, and a rebuild
cut short leaves the index whole. At the end, searchers holding vectors load them again
(a new embedding model's vectors are new for items that kept their ids).
"""

from __future__ import annotations

from collections.abc import Callable

from memoir.index.embedders import CachedEmbedder
from memoir.index.job import TURN, IndexEventJob
from memoir.store import INDEX_WRITES, EventQuery, IndexItem, Store

__all__ = ["rebuild_index"]

ProgressCallback = Callable[[int, int], None]


def rebuild_index(
    store: Store,
    job: IndexEventJob,
    embedder: CachedEmbedder,
    memories: Callable[[], list[IndexItem]],
    *,
    progress: ProgressCallback | None = None,
    batch_size: int = 256,
) -> int:
    """Rebuild the index; returns how many items it holds. `memories` lists the live memories' items.

    The memories are listed again, added, and the items of memories no longer listed removed,
    in one transaction: a memory forgotten meanwhile (another process) is then either gone
    from the list or removed after it, so a rebuild never brings a forgotten memory back.
    """
    total = store.count_events()
    embedder.embed_hashed([item.search_text for item in memories()])  # slow: before the transaction
    with store.atomic():
        # The index writers' lock before the list: a forget cannot remove a memory's item between
        # the list that still holds it and the write that would then put it back.
        store.exclusive([INDEX_WRITES])
        indexed = store.index_refs_not_of_kind(TURN)
        items = memories()
        embedder.embed_hashed([item.search_text for item in items])  # cache hits, unless one just arrived
        store.index_add(items)
        store.index_remove(sorted(indexed - {item.ref for item in items}))
    turns = _add_events(store, job, total, progress, batch_size)
    store.index_new_generation()
    return turns + len(items)


def _add_events(
    store: Store, job: IndexEventJob, total: int, progress: ProgressCallback | None, batch_size: int
) -> int:
    """Index every event the job wants again, a page per transaction; returns how many."""
    done = indexed = 0
    after: tuple[int, str] | None = None
    while True:
        page = store.scan(EventQuery(after=after, limit=batch_size))
        wanted = [e for e in page if job.wants(e)]
        job.prepare(wanted, store)
        with store.atomic():
            job.run(wanted, store)
            store.index_remove([e.event_id for e in page if not job.wants(e)])  # one indexed by older rules
        done, indexed = done + len(page), indexed + len(wanted)
        if progress is not None:
            progress(done, total)
        if len(page) < batch_size:
            return indexed
        after = (page[-1].timestamp_ms, page[-1].event_id)
