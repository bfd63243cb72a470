"""A memory written to the vault reads back equal, whatever its text, tags and conversation.

The vault is the source of truth: a memory must survive the trip to a Markdown file with
YAML front matter and back, even when its text looks like YAML (`: `, `- `, `#`, `---`,
`null`, `1e3`), holds quotes, emoji or very long lines, or spans several lines.
"""

from __future__ import annotations

import shutil
import tempfile
from datetime import UTC
from pathlib import Path

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from memoir import InvalidEvent, InvalidInput, Memoir, Memory, MemoryKind, Severity
from memoir.model import new_ulid
from memoir.model.secrets import Masker
from memoir.vault import safe_name
from memoir.vault.files import parse_memory, render_memory

YAML_TRAPS = [
    "null", "~", "true", "False", "yes", "off", "1e3", "0x1F", "0o17", "1_000", ".inf", "-.5", "12:30",
    "2026-01-01", "2026-01-01T00:00:00Z", ": ", "key: value", "- item", "#", "# not a comment", "---", "...",
    "'", '"', "''", '"quoted"', "!tag", "&anchor", "*alias", "|", ">", "%YAML 1.1", "@", "`", "[a, b]",
    "{a: b}", "? x", "=", "<<", "\\n", "\t", "\u00a0", "\u2028", "\u0085", "\ufeff", "é", "ß", "日本語",
    "🦜", "👩‍👩‍👧", "🇵🇹",
]  # fmt: skip
# U+0085 (NEL) is refused in ids (a line break to YAML); texts may hold anything UTF-8 carries.
TEXT_CHARS = st.characters(codec="utf-8")
FRONT_CHARS = st.characters(codec="utf-8", exclude_characters="\r\x85")
PIECES = st.one_of(st.sampled_from(YAML_TRAPS), st.text(TEXT_CHARS, max_size=30))
FRONT_PIECES = st.one_of(st.sampled_from([t for t in YAML_TRAPS if "\x85" not in t]), st.text(FRONT_CHARS, max_size=30))
TEXTS = st.one_of(
    st.text(TEXT_CHARS, min_size=1, max_size=200),
    st.lists(PIECES, min_size=1, max_size=8).map("".join),
    st.lists(PIECES, min_size=1, max_size=8).map("\n".join),  # several lines, some starting with --- or -
    st.builds(lambda piece, times: (piece + " ") * times, PIECES, st.integers(20, 600)),  # long lines
)
TAGS = st.lists(
    st.one_of(st.from_regex(r"#?[\w/-]{1,64}", fullmatch=True), st.sampled_from(["true", "null", "1e3", "-", "123"])),
    max_size=4,
)
CONVERSATIONS = st.one_of(
    st.just("default"),
    st.text(FRONT_CHARS, min_size=1, max_size=40),
    st.lists(FRONT_PIECES, min_size=1, max_size=12).map("".join),
    st.lists(FRONT_PIECES, min_size=1, max_size=12).map(" ".join),  # long enough for YAML to fold it
)


@st.composite
def kinds(draw: st.DrawFn) -> tuple[MemoryKind, Severity | None]:
    kind = draw(st.sampled_from(MemoryKind))
    return kind, draw(st.none() | st.sampled_from(Severity)) if kind is MemoryKind.GOTCHA else None


@st.composite
def memories(draw: st.DrawFn) -> Memory:
    kind, severity = draw(kinds())
    deleted = draw(st.booleans())
    try:
        return Memory(
            id=new_ulid(draw(st.integers(0, 2**48 - 1))),
            kind=kind,
            content=draw(TEXTS | st.text(min_size=1)),  # "\r" too: no file in between here
            conversation_id=draw(CONVERSATIONS),
            created_at=draw(st.datetimes(timezones=st.just(UTC))),
            tags=draw(TAGS),
            severity=severity,
            event_ids=tuple(new_ulid(ms) for ms in draw(st.lists(st.integers(0, 2**48 - 1), max_size=3))),
            source=draw(st.sampled_from(["user", "llm", "heuristics"]) | FRONT_PIECES),
            replaced_by=new_ulid(1_700_000_000_000) if deleted and draw(st.booleans()) else None,
            deleted_at=draw(st.datetimes(timezones=st.just(UTC))) if deleted else None,
        )
    except InvalidInput:
        reject()


@settings(max_examples=300)
@given(memories())
def test_render_then_parse_gives_the_memory_back(memory: Memory) -> None:
    assert parse_memory(Path("memory.md"), render_memory(memory)) == memory


def remember_then_read_back(text: str, kind: str, severity: str | None, tags: list[str], conversation: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        written, carried = Path(folder) / "written", Path(folder) / "carried"
        with Memoir.open(written, embedding_provider="hashing", worker_enabled=False) as memoir:
            try:
                memory = memoir.remember(text, kind=kind, severity=severity, tags=tags, conversation_id=conversation)
            except InvalidInput:
                reject()
        kept = Masker().mask(text).strip()  # what looks like a secret is masked on the way in
        assert (memory.content, memory.tags) == (kept, tuple(dict.fromkeys(t.lstrip("#") for t in tags)))
        folder_of_kind = written / "vault" / "entries" / safe_name(memory.conversation_id) / f"{kind}s"
        assert len(list(folder_of_kind.glob(f"*__{memory.id}.md"))) == 1
        shutil.copytree(written / "vault", carried / "vault")  # a fresh home knows the memory only from its file
        with Memoir.open(carried, embedding_provider="hashing", worker_enabled=False) as memoir:
            assert memoir.memories(memory.conversation_id) == [memory]


@settings(max_examples=40)
@given(TEXTS, kinds(), TAGS, CONVERSATIONS)
def test_a_remembered_memory_comes_back_from_its_file(
    text: str, kind: tuple[MemoryKind, Severity | None], tags: list[str], conversation: str
) -> None:
    remember_then_read_back(text, kind[0].value, kind[1].value if kind[1] else None, tags, conversation)


@pytest.mark.parametrize(
    "text", ["key: value", "- item", "# heading", "---", "null", "1e3", "  padded  ", "a\n---\nb", "🦜 " * 5000]
)
def test_yaml_look_alikes_come_back_as_text(text: str) -> None:
    remember_then_read_back(text, "fact", None, ["true", "#1e3"], "null")


def test_a_carriage_return_comes_back() -> None:
    remember_then_read_back("line one\r\nline two", "fact", None, [], "default")


@pytest.mark.parametrize("separator", ["\x85", "\u2028", "\u2029", "\x9f"])
def test_a_conversation_id_with_a_line_break_is_refused(tmp_path: Path, separator: str) -> None:
    # PyYAML writes U+0085 (NEL) raw in a quoted scalar and reads it back as a space: ids are one line.
    refused = pytest.raises(InvalidEvent, match="conversation_id: contains a control character or line break")
    with Memoir.open(tmp_path / "home", embedding_provider="hashing", worker_enabled=False) as memoir, refused:
        memoir.remember("x", conversation_id=f"a{separator}b")
