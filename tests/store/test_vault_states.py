"""The vault under everything a person (or Obsidian, or a crash) does to it, beside memoir.

A memoir home's vault is a folder of Markdown notes that people open in their editor.
They edit bodies, duplicate notes (Obsidian's "X 1.md" keeps the same `id`), paste one
note's id into another, delete notes, break front matter and fix it again, drop in
symlinks and the odd hostile YAML file, all while memoir remembers, forgets and reopens.
Whatever happens, these must hold:

(a) no user file is lost: every file a person put in the vault (copies, edits, broken
    notes, symlinks) keeps the bytes they left there until they delete it; memoir moves
    or deletes a file only as the effect of `forget`, and then only the forgotten
    memory's own note, which moves under `deleted/` with its text;
(b) search agrees with the memory list: each live memory is found by its exact text, and
    no hit is a memory that is not live (a forgotten one above all);
(c) no duplicate live memories: one per (conversation, kind, normalised content);
(d) `doctor` speaks up (a warning or an error) while the vault holds a note with a
    duplicate id, a broken note, or a symlink leading outside the vault;
(e) nothing is read through a symlink that leads outside the vault, and remember and
    forget keep working while one is there;
(f) remembering a memory again brings back its note when a person deleted it, and does
    not make a second memory of it when its note was broken and is fixed later.

`VaultStates` checks them all after every step of random sequences; the tests after it
pin each requirement with the shortest sequence that shows it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from memoir import Memoir
from memoir.model import new_ulid
from memoir.model.memory import normalise_content

TEXTS = [
    "Sam is allergic to peanuts",
    "The staging server runs in Frankfurt",
    "Ana prefers green tea over coffee",
    "Release trains leave every Thursday",
    "Backups run nightly at two o'clock",
    "The office cat is called Miso",
]
CONVERSATIONS = ["default", "work"]
PICK = st.integers(min_value=0, max_value=10_000)
_ID_LINE = re.compile(rb"^id: *(\S+) *$", re.MULTILINE)


def open_home(home: Path, **options: str) -> Memoir:
    """A home as the tests want it: no background runner, no watcher (syncs happen when asked)."""
    return Memoir.open(home, worker_enabled=False, vault_watch=False, embedding_provider="hashing", **options)


# Where each example's home keeps its store: the test's `fresh_store` while it runs (on
# PostgreSQL a database per example, as on SQLite a file per home).
STORES: list[Callable[[], dict[str, str]]] = [dict]


def entries(home: Path) -> Path:
    return home / "vault" / "entries"


def front_id(data: bytes) -> str | None:
    """The `id:` of a note's front matter, read without YAML (a test must not expand a bomb)."""
    head = data.split(b"\n---", 1)[0]
    found = _ID_LINE.search(head)
    return found.group(1).decode() if found else None


def body_of(data: bytes) -> str:
    """A note's text after its front matter, as a person reads it."""
    return data.decode("utf-8").split("\n---\n", 1)[1].strip()


def with_body(data: bytes, body: str) -> bytes:
    head = data.decode("utf-8").split("\n---\n", 1)[0]
    return f"{head}\n---\n{body}\n".encode()


def with_id(data: bytes, old: str, new: str) -> bytes:
    return data.replace(f"id: {old}\n".encode(), f"id: {new}\n".encode(), 1)


def corrupted(data: bytes) -> bytes:
    """The same note with front matter that is not YAML any more (an unclosed flow list)."""
    assert b"\nkind: " in data
    return data.replace(b"\nkind: ", b"\nkind: [unclosed ", 1)


def note_text(memory_id: str, body: str, conversation: str = "default", extra: str = "") -> str:
    return f"---\nid: {memory_id}\nkind: fact\nconversation_id: {conversation}\n{extra}---\n{body}\n"


def alias_bomb(levels: int, width: int, target: str) -> str:
    """Front-matter lines of a "billion laughs": `levels` anchors, each `width` aliases of the one before.

    Expanded, the last holds width**levels strings; `target: *lN` makes memoir's own
    field (tags, id) that list, `extra` leaves it in a field memoir does not know.
    """
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * width)}]")
    lines.append(f"{target}: *l{levels - 1}")
    return "\n".join(lines) + "\n"


