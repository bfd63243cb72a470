"""Vector search on PostgreSQL happens in the database, and its HNSW index arrives when it pays."""

from __future__ import annotations

import array
from pathlib import Path
from typing import Any

from memoir import Memoir
from memoir.index.database_vectors import DatabaseVectors
from memoir.store import IndexItem
from tests.conftest import message

QUESTION = "which crane lifts type 2 containers?"


def hnsw_indexes(memoir: Memoir) -> list[str]:
    rows = memoir._parts.store._read(  # type: ignore[attr-defined]
        "SELECT indexname FROM pg_indexes WHERE tablename = 'embeddings' AND indexname LIKE 'embeddings_hnsw_%'"
    )
    return [row[0] for row in rows]


def test_the_hnsw_index_is_built_once_the_items_pass_the_threshold(tmp_path: Path, postgres_url: str) -> None:
    texts = [f"Note {i}: the harbour crane {i} lifts containers of type {i % 3}" for i in range(12)]
    options = {"store_url": postgres_url, "index_hnsw_threshold": 10, "embedding_provider": "hashing"}
    with Memoir.open(tmp_path / "home", worker_enabled=False, **options) as memoir:
        assert isinstance(memoir._parts.pipeline.vectors, DatabaseVectors)  # nothing held in memory
        memoir.ingest([message(t, conversation_id="port") for t in texts[:5]])
        assert memoir.flush(timeout=60)
        assert hnsw_indexes(memoir) == [], "below the threshold: exact search, cheap inserts"
        assert memoir.search(QUESTION, k=3, kinds=["turn"])

    with Memoir.open(tmp_path / "home", worker_enabled=False, **options) as memoir:  # counts afresh
        memoir.ingest([message(t, conversation_id="port") for t in texts[5:]])
        assert memoir.flush(timeout=60)
        assert len(hnsw_indexes(memoir)) == 1
        status = {job.name: job for job in memoir.scheduler_status()}
        assert status["vector_index"].runs == 1 and status["vector_index"].backlog == 0
        # The whole home is searched through the HNSW index; one conversation's scope exactly
        # (the planner is kept off the index there): both find the same turns.
        found = {h.text for h in memoir.search(QUESTION, k=3, kinds=["turn"])}
        exact = {h.text for h in memoir.search(QUESTION, k=3, kinds=["turn"], conversation_id="port")}
        assert found == exact, "the index answers as exact search does"


# -- each item's vectors where a conversation's scan reads them (issue 29) ---------------------


def item(ref: str, text: str, conversation: str = "c1", **fields: Any) -> IndexItem:
    return IndexItem(
        kind=fields.pop("kind", "turn"),
        ref=ref,
        conversation_id=conversation,
        created_ms=fields.pop("at", 0),
        text=text,
        search_text=text,
        content_hash=fields.pop("content_hash", f"h-{text}"),
        event_ids=(f"e-{ref}",),
        **fields,
    )


def vector(*values: float) -> bytes:
    return array.array("f", values).tobytes()


def copies(pg: Any) -> list[tuple[Any, ...]]:
    return sorted(
        pg._read(
            "SELECT item_id, model, conversation_id, agent_id, kind, created_ms, vector_send(embedding)"
            " FROM item_embeddings"
        )
    )


def joined(pg: Any) -> list[tuple[Any, ...]]:
    """What `item_embeddings` must hold: the join of the items and the vectors cached for their text."""
    return sorted(
        pg._read(
            "SELECT i.item_id, e.model, i.conversation_id, i.agent_id, i.kind, i.created_ms, vector_send(e.embedding)"
            " FROM index_items AS i JOIN embeddings AS e ON e.content_hash = i.content_hash"
        )
    )


def test_item_vectors_follow_every_change_to_items_and_vectors(pg: Any) -> None:
    pg.embeddings_save("m", [("h-one", vector(1, 0)), ("h-two", vector(0, 1))])
    pg.index_add([item("a", "one", agent_id="coder", at=5), item("b", "two", conversation="c2", kind="fact")])
    steps = [
        lambda: pg.embeddings_save("n", [("h-one", vector(1, 1, 1))]),  # a second model, after the items
        lambda: pg.index_add([item("c", "three"), item("d", "one", conversation="c3")]),  # no vector yet; one shared
        lambda: pg.embeddings_save("m", [("h-three", vector(2, 2))]),  # its vector arrives after it
        lambda: pg.index_add([item("a", "two", agent_id="coder", at=5)]),  # replaced: another text
        lambda: pg.index_set_context_after(max(pg.index_items(list(range(1, 9)))), "after"),  # not the vector
        lambda: pg.index_remove(["b", "missing"]),
        lambda: pg.index_clear(),
        lambda: pg.index_add([item("e", "one")]),
    ]
    assert copies(pg) == joined(pg) and len(copies(pg)) == 2
    for step in steps:
        step()
        assert copies(pg) == joined(pg)
    assert [row[1:3] for row in copies(pg)] == [("m", "c1"), ("n", "c1")]


def test_a_database_of_an_earlier_version_gets_its_item_vectors(postgres_server: Any) -> None:
    """Step 008 fills `item_embeddings` from the items and vectors already stored."""
    import psycopg

    from memoir.store.postgres import PostgresStore
    from memoir.store.postgres.schema import STEPS, apply_steps

    url = postgres_server.create_database("before_008")
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            apply_steps(conn, [step for step in STEPS if step[0] < "008"])
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(
                "INSERT INTO index_items (kind, ref, conversation_id, created_ms, text, search_text, content_hash,"
                " event_ids, metadata) VALUES ('turn', 'a', 'c1', 1, 'x', 'x', 'h1', '[]', '{}'),"
                " ('turn', 'b', 'c2', 2, 'y', 'y', 'h2', '[]', '{}')"
            )
            conn.execute("INSERT INTO embeddings VALUES ('m', 'h1', '[1,2]'), ('n', 'h1', '[3]'), ('m', 'h9', '[4,5]')")
        store = PostgresStore(url)  # migrates
        try:
            assert [row[:3] for row in copies(store)] == [(1, "m", "c1"), (1, "n", "c1")]
            assert copies(store) == joined(store)
        finally:
            store.close()
    finally:
        postgres_server.drop_database("before_008")
