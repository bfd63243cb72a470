"""Embeddings in pgvector: the embedding cache, HNSW indexes built per model, vector search in SQL.

- **Vectors are pgvector values** in its binary form (no `pgvector` package); callers see
  float32 little-endian bytes, as on SQLite. pgvector refuses NaN and infinite components.
- **HNSW is built per model, after loading** (`ensure_vector_index`): inserting into an
  indexed table costs a graph insertion per row (~300 rows/s, against tens of thousands
  with COPY). The index is partial (one model's rows) on a cast to its dimensions;
  `vector_search` takes it for wide scopes and compares a conversation's items exactly.

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

from memoir.store.base import IndexScope
from memoir.store.postgres.parts import PostgresParts, scope_sql

__all__ = ["PostgresVectorTables", "from_pgvector", "pgvector_text", "to_pgvector", "vector_index_name"]

# Dimensions HNSW can index: `vector` up to 2,000, `halfvec` (16-bit) up to 4,000.
HNSW_VECTOR_DIMS = 2_000
HNSW_HALFVEC_DIMS = 4_000
# Candidates an HNSW search keeps: recall@10 on clustered vectors (bench/postgres_scale.py,
# 10,000 items) 0.63 at pgvector's default of 40, 0.87 at 100, 0.97 at 200 (2 ms).
HNSW_EF_SEARCH = 200


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


class _Vector:
    """A vector parameter: float32 little-endian bytes, sent as pgvector's binary form (`%b::vector`)."""

    __slots__ = ("blob",)

    def __init__(self, blob: bytes) -> None:
        self.blob = blob


class _VectorDumper(Dumper):
    format = Format.BINARY  # oid 0: the statement's `::vector` cast gives the parameter its type

    def dump(self, obj: Any) -> bytes:
        return to_pgvector(obj.blob)


def _cursor(conn: psycopg.Connection[Any]) -> psycopg.Cursor[Any]:
    cursor = conn.cursor()
    cursor.adapters.register_dumper(_Vector, _VectorDumper)
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


class PostgresVectorTables(PostgresParts):
    """Mixed into PostgresStore; relies on its `_conn`, `_read`, `atomic` and `_translated`."""

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
        """Cache vectors; a (model, hash) cached already keeps its vector."""
        if not pairs:
            return
        # In hash order: two writers saving overlapping vectors wait for each other in the
        # same order, never in a cycle.
        first: dict[str, bytes] = {}
        for digest, blob in pairs:
            first.setdefault(digest, blob)  # as INSERT OR IGNORE: the first of a repeated hash
        unique = sorted(first.items())
        with self._translated(), self.atomic():
            _cursor(self._conn()).executemany(
                "INSERT INTO embeddings (model, content_hash, embedding) VALUES (%s, %s, %b::vector)"
                " ON CONFLICT (model, content_hash) DO NOTHING",
                [(model, digest, _Vector(blob)) for digest, blob in unique],
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
            conn.execute("SET LOCAL maintenance_work_mem = '2GB'")  # a graph that outgrows it builds slowly
            conn.execute(statement)
        return name

    def vector_search(self, model: str, query: bytes, scope: IndexScope, limit: int) -> list[tuple[int, float]]:
        """(item id, cosine similarity), most similar first, of items in `scope` with a vector of `model`.

        Exact, unless `ensure_vector_index` built the model's HNSW index and the planner takes
        it (a wide scope); then pgvector's iterative scan goes on until `limit` items of the
        scope are found. Ties go to the older item.
        """
        dims = len(query) // 4
        if dims == 0 or limit <= 0:
            return []
        where, params = scope_sql(scope, "i")
        with self._translated(), self.atomic():
            conn = self._conn()
            cast: sql.Composable = sql.SQL("vector({})").format(sql.Literal(dims))
            if HNSW_VECTOR_DIMS < dims <= HNSW_HALFVEC_DIMS:  # half precision only where an index wants it
                found = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (vector_index_name(model, dims),)).fetchone()
                cast = _cast(dims) if found and found[0] else cast
            distance = sql.SQL("((e.embedding::{cast}) <=> (%b::vector::{cast}))").format(cast=cast)
            # A conversation's items are compared exactly (`+ 0` keeps the planner off the graph,
            # which walked a million vectors to find ten of one conversation: 562 ms p50).
            order = sql.SQL("{} + 0" if scope.conversation_ids is not None else "{}").format(distance)
            # The model as a literal: the partial index's condition must be provable when planning.
            statement = sql.SQL(
                "SELECT i.item_id, 1 - {distance} FROM embeddings e JOIN index_items i"
                " ON i.content_hash = e.content_hash WHERE e.model = {model}{scope} ORDER BY {order}, i.item_id"
                " LIMIT %s"
            ).format(
                distance=distance,
                order=order,
                model=sql.Literal(model),
                scope=sql.SQL(f" AND {where}" if where else ""),
            )
            conn.execute(
                "SELECT set_config('hnsw.iterative_scan', 'strict_order', true),"
                " set_config('hnsw.ef_search', %s, true)",
                (str(min(max(limit * 4, HNSW_EF_SEARCH), 1000)),),
            )
            rows = _cursor(conn).execute(statement, [_Vector(query), *params, _Vector(query), limit]).fetchall()
        return [(int(item_id), float(similarity)) for item_id, similarity in rows]
