"""Files of the vault: safe names, atomic writes, Markdown with YAML front matter.

- Names come from ids, never from free text as given: a `conversation_id` such as
  `../../etc` becomes a harmless folder name, and every path is checked to resolve
  inside the vault before anything is written.
- Writes are atomic: a temporary file in the same folder, fsync, rename, fsync of the
  folder. A crash leaves the old file or the new one, never half of one.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from memoir.errors import StoreError, UserError
from memoir.model.event import format_timestamp, parse_timestamp
from memoir.model.memory import Memory

__all__ = ["VaultFileError", "atomic_write", "inside", "parse_memory", "render_memory", "safe_name"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class VaultFileError(StoreError):
    """A vault file could not be read as a memory (its path says which)."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        super().__init__(f"{path}: {reason}")


def safe_name(value: str, limit: int = 64) -> str:
    """A folder name for an id: readable when the id is tame, always unique and harmless."""
    cleaned = _UNSAFE.sub("-", value).strip(".-")[:limit]
    if cleaned == value and cleaned not in ("", ".", ".."):
        return cleaned
    digest = hashlib.sha256(value.encode("utf-8")).hexdigest()[:10]
    return f"{cleaned or 'x'}-{digest}"


def inside(root: Path, path: Path) -> Path:
    """`path`, refusing anything that would land outside `root`."""
    resolved = path.resolve()
    if not resolved.is_relative_to(root.resolve()):
        raise UserError(f"refused to write outside the vault: {path}")
    return resolved


def atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".md")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc.strerror}; check that the vault is writable") from exc


def render_memory(memory: Memory) -> str:
    """Markdown with YAML front matter (seed 004, 2.2), readable in Obsidian."""
    front: dict[str, Any] = {
        "id": memory.id,
        "role": "memory",
        "kind": memory.kind.value,
        "conversation_id": memory.conversation_id,
        "created_at": format_timestamp(memory.created_at),
        "tags": list(memory.tags),
        "source": memory.source,
        "event_ids": list(memory.event_ids),
    }
    if memory.severity is not None:
        front["severity"] = memory.severity.value
    if memory.deleted_at is not None:
        front["deleted_at"] = format_timestamp(memory.deleted_at)
    if memory.replaced_by is not None:
        front["replaced_by"] = memory.replaced_by
    header = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, default_flow_style=None)
    return f"---\n{header}---\n{memory.content}\n"


def parse_memory(path: Path, text: str) -> Memory:
    """A memory from a vault file; VaultFileError (with the path) when it is not one."""
    if not text.startswith("---"):
        raise VaultFileError(path, "no front matter (the file must start with a --- line)")
    parts = text.split("\n---", 1)
    if len(parts) != 2:
        raise VaultFileError(path, "the front matter is not closed by a --- line")
    try:
        front = yaml.safe_load(parts[0][3:])
    except yaml.YAMLError as exc:
        raise VaultFileError(path, f"broken front matter: {exc}".splitlines()[0]) from None
    if not isinstance(front, dict):
        raise VaultFileError(path, "the front matter is not a YAML mapping")
    body = parts[1].split("\n", 1)[1] if "\n" in parts[1] else ""
    try:
        return Memory(
            id=str(front["id"]),
            kind=front.get("kind", "fact"),
            content=body.strip(),
            conversation_id=str(front.get("conversation_id", "default")),
            created_at=_time(front.get("created_at")) or datetime.now(UTC),
            tags=tuple(str(t) for t in front.get("tags") or ()),
            severity=front.get("severity"),
            event_ids=tuple(str(e) for e in front.get("event_ids") or ()),
            source=str(front.get("source", "user")),
            replaced_by=front.get("replaced_by"),
            deleted_at=_time(front.get("deleted_at")),
        )
    except KeyError as exc:
        raise VaultFileError(path, f"the front matter has no {exc.args[0]!r}") from None
    except UserError as exc:
        raise VaultFileError(path, str(exc)) from None


def _time(value: Any) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, datetime):  # YAML reads unquoted timestamps as datetimes
        return parse_timestamp(value)
    return parse_timestamp(str(value))