def duplicate_ids(home: Path) -> dict[str, int]:
    """Ids held by more than one regular note file of the vault (live or deleted)."""
    counts: Counter[str] = Counter()
    for folder, _, names in os.walk(entries(home)):
        for name in names:
            path = Path(folder) / name
            if name.endswith(".md") and not name.startswith(".tmp-") and not path.is_symlink():
                memory_id = front_id(path.read_bytes())
                if memory_id is not None:
                    counts[memory_id] += 1
    return {memory_id: n for memory_id, n in counts.items() if n > 1}


def concerns(memoir: Memoir) -> list[str]:
    """What `doctor` warns about or reports as an error, leaving out the models (no LLM is configured here)."""
    return [f"{f.level} {f.area}: {f.message}" for f in memoir.doctor() if f.level != "ok" and f.area != "models"]


def hit_ids(memoir: Memoir, text: str, conversation: str) -> list[str | None]:
    return [h.memory_id for h in memoir.search(text, conversation_id=conversation, kinds=["fact"], k=100)]


def hit_texts(memoir: Memoir, text: str, conversation: str) -> list[str]:
    return [h.text for h in memoir.search(text, conversation_id=conversation, kinds=["fact"], k=100)]


class VaultStates(RuleBasedStateMachine):
    """One home; a model of every file the test or `remember` put in its vault."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="vault-states-"))
        self.home = self.folder / "home"
        self.outside = self.folder / "outside"  # beside the home, never inside its vault
        self.outside.mkdir()
        self.store = STORES[-1]()
        self.memoir = open_home(self.home, **self.store)
        self.expected: dict[Path, bytes] = {}  # regular files that must hold these bytes
        self.links: dict[Path, str] = {}  # symlinks that must still point where they were made to
        self.note_ids: dict[Path, str] = {}  # readable live notes among `expected` -> their front-matter id
        self.broken: dict[Path, tuple[bytes, str]] = {}  # broken notes -> (the bytes that fix them, their id)
        self.bombs: set[Path] = set()
        self.outside_links: set[Path] = set()
        self.secrets: set[str] = set()  # texts only reachable through a symlink or a bomb note
        self.known: set[str] = set()  # ids `remember` returned
        self.forgotten: set[str] = set()
        self.counter = 0

    def teardown(self) -> None:
        self.memoir.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def next_number(self) -> int:
        self.counter += 1
        return self.counter

    def facts_folder(self, conversation: str = "default") -> Path:
        folder = entries(self.home) / conversation / "facts"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def put(self, path: Path, data: bytes) -> None:
        path.write_bytes(data)
        self.expected[path] = data

    def readable_notes(self) -> list[Path]:
        return sorted(self.note_ids)

    # -- memoir's operations -----------------------------------------------------------

    @rule(text=st.sampled_from(TEXTS), conversation=st.sampled_from(CONVERSATIONS))
    def remember(self, text: str, conversation: str) -> None:
        memory = self.memoir.remember(text, conversation_id=conversation)
        self.known.add(memory.id)
        path = self.memoir.memory_path(memory)
        assert not memory.deleted
        assert path.is_file(), f"(f) remember returned {memory.id}, but memory_path names no file: {path}"
        if path not in self.broken:
            assert front_id(path.read_bytes()) == memory.id, f"(f) memory_path names another memory's note: {path}"
        if path not in self.expected:  # a new note, or one a person had deleted, written again
            self.expected[path] = path.read_bytes()
            self.note_ids[path] = memory.id

    @rule(pick=PICK)
    def forget(self, pick: int) -> None:
        live = [m for m in self.memoir.memories() if m.id in self.known]
        live = [m for m in live if self.memoir.memory_path(m) not in self.broken]
        if not live:
            return
        memory = live[pick % len(live)]
        # The one file forget may take away is the memory's own note: the note at its path
        # when there is one, otherwise one of the notes that claim its id (a copy or a
        # renamed note that memoir now knows it by); every other file stays.
        path = self.memoir.memory_path(memory)
        claims = sorted(p for p, i in self.note_ids.items() if i == memory.id)
        movable = [path] if path in claims else claims
        tombstone = self.memoir.forget(memory.id)
        self.forgotten.add(memory.id)
        assert tombstone.deleted and tombstone.id == memory.id
        moved = [p for p in movable if not p.exists()]
        assert len(moved) <= 1, f"(a) forget took away {moved}"
        grave = self.memoir.memory_path(tombstone)
        assert grave.is_file() and "deleted" in grave.relative_to(entries(self.home)).parts
        for note in moved:
            text = body_of(self.expected.pop(note))
            del self.note_ids[note]
            assert body_of(grave.read_bytes()) == text, "(a) forget lost the text of the note it moved"
        self.expected[grave] = grave.read_bytes()

    @rule()
    def sync(self) -> None:
        report = self.memoir.sync_vault()
        for path in (*self.broken, *self.bombs):
            assert any(str(path) in line for line in report.broken), f"{path} is not reported as broken"

    @rule()
    def reopen(self) -> None:
        self.memoir.close()
        self.memoir = open_home(self.home, **self.store)

    # -- what people do to the files ---------------------------------------------------

    @rule(pick=PICK)
    def edit_body(self, pick: int) -> None:
        notes = self.readable_notes()
        if notes:
            path = notes[pick % len(notes)]
            text = f"{body_of(self.expected[path])} (edited by hand {self.next_number()})"
            self.put(path, with_body(self.expected[path], text))

    @rule(pick=PICK)
    def copy_note(self, pick: int) -> None:
        """Obsidian's duplicate: "X 1.md" beside "X.md", with the same id."""
        notes = self.readable_notes()
        if notes:
            path = notes[pick % len(notes)]
            number = 1
            while (copy := path.with_name(f"{path.stem} {number}.md")).exists() or copy in self.expected:
                number += 1
            self.put(copy, self.expected[path])
            self.note_ids[copy] = self.note_ids[path]

    @rule(pick=PICK, other=PICK)
    def take_another_notes_id(self, pick: int, other: int) -> None:
        notes = self.readable_notes()
        if notes:
            path = notes[pick % len(notes)]
            others = sorted(set(self.note_ids.values()) - {self.note_ids[path]})
            if others:
                new_id = others[other % len(others)]
                self.put(path, with_id(self.expected[path], self.note_ids[path], new_id))
                self.note_ids[path] = new_id

    @rule(pick=PICK)
    def delete_by_hand(self, pick: int) -> None:
        root = entries(self.home)
        inside = [p for p in self.expected if p.is_relative_to(root) and "deleted" not in p.relative_to(root).parts]
        if inside:
            path = sorted(inside)[pick % len(inside)]
            path.unlink()
            del self.expected[path]
            self.note_ids.pop(path, None)
            self.broken.pop(path, None)
            self.bombs.discard(path)

    @rule(pick=PICK)
    def break_front_matter(self, pick: int) -> None:
        notes = self.readable_notes()
        if notes:
            path = notes[pick % len(notes)]
            self.broken[path] = (self.expected[path], self.note_ids.pop(path))
            self.put(path, corrupted(self.expected[path]))

    @rule(pick=PICK)
    def fix_front_matter(self, pick: int) -> None:
        if self.broken:
            path = sorted(self.broken)[pick % len(self.broken)]
            data, memory_id = self.broken.pop(path)
            self.put(path, data)
            self.note_ids[path] = memory_id

    @rule(folder_link=st.booleans())
    def link_outside(self, folder_link: bool) -> None:
        """A symlink in the vault to a valid note outside it (or to a folder of notes outside it)."""
        number = self.next_number()
        secret = f"outside secret {number} zebra"
        self.secrets.add(secret)
        if folder_link:
            target_folder = self.outside / f"folder-{number}"
            (target_folder / "facts").mkdir(parents=True)
            target = target_folder / "facts" / "note.md"
            link = entries(self.home) / f"elsewhere-{number}"
            entries(self.home).mkdir(parents=True, exist_ok=True)
            link.symlink_to(target_folder, target_is_directory=True)
        else:
            target = self.outside / f"note-{number}.md"
            link = self.facts_folder() / f"outside-{number}.md"
            link.symlink_to(target)
            self.outside_links.add(link)
        self.put(target, note_text(new_ulid(1_700_000_000_000 + number), secret).encode())
        self.links[link] = os.readlink(link)

    @rule(pick=PICK)
    def link_inside(self, pick: int) -> None:
        """A symlink in the vault to one of its own notes."""
        notes = self.readable_notes()
        if notes:
            target = notes[pick % len(notes)]
            link = target.parent / f"alias-{self.next_number()}.md"
            link.symlink_to(target.name)
            self.links[link] = target.name

    @rule(in_tags=st.booleans())
    def alias_bomb(self, in_tags: bool) -> None:
        """A note whose front matter is a YAML alias bomb (10**5 strings once expanded)."""
        number = self.next_number()
        secret = f"bomb secret {number} walrus"
        self.secrets.add(secret)
        bomb = alias_bomb(5, 10, "tags" if in_tags else "extra")
        path = self.facts_folder() / f"bomb-{number}.md"
        self.put(path, note_text(new_ulid(1_600_000_000_000 + number), secret, extra=bomb).encode())
        self.bombs.add(path)

    # -- invariants ----------------------------------------------------------------------

    @invariant()
    def no_user_file_is_lost(self) -> None:  # (a)
        for path, data in self.expected.items():
            assert path.is_file() and not path.is_symlink(), f"(a) {path} is gone"
            assert path.read_bytes() == data, f"(a) {path} no longer holds what was left there"
        for link, target in self.links.items():
            assert link.is_symlink() and os.readlink(link) == target, f"(a) the symlink {link} is gone"

    @invariant()
    def search_agrees_with_the_memories(self) -> None:  # (b)
        live = self.memoir.memories()
        live_ids = {m.id for m in live}
        assert not live_ids & self.forgotten, "(b) a forgotten memory is listed as live"
        for memory in live:
            found = hit_ids(self.memoir, memory.content, memory.conversation_id)
            if memory.unreadable:  # its note is broken: listed from the last good copy, not searchable
                assert memory.id not in found, f"(b) {memory.content!r} has a broken note yet is searchable"
                continue
            assert memory.id in found, f"(b) {memory.content!r} is live but search does not find it"
            strays = set(found) - {m.id for m in live if not m.unreadable}
            assert not strays, f"(b) search finds {strays}, which are not live memories"

    @invariant()
    def no_duplicate_live_memories(self) -> None:  # (c)
        keys = Counter((m.conversation_id, m.kind.value, normalise_content(m.content)) for m in self.memoir.memories())
        assert not [key for key, n in keys.items() if n > 1], f"(c) duplicate live memories: {keys}"

    @invariant()
    def doctor_speaks_up(self) -> None:  # (d)
        duplicates = duplicate_ids(self.home)
        broken = [p for p in (*self.broken, *self.bombs) if p.exists()]
        outside = [p for p in self.outside_links if p.is_symlink()]
        if duplicates or broken or outside:
            assert concerns(self.memoir), f"(d) doctor sees no problem in {duplicates=} {broken=} {outside=}"

    @invariant()
    def nothing_outside_or_in_a_bomb_is_read(self) -> None:  # (e)
        contents = " ".join(m.content for m in self.memoir.memories())
        for secret in self.secrets:
            assert secret not in contents, f"(e) {secret!r} became a memory"
            for conversation in CONVERSATIONS:
                texts = hit_texts(self.memoir, secret, conversation)
                assert not [t for t in texts if secret in t], f"(e) search finds {secret!r}"


