"""Conversation summaries in the vault (seed 004, 2.1): Markdown files beside the conversation's notes.

    entries/<conversation>/summaries/L1/chunk_<i>.md      one per chunk of the conversation
    entries/<conversation>/summaries/L2/group_<i>.md      one per 5 chunks (hierarchical only)
    entries/<conversation>/summaries/L3/final.md          the summary of the whole conversation
    entries/<conversation>/deleted/summaries/L1|L2|L3/    the files a newer summary replaced

Each file has YAML front matter (a deterministic id, `role: summary`, the events it
covers, its compression) and the summary as its body. A newer summary moves the files it
replaces under `deleted/` with the time in their name, never over another file: the
history of a conversation's summaries is kept, as deleted memories are.

Crash safety: the old file is first hard-linked into `deleted/` (no data copied), then
the new one replaces it atomically, so a crash leaves every file old or new and whole.
Files of the old summary that the new one has no place for go last.

The vault layer knows nothing of how summaries are made (`memoir.timeline.adaptive`):
it takes any object with their fields (`SummaryLike`) and reads back `StoredSummary`s.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from memoir.errors import InvalidInput, MemoirError, StoreError
from memoir.model.checks import check_id
from memoir.model.event import format_timestamp, parse_timestamp
from memoir.vault.files import (
    VaultFileError,
    atomic_write,
    dump_front_matter,
    inside,
    read_note,
    safe_name,
    split_front_matter,
)

__all__ = ["PartLike", "StoredSummary", "SummaryFiles", "SummaryLike"]

log = logging.getLogger("memoir.vault")
_CREATED = re.compile(r"^created_at: '?([0-9T:.Z+-]+)'?$", re.MULTILINE)
LEVELS = ("L1", "L2", "L3")
_NAME = {"L1": "chunk_{}.md", "L2": "group_{}.md", "L3": "final.md"}
_FILE = {
    "L1": re.compile(r"chunk_(\d{1,6})\.md"),
    "L2": re.compile(r"group_(\d{1,6})\.md"),
    "L3": re.compile("final\\.md"),
}


class PartLike(Protocol):
    """One summary part, as `memoir.timeline.adaptive.SummaryPart` has it."""

    @property
    def level(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def event_ids(self) -> Sequence[str]: ...
    @property
    def source(self) -> str: ...
    @property
    def tokens_in(self) -> int: ...
    @property
    def tokens_out(self) -> int: ...


class SummaryLike(Protocol):
    """A conversation's summary, as `memoir.timeline.adaptive.ConversationSummary` has it."""

    @property
    def conversation_id(self) -> str: ...
    @property
    def agent_id(self) -> str | None: ...
    @property
    def level(self) -> str: ...
    @property
    def parts(self) -> Sequence[PartLike]: ...


@dataclass(frozen=True)
class StoredSummary:
    """A summary file as read back (a person may have edited its body: that text is what counts)."""

    path: Path
    id: str
    conversation_id: str
    agent_id: str | None
    level: str  # L1, L2 or L3, from where the file is
    index: int
    summary_kind: str
    created_at: datetime | None
    source: str
    event_ids: tuple[str, ...]
    tokens_in: int
    tokens_out: int
    text: str


