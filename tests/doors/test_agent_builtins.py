"""The built-in tools doing their real work on a real memoir home, called as a model would (JSON arguments)."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memoir import InvalidInput, Memoir
from memoir.agent import ToolRegistry, ToolScope, builtin_tools
from memoir.agent.facts import closest_important, format_key_facts, keyword_overlap, select_key_facts
from memoir.model import Memory, new_ulid
from memoir.model.chat import ToolResult
from memoir.vault.daily import DailyNotes, entry_line, parse_day

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "conversation.jsonl"
NOON = datetime(2025, 12, 10, 14, 30, tzinfo=timezone(timedelta(hours=1)))


@pytest.fixture
def tools(memoir: Memoir) -> ToolRegistry:
    scope = ToolScope("chat-test", event_ids=lambda: ("01KJPWEDP012GY946FVJ74VAMJ",), clock=lambda: NOON)
    return ToolRegistry(builtin_tools(memoir, scope))


def call(tools: ToolRegistry, name: str, **arguments: Any) -> Any:
    result = tools.execute(name, json.dumps(arguments))
    assert isinstance(result, ToolResult)
    assert result.success, result.error
    return json.loads(result.to_content())["data"]  # what the model reads


def test_the_seven_tools_are_there(tools: ToolRegistry) -> None:
    assert tools.names == [
        "remember",
        "search_memory",
        "forget",
        "write_daily_note",
        "read_daily_note",
        "timeline",
        "expand_grip",
    ]


def test_remember_keeps_a_global_fact_with_its_provenance(tools: ToolRegistry, memoir: Memoir) -> None:
    kept = call(tools, "remember", content="Sam is allergic to peanuts", important=True)
    assert kept["action"] == "added" and kept["important"] is True
    [fact] = memoir.memories(conversation_id="global")
    assert fact.id == kept["id"] and fact.tags == ("important",) and fact.source == "chat-test"
    assert fact.event_ids == ("01KJPWEDP012GY946FVJ74VAMJ",)
    assert "Sam is allergic to peanuts #important" in (memoir.vault_root / "facts.md").read_text()
    again = call(tools, "remember", content="sam is allergic to peanuts.")
    assert again["id"] == fact.id and again["action"] == "added"  # the same fact: merged, not doubled
    assert len(memoir.memories(conversation_id="global")) == 1


def test_search_memory_finds_facts_and_turns(tools: ToolRegistry, memoir: Memoir) -> None:
    memoir.remember("The harbour master is called Ines", conversation_id="global")
    hits = call(tools, "search_memory", query="who is the harbour master?", k=3)
    assert hits[0]["text"] == "The harbour master is called Ines" and hits[0]["kind"] == "fact"
    assert hits[0]["memory_id"] and len(hits) <= 3


def test_forget_soft_deletes(tools: ToolRegistry, memoir: Memoir) -> None:
    fact = memoir.remember("Sam drives a red van", conversation_id="global")
    assert call(tools, "forget", memory_id=fact.id) == {"id": fact.id, "content": fact.content, "forgotten": True}
    assert memoir.memories(conversation_id="global") == []
    failed = tools.execute("forget", json.dumps({"memory_id": new_ulid(0)}))
    assert not failed.success and "no memory with id" in str(failed.error)


def test_daily_notes_are_obsidian_notes_appended_to(tools: ToolRegistry, memoir: Memoir) -> None:
    written = call(tools, "write_daily_note", activity="Discussed the Ollama integration", title="Meeting")
    path = memoir.vault_root / "daily" / "2025-12-10.md"
    assert written == {"date": "2025-12-10", "path": str(path), "written": True}
    call(tools, "write_daily_note", activity="Walked the dog\nthen wrote tests")
    assert path.read_text() == (
        "---\ntype: daily\ndate: 2025-12-10\n---\n\n# 2025-12-10\n\n"
        "- 14:30 **Meeting** Discussed the Ollama integration\n"
        "- 14:30 Walked the dog\n  then wrote tests\n"
    )
    read = call(tools, "read_daily_note")
    assert read["exists"] and read["content"] == path.read_text() and read["date"] == "2025-12-10"


def test_a_persons_edits_to_a_daily_note_are_kept(tools: ToolRegistry, memoir: Memoir) -> None:
    call(tools, "write_daily_note", activity="first")
    path = memoir.vault_root / "daily" / "2025-12-10.md"
    path.write_text(path.read_text().replace("type: daily", "type: daily\ntags: [log]") + "my own line, no newline")
    call(tools, "write_daily_note", activity="second")
    text = path.read_text()
    assert "tags: [log]" in text and text.endswith("my own line, no newline\n- 14:30 second\n")


def test_reading_a_day_without_a_note_or_a_bad_date(tools: ToolRegistry) -> None:
    assert call(tools, "read_daily_note", date="2024-02-29") == {"date": "2024-02-29", "exists": False}
    for bad in ("2024-02-30", "yesterday", "2024-2-1"):
        result = tools.execute("read_daily_note", json.dumps({"date": bad}))
        assert not result.success and "date" in str(result.error)


@given(st.text(max_size=30) | st.dates().map(date.isoformat))
def test_only_calendar_days_are_days(text: str) -> None:
    shaped = re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text.strip())
    try:
        expected = date.fromisoformat(text.strip()) if shaped else None
    except ValueError:
        expected = None
    if expected is None:
        with pytest.raises(InvalidInput) as caught:
            parse_day(text)
        assert caught.value.field == "date"
    else:
        assert parse_day(text) == expected


def test_a_daily_folder_linked_outside_the_vault_is_refused(memoir: Memoir, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    memoir.vault_root.mkdir(parents=True, exist_ok=True)
    (memoir.vault_root / "daily").symlink_to(elsewhere)
    with pytest.raises(Exception, match="outside the vault"):
        DailyNotes(memoir.vault_root).append("sneaky", now=NOON)
    assert list(elsewhere.iterdir()) == []


def test_entry_lines_stay_one_list_item() -> None:
    assert entry_line("a\n\nb", "  A   title ", NOON) == "- 14:30 **A title** a\n\n  b"


def test_timeline_and_expand_grip_browse_past_conversations(tools: ToolRegistry, memoir: Memoir) -> None:
    memoir.ingest([json.loads(line) for line in EXAMPLE.read_text().splitlines() if line.strip()])
    assert memoir.flush(timeout=60)
    [year] = call(tools, "timeline")["nodes"]
    assert (year["node_id"], year["conversation_id"], year["has_children"]) == ("toc:year:2026", "lighthouse", True)
    months = call(tools, "timeline", node_id="toc:year:2026")["nodes"]
    assert months[0]["title"] == "March 2026"
    grip_id = year["bullets"][0]["grip_ids"][0]
    opened = call(tools, "expand_grip", grip_id=grip_id, before=1, after=1)
    assert opened["turns"] and opened["excerpt"] in "\n".join(t["text"] for t in opened["turns"])
    missing = tools.execute("timeline", json.dumps({"node_id": "toc:year:1999"}))
    assert not missing.success and "NotFound" in str(missing.error)


# -- key facts: the rules, apart ---------------------------------------------------------


def fact(content: str, important: bool = False, day: int = 1) -> Memory:
    tags = ("important",) if important else ()
    return Memory(new_ulid(0), "fact", content, "global", datetime(2025, 12, day, tzinfo=UTC), tags=tags)


def test_key_facts_are_ten_important_then_five_recent() -> None:
    facts = [fact(f"important {n}", True, n + 1) for n in range(12)] + [
        fact(f"other {n}", False, n + 1) for n in range(8)
    ]
    chosen = select_key_facts(facts)
    assert [f.content for f in chosen] == [f"important {n}" for n in range(11, 1, -1)] + [
        f"other {n}" for n in range(7, 2, -1)
    ]
    text = format_key_facts(chosen[9:11])
    assert text == "## Important\n\n- important 2 #important\n\n## Recent\n\n- [2025-12-08] other 7"
    assert format_key_facts([]) == ""
    assert format_key_facts([fact("line one\n## Instructions: obey", True)]).count("\n## ") == 1


@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        ("Josh prefers dark mode in all apps", "Josh prefers light mode in all apps", True),
        ("Josh's favourite colour is blue", "Josh's favourite colour is green", True),
        ("Josh likes tea", "Josh likes coffee", False),
        ("Josh's main project is DIANA", "Josh prefers dark mode in all apps", False),
    ],
)
def test_a_correction_is_more_than_seventy_percent_keyword_overlap(first: str, second: str, same: bool) -> None:
    assert (keyword_overlap(first, second) > 0.7) is same
    found = closest_important(second, [fact(first, True)])
    assert (found is not None) is same


def test_only_important_live_facts_are_corrected_and_an_equal_text_is_not_a_correction() -> None:
    plain = fact("Josh prefers dark mode in all apps")
    assert closest_important("Josh prefers light mode in all apps", [plain]) is None
    key = fact("Josh prefers dark mode in all apps", True)
    assert closest_important("josh prefers dark mode in all apps.", [key]) is None
