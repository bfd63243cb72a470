"""`memoir migrate`: a home's database copied to another backend, then both sides compared.

The copy itself is the store's (`memoir.store.sql.transfer`), the same whichever backends are
at either end; this module opens both ends from a home's settings and the `--to` target, and
closes them whatever happens. It sits above both backends, which never import each other.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memoir.config import Settings
from memoir.errors import ConfigError
from memoir.facade.assembly import open_store
from memoir.store.sql.transfer import TableCopy, copy_tables, require_empty

__all__ = ["Migration", "TableCopy", "migrate", "migrate_home", "open_target"]


@dataclass(frozen=True)
class Migration:
    source: str  # where the home's database is (a PostgreSQL URL without its password)
    target: str
    tables: list[TableCopy]

    @property
    def equal(self) -> bool:
        return all(copy.equal for copy in self.tables)


def migrate_home(settings: Settings, to: str, progress: Callable[[int, int], None] | None = None) -> Migration:
    """Copy the home's database into the empty one `to` names (a PostgreSQL URL or a new SQLite file)."""
    source = open_store(settings)
    try:
        target = open_target(to)
        try:
            total = source.count_events()
            copied = 0

            def count(table: str, rows: int) -> None:
                nonlocal copied
                if table == "events" and progress is not None:  # the bulk of a home, its count known
                    copied += rows
                    progress(copied, total)

            tables = migrate(source, target, count)
            return Migration(source.location, target.location, tables)
        finally:
            with contextlib.suppress(Exception):
                target.close()
    finally:
        source.close()


def open_target(target: str) -> Any:
    """The store `memoir migrate --to` names: a PostgreSQL URL, or the path of a new SQLite file."""
    if target.partition("://")[0].lower() in ("postgresql", "postgres"):
        try:
            from memoir.store.postgres import PostgresStore
        except ImportError as exc:
            raise ConfigError(
                f"PostgreSQL's driver is not installed ({exc.name}): pip install 'memoir[postgres]'"
            ) from None
        return PostgresStore(target)
    from memoir.store.sqlite import SQLiteStore

    if not target.strip():
        raise ConfigError(
            "--to: name a PostgreSQL URL (postgresql://USER@HOST:PORT/DB) or the path of a new SQLite file"
        )
    path = Path(target).expanduser()
    if path.is_dir():
        raise ConfigError(f"--to: {path} is a folder: name a new file in it, such as {path / 'memoir.db'}")
    if path.is_file() and path.stat().st_size and not _is_sqlite(path):
        # Somebody's file, not a database: left as it is (memoir writes only what it made).
        raise ConfigError(f"--to: {path} exists and is not a SQLite database: name a new file")
    return SQLiteStore(path)


def _is_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(16) == b"SQLite format 3\x00"
    except OSError:
        return True  # let the store say what is wrong with it


def migrate(source: Any, target: Any, progress: Callable[[str, int], None] | None = None) -> list[TableCopy]:
    """Copy `source`'s whole database into the empty `target`; the report compares both sides."""
    if source.backend == target.backend and source.location == target.location:
        raise ConfigError(f"{target.location} is this home's own database: migrate to another one")
    require_empty(target)
    return copy_tables(source, target, progress)
