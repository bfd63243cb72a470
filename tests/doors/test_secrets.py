"""Secrets are masked on every way in, before anything is stored, and never become facts.

The masker itself is held to its promises with generated text (a secret of each shape
among ordinary lines: the secret is gone, every other line is kept as it was; masking
twice changes nothing). Then each door is driven for real, as its users drive it: the
façade, REST through `MemoirClient`, gRPC through its generated stub, the proxy through
the official `openai` client, MCP through the SDK's client, a coding agent's hook call, an
imported transcript and the chat agent; in each, the secret is nowhere in the event log, the vault or search.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir import Memoir, MemoirClient
from memoir.agent import ChatSession
from memoir.grpc import memoir_pb2 as pb
from memoir.hooks.capture import events_for, parse_call
from memoir.importers import import_transcripts
from memoir.mcp.server import build_server
from memoir.model.secrets import MASK, Masker
from memoir.server import serving
from tests.doors.test_grpc import serving as grpc_serving
from tests.doors.test_mcp import call
from tests.doors.test_proxy import openai_client, served
from tests.scripted_server import ScriptedServer, chat_reply, models

AWS = "AKIAIOSFODNN7EXAMPLE"
OPENAI = "sk-proj-abcdefghijklmnop1234567890"

# (what is said, the secret in it): the shapes of seed 001 and the ones users hit.
SHAPES = [
    (f"My AWS key is {AWS}", AWS),
    (f"use {OPENAI} for the bot", OPENAI),
    ("ghp_abcdefghijklmnopqrstuvwxyz0123456789AB is the deploy token", "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"),
    ("my password is hunter2", "hunter2"),
    ("The wifi passcode: Tr0ub4dor&3", "Tr0ub4dor&3"),
    ("DB_PASSWORD=correcthorse99", "correcthorse99"),
    ("export API_TOKEN='zq8w7e6r5t4y'", "zq8w7e6r5t4y"),
    ('{"password": "s3cr3t-value"}', "s3cr3t-value"),
    ("apiKey: a1b2c3d4e5f6", "a1b2c3d4e5f6"),
    ("mysql -u root -pSECRET123 shop", "SECRET123"),
    ("pg_dump --password Pa55word shop", "Pa55word"),
    ("postgres://app:letmein42@db.internal:5432/shop", "letmein42"),
    ("Authorization: Bearer abcdef0123456789abcdef", "abcdef0123456789abcdef"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA"),
]
WORDS = st.sampled_from(["the", "ferry", "leaves", "at", "nine", "we", "meet", "Ada", "in", "Porto", "42", "café"])
LINES = st.lists(st.lists(WORDS, min_size=1, max_size=8).map(" ".join), max_size=4)


@given(before=LINES, after=LINES, shape=st.sampled_from(SHAPES))
def test_a_secret_among_ordinary_lines_is_masked_and_the_lines_around_it_kept(
    before: list[str], after: list[str], shape: tuple[str, str]
) -> None:
    said, secret = shape
    masked = Masker().mask("\n".join([*before, said, *after]))
    assert secret not in masked and MASK in masked
    lines = masked.split("\n")
    assert lines[: len(before)] == before
    assert lines[len(lines) - len(after) :] == after if after else True


@given(st.text())
def test_masking_is_idempotent_and_never_raises(text: str) -> None:
    once = Masker().mask(text)
    assert Masker().mask(once) == once


def test_an_empty_assignment_does_not_reach_into_the_next_line() -> None:
    env = "API_KEY=\nREGION=eu-west-1\nDEBUG=true"
    assert Masker().mask(env) == env


def test_words_that_only_sound_like_secrets_are_kept() -> None:
    for text in (
        "the password is the same as before",
        "the token is expired",
        "the pin is loose",
        "monkey = 12345",
        "primary key: order_id",
        "the key is under the mat",
    ):
        assert Masker().mask(text) == text


def test_json_values_are_masked_before_they_are_encoded() -> None:
    read = {"file": {"filePath": "config.json", "content": '{\n  "password": "hunter2",\n  "port": 8080\n}'}}
    masked = Masker().mask_tree({**read, "apiKey": "zzz", "password": 1234, "tokens_used": 12})
    encoded = json.dumps(masked)
    assert "hunter2" not in encoded and "zzz" not in encoded and "1234" not in encoded
    assert '"port": 8080' in masked["file"]["content"] and masked["tokens_used"] == 12


def a_read(path: str, content: str, **response: Any) -> dict[str, Any]:
    """Claude Code's PostToolUse for a Read of `path` that answered `content` (and `response`'s other keys)."""
    return {
        "session_id": "abc",
        "cwd": "/tmp",
        "hook_event_name": "PostToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": path},
        "tool_response": {"file": {"filePath": path, "content": content}, **response},
    }


def test_a_config_file_a_hook_read_is_stored_without_its_secrets() -> None:
    """The hook's way: a JSON tool response masked value by value before it is encoded (encoding
    escapes the quotes the patterns look for)."""
    content = '{\n  "password": "hunter2",\n  "port": 8080\n}'
    call = a_read("/tmp/config.json", content, apiKey="zq8w7e6r5t4y")
    events = events_for(parse_call("claude", json.dumps(call).encode()), Masker())
    [result] = [e["text"] for e in events if e["event_type"] == "tool_result"]
    assert "hunter2" not in result and "zq8w7e6r5t4y" not in result and MASK in result
    assert "8080" in result and "config.json" in result


# -- every door ------------------------------------------------------------------------------


def everything_stored(memoir: Memoir) -> str:
    """The event log, the vault's files and what search finds, as one text."""
    memoir.flush()
    events = [e.to_dict() for e in memoir.events(limit=1000, all_agents=True)]
    vault = [p.read_text() for p in memoir.vault_root.rglob("*.md")]
    hits = [
        h.text
        for conversation in {e["conversation_id"] for e in events}
        for h in memoir.search("key password token secret", k=50, conversation_id=conversation)
    ]
    return json.dumps([events, vault, hits], ensure_ascii=False)


