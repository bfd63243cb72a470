"""Coding agents' hooks: capture as events, fail-open, secrets masked, injection, install/remove.

Payloads are built from the agents' documented formats: Claude Code (and Codex, which
reads the same) send `session_id`, `transcript_path`, `cwd`, `hook_event_name` and the
event's fields; Gemini CLI names its events BeforeAgent, AfterTool, AfterAgent.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir import Memoir
from memoir.errors import ConfigError
from memoir.hooks.capture import events_for, parse_call
from memoir.hooks.injection import InjectionConfig, parse_injection_config, select
from memoir.hooks.install import install_hooks, remove_hooks
from memoir.model.project import project_scope
from memoir.model.secrets import MASK, Masker
from memoir.retrieval.pipeline import Hit
from memoir.server import serving
from tests.conftest import cli

SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz123456"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    return root


def payload(project: Path, event: str, session: str = "sess-1", **fields: Any) -> dict[str, Any]:
    return {
        "session_id": session,
        "transcript_path": str(project / "t.jsonl"),
        "cwd": str(project / "src"),
        "hook_event_name": event,
        **fields,
    }


def claude_session(project: Path) -> list[dict[str, Any]]:
    return [
        payload(project, "SessionStart", source="startup"),
        payload(project, "UserPromptSubmit", prompt=f"Fix the checkout bug; my key is {SECRET}"),
        payload(
            project,
            "PostToolUse",
            tool_name="Read",
            tool_input={"file_path": str(project / "src" / "checkout.py")},
            tool_response={"content": "def checkout(): ...\nSTRIPE_SECRET_KEY=sk_live_abcdefgh12345678"},
            tool_use_id="toolu_01",
        ),
        payload(project, "Stop", stop_hook_active=False, last_assistant_message="Fixed the rounding in checkout."),
        payload(project, "SubagentStop", agent_id="a1", agent_type="Explore"),
        payload(project, "SessionEnd", reason="exit"),
    ]


# -- capture ---------------------------------------------------------------------------


def test_a_claude_session_becomes_events_scoped_by_project_and_session(project: Path) -> None:
    masker = Masker()
    events = [e for p in claude_session(project) for e in events_for(parse_call("claude", json.dumps(p)), masker)]
    kinds = [e["event_type"] for e in events]
    assert kinds == [
        "session_start",
        "user_message",
        "tool_result",
        "assistant_message",
        "assistant_stop",
        "subagent_stop",
        "session_end",
    ]
    assert {e["conversation_id"] for e in events} == {project_scope(project)}
    assert {e["session_id"] for e in events} == {"sess-1"}
    tool = events[2]
    assert tool["metadata"]["tool_name"] == "Read"
    assert tool["metadata"]["file_paths"] == str(project / "src" / "checkout.py")
    assert tool["metadata"]["project"] == str(project)
    assert all(SECRET not in json.dumps(e) and "sk_live_abcdefgh12345678" not in json.dumps(e) for e in events)


def test_gemini_names_its_events_differently_and_means_the_same(project: Path) -> None:
    masker = Masker()
    prompt = events_for(parse_call("gemini", payload(project, "BeforeAgent", prompt="hello")), masker)
    tool = events_for(
        parse_call(
            "gemini",
            payload(
                project,
                "AfterTool",
                tool_name="run_shell_command",
                tool_input={"command": "pytest -q"},
                tool_response={"llmContent": "3 passed"},
            ),
        ),
        masker,
    )
    answer = events_for(parse_call("gemini", payload(project, "AfterAgent", prompt_response="Done.")), masker)
    assert [e["event_type"] for e in prompt + tool + answer] == [
        "user_message",
        "tool_result",
        "assistant_message",
        "assistant_stop",
    ]
    assert "pytest -q" in tool[0]["text"] and "3 passed" in tool[0]["text"]


def test_codex_sends_claudes_names_with_its_own_fields(project: Path) -> None:
    masker = Masker()
    extra = {"model": "gpt-5-codex", "turn_id": "t1"}  # Codex adds these to Claude's fields
    calls = [
        payload(project, "SessionStart", source="startup", model="gpt-5-codex"),
        payload(project, "UserPromptSubmit", prompt="run the tests", **extra),
        payload(
            project,
            "PostToolUse",
            tool_name="Bash",
            tool_input={"command": "pytest -q"},
            tool_response="3 passed",
            tool_use_id="call_1",
            **extra,
        ),
        payload(project, "Stop", last_assistant_message="All green.", stop_hook_active=False, **extra),
    ]
    events = [e for c in calls for e in events_for(parse_call("codex", c), masker)]
    assert [e["event_type"] for e in events] == [
        "session_start",
        "user_message",
        "tool_result",
        "assistant_message",
        "assistant_stop",
    ]
    assert {e["metadata"]["coding_agent"] for e in events} == {"codex"}
    assert events[2]["metadata"]["tool_name"] == "Bash" and "3 passed" in events[2]["text"]


def test_the_same_call_twice_is_the_same_events(project: Path) -> None:
    body = json.dumps(payload(project, "UserPromptSubmit", prompt="hi", timestamp="2026-11-20T10:00:00Z"))
    first, second = (events_for(parse_call("claude", body), Masker()) for _ in range(2))
    assert first == second


@given(st.one_of(st.binary(max_size=200), st.text(max_size=200), st.lists(st.integers(), max_size=3).map(json.dumps)))
@settings(max_examples=150, deadline=None)
def test_any_bytes_are_a_clear_error_or_a_call(body: Any) -> None:
    from memoir.errors import InvalidInput

    try:
        call = parse_call("claude", body)
    except InvalidInput as exc:
        field = exc.field
    else:
        field = None
        events_for(call, Masker())
    assert field in (None, "payload", "session_id", "hook_event_name")


_JSON_TEXT = st.text(st.characters(categories=["Cs", "L", "N", "P"]), max_size=40)  # lone surrogates too
_JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | _JSON_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_JSON_TEXT, inner, max_size=3),
    max_leaves=8,
)


@given(
    tool_input=st.dictionaries(st.sampled_from(["file_path", "path", "paths", "command", "x"]), _JSON_VALUE),
    cwd=st.one_of(_JSON_TEXT, st.just("/ab" * 2000), st.just("/tmp/\udcff")),
)
@settings(max_examples=150, deadline=None)
def test_whatever_a_tool_call_holds_its_events_are_valid(tool_input: dict[str, Any], cwd: str) -> None:
    from memoir.model.event import Event

    body = {"session_id": "s", "cwd": cwd, "hook_event_name": "PostToolUse", "tool_name": "Read"}
    call = parse_call("claude", body | {"tool_input": tool_input, "tool_response": tool_input})
    for event in events_for(call, Masker()):
        Event.from_dict(event)  # what ingest checks: a bad path must not cost the call


@given(
    prompt=st.text(max_size=300),
    secret=st.sampled_from(
        [
            SECRET,
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB",
            "AKIAABCDEFGHIJKLMNOP",
            "xoxb-1234567890-abcdefghij",
            "AIzaSyA1234567890abcdefghijklmnopqrstuv",
        ]
    ),
)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_secrets_never_reach_an_event_whatever_surrounds_them(prompt: str, secret: str, tmp_path_factory: Any) -> None:
    text = f"{prompt} {secret} {prompt}"
    call = parse_call("claude", {"session_id": "s", "cwd": "/", "hook_event_name": "UserPromptSubmit", "prompt": text})
    for event in events_for(call, Masker()):
        assert secret not in event["text"]


def test_env_style_assignments_keep_their_name_and_lose_their_value() -> None:
    masked = Masker().mask("DB_PASSWORD=hunter2222\nexport API_TOKEN='abcd1234'\nmonkey = 12345")
    assert masked == f"DB_PASSWORD={MASK}\nexport API_TOKEN='{MASK}'\nmonkey = 12345"
    assert Masker(("internal-(\\d{6})",)).mask("ticket internal-123456") == f"ticket internal-{MASK}"
    with pytest.raises(ConfigError, match=r"privacy.secret_patterns\[0\]"):
        Masker(("(unclosed",))


# -- the server's http hook ---------------------------------------------------------------


@pytest.fixture
def served(open_memoir: Callable[..., Memoir]) -> Iterator[tuple[Memoir, str]]:
    memoir = open_memoir()
    with serving(memoir) as where:
        yield memoir, where.url


def test_the_http_hook_stores_the_session_and_answers_continue(served: tuple[Memoir, str], project: Path) -> None:
    memoir, url = served
    with httpx.Client(base_url=url, trust_env=False) as http:
        answers = [http.post("/hooks/claude", json=p) for p in claude_session(project)]
    assert all(a.status_code == 200 and a.json()["continue"] is True for a in answers)
    stored = memoir.events(conversation_id=project_scope(project))
    assert [e.event_type.value for e in stored][:3] == ["session_start", "user_message", "tool_result"]
    assert all(SECRET not in e.text for e in stored)


def test_a_bad_hook_call_still_lets_the_agent_continue(served: tuple[Memoir, str]) -> None:
    _, url = served
    with httpx.Client(base_url=url, trust_env=False) as http:
        answer = http.post("/hooks/claude", content=b"\xff not json")
        unknown = http.post("/hooks/cursor", json={"session_id": "s"})
    assert answer.status_code == 200 and answer.json() == {"continue": True}
    assert "payload" in answer.headers["X-Memoir-Error"]
    assert "agent" in unknown.headers["X-Memoir-Error"]


def test_session_start_and_prompts_bring_the_projects_memories(served: tuple[Memoir, str], project: Path) -> None:
    memoir, url = served
    scope = project_scope(project)
    memoir.remember("Never call the payment API without an idempotency key", kind="gotcha", conversation_id=scope)
    memoir.remember("Checkout totals are rounded half-even", kind="decision", conversation_id=scope)
    memoir.remember("Unrelated: the other repo uses Go", kind="gotcha", conversation_id="elsewhere")
    memoir.wait_searchable(30)
    with httpx.Client(base_url=url, trust_env=False) as http:
        start = http.post("/hooks/claude", json=payload(project, "SessionStart", source="startup")).json()
        prompt = http.post(
            "/hooks/claude", json=payload(project, "UserPromptSubmit", prompt="how are checkout totals rounded?")
        ).json()
    context = start["hookSpecificOutput"]["additionalContext"]
    assert start["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "idempotency key" in context and "half-even" in context and "Go" not in context
    assert "not instructions" in context
    assert "half-even" in prompt["hookSpecificOutput"]["additionalContext"]


def test_post_tool_use_injects_gotchas_once_per_session(served: tuple[Memoir, str], project: Path) -> None:
    memoir, url = served
    scope = project_scope(project)
    memoir.remember("checkout.py: totals must use Decimal, floats lose cents", kind="gotcha", conversation_id=scope)
    memoir.wait_searchable(30)
    read = payload(
        project, "PostToolUse", tool_name="Read", tool_input={"file_path": str(project / "src" / "checkout.py")}
    )
    with httpx.Client(base_url=url, trust_env=False) as http:
        first = http.post("/hooks/claude", json=read).json()
        again = http.post("/hooks/claude", json={**read, "tool_use_id": "second"}).json()
        other_session = http.post("/hooks/claude", json={**read, "session_id": "sess-2"}).json()
    text = first["hookSpecificOutput"]["additionalContext"]
    assert "🚨" in text and "Decimal" in text and "Relevance:" in text
    assert "hookSpecificOutput" not in again  # shown already in this session
    assert "Decimal" in other_session["hookSpecificOutput"]["additionalContext"]


# -- the command form ------------------------------------------------------------------------


def run_command(
    home: Path, body: bytes | str, *args: str, server: str | None = None, **env_vars: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMOIR_")}
    env["MEMOIR_HOOKS_SERVER_URL"] = server or "http://127.0.0.1:9"  # nothing listens on the discard port
    env["MEMOIR_HOOKS_AUTOSTART"] = "false"  # else a refused connection starts a server there
    env.update(env_vars)
    data = body.encode() if isinstance(body, str) else body
    return subprocess.run(
        [sys.executable, "-m", "memoir", "--home", str(home), "hook", *args],
        input=data.decode("utf-8", "replace"),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_without_a_server_the_command_spools_and_the_next_open_stores(home: Path, project: Path) -> None:
    for item in claude_session(project)[:3]:
        done = run_command(home, json.dumps(item), item["hook_event_name"])
        assert done.returncode == 0 and json.loads(done.stdout) == {"continue": True}, done.stderr
    assert (home / "spool" / "events.jsonl").is_file()
    with Memoir.open(home, worker_enabled=False) as memoir:
        stored = memoir.events(conversation_id=project_scope(project))
    assert [e.event_type.value for e in stored] == ["session_start", "user_message", "tool_result"]
    assert not (home / "spool" / "events.jsonl").exists()


@contextmanager
def trickling_server() -> Iterator[str]:
    """A server on loopback that reads a request, then answers one byte every 0.1 s, for ever."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            with connection:
                connection.recv(65536)
                with contextlib.suppress(OSError):
                    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n")
                    while not stop.wait(0.1):
                        connection.sendall(b" ")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        listener.close()


