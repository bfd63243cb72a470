"""Adaptive conversation summaries (seed 004, 4.4): levels, chunks, the model and its fallback, the vault files."""

from __future__ import annotations

import itertools
import json
import os
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from memoir.errors import InvalidInput, StoreError, UserError
from memoir.history.tokens import count_tokens
from memoir.llm.client import ChatClient
from memoir.llm.service import LLM
from memoir.model import Event, MemoryKind, new_ulid
from memoir.model.memory import Memory
from memoir.timeline.adaptive import (
    CHUNK_PROMPT,
    META_PROMPT,
    ConversationSummary,
    SummaryLevel,
    SummaryPart,
    chunk_turns,
    extractive,
    level_for,
    summarize_conversation,
)
from memoir.vault.summaries import SummaryFiles
from memoir.vault.vault import Vault
from tests.scripted_server import replies, scripted_server

START = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
NOW = datetime(2024, 5, 2, 12, 0, tzinfo=UTC)
PLACES = ["Frankfurt", "Lisbon", "Oslo", "Kyoto", "Denver", "Nairobi", "Lima"]
SERVICES = ["billing", "search", "payments", "mailer", "reports", "gateway"]


def turn(index: int, text: str, conversation: str = "c1") -> Event:
    """A user message (even index) or an assistant answer (odd), one second apart."""
    kind = "user_message" if index % 2 == 0 else "assistant_message"
    return Event.create(
        session_id="s1",
        event_type=kind,
        text=text,
        conversation_id=conversation,
        timestamp=START + timedelta(seconds=index),
    )


def sentence(i: int) -> str:
    return f"We moved the {SERVICES[i % len(SERVICES)]} service to {PLACES[i % len(PLACES)]} on day {i}."


def conversation(tokens: int, per_turn: int = 4) -> list[Event]:
    """Turns of `per_turn` sentences each, until the conversation holds at least `tokens` tokens."""
    turns: list[Event] = []
    total = 0
    while total < tokens:
        i = len(turns)
        text = " ".join(sentence(i * per_turn + k) for k in range(per_turn))
        turns.append(turn(i, text))
        total += count_tokens(text)
    return turns


def words(n: int) -> Event:
    return turn(0, " ".join(["alpha"] * n))


# -- levels ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tokens", "level"),
    [
        (0, "none"),
        (99, "none"),
        (100, "brief"),
        (499, "brief"),
        (500, "standard"),
        (2_999, "standard"),
        (3_000, "detailed"),
        (14_999, "detailed"),
        (15_000, "hierarchical"),
        (1_000_000, "hierarchical"),
    ],
)
def test_levels_change_at_their_bounds(tokens: int, level: str) -> None:
    assert level_for(tokens) is SummaryLevel(level)


def test_the_level_follows_the_turns_tokens() -> None:
    assert summarize_conversation("c1", [words(99)], None).level is SummaryLevel.NONE
    assert summarize_conversation("c1", [words(100)], None).level is SummaryLevel.BRIEF


# -- chunks ---------------------------------------------------------------------------------


def _check_chunks(turns: list[Event], chunk_tokens: int, overlap_tokens: int) -> None:
    chunks = chunk_turns(turns, chunk_tokens, overlap_tokens)
    new = [t.event_id for c in chunks for t in c.turns[c.overlap :]]
    assert new == [t.event_id for t in turns]  # every turn once as new, in order
    assert chunks[0].overlap == 0
    for before, chunk in itertools.pairwise(chunks):
        repeated = chunk.turns[: chunk.overlap]
        assert repeated == before.turns[len(before.turns) - chunk.overlap :]
        assert sum(count_tokens(t.text) for t in repeated) <= overlap_tokens
        assert len(chunk.turns) > chunk.overlap
    for chunk in chunks:
        assert chunk.tokens == sum(count_tokens(t.text) for t in chunk.turns)
        assert chunk.tokens <= chunk_tokens or len(chunk.turns) == 1
        assert chunk.event_ids == tuple(t.event_id for t in chunk.turns)


