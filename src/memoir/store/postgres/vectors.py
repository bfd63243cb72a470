"""Embeddings in pgvector: the embedding cache, each item's copy of its vector, HNSW, vector search in SQL.

- **Vectors are pgvector values** in its binary form (no `pgvector` package); callers see
  float32 little-endian bytes, as on SQLite. pgvector refuses NaN and infinite components.
- **Each item's vectors lie where a conversation's scan reads them** (`item_embeddings`, a
  row per item and model with the columns a scope filters on; `search_schema.ITEM_VECTORS`),
  so comparing a conversation's items exactly reads those rows and nothing else, rather than
  each item's row and then its vector's in `embeddings`, on pages of every conversation.
- **HNSW is built per model, after loading** (`ensure_vector_index`), on `embeddings`:
  inserting into an indexed table costs a graph insertion per row (~300 rows/s, against
  tens of thousands with COPY), and a vector is cached once where items are written again
  (a turn's, when the next turn arrives). The index is partial (one model's rows) on a cast
  to its dimensions; wide scopes walk it, a conversation's items are compared exactly.

The `embeddings` table itself is created with the search index (`search.SCHEMA`).
"""

from __future__ import annotations

import array
import hashlib
import struct
import sys
from typing import Any

import psycopg
from psycopg import sql
from psycopg.adapt import Dumper
from psycopg.pq import Format

from memoir.store.postgres.parts import PostgresParts, scope_sql
from memoir.store.postgres.text import read_plain_text
from memoir.store.records import IndexScope

__all__ = [
    "COPY_ITEM_VECTORS",
    "PostgresVectorTables",
    "Vector",
    "ef_search",
    "from_pgvector",
    "nearest_items",
    "pgvector_text",
    "search_cursor",
    "to_pgvector",
    "vector_cursor",
    "vector_index_name",
]

# Dimensions HNSW can index: `vector` up to 2,000, `halfvec` (16-bit) up to 4,000.
HNSW_VECTOR_DIMS = 2_000
HNSW_HALFVEC_DIMS = 4_000
# Candidates an HNSW search keeps, at least (a deployment's `hnsw.ef_search` counts where
# higher): recall@10 on clustered vectors (bench/postgres_scale.py, 10,000 items) 0.63 at
# pgvector's default of 40, 0.87 at 100, 0.97 at 200 (2 ms).
HNSW_EF_SEARCH = 200
HNSW_EF_SEARCH_MAX = 1_000
# maintenance_work_mem for an HNSW build, at least (the server's counts where higher): a
# graph that outgrows it is built many times slower (`tuning` says when it will).
BUILD_MEMORY_BYTES = 2 * 1024**3
# Before a statement that may walk an HNSW graph: pgvector's iterative scan goes on until
# `limit` items of the scope are found; `hnsw.ef_search` is the larger of the session's
# (a deployment's setting) and the parameter.
GRAPH_SETTINGS = (
    "SELECT set_config('hnsw.iterative_scan', 'strict_order', true), set_config('hnsw.ef_search',"
    " greatest(coalesce(nullif(current_setting('hnsw.ef_search', true), ''), '0')::int, %s)::text, true)"
)
# Vectors cached after their items (a bulk load in another order; `embeddings_save` narrows it to the
# vectors it saved): into `item_embeddings`, which index writes otherwise fill.
COPY_ITEM_VECTORS = """
INSERT INTO item_embeddings (item_id, model, conversation_id, agent_id, kind, created_ms, embedding)
    SELECT i.item_id, e.model, i.conversation_id, i.agent_id, i.kind, i.created_ms, e.embedding
    FROM embeddings AS e JOIN index_items AS i ON i.content_hash = e.content_hash
"""


# -- vectors: float32 little-endian bytes (memoir's form) <-> pgvector's binary form ----------


def _swapped(data: bytes) -> bytes:
    """float32 values between little- and big-endian (the same operation both ways)."""
    values = array.array("f")
    values.frombytes(data)
    values.byteswap()
    return values.tobytes()


