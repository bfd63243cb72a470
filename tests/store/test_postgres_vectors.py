"""Vector search on PostgreSQL happens in the database, and its HNSW index arrives when it pays."""

from __future__ import annotations

from pathlib import Path

from memoir import Memoir
from memoir.index.database_vectors import DatabaseVectors
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