@pytest.fixture
def home_memoir(open_memoir: Callable[..., Memoir]) -> Memoir:
    return open_memoir(embedding_provider="hashing")


def said_through_the_facade(memoir: Memoir, text: str) -> None:
    memoir.ingest({"session_id": "s1", "conversation_id": "c1", "event_type": "user_message", "text": text})
    memoir.remember(text, conversation_id="c1")


def said_through_rest(memoir: Memoir, text: str) -> None:
    with serving(memoir) as where, MemoirClient(where.url) as client:
        client.ingest({"session_id": "s1", "conversation_id": "c1", "event_type": "user_message", "text": text})
        client.remember(text, conversation_id="c1")


def said_through_the_proxy(memoir: Memoir, text: str) -> None:
    with served(memoir) as base:  # forwarding to the scripted upstream the home is configured with
        client = openai_client(base_url=base, api_key="unused")
        answer = client.chat.completions.create(
            model="qwen", messages=[{"role": "user", "content": text}], extra_body={"memory_id": "c1"}
        )
    assert answer.choices[0].message.content == "Noted."


def said_through_grpc(memoir: Memoir, text: str) -> None:
    with grpc_serving(memoir) as stub:
        event = pb.Event(session_id="s1", event_type=pb.EventType.EVENT_TYPE_USER_MESSAGE, text=text)
        stub.IngestEvent(pb.IngestEventRequest(event=event, conversation_id="c1"))
        stub.Remember(pb.RememberRequest(text=text, conversation_id="c1"))


def said_through_mcp(memoir: Memoir, text: str) -> None:
    result = call(build_server(memoir), "remember", {"text": text, "conversation_id": "c1"})
    assert not result.is_error


def said_through_a_hook(memoir: Memoir, text: str) -> None:
    payload = {"session_id": "abc", "cwd": "/tmp", "hook_event_name": "UserPromptSubmit", "prompt": text}
    memoir.ingest(events_for(parse_call("claude", json.dumps(payload).encode()), Masker(("nothing-(\\d+)",))))
    tool = a_read("/tmp/notes.txt", text)
    memoir.ingest(events_for(parse_call("claude", json.dumps(tool).encode()), Masker()))