@given(st.lists(st.integers(min_value=1, max_value=80), min_size=1, max_size=40))
def test_chunks_cover_every_turn_within_their_size(sizes: list[int]) -> None:
    turns = [turn(i, " ".join(["alpha"] * n)) for i, n in enumerate(sizes)]
    _check_chunks(turns, chunk_tokens=60, overlap_tokens=15)


def test_chunks_of_a_long_conversation_are_3000_tokens_with_200_overlap() -> None:
    turns = conversation(20_000)
    chunks = chunk_turns(turns)
    _check_chunks(turns, 3_000, 200)
    assert len(chunks) >= 7
    assert all(2_500 < c.tokens <= 3_000 for c in chunks[:-1])
    assert all(c.overlap >= 1 for c in chunks[1:])  # turns of ~50 tokens: some always fit in 200


def test_a_turn_bigger_than_a_chunk_is_a_chunk_of_its_own() -> None:
    turns = [words(50), turn(1, " ".join(["beta"] * 4_000)), turn(2, "gamma delta")]
    chunks = chunk_turns(turns)
    assert [len(c.turns) for c in chunks] == [1, 1, 1]
    assert chunks[1].turns == (turns[1],)
    assert chunks[1].tokens > 3_000


def test_overlap_must_be_smaller_than_a_chunk() -> None:
    with pytest.raises(InvalidInput, match="overlap_tokens"):
        chunk_turns([words(5)], chunk_tokens=100, overlap_tokens=100)


# -- extractive summaries -------------------------------------------------------------------


def _drawn_from(text: str, turns: list[Event]) -> bool:
    """Every sentence of the summary is words some turn holds."""
    said = [s for s in re.split(r"(?<=[.!?])\s+", text) if s]
    return bool(said) and all(any(s in t.text for t in turns) for s in said)


@pytest.mark.parametrize(
    ("tokens", "level", "levels"),
    [
        (300, "brief", ["L3"]),
        (1_500, "standard", ["L3"]),
        (8_000, "detailed", ["L1", "L1", "L1", "L3"]),
        (16_000, "hierarchical", ["L1"] * 6 + ["L2", "L2", "L3"]),
    ],
)
def test_each_level_has_its_parts(tokens: int, level: str, levels: list[str]) -> None:
    turns = conversation(tokens)
    summary = summarize_conversation("c1", turns, None, agent_id="agent-7")
    assert summary.level is SummaryLevel(level)
    assert [p.level for p in summary.parts] == levels
    assert summary.final is summary.parts[-1]
    assert summary.agent_id == "agent-7"
    assert all(p.source == "extractive" and p.text for p in summary.parts)
    assert set(summary.event_ids) == {t.event_id for t in turns}
    assert summary.final.event_ids == tuple(t.event_id for t in turns)
    assert all(p.tokens_out == count_tokens(p.text) and 0 < p.tokens_out < p.tokens_in for p in summary.parts)


def test_a_hierarchical_summary_groups_five_chunks_per_l2() -> None:
    summary = summarize_conversation("c1", conversation(16_000), None)
    l1 = [p for p in summary.parts if p.level == "L1"]
    l2 = [p for p in summary.parts if p.level == "L2"]
    assert [p.index for p in l2] == [0, 1]
    assert set(l2[0].event_ids) == {e for p in l1[:5] for e in p.event_ids}
    assert set(l2[1].event_ids) == {e for p in l1[5:] for e in p.event_ids}


def test_extractive_summaries_are_deterministic_and_drawn_from_the_turns() -> None:
    for tokens in (300, 1_500, 8_000):
        turns = conversation(tokens)
        first = summarize_conversation("c1", turns, None)
        assert summarize_conversation("c1", turns, None) == first
        assert all(_drawn_from(p.text, turns) for p in first.parts)


def test_a_brief_summary_is_one_sentence_and_a_standard_one_about_an_eighth() -> None:
    brief = summarize_conversation("c1", conversation(300), None).final
    assert brief is not None
    assert len(re.findall(r"[.!?](?:\s|$)", brief.text)) == 1
    standard = summarize_conversation("c1", conversation(2_000), None).final
    assert standard is not None
    assert 0.05 < standard.tokens_out / standard.tokens_in <= 0.15


