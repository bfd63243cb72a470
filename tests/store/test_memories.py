"""Memories: the Markdown vault as source of truth, soft deletes, history, sync with edits."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir import InvalidInput, Memoir, Memory, MemoryKind, NotFound, Severity, StoreError
from memoir.model import new_ulid
from memoir.vault import safe_name
from memoir.vault import vault as vault_module
from memoir.vault.files import render_memory
from tests.conftest import message


@pytest.fixture
def memoir(open_memoir: Callable[..., Memoir]) -> Memoir:
    return open_memoir(embedding_provider="hashing")


def vault_files(home: Path) -> list[str]:
    return sorted(str(p.relative_to(home / "vault")) for p in (home / "vault").rglob("*.md"))


def file_of(memory: Memory, home: Path) -> Path:
    """A memory's one file: vault/entries/<conversation>/[deleted/]<kind>s/<time>__<id>.md."""
    [path] = (home / "vault" / "entries").rglob(f"*__{memory.id}.md")
    return path


def test_a_memory_is_a_markdown_file_with_front_matter(memoir: Memoir, home: Path) -> None:
    memory = memoir.remember("Sam is allergic to peanuts", conversation_id="sam", tags=["important", "#health"])
    path = file_of(memory, home)
    assert path.parent == home / "vault" / "entries" / "sam" / "facts"
    text = path.read_text()
    assert text.startswith("---\nid: " + memory.id + "\nrole: memory\nkind: fact\nconversation_id: sam\n")
    assert "tags: [important, health]" in text and text.endswith("---\nSam is allergic to peanuts\n")
    assert memory.source == "user" and memory.important


def test_typed_memories_have_their_folders_and_gotchas_a_severity(memoir: Memoir, home: Path) -> None:
    gotcha = memoir.remember("Parse NOAA times as UTC", kind="gotcha", severity="high")
    decision = memoir.remember("We use Go for the backend", kind="decision")
    assert gotcha.severity is Severity.HIGH and file_of(gotcha, home).parent.name == "gotchas"
    assert decision.kind is MemoryKind.DECISION and file_of(decision, home).parent.name == "decisions"
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


def tell(memoir: Memoir, *texts: str) -> list[str]:
    """The user says each text in conversation `sam`; returns the event ids once the facts are extracted."""
    ids = memoir.ingest([message(text, session_id=f"s{n}", conversation_id="sam") for n, text in enumerate(texts)])
    memoir.flush()
    return ids


# Updates happen through reconciliation: the user corrects a fact, as in the README.
def test_an_update_leaves_a_tombstone_pointing_at_its_successor(memoir: Memoir, home: Path) -> None:
    tell(memoir, "My wife is Jane.")
    [jane] = memoir.memories("sam")
    tell(memoir, "Sorry, I misspoke: my wife is Anne.")
    [anne] = memoir.memories("sam")
    assert anne.content == "The user's wife is Anne"
    [tombstone] = [m for m in memoir.memories("sam", include_deleted=True) if m.deleted]
    assert tombstone.id == jane.id and tombstone.replaced_by == anne.id
    assert file_of(jane, home).parent == home / "vault" / "entries" / "sam" / "deleted" / "facts"
    assert [m.content for m in memoir.memory_history(anne.id)] == ["The user's wife is Jane", "The user's wife is Anne"]
    assert memoir.memory_history(jane.id) == memoir.memory_history(anne.id)
    assert [h.text for h in memoir.search("wife", conversation_id="sam", kinds=["fact"], k=5)] == [anne.content]


def test_forget_is_a_soft_delete(memoir: Memoir, home: Path) -> None:
    memory = memoir.remember("The staging password rotates monthly")
    tombstone = memoir.forget(memory.id)
    assert tombstone.deleted and memoir.memories() == []
    assert memoir.search("staging password") == []
    assert file_of(memory, home).parent == home / "vault" / "entries" / "default" / "deleted" / "facts"
    assert memoir.forget(memory.id) == tombstone  # again: nothing more to do
    with pytest.raises(NotFound, match="no memory with id"):
        memoir.forget("01HN4QXKN6YWXVKZ3JMHP4BCDE")


@pytest.mark.parametrize("conversation", ["../../etc", "/etc/passwd", "..", "a/b", "con\\sole", ".hidden", "x" * 200])
def test_conversation_ids_never_lead_outside_the_vault(memoir: Memoir, home: Path, conversation: str) -> None:
    memory = memoir.remember("contained", conversation_id=conversation)
    [path] = home.parent.rglob(f"*{memory.id}.md")  # wherever it went under the test's folder
    assert path.resolve().is_relative_to((home / "vault" / "entries").resolve())
    assert path.parent.parent.name == safe_name(conversation) and "/" not in safe_name(conversation)
    assert memoir.memories(conversation) == [memory]


def test_safe_names_are_readable_when_possible_and_distinct_always() -> None:
    assert safe_name("lighthouse") == "lighthouse"
    assert safe_name("a/b") != safe_name("a-b") and safe_name("a/b").startswith("a-b-")