# What happens to the files is the vault's, the same code on both backends; the store's part (a search per live
# memory after every step) costs some five times as much on PostgreSQL, which runs half as many examples.
EXAMPLES = {"sqlite": 30, "postgres": 15}


def test_the_vault_keeps_its_promises_whatever_people_do_to_its_files(
    fresh_store: Callable[[], dict[str, str]], backend: str
) -> None:
    STORES.append(fresh_store)
    try:
        run_state_machine_as_test(
            VaultStates, settings=settings(max_examples=EXAMPLES[backend], stateful_step_count=25)
        )
    finally:
        STORES.pop()


def replay(steps: list[tuple[str, dict[str, object]]]) -> None:
    """Run `VaultStates` through these steps, checking every invariant after each, as hypothesis does."""
    machine = VaultStates()
    invariants = [name for name, value in vars(VaultStates).items() if hasattr(value, "hypothesis_stateful_invariant")]
    try:
        for name, arguments in steps:
            getattr(machine, name)(**arguments)
            for invariant_name in invariants:
                getattr(machine, invariant_name)()
    finally:
        machine.teardown()


SAM, STAGING = TEXTS[0], TEXTS[1]
# Examples the state machine found (decision 94), pinned so that every run has them.
PINNED = {
    # Two notes claim A's id (B's note edited to carry it); B's text remembered again (B2);
    # B2's note breaks, then A's own note breaks, and the home is reopened: A was read from
    # B's old note, a second live memory of the staging server, beside B2 (invariant c).
    "a note claiming the id of a note that breaks": [
        ("remember", {"text": SAM, "conversation": "default"}),
        ("remember", {"text": STAGING, "conversation": "default"}),
        ("take_another_notes_id", {"pick": 1, "other": 0}),
        ("remember", {"text": STAGING, "conversation": "default"}),
        ("break_front_matter", {"pick": 2}),
        ("break_front_matter", {"pick": 0}),
        ("reopen", {}),
        ("remember", {"text": STAGING, "conversation": "default"}),
        ("remember", {"text": SAM, "conversation": "default"}),
    ],
    # A copy claims the id while the original is broken; the original is fixed and the copy
    # deleted, with no sync between: remembering the memory again named the deleted copy (f).
    "a copy that stood in for a broken note, deleted": [
        ("remember", {"text": SAM, "conversation": "default"}),
        ("copy_note", {"pick": 0}),
        ("break_front_matter", {"pick": 1}),  # the original ("X 1.md", the copy, sorts first)
        ("sync", {}),
        ("fix_front_matter", {"pick": 0}),
        ("delete_by_hand", {"pick": 0}),  # the copy
        ("remember", {"text": SAM, "conversation": "default"}),
    ],
}


