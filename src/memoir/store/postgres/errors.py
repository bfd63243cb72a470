"""psycopg errors as StoreErrors that say what to do, told apart by class (SQLSTATE), not by text.

The location named in messages is the URL without its password (`masked`): messages reach
logs and terminals, and a password must reach neither.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import psycopg
import psycopg.errors as pg
from psycopg_pool import PoolTimeout

from memoir.errors import ConfigError, MemoirError, StoreError

__all__ = ["FULL", "masked", "translate"]

FULL = (
    "the disk holding the PostgreSQL database {where} is full: free disk space, then retry"
    " (the write that failed was not applied; nothing stored before is lost)"
)


def masked(url: str) -> str:
    """The URL with its password (if any) replaced by `***`."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<an unreadable PostgreSQL URL>"
    if parts.password is None:
        return url
    netloc = parts.netloc.rpartition("@")
    user = (parts.username or "") + ":***"
    return urlunsplit(parts._replace(netloc=f"{user}@{netloc[2]}"))


def translate(exc: Exception, where: str) -> MemoirError:
    """The StoreError for a driver or pool error met while talking to the database at `where`."""
    if isinstance(exc, PoolTimeout):
        return StoreError(
            f"no connection to PostgreSQL at {where} came free in time: raise store.pool_size, or check the server"
        )
    if isinstance(exc, pg.DiskFull):
        return StoreError(FULL.format(where=where))
    if isinstance(exc, pg.RestrictViolation):
        return StoreError(f"events are immutable: the event log at {where} is append-only ({_first_line(exc)})")
    if isinstance(exc, pg.InsufficientPrivilege):
        return StoreError(f"the PostgreSQL user lacks a privilege at {where}: {_first_line(exc)}")
    if isinstance(exc, pg.UndefinedFile | pg.FeatureNotSupported) and "vector" in str(exc):
        return StoreError(
            f"PostgreSQL at {where} has no pgvector: install the extension (https://github.com/pgvector/pgvector),"
            " or have an administrator run CREATE EXTENSION vector in the database"
        )
    # By SQLSTATE class: psycopg's classes do not nest (DeadlockDetected is no TransactionRollback).
    state = getattr(exc, "sqlstate", None) or ""
    if state.startswith("40"):  # a deadlock or a serialization failure: the server is fine
        return StoreError(
            f"PostgreSQL at {where} rolled this transaction back for a concurrent one ({_first_line(exc)}):"
            " nothing of it was kept; try again"
        )
    if state.startswith("54"):  # a statement too complex or too large: an OperationalError, but the server is there
        return StoreError(f"PostgreSQL at {where} refused a statement as past its limits: {_first_line(exc)}")
    if isinstance(exc, psycopg.OperationalError):
        return StoreError(
            f"cannot reach PostgreSQL at {where}: {_first_line(exc)};"
            " check store.url (MEMOIR_STORE_URL) and that the server is running"
        )
    if isinstance(exc, psycopg.ProgrammingError) and "invalid dsn" in str(exc).lower():
        return ConfigError(f"store.url is not a PostgreSQL URL ({_first_line(exc)}): use postgresql://USER@HOST/DB")
    return StoreError(f"database error on {where}: {_first_line(exc)}")


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