def test_a_file_edited_by_hand_is_reindexed(memoir: Memoir, home: Path) -> None:
    memory = memoir.remember("The team offsite is in Porto")
    path = file_of(memory, home)
    path.write_text(path.read_text().replace("Porto", "Lisbon"))
    report = memoir.sync_vault()
    assert (report.changed, report.added, report.removed) == (1, 0, 0)
    assert [m.content for m in memoir.memories()] == ["The team offsite is in Lisbon"]
    assert [h.text for h in memoir.search("offsite")] == ["The team offsite is in Lisbon"]
    facts_page = (home / "vault" / "facts.md").read_text()
    assert "The team offsite is in Lisbon" in facts_page and "Porto" not in facts_page


def test_opening_a_home_reads_only_the_notes_that_changed_since_they_were_last_read(
    open_memoir: Callable[..., Memoir], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memoir = open_memoir()
    memories = [memoir.remember(f"Sam's locker number is {n}") for n in range(5)]
    memoir.close()
    edited = file_of(memories[2], home)
    edited.write_text(edited.read_text().replace("number is 2", "number is 20"))
    parsed: list[Path] = []
    real_parse = vault_module.parse_memory
    monkeypatch.setattr(vault_module, "parse_memory", lambda path, text: parsed.append(path) or real_parse(path, text))

    reopened = open_memoir()  # its vault sync reads every note's bytes, and parses only the edited one

    assert set(parsed) == {edited}  # (twice: once to find the change, once inside the write lock to apply it)
    assert sorted(m.content for m in reopened.memories()) == [
        "Sam's locker number is 0",
        "Sam's locker number is 1",
        "Sam's locker number is 20",
        "Sam's locker number is 3",
        "Sam's locker number is 4",
    ]
    parsed.clear()
    assert reopened.sync_vault().changed == 0 and parsed == []


def test_a_file_added_or_deleted_by_hand_appears_or_disappears(memoir: Memoir, home: Path) -> None:
    kept = memoir.remember("Sam prefers dark mode")
    written = memoir.remember("Sam drinks oat milk")
    file_of(written, home).unlink()  # a person deleted it
    new_file = home / "vault" / "entries" / "default" / "facts" / "20260101T000000__01HN4QXKN6YWXVKZ3JMHP4BCDE.md"
    new_file.write_text(
        "---\nid: 01HN4QXKN6YWXVKZ3JMHP4BCDE\nkind: fact\nconversation_id: default\n---\nSam cycles to work\n"
    )
    report = memoir.sync_vault()
    assert (report.added, report.removed) == (1, 1)
    assert {m.content for m in memoir.memories()} == {kept.content, "Sam cycles to work"}
    assert all(h.memory_id != written.id and h.text != written.content for h in memoir.search("oat milk"))
    assert memoir.search("cycles to work")[0].memory_id == "01HN4QXKN6YWXVKZ3JMHP4BCDE"


def test_broken_front_matter_is_reported_with_its_path_and_never_deleted(memoir: Memoir, home: Path) -> None:
    broken = home / "vault" / "entries" / "default" / "facts" / "broken.md"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_text("---\nid: [unclosed\n---\nbody\n")
    report = memoir.sync_vault()
    [reported] = report.broken
    assert str(broken) in reported and "front matter" in reported
    assert broken.exists() and memoir.memories() == []


def test_a_crash_between_file_and_index_is_repaired_on_restart(open_memoir: Callable[..., Memoir], home: Path) -> None:
    open_memoir(embedding_provider="hashing").close()
    orphan = Memory(id=new_ulid(1_700_000_000_000), kind="fact", content="Written just before the crash")
    path = home / "vault" / "entries" / "default" / "facts" / f"20231114T221320__{orphan.id}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_memory(orphan))  # the file is durable, the index never heard of it
    again = open_memoir(embedding_provider="hashing")
    assert again.memories() == [orphan]
    assert [h.memory_id for h in again.search("crash")] == [orphan.id]


def test_a_note_put_back_after_a_forget_is_left_alone_and_the_tombstone_stays_in_charge(
    memoir: Memoir, home: Path
) -> None:
    memory = memoir.remember("Temporary fact")
    live = file_of(memory, home)
    saved = live.read_text()
    memoir.forget(memory.id)
    live.write_text(saved)  # the forget was acknowledged: this note is the user's now
    memoir.sync_vault()
    assert memoir.memories() == [] and memoir.search("temporary fact") == []
    assert live.read_text() == saved  # never deleted; reported as claiming a forgotten memory's id
    assert any("claims the id" in finding.message for finding in memoir.doctor())


def test_a_forget_that_never_committed_is_rolled_back(memoir: Memoir, home: Path) -> None:
    memory = memoir.remember("Temporary fact")
    live = file_of(memory, home)
    tombstone = memory.tombstone(datetime.now(UTC))
    grave = home / "vault" / "entries" / "default" / "deleted" / "facts" / live.name
    grave.parent.mkdir(parents=True)
    grave.write_text(render_memory(tombstone))  # a crash after the tombstone, before the commit
    report = memoir.sync_vault()
    assert not grave.exists() and live.exists() and report.broken == []
    assert [m.id for m in memoir.memories()] == [memory.id]
    assert [h.memory_id for h in memoir.search("temporary fact")] == [memory.id]


def test_memories_appear_in_search_with_kind_and_provenance(memoir: Memoir) -> None:
    memoir.ingest({"session_id": "s", "conversation_id": "c", "event_type": "user_message", "text": "hello"})
    gotcha = memoir.remember("Never run migrations on Friday", kind="gotcha", severity="critical", conversation_id="c")
    [hit] = memoir.search("migrations friday", conversation_id="c", kinds=["gotcha"])
    assert (hit.kind, hit.memory_id, hit.metadata["severity"]) == ("gotcha", gotcha.id, "critical")
    context = memoir.build_context("can I run migrations today?", conversation_id="c")
    assert "Gotcha (critical): Never run migrations on Friday" in context.text


def test_reindex_keeps_memories_searchable(memoir: Memoir) -> None:
    memoir.remember("The VPN config lives in ops/vpn")
    memoir.reindex()
    assert [h.text for h in memoir.search("vpn config")] == ["The VPN config lives in ops/vpn"]


def test_with_git_every_change_is_a_commit_saying_why(open_memoir: Callable[..., Memoir], home: Path) -> None:
    memoir = open_memoir(embedding_provider="hashing", vault_git=True)
    [said_jane] = tell(memoir, "My wife is Jane.")
    [jane] = memoir.memories("sam")
    [said_anne] = tell(memoir, "Sorry, I misspoke: my wife is Anne.")
    [anne] = memoir.memories("sam")
    log = ["git", "-C", str(home / "vault"), "log", "--format=%s"]
    subjects = subprocess.run(log, capture_output=True, text=True, check=True).stdout.splitlines()[::-1]
    assert subjects == [
        f"remember fact {jane.id}: The user's wife is Jane (from events {said_jane})",
        f"remember fact {anne.id}: The user's wife is Anne (from events {said_anne})",
        f"forget fact {jane.id}: The user's wife is Jane (replaced by {anne.id})",
    ]


def test_a_git_failure_never_blocks_a_write(
    open_memoir: Callable[..., Memoir], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memoir = open_memoir(embedding_provider="hashing", vault_git=True)
    monkeypatch.setenv("PATH", "/nonexistent")  # no git to be found
    memory = memoir.remember("Still saved without git")
    assert file_of(memory, home).is_file() and memoir.memories() == [memory]


def test_the_watcher_reindexes_a_file_edited_by_hand(open_memoir: Callable[..., Memoir], home: Path) -> None:
    memoir = open_memoir(embedding_provider="hashing", vault_watch=True)
    memory = memoir.remember("The retro is on Tuesday")
    path = file_of(memory, home)
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
        waiting = memoir.status()
        assert {**waiting.outbox_pending, **waiting.outbox_failed} == {"extract_facts": 1}
    finally:
        subprocess.run(["chattr", "-R", "-i", str(vault)], capture_output=True, check=False)
    memoir.retry_failed()
    assert memoir.flush(timeout=30)
    assert "The user's dog is Rex" in [m.content for m in memoir.memories()]


@given(
    plan=st.lists(
        st.tuples(st.sampled_from(["plain", "important", "IMPORTANT", "not-important"]), st.booleans()),
        min_size=1,
        max_size=30,
    )
)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_facts_page_holds_every_important_memory_and_the_latest_others(
    plan: list[tuple[str, bool]], tmp_path_factory: pytest.TempPathFactory, fresh_store: Callable[[], dict[str, str]]
) -> None:
    """What `memory_key_facts` reads is what the page would take from every memory."""
    home = tmp_path_factory.mktemp("home")
    with Memoir.open(home, embedding_provider="hashing", worker_enabled=False, **fresh_store()) as memoir:
        for number, (tag, forgotten) in enumerate(plan):
            memory = memoir.remember(f"fact number {number}", tags=[] if tag == "plain" else [tag])
            if forgotten:
                memoir.forget(memory.id)
        store = memoir._parts.store
        live = sorted(store.memory_list(), key=lambda m: (m.created_at, m.id), reverse=True)
        others = [m.id for m in live if not m.important][:3]
        expected = {m.id for m in live if m.important} | set(others)
        assert {m.id for m in store.memory_key_facts(3)} == expected


def test_a_message_may_name_whom_the_users_message_before_it_spoke_of(memoir: Memoir) -> None:
    """ "His name is Herr Vogel" after "… a complaint to my landlord": the landlord's name. Only the same
    session's message before counts: in another session, or another conversation, "his" names nobody."""
    turns = [("My landlord never fixes anything.", "s1", "sam"), ("His name is Herr Vogel.", "s1", "sam")]
    turns += [("His name is Herr Adler.", "s2", "sam"), ("His name is Herr Fink.", "s1", "kim")]
    memoir.ingest(
        [message(text, session_id=s, conversation_id=c, timestamp=1_000 * n) for n, (text, s, c) in enumerate(turns)]
    )
    memoir.flush()
    said = [m.content for m in memoir.memories(kind="fact")]
    assert "The user's landlord's name is Herr Vogel" in said
    assert not [fact for fact in said if "Adler" in fact or "Fink" in fact]
