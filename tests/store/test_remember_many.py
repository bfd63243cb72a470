"""`remember_many`: many memories checked first, then written with one embedding call and one transaction."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from memoir import InvalidInput, Memoir
from memoir.index import HashingEmbedder
from memoir.vault import MemoryDraft


class CountingEmbedder(HashingEmbedder):
    """The hashing embedder, recording each call it gets."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return super().embed(texts)


@pytest.fixture
def counting() -> CountingEmbedder:
    return CountingEmbedder()


@pytest.fixture
def memoir(open_memoir: Callable[..., Memoir], counting: CountingEmbedder) -> Memoir:
    memoir = open_memoir(embedding_provider="hashing")
    memoir._parts.embedder.inner = counting  # behind the content-hash cache, before search is first used
    return memoir


def vault_files(home: Path) -> list[Path]:
    return sorted((home / "vault" / "entries").rglob("*.md")) if (home / "vault" / "entries").exists() else []


def test_one_bad_draft_and_nothing_is_written(memoir: Memoir, home: Path, counting: CountingEmbedder) -> None:
    good = MemoryDraft("Sam likes tea", conversation_id="sam")
    for bad, field in [
        (MemoryDraft("   ", conversation_id="sam"), "text"),
        (MemoryDraft("Sam likes tea", kind="opinion"), "kind"),
        (MemoryDraft("Sam likes tea", tags=("no spaces allowed",)), "tags"),
        (MemoryDraft("Sam likes tea", severity="high"), "severity"),  # only gotchas have one
    ]:
        with pytest.raises(InvalidInput, match=r"memory #1 of the batch") as caught:
            memoir.remember_many([good, bad, MemoryDraft("Sam likes coffee")])
        assert caught.value.field == field
    assert vault_files(home) == []
    assert memoir.memories(include_deleted=True) == []
    assert memoir.status().indexed_items == 0
    assert counting.calls == []  # checked before anything was embedded


def test_the_same_content_twice_in_a_batch_is_one_memory(memoir: Memoir, home: Path) -> None:
    first, again, other_scope, other_kind = memoir.remember_many(
        [
            MemoryDraft("Sam likes tea", conversation_id="sam", tags=("drinks",), event_ids=("E1",)),
            MemoryDraft("  sam LIKES tea!", conversation_id="sam", tags=["food"], event_ids=["E2"]),
            MemoryDraft("Sam likes tea", conversation_id="ann"),
            MemoryDraft("Sam likes tea", kind="learning", conversation_id="sam"),
        ]
    )
    assert again == first and first.content == "Sam likes tea"  # the first one's text and id
    assert first.tags == ("drinks", "food") and first.event_ids == ("E1", "E2")
    assert len({first.id, other_scope.id, other_kind.id}) == 3
    assert len(vault_files(home)) == 3
    assert "tags: [drinks, food]" in next(p for p in vault_files(home) if first.id in p.name).read_text()


def test_the_same_content_as_a_kept_memory_merges_into_it(memoir: Memoir, home: Path) -> None:
    kept = memoir.remember("Sam likes tea", conversation_id="sam", tags=["drinks"])
    unchanged, merged, new = memoir.remember_many(
        [
            MemoryDraft("Sam likes tea.", conversation_id="sam", tags=("drinks",)),
            MemoryDraft("SAM likes tea", conversation_id="sam", tags=("important",)),
            MemoryDraft("Sam likes jazz", conversation_id="sam"),
        ]
    )
    assert unchanged.id == merged.id == kept.id
    assert merged.tags == ("drinks", "important") and merged.created_at == kept.created_at
    assert [m.id for m in memoir.memories("sam")] == [kept.id, new.id]
    assert memoir.memories("sam")[0].tags == ("drinks", "important")
    assert len(vault_files(home)) == 2


def test_a_batch_is_embedded_in_one_call(memoir: Memoir, counting: CountingEmbedder) -> None:
    texts = [f"Fact number {n} about the project" for n in range(50)]
    memoir.remember_many([MemoryDraft(t, conversation_id="proj") for t in texts])
    assert counting.calls == [texts]
    memoir.remember_many([MemoryDraft(t, conversation_id="proj") for t in texts[:10]])  # all known already
    assert len(counting.calls) == 1


def test_every_memory_has_its_file_and_is_found_by_search(memoir: Memoir, home: Path) -> None:
    drafts = [
        MemoryDraft(f"The {animal} of {name} is called {pet}", conversation_id="pets", tags=("pets",))
        for animal, name, pet in [
            ("dog", "Sam", "Rex"),
            ("cat", "Ann", "Tom"),
            ("parrot", "Joe", "Kiwi"),
            ("horse", "Mia", "Storm"),
            ("rabbit", "Lea", "Fluff"),
        ]
    ]
    memories = memoir.remember_many(drafts)
    assert len(vault_files(home)) == 5
    for memory in memories:
        assert any(memory.id in path.name for path in vault_files(home))
        [hit] = memoir.search(memory.content, conversation_id="pets", kinds=["fact"], k=1)
        assert hit.memory_id == memory.id
    assert "The parrot of Joe is called Kiwi" in (home / "vault" / "facts.md").read_text()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_batch_is_one_git_commit(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing", vault_git=True)
    memoir.remember_many([MemoryDraft("Sam likes tea"), MemoryDraft("Sam likes jazz"), MemoryDraft("Sam likes tea")])
    [subject] = memoir._parts.book.git.log()  # type: ignore[union-attr]
    assert subject == "remember 2 memories"
