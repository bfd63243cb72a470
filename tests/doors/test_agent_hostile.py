"""Hostile input to the chat agent's tools: a model's arguments, a person's daily notes, other chats' data.

What a model sends a tool is hostile: text that is not JSON, JSON of the wrong shape,
numbers past any limit, lone surrogates, nesting past the recursion limit, fields no
schema names. `ToolRegistry.execute` answers every call with a `ToolResult` (a failed
one, with a short error, for a bad call) that the session can send back and log: it
never raises. A session given such calls stays READY and logs an answer to each.

A daily note is the person's file: appending keeps every byte they wrote (CRLF, front
matter, a last line without its newline, and its permissions), and a note memoir cannot
read as UTF-8 is refused whole, left as it was. A date is a day of the calendar or a
refusal naming `date`: nothing the model writes as a date reaches a path, and no read
creates a file. Chats stay apart: an agent never finds, forgets or browses another's
memories and turns (unified mode), and a conversation never finds another's turns or
forgets another's memories (its facts, kept in `global`, are the user's, in every chat).
"""

from __future__ import annotations

import json
import stat
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir import InvalidInput, Memoir
from memoir.agent import ChatSession, SessionState, ToolRegistry, ToolScope, builtin_tools
from memoir.agent.context import ChatHistory
from memoir.agent.transcript import event_record
from memoir.agent.turn import tool_message
from memoir.model.chat import Message, ToolCall, ToolResult
from memoir.vault.daily import DailyNotes, entry_line
from tests.scripted_server import ScriptedChat, ScriptedServer, models, tool_call
from tests.unit.test_history_hostile import hostile_text

NOON = datetime(2025, 12, 10, 14, 30, tzinfo=timezone(timedelta(hours=1)))
TODAY = "2025-12-10"
FIXTURES = [HealthCheck.function_scoped_fixture]  # one memoir home per test, shared by its examples on purpose
BUILTINS = ["remember", "search_memory", "forget", "write_daily_note", "read_daily_note", "timeline", "expand_grip"]
FIELDS = [
    "content", "important", "query", "k", "memory_id", "activity", "title", "date",
    "node_id", "conversation_id", "limit", "cursor", "grip_id", "before", "after", "path",
]  # fmt: skip

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | hostile_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(hostile_text, inner, max_size=3),
    max_leaves=10,
)
RAW = [
    "[" * 100_000,  # nesting past the recursion limit
    '{"k": ' + "9" * 5_000 + "}",  # an int past Python's 4,300 digits
    '{"k": 1e999, "limit": -1e999, "before": NaN}',
    '{"content": "\\ud800", "query": "\\udfff", "activity": "a\\ud83d"}',  # lone surrogates, escaped
    '{"content": "\ud800"}',  # and raw
    '{"date": "../../etc/passwd"}',
    '{"activity": "x", "date": "/etc/cron.d/evil", "path": "../../x.md"}',
    '{"memory_id": "../../../vault/facts"}',
    '{"node_id": "toc:year:2026", "limit": 100000000000000000000}',
    '{"grip_id": "\\u0000", "before": -1}',
    "null", "", "   ", "{}", "[]", '"text"', "42", "{\"a\": 1} trailing", "\x00", b"{}".decode(),
]  # fmt: skip
shaped = st.dictionaries(st.sampled_from(FIELDS) | hostile_text, json_values, max_size=5)
arguments = (
    hostile_text
    | st.sampled_from(RAW)
    | json_values.map(json.dumps)
    | shaped.map(json.dumps)
    | shaped.map(lambda value: json.dumps(value, ensure_ascii=False))  # raw surrogates inside the JSON text
)


@pytest.fixture
def memoir(open_memoir: Callable[..., Memoir]) -> Memoir:
    return open_memoir(embedding_provider="hashing")


def registry(
    memoir: Memoir, conversation: str = "chat-hostile", agent: str | None = None, **scope: Any
) -> ToolRegistry:
    return ToolRegistry(builtin_tools(memoir, ToolScope(conversation, agent, clock=lambda: NOON, **scope)))


def files_under(folder: Path) -> set[Path]:
    return {path for path in folder.rglob("*") if path.is_file()}