def test_a_server_that_trickles_its_answer_costs_the_agent_one_timeout(home: Path, project: Path) -> None:
    """hooks.timeout bounds the whole call, not each read: then the event is spooled and the agent goes on."""
    item = payload(project, "UserPromptSubmit", prompt="the deploy runs on Fridays")
    with trickling_server() as url:  # without one deadline the call never ends, and run_command's 60 s fail it
        started = time.monotonic()
        done = run_command(home, json.dumps(item), "UserPromptSubmit", server=url, MEMOIR_HOOKS_TIMEOUT="1")
        took = time.monotonic() - started
    assert done.returncode == 0 and json.loads(done.stdout) == {"continue": True}, done.stderr
    assert took < 10, f"the hook took {took:.1f} s against a 1 s timeout"  # one deadline, plus the process's start
    spooled = [json.loads(line) for line in (home / "spool" / "events.jsonl").read_text().splitlines()]
    assert [e["text"] for e in spooled] == [item["prompt"]]  # the event waits in the spool, not lost


def test_with_a_server_the_command_hands_the_call_over(
    served: tuple[Memoir, str], tmp_path: Path, project: Path
) -> None:
    memoir, url = served
    item = payload(project, "UserPromptSubmit", prompt="remember the deploy runs on Fridays")
    done = run_command(tmp_path / "unused-home", json.dumps(item), "UserPromptSubmit", server=url)
    assert done.returncode == 0 and json.loads(done.stdout)["continue"] is True
    assert [e.text for e in memoir.events(conversation_id=project_scope(project))] == [item["prompt"]]
    assert not (tmp_path / "unused-home" / "spool").exists()


