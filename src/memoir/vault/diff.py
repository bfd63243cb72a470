"""What differs between the vault's files and the store's mirror of them.

One comparison serves two callers: `MemoryBook.sync` repairs what it finds (the files
are the truth) and `memoir doctor` only reports it. Keeping it in one place means the
doctor can never call "in sync" what the next open would still change.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from memoir.model.memory import Memory
from memoir.vault.files import VaultFileError
from memoir.vault.vault import Vault

__all__ = ["VaultDiff", "diff_vault", "file_hash"]


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass
class VaultDiff:
    """Readable files by memory id, and how they differ from the mirror's snapshot."""

    files: dict[str, tuple[Path, Memory, str]] = field(default_factory=dict)  # id -> (path, memory, sha256)
    added: list[str] = field(default_factory=list)  # files the mirror has never seen
    changed: list[str] = field(default_factory=list)  # files whose path or content moved on
    gone: list[str] = field(default_factory=list)  # mirrored files no longer on disk
    broken: list[VaultFileError] = field(default_factory=list)  # unreadable files, left alone
    superseded: list[Path] = field(default_factory=list)  # live copies a tombstone already replaces

    @property
    def in_step(self) -> bool:
        return not (self.added or self.changed or self.gone or self.superseded)


def diff_vault(vault: Vault, known: Mapping[str, tuple[str, str]]) -> VaultDiff:
    """Compare the files with `known` (id -> (path, file hash), as the mirror last saw them)."""
    diff = VaultDiff()
    readable: dict[str, tuple[Path, Memory]] = {}
    for path, found in vault.scan():
        if isinstance(found, VaultFileError):
            diff.broken.append(found)
        elif found.id not in readable:
            readable[found.id] = (path, found)
        else:  # a crash mid-delete left both copies: the tombstone carries the later state
            live, tombstone = sorted([readable[found.id], (path, found)], key=lambda pair: pair[1].deleted)
            readable[found.id] = tombstone
            if not live[1].deleted:
                diff.superseded.append(live[0])
    for memory_id, (path, memory) in readable.items():
        digest = file_hash(path)
        diff.files[memory_id] = (path, memory, digest)
        if memory_id not in known:
            diff.added.append(memory_id)
        elif known[memory_id] != (str(path), digest):
            diff.changed.append(memory_id)
    # A mirror row with an empty hash is a memory whose file was already found deleted.
    diff.gone = [i for i, (_, digest) in known.items() if i not in readable and digest]
    return diff
