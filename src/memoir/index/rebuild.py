"""`memoir reindex`: the search index rebuilt from the sources of truth.

The index is derived data: it is cleared, then filled again from the memories mirror
(the vault's files) and from every event the index job wants, a page at a time, each
page embedded before its transaction (the content-hash cache means a rebuild only
embeds text it never saw) and written in one.
"""

from __future__ import annotations

from collections.abc import Callable

from memoir.index.embedders import CachedEmbedder
from memoir.index.job import IndexEventJob
from memoir.store import EventQuery, IndexItem, Store

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

    The memories are listed again, cleared and added in one transaction: a memory forgotten
    meanwhile (another process) is then either gone from the list or removed after it, so a
    rebuild never brings a forgotten memory back.
    """
    total = store.count_events()
    embedder.embed_hashed([item.search_text for item in memories()])  # slow: before the transaction
    with store.atomic():
        store.index_clear()
        items = memories()
        embedder.embed_hashed([item.search_text for item in items])  # cache hits, unless one just arrived
        store.index_add(items)
    done = indexed = 0
    after: tuple[int, str] | None = None
    while True:
        page = store.scan(EventQuery(after=after, limit=batch_size))
        wanted = [e for e in page if job.wants(e)]
        job.prepare(wanted, store)
        with store.atomic():
            job.run(wanted, store)
        done, indexed = done + len(page), indexed + len(wanted)
        if progress is not None:
            progress(done, total)
        if len(page) < batch_size:
            return indexed + len(items)
        after = (page[-1].timestamp_ms, page[-1].event_id)
