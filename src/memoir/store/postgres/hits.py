"""Reads that turn a search's ranked items into hits, one query for all of them (PostgreSQL).

Each hit carries its neighbouring turns as context: a search's last round trip, after
`candidates.py`'s statements (the candidates' vectors come with it; `item_vectors` serves
`DatabaseVectors.vectors_of`). On SQLite a query costs tens of microseconds and one per hit is
nothing; on PostgreSQL a round trip costs a fraction of a millisecond or more, so these read
all the hits' rows at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from memoir.store.postgres.text import unescaped
from memoir.store.postgres.vectors import PostgresVectorTables, from_pgvector
from memoir.store.records import IndexItem
from memoir.store.sql.search import row_to_item as _row_to_item

__all__ = ["PostgresHitReads"]

_COLUMNS = (
    "n.item_id, n.kind, n.ref, n.conversation_id, n.agent_id, n.session_id, n.role, n.created_ms, n.text,"
    " n.search_text, n.content_hash, n.event_ids, n.metadata, n.context_before, n.context_after"
)
_SAME_SESSION = (
    "n.conversation_id = i.conversation_id AND n.session_id = i.session_id AND n.kind = i.kind"
    " AND n.agent_id IS NOT DISTINCT FROM i.agent_id"
)
# For each hit: up to `before` items of its session just before it, and `after` just after.
_NEIGHBOURS = f"""
SELECT i.item_id, x.side, x.* FROM index_items AS i
CROSS JOIN LATERAL (
    (SELECT 0 AS side, {_COLUMNS} FROM index_items AS n
     WHERE {_SAME_SESSION} AND (n.created_ms, n.item_id) < (i.created_ms, i.item_id)
     ORDER BY n.created_ms DESC, n.item_id DESC LIMIT %s)
    UNION ALL
    (SELECT 1 AS side, {_COLUMNS} FROM index_items AS n
     WHERE {_SAME_SESSION} AND (n.created_ms, n.item_id) > (i.created_ms, i.item_id)
     ORDER BY n.created_ms, n.item_id LIMIT %s)
) AS x
WHERE i.item_id = ANY(%s::bigint[]) AND i.session_id IS NOT NULL
"""


class PostgresHitReads(PostgresVectorTables):
    def index_neighbours_many(self, items: Sequence[IndexItem], before: int, after: int) -> dict[int, list[IndexItem]]:
        """`index_neighbours` of each item (by item id), in one query."""
        ids = [item.item_id for item in items if item.item_id is not None]
        found: dict[int, tuple[list[IndexItem], list[IndexItem]]] = {item_id: ([], []) for item_id in ids}
        if ids and (before > 0 or after > 0):
            # Read as a search's candidates are (`vectors.search_cursor`, psycopg's C loaders): the
            # escaping loader is a call into Python for each of some 300 strings a search reads here.
            for row in self._read_vectors(_NEIGHBOURS, [before, after, ids], None):
                hit, side, _, *columns = row
                found[hit][side].append(_row_to_item(unescaped(columns)))
        return {item_id: [*reversed(earlier), *later] for item_id, (earlier, later) in found.items()}

    def item_vectors(self, model: str, item_ids: Sequence[int]) -> dict[int, bytes]:
        """The vectors of `model` of these items (float32 little-endian bytes), in one query."""
        if not item_ids:
            return {}
        rows = self._read(
            "SELECT item_id, vector_send(embedding) FROM item_embeddings"
            " WHERE model = %s AND item_id = ANY(%s::bigint[])",
            (model, list(item_ids)),
        )
        return {int(item_id): from_pgvector(data) for item_id, data in rows}