# -- every built-in tool, any arguments -------------------------------------------------------------


def test_the_built_in_tools_are_the_seven_these_tests_cover(memoir: Memoir) -> None:
    assert registry(memoir).names == BUILTINS


@settings(max_examples=60, suppress_health_check=FIXTURES)
@given(name=st.sampled_from(BUILTINS), raw=arguments)
def test_any_arguments_to_a_built_in_tool_are_answered_and_the_answer_can_be_logged(
    memoir: Memoir, tmp_path: Path, name: str, raw: str
) -> None:
    tools = registry(memoir)
    memoir.vault_root.mkdir(parents=True, exist_ok=True)
    outside = files_under(tmp_path) - files_under(memoir.home)
    result = tools.execute(name, raw)
    assert isinstance(result, ToolResult)
    if result.success:
        json.loads(result.to_content())  # the model reads it
    else:
        assert isinstance(result.error, str) and 0 < len(result.error) <= 501
    answer = tool_message(ToolCall("call_1", name, "{}"), result)  # as the turn answers the call
    assert answer.role == "tool" and answer.tool_call_id == "call_1"
    [logged] = memoir.ingest(event_record(answer, "session-1", "chat-hostile"))  # as the session logs it
    assert memoir.get_event(logged).text == answer.content
    assert files_under(tmp_path) - files_under(memoir.home) == outside  # nothing written outside the home
    # Inside it, only today's note: the day comes from the clock, never from the model.
    assert {p.name for p in files_under(memoir.vault_root / "daily")} <= {f"{TODAY}.md", ".lock"}


def test_arguments_that_are_not_text_are_a_failed_result_not_a_type_error(memoir: Memoir) -> None:
    tools = registry(memoir)
    for value in (42, 4.5, ["activity"], object()):
        result = tools.execute("write_daily_note", value)  # type: ignore[arg-type]
        assert not result.success and str(result.error).startswith("arguments: not JSON")
    assert not (memoir.vault_root / "daily").exists()


# -- a session given hostile calls ----------------------------------------------------------------


@pytest.fixture
def session(memoir: Memoir) -> Iterator[tuple[ChatSession, list[ScriptedChat]]]:
    script = [ScriptedChat("Hello!")]
    server = ScriptedServer({"/v1/models": models("m"), "/v1/chat/completions": lambda body: script[0](body)}).start()
    values = {"llm.base_url": server.url + "/v1", "llm.model": "m"}
    chat = ChatSession(memoir, "chat-hostile", settings=memoir.settings.replace(**values)).start()
    yield chat, script
    chat.close()
    server.stop()


def test_a_turn_of_hostile_calls_to_every_tool_answers_and_logs_each_and_the_session_goes_on(
    session: tuple[ChatSession, list[ScriptedChat]], memoir: Memoir
) -> None:
    chat, script = session
    # 60 calls, each tool with a different raw argument text (a model's answer holds at most 64 calls).
    calls = [tool_call(BUILTINS[n % len(BUILTINS)], RAW[n % len(RAW)], f"call_{n}") for n in range(60)]
    script[0] = ScriptedChat(calls, "Done.")
    reply = chat.send("do everything at once")
    assert chat.state is SessionState.READY and reply.text == "Done."
    assert len(reply.tool_calls) == len(calls)
    answered = [
        e for e in memoir.events(conversation_id="chat-hostile", limit=1000) if e.event_type.value == "tool_result"
    ]
    assert sorted(e.metadata["tool_call_id"] for e in answered) == sorted(c["id"] for c in calls)
    assert chat.send("and now?").text == "Done."  # the conversation goes on, its history valid for the API


