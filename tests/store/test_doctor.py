"""`memoir doctor`: disagreements between events, vault and index are reported, not hidden."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memoir import Memoir
from tests.conftest import cli, message


def levels(memoir: Memoir) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for finding in memoir.doctor():
        found.setdefault(finding.area, []).append(f"{finding.level}: {finding.message}")
    return found


def test_a_healthy_home_is_all_ok_and_says_rerank_is_skipped(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    memoir.ingest(message("I live in Lisbon"))
    memoir.flush()
    report = levels(memoir)
    assert report["events"][0].startswith("ok: 1 event;")
    assert report["vault"] == ["ok: the index agrees with 1 memory file"]
    assert report["index"][0].startswith("ok:")
    assert "ok: rerank: none configured, the stage is skipped (search.rerank)" in report["models"]
    assert any("no llm.model configured" in line for line in report["models"])


def test_files_changed_by_hand_and_broken_files_are_reported(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    memory = memoir.remember("The offsite is in Porto")
    path = memoir.memory_path(memory)
    path.write_text(path.read_text().replace("Porto", "Faro"))
    broken = path.parent / "broken.md"
    broken.write_text("no front matter here")
    report = levels(memoir)["vault"]
    assert any(line.startswith("error: unreadable memory file, left alone:") and str(broken) in line for line in report)
    assert any("1 memory file changed on disk" in line for line in report)


def test_a_damaged_index_is_an_error_that_names_the_cure(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    memoir.ingest(message("I have two cats"))
    memoir.flush()
    memoir._parts.store.index_clear()
    [finding] = [f for f in memoir.doctor() if f.area == "index"]
    assert finding.level == "error" and "memoir reindex" in finding.message
    # Counted as said: "1 event", never "1 event(s)".
    assert finding.message.startswith("1 event and 1 memory are missing from the search index"), finding.message
    memoir.reindex()
    assert [f.level for f in memoir.doctor() if f.area == "index"] == ["ok"]


def test_the_cli_exits_1_on_errors(home: Path) -> None:
    cli("init", home=home, MEMOIR_EMBEDDING_PROVIDER="hashing")
    ok = cli("doctor", home=home, MEMOIR_EMBEDDING_PROVIDER="hashing")
    assert ok.exit_code == 0, ok.stdout + ok.stderr
    assert "rerank: none configured" in ok.stdout
    (home / "vault" / "entries" / "x").mkdir(parents=True)
    (home / "vault" / "entries" / "x" / "bad.md").write_text("---\nid: [\n---\n")
    bad = cli("doctor", home=home, MEMOIR_EMBEDDING_PROVIDER="hashing")
    assert bad.exit_code == 1 and "unreadable memory file" in bad.stdout


def test_a_changed_embedding_model_is_an_error_that_names_the_cure(home: Path) -> None:
    with Memoir.open(home, worker_enabled=False, embedding_provider="hashing") as memoir:
        memoir.ingest(message("I keep bees on the roof"))
        memoir.flush()
    with Memoir.open(home, worker_enabled=False, embedding_provider="local") as memoir:
        [finding] = [f for f in memoir.doctor() if f.area == "index"]
        assert finding.level == "error" and "have no vector of the embedding model" in finding.message
        memoir.reindex()
        assert [f.level for f in memoir.doctor() if f.area == "index"] == ["ok"]
        found = {hit.text for hit in memoir.search("beekeeping on the roof")[:2]}
        assert found == {"I keep bees on the roof", "The user keeps bees on the roof"}  # the turn and its fact