@pytest.mark.slow
def test_without_a_server_the_first_call_starts_one_and_the_next_get_its_answer(home: Path, project: Path) -> None:
    Memoir.open(home, worker_enabled=False).close()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}"
    options = {"MEMOIR_HOOKS_AUTOSTART": "true", "MEMOIR_EMBEDDING_PROVIDER": "hashing"}
    first, second = claude_session(project)[:2]
    done = run_command(home, json.dumps(first), "SessionStart", server=url, **options)
    assert done.returncode == 0 and "started `memoir serve`" in done.stderr
    pid = int((home / "serve.starting").read_text())
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not _listens(url):
            time.sleep(0.5)
        assert _listens(url), (home / "logs" / "serve.log").read_text()[-2000:]
        again = run_command(home, json.dumps(second), "UserPromptSubmit", server=url, **options)
        assert again.returncode == 0 and "started" not in again.stderr  # answered by the server it started
        with httpx.Client(base_url=url, trust_env=False) as http:
            stored = http.get("/api/v1/events", params={"conversation_id": project_scope(project)}).json()
        kinds = [e["event_type"] for e in stored["events"]]
        assert kinds == ["session_start", "user_message"]  # the spooled first call too
    finally:
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.2)


def _listens(url: str) -> bool:
    try:
        return httpx.get(url + "/health", timeout=1, trust_env=False).status_code == 200
    except httpx.HTTPError:
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("damage", ["locked", "corrupt", "not a folder"])
def test_the_command_fails_open_whatever_state_the_store_is_in(tmp_path: Path, project: Path, damage: str) -> None:
    home = tmp_path / "home"
    Memoir.open(home, worker_enabled=False).close()
    held = None
    if damage == "locked":
        import sqlite3

        held = sqlite3.connect(home / "memoir.db", isolation_level=None)
        held.execute("BEGIN EXCLUSIVE")
    elif damage == "corrupt":
        (home / "memoir.db").write_bytes(b"this is not a database" * 100)
    else:
        home = tmp_path / "a-file"
        home.write_text("not a home")
    try:
        item = payload(project, "UserPromptSubmit", prompt="still captured")
        done = run_command(home, json.dumps(item), "UserPromptSubmit")
    finally:
        if held is not None:
            held.execute("ROLLBACK")
            held.close()
    assert done.returncode == 0 and json.loads(done.stdout) == {"continue": True}
    if damage != "not a folder":  # the spool does not need the database
        assert "still captured" in (home / "spool" / "events.jsonl").read_text()
    else:
        assert "memoir hook:" in done.stderr


