"""`memoir migrate`: a home moved from SQLite to PostgreSQL and back loses nothing.

A real home (events, memories, a search index with embeddings, a timeline with summaries
and grips) goes to a real PostgreSQL and from there into a new SQLite file; every table's
rows and checksum agree at each step, and the copy answers as the original did.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir import Memoir
from tests.conftest import REPO, cli

EXAMPLE = REPO / "examples" / "conversation.jsonl"


@pytest.fixture
def sqlite_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home on the SQLite file (whatever --backend says), with something in every table."""
    monkeypatch.delenv("MEMOIR_STORE_URL", raising=False)
    home = tmp_path / "home"
    assert cli("init", home=home).exit_code == 0
    result = cli("ingest", str(EXAMPLE), home=home)
    assert result.exit_code == 0, result.stderr
    with Memoir.open(home, worker_enabled=True) as memoir:
        memoir.remember("The user's locker code is 12\x0034 \U0010ffff", conversation_id="default")
        assert memoir.flush(timeout=120)
    return home


def answers(memoir: Memoir) -> tuple[object, ...]:
    events = list(memoir.events(limit=1000, all_agents=True))
    memories = sorted((m.id, m.content, m.deleted) for m in memoir.memories(include_deleted=True))
    hits = [(h.text, h.score) for h in memoir.search("what does the user like?", k=5)]
    toc = [(n.node_id, n.title) for n in memoir.toc_root()]
    return events, memories, hits, toc


def assert_same(found: tuple[object, ...], before: tuple[object, ...]) -> None:
    """The same events, memories, timeline and hits; a hit's score to within float rounding (PostgreSQL
    compares vectors in float8, numpy in float32: 0.90915 may print 0.9091 on one and 0.9092 on the other)."""
    assert found[0] == before[0] and found[1] == before[1] and found[3] == before[3]
    hits, expected = cast(list[tuple[str, float]], found[2]), cast(list[tuple[str, float]], before[2])
    assert [text for text, _ in hits] == [text for text, _ in expected]
    assert [score for _, score in hits] == pytest.approx([score for _, score in expected], abs=1e-4)


def test_a_home_goes_to_postgresql_and_back_without_loss(
    sqlite_home: Path, postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memoir.open(sqlite_home, worker_enabled=False) as memoir:
        before = answers(memoir)
    assert before[0] and before[1] and before[3], "the home has events, memories and a timeline"

    there = cli("migrate", "--to", postgres_url, home=sqlite_home)
    assert there.exit_code == 0, there.stderr
    assert "every table's rows and checksum agree" in there.stdout
    for table in ("events", "memories", "index_items", "toc_nodes", "embeddings", "grips"):
        assert table in there.stdout

    with Memoir.open(sqlite_home, worker_enabled=False, store_url=postgres_url) as memoir:
        assert_same(answers(memoir), before)

    back = tmp_path / "back.db"
    again = cli("migrate", "--to", str(back), home=sqlite_home, MEMOIR_STORE_URL=postgres_url)
    assert again.exit_code == 0, again.stderr
    with Memoir.open(sqlite_home, worker_enabled=False, db_path=back) as memoir:
        assert_same(answers(memoir), before)


def test_it_refuses_a_database_that_holds_a_home_already(sqlite_home: Path, postgres_url: str) -> None:
    assert cli("migrate", "--to", postgres_url, home=sqlite_home).exit_code == 0
    second = cli("migrate", "--to", postgres_url, home=sqlite_home)
    assert second.exit_code == 1
    assert "already holds" in second.stderr and "empty database" in second.stderr


# -- where it may copy to: no PostgreSQL needed ----------------------------------------------------


@pytest.fixture
def small_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("MEMOIR_STORE_URL", raising=False)
    home = tmp_path / "home"
    assert cli("init", home=home).exit_code == 0
    with Memoir.open(home, worker_enabled=False) as memoir:
        memoir.remember("The user's locker is number 12", conversation_id="default")
    return home


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("", "name a PostgreSQL URL"),
        ("   ", "name a PostgreSQL URL"),
        ("{folder}", "is a folder"),
        ("{notes}", "is not a SQLite database"),
        ("{home}/memoir.db", "this home's own database"),
        ("{folder}/no/such/folder/x.db", "does not exist"),
    ],
)
def test_a_target_it_cannot_copy_to_is_named_and_left_as_it_was(
    small_home: Path, tmp_path: Path, target: str, said: str
) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("my own notes, not a database\n")
    to = target.format(folder=tmp_path, notes=notes, home=small_home)
    result = cli("migrate", "--to", to, home=small_home)
    assert result.exit_code in (1, 2)
    assert said in result.stderr
    assert notes.read_text() == "my own notes, not a database\n"


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(st.characters(codec="utf-8", exclude_characters="\x00/"), min_size=1, max_size=40))
def test_any_new_file_name_gets_the_whole_home_or_one_error_line(
    small_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)  # a relative name lands here, never in the repository
    folder = tmp_path / f"copy-{uuid.uuid4().hex}"
    folder.mkdir()
    result = cli("migrate", "--to", str(folder / name), home=small_home)
    if result.exit_code == 0:
        with Memoir.open(small_home, worker_enabled=False, db_path=folder / name) as copy:
            assert [m.content for m in copy.memories()] == ["The user's locker is number 12"]
    else:
        assert result.exit_code in (1, 2) and result.stderr.startswith("error: ") and "Traceback" not in result.stderr