def test_extractive_keeps_the_order_and_prefers_what_recurs() -> None:
    texts = ["Hello there friend.", "The billing service moved to Oslo.", "Billing in Oslo now costs less."]
    assert extractive(texts, 15) == "The billing service moved to Oslo. Billing in Oslo now costs less."
    assert extractive(texts, 1) in texts  # no sentence fits: the best one rather than nothing
    assert extractive(["ok", "yes"], 10) == "ok"


# -- the model ------------------------------------------------------------------------------

CHAT = "/v1/chat/completions"


def _llm(url: str) -> LLM:
    return LLM(ChatClient(base_url=url + "/v1", model="qwen", retries=0))


def _answer(text: str) -> str:
    return json.dumps({"summary": text})


def test_a_valid_answer_is_used() -> None:
    turns = conversation(300)
    said = "The team moved the billing service to Frankfurt and other services elsewhere."
    with scripted_server({CHAT: replies(_answer(said))}) as server:
        summary = summarize_conversation("c1", turns, _llm(server.url))
    assert summary.final == SummaryPart(
        "L3", 0, said, tuple(t.event_id for t in turns), "llm", summary.final.tokens_in, count_tokens(said)
    )
    body = server.requests[0][1]
    assert body["response_format"]["type"] == "json_schema"
    assert "one sentence" in body["messages"][0]["content"]


def test_a_detailed_summary_asks_per_chunk_then_for_the_meta_summary() -> None:
    turns = conversation(8_000)
    with scripted_server({CHAT: replies(_answer("The billing service moved to Oslo."))}) as server:
        summary = summarize_conversation("c1", turns, _llm(server.url))
    assert [p.source for p in summary.parts] == ["llm"] * 4
    prompts = [body["messages"][0]["content"] for _, body in server.requests]
    assert prompts == [CHUNK_PROMPT] * 3 + [META_PROMPT]
    assert "\n\n" in server.requests[-1][1]["messages"][1]["content"]  # the L1 summaries, apart


@pytest.mark.parametrize(
    "answer",
    [
        _answer("..."),
        _answer(""),
        _answer("Summary"),
        _answer("Quantum chromodynamics explains gluon confinement."),  # shares no word with the turns
        _answer("We moved the billing service. " * 200),  # longer than the conversation
        "this is not JSON {",
        json.dumps({"text": "The billing service moved."}),
    ],
    ids=["dots", "empty", "template", "unrelated", "too long", "broken json", "wrong key"],
)
def test_an_unusable_answer_falls_back_to_the_extractive_summary(answer: str) -> None:
    turns = conversation(300)
    with scripted_server({CHAT: replies(answer)}) as server:
        summary = summarize_conversation("c1", turns, _llm(server.url))
    assert len(server.requests) == 2  # the answer, and the corrective retry
    assert summary == summarize_conversation("c1", turns, None)
    assert summary.final is not None
    assert summary.final.source == "extractive"


def test_a_dead_server_falls_back_to_the_extractive_summary() -> None:
    turns = conversation(8_000)
    summary = summarize_conversation("c1", turns, _llm("http://127.0.0.1:9"))
    assert summary == summarize_conversation("c1", turns, None)


# -- vault files ----------------------------------------------------------------------------


def _summary(conversation_id: str = "c1", tokens: int = 8_000, agent_id: str | None = None) -> ConversationSummary:
    return summarize_conversation(conversation_id, conversation(tokens), None, agent_id=agent_id)


def _front(path: Path) -> dict[str, object]:
    front = yaml.safe_load(path.read_text(encoding="utf-8").split("\n---", 1)[0][3:])
    assert isinstance(front, dict)
    return front


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.md"))}


