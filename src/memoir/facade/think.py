"""Think documents through the façade (seed 001's think/): a project's book, and conclusions kept as memories.

A think document is a Markdown file in the vault, one folder per project scope
(`model.project.project_scope`); `think_book` hands out that book, so no door builds it
from the home's layout. Concluding with `promote` keeps the conclusion as a memory of the
project (a decision, learning or gotcha, tagged with the document) and records it in the
document, in that order: a conclusion that failed to be kept is not recorded as kept.
Asking another AI (`think.providers`) stays with the caller: it runs the user's tools.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from memoir.config import Settings
from memoir.errors import InvalidInput
from memoir.model.memory import Memory
from memoir.think.documents import ThinkBook, ThinkDocument, check_open, checked_text

__all__ = ["PROMOTE_KINDS", "ThinkMethods"]

PROMOTE_KINDS = ("decision", "learning", "gotcha")


class _Owner(Protocol):  # what these methods need of the façade
    @property
    def home(self) -> Path: ...

    @property
    def settings(self) -> Settings: ...

    def think_book(self, scope: str) -> ThinkBook: ...

    def remember(
        self, text: str, *, kind: str = ..., conversation_id: str | None = ..., tags: Iterable[str] = ...
    ) -> Memory: ...


class ThinkMethods:
    def think_book(self: _Owner, scope: str) -> ThinkBook:
        """The think documents of the project `scope` names, in the vault."""
        return ThinkBook(self.settings.vault_folder, scope, self.home / "think.lock")

    def conclude_thinking(
        self: _Owner, doc_id: str, text: str, *, scope: str, promote: str | None = None
    ) -> tuple[ThinkDocument, Memory | None]:
        """Close a think document with its conclusion; `promote` (decision, learning or gotcha)
        also keeps the conclusion as a memory of the project. Returns the document and that memory."""
        text = checked_text("conclusion", text)
        if promote is not None and promote not in PROMOTE_KINDS:
            raise InvalidInput("promote", f"{promote!r} is not one of {', '.join(PROMOTE_KINDS)}")
        book = self.think_book(scope)
        document = book.get(doc_id)
        check_open(document)
        memory = None
        if promote is not None:
            tags = ("think", f"think/{document.id}")  # the memory points back at its document
            memory = self.remember(text, kind=promote, conversation_id=scope, tags=tags)
        promoted = (promote, memory.id) if promote is not None and memory is not None else None
        return book.conclude(document.id, text, promoted), memory