@settings(max_examples=30, suppress_health_check=FIXTURES)
@given(saved=st.fixed_dictionaries(
    {},
    optional={
        "summarizedAt": json_values,
        "summarizedThrough": st.sampled_from(["e1", "e2", "e3"]) | json_values,
        "prefix": st.lists(
            st.fixed_dictionaries({}, optional={"event_id": st.sampled_from(["e1", "e2", "gone"]) | json_values})
            | st.fixed_dictionaries({"role": st.sampled_from(["assistant", "system", "robot"]), "content": json_values})
            | json_values,
            max_size=4,
        )
        | json_values,
    },
))  # fmt: skip
def test_a_hand_edited_compression_state_is_taken_back_or_ignored_never_raised(saved: dict[str, Any]) -> None:
    turns = [Message("user" if n % 2 else "assistant", f"turn {n}", event_id=f"e{n}") for n in range(1, 4)]
    history = ChatHistory(Message("system", "You are memoir."), turns)
    before = history.view()
    if not history.restore(saved):
        assert history.view() == before  # nothing changed: compression starts over, nothing is lost
        return
    assert history.view()[0] == before[0] and all(isinstance(m, Message) for m in history.view())
    json.dumps([m.to_openai() for m in history.view()], ensure_ascii=False).encode()  # sendable


# -- daily notes: the person's bytes ----------------------------------------------------------------

FRONT = b"---\ntype: daily\ntags: [log]\n---\n\n# My day\n\n"
HEADS = [b"", FRONT, FRONT.replace(b"\n", b"\r\n"), b"\xef\xbb\xbf"]  # none, front matter (LF, CRLF), a BOM
written = st.builds(
    lambda head, lines, end: head + end.join(lines).encode(),
    st.sampled_from(HEADS),
    st.lists(st.sampled_from(["- walked", "caf\u00e9 \U0001f980", "", "  indented", "# heading"]), max_size=5),
    st.sampled_from(["\n", "\r\n"]),
)
odd = st.sampled_from([b"no trailing newline", b"ends in CR\r", b"latin-1 \xe9t\xe9\n", b"\xff\xfe\x00", b"\x00\x00"])
existing_notes = st.binary(max_size=200) | written | odd
activities = (
    st.text(min_size=1, max_size=60) | hostile_text | st.sampled_from(["a\r\nb", "first\n\nthird", "---\nx: 1"])
)


@settings(max_examples=50, suppress_health_check=FIXTURES)
@given(existing=existing_notes, activity=activities, title=st.none() | hostile_text)
def test_appending_keeps_every_byte_the_person_wrote_or_refuses_and_leaves_the_note_alone(
    memoir: Memoir, existing: bytes, activity: str, title: str | None
) -> None:
    note = memoir.vault_root / "daily" / f"{TODAY}.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_bytes(existing)
    note.chmod(0o640)
    call = {"activity": activity, **({"title": title} if title is not None else {})}
    result = registry(memoir).execute("write_daily_note", json.dumps(call))
    after = note.read_bytes()
    assert stat.S_IMODE(note.stat().st_mode) == 0o640  # the person's permissions, whatever happened
    if not result.success:  # refused: the note as it was, byte for byte
        assert after == existing
    try:
        existing.decode("utf-8")
    except UnicodeDecodeError:  # a note memoir cannot read as text is not rewritten, and not shown garbled
        assert not result.success
        assert not registry(memoir).execute("read_daily_note", "{}").success
        if not str(result.error).startswith(("arguments: ", "InvalidInput: ")):  # the arguments were fine
            assert str(result.error).startswith("VaultFileError") and "not UTF-8" in str(result.error)
        return
    if not result.success:  # an activity or title that is no text to log, named
        assert str(result.error).startswith(("arguments: ", "InvalidInput: activity", "InvalidInput: title"))
        return
    ended = existing + (b"\n" if existing and not existing.endswith(b"\n") else b"")
    assert after.startswith(ended)  # every byte the person wrote, where it was
    sent = json.loads(json.dumps(call))  # as the tool got them: JSON joins an escaped surrogate pair into one character
    activity, title = sent["activity"], sent.get("title")
    entry = entry_line(activity.strip(), title.strip() if title and title.strip() else None, NOON) + "\n"
    assert after[len(ended) :] == entry.encode()  # and only the entry after it
    read = registry(memoir).execute("read_daily_note", json.dumps({"date": TODAY}))
    assert read.success and read.data["content"].encode() == after


def test_a_new_note_gets_its_front_matter_once_and_the_next_entry_only_appends(memoir: Memoir) -> None:
    tools = registry(memoir)
    assert tools.execute("write_daily_note", '{"activity": "first"}').success
    note = memoir.vault_root / "daily" / f"{TODAY}.md"
    made = note.read_bytes()
    assert made.startswith(b"---\ntype: daily\ndate: 2025-12-10\n---\n") and made.count(b"---") == 2
    assert tools.execute("write_daily_note", '{"activity": "second"}').success
    assert note.read_bytes() == made + b"- 14:30 second\n"