def test_garbage_on_stdin_is_one_line_on_stderr_and_continue(home: Path) -> None:
    done = run_command(home, "{not json", "PostToolUse")
    assert done.returncode == 0 and json.loads(done.stdout) == {"continue": True}
    assert done.stderr.startswith("memoir hook:") and done.stderr.count("\n") == 1


# -- injection rules ---------------------------------------------------------------------------


def hit(memory_id: str, kind: str, relevance: float) -> Hit:
    from datetime import UTC, datetime

    return Hit(kind, f"{kind} {memory_id}", relevance, (), memory_id, {}, datetime.now(UTC), "c", relevance=relevance)


def test_thresholds_multipliers_limits_dedup_and_priority() -> None:
    config = parse_injection_config(
        {"injection": {"types": {"decision": {"enabled": True}, "learning": {"enabled": True, "limit": 1}}}}
    )
    hits = [hit(f"g{i}", "gotcha", 0.3 + i / 100) for i in range(7)]
    hits += [hit("d1", "decision", 0.5), hit("d2", "decision", 0.3)]
    hits += [hit("l1", "learning", 0.9), hit("l2", "learning", 0.8)]
    seen: set[tuple[str, str]] = {("g6", "gotcha")}
    result = select(hits, config, "Read", seen)
    assert [h.memory_id for h in result.memories] == ["g5", "g4", "g3", "g2", "g1", "d1", "l1"]  # 5 gotchas, limits
    assert result.deduplication_hits == 1 and result.total_count == 7
    bash = select(hits, config, "Bash", set())  # 0.35 x 1.2 = 0.42: d2 stays out, d1 in
    assert "d1" in [h.memory_id for h in bash.memories] and "d2" not in [h.memory_id for h in bash.memories]
    edit = select([hit("d2", "decision", 0.3)], config, "Edit", set())  # 0.35 x 0.8 = 0.28
    assert [h.memory_id for h in edit.memories] == ["d2"]
    again = select(hits, config, "Read", seen)
    assert all((h.memory_id, h.kind) not in {("g5", "gotcha")} for h in again.memories)