def to_pgvector(blob: bytes) -> bytes:
    """pgvector's binary form (dimensions, unused, big-endian float32s) of float32 little-endian bytes."""
    if len(blob) % 4:
        raise ValueError(f"a vector is float32 bytes: {len(blob)} is not a multiple of 4")
    return struct.pack(">HH", len(blob) // 4, 0) + _swapped(blob)


def from_pgvector(data: bytes) -> bytes:
    """float32 little-endian bytes of pgvector's binary form (what `vector_send` returns)."""
    (dims,) = struct.unpack_from(">H", data)
    return _swapped(bytes(data[4 : 4 + 4 * dims]))


def pgvector_text(blob: bytes) -> str:
    """pgvector's text form (`[1.5,-2]`) of float32 little-endian bytes, exact (for COPY in text)."""
    values = array.array("f")
    values.frombytes(blob)
    if sys.byteorder == "big":
        values.byteswap()
    return "[" + ",".join(map(repr, values)) + "]"


class Vector:
    """A vector parameter: float32 little-endian bytes, sent as pgvector's binary form (`%b::vector`)."""

    __slots__ = ("blob",)

    def __init__(self, blob: bytes) -> None:
        self.blob = blob


class VectorDumper(Dumper):
    format = Format.BINARY  # oid 0: the statement's `::vector` cast gives the parameter its type

    def dump(self, obj: Any) -> bytes:
        return to_pgvector(obj.blob)


def vector_cursor(conn: psycopg.Connection[Any]) -> psycopg.Cursor[Any]:
    cursor = conn.cursor()
    cursor.adapters.register_dumper(Vector, VectorDumper)
    return cursor


def search_cursor(conn: psycopg.Connection[Any]) -> psycopg.Cursor[Any]:
    """A `vector_cursor` for a search's rows: in binary form (a hundred vectors as hex text took
    half a millisecond to decode), strings with their escapes kept (`text.read_plain_text`)."""
    cursor = conn.cursor(binary=True)
    cursor.adapters.register_dumper(Vector, VectorDumper)
    read_plain_text(cursor)
    return cursor


def _cast(dims: int) -> sql.Composable:
    """The type an HNSW index casts a model's vectors to: `vector(n)`, or `halfvec(n)` when wider."""
    if not 0 < dims <= HNSW_HALFVEC_DIMS:
        raise ValueError(f"HNSW indexes vectors of 1 to {HNSW_HALFVEC_DIMS} dimensions, not {dims}")
    kind = "vector" if dims <= HNSW_VECTOR_DIMS else "halfvec"
    return sql.SQL("{}({})").format(sql.SQL(kind), sql.Literal(dims))


def vector_index_name(model: str, dims: int) -> str:
    """The HNSW index of a model's vectors: named by a hash (a model name may be anything)."""
    digest = hashlib.sha256(f"{model}\x1f{dims}".encode()).hexdigest()[:16]
    return f"embeddings_hnsw_{digest}"


def nearest_items(model: str, query: Vector, scope: IndexScope, cast: sql.Composable) -> tuple[sql.Composed, list[Any]]:
    """A query of (item_id, distance) of the items of `scope` nearest `query`, nearest first, ties
    to the older, up to a limit (its last parameter, not in the list returned); its parameters.

    A conversation's items are compared exactly, through their rows in `item_embeddings`
    (an index-only scan where they fit the covering index: `search_schema.ITEM_VECTORS`): an
    HNSW graph, asked for ten items of one conversation in a hundred, walked a million
    vectors to find them (562 ms p50). A wider scope is ordered by the cached vectors, so
    that the planner may walk the model's graph (`cast` is the graph's type): the model is a
    literal, since the partial index's condition must be provable when planning.
    """
    if scope.conversation_ids is not None:
        where, params = scope_sql(scope, "v")
        fits = "memoir_scan_fits(v.model, v.conversation_id, v.agent_id, v.kind, v.embedding)"
        branch = (
            "SELECT v.item_id, v.embedding <=> %b::vector AS distance FROM item_embeddings AS v"
            f" WHERE v.model = {{model}} AND {where} AND {{fits}}"
        )
        statement = sql.SQL(
            f"SELECT item_id, distance FROM ({branch} UNION ALL {branch.replace('{fits}', 'NOT {fits}')}) AS found"
            " ORDER BY distance, item_id LIMIT %s"
        ).format(model=sql.Literal(model), fits=sql.SQL(fits))
        return statement, [query, *params, query, *params]
    where, params = scope_sql(scope, "i")
    statement = sql.SQL(
        "SELECT i.item_id, (e.embedding::{cast}) <=> (%b::vector::{cast}) AS distance FROM embeddings AS e"
        " JOIN index_items AS i ON i.content_hash = e.content_hash WHERE e.model = {model}{scope}"
        " ORDER BY distance, i.item_id LIMIT %s"
    ).format(cast=cast, model=sql.Literal(model), scope=sql.SQL(f" AND {where}" if where else ""))
    return statement, [query, *params]


def ef_search(limit: int) -> int:
    """Candidates an HNSW search of `limit` items keeps, at least (the session's setting counts where higher)."""
    return min(max(limit * 4, HNSW_EF_SEARCH), HNSW_EF_SEARCH_MAX)


class PostgresVectorTables(PostgresParts):
    """Mixed into PostgresStore; relies on its `_conn`, `_read`, `atomic` and `_translated`."""

    searches_vectors = True

    # -- embeddings ----------------------------------------------------------------------

    def embeddings_load(self, model: str, hashes: list[str]) -> dict[str, bytes]:
        if not hashes:
            return {}
        rows = self._read(
            "SELECT content_hash, vector_send(embedding) FROM embeddings WHERE model = %s"
            " AND content_hash = ANY(%s::text[])",
            (model, list(hashes)),
        )
        return {digest: from_pgvector(data) for digest, data in rows}

    def embeddings_save(self, model: str, pairs: list[tuple[str, bytes]]) -> None:
        """Cache vectors; a (model, hash) cached already keeps its vector. Items of these texts
        indexed already take their copies (`item_embeddings`)."""
        if not pairs:
            return
        # In hash order: two writers saving overlapping vectors wait for each other in the
        # same order, never in a cycle.
        first: dict[str, bytes] = {}
        for digest, blob in pairs:
            first.setdefault(digest, blob)  # as INSERT OR IGNORE: the first of a repeated hash
        unique = sorted(first.items())
        with self._translated(), self.atomic():
            conn = self._conn()
            vector_cursor(conn).executemany(
                "INSERT INTO embeddings (model, content_hash, embedding) VALUES (%s, %s, %b::vector)"
                " ON CONFLICT (model, content_hash) DO NOTHING",
                [(model, digest, Vector(blob)) for digest, blob in unique],
            )
            conn.execute(
                f"{COPY_ITEM_VECTORS} WHERE e.model = %s AND e.content_hash = ANY(%s::text[])"
                " ON CONFLICT (item_id, model) DO NOTHING",
                (model, list(first)),
            )

    # -- vector search in the database (pgvector) ---------------------------------------

    def ensure_vector_index(self, model: str, dims: int) -> str:
        """Build the HNSW index of `model`'s vectors unless it exists; its name.

        Build it after a bulk load, not before (see the module's docstring): the build blocks
        writes to `embeddings` while it runs, and concurrent callers wait for the first one.
        """
        name = vector_index_name(model, dims)
        statement = sql.SQL(
            "CREATE INDEX IF NOT EXISTS {} ON embeddings USING hnsw ((embedding::{}) {}) WHERE model = {}"
        ).format(
            sql.Identifier(name),
            _cast(dims),
            sql.SQL("vector_cosine_ops" if dims <= HNSW_VECTOR_DIMS else "halfvec_cosine_ops"),
            sql.Literal(model),
        )
        with self._translated(), self.atomic():
            conn = self._conn()
            # Self-exclusive and compatible with readers: a second caller waits, then finds the index.
            conn.execute("LOCK TABLE embeddings IN SHARE ROW EXCLUSIVE MODE")
            # A graph that outgrows it builds slowly: the server's setting, or BUILD_MEMORY_BYTES where that is more.
            conn.execute(
                "SELECT set_config('maintenance_work_mem', greatest(pg_size_bytes(current_setting("
                "'maintenance_work_mem')), %s) / 1024 || 'kB', true)",
                (BUILD_MEMORY_BYTES,),
            )
            conn.execute(statement)
        return name

    def _vector_cast(self, dims: int, model: str) -> sql.Composable:
        """The type vectors are compared as: `vector(n)`, or `halfvec(n)` where the model's HNSW index is one."""
        cast: sql.Composable = sql.SQL("vector({})").format(sql.Literal(dims))
        if HNSW_VECTOR_DIMS < dims <= HNSW_HALFVEC_DIMS:  # half precision only where an index wants it
            found = self._read("SELECT to_regclass(%s) IS NOT NULL", (vector_index_name(model, dims),))
            cast = _cast(dims) if found and found[0][0] else cast
        return cast

    def vector_search(self, model: str, query: bytes, scope: IndexScope, limit: int) -> list[tuple[int, float]]:
        """(item id, cosine similarity), most similar first, of items in `scope` with a vector of `model`.

        A conversation's items are compared exactly; a wider scope through the model's HNSW index
        when `ensure_vector_index` built it, where pgvector's iterative scan goes on until
        `limit` items of the scope are found (`nearest_items`). Ties go to the older item.
        """
        dims = len(query) // 4
        if dims == 0 or limit <= 0:
            return []
        nearest, params = nearest_items(model, Vector(query), scope, self._vector_cast(dims, model))
        statement = sql.SQL("SELECT item_id, 1 - distance FROM ({}) AS nearest ORDER BY distance, item_id").format(
            nearest
        )
        graph = limit if scope.conversation_ids is None else None
        rows = self._read_vectors(statement, [*params, limit], graph)
        return [(int(item_id), float(similarity)) for item_id, similarity in rows]

    def _read_vectors(self, statement: str | sql.Composed, params: list[Any], graph_limit: int | None) -> list[Any]:
        """Rows of a statement with vector parameters, in one round trip, read by a `search_cursor`:
        strings with their escapes kept (`text.unescaped` undoes them).

        One that may walk an HNSW graph for `graph_limit` items (a scope wider than some
        conversations; None: it won't) needs the graph's settings first, in the same
        transaction: sent together in pipeline mode, its four statements cost one round trip.
        """
        with self._translated():
            conn = self._transaction_conn()
            if conn is not None:  # inside atomic(): this transaction's connection, its own writes
                if graph_limit is not None:
                    conn.execute(GRAPH_SETTINGS, (ef_search(graph_limit),))
                return search_cursor(conn).execute(statement, params).fetchall()
            with self._pooled() as pooled:
                if graph_limit is None:
                    return search_cursor(pooled).execute(statement, params).fetchall()
                # Not `transaction()`, which waits for the server at its start and its end.
                with pooled.pipeline():
                    pooled.execute("BEGIN")
                    pooled.execute(GRAPH_SETTINGS, (ef_search(graph_limit),))
                    cursor = search_cursor(pooled).execute(statement, params)
                    pooled.execute("COMMIT")
                return cursor.fetchall()
