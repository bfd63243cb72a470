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

from memoir.store.base import IndexItem

__all__ = ["BM25_WEIGHTS", "ITEM_COLUMNS", "REMOVALS_KEPT", "items_to_write", "row_to_item"]

# Rows of the removal log kept before it is cut and searchers reload (a new generation).
REMOVALS_KEPT = 100_000

ITEM_COLUMNS = (
    "item_id, kind, ref, conversation_id, agent_id, session_id, role, created_ms, text, search_text,"
    " content_hash, event_ids, metadata, context_before, context_after"
)
# BM25 column weights: the item itself, the turn before it, the turn after it. Chosen on
# the LoCoMo dev set (bench/retrieval.py): neighbours carry the question a turn answers.
BM25_WEIGHTS = (1.0, 1.0, 0.5)


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
        event_ids=tuple(json.loads(ids)),
        metadata=json.loads(meta),
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
