"""Daily notes in the vault, as Obsidian keeps them: `daily/YYYY-MM-DD.md`, one entry a line.

    ---
    type: daily
    date: 2025-12-10
    ---

    # 2025-12-10

    - 14:30 **Meeting** Discussed the Ollama integration

The note is a person's file as much as memoir's: an entry is appended to what the file
holds at that moment (read, then rewritten whole and atomically, under a lock so two
writers lose nothing), never to a copy memoir kept, so edits made in Obsidian stay. The
front matter is written once, when memoir creates the note, and never touched again.
Days are local dates, as Obsidian names them. An activity of several lines stays one list
item (its later lines indented).
"""

from __future__ import annotations

import fcntl
import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from memoir.errors import InvalidInput, StoreError, UserError
from memoir.model.checks import brief, surrogate_at
from memoir.vault.files import VaultFileError, atomic_write, inside, read_note

__all__ = ["DailyNote", "DailyNotes", "parse_day"]

FOLDER = "daily"
MAX_ACTIVITY = 20_000  # characters: an entry of a log, not a document
MAX_TITLE = 200
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class DailyNote:
    day: date
    path: Path
    text: str | None  # None: no note for that day


def parse_day(value: object, field: str = "date") -> date:
    """A `YYYY-MM-DD` day; InvalidInput naming `field` for anything else."""
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    if not isinstance(value, str) or not _DAY.fullmatch(value.strip()):
        raise InvalidInput(field, f"expected a day as YYYY-MM-DD, got {brief(value)}")
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise InvalidInput(field, f"{value.strip()} is not a day of the calendar") from None


def _check_text(field: str, value: object, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(field, f"must be non-empty text, got {brief(value)}")
    if len(value) > limit:
        raise InvalidInput(field, f"longer than {limit} characters")
    if surrogate_at(value) is not None:
        raise InvalidInput(field, "holds half of a UTF-16 surrogate pair: send whole characters")
    return value.strip()


def entry_line(activity: str, title: str | None, moment: datetime) -> str:
    """`- HH:MM **title** activity`, later lines of the activity indented to stay in the item."""
    lines = activity.splitlines() or [activity]
    head = f"**{' '.join(title.split())}** " if title else ""
    rest = "".join(f"\n  {line}" if line.strip() else "\n" for line in lines[1:])
    return f"- {moment:%H:%M} {head}{lines[0]}{rest}"


class DailyNotes:
    """The `daily/` folder of a vault."""

    def __init__(self, vault_root: Path) -> None:
        self.root = vault_root
        self.folder = vault_root / FOLDER

    def path_of(self, day: date) -> Path:
        return self.folder / f"{day.isoformat()}.md"

    def read(self, day: date | str | None = None, *, now: datetime | None = None) -> DailyNote:
        """The note of `day` (today by default) as it is now."""
        when = parse_day(day) if day is not None else (now or datetime.now()).date()
        path = self.path_of(when)
        try:  # as append does: a daily folder linked elsewhere is not the vault's, so not the model's to read
            inside(self.root, self.folder)
        except UserError:
            raise UserError(f"refused to read outside the vault: {self.folder} leads elsewhere") from None
        return DailyNote(when, path, self._text(path))

    def append(self, activity: str, title: str | None = None, *, now: datetime | None = None) -> DailyNote:
        """Add an entry to today's note (made when missing); returns the note as written."""
        activity = _check_text("activity", activity, MAX_ACTIVITY)
        if isinstance(title, str) and not title.strip():
            title = None  # an empty title is no title
        # Checked whatever its type: `title.strip()` on a number was a raw AttributeError.
        title = _check_text("title", title, MAX_TITLE) if title is not None else None
        moment = (now or datetime.now().astimezone()).replace(microsecond=0)
        path = self.path_of(moment.date())
        inside(self.root, self.folder)  # a daily folder linked to somewhere else is refused
        with self._locked():
            text = self._text(path)
            mode = _mode(path) if text is not None else None
            if text is None:
                text = _new_note(moment.date())
            elif text and not text.endswith("\n"):
                text += "\n"  # a person's last line, ended, so the entry starts a line of its own
            text += entry_line(activity, title, moment) + "\n"
            atomic_write(path, text)
            if mode is not None:
                _restore_mode(path, mode)
        return DailyNote(moment.date(), path, text)

    @staticmethod
    def _text(path: Path) -> str | None:
        data = read_note(path)
        if data is None:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise VaultFileError(path, f"not UTF-8 text (byte {exc.start}): fix or move the note") from None

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """An exclusive lock across processes, so two appends at once both land."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.folder / ".lock", os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        except OSError as exc:
            raise StoreError(f"cannot lock {self.folder}: {exc.strerror or exc}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)


def _mode(path: Path) -> int | None:
    try:
        return stat.S_IMODE(os.stat(path, follow_symlinks=False).st_mode)
    except OSError:
        return None


def _restore_mode(path: Path, mode: int) -> None:
    """The person's permissions back on their note: atomic_write's new file is made 0600 (mkstemp),
    which would otherwise take a shared or synced note away from every other reader."""
    with suppress(OSError):  # the entry is written; only the permissions could not follow
        os.chmod(path, mode)  # the regular file atomic_write just put there


def _new_note(day: date) -> str:
    # Written by hand: two fixed values need no YAML escaping, and Obsidian reads the date as one.
    return f"---\ntype: daily\ndate: {day.isoformat()}\n---\n\n# {day.isoformat()}\n\n"