@pytest.mark.parametrize("steps", PINNED.values(), ids=PINNED.keys())
def test_the_vault_keeps_its_promises_in_the_examples_it_once_broke(steps: list[tuple[str, dict[str, object]]]) -> None:
    replay(steps)


# -- each promise on its own, the shortest way to break it ------------------------------


@pytest.fixture
def memoir(home: Path) -> Iterator[Memoir]:
    opened = open_home(home)
    yield opened
    opened.close()


def test_a_copied_note_is_never_deleted(memoir: Memoir, home: Path) -> None:
    memory = memoir.remember("Sam is allergic to peanuts")
    note = memoir.memory_path(memory)
    copy = note.with_name(f"{note.stem} 1.md")  # Obsidian's "duplicate": same id
    shutil.copyfile(note, copy)
    assert concerns(memoir), "doctor must mention the duplicate id"
    memoir.sync_vault()
    memoir.close()
    with open_home(home) as again:
        assert note.is_file() and copy.is_file(), "the note or its copy was deleted"
        assert note.read_bytes() == copy.read_bytes()
        assert [m.id for m in again.memories()] == [memory.id]
        assert hit_ids(again, memory.content, "default") == [memory.id]


def test_forget_moves_the_note_memory_path_names_when_a_copy_claimed_its_id(home: Path) -> None:
    """Found by the state machine: the original note broken while its copy claimed its id, reopened,
    fixed; forget must move the note `memory_path` names. Since decision 94 that is the original,
    which kept the id while it was broken; before, the copy took over."""
    with open_home(home) as memoir:
        memory = memoir.remember("Sam is allergic to peanuts")
        note = memoir.memory_path(memory)
        copy = note.with_name(f"{note.stem} 1.md")
        shutil.copyfile(note, copy)
        good = note.read_bytes()
        note.write_bytes(corrupted(good))
    with open_home(home) as memoir:
        note.write_bytes(good)
        path = memoir.memory_path(memory)
        assert path == memoir.memory_path(memory.id) == note  # where the vault was last seen to keep it
        memoir.forget(memory.id)
        assert not path.exists() and copy.read_bytes() == good  # the named note moved, the other stayed