def test_decisions_and_learnings_are_opt_in_as_the_seed_says() -> None:
    assert InjectionConfig().enabled_types() == ["gotcha"]
    assert InjectionConfig().effective_threshold("gotcha", "Bash") == pytest.approx(0.24)


@pytest.mark.parametrize(
    ("section", "field"),
    [
        ({"types": {"gotcha": {"threshold": 1.5}}}, "injection.types.gotcha.threshold"),
        ({"types": {"gotcha": {"limit": 0}}}, "injection.types.gotcha.limit"),
        ({"types": {"hunch": {}}}, "injection.types.hunch"),
        ({"hook_multipliers": {"Bash": 3}}, "injection.hook_multipliers.Bash"),
        ({"hook_multipliers": {"Grep": 1}}, "injection.hook_multipliers.Grep"),
        ({"enabled": "yes"}, "injection.enabled"),
    ],
)
def test_a_bad_injection_setting_names_its_field(section: dict[str, Any], field: str) -> None:
    with pytest.raises(ConfigError, match=f"^{field}: "):
        parse_injection_config({"injection": section})


# -- install and remove -------------------------------------------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=12,
)
_USER_HOOK = st.fixed_dictionaries({"type": st.just("command"), "command": st.text(min_size=1, max_size=20)})
_USER_SETTINGS = st.fixed_dictionaries(
    {
        "hooks": st.dictionaries(
            st.sampled_from(["PostToolUse", "Stop", "SessionStart", "Notification"]),
            st.lists(st.fixed_dictionaries({"hooks": st.lists(_USER_HOOK, min_size=1, max_size=2)}), max_size=2),
            max_size=3,
        ),
        "other": _JSON,
    }
)


