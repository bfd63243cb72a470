"""A memory written to the vault reads back equal, whatever its text, tags and conversation.

The vault is the source of truth: a memory must survive the trip to a Markdown file with
YAML front matter and back, even when its text looks like YAML (`: `, `- `, `#`, `---`,
`null`, `1e3`), holds quotes, emoji or very long lines, or spans several lines: remembered in
one home, its note copied into a new home with a store of its own, which reads it back. (The
file format alone: tests/unit/test_memory_files.py.)
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, reject, settings

from memoir import InvalidEvent, InvalidInput, Memoir, MemoryKind, Severity
from memoir.model.secrets import Masker
from memoir.vault import safe_name
from tests.unit.test_memory_files import CONVERSATIONS, TAGS, TEXTS, kinds


def remember_then_read_back(
    stores: Callable[[], dict[str, str]], text: str, kind: str, severity: str | None, tags: list[str], conversation: str
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        written, carried = Path(folder) / "written", Path(folder) / "carried"
        with Memoir.open(written, embedding_provider="hashing", worker_enabled=False, **stores()) as memoir:
            try:
                memory = memoir.remember(text, kind=kind, severity=severity, tags=tags, conversation_id=conversation)
            except InvalidInput:
                reject()
        kept = Masker().mask(text).strip()  # what looks like a secret is masked on the way in
        assert (memory.content, memory.tags) == (kept, tuple(dict.fromkeys(t.lstrip("#") for t in tags)))
        folder_of_kind = written / "vault" / "entries" / safe_name(memory.conversation_id) / f"{kind}s"
        assert len(list(folder_of_kind.glob(f"*__{memory.id}.md"))) == 1
        shutil.copytree(written / "vault", carried / "vault")  # a fresh home knows the memory only from its file
        with Memoir.open(carried, embedding_provider="hashing", worker_enabled=False, **stores()) as memoir:
            assert memoir.memories(memory.conversation_id) == [memory]


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(TEXTS, kinds(), TAGS, CONVERSATIONS)
def test_a_remembered_memory_comes_back_from_its_file(
    fresh_store: Callable[[], dict[str, str]],
    text: str,
    kind: tuple[MemoryKind, Severity | None],
    tags: list[str],
    conversation: str,
) -> None:
    remember_then_read_back(fresh_store, text, kind[0].value, kind[1].value if kind[1] else None, tags, conversation)


@pytest.mark.parametrize(
    "text", ["key: value", "- item", "# heading", "---", "null", "1e3", "  padded  ", "a\n---\nb", "🦜 " * 5000]
)
def test_yaml_look_alikes_come_back_as_text(fresh_store: Callable[[], dict[str, str]], text: str) -> None:
    remember_then_read_back(fresh_store, text, "fact", None, ["true", "#1e3"], "null")


def test_a_carriage_return_comes_back(fresh_store: Callable[[], dict[str, str]]) -> None:
    remember_then_read_back(fresh_store, "line one\r\nline two", "fact", None, [], "default")


@pytest.mark.parametrize("separator", ["\x85", "\u2028", "\u2029", "\x9f"])
def test_a_conversation_id_with_a_line_break_is_refused(tmp_path: Path, separator: str) -> None:
    # PyYAML writes U+0085 (NEL) raw in a quoted scalar and reads it back as a space: ids are one line.
    refused = pytest.raises(InvalidEvent, match="conversation_id: contains a control character or line break")
    with Memoir.open(tmp_path / "home", embedding_provider="hashing", worker_enabled=False) as memoir, refused:
        memoir.remember("x", conversation_id=f"a{separator}b")