ESCAPES = [
    "../../etc",
    "../../../etc/passwd",
    "/etc/passwd",
    "/tmp/2025-12-10",
    "2025-12-10/../../../x",
    "2025-12-10\x00.md",
    "2026-13-45",
    "2025-02-30",
    "0000-01-01",
    "+2025-12-10",
    "2025-12-10.md",
    "\u0662\u0660\u0662\u0665-\u0661\u0662-\u0661\u0660",  # Arabic-Indic digits: a JSON Schema \d, but no day
    "２０２５-１２-１０",  # fullwidth digits
    "2025-12-1\ud800",
    "",
    ".",
    "..",
]


@pytest.mark.parametrize("date", ESCAPES, ids=ascii)
def test_a_date_that_is_not_a_calendar_day_is_refused_naming_date_and_touches_no_file(
    memoir: Memoir, tmp_path: Path, date: str
) -> None:
    memoir.vault_root.mkdir(parents=True, exist_ok=True)
    before = files_under(tmp_path)
    result = registry(memoir).execute("read_daily_note", json.dumps({"date": date}))
    assert not result.success and "date" in str(result.error)
    with pytest.raises(InvalidInput) as refused:
        DailyNotes(memoir.vault_root).read(date)
    assert refused.value.field == "date"
    assert files_under(tmp_path) == before
    assert not (memoir.vault_root / "daily").exists()


@settings(max_examples=40, suppress_health_check=FIXTURES)
@given(date=hostile_text | st.dates().map(lambda d: d.isoformat()) | st.sampled_from(ESCAPES))
def test_any_date_reads_that_days_note_inside_the_vault_or_is_refused(
    memoir: Memoir, tmp_path: Path, date: str
) -> None:
    before = files_under(tmp_path)
    result = registry(memoir).execute("read_daily_note", json.dumps({"date": date}))
    assert files_under(tmp_path) == before  # a read never creates anything
    if result.success:
        assert result.data["date"] == date.strip() and result.data["exists"] is False
    else:
        assert "date" in str(result.error)


def test_writing_takes_no_date_or_path_from_the_model(memoir: Memoir, tmp_path: Path) -> None:
    before = files_under(tmp_path)
    for extra in ({"date": "../../etc"}, {"path": "/tmp/evil.md"}, {"date": "2020-01-01"}):
        result = registry(memoir).execute("write_daily_note", json.dumps({"activity": "x", **extra}))
        assert not result.success and "Additional properties" in str(result.error)
    assert files_under(tmp_path) == before


