"""Memory operations over the vault (truth), the store's mirror and the search index.

Every change holds the store's write transaction from the decision to the commit: what
is already known is read inside it, so two processes remembering the same fact at once
cannot both decide it is new; the files are written inside it too (atomic, each), and
if the transaction then fails, `FileChanges` puts the files back as they were. A crash
between a file and the commit leaves a file the mirror does not know yet: `sync` (run
when a home opens, by the watcher and by `memoir reindex`) compares the vault with the
mirror's snapshot of file hashes and repairs whatever differs, which is also how
edits, additions and deletions made by people reach the index (`sync.py`).

Whose memory: in unified mode (`unified=True`) a memory belongs to an agent, except in
the shared `global` conversation; in separate mode memories carry no agent.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from memoir.errors import InvalidInput, MemoirError, MemoryNotFound
from memoir.index.embedders import CachedEmbedder
from memoir.model import DEFAULT_CONVERSATION, is_ulid
from memoir.model.checks import brief
from memoir.model.memory import Memory
from memoir.model.project import GLOBAL  # the one conversation every agent sees (seed 004)
from memoir.store import INDEX_WRITES, Store
from memoir.vault.diff import UNREADABLE, file_hash
from memoir.vault.drafts import MemoryDraft, commit_message, excerpt, find_args, index_item, merged
from memoir.vault.files import VaultFileError
from memoir.vault.git import GitHistory
from memoir.vault.sync import VaultSync
from memoir.vault.vault import RECENT_ON_PAGE, FileChanges, Note, Vault

__all__ = ["MemoryBook", "MemoryNotFound"]

log = logging.getLogger("memoir.vault")


class MemoryBook(VaultSync):
    def __init__(
        self,
        store: Store,
        vault: Vault,
        embedder: CachedEmbedder,
        git: GitHistory | None = None,
        *,
        unified: bool = False,
        default_agent: str | None = None,
    ) -> None:
        self.store = store
        self.vault = vault
        self.embedder = embedder
        self.git = git
        self.unified = unified
        self.default_agent = default_agent
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

    @contextmanager
    def _changing(self) -> Iterator[FileChanges]:
        """The store's write transaction with the files changed in it: both happen, or neither."""
        with self.vault.changes() as files, self.store.atomic():
            self.store.exclusive([INDEX_WRITES])  # before any row: see Database.exclusive
            yield files

    def _record(self, message: str) -> None:
        if self.git is not None:
            self.git.commit(message)

    def owner(self, conversation_id: str, agent_id: str | None, learned: bool = False) -> str | None:
        """Whose a new memory is: the agent's in unified mode, nobody's in separate mode.

        A memory told for `global` is shared; one learned from an agent's events stays that
        agent's even there (derived data follows its source).
        """
        if not self.unified or (conversation_id == GLOBAL and not learned):
            return None
        agent = agent_id if agent_id is not None else self.default_agent
        if agent is None:
            raise InvalidInput("agent_id", "unified mode keeps memories per agent: pass agent_id or configure one")
        return agent

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
        agent_id: str | None = None,
        reconciled_by: str | None = None,
    ) -> Memory:
        """Store a memory; the same content again (normalised) adds nothing, tags merge."""
        draft = MemoryDraft(
            text, kind, conversation_id, tuple(tags), severity, tuple(event_ids), source, agent_id, reconciled_by
        )
        return self.remember_many([draft])[0]

    def remember_many(self, drafts: Sequence[MemoryDraft]) -> list[Memory]:
        """Store many memories: all checked first, one embedding call, one transaction, one commit.

        A content kept already (normalised, same owner, conversation and kind), in the store or
        earlier in `drafts`, is not kept twice: tags and event ids merge into the first, which
        keeps its date. Returns one memory per draft, in order; duplicates share theirs.
        """
        memories = self._validated(drafts)
        # Embedding first (slow, cached, and the step most likely to fail: a model or server
        # missing), outside the transaction and before any file is written.
        self.embedder.embed_hashed([m.content for m in memories])
        with self._changing() as files:
            results, changed = self._deduplicated(memories)
            for memory, where in changed:
                path = files.write(memory, where)
                self.store.memory_save(memory, str(path), file_hash(path))
            self.store.index_add([index_item(m) for m, _ in changed])
        if changed:
            self.refresh_facts_page()
            self._record(commit_message([m for m, _ in changed]))
        return results

    def _validated(self, drafts: Sequence[object]) -> list[Memory]:
        """Every draft as a memory, or `InvalidInput` naming the first bad one before anything is written."""
        timestamp_ms = int(time.time() * 1000)
        memories = []
        for number, draft in enumerate(drafts):
            try:
                if not isinstance(draft, MemoryDraft):
                    raise InvalidInput("memory", f"expected a MemoryDraft, got {type(draft).__name__}")
                conversation = DEFAULT_CONVERSATION if draft.conversation_id is None else draft.conversation_id
                owner = self.owner(conversation, draft.agent_id, learned=bool(draft.event_ids))
                memories.append(draft.to_memory(timestamp_ms, owner))
            except InvalidInput as exc:
                if len(drafts) == 1:
                    raise
                raise InvalidInput(exc.field, f"{exc.reason} (memory #{number} of the batch)") from None
        return memories

    def _deduplicated(self, memories: list[Memory]) -> tuple[list[Memory], list[tuple[Memory, Path | None]]]:
        """(the memory each one becomes, those to write with where their note is now, if a person moved it).

        Duplicates merge, in the batch and with the store.

        Runs inside the write transaction, so what it finds cannot change before the writes.
        """
        firsts: dict[tuple[str | None, str, str, str], Memory] = {}
        for memory in memories:
            key = memory.key
            firsts[key] = merged(firsts[key], memory) if key in firsts else memory
        # Two processes remembering the same fact at once must find each other's (PostgreSQL).
        self.store.exclusive([f"memory:{key!r}" for key in firsts])
        changed: list[tuple[Memory, Path | None]] = []
        for key, memory in firsts.items():
            same = self._settled(self.store.memory_find(*find_args(memory)), memory)
            if same is None:
                changed.append((memory, None))
                continue
            if same.unreadable:
                firsts[key] = same  # its note is broken: the person fixing it decides, memoir writes nothing
                continue
            firsts[key] = memory = merged(same, memory)  # seed 000: tags merge, the original date stays
            note = self._current_note(same)
            if memory is not same or note is None:  # changed, or a note deleted by hand comes back
                changed.append((memory, note.path if note else None))
        return [firsts[m.key] for m in memories], changed

    def _settled(self, same: Memory | None, memory: Memory) -> Memory | None:
        """`same` as its note holds it now, the mirror brought in line first (a person may have changed it).

        A note edited to say something else, or to claim another id, no longer holds this
        content: the mirror learns that now (as a sync would), and `memory` is new. A broken
        note flags its memory unreadable. A note deleted by hand leaves `same` to be written again.
        The note is read even when the mirror flags `same` unreadable: the flag is what the last
        look found, and the person may have fixed or deleted the note since.
        """
        if same is None:
            return None
        recorded, present = self._notes_of(same)
        note = _holder(same, present)
        if note is not None and isinstance(note.found, Memory):
            # Mirrored again where it was found: `memory_path` must name the file that holds it.
            if note.found != same or same.unreadable or str(note.path) != recorded:  # `unreadable` is not in ==
                self._mirror(note.found, note.path, note.digest)
            return note.found if note.found.key == memory.key else None
        if note is not None and isinstance(note.found, VaultFileError):
            # Recorded at the broken note, which may be memoir's own path when the note the mirror
            # knew is gone: `memory_path` must name a file, and the next sync must find it there.
            flagged = replace(same, unreadable=note.found.reason)
            self.store.memory_save(flagged, str(note.path), UNREADABLE)
            self.store.index_remove([same.id])
            return flagged
        if present:  # its path now holds another memory (an id edited by hand)
            self._file_gone(same.id, recorded or str(self.vault.path_of(same)))
            return None
        return replace(same, unreadable=None)  # no note at all: written again from the mirror's copy

    def _notes_of(self, memory: Memory) -> tuple[str | None, list[Note]]:
        """(the path the mirror recorded, the notes now at it and at memoir's own path for the memory)."""
        recorded = self.store.memory_file(memory.id)
        paths = dict.fromkeys([*([Path(recorded)] if recorded else []), self.vault.path_of(memory)])
        return recorded, [note for path in paths if (note := self.vault.read(path)) is not None]

    def _current_note(self, memory: Memory) -> Note | None:
        """The live note that holds `memory` now (where the mirror saw it, or memoir's own path).

        A file that holds something else by now (an id edited by hand) or cannot be read is
        not this memory's note: forget leaves it alone.
        """
        note = _holder(memory, self._notes_of(memory)[1])
        return note if note is not None and isinstance(note.found, Memory) else None

    def forget(self, memory_id: str, replaced_by: str | None = None, *, agent_id: str | None = None) -> Memory:
        """Soft delete: the file moves under deleted/ as a tombstone; search no longer sees it.

        With `agent_id` (unified mode), only that agent's own or shared memories can be forgotten.
        """
        with self._changing() as files:
            memory = self.get(memory_id, agent_id=agent_id)  # read inside: another process may have forgotten it
            if memory.deleted:
                return memory
            note = self._current_note(memory)
            if note is not None:  # the note as it is now: a person's edits go into the tombstone
                memory = replace(note.found, agent_id=memory.agent_id) if isinstance(note.found, Memory) else memory
            tombstone = files.delete(memory, datetime.now(UTC), replaced_by, note.path if note else None)
            path = self.vault.path_of(tombstone)
            self.store.memory_save(tombstone, str(path), file_hash(path))
            self.store.index_remove([memory.id])
        self.refresh_facts_page()
        why = f"replaced by {replaced_by}" if replaced_by else "deleted"
        self._record(f"forget {memory.kind.value} {memory.id}: {excerpt(memory.content)} ({why})")
        return tombstone

    def update(
        self,
        memory_id: str,
        text: str,
        event_ids: Iterable[str] = (),
        source: str = "user",
        reconciled_by: str | None = None,
        *,
        keep_created: bool = False,
    ) -> Memory:
        """Seed 004's UPDATE: a new memory replaces the old, which becomes a tombstone.

        `keep_created`: the new version keeps the old one's `created_at` (seed 000's fact
        correction), while its id, a ULID, is new as always.
        """
        old = self.get(memory_id)
        draft = MemoryDraft(
            text,
            old.kind.value,
            old.conversation_id,
            old.tags,
            old.severity.value if old.severity else None,
            tuple(event_ids) or old.event_ids,
            source,
            old.agent_id,
            reconciled_by,
            old.created_at if keep_created else None,
        )
        new = self.remember_many([draft])[0]
        if new.id != old.id:
            self.forget(old.id, replaced_by=new.id)
        return new

    def refresh_facts_page(self) -> None:
        """Rewrite facts.md (derived: a failure is logged, and the next change writes it again)."""
        if self._batching:
            self._page_stale = True
            return
        self._page_stale = False
        try:
            self.vault.write_facts_page(self.store.memory_key_facts(RECENT_ON_PAGE))
        except MemoirError as exc:
            log.warning("facts.md not refreshed: %s", exc)

    # -- reading ----------------------------------------------------------------------

    def get(self, memory_id: str, *, agent_id: str | None = None) -> Memory:
        """The memory with this id; with `agent_id`, only if that agent may see it (its own, or shared)."""
        normalised = memory_id.strip().upper() if isinstance(memory_id, str) else None
        if normalised is None or not is_ulid(normalised):
            raise InvalidInput("memory_id", f"{brief(memory_id)} is not a 26-character ULID")
        memory = self.store.memory_get(normalised)
        if memory is None or (agent_id is not None and memory.agent_id not in (None, agent_id)):
            raise MemoryNotFound(normalised)
        return memory

    def history(self, memory_id: str, *, agent_id: str | None = None) -> list[Memory]:
        """Every version of a memory, oldest first: tombstones, then the live one (or the last)."""
        memory = self.get(memory_id, agent_id=agent_id)
        chain = [memory]
        while (before := self.store.memory_predecessor(chain[0].id)) is not None and len(chain) < 1000:
            chain.insert(0, before)
        while chain[-1].replaced_by and len(chain) < 1000:
            after = self.store.memory_get(chain[-1].replaced_by)
            if after is None:
                break
            chain.append(after)
        return chain


def _holder(memory: Memory, notes: Sequence[Note]) -> Note | None:
    """The note that holds `memory` among its candidates (where the mirror saw it first, then
    memoir's own path): the first live note with its id, unless a broken note comes before it.

    A broken note keeps the id while it is broken (decision 94): which note holds a memory
    does not turn on which of its notes broke last. A note holding another id, or a tombstone,
    is passed over.
    """
    for note in notes:
        found = note.found
        if isinstance(found, VaultFileError):
            return note
        if found.id == memory.id and not found.deleted:
            return note
    return None