def test_summary_files_layout_and_front_matter(tmp_path: Path) -> None:
    summary = _summary()
    written = SummaryFiles(tmp_path).write(summary, now=NOW)
    base = tmp_path.resolve() / "entries" / "c1" / "summaries"
    assert written == [base / "L1" / f"chunk_{i}.md" for i in range(3)] + [base / "L3" / "final.md"]
    front = _front(base / "L1" / "chunk_1.md")
    part = summary.parts[1]
    assert front == {
        "id": "summary:c1:L1:1",
        "role": "summary",
        "conversation_id": "c1",
        "summary_kind": "detailed/L1",
        "created_at": "2024-05-02T12:00:00.000Z",
        "source": "extractive",
        "event_ids": list(part.event_ids),
        "tokens_in": part.tokens_in,
        "tokens_out": part.tokens_out,
        "compression": round(part.tokens_out / part.tokens_in, 4),
    }
    assert (base / "L1" / "chunk_1.md").read_text(encoding="utf-8").endswith(f"---\n{part.text}\n")
    files = SummaryFiles(tmp_path)
    assert [(s.level, s.index, s.text) for s in files.read("c1")] == [(p.level, p.index, p.text) for p in summary.parts]
    assert files.read("c1")[0].event_ids == summary.parts[0].event_ids
    assert files.final_text("c1") == summary.final.text if summary.final else False
    assert files.final_text("elsewhere") is None


def test_each_agent_of_a_conversation_keeps_its_own_summary(tmp_path: Path) -> None:
    files = SummaryFiles(tmp_path)
    files.write(_summary(tokens=1_500, agent_id="planner"), now=NOW)
    files.write(_summary(tokens=8_000, agent_id="coder"), now=NOW)
    base = tmp_path.resolve() / "entries" / "c1" / "summaries"
    assert (base / "@planner" / "L3" / "final.md").exists() and (base / "@coder" / "L1" / "chunk_0.md").exists()
    assert _front(base / "@planner" / "L3" / "final.md")["agent_id"] == "planner"
    assert files.final_text("c1") is None  # nobody's summary is everybody's
    files.write(_summary(tokens=8_000, agent_id="planner"), now=NOW + timedelta(hours=1))
    assert (tmp_path / "entries" / "c1" / "deleted" / "summaries" / "@planner" / "L3").is_dir()
    assert [s.level for s in files.read("c1", agent_id="coder")] == ["L1", "L1", "L1", "L3"]


def test_a_new_summary_moves_the_old_files_to_deleted(tmp_path: Path) -> None:
    files = SummaryFiles(tmp_path)
    base = tmp_path / "entries" / "c1"
    files.write(_summary(tokens=8_000), now=NOW)
    first = _files(base / "summaries")
    files.write(_summary(tokens=1_500), now=NOW + timedelta(hours=1))  # standard: an L3 only, no L1
    assert set(_files(base / "summaries")) == {"L3/final.md"}
    kept = _files(base / "deleted" / "summaries")
    assert sorted(kept.values()) == sorted(first.values())  # every old file kept, byte for byte
    assert "L3/final__20240502T130000000Z.md" in kept
    files.write(_summary(tokens=300), now=NOW + timedelta(hours=1))  # same time: a new name, not over the old
    after = _files(base / "deleted" / "summaries")
    assert set(kept.items()) <= set(after.items())
    assert "L3/final__20240502T130000000Z-1.md" in after
    assert not list(tmp_path.rglob(".tmp-*"))


def test_an_unchanged_summary_is_not_rewritten(tmp_path: Path) -> None:
    files = SummaryFiles(tmp_path)
    summary = _summary()
    files.write(summary, now=NOW)
    assert files.write(summary, now=NOW + timedelta(hours=1)) == []
    assert not (tmp_path / "entries" / "c1" / "deleted").exists()


