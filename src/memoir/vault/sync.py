"""The vault as truth: `sync` brings the store's mirror and the search index in line with the files.

A mixin of `MemoryBook` (`book.py`). What differs between the vault and the mirror's snapshot
of file hashes is repaired: files people added, changed or deleted, notes broken by hand
(flagged unreadable, never deleted), and what a crash left between a file and its commit
(an interrupted forget finished, temporary files swept). `sync` runs when a home opens, for
the watcher and for `memoir reindex`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from memoir.index.embedders import CachedEmbedder
from memoir.model.memory import Memory
from memoir.store import INDEX_WRITES, Store
from memoir.vault.diff import UNREADABLE, VaultDiff, diff_vault
from memoir.vault.drafts import index_item
from memoir.vault.vault import Vault

__all__ = ["SyncReport", "VaultSync"]

log = logging.getLogger("memoir.vault")


@dataclass
class SyncReport:
    added: int = 0
    changed: int = 0
    removed: int = 0
    broken: list[str] = field(default_factory=list)  # "path: reason" of files skipped (never deleted)
    swept: int = 0  # temporary files a crash left behind, removed


class _Book(Protocol):  # what `sync` needs of the `MemoryBook`
    store: Store
    vault: Vault
    embedder: CachedEmbedder

    def refresh_facts_page(self) -> None: ...

    def _record(self, message: str) -> None: ...

    def _apply(self, diff: VaultDiff) -> SyncReport: ...


class VaultSync:
    """`MemoryBook.sync`, and the mirroring of one file that the book's changes use too (`_mirror`, `_file_gone`)."""

    # Set by `MemoryBook.__init__`.
    store: Store
    vault: Vault
    embedder: CachedEmbedder

    def sync(self: _Book) -> SyncReport:
        """Bring mirror and index in line with the files (edits, additions, deletions, crashes).

        A first look takes no lock; when it finds differences, the comparison is made again
        and applied inside the write transaction, where no other process is changing files.
        """
        diff = diff_vault(self.vault, self.store)
        if not diff.in_step:
            self.embedder.embed_hashed([m.content for _, m, _ in diff.files.values() if not m.deleted])
            with self.store.atomic():
                self.store.exclusive([INDEX_WRITES])  # before any row: see Database.exclusive
                diff = diff_vault(self.vault, self.store)
                report = self._apply(diff)
        else:
            report = SyncReport()
        report.broken = [str(e) for e in diff.problems]
        for problem in diff.problems:
            log.warning("left alone in the vault: %s", problem)
        report.swept = self.vault.sweep_temporary()
        if report.added or report.changed or report.removed:
            self.refresh_facts_page()
            self._record(f"sync: {report.added} added, {report.changed} changed, {report.removed} removed in the vault")
        return report

    def _apply(self, diff: VaultDiff) -> SyncReport:
        report = SyncReport(added=len(diff.added), changed=len(diff.changed))
        for path in diff.superseded:  # finish the interrupted forget: memoir's own note, as it wrote it
            path.unlink(missing_ok=True)
        for memory_id in (*diff.added, *diff.changed):
            path, memory, digest = diff.files[memory_id]
            self._mirror(memory, path, digest)
        for memory_id, error in diff.unreadable.items():
            self.store.memory_mark_unreadable(memory_id, error.reason, UNREADABLE)
            self.store.index_remove([memory_id])
        for memory_id, recorded in diff.gone.items():  # a person deleted the file
            report.removed += self._file_gone(memory_id, recorded)
        return report

    def _file_gone(self, memory_id: str, path: str) -> bool:
        """Mirror a deleted file: a live memory becomes a tombstone; True if it was live."""
        memory = self.store.memory_get(memory_id)
        if memory is None:
            return False
        tombstone = memory if memory.deleted else memory.tombstone(datetime.now(UTC))
        self.store.memory_save(replace(tombstone, unreadable=None), path, "")
        self.store.index_remove([memory_id])
        return not memory.deleted

    def _mirror(self, memory: Memory, path: Path, digest: str) -> None:
        if not memory.deleted:
            self.embedder.embed_hashed([memory.content])  # a cache hit: embedded before the transaction
        self.store.memory_save(memory, str(path), digest)
        if memory.deleted:
            self.store.index_remove([memory.id])
        else:
            self.store.index_add([index_item(memory)])
