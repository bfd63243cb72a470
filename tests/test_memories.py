"""Memories: the Markdown vault as source of truth, soft deletes, history, sync with edits."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from memoir import InvalidInput, Memoir, MemoryKind, NotFound, Severity, StoreError
from memoir.vault import safe_name
from tests.conftest import message


@pytest.fixture
def memoir(open_memoir: Callable[..., Memoir]) -> Memoir:
    return open_memoir(embedding_provider="hashing")


def vault_files(home: Path) -> list[str]:
    return sorted(str(p.relative_to(home / "vault")) for p in (home / "vault").rglob("*.md"))


def test_a_memory_is_a_markdown_file_with_front_matter(memoir: Memoir, home: Path) -> None:
    memory = memoir.remember("Sam is allergic to peanuts", conversation_id="sam", tags=["important", "#health"])
    path = memoir.vault.path_of(memory)
    assert path.parent == home / "vault" / "entries" / "sam" / "facts"
    assert path.name.endswith(f"__{memory.id}.md")
    text = path.read_text()
    assert text.startswith("---\nid: " + memory.id + "\nrole: memory\nkind: fact\nconversation_id: sam\n")
    assert "tags: [important, health]" in text and text.endswith("---\nSam is allergic to peanuts\n")
    assert memory.source == "user" and memory.important


def test_typed_memories_have_their_folders_and_gotchas_a_severity(memoir: Memoir) -> None:
    gotcha = memoir.remember("Parse NOAA times as UTC", kind="gotcha", severity="high")
    decision = memoir.remember("We use Go for the backend", kind="decision")
    assert gotcha.severity is Severity.HIGH and memoir.vault.path_of(gotcha).parent.name == "gotchas"
    assert decision.kind is MemoryKind.DECISION and memoir.vault.path_of(decision).parent.name == "decisions"
    with pytest.raises(InvalidInput, match="severity: only gotchas have a severity"):
        memoir.remember("x", kind="fact", severity="high")
    with pytest.raises(InvalidInput, match="kind: unknown kind 'rumour'"):
        memoir.remember("x", kind="rumour")
    with pytest.raises(InvalidInput, match="text: must not be empty"):
        memoir.remember("  ")


def test_the_same_fact_again_changes_nothing_but_merges_tags(memoir: Memoir, home: Path) -> None:
    first = memoir.remember("Sam lives in Lisbon.")
    files = vault_files(home)
    assert memoir.remember("sam lives in  lisbon") == first
    assert vault_files(home) == files
    tagged = memoir.remember("Sam lives in Lisbon", tags=["important"])
    assert tagged.id == first.id and tagged.tags == ("important",) and tagged.created_at == first.created_at
    assert len(memoir.memories()) == 1


def test_an_update_leaves_a_tombstone_pointing_at_its_successor(memoir: Memoir, home: Path) -> None:
    jane = memoir.remember("My wife is Jane", conversation_id="sam")
    anne = memoir.book.update(jane.id, "My wife is Anne")
    assert [m.content for m in memoir.memories("sam")] == ["My wife is Anne"]
    [tombstone] = [m for m in memoir.memories("sam", include_deleted=True) if m.deleted]
    assert tombstone.id == jane.id and tombstone.replaced_by == anne.id
    assert any("deleted/facts" in f and jane.id in f for f in vault_files(home))
    assert [m.content for m in memoir.memory_history(anne.id)] == ["My wife is Jane", "My wife is Anne"]
    assert memoir.memory_history(jane.id) == memoir.memory_history(anne.id)
    assert [h.text for h in memoir.search("wife", conversation_id="sam", k=5)] == ["My wife is Anne"]


def test_forget_is_a_soft_delete(memoir: Memoir, home: Path) -> None:
    memory = memoir.remember("The staging password rotates monthly")
    tombstone = memoir.forget(memory.id)
    assert tombstone.deleted and memoir.memories() == []
    assert memoir.search("staging password") == []
    assert any(f.startswith("entries/default/deleted/facts/") for f in vault_files(home))
    assert memoir.forget(memory.id) == tombstone  # again: nothing more to do
    with pytest.raises(NotFound, match="no memory with id"):
        memoir.forget("01HN4QXKN6YWXVKZ3JMHP4BCDE")


@pytest.mark.parametrize("conversation", ["../../etc", "/etc/passwd", "..", "a/b", "con\\sole", ".hidden", "x" * 200])
def test_conversation_ids_never_lead_outside_the_vault(memoir: Memoir, home: Path, conversation: str) -> None:
    memory = memoir.remember("contained", conversation_id=conversation)
    path = memoir.vault.path_of(memory)
    assert path.resolve().is_relative_to((home / "vault" / "entries").resolve())
    assert path.parent.parent.name == safe_name(conversation) and "/" not in safe_name(conversation)
    assert memoir.memories(conversation)[0].conversation_id == conversation


def test_safe_names_are_readable_when_possible_and_distinct_always() -> None:
    assert safe_name("lighthouse") == "lighthouse"
    assert safe_name("a/b") != safe_name("a-b") and safe_name("a/b").startswith("a-b-")


def test_a_file_edited_by_hand_is_reindexed(memoir: Memoir, open_memoir: Callable[..., Memoir]) -> None:
    memory = memoir.remember("The team offsite is in Porto")
    path = memoir.vault.path_of(memory)
    path.write_text(path.read_text().replace("Porto", "Lisbon"))
    report = memoir.sync_vault()
    assert (report.changed, report.added, report.removed) == (1, 0, 0)
    assert [h.text for h in memoir.search("offsite")] == ["The team offsite is in Lisbon"]
    assert "Lisbon" in (memoir.vault.root / "facts.md").read_text()


def test_a_file_added_or_deleted_by_hand_appears_or_disappears(memoir: Memoir) -> None:
    kept = memoir.remember("Sam prefers dark mode")
    written = memoir.remember("Sam drinks oat milk")
    memoir.vault.path_of(written).unlink()  # a person deleted it
    new_file = memoir.vault.entries / "default" / "facts" / "20260101T000000__01HN4QXKN6YWXVKZ3JMHP4BCDE.md"
    new_file.write_text(
        "---\nid: 01HN4QXKN6YWXVKZ3JMHP4BCDE\nkind: fact\nconversation_id: default\n---\nSam cycles to work\n"
    )
    report = memoir.sync_vault()
    assert (report.added, report.removed) == (1, 1)
    assert {m.content for m in memoir.memories()} == {kept.content, "Sam cycles to work"}
    assert [h.text for h in memoir.search("oat milk")] != ["Sam drinks oat milk"]
    assert "Sam cycles to work" in [h.text for h in memoir.search("cycles to work")]


def test_broken_front_matter_is_reported_with_its_path_and_never_deleted(memoir: Memoir) -> None:
    broken = memoir.vault.entries / "default" / "facts" / "broken.md"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_text("---\nid: [unclosed\n---\nbody\n")
    report = memoir.sync_vault()
    assert len(report.broken) == 1 and str(broken) in report.broken[0] and "front matter" in report.broken[0]
    assert broken.exists()


def test_a_crash_between_file_and_index_is_repaired_on_restart(open_memoir: Callable[..., Memoir], home: Path) -> None:
    first = open_memoir(embedding_provider="hashing")
    from memoir.model import Memory, new_ulid

    orphan = Memory(id=new_ulid(1_700_000_000_000), kind="fact", content="Written just before the crash")
    first.vault.write(orphan)  # the file is durable, the index never heard of it
    first.close()
    again = open_memoir(embedding_provider="hashing")
    assert [m.id for m in again.memories()] == [orphan.id]
    assert [h.memory_id for h in again.search("crash")] == [orphan.id]


def test_a_crash_mid_delete_leaves_the_tombstone_in_charge(memoir: Memoir, open_memoir: Callable[..., Memoir]) -> None:
    memory = memoir.remember("Temporary fact")
    live = memoir.vault.path_of(memory)
    saved = live.read_text()
    memoir.forget(memory.id)
    live.write_text(saved)  # as if the process died after writing the tombstone, before unlinking
    memoir.sync_vault()
    assert memoir.memories() == [] and memoir.search("temporary fact") == []
    assert not live.exists()  # the interrupted delete is finished


def test_memories_appear_in_search_with_kind_and_provenance(memoir: Memoir) -> None:
    memoir.ingest({"session_id": "s", "conversation_id": "c", "event_type": "user_message", "text": "hello"})
    gotcha = memoir.remember("Never run migrations on Friday", kind="gotcha", severity="critical", conversation_id="c")
    [hit] = memoir.search("migrations friday", conversation_id="c", kinds=["gotcha"])
    assert (hit.kind, hit.memory_id, hit.metadata["severity"]) == ("gotcha", gotcha.id, "critical")
    context = memoir.build_context("can I run migrations today?", conversation_id="c")
    assert "[gotcha, critical] Never run migrations on Friday" in context.text


def test_reindex_keeps_memories_searchable(memoir: Memoir) -> None:
    memoir.remember("The VPN config lives in ops/vpn")
    memoir.reindex()
    assert [h.text for h in memoir.search("vpn config")] == ["The VPN config lives in ops/vpn"]


def test_with_git_every_change_is_a_commit_saying_why(open_memoir: Callable[..., Memoir], home: Path) -> None:
    memoir = open_memoir(embedding_provider="hashing", vault_git=True)
    [event_id] = memoir.ingest(
        {"session_id": "s", "conversation_id": "sam", "event_type": "user_message", "text": "My wife is Jane."}
    )
    memoir.flush()
    [jane] = memoir.memories("sam")
    memoir.book.update(jane.id, "The user's wife is Anne")
    subjects = memoir.book.git.log() if memoir.book.git else []
    assert subjects[-1] == f"remember fact {jane.id}: The user's wife is Jane (from events {event_id})"
    assert any(s.startswith(f"forget fact {jane.id}") and "replaced by" in s for s in subjects)
    assert (home / "vault" / ".git").is_dir()


def test_a_git_failure_never_blocks_a_write(
    open_memoir: Callable[..., Memoir], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memoir = open_memoir(embedding_provider="hashing", vault_git=True)
    monkeypatch.setenv("PATH", "/nonexistent")  # no git to be found
    memory = memoir.remember("Still saved without git")
    assert memoir.vault.path_of(memory).exists() and memoir.memories() == [memory]


def test_the_watcher_reindexes_a_file_edited_by_hand(open_memoir: Callable[..., Memoir]) -> None:
    import time

    memoir = open_memoir(embedding_provider="hashing", vault_watch=True)
    memory = memoir.remember("The retro is on Tuesday")
    path = memoir.vault.path_of(memory)
    path.write_text(path.read_text().replace("Tuesday", "Thursday"))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if [h.text for h in memoir.search("retro")] == ["The retro is on Thursday"]:
            break
        time.sleep(0.1)
    assert [h.text for h in memoir.search("retro")] == ["The retro is on Thursday"]


@pytest.mark.skipif(shutil.which("chattr") is None or os.geteuid() != 0, reason="needs chattr as root")
def test_a_read_only_vault_is_a_clear_error_and_loses_nothing(open_memoir: Callable[..., Memoir], home: Path) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    memoir.remember("written before the disk turned read-only")
    vault = home / "vault" / "entries" / "default"
    locked = subprocess.run(["chattr", "-R", "+i", str(vault)], capture_output=True, check=False).returncode == 0
    if not locked:
        pytest.skip("this filesystem cannot be made read-only")
    try:
        with pytest.raises(StoreError, match=r"cannot write .*check that the vault is writable"):
            memoir.remember("this one cannot be written")
        [event_id] = memoir.ingest(message("My dog is Rex."))
        assert memoir.flush(timeout=3) is False  # extraction keeps failing and waits in the outbox
        assert memoir.get_event(event_id).text == "My dog is Rex."
        assert memoir.store.outbox_entries(event_id=event_id)
    finally:
        subprocess.run(["chattr", "-R", "-i", str(vault)], capture_output=True, check=False)
    memoir.store.retry_failed()
    assert memoir.flush(timeout=30)
    assert "The user's dog is Rex" in [m.content for m in memoir.memories()]