class SummaryFiles:
    def __init__(self, vault_root: Path) -> None:
        self.root = vault_root.resolve()
        self.entries = self.root / "entries"
        # L3 texts by path, with the (mtime, size) they were read at: build_context asks at every
        # turn, and a file read costs more than the search; an edit by hand changes the stat.
        self._finals: dict[Path, tuple[tuple[int, int], str | None]] = {}

    def folder(self, conversation_id: str, *, deleted: bool = False, agent_id: str | None = None) -> Path:
        """Where a conversation's summaries are kept: built from a safe name, checked to stay in the vault.

        In unified mode each agent's summary of a conversation is its own (`summaries/@<agent>/`):
        one agent's summary never tells another what it was not told."""
        check_id("conversation_id", conversation_id, error=InvalidInput)
        check_id("agent_id", agent_id, optional=True, error=InvalidInput)
        base = self.entries / safe_name(conversation_id)
        folder = base / "deleted" / "summaries" if deleted else base / "summaries"
        return folder / f"@{safe_name(agent_id)}" if agent_id else folder

    def write(self, summary: SummaryLike, *, now: datetime) -> list[Path]:
        """Write a summary's files, moving the ones it replaces under deleted/; the paths written."""
        now = parse_timestamp(now, "now")
        folder = self.folder(summary.conversation_id, agent_id=summary.agent_id)
        old = self._existing(folder)
        written: list[Path] = []
        for part in sorted(summary.parts, key=lambda p: (p.level, p.index)):  # L3 last: it reads the others
            path = self._path_of(folder, part)
            if path in old:
                old.remove(path)
                if _unchanged(path, summary, part):  # a chunk summarized as before: no copy to keep, no churn
                    continue
                self._retire(path, now)
            atomic_write(path, render(summary, part, now))
            written.append(path)
        for path in sorted(old):  # the old summary had parts the new one has no place for
            self._retire(path, now, remove=True)
        return written

    def _path_of(self, folder: Path, part: PartLike) -> Path:
        if part.level not in _NAME or part.index < 0:
            raise InvalidInput("level", f"a summary part is L1, L2 or L3 with an index of 0 or more, not {part.level}")
        path = folder / part.level / _NAME[part.level].format(part.index)
        inside(self.root, path.parent)  # a folder linked to somewhere else is refused
        return path

    def read(self, conversation_id: str, *, agent_id: str | None = None) -> list[StoredSummary]:
        """The conversation's summary files, L1s, L2s then the L3; a file that cannot be read is skipped."""
        found = []
        for path in sorted(self._existing(self.folder(conversation_id, agent_id=agent_id)), key=_order):
            try:
                stored = load(path)
            except VaultFileError as exc:
                log.warning("summary file skipped: %s", exc)
                continue
            except FileNotFoundError:
                continue  # replaced or moved meanwhile
            if _scope_of(stored) == (conversation_id, agent_id):  # a file of another scope is not this one's
                found.append(stored)
        return found

    def final_text(self, conversation_id: str, *, agent_id: str | None = None) -> str | None:
        """The body of the conversation's L3 summary; None when there is none or it cannot be read."""
        path = self.folder(conversation_id, agent_id=agent_id) / "L3" / _NAME["L3"]
        try:
            inside(self.root, path.parent)
            seen = path.stat()
            cached = self._finals.get(path)
            if cached is not None and cached[0] == (seen.st_mtime_ns, seen.st_size):
                return cached[1]
            stored = load(path)
            # Another scope's file (two ids that once shared a folder, a file copied by hand) is not this one's.
            text = (stored.text or None) if _scope_of(stored) == (conversation_id, agent_id) else None
            self._finals[path] = ((seen.st_mtime_ns, seen.st_size), text)
            return text
        except (VaultFileError, OSError) as exc:
            log.debug("no final summary at %s: %s", path, exc)
        except MemoirError as exc:  # the folder leads out of the vault: not ours to read
            log.warning("summary not read: %s", exc)
        return None

    def _existing(self, folder: Path) -> set[Path]:
        """Summary files memoir named (a person's other files there are left alone)."""
        found: set[Path] = set()
        for level in LEVELS:
            try:
                inside(self.root, folder / level)
                names = os.listdir(folder / level)
            except (OSError, MemoirError):  # no such folder yet, or one leading out of the vault
                continue
            found.update(folder / level / name for name in names if _FILE[level].fullmatch(name))
        return found

    def _retire(self, path: Path, now: datetime, *, remove: bool = False) -> None:
        """Keep `path` under deleted/summaries/<level>/, under a name no other file has; `remove` it then."""
        # path is entries/<conversation>/summaries[/@<agent>]/<level>/<name>
        agent_part = path.parent.parent.name if path.parent.parent.name.startswith("@") else None
        base = path.parent.parent.parent.parent if agent_part else path.parent.parent.parent
        deleted = base / "deleted" / "summaries"
        target_folder = (deleted / agent_part if agent_part else deleted) / path.parent.name
        inside(self.root, target_folder)
        try:
            target_folder.mkdir(parents=True, exist_ok=True)
            stamp = now.strftime("%Y%m%dT%H%M%S") + f"{now.microsecond // 1000:03d}Z"
            _link_new(path, target_folder, f"{path.stem}__{stamp}")
            if remove:
                path.unlink()
        except FileNotFoundError:
            return  # gone meanwhile: nothing to keep
        except OSError as exc:
            raise StoreError(f"cannot move {path} to {target_folder}: {exc.strerror or exc}") from exc


def _scope_of(stored: StoredSummary) -> tuple[str, str | None]:
    return stored.conversation_id, stored.agent_id