def test_a_daily_folder_linked_outside_the_vault_is_neither_read_nor_written(memoir: Memoir, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    secret = elsewhere / f"{TODAY}.md"
    secret.write_bytes(b"not the vault's\n")
    memoir.vault_root.mkdir(parents=True, exist_ok=True)
    (memoir.vault_root / "daily").symlink_to(elsewhere)
    tools = registry(memoir)
    read = tools.execute("read_daily_note", "{}")
    assert not read.success and "outside the vault" in str(read.error) and "not the vault's" not in str(read.error)
    write = tools.execute("write_daily_note", '{"activity": "sneaky"}')
    assert not write.success and "outside the vault" in str(write.error)
    assert files_under(elsewhere) == {secret} and secret.read_bytes() == b"not the vault's\n"


def test_a_note_that_is_a_link_or_a_folder_is_left_alone(memoir: Memoir, tmp_path: Path) -> None:
    daily = memoir.vault_root / "daily"
    daily.mkdir(parents=True)
    target = tmp_path / "target.md"
    target.write_bytes(b"keep me\n")
    (daily / f"{TODAY}.md").symlink_to(target)
    result = registry(memoir).execute("write_daily_note", '{"activity": "x"}')
    assert not result.success and "symbolic link" in str(result.error)
    assert target.read_bytes() == b"keep me\n" and (daily / f"{TODAY}.md").is_symlink()
    (daily / f"{TODAY}.md").unlink()
    (daily / f"{TODAY}.md").mkdir()
    assert not registry(memoir).execute("write_daily_note", '{"activity": "x"}').success
    assert (daily / f"{TODAY}.md").is_dir()


# -- isolation ------------------------------------------------------------------------------------------

AGENTS = {"planner": "chat-planner", "coder": "chat-coder"}
TOPICS = {"planner": ["zebra", "violin", "quartz", "orchid"], "coder": ["saffron", "glacier", "lantern", "harbour"]}


@pytest.fixture
def unified(open_memoir: Callable[..., Memoir], home: Path) -> Memoir:
    return open_memoir(home=home, multi_agent_mode="unified", agent_id=None, embedding_provider="hashing")


def agent_tools(memoir: Memoir, agent: str) -> ToolRegistry:
    """The tools as a chat of `agent` has them: a turn's user message is that agent's, logged first."""
    conversation = AGENTS[agent]
    [said] = memoir.ingest(
        {"session_id": f"s-{agent}", "conversation_id": conversation, "event_type": "user_message", "text": "hi"},
        agent_id=agent,
    )
    return registry(memoir, conversation, agent, event_ids=lambda: (said,))


def data(result: ToolResult) -> Any:
    assert result.success, result.error
    return result.data


@settings(max_examples=20, suppress_health_check=FIXTURES)
@given(
    facts=st.lists(
        st.tuples(st.sampled_from(sorted(AGENTS)), st.lists(st.integers(0, 3), min_size=2, max_size=4), st.booleans()),
        min_size=1,
        max_size=4,
    )
)
def test_an_agent_never_finds_or_forgets_another_agents_facts(
    unified: Memoir, facts: list[tuple[str, list[int], bool]]
) -> None:
    tools = {agent: agent_tools(unified, agent) for agent in AGENTS}
    kept: dict[str, set[str]] = {agent: set() for agent in AGENTS}
    for agent, words, important in facts:
        text = f"The {' '.join(TOPICS[agent][w] for w in words)} belongs to the {agent}"
        made = data(tools[agent].execute("remember", json.dumps({"content": text, "important": important})))
        kept[agent].add(made["id"])
        if made["action"] == "updated":  # a correction of its own earlier fact: that one is a tombstone now
            kept[agent].discard(made["replaces"]["id"])
    for agent, other in (("planner", "coder"), ("coder", "planner")):
        theirs = {m.id for m in unified.memories(agent_id=other) if m.agent_id == other}
        assert kept[other] - theirs == set()  # what the other agent remembered is its own, not shared
        for query in [*TOPICS[other], " ".join(TOPICS[other]), f"belongs to the {other}"]:
            hits = data(tools[agent].execute("search_memory", json.dumps({"query": query, "k": 20})))
            assert not {h["memory_id"] for h in hits} & theirs and other not in json.dumps(hits)
        for memory_id in theirs:
            refused = tools[agent].execute("forget", json.dumps({"memory_id": memory_id}))
            assert not refused.success and "no memory with id" in str(refused.error)
        assert {m.id for m in unified.memories(agent_id=other) if m.agent_id == other} == theirs  # none forgotten


def test_an_agent_never_finds_browses_or_opens_another_agents_turns(
    open_memoir: Callable[..., Memoir], home: Path
) -> None:
    memoir = open_memoir(home=home, multi_agent_mode="unified", agent_id=None, embedding_provider="hashing",
                         worker_enabled=True)  # fmt: skip
    for agent, conversation in AGENTS.items():
        words = " ".join(TOPICS[agent])
        memoir.ingest(
            [
                {
                    "session_id": f"s-{agent}",
                    "conversation_id": conversation,
                    "event_type": "assistant_message" if n % 2 else "user_message",
                    "text": f"We talked about the {words} number {n}. The {words} matter.",
                    "timestamp": f"2025-03-0{1 + n // 3}T10:0{n}:00Z",
                }
                for n in range(6)
            ],
            agent_id=agent,
        )
    assert memoir.flush(timeout=60)
    tools = {agent: agent_tools(memoir, agent) for agent in AGENTS}
    for agent, other in (("planner", "coder"), ("coder", "planner")):
        mine = data(tools[agent].execute("timeline", "{}"))["nodes"]
        assert mine and {n["conversation_id"] for n in mine} == {AGENTS[agent]}
        theirs = data(tools[other].execute("timeline", "{}"))["nodes"]
        for query in TOPICS[other]:
            hits = data(tools[agent].execute("search_memory", json.dumps({"query": query, "k": 20})))
            assert all(h["conversation_id"] in (AGENTS[agent], "global") for h in hits)
            assert not any(word in h["text"] for h in hits for word in TOPICS[other])
        browse = {"node_id": theirs[0]["node_id"], "conversation_id": AGENTS[other]}
        assert not tools[agent].execute("timeline", json.dumps(browse)).success
        for grip_id in [g for node in theirs for b in node["bullets"] for g in b["grip_ids"]][:5]:
            opened = tools[agent].execute("expand_grip", json.dumps({"grip_id": grip_id}))
            assert not opened.success and "NotFound" in str(opened.error)
            assert data(tools[other].execute("expand_grip", json.dumps({"grip_id": grip_id})))["turns"]


def test_a_conversation_never_finds_another_conversations_turns_or_forgets_its_memories(
    open_memoir: Callable[..., Memoir],
) -> None:
    """Separate mode: the conversation is the boundary. Facts `remember` keeps go to `global`, the
    user's in every chat by design; what a conversation keeps for itself stays its own. (`timeline`
    and `expand_grip` browse every past conversation of the agent by design: their boundary is the agent.)"""
    memoir = open_memoir(embedding_provider="hashing", worker_enabled=True)
    secrets = {}
    for conversation, words in (("chat-a", TOPICS["planner"]), ("chat-b", TOPICS["coder"])):
        memoir.ingest(
            [
                {"session_id": conversation, "conversation_id": conversation, "event_type": "user_message",
                 "text": f"The {' '.join(words)} number {n} is ours alone."}
                for n in range(4)
            ]
        )  # fmt: skip
        secrets[conversation] = memoir.remember(
            f"The {words[0]} {words[1]} secret of {conversation}", conversation_id=conversation
        )
    assert memoir.flush(timeout=60)
    a, b = registry(memoir, "chat-a"), registry(memoir, "chat-b")
    shared = data(a.execute("remember", json.dumps({"content": "The user prefers tea over coffee"})))
    for tools, mine, other in ((a, "chat-a", "chat-b"), (b, "chat-b", "chat-a")):
        words = TOPICS["planner" if other == "chat-a" else "coder"]
        for query in [*words, " ".join(words), f"secret of {other}"]:
            hits = data(tools.execute("search_memory", json.dumps({"query": query, "k": 20})))
            assert all(h["conversation_id"] in (mine, "global") for h in hits), hits
            assert not any(w in h["text"] for h in hits for w in words)
        their_secret = secrets[other]
        refused = tools.execute("forget", json.dumps({"memory_id": their_secret.id}))
        assert not refused.success and "no memory with id" in str(refused.error)
        assert their_secret.id in {m.id for m in memoir.memories(conversation_id=other)}  # still there
        found = data(tools.execute("search_memory", json.dumps({"query": "tea or coffee"})))
        assert shared["id"] in {h["memory_id"] for h in found}  # the user's fact: in every chat
    assert data(b.execute("forget", json.dumps({"memory_id": shared["id"]})))["forgotten"] is True


def test_daily_notes_called_directly_refuse_bad_values_naming_the_field(memoir: Memoir) -> None:
    """Through Python, not a model: the same checks, as InvalidInput (never a raw AttributeError)."""
    notes = DailyNotes(memoir.vault_root)
    for activity, field in (("\ud800", "activity"), ("   ", "activity"), ("x" * 20_001, "activity"), (5, "activity")):
        with pytest.raises(InvalidInput) as refused:
            notes.append(activity, now=NOON)  # type: ignore[arg-type]
        assert refused.value.field == field
    for title in ("\ud800", "t" * 201, 5, ["a title"]):
        with pytest.raises(InvalidInput) as refused:
            notes.append("fine", title, now=NOON)  # type: ignore[arg-type]
        assert refused.value.field == "title"
    assert not (memoir.vault_root / "daily" / f"{TODAY}.md").exists()
