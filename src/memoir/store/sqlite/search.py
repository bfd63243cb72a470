"""The search index tables of the SQLite store: items, FTS5 keyword index, embedding cache.

Kept apart from `store.py` (the event log) because it is derived data: `index_clear`
may drop all of it and `memoir reindex` rebuilds it from the log. FTS5 uses the porter
stemmer over unicode61 tokens and ranks with BM25; its content lives in `index_items`
(external content table kept in step by triggers).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from memoir.store.records import IndexItem, IndexScope
from memoir.store.sql.search import (
    BM25_WEIGHTS,
    ITEM_COLUMNS,
    REMOVALS_KEPT,
    IndexReads,
    items_to_write,
    row_to_item,
)
from memoir.store.sqlite.parts import SQLiteParts

__all__ = ["SQLiteSearchTables"]


def scope_sql(scope: IndexScope, alias: str = "") -> tuple[str, list[Any]]:
    """WHERE clauses (joined with AND, may be empty) restricting items to a scope."""
    prefix = f"{alias}." if alias else ""
    clauses: list[str] = []
    params: list[Any] = []
    if scope.conversation_ids is not None:
        clauses.append(f"{prefix}conversation_id IN ({','.join('?' * len(scope.conversation_ids))})")
        params.extend(scope.conversation_ids)
    if scope.agent_id is not None:
        clauses.append(f"({prefix}agent_id = ? OR {prefix}agent_id IS NULL)")
        params.append(scope.agent_id)
    if scope.kinds is not None:
        clauses.append(f"{prefix}kind IN ({','.join('?' * len(scope.kinds))})")
        params.extend(scope.kinds)
    if scope.since_ms is not None:
        clauses.append(f"{prefix}created_ms >= ?")
        params.append(scope.since_ms)
    if scope.until_ms is not None:
        clauses.append(f"{prefix}created_ms < ?")
        params.append(scope.until_ms)
    return " AND ".join(clauses), params


# Hits per statement: two SELECTs of 8 parameters each, so 60 hits hold 960 `?`, inside the 999
# of SQLite before 3.32 (still some systems' own), and 120 SELECTs, inside 500 of a compound SELECT.
_HITS_PER_READ = 60
_SAME_SESSION = "FROM index_items WHERE conversation_id = ? AND session_id = ? AND kind = ? AND agent_id IS ?"
_EARLIER = (
    f"SELECT * FROM (SELECT ?, {ITEM_COLUMNS} {_SAME_SESSION} AND (created_ms, item_id) < (?, ?)"
    " ORDER BY created_ms DESC, item_id DESC LIMIT ?)"
)
_LATER = (
    f"SELECT * FROM (SELECT ?, {ITEM_COLUMNS} {_SAME_SESSION} AND (created_ms, item_id) > (?, ?)"
    " ORDER BY created_ms, item_id LIMIT ?)"
)


def _neighbours_sql(hits: Sequence[IndexItem], before: int, after: int) -> tuple[str, list[Any]]:
    """One compound SELECT of the items just before and just after each hit, each row led by its hit's id."""
    parts: list[str] = []
    params: list[Any] = []
    for item in hits:
        where = (item.conversation_id, item.session_id, item.kind, item.agent_id, item.created_ms, item.item_id)
        parts += [_EARLIER, _LATER]
        params += [item.item_id, *where, max(0, before), item.item_id, *where, max(0, after)]  # LIMIT -1: all
    return " UNION ALL ".join(parts), params


def _by_id(items: Sequence[IndexItem]) -> dict[int | None, IndexItem]:
    return {item.item_id: item for item in items}


def _in_time(item: IndexItem) -> tuple[int, int]:
    return item.created_ms, item.item_id or 0


