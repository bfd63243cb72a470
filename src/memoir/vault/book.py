"""Memory operations over the vault (truth), the store's mirror and the search index.

Order of every change: the file first (atomic), then the mirror row and the index in
one transaction. A crash between the two leaves a file the mirror does not know yet;
`sync` (run when a home opens, and by `memoir reindex`) compares the vault with the
mirror's snapshot of file hashes and repairs whatever differs, which is also how
edits, additions and deletions made by people reach the index.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from memoir.errors import InvalidInput, NotFound
from memoir.index.embedders import CachedEmbedder, content_hash
from memoir.model import DEFAULT_CONVERSATION, new_ulid
from memoir.model.memory import Memory, MemoryKind, Severity, normalise_content
from memoir.store import IndexItem, Store
from memoir.vault.diff import diff_vault, file_hash
from memoir.vault.git import GitHistory
from memoir.vault.vault import Vault

__all__ = ["MemoryBook", "MemoryDraft", "MemoryNotFound", "SyncReport"]

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


_DRAFT_FIELDS = frozenset({"text", "kind", "conversation_id", "tags", "severity"})


@dataclass(frozen=True)
class MemoryDraft:
    """A memory to keep, before it has an id and a date: what `remember_many` takes."""

    text: str
    kind: str = "fact"
    conversation_id: str | None = None
    tags: tuple[str, ...] = ()
    severity: str | None = None
    event_ids: tuple[str, ...] = ()
    source: str = "user"

    def __post_init__(self) -> None:
        # Drafts arrive from JSON and mappings with lists; a lone string is one value, not its letters.
        for name in ("tags", "event_ids"):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, (value,) if isinstance(value, str) else tuple(value))
            except TypeError:
                raise InvalidInput(name, f"must be a list of strings, not {type(value).__name__}") from None

    @classmethod
    def of(cls, item: object) -> MemoryDraft:
        """A draft from what callers pass: a draft, a text, or a mapping of `remember`'s arguments."""
        if isinstance(item, MemoryDraft):
            return item
        if isinstance(item, str):
            return cls(item)
        if isinstance(item, Mapping):
            unknown = sorted(set(map(str, item)) - {"text", "kind", "conversation_id", "tags", "severity"})
            if unknown:
                raise InvalidInput(
                    unknown[0], "is not a field of a memory (text, kind, conversation_id, tags, severity)"
                )
            if "text" not in item:
                raise InvalidInput("text", "is required")
            return cls(**item)
        raise InvalidInput("memory", f"expected a text, a mapping or a MemoryDraft, got {type(item).__name__}")

    def to_memory(self, timestamp_ms: int) -> Memory:
        """The memory this draft describes (validated), with a new id; raises `InvalidInput`."""
        if not isinstance(self.text, str) or not self.text.strip():
            raise InvalidInput("text", "must not be empty")
        return Memory(
            id=new_ulid(timestamp_ms),
            kind=MemoryKind.parse(self.kind),
            content=self.text,
            conversation_id=self.conversation_id or DEFAULT_CONVERSATION,
            tags=self.tags,
            severity=None if self.severity is None else Severity.parse(self.severity),
            event_ids=self.event_ids,
            source=self.source,
        )


def _same_key(memory: Memory) -> tuple[str, str, str]:
    """What makes two memories the same one (seed 000): scope, kind and normalised content."""
    return memory.conversation_id, memory.kind.value, normalise_content(memory.content)


def _merged(into: Memory, other: Memory) -> Memory:
    """`into` with `other`'s tags and event ids added; `into` itself when nothing is new."""
    tags = tuple(dict.fromkeys(into.tags + other.tags))
    event_ids = tuple(dict.fromkeys(into.event_ids + other.event_ids))
    if tags == into.tags and event_ids == into.event_ids:
        return into
    return replace(into, tags=tags, event_ids=event_ids)


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


