"""A memory rendered to its Markdown file (YAML front matter, then the text) parses back equal.

Whatever its text, tags and conversation: text that looks like YAML (`: `, `- `, `#`, `---`,
`null`, `1e3`), quotes, emoji, very long lines, several lines. Through a real home and its
vault: tests/store/test_vault_roundtrip.py.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import given, reject, settings
from hypothesis import strategies as st

from memoir import InvalidInput, Memory, MemoryKind, Severity
from memoir.model import new_ulid
from memoir.vault.files import parse_memory, render_memory

YAML_TRAPS = [
    "null", "~", "true", "False", "yes", "off", "1e3", "0x1F", "0o17", "1_000", ".inf", "-.5", "12:30",
    "2026-01-01", "2026-01-01T00:00:00Z", ": ", "key: value", "- item", "#", "# not a comment", "---", "...",
    "'", '"', "''", '"quoted"', "!tag", "&anchor", "*alias", "|", ">", "%YAML 1.1", "@", "`", "[a, b]",
    "{a: b}", "? x", "=", "<<", "\\n", "\t", "\u00a0", "\u2028", "\u0085", "\ufeff", "é", "ß", "日本語",
    "🦜", "👩‍👩‍👧", "🇵🇹",
]  # fmt: skip
# Texts may hold anything UTF-8 carries. Ids (conversation, source) are one line: control
# characters, U+0085 (NEL, a line break to YAML) and U+2028/9 are refused in them, so they are
# drawn without (a drawn id that check_id refuses would only be thrown away: four in five were).
TEXT_CHARS = st.characters(codec="utf-8")
FRONT_CHARS = st.characters(codec="utf-8", exclude_categories=("Cc", "Zl", "Zp"))
PIECES = st.one_of(st.sampled_from(YAML_TRAPS), st.text(TEXT_CHARS, max_size=30))
ONE_LINE_TRAPS = [t for t in YAML_TRAPS if not re.search("[\x00-\x1f\x7f-\x9f\u2028\u2029]", t)]
FRONT_PIECES = st.one_of(st.sampled_from(ONE_LINE_TRAPS), st.text(FRONT_CHARS, max_size=30))
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


# Memoir's times start at 1970 (an earlier one is refused, tests/unit/test_event.py).
MOMENTS = st.datetimes(min_value=datetime(1970, 1, 1), timezones=st.just(UTC))


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
            created_at=draw(MOMENTS),
            tags=draw(TAGS),
            severity=severity,
            event_ids=tuple(new_ulid(ms) for ms in draw(st.lists(st.integers(0, 2**48 - 1), max_size=3))),
            source=draw(st.sampled_from(["user", "llm", "heuristics"]) | FRONT_PIECES),
            replaced_by=new_ulid(1_700_000_000_000) if deleted and draw(st.booleans()) else None,
            deleted_at=draw(MOMENTS) if deleted else None,
        )
    except InvalidInput:
        reject()


@settings(max_examples=300)
@given(memories())
def test_render_then_parse_gives_the_memory_back(memory: Memory) -> None:
    assert parse_memory(Path("memory.md"), render_memory(memory)) == memory
