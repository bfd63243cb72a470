"""The search index's rows as both backends keep them, and the choices both make alike.

How each engine ranks keywords differs (FTS5's BM25 on SQLite, the same formula in SQL over a
weighted tsvector on PostgreSQL), as does where vectors are searched; the items, their
columns, when an item is written again, and how long the removal log grows are one thing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from memoir.store.records import IndexItem
from memoir.store.sql.parts import SQLParts

__all__ = ["BM25_WEIGHTS", "ITEM_COLUMNS", "REMOVALS_KEPT", "IndexReads", "items_to_write", "row_to_item"]

# Rows of the removal log kept before it is cut and searchers reload (a new generation).
REMOVALS_KEPT = 100_000

ITEM_COLUMNS = (
    "item_id, kind, ref, conversation_id, agent_id, session_id, role, created_ms, text, search_text,"
    " content_hash, event_ids, metadata, context_before, context_after"
)
# BM25 column weights: the item itself, the turn before it, the turn after it. Chosen on
# the LoCoMo dev set (bench/retrieval.py): neighbours carry the question a turn answers.
BM25_WEIGHTS = (1.0, 1.0, 0.5)


_DECODER = json.JSONDecoder()


def _from_json(text: str) -> Any:
    """A column memoir wrote with `json.dumps`: the C scanner alone, without `json.loads`' checks
    and whitespace scans (a quarter of the time; two columns of every candidate of every search)."""
    try:
        return _DECODER.raw_decode(text)[0]
    except ValueError:  # not as written (leading spaces): the full parser, and its error
        return json.loads(text)


def row_to_item(row: Sequence[Any]) -> IndexItem:
    item_id, kind, ref, conversation, agent, session, role, created, text, search, digest, ids, meta, before, after = (
        row
    )
    return IndexItem(
        kind=kind,
        ref=ref,
        conversation_id=conversation,
        created_ms=created,
        text=text,
        search_text=search,
        content_hash=digest,
        event_ids=tuple(_from_json(ids)),
        metadata=_from_json(meta),
        agent_id=agent,
        session_id=session,
        role=role,
        item_id=item_id,
        context_before=before,
        context_after=after,
    )


def items_to_write(items: Sequence[IndexItem], stored: Mapping[str, IndexItem]) -> list[IndexItem]:
    """What of `items` changes the index, given the items `stored` under their refs.

    An item equal to the stored one is left out: it keeps its id, so a search that found it
    still finds it (a reindex writes every item again, decision 93). An item that names no
    turn after it keeps the one recorded: a rebuild's page does not know the next turn yet,
    and a turn's item is otherwise written once, before the turn after it arrives.
    """
    changed: list[IndexItem] = []
    for item in items:
        old = stored.get(item.ref)
        if old is not None and not item.context_after:
            item = replace(item, context_after=old.context_after)
        if old is None or replace(old, item_id=None) != replace(item, item_id=None):
            changed.append(item)
    return changed


class IndexReads(SQLParts):
    """The search index's bookkeeping reads, alike on both engines: its generation, the removal
    log a searcher follows (decision 58), and counts for `memoir doctor` and `status`."""

    def index_generation(self) -> int:
        return int(self._rows("SELECT value FROM index_state WHERE key = 'generation'")[0][0])

    def _item_count(self) -> int:
        """The items of the index, as its triggers keep the count (no row is read)."""
        return int(self._rows("SELECT value FROM index_state WHERE key = 'items'")[0][0])

    def index_removals(self, after_seq: int | None) -> tuple[list[int], int]:
        """(ids of items removed after log position `after_seq`, the log's latest position).

        `None` asks only for the latest position (a searcher about to load every vector).
        """
        if after_seq is None:
            return [], int(self._rows("SELECT coalesce(max(seq), 0) FROM index_removals")[0][0])
        rows = self._rows("SELECT seq, item_id FROM index_removals WHERE seq > ? ORDER BY seq", (after_seq,))
        return [int(row[1]) for row in rows], int(rows[-1][0]) if rows else after_seq

    def index_count(self, kind: str | None = None) -> int:
        if kind is None:
            return int(self._rows("SELECT count(*) FROM index_items")[0][0])
        return int(self._rows("SELECT count(*) FROM index_items WHERE kind = ?", (kind,))[0][0])

    def index_without_vectors(self, model: str) -> int:
        """Items with no cached vector of `model` (indexed under another embedder): vector search misses them."""
        return int(
            self._rows(
                "SELECT count(*) FROM index_items i WHERE NOT EXISTS"
                " (SELECT 1 FROM embeddings e WHERE e.model = ? AND e.content_hash = i.content_hash)",
                (model,),
            )[0][0]
        )