def test_a_note_given_another_memorys_id_is_never_deleted(memoir: Memoir, home: Path) -> None:
    first = memoir.remember("Sam is allergic to peanuts")
    second = memoir.remember("Ana prefers green tea over coffee")
    edited = memoir.memory_path(second)
    data = with_id(edited.read_bytes(), second.id, first.id)
    edited.write_bytes(data)
    assert concerns(memoir), "doctor must mention the duplicate id"
    memoir.sync_vault()
    assert memoir.memory_path(first).is_file(), "the first memory's own note was deleted"
    assert edited.is_file() and edited.read_bytes() == data, "the edited note was deleted or rewritten"


def test_forget_leaves_a_copy_of_the_note_alone_and_the_memory_forgotten(memoir: Memoir, home: Path) -> None:
    memory = memoir.remember("The staging server runs in Frankfurt")
    note = memoir.memory_path(memory)
    copy = note.with_name(f"{note.stem} 1.md")
    shutil.copyfile(note, copy)
    data = copy.read_bytes()
    memoir.forget(memory.id)
    memoir.sync_vault()
    assert copy.is_file() and copy.read_bytes() == data, "the copy was deleted or rewritten"
    assert memoir.memories() == [] and memory.id not in hit_ids(memoir, memory.content, "default")


def test_forget_never_removes_a_file_that_holds_another_memory(memoir: Memoir, home: Path) -> None:
    first = memoir.remember("Sam is allergic to peanuts")
    second = memoir.remember("Ana prefers green tea over coffee")
    edited = memoir.memory_path(second)
    data = with_id(edited.read_bytes(), second.id, first.id)
    edited.write_bytes(data)  # second's note now says it is first
    memoir.forget(second.id)
    assert edited.is_file() and edited.read_bytes() == data, "forget removed a note that holds another memory"


