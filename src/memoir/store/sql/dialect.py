"""How the two engines spell the few things the shared statements need (decision 102).

Shared statements are written once, with `?` marks and the spelling SQLite and PostgreSQL
have in common (`INSERT … ON CONFLICT … DO UPDATE`, `excluded.`, table-qualified columns in
the update); what differs is named here and put in with `str.format`:

- `{greatest}`: the larger of two values (SQLite's two-argument `max`, PostgreSQL's `greatest`);
- `{least}`: the smaller (`min`, `least`);
- `{any_true}`: whether any row of a group is true (`max` over 0/1, `bool_or`);
- `{find}`: the position of a substring (`instr`, `strpos`);
- `{for_update}`: lock the rows read until the transaction ends (nothing on SQLite, whose
  write transaction already excludes every other writer; `FOR UPDATE` on PostgreSQL).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

__all__ = ["POSTGRES", "SQLITE", "Dialect"]


@dataclass(frozen=True, slots=True)
class Dialect:
    name: str
    mark: str  # the driver's placeholder
    greatest: str
    least: str
    any_true: str
    find: str
    for_update: str

    def spell(self, sql: str) -> str:
        """`sql` (written with `?` and the `{names}` above) as this engine takes it."""
        return _spelt(self, sql)


@functools.lru_cache(maxsize=1024)
def _spelt(dialect: Dialect, sql: str) -> str:
    words = {
        "greatest": dialect.greatest,
        "least": dialect.least,
        "any_true": dialect.any_true,
        "find": dialect.find,
        "for_update": dialect.for_update,
    }
    text = sql.format(**words) if "{" in sql else sql
    if dialect.mark == "?":
        return text
    # psycopg reads `%` as the start of a placeholder: a literal one is written twice.
    return text.replace("%", "%%").replace("?", dialect.mark)


SQLITE = Dialect("sqlite", "?", greatest="max", least="min", any_true="max", find="instr", for_update="")
POSTGRES = Dialect(
    "postgresql", "%s", greatest="greatest", least="least", any_true="bool_or", find="strpos", for_update=" FOR UPDATE"
)
