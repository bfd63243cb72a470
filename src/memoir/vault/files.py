"""Files of the vault: safe names, atomic writes, Markdown with YAML front matter.

- Names come from ids, never from free text as given: a `conversation_id` such as
  `../../etc` becomes a harmless folder name, and every path is checked to resolve
  inside the vault before anything is written.
- Writes are atomic: a temporary file in the same folder, fsync, rename, fsync of the
  folder. A crash leaves the old file or the new one, never half of one.
- Reads are bounded, since people edit these files: a note is read without following a
  symbolic link, at most `MAX_NOTE_BYTES` of it, its front matter parsed without alias
  expansion (a few hundred bytes of YAML aliases expand to gigabytes), and an error
  message quotes at most 120 characters of what it found (`VaultFileError`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import stat
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from memoir.errors import StoreError, UserError, VaultFileError
from memoir.model.event import format_timestamp, parse_timestamp
from memoir.model.frontmatter import load_front_matter
from memoir.model.memory import Memory

__all__ = [
    "VaultFileError",
    "atomic_write",
    "dump_front_matter",
    "inside",
    "parse_memory",
    "read_note",
    "render_memory",
    "safe_name",
]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_DIGESTED = re.compile(r"-[0-9a-f]{10}$")
MAX_NOTE_BYTES = 1 << 20  # a memory is at most 20,000 characters: a note this big is not one


# libyaml's emitter when PyYAML has it (its wheels do): 5 to 9 times faster, and every note a
# worker writes dumps one front matter. Files are still read with the pure-Python loader, which
# refuses aliases and stops at Python's recursion limit on hostile nesting (decision 70).
_DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def dump_front_matter(front: dict[str, Any]) -> str:
    """YAML for a note's front matter: keys in the order given, text as it is (no \\u escapes)."""
    return str(yaml.dump(front, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, default_flow_style=None))


def read_note(path: Path) -> bytes | None:
    """A note's bytes, read without following a symbolic link; None if it vanished meanwhile.

    Raises VaultFileError for a link, a file too big to be a note, or one that cannot be read.
    """
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)  # a FIFO must not block
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None  # moved or deleted by another process between listing and reading
    except OSError as exc:
        if path.is_symlink():
            raise VaultFileError(path, "a symbolic link: memoir reads only the vault's own files") from None
        raise VaultFileError(path, f"unreadable: {exc.strerror}") from None
    status = os.fstat(fd)
    if not stat.S_ISREG(status.st_mode):  # before fdopen, which refuses a folder with a raw error
        os.close(fd)
        raise VaultFileError(path, "not a regular file (a folder, a pipe, a device): left alone")
    with os.fdopen(fd, "rb") as handle:
        if status.st_size > MAX_NOTE_BYTES:
            raise VaultFileError(path, f"larger than {MAX_NOTE_BYTES // 1024} KiB: not a memory note")
        try:
            return handle.read(MAX_NOTE_BYTES + 1)
        except OSError as exc:
            raise VaultFileError(path, f"unreadable: {exc.strerror}") from None