def test_forget_moves_the_text_a_person_wrote_into_the_tombstone(memoir: Memoir) -> None:
    memory = memoir.remember("Release trains leave every Thursday")
    note = memoir.memory_path(memory)
    note.write_bytes(with_body(note.read_bytes(), "Release trains leave every Friday"))
    tombstone = memoir.forget(memory.id)
    assert body_of(memoir.memory_path(tombstone).read_bytes()) == "Release trains leave every Friday"


def test_a_symlink_to_a_note_outside_the_vault_is_never_read(memoir: Memoir, home: Path, tmp_path: Path) -> None:
    target = tmp_path / "private" / "diary.md"
    target.parent.mkdir()
    data = note_text(new_ulid(1_700_000_000_000), "outside secret zebra").encode()
    target.write_bytes(data)
    kept = memoir.remember("Sam is allergic to peanuts")
    link = memoir.memory_path(kept).parent / "diary.md"
    link.symlink_to(target)
    assert concerns(memoir), "doctor must mention a symlink that leads outside the vault"
    memoir.sync_vault()
    other = memoir.remember("Ana prefers green tea over coffee")  # remember and forget still work
    memoir.forget(kept.id)
    memoir.close()
    with open_home(home) as again:
        assert [m.id for m in again.memories()] == [other.id]
        assert "outside secret zebra" not in hit_texts(again, "outside secret zebra", "default")
    assert link.is_symlink() and target.read_bytes() == data


def test_a_symlink_to_a_note_inside_the_vault_loses_nothing(memoir: Memoir, home: Path) -> None:
    memory = memoir.remember("The office cat is called Miso")
    note = memoir.memory_path(memory)
    data = note.read_bytes()
    link = note.parent / "alias.md"
    link.symlink_to(note.name)
    memoir.sync_vault()
    memoir.close()
    with open_home(home) as again:
        assert link.is_symlink() and note.is_file(), "the note or the symlink to it was deleted"
        assert note.read_bytes() == data
        assert [m.id for m in again.memories()] == [memory.id]


@pytest.mark.parametrize("target", ["tags", "extra"])
def test_a_note_with_a_yaml_alias_bomb_is_refused(memoir: Memoir, target: str) -> None:
    note = entries(memoir.home) / "default" / "facts" / "bomb.md"
    note.parent.mkdir(parents=True)
    data = note_text(new_ulid(1_700_000_000_000), "bomb secret walrus", extra=alias_bomb(5, 10, target)).encode()
    note.write_bytes(data)
    report = memoir.sync_vault()
    assert [line for line in report.broken if str(note) in line], "the bomb must be refused, and said so"
    assert memoir.memories() == [] and concerns(memoir)
    assert note.read_bytes() == data  # refused, never deleted


