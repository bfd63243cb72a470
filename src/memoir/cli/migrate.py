"""`memoir migrate`: this home's database copied to PostgreSQL or to a new SQLite file, then checked."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from memoir.cli import render
from memoir.config import load_settings
from memoir.errors import StoreError
from memoir.facade.migration import TableCopy, migrate_home

__all__ = ["register"]


def register(app: typer.Typer, out: Console, err: Console) -> None:
    @app.command("migrate")
    def migrate_command(
        ctx: typer.Context,
        to: Annotated[
            str, typer.Option("--to", help="postgresql://USER@HOST:PORT/DB, or the path of a new SQLite file")
        ],
    ) -> None:
        """Copy this home's database (events, memories, index, timeline) to another backend and compare them.

        Stop the home's servers and workers first: what they write during the copy is not carried.
        Afterwards point `store.url` (or `db_path`) at the copy.
        """
        options: Any = ctx.obj
        settings = load_settings({"home": options.home}, config_file=options.config)
        with render.count_progress(err, "copying events") as advance:
            done = migrate_home(settings, to, advance)
        out.print(_table(done.tables, done.source, done.target))
        unequal = [copy.table for copy in done.tables if not copy.equal]
        if unequal:
            raise StoreError(f"the copy differs from the original in {', '.join(unequal)}: do not switch to it")
        out.print(f"migrated to {done.target}: every table's rows and checksum agree")


def _table(report: list[TableCopy], source: str, target: str) -> Table:
    table = Table(title=f"{render.escape(source)} -> {render.escape(target)}")
    for name in ("table", "rows here", "rows there", "checksum here", "checksum there", ""):
        table.add_column(name)
    for copy in report:
        mark = "ok" if copy.equal else "[red]DIFFERS[/red]"
        table.add_row(
            copy.table, f"{copy.rows_from:,}", f"{copy.rows_to:,}", copy.checksum_from[:16], copy.checksum_to[:16], mark
        )
    return table
