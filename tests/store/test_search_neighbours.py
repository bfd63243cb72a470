"""A hit's neighbouring turns (SQLite's `index_neighbours_many`, one statement for many hits).

What a search shows around each hit: up to `before` items of the same conversation, session,
kind and agent just before it and `after` just after, in time order (ties by item id), never
the hit itself; an item without a session has none. Checked against that definition written
plainly in Python, over generated items (same-millisecond ties, other agents and kinds,
repeated hits, more hits than one statement takes), and PostgreSQL's statement against the same.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir.store import IndexItem, SQLiteStore
from memoir.store.sqlite import search as sqlite_search
from tests.postgres_server import postgres_binaries

T0 = 1_714_550_400_000


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("neighbours")


@pytest.fixture
def fresh(folder: Path) -> Iterator[SQLiteStore]:
    store = SQLiteStore(folder / "m.db")
    try:
        store.index_clear()
        yield store
    finally:
        store.close()


def every_item(store: Any) -> list[IndexItem]:
    return [
        item
        for conversation in ("c1", "c2")
        for kind in ("turn", "fact")
        for item in store.index_items_of_kind(kind, conversation)
    ]


def expected(items: Sequence[IndexItem], hit: IndexItem, before: int, after: int) -> list[str]:
    """The definition: same conversation, session, kind and agent; by (created_ms, item_id)."""
    if hit.session_id is None:
        return []
    key = (hit.created_ms, hit.item_id or 0)
    alike = sorted(
        (
            (i.created_ms, i.item_id or 0, i.ref)
            for i in items
            if (i.conversation_id, i.session_id, i.kind, i.agent_id)
            == (hit.conversation_id, hit.session_id, hit.kind, hit.agent_id)
        ),
    )
    earlier = [ref for at, item_id, ref in alike if (at, item_id) < key]
    later = [ref for at, item_id, ref in alike if (at, item_id) > key]
    return [*earlier[max(0, len(earlier) - before) :], *later[:after]]


rows = st.lists(
    st.tuples(
        st.sampled_from(["c1", "c2"]),
        st.sampled_from(["s1", "s2", None]),
        st.sampled_from(["turn", "fact"]),
        st.sampled_from([None, "coder"]),
        st.integers(0, 6),  # few milliseconds: many ties
    ),
    min_size=1,
    max_size=40,
)


Rows = list[tuple[str, str | None, str, str | None, int]]


def check_neighbours(store: Any, rows: Rows, before: int, after: int, data: st.DataObject) -> None:
    store.index_clear()
    store.index_add(
        [
            IndexItem(
                kind=kind,
                ref=f"r{n}",
                conversation_id=conversation,
                created_ms=T0 + at,
                text=f"text {n}",
                search_text=f"text {n}",
                content_hash=f"h{n}",
                event_ids=(f"e{n}",),
                session_id=session,
                agent_id=agent,
            )
            for n, (conversation, session, kind, agent, at) in enumerate(rows)
        ]
    )
    stored = every_item(store)
    hits = data.draw(st.lists(st.sampled_from(stored), max_size=12))  # repeats allowed
    found = store.index_neighbours_many(hits, before, after)
    assert set(found) == {hit.item_id for hit in hits}
    for hit in hits:
        assert [n.ref for n in found[hit.item_id or 0]] == expected(stored, hit, before, after)
        assert [n.ref for n in store.index_neighbours(hit, before, after)] == expected(stored, hit, before, after)


ON_POSTGRES = pytest.param(
    "pg",
    marks=[
        pytest.mark.postgres,
        pytest.mark.skipif(postgres_binaries() is None, reason="PostgreSQL for tests: pip install -e '.[dev]'"),
    ],
)


@pytest.mark.sqlite_only  # one case per engine below, not the tier's two per test
@pytest.mark.parametrize("engine", ["fresh", ON_POSTGRES])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=rows, before=st.integers(0, 3), after=st.integers(0, 3), data=st.data())
def test_each_hit_gets_the_items_just_around_it_in_its_own_session(
    engine: str, request: pytest.FixtureRequest, rows: Rows, before: int, after: int, data: st.DataObject
) -> None:
    check_neighbours(request.getfixturevalue(engine), rows, before, after, data)


@pytest.mark.sqlite_only
def test_more_hits_than_one_statement_takes_are_read_in_several(
    fresh: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_search, "_HITS_PER_READ", 3)
    fresh.index_add(
        [
            IndexItem(
                kind="turn",
                ref=f"t{n}",
                conversation_id="c1",
                created_ms=T0 + n,
                text=f"turn {n}",
                search_text=f"turn {n}",
                content_hash=f"h{n}",
                event_ids=(f"e{n}",),
                session_id="s1",
            )
            for n in range(10)
        ]
    )
    stored = sorted(every_item(fresh), key=lambda i: i.created_ms)
    found = fresh.index_neighbours_many(stored, 1, 1)
    assert [[n.ref for n in found[i.item_id or 0]] for i in stored] == [
        ["t1"],
        *[[f"t{n - 1}", f"t{n + 1}"] for n in range(1, 9)],
        ["t8"],
    ]