@pytest.mark.parametrize("hostile", ["../../outside", "..", "a/b\\c", "/etc/passwd", ".hidden", "ümlaut name"])
def test_hostile_conversation_ids_stay_inside_the_vault(tmp_path: Path, hostile: str) -> None:
    vault = tmp_path / "vault"
    files = SummaryFiles(vault)
    for path in files.write(_summary(hostile, tokens=300), now=NOW):
        assert path.resolve().is_relative_to((vault / "entries").resolve())
        assert path.parent.parent.parent.parent == vault.resolve() / "entries"
    assert _front(next((vault / "entries").rglob("final.md")))["conversation_id"] == hostile
    assert files.final_text(hostile)
    assert [p.name for p in tmp_path.iterdir()] == ["vault"]


def test_a_conversation_folder_linked_out_of_the_vault_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "vault" / "entries").mkdir(parents=True)
    os.symlink(outside, tmp_path / "vault" / "entries" / "c1")
    files = SummaryFiles(tmp_path / "vault")
    with pytest.raises(UserError, match="outside the vault"):
        files.write(_summary(tokens=300), now=NOW)
    assert not list(outside.iterdir())
    assert files.read("c1") == []
    assert files.final_text("c1") is None


@pytest.mark.parametrize(
    "broken",
    [b"no front matter at all", b"---\nid: [unclosed\n---\ntext\n", b"---\nevent_ids: 5\n---\ntext\n", b"\xff\xfe"],
)
def test_a_broken_summary_file_is_skipped(tmp_path: Path, broken: bytes) -> None:
    files = SummaryFiles(tmp_path)
    files.write(_summary(), now=NOW)
    final = tmp_path / "entries" / "c1" / "summaries" / "L3" / "final.md"
    final.write_bytes(broken)
    assert files.final_text("c1") is None
    assert [s.level for s in files.read("c1")] == ["L1", "L1", "L1"]
    files.write(_summary(), now=NOW + timedelta(hours=1))  # rewritten, and the broken file kept
    assert files.final_text("c1")
    assert broken in _files(tmp_path / "entries" / "c1" / "deleted" / "summaries").values()


def test_a_body_edited_by_hand_is_what_is_read(tmp_path: Path) -> None:
    files = SummaryFiles(tmp_path)
    files.write(_summary(tokens=300), now=NOW)
    final = tmp_path / "entries" / "c1" / "summaries" / "L3" / "final.md"
    final.write_text(final.read_text().split("\n---\n")[0] + "\n---\nMy own words.\n")
    assert files.final_text("c1") == "My own words."


def test_vault_scan_skips_summaries(tmp_path: Path) -> None:
    vault = Vault(tmp_path)
    files = SummaryFiles(tmp_path)
    for conversation_id in ("c1", "summaries"):  # a conversation may be called so: its notes are read
        vault.write(
            Memory(new_ulid(1_714_550_400_000), MemoryKind.FACT, "Sam likes tea", conversation_id=conversation_id)
        )
    files.write(_summary(), now=NOW)
    files.write(_summary(tokens=300), now=NOW + timedelta(hours=1))  # and deleted/summaries
    assert (tmp_path / "entries" / "c1" / "deleted" / "summaries").is_dir()
    found = [note.found for note in vault.scan()]
    assert sorted(m.conversation_id for m in found if isinstance(m, Memory)) == ["c1", "summaries"]
    assert len(found) == 2  # no summary read as a memory, nor reported as a broken note


def test_a_write_cut_short_leaves_every_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = SummaryFiles(tmp_path)
    old, new = _summary(), _summary()
    files.write(old, now=NOW)
    real_replace, calls = os.replace, []

    def crash_on_third(source: str, target: str) -> None:
        calls.append(target)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    monkeypatch.setattr("memoir.vault.files.os.replace", crash_on_third)
    with pytest.raises(StoreError, match="no space left"):
        files.write(new, now=NOW + timedelta(hours=1))
    stored = {(s.level, s.index): s.event_ids for s in files.read("c1")}
    assert len(stored) == 4  # nothing torn, nothing lost: each part old or new
    assert [stored[(p.level, p.index)] == q.event_ids for p, q in zip(old.parts, new.parts, strict=True)] == [
        True,
        True,
        False,
        False,
    ]
    assert not list(tmp_path.rglob(".tmp-*"))
