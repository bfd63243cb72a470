"""A search's candidates in one statement (PostgreSQL): both rankings, the ranked items, their vectors.

On SQLite a search asks the store in several calls that each cost microseconds in process;
on PostgreSQL each call is a round trip of a millisecond or more, and a search made five
(keyword, vectors, items, neighbours, vectors for MMR) besides the keyword words' counts
and the transaction around the vector search. Here the keyword search (`search.keyword_ctes`,
which drops the words that weigh nothing in SQL, as `KeywordTerms` does on SQLite), the
vector search (`vectors.nearest_items`) and the read of every candidate with its vector are
one statement, so one round trip (`_read_vectors`); the hits' neighbouring turns are a
second (`hits.py`), once MMR has chosen the hits. The pipeline asks for the keyword list alone
while another thread embeds the query and then asks for the vector list on a connection of its
own (decisions 111, 113): three statements, the first two at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg import sql

from memoir.store.postgres.parts import scope_sql
from memoir.store.postgres.search import keyword_ctes
from memoir.store.postgres.text import unescaped
from memoir.store.postgres.vectors import PostgresVectorTables, Vector, from_pgvector, nearest_items
from memoir.store.records import IndexItem, IndexScope, SearchCandidates
from memoir.store.sql.search import row_to_item as _row_to_item

__all__ = ["PostgresCandidates"]

_COLUMNS = ", ".join(
    f"i.{name}"
    for name in (
        "item_id", "kind", "ref", "conversation_id", "agent_id", "session_id", "role", "created_ms", "text",
        "search_text", "content_hash", "event_ids", "metadata", "context_before", "context_after",
    )
)  # fmt: skip
# Each source's rows with their places (ties broken as each ranking breaks them).
_RANKED_KEYWORD = (
    "ranked_keyword AS (SELECT item_id, score, row_number() OVER (ORDER BY score DESC, item_id) AS place FROM keyword)"
)
_RANKED_NEAREST = (
    "ranked_nearest AS MATERIALIZED (SELECT item_id, distance,"
    " row_number() OVER (ORDER BY distance, item_id) AS place FROM ({}) AS found)"
)


# The statement's end: every ranked item, each ranking's place and score for it, its vector.
_SELECT = (
    "WITH {ctes} SELECT c.item_id, {nearest}, {keyword}, {columns}, vector_send(v.embedding)"
    " FROM ({sources}) AS c JOIN index_items AS i ON i.item_id = c.item_id"
    " LEFT JOIN item_embeddings AS v ON v.item_id = c.item_id AND v.model = {model}{joins}"
)
_NONE = "NULL::bigint, NULL::float8"  # a source not asked: no place, no score


class PostgresCandidates(PostgresVectorTables):
    def search_candidates(
        self, model: str, query: bytes, words: Sequence[str], scope: IndexScope, limit: int, *, rank_vectors: bool
    ) -> SearchCandidates:
        """The `limit` best items of `scope` by keywords (none without `words`) and by `model`'s vectors
        (when `rank_vectors`), every one of them, and their vectors, in one statement."""
        by_vector = rank_vectors and len(query) >= 4 and limit > 0
        by_keyword = bool(words) and limit > 0
        if not (by_vector or by_keyword):
            return SearchCandidates([] if rank_vectors else None, None, {}, {})
        ctes: list[sql.Composable] = []
        params: list[Any] = []
        if by_keyword:
            where, scoped = scope_sql(scope, "i")
            ctes += [sql.SQL(keyword_ctes(where, of_weight=True)), sql.SQL(_RANKED_KEYWORD)]
            params += [list(words), *scoped, limit]
        if by_vector:
            nearest, scoped = nearest_items(model, Vector(query), scope, self._vector_cast(len(query) // 4, model))
            ctes.append(sql.SQL(_RANKED_NEAREST).format(nearest))
            params += [*scoped, limit]
        statement = _statement(ctes, model, by_vector, by_keyword)
        graph = limit if by_vector and scope.conversation_ids is None else None
        return _candidates(self._read_vectors(statement, params, graph), rank_vectors, by_keyword)


def _statement(ctes: list[sql.Composable], model: str, by_vector: bool, by_keyword: bool) -> sql.Composed:
    sources = [name for name, asked in (("ranked_nearest", by_vector), ("ranked_keyword", by_keyword)) if asked]
    joins = [
        f" LEFT JOIN {name} AS {alias} ON {alias}.item_id = c.item_id"
        for name, alias, asked in (("ranked_nearest", "n", by_vector), ("ranked_keyword", "k", by_keyword))
        if asked
    ]
    return sql.SQL(_SELECT).format(
        ctes=sql.SQL(", ").join(ctes),
        nearest=sql.SQL("n.place, 1 - n.distance" if by_vector else _NONE),
        keyword=sql.SQL("k.place, k.score" if by_keyword else _NONE),
        columns=sql.SQL(_COLUMNS),
        model=sql.Literal(model),
        sources=sql.SQL(" UNION ".join(f"SELECT item_id FROM {name}" for name in sources)),
        joins=sql.SQL("".join(joins)),
    )


def _candidates(rows: list[Any], rank_vectors: bool, by_keyword: bool) -> SearchCandidates:
    """The statement's rows as each ranking in its order, the items and their vectors."""
    nearest: list[tuple[int, int, float]] = []
    keyword: list[tuple[int, int, float]] = []
    items: dict[int, IndexItem] = {}
    vectors: dict[int, bytes] = {}
    for item_id, near_place, similarity, keyword_place, score, *columns, blob in rows:
        items[item_id] = _row_to_item(unescaped(columns))  # read as they came (`vectors.search_cursor`)
        if blob is not None:
            vectors[item_id] = from_pgvector(blob)
        if near_place is not None:
            nearest.append((near_place, item_id, float(similarity)))
        if keyword_place is not None:
            keyword.append((keyword_place, item_id, float(score)))
    return SearchCandidates(
        [(item_id, value) for _, item_id, value in sorted(nearest)] if rank_vectors else None,
        [(item_id, value) for _, item_id, value in sorted(keyword)] if by_keyword else None,
        items,
        vectors,
    )
