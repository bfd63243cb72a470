"""What differs between the vault's files and the store's mirror of them.

One comparison serves two callers: `MemoryBook.sync` repairs what it finds (the files
are the truth) and `memoir doctor` only reports it. Keeping it in one place means the
doctor can never call "in sync" what the next open would still change.

The files are the user's: nothing found here leads to a file being deleted, with one
exception that is memoir's own unfinished work: the tombstone of a forget that never
committed (the mirror still has the memory live at its note, unchanged, and the tombstone
is byte for byte as memoir wrote it), which is rolled back. Two notes claiming one id (an
Obsidian copy, an id edited by hand) are reported; the one at memoir's own path for that
id (or its tombstone) is used, except while the note the mirror knows the memory by is
broken: that note keeps the id (decision 94). Two live notes holding the same memory
(same owner, conversation, kind and content, with different ids) are reported too; the
one the mirror already has live with that content, or else live at all, or else the
oldest, is used: a memory is live once. A live memory whose note cannot be read now (its front matter
broken) still holds its content, from the mirror's last good copy: a readable note that
would repeat it is reported and ignored, since the broken note cannot be weighed.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from memoir.model.memory import Memory
from memoir.store import MemoryMirror
from memoir.vault.files import VaultFileError, render_memory
from memoir.vault.vault import Note, Recall, Vault

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


MemoryKey = tuple[str | None, str, str, str]  # Memory.key: owner, conversation, kind, normalised content
Lookup = Callable[[str], Memory | None]  # a memory as the mirror keeps it


def diff_vault(vault: Vault, mirror: MemoryMirror) -> VaultDiff:
    """Compare the files with the mirror: the notes it last saw (`memory_files`: id -> (path,
    file hash)) and, where two notes compete for one memory, the memories it keeps."""
    known = mirror.memory_files()
    lookup = _cached(mirror.memory_get)
    diff = VaultDiff()
    claims: dict[str, list[Note]] = {}
    unread = _Unread()
    for note in vault.scan(_recall(known, mirror)):
        if isinstance(note.found, VaultFileError):
            diff.broken.append(note.found)
            unread.add(note.path, note.found)
        else:
            claims.setdefault(note.found.id, []).append(note)
    chosen = _claimed(vault, claims, known, unread, diff)
    _drop_repeated(chosen, known, unread, lookup, diff)
    for memory_id, note in chosen.items():
        diff.files[memory_id] = (note.path, _memory(note), note.digest)
        if memory_id not in known:
            diff.added.append(memory_id)
        elif known[memory_id] != (str(note.path), note.digest):
            diff.changed.append(memory_id)
    for memory_id, (path, digest) in known.items():
        if memory_id in diff.files or not digest:  # an empty hash: its deletion was mirrored already
            continue
        if (error := unread.why(path)) is not None:
            if digest != UNREADABLE:
                diff.unreadable[memory_id] = error
        else:
            diff.gone[memory_id] = path
    return diff


def _recall(known: Mapping[str, tuple[str, str]], mirror: MemoryMirror) -> Recall:
    """The mirror's memory for a note it last saw at the same path with the same bytes.

    The mirror holds what those bytes were read as, so they need no parsing: it holds what
    the diff would compare them with anyway. Read in one query the first time it is asked.
    """
    by_file: dict[tuple[str, str], list[str]] = {}
    for memory_id, (path, digest) in known.items():
        if digest and digest != UNREADABLE:
            by_file.setdefault((path, digest), []).append(memory_id)
    mirrored: dict[str, Memory] = {}

    def recall(path: Path, digest: str) -> Memory | None:
        ids = by_file.get((str(path), digest), [])
        if len(ids) != 1:  # never seen, or (a mirror out of step) the same bytes twice: read them
            return None
        if not mirrored:
            mirrored.update((m.id, m) for m in mirror.memory_list(include_deleted=True))
        return mirrored.get(ids[0])

    return recall


class _Unread:
    """Paths whose note cannot be read now: broken files, and everything behind a linked folder."""

    def __init__(self) -> None:
        self.files: dict[str, VaultFileError] = {}
        self.folders: dict[str, VaultFileError] = {}  # folders that are links: the notes behind them are not read

    def add(self, path: Path, error: VaultFileError) -> None:
        self.files[str(path)] = error
        if path.is_dir():
            self.folders[str(path) + os.sep] = error

    def why(self, path: str) -> VaultFileError | None:
        """The error that keeps the note at `path` from being read, or None (readable, or no file)."""
        found = self.files.get(path)
        return found or next((error for folder, error in self.folders.items() if path.startswith(folder)), None)


def _cached(lookup: Lookup) -> Lookup:
    """`lookup`, asked once per id: a diff may weigh the same memory several times."""
    seen: dict[str, Memory | None] = {}

    def cached(memory_id: str) -> Memory | None:
        if memory_id not in seen:
            seen[memory_id] = lookup(memory_id)
        return seen[memory_id]

    return cached


def _drop_repeated(
    chosen: dict[str, Note], known: Mapping[str, tuple[str, str]], unread: _Unread, lookup: Lookup, diff: VaultDiff
) -> None:
    """Ignore (and report) the live notes that would make a second live memory of one content.

    Repeated until nothing changes: a memory whose note is ignored may be held by its
    broken note at the mirror's path, and then holds its old content against others.
    """
    while repeated := _repeated_memories(chosen, _held(chosen, known, unread, lookup), lookup):
        for note, reason in repeated:
            diff.duplicates.append(VaultFileError(note.path, reason))
            del chosen[_memory(note).id]


def _held(
    chosen: Mapping[str, Note], known: Mapping[str, tuple[str, str]], unread: _Unread, lookup: Lookup
) -> dict[MemoryKey, str]:
    """Contents held by live memories whose note cannot be read now (the mirror's last good copy) -> that note."""
    held: dict[MemoryKey, str] = {}
    for memory_id, (path, digest) in known.items():
        if memory_id in chosen or not digest or unread.why(path) is None:
            continue
        memory = lookup(memory_id)
        if memory is not None and not memory.deleted:
            held.setdefault(memory.key, path)
    return held


def _repeated_memories(
    chosen: Mapping[str, Note], held: Mapping[MemoryKey, str], lookup: Lookup
) -> list[tuple[Note, str]]:
    """Live notes holding a memory that is live elsewhere already, with why they are ignored.

    A memory whose note is broken keeps its content (its note cannot be weighed, and
    ignoring it would forget it); among readable notes, the mirror's own is kept.
    """
    groups: dict[MemoryKey, list[Note]] = {}
    for note in chosen.values():
        if not _memory(note).deleted:
            groups.setdefault(_memory(note).key, []).append(note)
    repeated: list[tuple[Note, str]] = []
    for key, notes in groups.items():
        if key in held:
            why = f"holds the same memory as {Path(held[key]).name}, which cannot be read now: ignored until it is"
            repeated += [(note, why) for note in notes]
        elif len(notes) > 1:
            kept, *others = sorted(notes, key=lambda note: _preference(note, lookup))
            why = f"holds the same memory as {kept.path.name}: ignored"
            repeated += [(note, why) for note in others]
    return repeated


def _preference(note: Note, lookup: Lookup) -> tuple[bool, bool, str]:
    """How a note ranks among notes holding one memory: the mirror's own first, then the oldest."""
    memory = _memory(note)
    mirrored = lookup(memory.id)
    live = mirrored is not None and not mirrored.deleted
    same = mirrored is not None and live and mirrored.key == memory.key  # not a note edited into a repeat
    return (not same, not live, memory.id)  # ULIDs sort by creation: the oldest first


def _claimed(
    vault: Vault,
    claims: Mapping[str, list[Note]],
    known: Mapping[str, tuple[str, str]],
    unread: _Unread,
    diff: VaultDiff,
) -> dict[str, Note]:
    """The note that speaks for each id the readable notes claim (decision 94).

    While the note the mirror knows a memory by is broken, that note keeps the id: the notes
    that claim it besides are reported and ignored until it is fixed or removed (the memory
    is listed unreadable, from its last good copy), unless one of them is a tombstone (a
    forget in progress). Which note holds an id never turns on which of them broke last.
    """
    chosen: dict[str, Note] = {}
    for memory_id, notes in claims.items():
        path, digest = known.get(memory_id, ("", ""))
        if digest and unread.why(path) is not None and not any(_memory(n).deleted for n in notes):
            why = f"claims the id {memory_id} of {Path(path).name}, which cannot be read now: ignored until it is"
            diff.duplicates.extend(VaultFileError(note.path, why) for note in notes)
        else:
            chosen[memory_id] = _settle_claims(vault, notes, known, diff) if len(notes) > 1 else notes[0]
    return chosen


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
