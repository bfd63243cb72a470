"""The vault: memories as Markdown files, the source of truth, an Obsidian vault.

    vault/
      facts.md                                   key facts: Important, then Recent (seed 000)
      entries/<conversation>/facts/<created>__<id>.md
      entries/<conversation>/gotchas|decisions|learnings/...
      entries/<conversation>/deleted/<kind>s/...  soft deletes, tombstones with replaced_by
      entries/<conversation>/[deleted/]summaries/  conversation summaries (vault/summaries.py): not memories

A person may edit, add or delete these files; memoir reads them back (see `scan`).
Deleting a memory moves its file under `deleted/`: the tombstone is written first, then
the live file removed, so a crash in between leaves both (`diff_vault` lets the tombstone
win: it carries the later state). Every change goes through `FileChanges`, which can put
the files back as they were when the database part of the operation fails.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from memoir.errors import StoreError
from memoir.model.event import format_timestamp
from memoir.model.memory import Memory
from memoir.vault.files import VaultFileError, atomic_write, inside, parse_memory, read_note, render_memory, safe_name

__all__ = ["RECENT_ON_PAGE", "FileChanges", "Note", "Vault"]

log = logging.getLogger("memoir.vault")
RECENT_ON_PAGE = 50  # seed 000: recent facts capped at 50 on save
TEMPORARY_PREFIX = ".tmp-"
UNDO_PREFIX = TEMPORARY_PREFIX + "undo-"  # a hard link to a note a change may have to put back
# What atomic_write (mkstemp: 8 random characters) and FileChanges name their files.
_OUR_TEMPORARY = re.compile(r"\.tmp-(?:[a-z0-9_]{8}\.md|undo-.+\.md)")
STALE_TEMPORARY_S = 600  # older than any write in progress: a crash left it
# The memory whose note was last seen at this path with these bytes (their sha256), if any.
Recall = Callable[[Path, str], Memory | None]


@dataclass(frozen=True)
class Note:
    """A file of the vault as read once: what it holds (or why not) and the hash of its bytes."""

    path: Path
    found: Memory | VaultFileError
    digest: str


class Vault:
    def __init__(self, root: Path) -> None:
        # Resolved once, so every path memoir records is spelled the same way, and no
        # path is resolved again: a note that is a symbolic link is never followed.
        self.root = root.resolve()
        self.entries = self.root / "entries"

    def folder(self, memory: Memory, deleted: bool = False) -> Path:
        base = self.entries / safe_name(memory.conversation_id)
        return base / "deleted" / memory.kind.folder if deleted else base / memory.kind.folder

    def path_of(self, memory: Memory) -> Path:
        """Where memoir keeps a memory (or its tombstone): built from ids, never resolved."""
        stamp = memory.created_at.strftime("%Y%m%dT%H%M%S")
        return self.folder(memory, deleted=memory.deleted) / f"{stamp}__{memory.id}.md"

    def write(self, memory: Memory, path: Path | None = None) -> Path:
        """Write a memory's note at `path` (where a person moved it) or memoir's own path for it."""
        path = self.path_of(memory) if path is None else path
        inside(self.root, path.parent)  # a folder linked to somewhere else is refused
        atomic_write(path, render_memory(memory))
        return path

    def scan(self, recall: Recall | None = None) -> Iterator[Note]:
        """Every note, read once: its memory or the error that makes it unreadable.

        A note removed while the scan runs (another process forgetting it) is skipped,
        not reported: it is simply no longer there. `recall`: see `read`.
        """
        if not self.entries.exists():
            return
        for folder, folders, names in os.walk(self.entries):
            folders[:] = [name for name in folders if not _summaries(self.entries, Path(folder) / name)]
            for name in sorted(folders):
                if os.path.islink(os.path.join(folder, name)):  # os.walk does not enter it: say so
                    path = Path(folder) / name
                    yield Note(path, VaultFileError(path, "a symbolic link to a folder: not read, left alone"), "")
            for name in sorted(names):
                if not name.endswith(".md") or name.startswith(TEMPORARY_PREFIX):
                    continue
                path = Path(os.path.join(folder, name))  # one Path made, not two: a vault holds thousands
                if not _utf8_name(path):
                    yield Note(path, VaultFileError(path, "its name is not UTF-8: rename it"), "")
                elif (note := self.read(path, recall)) is not None:
                    yield note

    @staticmethod
    def read(path: Path, recall: Recall | None = None) -> Note | None:
        """One note, read once (None if there is no such file).

        `recall` gives the memory a note held when these very bytes were last read at this
        path (the mirror's copy): such a note is not parsed again. Parsing YAML is most of a
        scan's time (3 ms a note: 2.8 s of every `memoir` command in a home of 732 memories),
        and a note nobody touched parses to what it did.
        """
        try:
            data = read_note(path)
            if data is None:
                return None
            digest = hashlib.sha256(data).hexdigest()
            if recall is not None and (memory := recall(path, digest)) is not None:
                return Note(path, memory, digest)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                return Note(path, VaultFileError(path, f"not UTF-8 text (byte {exc.start})"), digest)
            return Note(path, parse_memory(path, text), digest)
        except VaultFileError as exc:
            return Note(path, exc, "")

    def sweep_temporary(self, older_than_s: float = STALE_TEMPORARY_S) -> int:
        """Remove temporary files a crash left behind (never a note); returns how many."""
        if not self.root.exists():
            return 0
        cutoff, removed = time.time() - older_than_s, 0
        for folder, folders, names in os.walk(self.root):
            folders[:] = [name for name in folders if name not in (".git", ".obsidian")]
            for name in names:
                if not name.startswith(TEMPORARY_PREFIX) or not _OUR_TEMPORARY.fullmatch(name):
                    continue  # only the names memoir itself makes: a person's ".tmp-" file is theirs
                path = Path(folder) / name
                try:
                    info = path.lstat()
                    # An undo link keeps its note's old mtime: its ctime says when it was made.
                    made = max(info.st_mtime, info.st_ctime) if name.startswith(UNDO_PREFIX) else info.st_mtime
                    if not path.is_symlink() and made < cutoff:
                        path.unlink()
                        removed += 1
                except OSError as exc:  # gone already, or not ours to remove: leave it
                    log.debug("cannot remove %s: %s", path, exc)
        return removed

    def changes(self) -> FileChanges:
        return FileChanges(self)

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


def _summaries(entries: Path, folder: Path) -> bool:
    """A conversation's summaries (vault/summaries.py): kept beside its notes, but not memories."""
    parts = folder.relative_to(entries).parts
    return parts[-1] == "summaries" and (len(parts) == 2 or parts[1:] == ("deleted", "summaries"))


def _utf8_name(path: Path) -> bool:
    # A name that is not UTF-8 reaches Python as surrogate escapes, which no database can store.
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class FileChanges:
    """The files one operation writes and removes, with what was there before, to put back on failure.

    Used as a context manager around the operation's database transaction: when that
    fails (a full disk, a crash of the database), the vault is left as it was, so the
    failed operation is not half applied. Putting back must work on a full disk, so a
    note about to be replaced or removed is kept by a hard link beside it (no data is
    copied), which takes its place again on failure and is dropped on success.
    """

    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self._before: dict[Path, Path | bytes | None] = {}  # a link to the old note, its bytes, or None: absent

    def _remember_state(self, path: Path) -> None:
        if path in self._before:
            return
        if path.is_symlink() or not path.exists():
            self._before[path] = None
            return
        aside = path.with_name(f"{UNDO_PREFIX}{path.name}")
        try:
            aside.unlink(missing_ok=True)  # a leftover of a crash
            os.link(path, aside)
            self._before[path] = aside
        except OSError:  # a file system without hard links: keep the bytes
            try:
                self._before[path] = path.read_bytes()
            except FileNotFoundError:
                self._before[path] = None

    def write(self, memory: Memory, path: Path | None = None) -> Path:
        path = self.vault.path_of(memory) if path is None else path
        self._remember_state(path)
        return self.vault.write(memory, path)

    def delete(self, memory: Memory, when: datetime, replaced_by: str | None, live: Path | None) -> Memory:
        """Soft delete: the tombstone goes under deleted/, then `live` (the note that holds it, if any) goes away."""
        tombstone = memory.tombstone(when, replaced_by)
        self.write(tombstone)
        if live is not None and live != self.vault.path_of(tombstone):
            self._remember_state(live)
            try:
                live.unlink()
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise StoreError(f"cannot remove {live}: {exc.strerror}") from exc
        return tombstone

    def undo(self) -> None:
        # New files go first: removing them frees the space putting the old ones back may need.
        ordered = sorted(self._before.items(), key=lambda pair: pair[1] is not None)
        for path, before in ordered:
            try:
                if before is None:
                    path.unlink(missing_ok=True)
                elif isinstance(before, Path):
                    os.replace(before, path)
                else:
                    atomic_write(path, before.decode("utf-8"))
            except (OSError, StoreError, UnicodeDecodeError) as exc:
                log.error("could not restore %s after a failed change: %s", path, exc)

    def _drop_asides(self) -> None:
        for before in self._before.values():
            if isinstance(before, Path):
                try:
                    before.unlink(missing_ok=True)
                except OSError as exc:  # swept later: it is a temporary file
                    log.debug("cannot remove %s: %s", before, exc)

    def __enter__(self) -> FileChanges:
        return self

    def __exit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        if exc is not None:
            self.undo()
        else:
            self._drop_asides()