def safe_name(value: str, limit: int = 64) -> str:
    """A folder name for an id: readable when the id is tame, always unique and harmless."""
    cleaned = _UNSAFE.sub("-", value).strip(".-")[:limit]
    # A tame id is its own name, unless it looks like another id's digested name ("a-1f2e3d4c5b"):
    # then it is digested too, so no two ids ever share a folder.
    if cleaned == value and cleaned not in ("", ".", "..") and not _DIGESTED.search(value):
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
    """Replace `path` by `text` atomically; a StoreError that says what to do when it cannot.

    A failed write leaves the old file as it was and no temporary file behind: on a full
    disk a retry must not find even less space.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".md")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            _remove_quietly(tmp)
            raise
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    except OSError as exc:
        raise _write_error(path, exc) from exc


_NO_SPACE = (errno.ENOSPC, errno.EDQUOT)


def _write_error(path: Path, exc: OSError) -> StoreError:
    if exc.errno in _NO_SPACE:
        return StoreError(f"no space left on the disk to write {path}: free disk space, then retry")
    return StoreError(f"cannot write {path}: {exc.strerror or exc}; check that the vault is writable")


def _remove_quietly(path: str) -> None:
    # Cleanup after a failure: the error being raised is the one to report, not this one.
    with contextlib.suppress(OSError):
        os.unlink(path)


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
    if memory.agent_id is not None:
        front["agent_id"] = memory.agent_id
    if memory.reconciled_by is not None:
        front["reconciled_by"] = memory.reconciled_by
    for key, value in memory.extra:  # a person's own keys, kept as they were
        front.setdefault(key, value)
    return f"---\n{dump_front_matter(front)}---\n{memory.content}\n"


def split_front_matter(path: Path, text: str) -> tuple[dict[Any, Any], str]:
    """A Markdown file's front matter (bounded, alias-free YAML mapping) and body; VaultFileError if none."""
    if not text.startswith("---"):
        raise VaultFileError(path, "no front matter (the file must start with a --- line)")
    parts = text.split("\n---", 1)
    if len(parts) != 2:
        raise VaultFileError(path, "the front matter is not closed by a --- line")
    try:
        front = load_front_matter(parts[0][3:])
    except ValueError as exc:
        raise VaultFileError(path, str(exc)) from None
    if not isinstance(front, dict):
        raise VaultFileError(path, "the front matter is not a YAML mapping")
    return front, parts[1].split("\n", 1)[1] if "\n" in parts[1] else ""


def parse_memory(path: Path, text: str) -> Memory:
    """A memory from a vault file; VaultFileError (with the path) when it is not one.

    `text` is the file decoded as it is (no newline translation): a CRLF in a memory is kept.
    """
    front, body = split_front_matter(path, text)
    try:
        return Memory(
            id=_scalar(front, "id"),
            kind=front.get("kind", "fact"),
            content=body.strip(),
            conversation_id=_scalar(front, "conversation_id", "default"),
            created_at=_time(front.get("created_at")) or datetime.now(UTC),
            tags=tuple(str(t) for t in _list(front, "tags")),
            severity=front.get("severity"),
            event_ids=tuple(str(e) for e in _list(front, "event_ids")),
            source=_scalar(front, "source", "user"),
            replaced_by=_optional_text(front, "replaced_by"),
            deleted_at=_time(front.get("deleted_at")),
            agent_id=_optional_text(front, "agent_id"),
            reconciled_by=_optional_text(front, "reconciled_by"),
            extra=tuple((str(k), v) for k, v in front.items() if k not in _KNOWN_KEYS),
        )
    except KeyError as exc:
        raise VaultFileError(path, f"the front matter has no {exc.args[0]!r}") from None
    except VaultFileError as exc:  # raised by the value helpers, which do not know the path
        raise VaultFileError(path, exc.reason) from None
    except (UserError, TypeError, ValueError, OverflowError) as exc:
        raise VaultFileError(path, str(exc)) from None


_KNOWN_KEYS = frozenset(
    {"id", "role", "kind", "conversation_id", "created_at", "tags", "source", "event_ids", "severity"}
    | {"deleted_at", "replaced_by", "agent_id", "reconciled_by"}
)


def _scalar(front: dict[Any, Any], key: str, default: str | None = None) -> str:
    """A one-word value of the front matter as text (YAML may read `123` as a number); never a list."""
    value = front[key] if default is None else front.get(key, default)
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise VaultFileError(Path(key), f"{key} must be a single value, not {type(value).__name__}")
    return str(value)


def _optional_text(front: dict[Any, Any], key: str) -> str | None:
    return None if front.get(key) is None else _scalar(front, key)


def _list(front: dict[Any, Any], key: str) -> list[Any]:
    value = front.get(key) or []
    if not isinstance(value, list) or any(isinstance(v, list | dict) for v in value):
        raise VaultFileError(Path(key), f"{key} must be a list of single values")
    return value


def _time(value: Any) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, datetime):  # YAML reads unquoted timestamps as datetimes
        return parse_timestamp(value)
    return parse_timestamp(str(value))
