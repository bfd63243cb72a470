"""The vault: memories as Markdown files, the source of truth, an Obsidian vault.

    vault/
      facts.md                                   key facts: Important, then Recent (seed 000)
      entries/<conversation>/facts/<created>__<id>.md
      entries/<conversation>/gotchas|decisions|learnings/...
      entries/<conversation>/deleted/<kind>s/...  soft deletes, tombstones with replaced_by

A person may edit, add or delete these files; memoir reads them back (see `scan`).
Deleting a memory moves its file under `deleted/`: the tombstone is written first, then
the live file removed, so a crash in between leaves both, and `scan` lets the tombstone
win (it carries the later state).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path

from memoir.model.event import format_timestamp
from memoir.model.memory import Memory
from memoir.vault.files import VaultFileError, atomic_write, inside, parse_memory, render_memory, safe_name

__all__ = ["RECENT_ON_PAGE", "Vault"]

RECENT_ON_PAGE = 50  # seed 000: recent facts capped at 50 on save


class Vault:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.entries = root / "entries"

    def folder(self, memory: Memory, deleted: bool = False) -> Path:
        base = self.entries / safe_name(memory.conversation_id)
        return base / "deleted" / memory.kind.folder if deleted else base / memory.kind.folder

    def path_of(self, memory: Memory) -> Path:
        stamp = memory.created_at.strftime("%Y%m%dT%H%M%S")
        name = f"{stamp}__{memory.id}.md"
        return inside(self.root, self.folder(memory, deleted=memory.deleted) / name)

    def write(self, memory: Memory) -> Path:
        path = self.path_of(memory)
        atomic_write(path, render_memory(memory))
        return path

    def delete(self, memory: Memory, when: datetime, replaced_by: str | None = None) -> Memory:
        """Soft delete: the tombstone goes under deleted/, then the live file goes away."""
        tombstone = memory.tombstone(when, replaced_by)
        live = self.path_of(memory)
        self.write(tombstone)
        if live.exists():
            live.unlink()
        return tombstone

    def scan(self) -> Iterator[tuple[Path, Memory | VaultFileError]]:
        """Every memory file with what it holds, or the error that makes it unreadable."""
        if not self.entries.exists():
            return
        for folder, _, names in os.walk(self.entries):
            for name in sorted(names):
                if not name.endswith(".md") or name.startswith(".tmp-"):
                    continue
                path = Path(folder) / name
                try:
                    yield path, parse_memory(path, path.read_text(encoding="utf-8"))
                except VaultFileError as exc:
                    yield path, exc
                except (OSError, UnicodeDecodeError) as exc:
                    yield path, VaultFileError(path, f"unreadable: {exc}")

    def write_facts_page(self, memories: Sequence[Memory]) -> Path:
        """facts.md: important facts, then the most recent ones (seed 000's key-facts page)."""
        live = sorted((m for m in memories if not m.deleted), key=lambda m: m.created_at, reverse=True)
        important = [m for m in live if m.important]
        recent = [m for m in live if not m.important][:RECENT_ON_PAGE]

        def line(memory: Memory) -> str:
            tags = " ".join(f"#{t}" for t in memory.tags)
            when = format_timestamp(memory.created_at)[:10]
            return f"- {memory.content} {tags} ({memory.kind.value}, {when}, [[{self.path_of(memory).stem}]])".replace(
                "  ", " "
            )

        text = "# Key facts\n\n## Important\n\n"
        text += "\n".join(line(m) for m in important) or "_none yet_"
        text += "\n\n## Recent\n\n" + ("\n".join(line(m) for m in recent) or "_none yet_") + "\n"
        path = self.root / "facts.md"
        atomic_write(path, text)
        return path