BOMB_CHILD = """
import json, resource, sys
from pathlib import Path
from memoir import Memoir

home, note, text = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
memoir = Memoir.open(home, worker_enabled=False, vault_watch=False, embedding_provider="hashing")
memoir.doctor()  # everything that reading a vault needs is loaded from here on
size = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
limit = size + (1 << 30)  # a gibibyte more address space than a home with no bomb needs
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
note.write_text(text)
report = memoir.sync_vault()
findings = [f"{f.level} {f.area}: {f.message}" for f in memoir.doctor()]
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({"broken": report.broken, "doctor": findings, "grown_kib": grown}))
"""


@pytest.mark.parametrize("target", ["tags", "id", "extra"])
def test_a_full_size_alias_bomb_is_refused_without_expanding_it(home: Path, target: str) -> None:
    """9**10 strings once expanded (tens of gibibytes): the reader must refuse, not expand."""
    open_home(home).close()
    note = entries(home) / "default" / "facts" / "bomb.md"
    note.parent.mkdir(parents=True)
    front = alias_bomb(10, 9, target)
    text = note_text(new_ulid(1_700_000_000_000), "bomb secret walrus", extra=front)
    if target == "id":
        text = text.replace(f"id: {front_id(text.encode())}\n", "", 1)
    environment = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    child = subprocess.run(
        [sys.executable, "-c", BOMB_CHILD, str(home), str(note), text],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,  # a guard against a hang, not a speed requirement
        check=False,
    )
    assert child.returncode == 0, f"reading the vault failed:\n{child.stderr[-3000:]}"
    result = json.loads(child.stdout.splitlines()[-1])
    assert [line for line in result["broken"] if str(note) in line], "the bomb must be refused, and said so"
    assert [f for f in result["doctor"] if str(note) in f and not f.startswith("ok")]
    assert result["grown_kib"] < 256 * 1024  # bounded memory: never expanded


def test_a_note_broken_then_fixed_after_remembering_it_again_leaves_one_memory(memoir: Memoir, home: Path) -> None:
    memory = memoir.remember("Backups run nightly at two o'clock")
    note = memoir.memory_path(memory)
    good = note.read_bytes()
    note.write_bytes(corrupted(good))
    memoir.sync_vault()  # the note is broken: reported, left alone
    again = memoir.remember("Backups run nightly at two o'clock")
    note.write_bytes(good)  # fixed by hand
    memoir.sync_vault()
    live = memoir.memories()
    assert [m.content for m in live] == ["Backups run nightly at two o'clock"], f"{again.id} and {memory.id}"
    assert len(hit_ids(memoir, memory.content, "default")) == 1


def test_a_memory_whose_note_broke_is_shown_unreadable_and_searchable_again_once_fixed(memoir: Memoir) -> None:
    memory = memoir.remember("Sam is allergic to peanuts")
    note = memoir.memory_path(memory)
    good = note.read_bytes()
    note.write_bytes(corrupted(good))
    memoir.sync_vault()
    [listed] = memoir.memories()  # shown from its last good copy, flagged; the index follows the readable files
    assert listed.id == memory.id and listed.unreadable and "front matter" in listed.unreadable
    assert memory.id not in hit_ids(memoir, memory.content, memory.conversation_id)
    note.write_bytes(good)
    memoir.sync_vault()
    [listed] = memoir.memories()
    assert listed.unreadable is None
    assert memory.id in hit_ids(memoir, memory.content, memory.conversation_id)


def test_a_note_deleted_by_hand_is_written_again_when_remembered_again(memoir: Memoir) -> None:
    memory = memoir.remember("The office cat is called Miso")
    note = memoir.memory_path(memory)
    note.unlink()  # while the home is open, before any sync
    again = memoir.remember("The office cat is called Miso")
    assert memoir.memory_path(again).is_file()
    assert body_of(memoir.memory_path(again).read_bytes()) == "The office cat is called Miso"


def test_temporary_files_left_by_a_crash_are_removed_when_the_home_opens(home: Path) -> None:
    with open_home(home) as memoir:
        memory = memoir.remember("Sam is allergic to peanuts")
        folder = memoir.memory_path(memory).parent
    stale = folder / ".tmp-abc12345.md"  # as atomic_write names them (mkstemp)
    stale.write_text("---\nid: half a note")
    theirs = [folder / ".tmp-my-draft.md", home / "vault" / ".obsidian" / ".tmp-workspace12.md"]  # a person's
    an_hour_ago = time.time() - 3600
    for path in (stale, *theirs):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("---\nid: half a note")
        os.utime(path, (an_hour_ago, an_hour_ago))
    fresh = folder / ".tmp-def45678.md"  # another process may be writing this one right now
    fresh.write_text("---\nid: being written")
    with open_home(home) as memoir:
        assert not stale.exists()
        assert fresh.exists() and all(path.exists() for path in theirs)
        assert [m.id for m in memoir.memories()] == [memory.id]


