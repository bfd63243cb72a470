"""sqlite3 errors as StoreErrors that say what to do, told apart by SQLite's result code.

By code, not by message text, which differs between SQLite versions; a full disk is told
first, whichever code SQLite said it with.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from memoir.errors import HomeError, StoreError

__all__ = ["FULL", "UPGRADE_FULL", "close_quietly", "no_room", "translate"]

# Primary result code -> the error to raise and its message ({path}, {text}: the driver's own).
_LOCKED = (StoreError, "the database {path} stayed locked by another process: retry, or raise store.busy_timeout")
_DAMAGED = (StoreError, "{path} is damaged or not a memoir database ({text}); restore it from a backup")
FULL = (
    "the disk holding {path} is full: free disk space, then retry"
    " (the write that failed was not applied; nothing stored before is lost)"
)
UPGRADE_FULL = "the disk holding {path} is full, and the database must first be upgraded ({step}): free disk space"
# SQLite reports ENOSPC as SQLITE_FULL while writing, but as an I/O error when it sizes the
# -shm file (the WAL index), and as CANTOPEN when no inode is left for the -wal or -shm file:
# those two mean a full disk when the disk is full.
_FULL_IF_THE_DISK_IS = {sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN}
_MIN_ROOM = 64 * 1024  # less than this, and SQLite cannot make its -wal and -shm files
_BY_CODE: dict[int, tuple[type[StoreError], str]] = {
    sqlite3.SQLITE_READONLY: (
        HomeError,
        "the database {path} is read-only: make it (and its folder) writable by this user",
    ),
    sqlite3.SQLITE_BUSY: _LOCKED,
    sqlite3.SQLITE_LOCKED: _LOCKED,
    sqlite3.SQLITE_FULL: (StoreError, FULL),
    sqlite3.SQLITE_CANTOPEN: (
        HomeError,
        "cannot open the database {path}: check that its folder exists and is writable",
    ),
    sqlite3.SQLITE_CORRUPT: _DAMAGED,
    sqlite3.SQLITE_NOTADB: _DAMAGED,
    sqlite3.SQLITE_IOERR: (
        StoreError,
        "I/O error on {path} ({text}): check the disk (space, permissions, health), then retry",
    ),
}


def translate(exc: sqlite3.Error, path: Path) -> StoreError:
    """sqlite3 errors become StoreErrors whose message says what to do.

    Chosen by the primary result code (the low byte of the extended code SQLite
    reports); errors without one, such as a misused cursor, get the generic message.
    A full disk is told first, whichever code SQLite said it with.
    """
    if no_room(exc, path):
        return StoreError(FULL.format(path=path))
    code: int | None = getattr(exc, "sqlite_errorcode", None)
    found = _BY_CODE.get(code & 0xFF) if code is not None else None
    if found is None:
        name = getattr(exc, "sqlite_errorname", None)
        return StoreError(f"database error on {path}: {exc}" + (f" ({name})" if name else ""))
    error, message = found
    return error(message.format(path=path, text=exc))


def no_room(exc: sqlite3.Error, path: Path) -> bool:
    """Whether SQLite failed for lack of disk space (bytes or inodes) for the database at `path`."""
    code: int | None = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return False
    return code & 0xFF == sqlite3.SQLITE_FULL or (code & 0xFF in _FULL_IF_THE_DISK_IS and _disk_full(path))


def _disk_full(path: Path) -> bool:
    try:
        stats = os.statvfs(path.parent)
    except OSError:
        return False
    no_inode = stats.f_files > 0 and stats.f_favail == 0  # f_files 0: a filesystem without a count
    return no_inode or stats.f_bavail * stats.f_frsize < _MIN_ROOM


def close_quietly(conn: sqlite3.Connection) -> None:
    # Closing rolls back whatever the connection left open; its own failure adds nothing.
    with contextlib.suppress(sqlite3.Error):
        conn.close()
