"""`Memoir`'s memory operations (a mixin of the façade): remember, correct, forget, list, history, and the vault's sync.

Each checks the caller's arguments, masks secrets in what it keeps, and hands the work to the
`MemoryBook` (the vault is the truth, the store its mirror). In unified mode a memory is an
agent's, or shared in `global`; another agent's memory is not found, as if it did not exist.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from memoir.errors import InvalidInput, InvalidQuery
from memoir.facade.assembly import Parts
from memoir.model import Memory
from memoir.model.checks import brief, check_count, check_filters, check_flag
from memoir.model.limits import MAX_PAGE
from memoir.model.memory import MemoryKind
from memoir.vault import MemoryDraft, SyncReport

__all__ = ["MemoryMethods"]


class MemoryMethods:
    _parts: Parts

    def remember(
        self,
        text: str,
        *,
        kind: str = "fact",
        conversation_id: str | None = None,
        tags: Iterable[str] = (),
        severity: str | None = None,
        agent_id: str | None = None,
    ) -> Memory:
        """Keep a memory (fact, gotcha, decision or learning); the same content again adds nothing.

        In unified mode it is `agent_id`'s (default: the configured agent), except in the
        `global` conversation, whose memories every agent shares.
        """
        draft = MemoryDraft(
            text,
            kind=kind,
            conversation_id=conversation_id,
            tags=tags,  # type: ignore[arg-type]  # MemoryDraft turns any iterable into a tuple, or refuses it
            severity=severity,
            agent_id=agent_id,
        )
        return self._parts.book.remember_many([self._masked(draft)])[0]

    def remember_many(
        self, drafts: Iterable[MemoryDraft | str | Mapping[str, Any]], *, agent_id: str | None = None
    ) -> list[Memory]:
        """Keep many memories at once (one embedding batch, one transaction); all are checked first.

        Each item is a `MemoryDraft`, a text (a fact of the default conversation) or a
        mapping with `remember`'s argument names (`text`, `kind`, `conversation_id`, ...).
        `agent_id` is the calling agent: the owner of drafts that name none, and a draft naming
        another agent is refused (a server passes its caller's agent; a payload cannot override it).
        """
        if isinstance(drafts, str | bytes | Mapping) or not isinstance(drafts, Iterable):
            raise InvalidInput("drafts", f"expected a list of memories, got {brief(drafts)}")
        items = [MemoryDraft.of(item) for item in drafts]
        for number, draft in enumerate(items):
            if agent_id is not None and draft.agent_id not in (None, agent_id):
                raise InvalidInput(
                    "agent_id", f"memory #{number} names {brief(draft.agent_id)}, not the caller {brief(agent_id)}"
                )
        owned = [replace(d, agent_id=d.agent_id or agent_id) for d in items]
        return self._parts.book.remember_many([self._masked(d) for d in owned])

    def forget(self, memory_id: str, *, agent_id: str | None = None) -> Memory:
        """Soft-delete a memory: its file moves under `deleted/`, search stops finding it.

        In unified mode only the calling agent's own memories and shared ones can be forgotten;
        another agent's is `MemoryNotFound`, as if it did not exist.
        """
        return self._parts.book.forget(memory_id, agent_id=self._parts.agent_scope(agent_id))

    def correct(
        self,
        memory_id: str,
        text: str,
        *,
        source: str = "user",
        event_ids: Iterable[str] = (),
        agent_id: str | None = None,
    ) -> Memory:
        """Replace a memory by its corrected text (seed 000's fact update); returns the new version.

        The new version keeps the old one's `created_at`, tags and scope, and takes `source`;
        the old becomes a tombstone whose `replaced_by` names it (`memory_history` walks both).
        Only a live memory is corrected: a tombstone would fork its history in two.
        """
        book = self._parts.book
        old = book.get(memory_id, agent_id=self._parts.agent_scope(agent_id))
        if old.replaced_by:
            raise InvalidInput("memory_id", f"{old.id} was replaced by {old.replaced_by}: correct that one")
        if old.deleted:
            raise InvalidInput("memory_id", f"{old.id} was forgotten: remember it anew instead")
        masker = self._parts.masker
        if masker is not None and isinstance(text, str):
            text = masker.mask(text)
        return book.update(old.id, text, event_ids, source, keep_created=True)

    def memories(
        self,
        conversation_id: str | None = None,
        kind: str | None = None,
        include_deleted: bool = False,
        *,
        agent_id: str | None = None,
        all_agents: bool = False,
        newest: int | None = None,
    ) -> list[Memory]:
        """Memories in creation order, optionally of one conversation and kind; `newest`: only
        that many of the latest (a page of a big home).

        In unified mode the calling agent's and the shared ones; `all_agents=True` lists every
        agent's, for administration, and must be asked for.
        """
        check_filters(conversation_id=conversation_id, kind=kind, agent_id=agent_id)
        check_flag("include_deleted", include_deleted)
        check_flag("all_agents", all_agents)
        if kind is not None and kind not in {k.value for k in MemoryKind}:
            raise InvalidQuery("kind", f"unknown kind {brief(kind)}; known: {', '.join(k.value for k in MemoryKind)}")
        if newest is not None:
            check_count("newest", newest, 1, MAX_PAGE)
        visible_to = None if all_agents else self._parts.agent_scope(agent_id)
        return self._parts.store.memory_list(conversation_id, kind, include_deleted, visible_to, newest)

    def memory_history(self, memory_id: str, *, agent_id: str | None = None) -> list[Memory]:
        """Every version of a memory, oldest first, linked by `replaced_by`."""
        return self._parts.book.history(memory_id, agent_id=self._parts.agent_scope(agent_id))

    def memory_path(self, memory: Memory | str, *, agent_id: str | None = None) -> Path:
        """The Markdown file that holds a memory (or its tombstone): where the vault was last seen
        to keep it (a person may have moved or copied it), else where memoir would put it."""
        if not isinstance(memory, Memory):
            memory = self._parts.book.get(memory, agent_id=self._parts.agent_scope(agent_id))
        found = memory
        recorded = self._parts.store.memory_file(found.id)
        return Path(recorded) if recorded else self._parts.vault.path_of(found)

    def sync_vault(self) -> SyncReport:
        """Bring the index in line with the vault's files; broken files are reported, not touched."""
        return self._parts.book.sync()

    def _masked(self, draft: MemoryDraft) -> MemoryDraft:
        masker = self._parts.masker
        if masker is None or not isinstance(draft.text, str):  # a text that is not one is refused later, by name
            return draft
        return replace(draft, text=masker.mask(draft.text))