def said_in_a_transcript(memoir: Memoir, text: str, tmp_path: Path) -> None:
    line = {
        "type": "user",
        "uuid": "u1",
        "sessionId": "s-import",
        "timestamp": "2026-11-20T10:00:00Z",
        "cwd": "/tmp",
        "message": {"role": "user", "content": text},
    }
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(json.dumps(line) + "\n")
    import_transcripts(memoir, "claude", [transcript])


def said_in_a_chat(memoir: Memoir, text: str) -> None:
    server = ScriptedServer(
        {"/v1/models": models("scripted-7b"), "/v1/chat/completions": lambda body: (200, chat_reply("Noted."))}
    ).start()
    try:
        settings = memoir.settings.replace(**{"llm.base_url": server.url + "/v1", "llm.model": "scripted-7b"})
        session = ChatSession(memoir, "c1", settings=settings).start()
        session.send(text)
        session.close()
    finally:
        server.stop()


DOORS: dict[str, Callable[..., None]] = {
    "facade": said_through_the_facade,
    "rest": said_through_rest,
    "grpc": said_through_grpc,
    "proxy": said_through_the_proxy,
    "mcp": said_through_mcp,
    "hook": said_through_a_hook,
    "import": said_in_a_transcript,
    "chat": said_in_a_chat,
}


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("shape", [SHAPES[0], SHAPES[3], SHAPES[5]], ids=["aws", "password", "env"])
def test_no_door_stores_a_secret(
    open_memoir: Callable[..., Memoir], tmp_path: Path, door: str, shape: tuple[str, str]
) -> None:
    said, secret = shape
    upstream = ScriptedServer({"/v1/chat/completions": lambda body: (200, chat_reply("Noted."))}).start()
    try:  # the proxy's upstream: the user's own words go to the user's model as they are
        memoir = open_memoir(embedding_provider="hashing", llm_model=None, proxy_upstream_url=upstream.url + "/v1")
        text = f"Hi, I'm Priya and I live in Porto.\n{said}\nI'm vegetarian."
        saying = DOORS[door]
        saying(memoir, text, tmp_path) if door == "import" else saying(memoir, text)
        stored = everything_stored(memoir)
    finally:
        upstream.stop()
    assert secret not in stored
    assert "Porto" in stored and "vegetarian" in stored  # what was beside the secret is kept


def test_a_fact_that_says_a_secret_is_never_kept(home_memoir: Memoir) -> None:
    for text in (f"My AWS key is {AWS}.", "my password is hunter2", "I live in Porto. My API token is ab12cd34ef56."):
        home_memoir.ingest({"session_id": "s1", "conversation_id": "c1", "event_type": "user_message", "text": text})
    home_memoir.flush()
    facts = [m.content for m in home_memoir.memories(conversation_id="c1")]
    assert facts and not any(MASK in fact or "AKIA" in fact or "hunter2" in fact for fact in facts)
    assert any("Porto" in fact for fact in facts)


def test_masking_can_be_turned_off_and_patterns_added(open_memoir: Callable[..., Memoir], home: Path) -> None:
    # Each in a conversation of its own: on PostgreSQL every home of a test shares one database.
    plain = open_memoir(embedding_provider="hashing", privacy_mask_secrets=False)
    said = {"session_id": "s1", "event_type": "user_message", "conversation_id": "plain"}
    plain.ingest({**said, "text": "my password is hunter2"})
    assert plain.events(conversation_id="plain")[0].text == "my password is hunter2"
    plain.close()
    extra = open_memoir(home=home.parent / "other", privacy_secret_patterns=[r"ACME-(\d{6})"])
    extra.ingest({**said, "conversation_id": "badges", "text": "badge ACME-314159"})
    assert extra.events(conversation_id="badges")[0].text == f"badge ACME-{MASK}"


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(before=LINES, shape=st.sampled_from(SHAPES), after=LINES)
def test_what_is_stored_never_holds_the_secret_and_keeps_the_rest(
    home_memoir: Memoir, before: list[str], shape: tuple[str, str], after: list[str]
) -> None:
    said, secret = shape
    text = "\n".join([*before, said, *after])
    [event_id] = home_memoir.ingest({"session_id": "s1", "event_type": "user_message", "text": text})
    kept = home_memoir.get_event(event_id).text
    assert secret not in kept
    assert all(line in kept.split("\n") for line in [*before, *after])
