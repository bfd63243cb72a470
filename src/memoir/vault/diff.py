"""What differs between the vault's files and the store's mirror of them.

One comparison serves two callers: `MemoryBook.sync` repairs what it finds (the files
are the truth) and `memoir doctor` only reports it. Keeping it in one place means the
doctor can never call "in sync" what the next open would still change.

The files are the user's: nothing found here leads to a file being deleted, with one
exception that is memoir's own unfinished work: the tombstone of a forget that never
committed (the mirror still has the memory live at its note, unchanged, and the tombstone
is byte for byte as memoir wrote it), which is rolled back. Two notes claiming one id (an
Obsidian copy, an id edited by hand) are reported; the one at memoir's own path for that
id (or its tombstone) is used. Two live notes holding the same memory (same owner,
conversation, kind and content, with different ids) are reported too; the one the mirror
already has live, or else the oldest, is used: a memory is live once.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from memoir.model.memory import Memory
from memoir.vault.files import VaultFileError, render_memory
from memoir.vault.vault import Note, Vault

__all__ = ["UNREADABLE", "VaultDiff", "diff_vault", "file_hash"]

UNREADABLE = "unreadable"  # the file hash the mirror records while a memory's note is broken


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass
class VaultDiff:
    """Readable files by memory id, and how they differ from the mirror's snapshot."""

    files: dict[str, tuple[Path, Memory, str]] = field(default_factory=dict)  # id -> (path, memory, sha256)
    added: list[str] = field(default_factory=list)  # files the mirror has never seen
    changed: list[str] = field(default_factory=list)  # files whose path or content moved on
    gone: dict[str, str] = field(default_factory=dict)  # id -> path of mirrored files no longer on disk
    broken: list[VaultFileError] = field(default_factory=list)  # unreadable files, left alone
    unreadable: dict[str, VaultFileError] = field(default_factory=dict)  # mirrored memories whose note broke
    duplicates: list[VaultFileError] = field(default_factory=list)  # notes claiming an id another one has
    superseded: list[Path] = field(default_factory=list)  # tombstones of a forget that never committed

    @property
    def in_step(self) -> bool:
        return not (self.added or self.changed or self.gone or self.superseded or self.unreadable)

    @property
    def problems(self) -> list[VaultFileError]:
        """Files memoir leaves alone and a person should look at."""
        return [*self.broken, *self.duplicates]


def diff_vault(vault: Vault, known: Mapping[str, tuple[str, str]]) -> VaultDiff:
    """Compare the files with `known` (id -> (path, file hash), as the mirror last saw them)."""
    diff = VaultDiff()
    claims: dict[str, list[Note]] = {}
    broken_paths: dict[str, VaultFileError] = {}
    linked: dict[str, VaultFileError] = {}  # folders that are links: the notes behind them are not read
    for note in vault.scan():
        if isinstance(note.found, VaultFileError):
            diff.broken.append(note.found)
            broken_paths[str(note.path)] = note.found
            if note.path.is_dir():
                linked[str(note.path) + os.sep] = note.found
        else:
            claims.setdefault(note.found.id, []).append(note)
    chosen = {i: _settle_claims(vault, n, known, diff) if len(n) > 1 else n[0] for i, n in claims.items()}
    for note in _repeated_memories(chosen, known):
        diff.duplicates.append(
            VaultFileError(note.path, f"holds the same memory as another note: ignored ({note.path.name})")
        )
        del chosen[_memory(note).id]
    for memory_id, note in chosen.items():
        diff.files[memory_id] = (note.path, _memory(note), note.digest)
        if memory_id not in known:
            diff.added.append(memory_id)
        elif known[memory_id] != (str(note.path), note.digest):
            diff.changed.append(memory_id)
    for memory_id, (path, digest) in known.items():
        if memory_id in diff.files or not digest:  # an empty hash: its deletion was mirrored already
            continue
        behind = next((error for folder, error in linked.items() if path.startswith(folder)), None)
        if path in broken_paths or behind is not None:
            if digest != UNREADABLE:
                diff.unreadable[memory_id] = broken_paths.get(path) or behind  # type: ignore[assignment]
        else:
            diff.gone[memory_id] = path
    return diff


def _repeated_memories(chosen: Mapping[str, Note], known: Mapping[str, tuple[str, str]]) -> list[Note]:
    """Live notes holding a memory another live note holds too: all but the mirror's own, or the oldest."""
    groups: dict[tuple[str | None, str, str, str], list[Note]] = {}
    for note in chosen.values():
        if not _memory(note).deleted:
            groups.setdefault(_memory(note).key, []).append(note)

    def preference(note: Note) -> tuple[bool, str]:
        memory = _memory(note)
        mirrored_live = known.get(memory.id, ("", ""))[1] not in ("", UNREADABLE)
        return (not mirrored_live, memory.id)  # ULIDs sort by creation: the oldest first

    return [note for notes in groups.values() if len(notes) > 1 for note in sorted(notes, key=preference)[1:]]


def _settle_claims(vault: Vault, notes: list[Note], known: Mapping[str, tuple[str, str]], diff: VaultDiff) -> Note:
    """The note that speaks for an id several notes claim; the others are reported, or rolled back if memoir's."""
    tombstones = [n for n in notes if _memory(n).deleted]
    canonical = [n for n in notes if n.path == vault.path_of(_memory(n))]
    chosen = (tombstones or canonical or sorted(notes, key=lambda n: str(n.path)))[0]
    live = [n for n in notes if not _memory(n).deleted]
    if chosen in tombstones and live and _uncommitted_forget(vault, live[0], chosen, known):
        diff.superseded.append(chosen.path)
        chosen = live[0]
    for note in notes:
        if note is chosen or note.path in diff.superseded:
            continue
        diff.duplicates.append(
            VaultFileError(note.path, f"claims the id {_memory(chosen).id} of {chosen.path.name}: ignored")
        )
    return chosen


def _uncommitted_forget(vault: Vault, live: Note, tombstone: Note, known: Mapping[str, tuple[str, str]]) -> bool:
    """`tombstone` is memoir's, written by a forget whose transaction never committed (a crash).

    The mirror still has the memory live at `live`, unchanged, so the forget was never
    acknowledged: rolling it back (removing the tombstone memoir wrote) loses nothing.
    """
    memory, dead = _memory(live), _memory(tombstone)
    return (
        known.get(memory.id) == (str(live.path), live.digest)
        and tombstone.path == vault.path_of(dead)
        and memory.content == dead.content
        and tombstone.digest == hashlib.sha256(render_memory(dead).encode("utf-8")).hexdigest()
    )


def _memory(note: Note) -> Memory:
    assert isinstance(note.found, Memory)
    return note.found