@given(existing=_USER_SETTINGS, agent=st.sampled_from(["claude", "codex", "gemini"]))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_install_then_remove_gives_back_the_users_settings(
    tmp_path: Path, existing: dict[str, Any], agent: str
) -> None:
    path = tmp_path / agent / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(existing))
    plan = install_hooks(agent, path, kind="command", server_url=None, memoir_home=None)
    installed = json.loads(path.read_text())
    for event, groups in existing["hooks"].items():
        assert installed["hooks"][event][: len(groups)] == groups  # theirs first, untouched
    assert set(plan.added) <= set(installed["hooks"])
    install_hooks(agent, path, kind="command", server_url=None, memoir_home=None)  # twice: no duplicates
    assert json.loads(path.read_text()) == installed
    assert remove_hooks(path) == len(plan.added)
    after = json.loads(path.read_text())
    assert meaning(after) == meaning(existing)  # an event with no hook groups means nothing either way


def meaning(settings: dict[str, Any]) -> dict[str, Any]:
    hooks = {event: groups for event, groups in settings.get("hooks", {}).items() if groups}
    return {**{k: v for k, v in settings.items() if k != "hooks"}, "hooks": hooks}


def test_a_settings_file_memoir_cannot_read_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{ broken")
    with pytest.raises(ConfigError, match="not valid JSON"):
        install_hooks("claude", path, kind="command", server_url=None, memoir_home=None)
    assert path.read_text() == "{ broken"


def test_the_http_form_points_claude_at_the_server(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    install_hooks("claude", path, kind="http", server_url="http://127.0.0.1:8765", memoir_home=None)
    entry = json.loads(path.read_text())["hooks"]["PostToolUse"][0]["hooks"][0]
    assert entry == {"type": "http", "url": "http://127.0.0.1:8765/hooks/claude", "timeout": 10}
    assert remove_hooks(path) == 6


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    depth=st.integers(1, 50_000),
    shape=st.sampled_from(["[", "{a: ", "- "]),
    event=st.sampled_from(["SessionStart", "UserPromptSubmit", "PostToolUse"]),
)
def test_whatever_the_projects_front_matter_holds_the_hook_answers_continue(
    served: tuple[Memoir, str], project: Path, depth: int, shape: str, event: str
) -> None:
    """`.claude/memory.local.md` is the user's file: nesting deep enough to break a YAML parser
    is named in X-Memoir-Error, and the agent goes on."""
    _, url = served
    (project / ".claude").mkdir(exist_ok=True)
    nested = shape * depth if shape != "- " else "".join("  " * n + "- \n" for n in range(min(depth, 2000)))
    (project / ".claude" / "memory.local.md").write_text(f"---\ninjection: {nested}\n---\n")
    fields: dict[str, Any] = {
        "prompt": "how are totals rounded?",
        "tool_name": "Read",
        "tool_input": {"file_path": "a"},
    }
    with httpx.Client(base_url=url, trust_env=False, timeout=60) as http:
        answer = http.post("/hooks/claude", json=payload(project, event, **fields))
    assert answer.status_code == 200 and answer.json()["continue"] is True


def test_the_latest_summary_of_work_reads_tool_calls_as_text_not_json(
    served: tuple[Memoir, str], project: Path
) -> None:
    memoir, url = served
    checkout = str(project / "src" / "checkout.py")
    read = {"type": "text", "file": {"filePath": checkout, "content": "def total(items): ...", "numLines": 1}}
    session = [
        payload(project, "SessionStart", source="startup"),
        payload(project, "PostToolUse", tool_name="Read", tool_input={"file_path": checkout}, tool_response=read),
        payload(
            project,
            "PostToolUse",
            tool_name="Read",
            tool_input={"file_path": checkout},
            tool_response=read,
            tool_use_id="2",
        ),
        payload(project, "SessionEnd", reason="exit"),
    ]
    with httpx.Client(base_url=url, trust_env=False, timeout=60) as http:
        for item in session:
            http.post("/hooks/claude", json=item)
        assert memoir.flush(timeout=60)
        start = http.post("/hooks/claude", json=payload(project, "SessionStart", "sess-2", source="startup")).json()
    context = start["hookSpecificOutput"]["additionalContext"]
    assert "latest summary of work" in context and "Used Read on " + checkout in context
    assert '{"' not in context and "filePath" not in context


def test_installing_for_codex_says_how_to_trust_the_hooks_and_trusts_nothing_itself(
    home: Path, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    done = cli("hooks", "install", "--agent", "codex", "--type", "command", home=home, MEMOIR_HOOKS_SERVER_URL="")
    assert done.exit_code == 0, done.stderr
    assert (project / ".codex" / "hooks.json").is_file()
    assert "Trust all and continue" in done.stderr and "/hooks" in done.stderr
    assert not list((tmp_path / "user").rglob("config.toml")) and not (project / ".codex" / "config.toml").exists()
    claude = cli("hooks", "install", "--agent", "claude", "--type", "command", home=home, MEMOIR_HOOKS_SERVER_URL="")
    assert "Trust all" not in claude.stderr  # Claude Code runs its hooks as installed


@pytest.mark.parametrize("autostart", ["true", "false"])
def test_installing_with_no_server_says_what_the_hooks_will_do(
    home: Path, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, autostart: str
) -> None:
    monkeypatch.chdir(project)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    with socket.socket() as probe:  # a loopback port nothing listens on once closed
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}"
    env = {"MEMOIR_HOOKS_SERVER_URL": url, "MEMOIR_HOOKS_AUTOSTART": autostart, "COLUMNS": "400"}
    done = cli("hooks", "install", "--agent", "claude", home=home, **env)
    assert done.exit_code == 0, done.stderr
    assert (project / ".claude" / "settings.json").is_file() and "command hooks installed" in done.stdout
    assert f"no memoir server answers at {url} yet" in done.stderr
    if autostart == "true":
        assert "the first hook call starts `memoir serve` in the background (hooks.autostart)" in done.stderr
    else:
        assert "get no context until you run `memoir serve`" in done.stderr
