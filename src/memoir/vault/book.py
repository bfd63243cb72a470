"""Memory operations over the vault (truth), the store's mirror and the search index.

Order of every change: the file first (atomic), then the mirror row and the index in
one transaction. A crash between the two leaves a file the mirror does not know yet;
`sync` (run when a home opens, and by `memoir reindex`) compares the vault with the
mirror's snapshot of file hashes and repairs whatever differs, which is also how
edits, additions and deletions made by people reach the index.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from memoir.errors import InvalidInput, NotFound
from memoir.index.embedders import CachedEmbedder, content_hash
from memoir.model import DEFAULT_CONVERSATION, new_ulid
from memoir.model.memory import Memory, MemoryKind, Severity
from memoir.store import IndexItem, Store
from memoir.vault.files import VaultFileError
from memoir.vault.git import GitHistory
from memoir.vault.vault import Vault

__all__ = ["MemoryBook", "MemoryNotFound", "SyncReport"]

log = logging.getLogger("memoir.vault")


class MemoryNotFound(NotFound):
    def __init__(self, memory_id: str) -> None:
        self.memory_id = memory_id
        super().__init__(f"no memory with id {memory_id!r}")


@dataclass
class SyncReport:
    added: int = 0
    changed: int = 0
    removed: int = 0
    broken: list[str] = field(default_factory=list)  # "path: reason" of files skipped (never deleted)


def _file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def index_item(memory: Memory) -> IndexItem:
    metadata = {"source": memory.source}
    if memory.tags:
        metadata["tags"] = ",".join(memory.tags)
    if memory.severity is not None:
        metadata["severity"] = memory.severity.value
    return IndexItem(
        kind=memory.kind.value,
        ref=memory.id,
        conversation_id=memory.conversation_id,
        created_ms=int(memory.created_at.timestamp() * 1000),
        text=memory.content,
        search_text=memory.content,
        content_hash=content_hash(memory.content),
        event_ids=memory.event_ids,
        metadata=metadata,
    )


def _why(memory: Memory) -> str:
    return f" (from events {', '.join(memory.event_ids)})" if memory.event_ids else f" ({memory.source})"


class MemoryBook:
    def __init__(self, store: Store, vault: Vault, embedder: CachedEmbedder, git: GitHistory | None = None) -> None:
        self.store = store
        self.vault = vault
        self.embedder = embedder
        self.git = git
        self._batching = 0
        self._page_stale = False

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group changes: facts.md is rewritten once at the end, not after each change."""
        self._batching += 1
        try:
            yield
        finally:
            self._batching -= 1
            if not self._batching and self._page_stale:
                self.refresh_facts_page()

    def _record(self, message: str) -> None:
        if self.git is not None:
            self.git.commit(message)

    # -- changes ----------------------------------------------------------------------

    def remember(
        self,
        text: str,
        *,
        kind: str = "fact",
        conversation_id: str | None = None,
        tags: Iterable[str] = (),
        severity: str | None = None,
        event_ids: Iterable[str] = (),
        source: str = "user",
    ) -> Memory:
        """Store a memory; the same content again (normalised) adds nothing, tags merge."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput("text", "must not be empty")
        memory = Memory(
            id=new_ulid(int(time.time() * 1000)),
            kind=MemoryKind.parse(kind),
            content=text,
            conversation_id=conversation_id or DEFAULT_CONVERSATION,
            tags=tuple(tags),
            severity=None if severity is None else Severity.parse(severity),
            event_ids=tuple(event_ids),
            source=source,
        )
        same = self.store.memory_find(memory.conversation_id, memory.kind.value, memory.content)
        if same is not None:  # seed 000: duplicates merge their tags and keep the original date
            merged_tags = tuple(dict.fromkeys(same.tags + memory.tags))
            merged_events = tuple(dict.fromkeys(same.event_ids + memory.event_ids))
            if merged_tags == same.tags and merged_events == same.event_ids:
                return same
            memory = replace(same, tags=merged_tags, event_ids=merged_events)
        self._save(memory)
        self.refresh_facts_page()
        self._record(f"remember {memory.kind.value} {memory.id}: {memory.content[:60]}{_why(memory)}")
        return memory

    def forget(self, memory_id: str, replaced_by: str | None = None) -> Memory:
        """Soft delete: the file moves under deleted/ as a tombstone; search no longer sees it."""
        memory = self.get(memory_id)
        if memory.deleted:
            return memory
        tombstone = self.vault.delete(memory, datetime.now(UTC), replaced_by)
        path = self.vault.path_of(tombstone)
        with self.store.atomic():
            self.store.memory_save(tombstone, str(path), _file_hash(path))
            self.store.index_remove([memory.id])
        self.refresh_facts_page()
        why = f"replaced by {replaced_by}" if replaced_by else "deleted"
        self._record(f"forget {memory.kind.value} {memory.id}: {memory.content[:60]} ({why})")
        return tombstone

    def update(self, memory_id: str, text: str, event_ids: Iterable[str] = (), source: str = "user") -> Memory:
        """Seed 004's UPDATE: a new memory replaces the old, which becomes a tombstone."""
        old = self.get(memory_id)
        new = self.remember(
            text,
            kind=old.kind.value,
            conversation_id=old.conversation_id,
            tags=old.tags,
            severity=old.severity.value if old.severity else None,
            event_ids=tuple(event_ids) or old.event_ids,
            source=source,
        )
        if new.id != old.id:
            self.forget(old.id, replaced_by=new.id)
        return new

    def _save(self, memory: Memory) -> None:
        path = self.vault.write(memory)
        self.embedder.embed_hashed([memory.content])  # before the transaction: slow, cached
        with self.store.atomic():
            self.store.memory_save(memory, str(path), _file_hash(path))
            self.store.index_add([index_item(memory)])

    def refresh_facts_page(self) -> None:
        if self._batching:
            self._page_stale = True
            return
        self._page_stale = False
        self.vault.write_facts_page(self.store.memory_list())

    # -- reading ----------------------------------------------------------------------

    def get(self, memory_id: str) -> Memory:
        memory = self.store.memory_get(memory_id.strip().upper()) if isinstance(memory_id, str) else None
        if memory is None:
            raise MemoryNotFound(str(memory_id))
        return memory

    def history(self, memory_id: str) -> list[Memory]:
        """Every version of a memory, oldest first: tombstones, then the live one (or the last)."""
        memory = self.get(memory_id)
        chain = [memory]
        while (before := self.store.memory_predecessor(chain[0].id)) is not None and len(chain) < 1000:
            chain.insert(0, before)
        while chain[-1].replaced_by and len(chain) < 1000:
            after = self.store.memory_get(chain[-1].replaced_by)
            if after is None:
                break
            chain.append(after)
        return chain

    # -- the vault as truth -------------------------------------------------------------

    def sync(self) -> SyncReport:
        """Bring mirror and index in line with the files (edits, additions, deletions, crashes)."""
        report = SyncReport()
        known = self.store.memory_files()
        files: dict[str, tuple[Path, Memory]] = {}
        for path, found in self.vault.scan():
            if isinstance(found, VaultFileError):
                report.broken.append(str(found))
                log.warning("skipping a vault file: %s", found)
            elif found.id not in files:
                files[found.id] = (path, found)
            else:  # a crash mid-delete left both: the tombstone wins, and the delete is finished
                live, tombstone = sorted([files[found.id], (path, found)], key=lambda pair: pair[1].deleted)
                files[found.id] = tombstone
                if not live[1].deleted:
                    live[0].unlink(missing_ok=True)
        for memory_id, (path, found) in files.items():
            digest = _file_hash(path)
            if known.get(memory_id) == (str(path), digest):
                continue
            report.changed += memory_id in known
            report.added += memory_id not in known
            self._mirror(found, path, digest)
        seen = set(files)
        for memory_id in set(known) - seen:  # a person deleted the file
            memory = self.store.memory_get(memory_id)
            if memory is not None and not memory.deleted:
                report.removed += 1
                with self.store.atomic():
                    self.store.memory_save(memory.tombstone(datetime.now(UTC)), known[memory_id][0], "")
                    self.store.index_remove([memory_id])
        if report.added or report.changed or report.removed:
            self.refresh_facts_page()
            self._record(f"sync: {report.added} added, {report.changed} changed, {report.removed} removed in the vault")
        return report

    def _mirror(self, memory: Memory, path: Path, digest: str) -> None:
        if not memory.deleted:
            self.embedder.embed_hashed([memory.content])
        with self.store.atomic():
            self.store.memory_save(memory, str(path), digest)
            if memory.deleted:
                self.store.index_remove([memory.id])
            else:
                self.store.index_add([index_item(memory)])
