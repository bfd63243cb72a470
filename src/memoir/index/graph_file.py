"""The HNSW graph's file beside the database (`index/vectors.hnsw`, with a manifest): faiss itself,
a new graph, reading one back when it still fits the index, and saving one.

The file is a cache: a missing, stale or unreadable one is rebuilt, and failing to save one
only costs a rebuild later.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

__all__ = ["faiss_module", "graph_of", "load_graph", "new_graph", "save_graph"]

log = logging.getLogger("memoir.index")

STALE_COPY_S = 3600  # a half-written graph file this old is a killed saver's, never one still being written


def faiss_module() -> Any:
    """faiss, imported on first use; its loader's notes ("Could not load library with AVX2
    support") say how it found its build, which is no news to a person running memoir."""
    logging.getLogger("faiss.loader").setLevel(logging.WARNING)
    import faiss

    return faiss


def graph_of(index: Any) -> Any:
    """The HNSW graph inside an id map (read back from a file, the map holds a generic index)."""
    return faiss_module().downcast_index(index.index)


def new_graph(dim: int, m: int) -> Any:
    """An empty graph keyed by item id, for inner-product (cosine) search."""
    faiss = faiss_module()
    graph = faiss.IndexHNSWFlat(dim, m, faiss.METRIC_INNER_PRODUCT)
    graph.hnsw.efConstruction = 80
    return faiss.IndexIDMap(graph)


def load_graph(path: Path, model: str, generation: int, newest_item_id: int) -> tuple[Any, int] | None:
    """The saved graph and the last item id it holds, when it was made for this model and generation
    and holds no item the index does not (`newest_item_id`); None otherwise."""
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.with_suffix(".json").read_text())
        if manifest.get("model") != model or manifest.get("generation") != generation:
            return None
        last = manifest.get("last_item_id")
        if not isinstance(last, int) or last > newest_item_id:
            return None  # stale, or from before graphs were keyed by item id
        if manifest.get("file") != _identity(path):
            return None  # the manifest of another save (two savers, or one killed between the writes)
        index = faiss_module().read_index(str(path))
        if index.ntotal != manifest.get("count") or not hasattr(index, "id_map"):
            return None
        return index, last
    except (OSError, ValueError, RuntimeError) as exc:
        log.warning("the HNSW file %s is unreadable (%s); rebuilding it", path, exc)
        return None


def save_graph(path: Path, index: Any, manifest: dict[str, Any]) -> None:
    """Write the graph, then its manifest (its count, and which file it is), each through a temporary
    file of this saver's own."""
    tmp = path.with_suffix(f".{os.getpid()}-{threading.get_ident()}.tmp")  # two savers never share one
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for left in path.parent.glob(f"{path.stem}.*.tmp"):  # a killed saver's copy: hundreds of MB
            with contextlib.suppress(OSError):
                if left.stat().st_mtime < time.time() - STALE_COPY_S:
                    left.unlink()
        faiss_module().write_index(index, str(tmp))
        # The manifest names the very file it describes (a rename keeps its inode, size and time), and is
        # itself replaced whole: a manifest never passes for another saver's graph.
        described = {**manifest, "count": index.ntotal, "file": _identity(tmp)}
        os.replace(tmp, path)
        notes = path.with_suffix(f".json.{os.getpid()}-{threading.get_ident()}.tmp")
        notes.write_text(json.dumps(described))
        os.replace(notes, path.with_suffix(".json"))
    except (OSError, RuntimeError) as exc:
        log.warning("could not save the HNSW index to %s: %s", path, exc)
        tmp.unlink(missing_ok=True)  # a half-written copy only takes space


def _identity(path: Path) -> list[int]:
    """Which file `path` is now: its inode, size and modification time."""
    found = path.stat()
    return [found.st_ino, found.st_size, found.st_mtime_ns]
