"""Watching the vault (seed 004's `start_watcher`): edits people make reach the index at once.

A thread runs `watchfiles.watch` over the vault and, after each debounced burst of
changes to Markdown files, calls `on_change` (the vault sync). memoir's own writes
trigger it too; the sync then finds every file matching its snapshot and does nothing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["VaultWatcher"]

log = logging.getLogger("memoir.vault")


def _is_memory_file(change: Any, path: str) -> bool:
    name = Path(path).name
    return name.endswith(".md") and not name.startswith(".tmp-") and name != "facts.md"


class VaultWatcher:
    def __init__(self, root: Path, on_change: Callable[[], object], debounce_ms: int = 300) -> None:
        self.root = root
        self.on_change = on_change
        self.debounce_ms = debounce_ms
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start watching; returns once the watch is in place, so no edit made after it is missed."""
        self.root.mkdir(parents=True, exist_ok=True)
        self._thread = threading.Thread(target=self._loop, name="memoir-vault-watcher", daemon=True)
        self._thread.start()
        self._ready.wait(5)

    def _loop(self) -> None:
        from watchfiles import watch

        changes = watch(
            self.root,
            watch_filter=_is_memory_file,
            debounce=self.debounce_ms,
            stop_event=self._stop,
            rust_timeout=100,
            yield_on_timeout=True,  # the first (empty) yield says the watch is in place
        )
        for changed in changes:
            self._ready.set()
            if not changed:
                continue
            try:
                self.on_change()
            except Exception:
                log.exception("syncing the vault after a change failed")

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