class SQLiteSearchTables(IndexReads, SQLiteParts):
    """Mixed into SQLiteStore; relies on its `_conn`, `_read`, `atomic` and `_translated`."""

    def index_add(self, items: Sequence[IndexItem]) -> None:
        """Add items; an item whose ref is indexed already is replaced (edits, re-runs), unless
        nothing changed (`items_to_write`)."""
        with self._translated(), self.atomic():
            found = self._read_in(
                f"SELECT {ITEM_COLUMNS} FROM index_items WHERE ref IN ({{marks}})", [i.ref for i in items]
            )
            stored = {item.ref: item for item in map(row_to_item, found)}
            self._write_items(items_to_write(items, stored), stored)

    def _write_items(self, items: Sequence[IndexItem], stored: Mapping[str, IndexItem]) -> None:
        rows = [
            (
                item.kind,
                item.ref,
                item.conversation_id,
                item.agent_id,
                item.session_id,
                item.role,
                item.created_ms,
                item.text,
                item.search_text,
                item.content_hash,
                json.dumps(list(item.event_ids)),
                json.dumps(item.metadata, ensure_ascii=False),
                item.context_before,
                item.context_after,
            )
            for item in items
        ]
        with self._translated(), self.atomic():
            conn = self._conn()
            refs = [(item.ref,) for item in items if item.ref in stored]
            removed = conn.executemany("DELETE FROM index_items WHERE ref = ?", refs).rowcount
            conn.executemany(
                "INSERT INTO index_items (kind, ref, conversation_id, agent_id, session_id, role, created_ms, text,"
                " search_text, content_hash, event_ids, metadata, context_before, context_after)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            if removed > 0:  # the trigger logged the replaced ids for searchers holding vectors
                self._trim_removals(conn)

    def index_remove(self, refs: Sequence[str]) -> None:
        """Remove the items of these refs (a memory deleted or replaced)."""
        with self._translated(), self.atomic():
            conn = self._conn()
            removed = conn.executemany("DELETE FROM index_items WHERE ref = ?", [(r,) for r in refs]).rowcount
            if removed > 0:  # as in index_add
                self._trim_removals(conn)

    def index_clear(self) -> None:
        with self._translated(), self.atomic():
            conn = self._conn()
            conn.execute("DELETE FROM index_items")
            conn.execute("INSERT INTO index_fts (index_fts) VALUES ('delete-all')")
            conn.execute("DELETE FROM index_removals")  # a new generation: searchers reload everything
            self._bump_generation(conn)

    def index_new_generation(self) -> None:
        with self._translated(), self.atomic():
            self._bump_generation(self._conn())

    def index_refs_not_of_kind(self, kind: str) -> set[str]:
        return {row[0] for row in self._read("SELECT ref FROM index_items WHERE kind != ?", (kind,))}

    @staticmethod
    def _bump_generation(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE index_state SET value = value + 1 WHERE key = 'generation'")

    @classmethod
    def _trim_removals(cls, conn: sqlite3.Connection) -> None:
        # The log only has to reach back to the oldest searcher's position; past this many
        # rows a new generation is cheaper than keeping it (searchers reload once).
        first, last = conn.execute("SELECT min(seq), max(seq) FROM index_removals").fetchone()
        if first is not None and last - first >= REMOVALS_KEPT:
            conn.execute("DELETE FROM index_removals")
            cls._bump_generation(conn)

    def index_items(self, item_ids: Sequence[int]) -> dict[int, IndexItem]:
        rows = self._read_in(f"SELECT {ITEM_COLUMNS} FROM index_items WHERE item_id IN ({{marks}})", item_ids)
        return {row[0]: row_to_item(row) for row in rows}

    def index_vectors(self, model: str, after_item_id: int) -> list[tuple[int, str, str | None, str, int, bytes]]:
        """(item id, conversation, agent, kind, created ms, vector) of items with a vector of `model`."""
        return self._read(
            "SELECT i.item_id, i.conversation_id, i.agent_id, i.kind, i.created_ms, e.vector FROM index_items i"
            " JOIN embeddings e ON e.model = ? AND e.content_hash = i.content_hash"
            " WHERE i.item_id > ? ORDER BY i.item_id",
            (model, after_item_id),
        )

    def index_neighbours(self, item: IndexItem, before: int, after: int) -> list[IndexItem]:
        """Items of the same session (and agent) just before and after `item`, in time order (itself excluded)."""
        return self.index_neighbours_many([item], before, after).get(item.item_id or 0, [])

    def index_neighbours_many(self, items: Sequence[IndexItem], before: int, after: int) -> dict[int, list[IndexItem]]:
        """`index_neighbours` of each item, by item id: one statement for up to `_HITS_PER_READ` items
        (two indexed range reads each), where a statement per side per hit cost a search 1-2 ms."""
        found: dict[int, list[IndexItem]] = {item.item_id: [] for item in items if item.item_id is not None}
        hits = [item for item_id, item in _by_id(items).items() if item_id in found and item.session_id is not None]
        for start in range(0, len(hits) if before > 0 or after > 0 else 0, _HITS_PER_READ):
            sql, params = _neighbours_sql(hits[start : start + _HITS_PER_READ], before, after)
            for hit, *columns in self._read(sql, params):
                found[hit].append(row_to_item(columns))
        # A compound SELECT promises no order across its parts: each hit's items are put in time order here.
        return {item_id: sorted(around, key=_in_time) for item_id, around in found.items()}

    def index_items_by_ref(self, refs: Sequence[str]) -> set[str]:
        """Which of these refs (event or memory ids) are indexed."""
        return {row[0] for row in self._read_in("SELECT ref FROM index_items WHERE ref IN ({marks})", refs)}

    def index_items_of_kind(self, kind: str, conversation_id: str, after_item_id: int = 0) -> list[IndexItem]:
        """A conversation's items of one kind with an id above `after_item_id`, by id (a copy kept in step)."""
        # `+conversation_id`: no index on it, so that a copy catching up reads only the ids past its own
        # (a range of the table's key) rather than every item of the conversation.
        conversation = "conversation_id" if after_item_id <= 0 else "+conversation_id"
        rows = self._read(
            f"SELECT {ITEM_COLUMNS} FROM index_items WHERE item_id > ? AND {conversation} = ? AND kind = ?"
            " ORDER BY item_id",
            (after_item_id, conversation_id, kind),
        )
        return [row_to_item(row) for row in rows]

    def index_last_in_session(self, item: IndexItem) -> IndexItem | None:
        """The item of `item`'s session, agent and kind just before it in the log's order (its previous turn).

        Turns of one millisecond are ordered by their refs (event ids), as the log orders them,
        not by item id: a rebuild keeps the ids of the items it leaves as they were (decision 93).
        """
        if item.session_id is None:
            return None
        rows = self._read(
            f"SELECT {ITEM_COLUMNS} FROM index_items WHERE session_id = ? AND conversation_id = ? AND kind = ?"
            " AND agent_id IS ? AND (created_ms, ref) < (?, ?) ORDER BY created_ms DESC, ref DESC LIMIT 1",
            (item.session_id, item.conversation_id, item.kind, item.agent_id, item.created_ms, item.ref),
        )
        return row_to_item(rows[0]) if rows else None

    def index_set_context_after(self, item_id: int, text: str) -> None:
        """Record the turn that followed an item (the FTS row follows through a trigger)."""
        with self._translated(), self.atomic():
            self._conn().execute("UPDATE index_items SET context_after = ? WHERE item_id = ?", (text, item_id))

    def keyword_search(self, match: str, scope: IndexScope, limit: int) -> list[tuple[int, float]]:
        """(item id, BM25 score, higher is better) for an FTS5 MATCH expression within a scope."""
        where, params = scope_sql(scope, "i")
        bm25 = "bm25(index_fts, {}, {}, {})".format(*BM25_WEIGHTS)
        # Sorted by the selected column, so that BM25 is computed once per row, not again for the sort.
        sql = (
            f"SELECT i.item_id, -{bm25} AS score FROM index_fts JOIN index_items i ON i.item_id = index_fts.rowid"
            f" WHERE index_fts MATCH ?{' AND ' + where if where else ''} ORDER BY score DESC LIMIT ?"
        )
        return [(int(row[0]), float(row[1])) for row in self._read(sql, [match, *params, limit])]

    def keyword_document_counts(self, words: Sequence[str]) -> tuple[int, dict[str, int]]:
        """The rows of the keyword index, and how many hold each word (counted up to half of them).

        Counting stops past half: beyond that FTS5's BM25 gives a word no weight at all, which
        is all a caller needs to know, and a common word then costs no more than a rare one.
        """
        rows = self._item_count()
        cap = rows // 2 + 1
        sql = "SELECT count(*) FROM (SELECT 1 FROM index_fts WHERE index_fts MATCH ? LIMIT ?)"
        counts = {word: int(self._read(sql, ['"' + word.replace('"', '""') + '"', cap])[0][0]) for word in words}
        return rows, counts

    def embeddings_load(self, model: str, hashes: list[str]) -> dict[str, bytes]:
        rows = self._read_in(
            "SELECT content_hash, vector FROM embeddings WHERE model = ? AND content_hash IN ({marks})", hashes, [model]
        )
        return {digest: bytes(vector) for digest, vector in rows}

    def embeddings_save(self, model: str, pairs: list[tuple[str, bytes]]) -> None:
        with self._translated(), self.atomic():
            self._conn().executemany(
                "INSERT OR IGNORE INTO embeddings (model, content_hash, vector) VALUES (?, ?, ?)",
                [(model, digest, blob) for digest, blob in pairs],
            )
