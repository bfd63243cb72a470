"""The SQL both backends share, written once: tables whose statements differ only in spelling.

A statement here is written with `?` marks and SQLite's names; each backend's `Dialect`
(`dialect.py`) says how its engine spells the few things that differ, and the backend
(`memoir.store.sqlite`, `memoir.store.postgres`) supplies connections and transactions
(`parts.py`). What truly differs stays in the backends: full-text search, vectors, how
runners share the outbox, how a schema is migrated.
"""
