"""Counts in what people read: one of a thing is singular, any other number plural, at every door."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memoir.mcp.render import memories_text
from memoir.model import Memory, new_ulid
from memoir.model.memory import MemoryKind
from memoir.model.wording import counted


@pytest.mark.parametrize(
    ("count", "noun", "said"),
    [
        (0, "memory", "0 memories"),
        (1, "memory", "1 memory"),
        (2, "memory", "2 memories"),
        (1, "memory file", "1 memory file"),
        (3, "memory file", "3 memory files"),
        (1, "entry", "1 entry"),
        (2, "entry", "2 entries"),
        (2, "day", "2 days"),
        (2, "match", "2 matches"),
        (1204, "event", "1,204 events"),
    ],
)
def test_counts_are_singular_for_one_and_plural_otherwise(count: int, noun: str, said: str) -> None:
    assert counted(count, noun) == said


@given(st.integers(0, 10**9), st.sampled_from(["memory", "event", "hit", "entry", "memory file", "thought"]))
def test_one_never_reads_as_many_nor_many_as_one(count: int, noun: str) -> None:
    said = counted(count, noun)
    assert said.endswith(noun) == (count == 1)


def test_the_mcp_tools_count_one_memory_as_one() -> None:
    one = Memory(new_ulid(1_700_000_000_000), MemoryKind.FACT, "The dog is called Biscuit", conversation_id="sam")
    assert memories_text([one], 1, "sam").startswith("1 memory in sam:")
    assert memories_text([one, one], 2, "sam").startswith("2 memories in sam:")
