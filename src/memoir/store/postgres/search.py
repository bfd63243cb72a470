"""The search index of the PostgreSQL store: items and full-text keyword search (embeddings: `vectors`).

A port of `sqlite_search`, answer for answer; what PostgreSQL does differently:
- **Keyword search ranks with FTS5's BM25, computed in SQL.** PostgreSQL's `ts_rank` knows
  nothing of how rare a word is, and in memoir rare words are what find a turn (a keyword
  search is every content word of a question, ORed); score fusion also divides by the best
  score, so the scale of the scores matters as much as their order. So each item has a
  stored, generated `tsvector` (its text, the turn before and the turn after, weights A, B
  and C; a GIN index) and a token count, and the score is FTS5's formula: per query word,
  IDF over the whole index (`ln((N - n + 0.5) / (n + 0.5))`, at least 1e-6) times the
  saturated frequency (k1 = 1.2, b = 0.75) where each occurrence counts its column's
  `BM25_WEIGHTS` and the row's length is weighed against the average. The weighted
  frequency is `ts_rank_cd` of the one word without normalisation (the sum of its
  occurrences' weights); the row count and total tokens are kept in `index_state`, and
  each lexeme's item count in `index_terms`, by statement triggers, so no search counts
  the table (a common word is held by half a million items at a million). On LoCoMo dev (760 questions) the
  top 10 is SQLite's for 99% of the items (recall@10 0.715; SQLite 0.712).
- **Text is split into words as FTS5's unicode61 does.** PostgreSQL's parser keeps
  `checkout.py`, `a@b.org`, `3.5` or `well-known` whole (file, email, number, compound
  tokens), and in a database with the C locale takes any non-ASCII character for a letter;
  so punctuation (ASCII and the common Unicode marks and spaces) becomes a space first, in
  the indexed text and in the query alike. The 'english' configuration stems (Snowball, as
  FTS5's porter) and drops its stop words. Each column is cut at `search_schema.MAX_INDEXED_CHARS`.
- **Index writers take turns** (`search_schema.INDEX_LOCK`, held to commit): a searcher that has read up
  to item id N must never see a lower id commit later, as SQLite's single writer ensured.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import psycopg

from memoir.store.postgres.parts import PostgresParts, scope_sql
from memoir.store.postgres.search_schema import LOCK_INDEX
from memoir.store.postgres.vectors import from_pgvector
from memoir.store.records import IndexItem, IndexScope
from memoir.store.sql.search import BM25_WEIGHTS, REMOVALS_KEPT, IndexReads, items_to_write
from memoir.store.sql.search import row_to_item as _row_to_item

__all__ = ["PostgresSearchTables", "keyword_ctes", "match_words"]

# FTS5's BM25 parameters (sqlite/ext/fts5/fts5_aux.c).
K1 = 1.2
B = 0.75

_ITEM_COLUMNS = (
    "item_id, kind, ref, conversation_id, agent_id, session_id, role, created_ms, text, search_text,"
    " content_hash, event_ids, metadata, context_before, context_after"
)
# Many items in one statement (one firing of the triggers): each column is one array parameter.
_INSERT_ITEMS = (
    "INSERT INTO index_items (kind, ref, conversation_id, agent_id, session_id, role, created_ms, text,"
    " search_text, content_hash, event_ids, metadata, context_before, context_after)"
    " SELECT kind, ref, conversation_id, agent_id, session_id, role, created_ms, text, search_text, content_hash,"
    " event_ids, metadata, context_before, context_after"
    " FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::bigint[], %s::text[],"
    " %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[]) WITH ORDINALITY AS u (kind, ref,"
    " conversation_id, agent_id, session_id, role, created_ms, text, search_text, content_hash, event_ids, metadata,"
    " context_before, context_after, position) ORDER BY position"
)
# ts_rank_cd without normalisation, for a query of one word, is the sum of the weights of
# its occurrences: FTS5's column-weighted frequency. Its weights ({D, C, B, A}) may not pass 1.
_SCALE = max(BM25_WEIGHTS)
_RANK_WEIGHTS = "'{{{}, {}, {}, {}}}'".format(0.1, *(weight / _SCALE for weight in reversed(BM25_WEIGHTS)))
# BM25 as FTS5 computes it (see the module's docstring), as CTEs that end in `keyword`
# (item_id, score: the `limit` best). Each kept word asks the GIN index for the items of the
# scope that hold it, so only the (item, word) pairs that score are ranked: ORing the words
# to find every candidate, then ranking each against every word, ranked 4,000 pairs to score
# 900 on a LoCoMo question (a keyword statement 9.7 -> 7.6 ms p50, the same results).
# Parameters: the words, the scope's, the limit.
_KEYWORD_CTES = f"""
totals AS MATERIALIZED (
    SELECT greatest(max(value) FILTER (WHERE key = 'items'), 1)::float8 AS items,
           greatest(max(value) FILTER (WHERE key = 'tokens'), 1)::float8 AS tokens
    FROM index_state
),
asked AS MATERIALIZED (
    -- A phrase is counted up to just past half the rows: from there on its IDF is FTS5's floor anyway.
    SELECT u.word, u.position, memoir_search_query(u.word) AS query,
           memoir_search_docs(u.word, (SELECT items FROM totals)::bigint / 2 + 1)::float8 AS hits
    FROM unnest(%s::text[]) WITH ORDINALITY AS u (word, position)
    WHERE numnode(memoir_search_query(u.word)) > 0
),
kept AS MATERIALIZED ({{kept}}),
matched AS MATERIALIZED (
    SELECT i.item_id, i.search_length, greatest(ln((t.items - w.hits + 0.5) / (w.hits + 0.5)), 1e-6) AS idf,
           ts_rank_cd({_RANK_WEIGHTS}, i.search_vector, w.query, 0) * {_SCALE} AS frequency
    FROM kept AS w CROSS JOIN totals AS t CROSS JOIN LATERAL (
        SELECT i.item_id, i.search_vector, i.search_length FROM index_items AS i
        WHERE i.search_vector @@ w.query{{scope}}
    ) AS i
),
keyword AS MATERIALIZED (
    -- float8 constants: a bare 0.75 is numeric, and numeric arithmetic on every pair cost more than the rest.
    SELECT m.item_id, sum(m.idf * m.frequency * {K1 + 1.0}::float8 / (m.frequency
            + {K1}::float8 * ({1.0 - B}::float8 + {B}::float8 * m.search_length / (t.tokens / t.items)))) AS score
    FROM matched AS m CROSS JOIN totals AS t
    WHERE m.frequency > 0
    GROUP BY m.item_id
    ORDER BY score DESC, m.item_id
    LIMIT %s
)"""
# Every word asked for.
_ALL_WORDS = "SELECT * FROM asked"
# Without the words that weigh nothing (`memoir.retrieval.terms`: held by half the rows or
# more), unless every word is one: what `KeywordTerms.match` leaves of a query on SQLite.
_WORDS_OF_WEIGHT = (
    "SELECT a.* FROM asked AS a, totals AS t WHERE a.hits * 2 < t.items"
    " OR NOT EXISTS (SELECT FROM asked AS w WHERE w.hits * 2 < t.items)"
)


def keyword_ctes(scope: str, *, of_weight: bool) -> str:
    """The keyword search's CTEs for a scope's WHERE clauses (may be empty); see `_KEYWORD_CTES`."""
    kept = _WORDS_OF_WEIGHT if of_weight else _ALL_WORDS
    return _KEYWORD_CTES.replace("{kept}", kept).replace("{scope}", f" AND {scope}" if scope else "")


_PHRASE = re.compile(r'"((?:[^"]|"")*)"')


def match_words(match: str) -> list[str]:
    """The words of an FTS5 MATCH expression as `match_expression` writes it (`"a" OR "b"`)."""
    quoted = [found.group(1).replace('""', '"') for found in _PHRASE.finditer(match)]
    if quoted:
        return quoted
    return [word for word in match.split() if word not in ("OR", "AND", "NOT")]  # bare words, leniently


def _row(item: IndexItem) -> tuple[Any, ...]:
    """An item's values, in `_INSERT_ITEMS`' order; event ids and metadata as JSON text, as on SQLite."""
    ids, meta = json.dumps(list(item.event_ids)), json.dumps(item.metadata, ensure_ascii=False)
    head = (item.kind, item.ref, item.conversation_id, item.agent_id, item.session_id, item.role, item.created_ms)
    return (*head, item.text, item.search_text, item.content_hash, ids, meta, item.context_before, item.context_after)


class PostgresSearchTables(IndexReads, PostgresParts):
    """Mixed into PostgresStore; relies on its `_conn`, `_read`, `atomic` and `_translated`."""

    def index_add(self, items: Sequence[IndexItem]) -> None:
        """Add items; an item whose ref is indexed already is replaced (edits, re-runs), unless
        nothing changed (`items_to_write`, as on SQLite)."""
        if not items:
            return
        with self._translated(), self.atomic():
            conn = self._conn()
            conn.execute(LOCK_INDEX)  # before the read: no other writer changes these rows until commit
            found = conn.execute(
                f"SELECT {_ITEM_COLUMNS} FROM index_items WHERE ref = ANY(%s::text[])", ([i.ref for i in items],)
            ).fetchall()
            stored = {item.ref: item for item in map(_row_to_item, found)}
            items = items_to_write(items, stored)
            if not items:
                return
            columns = [list(column) for column in zip(*map(_row, items), strict=True)]
            replaced = [item.ref for item in items if item.ref in stored]
            removed = conn.execute("DELETE FROM index_items WHERE ref = ANY(%s::text[])", (replaced,))
            conn.execute(_INSERT_ITEMS, columns)
            if removed.rowcount > 0:  # the trigger logged the replaced ids for searchers holding vectors
                self._trim_removals(conn)

    def index_remove(self, refs: Sequence[str]) -> None:
        """Remove the items of these refs (a memory deleted or replaced)."""
        if not refs:
            return
        with self._translated(), self.atomic():
            conn = self._conn()
            conn.execute(LOCK_INDEX)
            removed = conn.execute("DELETE FROM index_items WHERE ref = ANY(%s::text[])", (list(refs),))
            if removed.rowcount > 0:  # as in index_add
                self._trim_removals(conn)

    def index_clear(self) -> None:
        with self._translated(), self.atomic():
            conn = self._conn()
            conn.execute(LOCK_INDEX)
            # TRUNCATE fires no row triggers: no removal log to write only to drop it, no totals to count down.
            conn.execute("TRUNCATE index_items, index_removals, index_terms, item_embeddings")
            conn.execute("UPDATE index_state SET value = 0 WHERE key IN ('items', 'tokens')")
            self._bump_generation(conn)  # a new generation: searchers reload everything

    def index_new_generation(self) -> None:
        with self._translated(), self.atomic():
            conn = self._conn()
            conn.execute(LOCK_INDEX)
            self._bump_generation(conn)

    def index_refs_not_of_kind(self, kind: str) -> set[str]:
        return {row[0] for row in self._read("SELECT ref FROM index_items WHERE kind != %s", (kind,))}

    @staticmethod
    def _bump_generation(conn: psycopg.Connection[Any]) -> None:
        conn.execute("UPDATE index_state SET value = value + 1 WHERE key = 'generation'")

    @classmethod
    def _trim_removals(cls, conn: psycopg.Connection[Any]) -> None:
        # The log only has to reach back to the oldest searcher's position; past this many
        # rows a new generation is cheaper than keeping it (searchers reload once).
        found = conn.execute("SELECT min(seq), max(seq) FROM index_removals").fetchone()
        if found is not None and found[0] is not None and found[1] - found[0] >= REMOVALS_KEPT:
            conn.execute("DELETE FROM index_removals")
            cls._bump_generation(conn)

    def index_items(self, item_ids: Sequence[int]) -> dict[int, IndexItem]:
        if not item_ids:
            return {}
        rows = self._read(
            f"SELECT {_ITEM_COLUMNS} FROM index_items WHERE item_id = ANY(%s::bigint[])", (list(item_ids),)
        )
        return {row[0]: _row_to_item(row) for row in rows}

    def index_items_of_kind(self, kind: str, conversation_id: str, after_item_id: int = 0) -> list[IndexItem]:
        """A conversation's items of one kind with an id above `after_item_id`, by id (a copy kept in step)."""
        rows = self._read(
            f"SELECT {_ITEM_COLUMNS} FROM index_items WHERE item_id > %s AND conversation_id = %s AND kind = %s"
            " ORDER BY item_id",
            (after_item_id, conversation_id, kind),
        )
        return [_row_to_item(row) for row in rows]

    def index_vectors(self, model: str, after_item_id: int) -> list[tuple[int, str, str | None, str, int, bytes]]:
        """(item id, conversation, agent, kind, created ms, vector) of items with a vector of `model`."""
        rows = self._read(
            "SELECT i.item_id, i.conversation_id, i.agent_id, i.kind, i.created_ms, vector_send(e.embedding)"
            " FROM index_items i JOIN embeddings e ON e.model = %s AND e.content_hash = i.content_hash"
            " WHERE i.item_id > %s ORDER BY i.item_id",
            (model, after_item_id),
        )
        return [(int(i), conv, agent, kind, int(ms), from_pgvector(data)) for i, conv, agent, kind, ms, data in rows]

    def index_neighbours(self, item: IndexItem, before: int, after: int) -> list[IndexItem]:
        """Items of the same session (and agent) just before and after `item`, in time order (itself excluded)."""
        if item.session_id is None:
            return []
        common = (
            "FROM index_items WHERE conversation_id = %s AND session_id = %s AND kind = %s"
            " AND agent_id IS NOT DISTINCT FROM %s"
        )
        params = (item.conversation_id, item.session_id, item.kind, item.agent_id, item.created_ms, item.item_id)
        earlier = self._read(
            f"SELECT {_ITEM_COLUMNS} {common} AND (created_ms, item_id) < (%s, %s)"
            " ORDER BY created_ms DESC, item_id DESC LIMIT %s",
            (*params, before),
        )
        later = self._read(
            f"SELECT {_ITEM_COLUMNS} {common} AND (created_ms, item_id) > (%s, %s)"
            " ORDER BY created_ms, item_id LIMIT %s",
            (*params, after),
        )
        return [_row_to_item(row) for row in reversed(earlier)] + [_row_to_item(row) for row in later]

    def index_items_by_ref(self, refs: Sequence[str]) -> set[str]:
        """Which of these refs (event or memory ids) are indexed."""
        if not refs:
            return set()
        return {row[0] for row in self._read("SELECT ref FROM index_items WHERE ref = ANY(%s::text[])", (list(refs),))}

    def index_last_in_session(self, item: IndexItem) -> IndexItem | None:
        """The item of `item`'s session, agent and kind just before it in the log's order, as on SQLite."""
        if item.session_id is None:
            return None
        rows = self._read(
            f"SELECT {_ITEM_COLUMNS} FROM index_items WHERE session_id = %s AND conversation_id = %s AND kind = %s"
            " AND agent_id IS NOT DISTINCT FROM %s AND (created_ms, ref) < (%s, %s)"
            " ORDER BY created_ms DESC, ref DESC LIMIT 1",
            (item.session_id, item.conversation_id, item.kind, item.agent_id, item.created_ms, item.ref),
        )
        return _row_to_item(rows[0]) if rows else None

    def index_set_context_after(self, item_id: int, text: str) -> None:
        """Record the turn that followed an item (its tsvector, a generated column, follows)."""
        with self._translated(), self.atomic():
            conn = self._conn()
            conn.execute(LOCK_INDEX)  # the totals' row is the writers' (see the module's docstring)
            conn.execute("UPDATE index_items SET context_after = %s WHERE item_id = %s", (text, item_id))

    # -- keyword search ------------------------------------------------------------------

    def keyword_search(self, match: str, scope: IndexScope, limit: int) -> list[tuple[int, float]]:
        """(item id, BM25 score, higher is better) for an FTS5 MATCH expression within a scope."""
        words = match_words(match)
        if not words:
            return []
        where, params = scope_sql(scope, "i")
        statement = f"WITH {keyword_ctes(where, of_weight=False)} SELECT item_id, score FROM keyword"
        rows = self._read(f"{statement} ORDER BY score DESC, item_id", [words, *params, limit])
        return [(int(row[0]), float(row[1])) for row in rows]

    def keyword_document_counts(self, words: Sequence[str]) -> tuple[int, dict[str, int]]:
        """The rows of the keyword index, and how many hold each word (up to half of them).

        A word's count is looked up (`index_terms`), a phrase's counted; either stops past
        half: beyond that BM25 gives a word no weight at all, which is all a caller needs to
        know, and a common phrase then costs no more than a rare one. A stop
        word of the 'english' configuration (indexed by FTS5, not here) counts as held by
        every row, since it weighs nothing in a search either.
        """
        rows = self._item_count()
        if not words:
            return rows, {}
        cap = rows // 2 + 1
        found = self._read(
            "SELECT u.position, coalesce(memoir_search_docs(u.word, %s), %s)"
            " FROM unnest(%s::text[]) WITH ORDINALITY AS u (word, position)",
            (cap, min(cap, rows), list(words)),
        )
        held = {int(position): int(count) for position, count in found}
        return rows, {word: held[position] for position, word in enumerate(words, 1)}
