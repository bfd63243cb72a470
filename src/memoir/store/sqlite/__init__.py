"""The embedded store: one SQLite file in WAL mode, for a laptop and a single host.

`store.py` holds connections, transactions and the event log's appends; `outbox.py` the
runner leases; `search.py` the FTS5 keyword index and the vectors kept in rows; `schema.py`
the migrations; `errors.py` SQLite's errors said as memoir's; `transfer.py` its side of
`memoir migrate`. The tables both backends spell alike are `memoir.store.sql`'s.
"""

from memoir.store.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