def _commit_message(memories: Sequence[Memory]) -> str:
    lines = [f"{m.kind.value} {m.id}: {m.content[:60]}{_why(m)}" for m in memories]
    if len(lines) == 1:
        return f"remember {lines[0]}"
    return f"remember {len(lines)} memories\n\n" + "\n".join(lines)


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
        draft = MemoryDraft(text, kind, conversation_id, tuple(tags), severity, tuple(event_ids), source)
        return self.remember_many([draft])[0]

    def remember_many(self, drafts: Sequence[MemoryDraft]) -> list[Memory]:
        """Store many memories: all checked first, one embedding call, one transaction, one commit.

        A content kept already (normalised, same conversation and kind), in the store or earlier
        in `drafts`, is not kept twice: tags and event ids merge into the first, which keeps its
        date. Returns one memory per draft, in order; duplicates share theirs.
        """
        memories = self._validated(drafts)
        results, changed = self._deduplicated(memories)
        if changed:
            self._save_many(changed)
            self.refresh_facts_page()
            self._record(_commit_message(changed))
        return results

    def _validated(self, drafts: Sequence[object]) -> list[Memory]:
        """Every draft as a memory, or `InvalidInput` naming the first bad one before anything is written."""
        timestamp_ms = int(time.time() * 1000)
        memories = []
        for number, draft in enumerate(drafts):
            try:
                if not isinstance(draft, MemoryDraft):
                    raise InvalidInput("memory", f"expected a MemoryDraft, got {type(draft).__name__}")
                memories.append(draft.to_memory(timestamp_ms))
            except InvalidInput as exc:
                if len(drafts) == 1:
                    raise
                raise InvalidInput(exc.field, f"{exc.reason} (memory #{number} of the batch)") from None
        return memories

    def _deduplicated(self, memories: list[Memory]) -> tuple[list[Memory], list[Memory]]:
        """(the memory each one becomes, those to write): duplicates merge, in the batch and with the store."""
        firsts: dict[tuple[str, str, str], Memory] = {}
        for memory in memories:
            key = _same_key(memory)
            firsts[key] = _merged(firsts[key], memory) if key in firsts else memory
        changed = []
        for key, memory in firsts.items():
            same = self.store.memory_find(memory.conversation_id, memory.kind.value, memory.content)
            if same is not None:  # seed 000: duplicates merge their tags and keep the original date
                firsts[key] = memory = _merged(same, memory)
            if memory is not same:
                changed.append(memory)
        return [firsts[_same_key(m)] for m in memories], changed

    def _save_many(self, memories: list[Memory]) -> None:
        # Embedding first (slow, cached, and the step most likely to fail: a model or server
        # missing), so a failure leaves no file behind; files next, as the source of truth.
        self.embedder.embed_hashed([m.content for m in memories])
        paths = [self.vault.write(m) for m in memories]
        with self.store.atomic():
            for memory, path in zip(memories, paths, strict=True):
                self.store.memory_save(memory, str(path), file_hash(path))
            self.store.index_add([index_item(m) for m in memories])

    def forget(self, memory_id: str, replaced_by: str | None = None) -> Memory:
        """Soft delete: the file moves under deleted/ as a tombstone; search no longer sees it."""
        memory = self.get(memory_id)
        if memory.deleted:
            return memory
        tombstone = self.vault.delete(memory, datetime.now(UTC), replaced_by)
        path = self.vault.path_of(tombstone)
        with self.store.atomic():
            self.store.memory_save(tombstone, str(path), file_hash(path))
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
        known = self.store.memory_files()
        diff = diff_vault(self.vault, known)
        report = SyncReport(added=len(diff.added), changed=len(diff.changed), broken=[str(e) for e in diff.broken])
        for error in diff.broken:
            log.warning("skipping a vault file: %s", error)
        for path in diff.superseded:  # finish the interrupted delete
            path.unlink(missing_ok=True)
        for memory_id in (*diff.added, *diff.changed):
            path, memory, digest = diff.files[memory_id]
            self._mirror(memory, path, digest)
        for memory_id in diff.gone:  # a person deleted the file
            report.removed += self._file_gone(memory_id, known[memory_id][0])
        if report.added or report.changed or report.removed:
            self.refresh_facts_page()
            self._record(f"sync: {report.added} added, {report.changed} changed, {report.removed} removed in the vault")
        return report

    def _file_gone(self, memory_id: str, path: str) -> bool:
        """Mirror a deleted file: a live memory becomes a tombstone; True if it was live."""
        memory = self.store.memory_get(memory_id)
        if memory is None:
            return False
        with self.store.atomic():
            self.store.memory_save(memory if memory.deleted else memory.tombstone(datetime.now(UTC)), path, "")
            self.store.index_remove([memory_id])
        return not memory.deleted

    def _mirror(self, memory: Memory, path: Path, digest: str) -> None:
        if not memory.deleted:
            self.embedder.embed_hashed([memory.content])
        with self.store.atomic():
            self.store.memory_save(memory, str(path), digest)
            if memory.deleted:
                self.store.index_remove([memory.id])
            else:
                self.store.index_add([index_item(memory)])
