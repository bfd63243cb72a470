"""The server settings a PostgreSQL deployment must size to its data (`memoir doctor`, docs/performance.md).

Measured with bench/postgres_scale.py (issue 29):
- **shared_buffers** should hold what searches read: the items, the index of their vectors
  (`item_embeddings`; the table too for vectors wider than the index-only scan takes), the
  indexes of both and the HNSW graph. A search of one conversation compares its items exactly, a
  page each (at a million memories over 100 conversations, 10,000 pages); a page in
  PostgreSQL's cache costs about a microsecond, one read through the operating system's
  cache several, and the default of 128 MB holds a few percent of a million memories.
- **maintenance_work_mem** should hold an HNSW graph while it is built: memoir builds with
  the larger of the server's setting and `BUILD_MEMORY_BYTES` (2 GB); a graph that outgrows
  it spills to disk and is built many times slower.
- **hnsw.ef_search** should grow with the graph: memoir asks for at least `HNSW_EF_SEARCH`
  (200) candidates, the database's setting counts where higher, and a bigger graph needs
  more for the same recall (`EF_SEARCH_FOR`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from memoir.store.postgres.vectors import BUILD_MEMORY_BYTES, HNSW_EF_SEARCH
from memoir.store.records import Tuning

__all__ = ["EF_SEARCH_FOR", "INDEX_ONLY_DIMS", "PGVECTOR_EF_SEARCH", "Figures", "advise", "graph_bytes", "setting_size"]

MB = 1024**2
# Vectors of up to about this many dimensions are read from an index alone; wider ones from the
# table too (`memoir_scan_fits` in search_schema.py: 2,400 bytes, ids and model name included).
INDEX_ONLY_DIMS = 560
# pgvector's own default, where nothing sets `hnsw.ef_search`.
PGVECTOR_EF_SEARCH = 40
# (most vectors in the graph, the ef_search they need): recall@10 of the vector stage alone,
# clustered 384-d vectors (bench/postgres_scale.py): see docs/performance.md.
EF_SEARCH_FOR: tuple[tuple[int, int], ...] = ((200_000, 200), (2_000_000, 400))
EF_SEARCH_BEYOND = 800
# Bytes of an HNSW graph under construction per vector, besides the vector itself (neighbour
# lists of its layers, bookkeeping): pgvector 0.8.5 with m = 16 reported the graph no longer
# fit into 16 MB after 7,450 vectors of 384 dimensions, 2,252 bytes each.
GRAPH_OVERHEAD_BYTES = 710


@dataclass(frozen=True, slots=True)
class Figures:
    """What the advice weighs: the settings in force and the sizes of the data."""

    shared_buffers: str  # as the server shows them ('128MB')
    maintenance_work_mem: str
    ef_search: int | None  # the session's hnsw.ef_search where set (database, role, server), else None
    searched_bytes: int  # items, their vectors, their indexes and the model's HNSW graph: what searches read
    vectors: int  # the model's cached vectors: what an HNSW build holds
    dims: int
    graph_vectors: int | None  # vectors in the model's HNSW index; None: no index


def setting_size(text: str) -> int:
    """Bytes of a memory setting as PostgreSQL shows it ('128MB', '64kB', '1GB', '8192')."""
    units = {"B": 1, "kB": 1024, "MB": MB, "GB": 1024**3, "TB": 1024**4}
    number = text.rstrip("kMGTB")
    unit = text[len(number) :] or "B"
    return int(number) * units[unit]


def graph_bytes(vectors: int, dims: int) -> int:
    """Memory an HNSW build of `vectors` vectors of `dims` dimensions holds."""
    return vectors * (4 * dims + 8 + GRAPH_OVERHEAD_BYTES)


def _megabytes(size: int, step: int = 128) -> str:
    """A setting of at least `size` bytes, in whole steps of `step` MB ('3328MB')."""
    return f"{math.ceil(size / (step * MB)) * step}MB"


def ef_search_for(graph_vectors: int) -> int:
    """The hnsw.ef_search a graph of this many vectors needs (`EF_SEARCH_FOR`)."""
    return next((ef for most, ef in EF_SEARCH_FOR if graph_vectors <= most), EF_SEARCH_BEYOND)


def advise(figures: Figures) -> list[Tuning]:
    """Each setting checked against the data: `enough` or what to set and why."""
    return [_shared_buffers(figures), _maintenance_work_mem(figures), *_ef_search(figures)]


def _shared_buffers(figures: Figures) -> Tuning:
    need = figures.searched_bytes
    return Tuning(
        "shared_buffers",
        figures.shared_buffers,
        _megabytes(need),
        f"searches read {need / MB:,.0f} MB of items, their vectors and indexes and the HNSW graph; pages outside"
        " PostgreSQL's cache are read through the operating system's, several times slower"
        " (postgresql.conf, then a restart)",
        setting_size(figures.shared_buffers) >= need,
    )


def _maintenance_work_mem(figures: Figures) -> Tuning:
    need = graph_bytes(figures.vectors, figures.dims)
    used = max(setting_size(figures.maintenance_work_mem), BUILD_MEMORY_BYTES)
    return Tuning(
        "maintenance_work_mem",
        figures.maintenance_work_mem,
        _megabytes(need, 256),
        f"an HNSW graph of {figures.vectors:,} vectors of {figures.dims} dimensions takes about"
        f" {need / MB:,.0f} MB while built; memoir builds with this setting or {BUILD_MEMORY_BYTES // MB} MB,"
        " whichever is more, and a graph that outgrows it is built many times slower",
        used >= need,
    )


def _ef_search(figures: Figures) -> list[Tuning]:
    if figures.graph_vectors is None:
        return []  # no graph to walk: every search is exact
    need = ef_search_for(figures.graph_vectors)
    used = max(figures.ef_search or PGVECTOR_EF_SEARCH, HNSW_EF_SEARCH)
    return [
        Tuning(
            "hnsw.ef_search",
            str(used),
            str(need),
            f"the HNSW graph holds {figures.graph_vectors:,} vectors, and searches wider than a conversation"
            f" find fewer of the true nearest below ef_search {need} (ALTER DATABASE ... SET hnsw.ef_search)",
            used >= need,
        )
    ]
