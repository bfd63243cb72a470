"""A memory whose note is broken is still live: remembering it again, and other notes, must respect that.

The mirror keeps a memory whose note a person broke (shown from its last good copy,
flagged `unreadable`). That flag is the mirror's view as of the last look at the file,
and the person may have fixed or deleted the note since; and while it is broken the
memory still holds its content, so no other note may become a second live memory of
that content. Each test is the shortest way found (by tests/store/test_vault_states.py) to
break one of these.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from memoir import Memoir, Memory
from memoir.model import new_ulid
from memoir.model.memory import normalise_content
from tests.store.test_vault_states import body_of, concerns, corrupted, hit_ids, open_home, with_id

SAM = "Sam is allergic to peanuts"
STAGING = "The staging server runs in Frankfurt"


@pytest.fixture
def memoir(home: Path) -> Iterator[Memoir]:
    opened = open_home(home)
    yield opened
    opened.close()


def live_keys(memoir: Memoir) -> Counter[tuple[str, str, str]]:
    return Counter((m.conversation_id, m.kind.value, normalise_content(m.content)) for m in memoir.memories())


# -- remembering a memory again looks at its note, not at the mirror's old flag ----------


def test_a_broken_note_deleted_by_hand_is_written_again_when_remembered_again(memoir: Memoir) -> None:
    memory = memoir.remember(SAM)
    note = memoir.memory_path(memory)
    note.write_bytes(corrupted(note.read_bytes()))
    memoir.sync_vault()  # the mirror flags the memory unreadable
    note.unlink()  # then a person deletes the broken note, and no sync runs before...
    again = memoir.remember(SAM)
    assert again.id == memory.id and again.unreadable is None
    path = memoir.memory_path(again)
    assert path.is_file() and body_of(path.read_bytes()) == SAM
    [listed] = memoir.memories()
    assert listed.id == memory.id and listed.unreadable is None
    assert hit_ids(memoir, SAM, "default") == [memory.id]
    memoir.sync_vault()
    assert [(m.id, m.unreadable) for m in memoir.memories()] == [(memory.id, None)]


def test_a_broken_note_fixed_by_hand_is_read_again_when_remembered_again(memoir: Memoir) -> None:
    memory = memoir.remember(SAM)
    note = memoir.memory_path(memory)
    good = note.read_bytes()
    note.write_bytes(corrupted(good))
    memoir.sync_vault()
    note.write_bytes(good)  # fixed, and no sync yet
    again = memoir.remember(SAM, tags=["health"])
    assert again.id == memory.id and again.unreadable is None and again.tags == ("health",)
    assert "health" in note.read_text()  # the tag merged into the fixed note
    [listed] = memoir.memories()
    assert listed.unreadable is None and hit_ids(memoir, SAM, "default") == [memory.id]


def test_a_note_still_broken_is_left_alone_when_remembered_again(memoir: Memoir) -> None:
    memory = memoir.remember(SAM)
    note = memoir.memory_path(memory)
    broken = corrupted(note.read_bytes())
    note.write_bytes(broken)
    memoir.sync_vault()
    again = memoir.remember(SAM, tags=["health"])
    assert again.id == memory.id and again.unreadable
    assert note.read_bytes() == broken and [m.id for m in memoir.memories()] == [memory.id]


def test_a_copy_of_a_broken_note_stands_aside_and_deleting_it_changes_nothing(memoir: Memoir) -> None:
    """The original broken while a copy claims its id, then the copy deleted: remember names the broken original."""
    memory = memoir.remember(SAM)
    note = memoir.memory_path(memory)
    copy = note.with_name(f"{note.stem} 1.md")
    good = note.read_bytes()
    copy.write_bytes(good)
    broken = corrupted(good)
    note.write_bytes(broken)
    report = memoir.sync_vault()
    assert memoir.memory_path(memory) == note  # the broken note keeps the id (decision 94)
    assert any(str(copy) in line and "cannot be read now" in line for line in report.broken)
    copy.unlink()
    again = memoir.remember(SAM)
    assert again.id == memory.id and again.unreadable
    assert memoir.memory_path(again) == note and note.read_bytes() == broken  # named, never overwritten
    memoir.sync_vault()  # the sync agrees: the memory is unreadable at its broken note, not deleted
    assert [(m.id, bool(m.unreadable)) for m in memoir.memories()] == [(memory.id, True)]
    note.write_bytes(good)
    memoir.sync_vault()
    assert [(m.id, m.unreadable) for m in memoir.memories()] == [(memory.id, None)]
    assert hit_ids(memoir, SAM, "default") == [memory.id]


@pytest.mark.parametrize("how", ["sync", "reopen", "remember"])
def test_while_a_note_is_broken_a_note_claiming_its_id_does_not_take_the_memory(
    memoir: Memoir, home: Path, how: str
) -> None:
    """Decision 94: the note the mirror knows a memory by keeps its id while it is broken, whoever looks."""
    memory = memoir.remember(SAM)
    note = memoir.memory_path(memory)
    good = note.read_bytes()
    other = note.with_name("renamed by hand.md")  # a copy, edited: it would change the memory's text
    other.write_bytes(good.replace(SAM.encode(), STAGING.encode()))
    note.write_bytes(corrupted(good))
    if how == "sync":
        memoir.sync_vault()
    elif how == "reopen":
        memoir.close()
        memoir = open_home(home)
    else:
        assert memoir.remember(SAM).id == memory.id
    [listed] = memoir.memories()
    assert (listed.id, listed.content, bool(listed.unreadable)) == (memory.id, SAM, True)
    assert memoir.memory_path(memory) == note and STAGING not in [m.content for m in memoir.memories()]
    assert any(str(other) in line for line in concerns(memoir))  # reported, and left as it is
    note.write_bytes(good)  # fixed: the memory is read from its own note again, the other note still reported
    memoir.sync_vault()
    assert [(m.id, m.content, m.unreadable) for m in memoir.memories()] == [(memory.id, SAM, None)]
    assert hit_ids(memoir, SAM, "default") == [memory.id] and any(str(other) in line for line in concerns(memoir))
    if how == "reopen":
        memoir.close()


# -- a live memory whose note is broken still holds its content ---------------------------


@dataclass(frozen=True)
class Stolen:
    """Sam's note and a second Staging memory's note broken, while Staging's first note claims Sam's id."""

    sam: Memory
    staging: Memory  # the second Staging memory: its first note holds Sam's id now
    own: Path  # Sam's note, broken
    stealing: Path  # the first Staging note, which claims Sam's id: the only one still readable
    again: Path  # the second Staging memory's note, broken
    good_own: bytes
    good_again: bytes


def stolen_then_broken(memoir: Memoir) -> Stolen:
    first = memoir.remember(SAM)
    second = memoir.remember(STAGING)
    stealing = memoir.memory_path(second)
    stealing.write_bytes(with_id(stealing.read_bytes(), second.id, first.id))  # pasted another note's id
    third = memoir.remember(STAGING)  # second's note holds first now: Staging is new again
    assert third.id != second.id
    own, again = memoir.memory_path(first), memoir.memory_path(third)
    good_own, good_again = own.read_bytes(), again.read_bytes()
    again.write_bytes(corrupted(good_again))
    own.write_bytes(corrupted(good_own))
    return Stolen(first, third, own, stealing, again, good_own, good_again)


def test_a_note_claiming_an_id_cannot_repeat_a_memory_whose_note_is_broken(memoir: Memoir, home: Path) -> None:
    case = stolen_then_broken(memoir)
    data = case.stealing.read_bytes()
    memoir.sync_vault()
    assert case.stealing.read_bytes() == data  # ignored, never rewritten
    assert max(live_keys(memoir).values()) == 1, live_keys(memoir)
    listed = {m.id: (m.content, bool(m.unreadable)) for m in memoir.memories()}
    assert listed == {case.sam.id: (SAM, True), case.staging.id: (STAGING, True)}  # both from their last good copy
    assert any(str(case.stealing) in line for line in concerns(memoir)), "doctor must name the ignored note"
    memoir.close()
    with open_home(home) as reopened:  # the sync on open sees the same, and doctor calls it in step
        assert {m.id: m.content for m in reopened.memories()} == {case.sam.id: SAM, case.staging.id: STAGING}
        assert not [line for line in concerns(reopened) if "reopening syncs them" in line]


def test_once_the_broken_notes_are_fixed_each_memory_is_its_own_again(memoir: Memoir) -> None:
    case = stolen_then_broken(memoir)
    memoir.sync_vault()
    case.again.write_bytes(case.good_again)
    memoir.sync_vault()  # the fixed note keeps its memory: the stealing note is the repeat
    listed = {m.id: (m.content, bool(m.unreadable)) for m in memoir.memories()}
    assert listed == {case.sam.id: (SAM, True), case.staging.id: (STAGING, False)}
    assert hit_ids(memoir, STAGING, "default") == [case.staging.id]
    case.own.write_bytes(case.good_own)
    memoir.sync_vault()
    listed = {m.id: (m.content, bool(m.unreadable)) for m in memoir.memories()}
    assert listed == {case.sam.id: (SAM, False), case.staging.id: (STAGING, False)}
    assert memoir.memory_path(case.sam) == case.own and memoir.memory_path(case.staging) == case.again
    assert case.stealing.is_file()  # reported as claiming Sam's id, never deleted


def test_a_memory_whose_id_another_note_claims_still_holds_its_content_while_its_note_is_broken(
    memoir: Memoir,
) -> None:
    """With the stealing note ignored, Sam's memory is its broken note's again: a note added for Sam repeats it."""
    case = stolen_then_broken(memoir)
    added = case.own.with_name("sam by hand.md")
    added.write_bytes(case.good_own.replace(case.sam.id.encode(), new_ulid(1_700_000_000_000).encode()))
    memoir.sync_vault()
    listed = {m.id: (m.content, bool(m.unreadable)) for m in memoir.memories()}
    assert listed == {case.sam.id: (SAM, True), case.staging.id: (STAGING, True)}
    assert [line for line in concerns(memoir) if str(added) in line], "doctor must name the ignored note"


def test_a_note_a_person_adds_cannot_repeat_a_memory_whose_note_is_broken(memoir: Memoir) -> None:
    memory = memoir.remember(SAM)
    note = memoir.memory_path(memory)
    data = note.read_bytes()
    note.write_bytes(corrupted(data))
    memoir.sync_vault()
    added = note.with_name("sam by hand.md")
    added.write_bytes(data.replace(memory.id.encode(), new_ulid(1_700_000_000_000).encode()))
    memoir.sync_vault()
    assert max(live_keys(memoir).values()) == 1
    assert [m.id for m in memoir.memories() if m.content == SAM] == [memory.id]
    assert added.is_file()
