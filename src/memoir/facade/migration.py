"""`memoir migrate`: a home's database copied to another backend, then both sides compared.

The copy itself is the store's (`memoir.store.transfer`); this module opens both ends from
a home's settings and the `--to` target, and closes them whatever happens.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from memoir.config import Settings
from memoir.facade.assembly import open_store
from memoir.store.transfer import TableCopy, migrate, open_target

__all__ = ["Migration", "TableCopy", "migrate_home"]


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
