"""The search index's schema on SQLite: its tables, the FTS5 keyword index and the triggers that feed it.

The statements of the migration steps that build and change the index, as `postgres/search_schema.py`
holds PostgreSQL's; `schema.py` orders the steps and applies them, and `search.py` holds the queries.
Never edit a released statement: a change is a new step.
"""

from __future__ import annotations

__all__ = ["EMBEDDINGS_INLINE", "INDEX_REMOVALS", "ITEM_COUNT", "SEARCH"]

# The search index is derived (rebuilt by `memoir reindex`); embeddings are a cache keyed
# by model and content hash, kept across rebuilds so unchanged text is never re-embedded.
# Keyword search sees each item with its neighbouring turns (the turn before and after
# in its session) as extra, lower-weighted columns: see docs/decisions.md.
SEARCH = """
        CREATE TABLE index_items (
            item_id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            ref TEXT NOT NULL UNIQUE,
            conversation_id TEXT NOT NULL,
            agent_id TEXT,
            session_id TEXT,
            role TEXT,
            created_ms INTEGER NOT NULL,
            text TEXT NOT NULL,
            search_text TEXT NOT NULL,
            context_before TEXT NOT NULL DEFAULT '',
            context_after TEXT NOT NULL DEFAULT '',
            content_hash TEXT NOT NULL,
            event_ids TEXT NOT NULL,
            metadata TEXT NOT NULL
        ) STRICT;
        CREATE INDEX index_items_by_scope ON index_items (conversation_id, created_ms);
        CREATE INDEX index_items_by_session ON index_items (session_id, created_ms);
        CREATE VIRTUAL TABLE index_fts USING fts5 (
            search_text, context_before, context_after,
            content='index_items', content_rowid='item_id', tokenize='porter unicode61'
        );
        CREATE TRIGGER index_items_fts_insert AFTER INSERT ON index_items BEGIN
            INSERT INTO index_fts (rowid, search_text, context_before, context_after)
            VALUES (new.item_id, new.search_text, new.context_before, new.context_after);
        END;
        CREATE TRIGGER index_items_fts_delete AFTER DELETE ON index_items BEGIN
            INSERT INTO index_fts (index_fts, rowid, search_text, context_before, context_after)
            VALUES ('delete', old.item_id, old.search_text, old.context_before, old.context_after);
        END;
        CREATE TRIGGER index_items_fts_update AFTER UPDATE ON index_items BEGIN
            INSERT INTO index_fts (index_fts, rowid, search_text, context_before, context_after)
            VALUES ('delete', old.item_id, old.search_text, old.context_before, old.context_after);
            INSERT INTO index_fts (rowid, search_text, context_before, context_after)
            VALUES (new.item_id, new.search_text, new.context_before, new.context_after);
        END;
        CREATE TABLE embeddings (
            model TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            vector BLOB NOT NULL,
            PRIMARY KEY (model, content_hash)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE index_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
        INSERT INTO index_state VALUES ('generation', 1);
        """

# A vector is 1.5 KB: in a WITHOUT ROWID table every row spilled to overflow pages and
# saving one cost about 50 us; a rowid table keeps it inline (cache contents are kept).
EMBEDDINGS_INLINE = """
        CREATE TABLE embeddings_inline (
            model TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            vector BLOB NOT NULL
        ) STRICT;
        INSERT INTO embeddings_inline SELECT model, content_hash, vector FROM embeddings;
        DROP TABLE embeddings;
        ALTER TABLE embeddings_inline RENAME TO embeddings;
        CREATE UNIQUE INDEX embeddings_by_hash ON embeddings (model, content_hash);
        """

# Searchers holding vectors in memory follow removals and replacements incrementally
# (decision 58) instead of reloading every vector after each memory update. Two things
# make that sound: a log of removed item ids, and item ids that are never reused
# (AUTOINCREMENT), so "ids above the last one loaded" always means new items. SQLite
# cannot add AUTOINCREMENT in place, so the table is rebuilt with the same rows and ids
# (the keyword index keeps pointing at them).
_ITEM_COLUMNS = """
            kind TEXT NOT NULL,
            ref TEXT NOT NULL UNIQUE,
            conversation_id TEXT NOT NULL,
            agent_id TEXT,
            session_id TEXT,
            role TEXT,
            created_ms INTEGER NOT NULL,
            text TEXT NOT NULL,
            search_text TEXT NOT NULL,
            context_before TEXT NOT NULL DEFAULT '',
            context_after TEXT NOT NULL DEFAULT '',
            content_hash TEXT NOT NULL,
            event_ids TEXT NOT NULL,
            metadata TEXT NOT NULL"""
INDEX_REMOVALS = f"""
        CREATE TABLE index_items_rebuilt (item_id INTEGER PRIMARY KEY AUTOINCREMENT, {_ITEM_COLUMNS}) STRICT;
        INSERT INTO index_items_rebuilt SELECT * FROM index_items;
        DROP TABLE index_items;
        ALTER TABLE index_items_rebuilt RENAME TO index_items;
        CREATE INDEX index_items_by_scope ON index_items (conversation_id, created_ms);
        CREATE INDEX index_items_by_session ON index_items (session_id, created_ms);
        CREATE TRIGGER index_items_fts_insert AFTER INSERT ON index_items BEGIN
            INSERT INTO index_fts (rowid, search_text, context_before, context_after)
            VALUES (new.item_id, new.search_text, new.context_before, new.context_after);
        END;
        CREATE TRIGGER index_items_fts_delete AFTER DELETE ON index_items BEGIN
            INSERT INTO index_fts (index_fts, rowid, search_text, context_before, context_after)
            VALUES ('delete', old.item_id, old.search_text, old.context_before, old.context_after);
        END;
        CREATE TRIGGER index_items_fts_update AFTER UPDATE ON index_items BEGIN
            INSERT INTO index_fts (index_fts, rowid, search_text, context_before, context_after)
            VALUES ('delete', old.item_id, old.search_text, old.context_before, old.context_after);
            INSERT INTO index_fts (rowid, search_text, context_before, context_after)
            VALUES (new.item_id, new.search_text, new.context_before, new.context_after);
        END;
        CREATE TABLE index_removals (seq INTEGER PRIMARY KEY AUTOINCREMENT, item_id INTEGER NOT NULL) STRICT;
        CREATE TRIGGER index_items_removed AFTER DELETE ON index_items BEGIN
            INSERT INTO index_removals (item_id) VALUES (old.item_id);
        END;
        UPDATE index_state SET value = value + 1 WHERE key = 'generation';
        """

# How many items the index holds, kept in step by triggers as PostgreSQL keeps it: a keyword
# search asks for it to tell which words weigh nothing (`memoir.retrieval.terms`), and
# `count(*)` reads every page of the table (2 ms at LoCoMo's 2,760 turns, most of a search's
# keyword step; it grows with the home).
ITEM_COUNT = """
        INSERT INTO index_state VALUES ('items', (SELECT count(*) FROM index_items));
        CREATE TRIGGER index_items_counted_in AFTER INSERT ON index_items BEGIN
            UPDATE index_state SET value = value + 1 WHERE key = 'items';
        END;
        CREATE TRIGGER index_items_counted_out AFTER DELETE ON index_items BEGIN
            UPDATE index_state SET value = value - 1 WHERE key = 'items';
        END;
        """
