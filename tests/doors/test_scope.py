"""One scope rule (`memoir.model.project`): what a user keeps is found where they will look for it.

- In a repository, `memoir remember` keeps a note in the repository's scope, which its
  coding-agent sessions (hooks) and its MCP server read.
- Outside any repository, it is about the user and goes to `global`, which `memoir chat`,
  `memoir ask` and the proxy's conversations read.
- `memoir search` and `memoir memories` with no conversation read the whole home, as
  `events()` does, and show each hit's conversation; an empty answer says where it looked
  and how to look wider.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from memoir import Memoir
from memoir.agent import ChatSession
from memoir.hooks.capture import parse_call
from memoir.hooks.handler import handle
from memoir.mcp.server import build_server
from memoir.model.project import GLOBAL, caller_scope, project_scope
from memoir.model.secrets import Masker
from tests.conftest import cli
from tests.doors.test_mcp import call, text
from tests.scripted_server import ScriptedServer, chat_reply, models

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "conversation.jsonl"
HASHING = {"MEMOIR_EMBEDDING_PROVIDER": "hashing"}


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    root = tmp_path / "tides"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    return root


def test_the_rule(tmp_path: Path, repository: Path) -> None:
    assert caller_scope(repository / "src") == project_scope(repository) != GLOBAL
    assert caller_scope(tmp_path) == GLOBAL


def test_what_i_remember_outside_a_project_is_in_every_chat(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_memoir: Callable[..., Memoir]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli("init", home=home, **HASHING).exit_code == 0
    made = cli("remember", "The user's dog is called Biscuit", "--tag", "important", home=home, **HASHING)
    assert made.exit_code == 0 and " in global " in made.stdout, made.stderr
    memoir = open_memoir(embedding_provider="hashing")
    server = ScriptedServer({"/v1/models": models("m"), "/v1/chat/completions": lambda b: (200, chat_reply("ok"))})
    server.start()
    try:
        settings = memoir.settings.replace(**{"llm.base_url": server.url + "/v1", "llm.model": "m"})
        session = ChatSession(memoir, None, settings=settings).start()  # a new conversation, as `memoir ask`
        assert "Biscuit" in session.messages[0].content
        session.close()
    finally:
        server.stop()
    memoir.wait_searchable(30)
    proxied = memoir.build_context("what is my dog called?", conversation_id="some-proxy-conversation")
    assert "Biscuit" in proxied.text


def test_what_i_tell_one_chat_is_known_in_the_next_and_to_the_proxy(open_memoir: Callable[..., Memoir]) -> None:
    """Facts read from a chat's turns are the user's, not the chat's: they go to `global` (event metadata
    `facts_to`), with the chat's turn as their evidence."""
    memoir = open_memoir(embedding_provider="hashing")
    server = ScriptedServer({"/v1/models": models("m"), "/v1/chat/completions": lambda b: (200, chat_reply("ok"))})
    server.start()
    try:
        settings = memoir.settings.replace(**{"llm.base_url": server.url + "/v1", "llm.model": "m"})
        first = ChatSession(memoir, None, settings=settings).start()
        first.send("My dog is called Biscuit and he is 4.")
        first.close()
        memoir.flush(30)
        facts = [m for m in memoir.memories(GLOBAL) if "Biscuit" in m.content]
        turns = memoir.events(conversation_id=first.conversation_id)
        [said] = [e for e in turns if e.event_type.value == "user_message"]
        assert facts and all(f.event_ids == (said.event_id,) for f in facts), facts
        assert said.metadata["facts_to"] == GLOBAL
        assert not [m for m in memoir.memories(first.conversation_id) if "Biscuit" in m.content]
        second = ChatSession(memoir, None, settings=settings).start()  # a new conversation, as `memoir ask`
        assert second.conversation_id != first.conversation_id
        assert "Biscuit" in second.messages[0].content
        second.close()
    finally:
        server.stop()
    memoir.wait_searchable(30)
    assert "Biscuit" in memoir.build_context("what is my dog called?", conversation_id="a-proxy-conversation").text


def test_what_i_remember_in_a_project_reaches_its_coding_agent(
    home: Path, repository: Path, monkeypatch: pytest.MonkeyPatch, open_memoir: Callable[..., Memoir]
) -> None:
    gotcha = "tides.py: NOAA times are local unless time_zone=gmt is passed"
    monkeypatch.chdir(repository / "src")
    assert cli("init", home=home, **HASHING).exit_code == 0
    made = cli("remember", gotcha, "--kind", "gotcha", "--severity", "high", home=home, **HASHING)
    assert made.exit_code == 0 and project_scope(repository) in made.stdout, made.stderr
    memoir = open_memoir(embedding_provider="hashing")
    memoir.wait_searchable(30)

    def hook(event: str, **fields: object) -> str:
        body = {"session_id": "s1", "cwd": str(repository / "src"), "hook_event_name": event, **fields}
        return handle(memoir, parse_call("claude", json.dumps(body).encode()), Masker()).context

    assert "NOAA" in hook("SessionStart", source="startup")
    read = {"file_path": str(repository / "src" / "tides.py")}
    assert "NOAA" in hook("PostToolUse", tool_name="Read", tool_input=read)
    mcp = build_server(memoir, default_conversation=project_scope(repository))
    assert "NOAA" in text(call(mcp, "list_memories", {}))


def test_search_and_memories_with_no_conversation_read_the_whole_home(home: Path, tmp_path: Path) -> None:
    assert cli("init", home=home, **HASHING).exit_code == 0
    assert cli("ingest", str(EXAMPLE), home=home, **HASHING).exit_code == 0
    found = cli("search", "allergic", home=home, COLUMNS="200", **HASHING)
    assert found.exit_code == 0 and "peanut" in found.stdout.lower() and "conversation" in found.stdout
    none = cli("search", "allergic", "--conversation", "elsewhere", home=home, **HASHING)
    assert "no hits in conversation 'elsewhere'" in none.stderr and "leave out --conversation" in none.stderr
    empty = cli("memories", "--conversation", "elsewhere", home=home, **HASHING)
    assert "leave out --conversation" in empty.stderr


def test_an_empty_list_of_events_says_where_it_looked_and_how_to_look_wider(home: Path) -> None:
    assert cli("init", home=home, **HASHING).exit_code == 0
    empty = cli("events", home=home, **HASHING)
    assert empty.exit_code == 0 and "no events in " in empty.stderr and "memoir ingest" in empty.stderr
    assert cli("ingest", str(EXAMPLE), home=home, **HASHING).exit_code == 0
    none = cli("events", "--conversation", "elsewhere", "--session", "s9", home=home, **HASHING)
    assert none.exit_code == 0 and "no events with conversation 'elsewhere', session 's9'" in none.stderr
    assert "leave out --conversation, --session to list the whole home" in none.stderr
    assert "lighthouse" in cli("events", home=home, **HASHING).stdout  # the whole home, unfiltered


def test_events_and_search_agree_on_no_conversation(memoir: Memoir) -> None:
    for conversation in ("harbour", "orchard"):
        memoir.ingest(
            {"session_id": "s", "conversation_id": conversation, "event_type": "user_message",
             "text": f"The {conversation} gate code changed on Monday"}
        )  # fmt: skip
    memoir.wait_searchable(30)
    everywhere = {h.conversation_id for h in memoir.search("gate code changed")}
    assert everywhere == {e.conversation_id for e in memoir.events()} == {"harbour", "orchard"}
    assert {h.conversation_id for h in memoir.search("gate code changed", conversation_id="harbour")} == {"harbour"}