def test_a_crlf_body_survives_remember_and_reopen(home: Path, tmp_path: Path) -> None:
    with open_home(home) as memoir:
        memory = memoir.remember("a\r\nb")
        assert memory.content == "a\r\nb"
    with open_home(home) as memoir:
        assert [m.content for m in memoir.memories()] == ["a\r\nb"]
        assert not concerns(memoir)
    copied = tmp_path / "copied"
    shutil.copytree(home / "vault", copied / "vault")  # a home that knows the memory only from its file
    with open_home(copied) as memoir:
        assert [m.content for m in memoir.memories()] == ["a\r\nb"]


def test_a_note_whose_name_is_not_utf8_is_reported_and_the_home_still_opens(home: Path) -> None:
    with open_home(home) as memoir:
        kept = memoir.remember("Sam is allergic to peanuts")
        odd = memoir.remember("Ana prefers green tea over coffee")
        note = memoir.memory_path(odd)
    renamed = bytes(note.parent) + b"/caf\xe9.md"
    os.rename(bytes(note), renamed)
    with open_home(home) as memoir:
        assert kept.id in [m.id for m in memoir.memories()]
        assert any("not UTF-8" in line for line in concerns(memoir))
    assert os.path.exists(renamed)


@pytest.mark.parametrize(
    ("field", "value"),
    [("source", '"\\ud800"'), ("replaced_by", '"\\ud800"'), ("conversation_id", "[a]"), ("agent_id", "[x]")],
)
def test_a_front_matter_value_of_the_wrong_kind_makes_the_note_unreadable_not_the_home(
    home: Path, field: str, value: str
) -> None:
    with open_home(home) as memoir:
        memory = memoir.remember("Sam is allergic to peanuts")
        note = memoir.memory_path(memory)
    text = note.read_text()
    note.write_text(text.replace("---\n", f"---\n{field}: {value}\n", 1) if field not in text else text)
    if field in text:
        lines = [f"{field}: {value}" if line.startswith(f"{field}:") else line for line in text.split("\n")]
        note.write_text("\n".join(lines))
    with open_home(home) as memoir:
        [listed] = memoir.memories()
        assert listed.unreadable and any(str(note) in line for line in concerns(memoir))


def test_a_folder_linked_out_of_the_vault_keeps_its_memories_unreadable_not_forgotten(
    home: Path, tmp_path: Path
) -> None:
    with open_home(home) as memoir:
        memory = memoir.remember("Sam is allergic to peanuts")
    folder = entries(home) / "default"
    moved = tmp_path / "elsewhere"
    shutil.move(folder, moved)
    folder.symlink_to(moved, target_is_directory=True)
    with open_home(home) as memoir:
        [listed] = memoir.memories()
        assert listed.id == memory.id and listed.unreadable and not listed.deleted
        assert any("symbolic link to a folder" in line for line in concerns(memoir))
    folder.unlink()
    shutil.move(moved, folder)
    with open_home(home) as memoir:
        [listed] = memoir.memories()
        assert listed.unreadable is None and memory.id in hit_ids(memoir, memory.content, "default")


def test_front_matter_keys_a_person_added_survive_forget_and_a_merge(home: Path) -> None:
    with open_home(home) as memoir:
        memory = memoir.remember("Sam is allergic to peanuts")
        note = memoir.memory_path(memory)
        note.write_text(note.read_text().replace("---\n", "---\naliases: [Sam's allergy]\n", 1))
        merged = memoir.remember("Sam is allergic to peanuts", tags=["health"])
        assert "aliases: [Sam's allergy]" in note.read_text() or "- Sam's allergy" in note.read_text()
        assert merged.tags == ("health",)
        tombstone = memoir.forget(memory.id)
        assert "Sam's allergy" in memoir.memory_path(tombstone).read_text()