def _link_new(path: Path, folder: Path, stem: str) -> Path:
    """A hard link to `path` in `folder` named `stem` (or `stem-N`): os.link never replaces a file.

    What a person put there that cannot be linked (a folder, a pipe) is moved instead, whole.
    """
    movable = not (path.is_symlink() or path.is_file())  # is_file follows no link here: checked first
    for attempt in range(1000):
        target = folder / (f"{stem}.md" if attempt == 0 else f"{stem}-{attempt}.md")
        try:
            if movable:
                if os.path.lexists(target):
                    continue
                os.rename(path, target)
                _sync(folder)
                return target
            os.link(path, target, follow_symlinks=False)
        except FileExistsError:
            continue
        except FileNotFoundError:
            raise
        except OSError:  # a file system without hard links: a copy, written atomically
            if target.exists():
                continue
            # Bytes a person broke are kept as text (undecodable bytes replaced): atomic_write writes text.
            atomic_write(target, path.read_bytes().decode("utf-8", errors="replace"))
        _sync(folder)
        return target
    raise StoreError(f"{folder} already holds 1000 files named {stem}: move some away")


def _sync(folder: Path) -> None:
    # The link must be on disk before the file it keeps is replaced.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _order(path: Path) -> tuple[str, int]:
    pattern = _FILE.get(path.parent.name)
    match = pattern.fullmatch(path.name) if pattern else None
    return path.parent.name, int(match.group(1)) if match and match.groups() else 0


def _unchanged(path: Path, summary: SummaryLike, part: PartLike) -> bool:
    """Does the file hold this very part (its time of writing aside)?"""
    try:
        data = read_note(path)
        text = data.decode("utf-8") if data is not None else ""
    except (VaultFileError, UnicodeDecodeError):
        return False
    # The time is read off its line, not by parsing the YAML: the render below must match the
    # file byte for byte anyway, and parsing a long list of event ids took most of a refresh.
    stamp = _CREATED.search(text.split("\n---", 1)[0])
    created = _time(stamp.group(1)) if stamp else None
    return created is not None and render(summary, part, created) == text


def render(summary: SummaryLike, part: PartLike, now: datetime) -> str:
    front: dict[str, Any] = {
        "id": f"summary:{summary.conversation_id}:{part.level}:{part.index}",
        "role": "summary",
        "conversation_id": summary.conversation_id,
    }
    if summary.agent_id is not None:
        front["agent_id"] = summary.agent_id
    front |= {
        "summary_kind": f"{summary.level}/{part.level}",
        "created_at": format_timestamp(now),
        "source": part.source,
        "event_ids": list(part.event_ids),
        "tokens_in": part.tokens_in,
        "tokens_out": part.tokens_out,
        "compression": round(part.tokens_out / part.tokens_in, 4) if part.tokens_in else 0.0,
    }
    return f"---\n{dump_front_matter(front)}---\n{part.text}\n"


def load(path: Path) -> StoredSummary:
    """One summary file; VaultFileError (with the path) when it is not one."""
    data = read_note(path)
    if data is None:
        raise FileNotFoundError(path)
    try:
        front, body = split_front_matter(path, data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise VaultFileError(path, f"not UTF-8 text (byte {exc.start})") from None
    return StoredSummary(
        path=path,
        id=_text(front.get("id")) or path.stem,
        conversation_id=_text(front.get("conversation_id")) or "",
        agent_id=_text(front.get("agent_id")),
        level=path.parent.name,
        index=_order(path)[1],
        summary_kind=_text(front.get("summary_kind")) or "",
        created_at=_time(front.get("created_at")),
        source=_text(front.get("source")) or "",
        event_ids=_ids(path, front.get("event_ids")),
        tokens_in=_count(front.get("tokens_in")),
        tokens_out=_count(front.get("tokens_out")),
        text=body.strip(),
    )


def _text(value: Any) -> str | None:
    """A one-word value as text (YAML reads `123` as a number); None for nothing or a list."""
    if value is None or isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    return str(value)


def _ids(path: Path, value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or any(isinstance(v, list | dict) for v in value):
        raise VaultFileError(path, "event_ids must be a list of event ids")
    return tuple(str(v) for v in value)


def _count(value: Any) -> int:
    # Metrics only: a hand-edited count is not worth refusing the summary for.
    return value if type(value) is int and value >= 0 else 0


def _time(value: Any) -> datetime | None:
    try:
        return None if value is None else parse_timestamp(value if isinstance(value, datetime) else str(value))
    except MemoirError:
        return None
