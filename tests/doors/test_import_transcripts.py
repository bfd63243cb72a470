"""`memoir import`: the transcripts coding agents keep, stored as the events their hooks make.

The transcripts under tests/data/transcripts/ follow the agents' formats (sources in the
docstrings of memoir.importers.claude, .codex and .gemini): a Claude Code session with
a thinking block, three tool calls, a slash command and meta lines; a Codex rollout with
injected context, reasoning, a function call and an apply_patch; a Gemini CLI chat whose
gemini message is written twice (its tool call running, then done). Each holds a secret.
"""

from __future__ import annotations

import copy
import io
import json
import shutil
import tempfile
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from memoir import Memoir
from memoir.cli import importing
from memoir.hooks.capture import events_for, parse_call
from memoir.hooks.handler import capture
from memoir.importers import find_transcripts, import_transcripts
from memoir.importers.records import digest
from memoir.model import Event, now_ms
from memoir.model.secrets import MASK, Masker
from tests.conftest import REPO, cli

DATA = REPO / "tests" / "data" / "transcripts"
CWD = "/home/ada/src/shop"
CLAUDE_SESSION = "7f3c1a2e-5b6d-4e8f-9a0b-1c2d3e4f5a6b"
CLAUDE_FILE = DATA / "claude-code" / "-home-ada-src-shop" / f"{CLAUDE_SESSION}.jsonl"
CODEX_SESSION = "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5"
CODEX_FILE = DATA / "codex" / "2025" / "10" / "29" / f"rollout-2025-10-29T10-15-02-{CODEX_SESSION}.jsonl"
GEMINI_SESSION = "8a1b2c3d-9e8f-4a7b-b6c5-d4e3f2a1b0c9"
GEMINI_FILE = DATA / "gemini" / "tmp" / "shop" / "chats" / "session-2025-11-02T09-30-8a1b2c3d.jsonl"
SECRETS = (
    "sk-proj-Zx8Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9L",
    "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "AIzaSyD4x9Q2wE7rT5yU1iO3pA6sD8fG0hJ2kL4",
)
FIXTURES = [("claude", CLAUDE_FILE, 12), ("codex", CODEX_FILE, 6), ("gemini", GEMINI_FILE, 5)]
HASHING = {"MEMOIR_EMBEDDING_PROVIDER": "hashing"}


def stored(memoir: Memoir) -> list[Event]:
    return list(memoir.events(limit=1000))


def hook_events(memoir: Memoir, agent: str, calls: list[tuple[str, dict[str, Any]]]) -> list[Event]:
    """What the agent's hooks would have stored for these (key, payload) calls."""
    made = [e for key, payload in calls for e in events_for(parse_call(agent, payload), Masker(), key=key)]
    return memoir.prepare(made)


def by_id(events: list[Event]) -> dict[str, Event]:
    return {event.event_id: event for event in events}


# -- idempotence, equivalence with hooks, secrets ------------------------------------------------


@pytest.mark.parametrize(("agent", "path", "expected"), FIXTURES, ids=[f[0] for f in FIXTURES])
def test_a_transcript_imported_twice_is_stored_once(memoir: Memoir, agent: str, path: Path, expected: int) -> None:
    first = import_transcripts(memoir, agent, [path])
    second = import_transcripts(memoir, agent, [path])

    assert (first.files, first.sessions, first.events_added, first.events_present) == (1, 1, expected, 0)
    assert (second.events_added, second.events_present, second.events_changed) == (0, expected, 0)
    assert first.lines_skipped == second.lines_skipped == 0 and not first.problems
    assert len(stored(memoir)) == expected


@pytest.mark.parametrize(("agent", "path", "expected"), FIXTURES, ids=[f[0] for f in FIXTURES])
def test_secrets_in_transcripts_are_masked(memoir: Memoir, agent: str, path: Path, expected: int) -> None:
    import_transcripts(memoir, agent, [path])

    everything = json.dumps([e.to_dict() for e in stored(memoir)])
    assert not any(secret in everything for secret in SECRETS)
    assert MASK in everything


def test_configured_secret_patterns_are_masked_too(
    open_memoir: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMOIR_PRIVACY_SECRET_PATTERNS", r"ACME-\d{6}")
    transcript = tmp_path / "s.jsonl"
    transcript.write_text(claude_line("u1", "The badge code is ACME-314159, keep it.") + "\n")
    memoir = open_memoir()

    import_transcripts(memoir, "claude", [transcript])

    texts = [e.text for e in stored(memoir) if e.event_type.value == "user_message"]
    assert texts == [f"The badge code is {MASK}, keep it."]


def test_claude_code_session_is_stored_as_its_hooks_store_it(memoir: Memoir) -> None:
    def call(event: str, at: str, **fields: Any) -> dict[str, Any]:
        return {
            "session_id": CLAUDE_SESSION,
            "transcript_path": str(CLAUDE_FILE),
            "cwd": CWD,
            "hook_event_name": event,
            "permission_mode": "default",
            "timestamp": at,
            **fields,
        }

    checkout = f"{CWD}/src/checkout.py"
    old, new = (
        "return round(sum(i.price for i in items), 2)",
        "return sum((Decimal(i.price) for i in items), Decimal(0))",
    )
    read = {
        "type": "text",
        "file": {
            "filePath": checkout,
            "content": "def total(items):\n    return round(sum(i.price for i in items), 2)\n",
            "numLines": 2,
            "startLine": 1,
            "totalLines": 2,
        },
    }
    edit = {"filePath": checkout, "oldString": old, "newString": new, "userModified": False, "replaceAll": False}
    bash = {"stdout": "...\n3 passed in 0.04s", "stderr": "", "interrupted": False, "isImage": False}
    uuid = "b1f0e8c2-0000-4000-8000-0000000000{:02x}".format
    calls = [
        ("session_start", call("SessionStart", "2025-10-14T09:12:03.198Z", source="startup")),
        (
            uuid(1),
            call(
                "UserPromptSubmit",
                "2025-10-14T09:12:03.198Z",
                prompt=f"Fix the rounding bug in src/checkout.py. The staging key is {SECRETS[0]} if you need it.",
            ),
        ),
        (uuid(3), call("Stop", "2025-10-14T09:12:06.912Z", last_assistant_message="I'll read src/checkout.py first.")),
        (
            "toolu_01Read",
            call(
                "PostToolUse",
                "2025-10-14T09:12:07.355Z",
                tool_name="Read",
                tool_input={"file_path": checkout},
                tool_response=read,
                tool_use_id="toolu_01Read",
            ),
        ),
        (
            "toolu_02Edit",
            call(
                "PostToolUse",
                "2025-10-14T09:12:11.480Z",
                tool_name="Edit",
                tool_input={"file_path": checkout, "old_string": old, "new_string": new},
                tool_response=edit,
                tool_use_id="toolu_02Edit",
            ),
        ),
        (
            uuid(8),
            call(
                "Stop",
                "2025-10-14T09:12:14.115Z",
                last_assistant_message="Totals now use Decimal: floats lost cents when summing prices.",
            ),
        ),
        (uuid(12), call("UserPromptSubmit", "2025-10-14T09:13:20.640Z", prompt="Now run the tests.")),
        (
            "toolu_03Bash",
            call(
                "PostToolUse",
                "2025-10-14T09:13:26.275Z",
                tool_name="Bash",
                tool_response=bash,
                tool_input={"command": "pytest -q tests/test_checkout.py", "description": "Run the checkout tests"},
                tool_use_id="toolu_03Bash",
            ),
        ),
        (
            "a5f0e8c2-0000-4000-8000-000000000010",
            call("Stop", "2025-10-14T09:13:29.012Z", last_assistant_message="All 3 checkout tests pass."),
        ),
    ]

    import_transcripts(memoir, "claude", [CLAUDE_FILE])

    assert by_id(stored(memoir)) == by_id(hook_events(memoir, "claude", calls))


def test_codex_rollout_is_stored_as_its_hooks_store_it(memoir: Memoir) -> None:
    def call(event: str, at: str, **fields: Any) -> dict[str, Any]:
        return {"session_id": CODEX_SESSION, "cwd": CWD, "hook_event_name": event, "timestamp": at, **fields}

    prompt = f"Add a --verbose flag to the CLI. Deploy token for later: {SECRETS[1]}"
    answer = "Added `--verbose` to `src/cli.py`; it sets the log level to DEBUG."
    patch = (
        "*** Begin Patch\n*** Update File: src/cli.py\n@@\n parser = argparse.ArgumentParser()\n"
        '+parser.add_argument("--verbose", action="store_true")\n*** End Patch'
    )
    calls = [
        ("session_meta", call("SessionStart", "2025-10-29T10:15:02.310Z", source="startup")),
        (f"prompt:{digest(prompt)}", call("UserPromptSubmit", "2025-10-29T10:15:09.844Z", prompt=prompt)),
        (
            "call_Qk2mW9vXp1",
            call(
                "PostToolUse",
                "2025-10-29T10:15:14.402Z",
                tool_name="shell",
                tool_input={"command": ["bash", "-lc", "rg -n ArgumentParser src"], "workdir": CWD},
                tool_response=json.dumps(
                    {
                        "output": "src/cli.py:3:parser = argparse.ArgumentParser()\n",
                        "metadata": {"exit_code": 0, "duration_seconds": 0.1},
                    }
                ),
                tool_use_id="call_Qk2mW9vXp1",
            ),
        ),
        (
            "call_Zr8nB4tYc6",
            call(
                "PostToolUse",
                "2025-10-29T10:15:20.532Z",
                tool_name="apply_patch",
                tool_input=patch,
                tool_response=json.dumps(
                    {
                        "output": "Success. Updated the following files:\nM src/cli.py\n",
                        "metadata": {"exit_code": 0, "duration_seconds": 0.0},
                    }
                ),
                tool_use_id="call_Zr8nB4tYc6",
            ),
        ),
        (f"answer:{digest(answer)}", call("Stop", "2025-10-29T10:15:24.881Z", last_assistant_message=answer)),
    ]

    import_transcripts(memoir, "codex", [CODEX_FILE])

    assert by_id(stored(memoir)) == by_id(hook_events(memoir, "codex", calls))


def test_gemini_chat_is_stored_as_its_hooks_store_it(memoir: Memoir) -> None:
    def call(event: str, at: str, **fields: Any) -> dict[str, Any]:
        return {"session_id": GEMINI_SESSION, "cwd": CWD, "hook_event_name": event, "timestamp": at, **fields}

    tool_id = "run_shell_command-1730539861234-4f2a"
    output = (
        "Command: npm run build\nDirectory: (root)\nStdout: src/total.ts(3,10): error TS2304: Cannot find name"
        " 'Decimal'.\nStderr: (empty)\nExit Code: 2"
    )
    response = {"llmContent": output, "returnDisplay": "src/total.ts(3,10): error TS2304: Cannot find name 'Decimal'."}
    answer = "The build fails because `Decimal` is used in src/total.ts without being imported."
    calls = [
        ("session_start", call("SessionStart", "2025-11-02T09:30:12.004Z", source="startup")),
        (
            "5d0c9b8a-1111-4222-8333-944455556666",
            call(
                "BeforeAgent",
                "2025-11-02T09:30:58.410Z",
                prompt=f"Why does the build fail? The Maps key is {SECRETS[2]}",
            ),
        ),
        (
            tool_id,
            call(
                "AfterTool",
                "2025-11-02T09:31:04.118Z",
                tool_name="run_shell_command",
                tool_input={"command": "npm run build", "description": "Build the project"},
                tool_response=response,
                tool_use_id=tool_id,
            ),
        ),
        (
            "7f2e1d0c-3333-4444-8555-b66677778888",
            call("AfterAgent", "2025-11-02T09:31:09.776Z", prompt_response=answer),
        ),
    ]

    import_transcripts(memoir, "gemini", [GEMINI_FILE])

    assert by_id(stored(memoir)) == by_id(hook_events(memoir, "gemini", calls))


def test_an_older_gemini_json_chat_is_read_whole(memoir: Memoir, tmp_path: Path) -> None:
    chats = tmp_path / "gemini" / "tmp" / "0f" / "chats"
    chats.mkdir(parents=True)
    (chats.parent / ".project_root").write_text(CWD)
    record = {
        "sessionId": "legacy-1",
        "projectHash": "0f",
        "startTime": "2025-06-01T08:00:00.000Z",
        "lastUpdated": "2025-06-01T08:05:00.000Z",
        "messages": [
            {"id": "m1", "timestamp": "2025-06-01T08:00:05.000Z", "type": "user", "content": "List the tests"},
            {"id": "m2", "timestamp": "2025-06-01T08:00:09.000Z", "type": "gemini", "content": "There are 3."},
            "not a message",
        ],
    }
    (chats / "session-2025-06-01T08-00-legacy1.json").write_text(json.dumps(record, indent=2))

    report = import_transcripts(memoir, "gemini", find_transcripts("gemini", tmp_path / "gemini"))

    kinds = [e.event_type.value for e in stored(memoir)]
    assert kinds == ["session_start", "user_message", "assistant_message", "assistant_stop"]
    assert [str(p).split(": ", 1)[1] for p in report.problems] == [
        "messages[2]: expected an object with a non-empty string id"
    ]


def test_the_agents_own_folders_are_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME"):
        monkeypatch.delenv(name, raising=False)
    user = tmp_path / "ada"
    shutil.copytree(DATA / "claude-code", user / ".claude" / "projects")
    shutil.copytree(DATA / "codex", user / ".codex" / "sessions")
    shutil.copytree(DATA / "gemini" / "tmp", user / ".gemini" / "tmp")
    (user / ".claude" / "history.jsonl").write_text('{"display": "not a session"}\n')
    monkeypatch.setenv("HOME", str(user))

    found = {agent: [p.name for p in find_transcripts(agent)] for agent in ("claude", "codex", "gemini")}

    assert found == {"claude": [CLAUDE_FILE.name], "codex": [CODEX_FILE.name], "gemini": [GEMINI_FILE.name]}
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match="no Codex transcripts at"):
        find_transcripts("codex")


# -- bad lines -------------------------------------------------------------------------------------


def claude_line(uuid: str, text: str, kind: str = "user", **extra: Any) -> str:
    content: Any = text if kind == "user" else [{"type": "text", "text": text}]
    record = {
        "type": kind,
        "uuid": uuid,
        "parentUuid": None,
        "sessionId": "s-bad",
        "cwd": CWD,
        "timestamp": "2025-10-14T10:00:00.000Z",
        "message": {"role": kind, "content": content},
        **extra,
    }
    return json.dumps(record)


def test_bad_lines_are_reported_and_skipped_and_the_good_ones_kept(memoir: Memoir, tmp_path: Path) -> None:
    transcript = tmp_path / "s-bad.jsonl"
    good_answer = claude_line("a1", "Done.", kind="assistant")
    transcript.write_bytes(
        b"\n".join(
            [
                claude_line("u1", "Rename the module").encode(),  # 1
                b"{not json",  # 2
                b'{"type": "user", "text": "caf\xe9"}',  # 3
                b"[1, 2, 3]",  # 4
                json.dumps({"type": "user", "uuid": "u2", "cwd": CWD, "message": 5}).encode(),  # 5
                claude_line("u3", "When?", timestamp="yesterday").encode(),  # 6
                b"",  # 7: blank, not a record
                good_answer.encode(),  # 8
                good_answer[: len(good_answer) // 2].encode(),  # 9: cut short, no end of line
            ]
        )
    )

    report = import_transcripts(memoir, "claude", [transcript])

    kinds = sorted(e.event_type.value for e in stored(memoir))
    assert kinds == ["assistant_message", "assistant_stop", "session_start", "user_message"]
    reasons = {p.line: p.reason for p in report.problems}
    assert sorted(reasons) == [2, 3, 4, 5, 6, 9] and report.lines_skipped == 6
    assert reasons[2].startswith("malformed JSON")
    assert reasons[3] == "not UTF-8 (byte 0xe9 at column 30)"
    assert reasons[4] == "expected a JSON object, got list"
    assert reasons[5] == "message: expected an object in a user line"
    assert reasons[6].startswith("timestamp:")
    assert "cut short" in reasons[9]
    assert str(report.problems[0]) == f"{transcript}:2: {reasons[2]}"


def test_huge_and_deeply_nested_lines_are_skipped_alone(memoir: Memoir, tmp_path: Path) -> None:
    transcript = tmp_path / "s-big.jsonl"
    with transcript.open("w") as handle:
        handle.write(claude_line("u1", "Before") + "\n")
        handle.write('{"type": "user", "junk": "' + "x" * 16_500_000 + '"}\n')
        handle.write("[" * 200_000 + "]" * 200_000 + "\n")
        handle.write('{"type": "user", "message": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}\n")
        handle.write(claude_line("u2", "After") + "\n")

    report = import_transcripts(memoir, "claude", [transcript])

    prompts = [e.text for e in stored(memoir) if e.event_type.value == "user_message"]
    assert prompts == ["Before", "After"]
    assert {p.line: p.reason for p in report.problems} == {
        2: "longer than 16,000,000 bytes: not read",
        3: "malformed JSON (nested too deeply)",
        4: "malformed JSON (nested too deeply)",
    }


def test_odd_values_become_what_the_hooks_make_of_them(memoir: Memoir, tmp_path: Path) -> None:
    transcript = tmp_path / "odd.jsonl"
    lines = [
        claude_line("u1", "half a pair \ud83d here", cwd=CWD + "/src\x00"),  # a lone surrogate; NUL in the path
        claude_line("u2", "no session", sessionId=7),  # the file's name stands for the session
        claude_line("u3", "far future", timestamp="2999-01-01T00:00:00Z"),
        json.dumps(
            {
                "type": "user",
                "uuid": "u4",
                "cwd": CWD,
                "timestamp": "2025-10-14T10:00:00Z",
                "sessionId": "s",
                "message": {"content": [{"type": "tool_result", "tool_use_id": ["x"]}]},
            }
        ),
        claude_line("u5", "a path no system takes", cwd="/" + "a" * 5000),
    ]
    transcript.write_text("\n".join(lines) + "\n")

    report = import_transcripts(memoir, "claude", [transcript])

    prompts = {e.text: e.session_id for e in stored(memoir) if e.event_type.value == "user_message"}
    assert prompts == {"half a pair ? here": "s-bad", "no session": "odd", "a path no system takes": "s-bad"}
    reasons = [(p.line, p.reason) for p in report.problems]
    assert [line for line, _ in reasons] == [3, 4]
    assert reasons[0][1].startswith("timestamp: 32472144000000 is not a plausible")
    assert reasons[1][1].startswith("tool_use_id: expected a non-empty string")


def test_what_cannot_be_read_or_rendered_is_reported(
    memoir: Memoir, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = tmp_path / "s.jsonl"
    transcript.write_text(claude_line("u1", "Deep") + "\n")

    def too_deep(*args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        raise RecursionError  # what rendering a tool input nested ~990 deep can do in a deep stack

    monkeypatch.setattr("memoir.importers.ingestion.events_for", too_deep)
    report = import_transcripts(memoir, "claude", [tmp_path, transcript])

    assert [str(p) for p in report.problems] == [
        f"{tmp_path}: cannot be read: Is a directory",
        f"{transcript}:1: nested too deeply to render",
    ]
    assert (report.files, report.lines_skipped, report.events_added) == (2, 1, 0)


def test_only_a_subagents_tool_calls_are_its_own(memoir: Memoir, tmp_path: Path) -> None:
    subagents = tmp_path / "-home-ada-src-shop" / CLAUDE_SESSION / "subagents"
    subagents.mkdir(parents=True)
    side = {"isSidechain": True, "agentId": "a3f9", "sessionId": CLAUDE_SESSION}
    tool_use = {"type": "tool_use", "id": "toolu_09Grep", "name": "Grep", "input": {"pattern": "Decimal"}}
    result = {"type": "tool_result", "tool_use_id": "toolu_09Grep", "content": "src/checkout.py:1"}
    (subagents / "agent-a3f9.jsonl").write_text(
        "\n".join(
            [
                claude_line("s1", "Find every use of Decimal (the parent's instructions)", **side),
                json.dumps(
                    {**json.loads(claude_line("s2", "", "assistant", **side)), "message": {"content": [tool_use]}}
                ),
                json.dumps({**json.loads(claude_line("s3", "", **side)), "message": {"content": [result]}}),
                claude_line("s4", "Decimal is used in src/checkout.py only.", "assistant", **side),
            ]
        )
        + "\n"
    )

    report = import_transcripts(memoir, "claude", find_transcripts("claude", tmp_path))

    assert [(e.event_type.value, e.metadata["tool_name"]) for e in stored(memoir)] == [("tool_result", "Grep")]
    assert report.sessions == 1 and not report.problems


def test_an_older_codex_rollout_without_user_message_events_keeps_its_prompts(memoir: Memoir, tmp_path: Path) -> None:
    records = [json.loads(line) for line in CODEX_FILE.read_text().splitlines()]
    older = [r for r in records if r["type"] != "event_msg"]  # rollouts before event_msg lines were kept
    transcript = tmp_path / CODEX_FILE.name
    transcript.write_text("".join(json.dumps(r) + "\n" for r in older))

    import_transcripts(memoir, "codex", [transcript])

    prompts = [e.text for e in stored(memoir) if e.event_type.value == "user_message"]
    assert prompts == [f"Add a --verbose flag to the CLI. Deploy token for later: {MASK}"]  # not the environment


def test_a_changed_transcript_is_reported_not_overwritten(memoir: Memoir, tmp_path: Path) -> None:
    transcript = tmp_path / "s.jsonl"
    transcript.write_text(claude_line("u1", "First words") + "\n")
    import_transcripts(memoir, "claude", [transcript])
    transcript.write_text(claude_line("u1", "Other words, same uuid") + "\n")

    report = import_transcripts(memoir, "claude", [transcript])

    assert (report.events_added, report.events_present, report.events_changed) == (0, 1, 1)
    assert "already stored with other content" in report.problems[0].reason
    assert [e.text for e in stored(memoir) if e.text] == ["First words"]


# -- a session the hooks captured live, imported later --------------------------------------------

# What a session says, drawn from few texts so that the same words come back (a user types
# "continue" twice): a prompt, an answer, or a Bash call with its output.
SAID = st.sampled_from(["continue", "yes", "Run the tests.", "Fix the rounding bug in checkout.py."])
ANSWERED = st.sampled_from(["Done.", "All 3 tests pass.", "I changed the rounding to Decimal."])
TURNS = st.lists(
    st.one_of(
        st.tuples(st.just("prompt"), SAID),
        st.tuples(st.just("answer"), ANSWERED),
        st.tuples(st.just("tool"), st.sampled_from(["pytest -q", "git status", "ls"])),
    ),
    min_size=1,
    max_size=8,
)


class LiveSession:
    """A Claude Code session as it happens: the transcript it writes, and the hook calls it makes."""

    def __init__(self, project: Path, start_ms: int) -> None:
        self.session = f"live-{uuid.uuid4()}"
        self.cwd = str(project)
        self.start_ms = start_ms
        self.lines: list[dict[str, Any]] = []
        self.calls: list[dict[str, Any]] = [self.call("SessionStart", start_ms - 4_000, source="startup")]

    def call(self, event: str, at_ms: int, **fields: Any) -> dict[str, Any]:
        """A hook's payload, stamped as `memoir hook` stamps one (Claude Code sends no time)."""
        at = datetime.fromtimestamp(at_ms / 1000, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        return {"session_id": self.session, "cwd": self.cwd, "hook_event_name": event, "timestamp": at, **fields}

    def line(self, kind: str, at_ms: int, content: Any, **extra: Any) -> None:
        at = datetime.fromtimestamp(at_ms / 1000, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        self.lines.append(
            {
                "type": kind,
                "uuid": str(uuid.uuid4()),
                "sessionId": self.session,
                "cwd": self.cwd,
                "timestamp": at,
                "message": {"role": kind, "content": content},
                **extra,
            }
        )

    def turn(self, number: int, kind: str, text: str, lag_ms: int) -> None:
        """One turn, written to the transcript at its time; its hook call `lag_ms` later or earlier."""
        at = self.start_ms + 20_000 * number
        if kind == "prompt":
            self.line("user", at, text)
            self.calls.append(self.call("UserPromptSubmit", at + lag_ms, prompt=text))
        elif kind == "answer":
            self.line("assistant", at, [{"type": "text", "text": text}])
            self.calls.append(self.call("Stop", at + lag_ms, last_assistant_message=text, stop_hook_active=False))
        else:
            tool_id, output = f"toolu_{number:02d}{uuid.uuid4().hex[:8]}", f"{text}: ok"
            result = {"stdout": output, "stderr": "", "interrupted": False, "isImage": False}
            use = {"type": "tool_use", "id": tool_id, "name": "Bash", "input": {"command": text}}
            self.line("assistant", at, [use])
            block = {"type": "tool_result", "tool_use_id": tool_id, "content": output}
            self.line("user", at + 1, [block], toolUseResult=result)
            fields = {"tool_name": "Bash", "tool_input": {"command": text}, "tool_response": result}
            self.calls.append(self.call("PostToolUse", at + lag_ms, tool_use_id=tool_id, **fields))

    def write(self, folder: Path) -> Path:
        path = folder / f"{self.session}.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in self.lines))
        return path


def said(events: list[Event]) -> Counter[tuple[str, str]]:
    """What a session's events say, whoever stored them: a tool call by its id, the rest by their text."""
    return Counter((e.event_type.value, e.metadata.get("tool_use_id") or e.text) for e in events)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    turns=TURNS,
    lags=st.lists(st.integers(-3_000, 3_000), min_size=8, max_size=8),
    captured=st.lists(st.booleans(), min_size=9, max_size=9),
)
def test_a_session_the_hooks_captured_is_not_stored_again_when_imported(
    memoir: Memoir, tmp_path: Path, turns: list[tuple[str, str]], lags: list[int], captured: list[bool]
) -> None:
    project = tmp_path / "shop"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    live = LiveSession(project, now_ms() - 3_600_000)
    for number, (kind, text) in enumerate(turns):
        live.turn(number, kind, text, lags[number])
    for call, delivered in zip(live.calls, captured, strict=False):  # hooks may miss calls: installed late, a crash
        if delivered:
            capture(memoir, parse_call("claude", call), Masker())
    transcript = live.write(tmp_path)

    first = import_transcripts(memoir, "claude", [transcript])
    after = list(memoir.events(session_id=live.session, limit=1000))
    second = import_transcripts(memoir, "claude", [transcript])

    alone = said(hook_events(memoir, "claude", [(str(n), c) for n, c in enumerate(live.calls)]))
    assert said(after) == alone, "each message of the session once: none twice, none lost"
    assert list(memoir.events(session_id=live.session, limit=1000)) == after
    assert (second.events_added, second.events_changed) == (0, 0)
    assert first.events_added + first.events_present == second.events_present == alone.total()


# -- hostile input, generated ---------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
FIELDS = [
    "type",
    "uuid",
    "sessionId",
    "cwd",
    "timestamp",
    "message",
    "toolUseResult",
    "isSidechain",
    "payload",
    "id",
    "content",
    "toolCalls",
    "role",
    "text",
    "call_id",
    "output",
    "status",
    "result",
    "$set",
]
TYPES = st.sampled_from(["user", "assistant", "system", "response_item", "event_msg", "gemini", "message"])
BLOCKS = st.lists(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["text", "tool_use", "tool_result", "thinking", "output_text"])},
        optional=dict.fromkeys(("text", "id", "tool_use_id", "name", "input", "content"), JSON_VALUES),
    ),
    max_size=3,
)
RECORDS = st.fixed_dictionaries(
    {"type": TYPES},
    optional={
        **{name: JSON_VALUES for name in FIELDS if name != "type"},
        "message": st.fixed_dictionaries({"role": TYPES, "content": BLOCKS | JSON_VALUES}),
        "payload": st.fixed_dictionaries({"type": TYPES | JSON_VALUES, "content": BLOCKS, "call_id": JSON_VALUES}),
        "timestamp": st.sampled_from(["2025-10-14T10:00:00Z", "", "2025-13-45", "1760436000000"]) | JSON_VALUES,
    },
)
HOSTILE_LINES = (
    st.binary(max_size=120).map(lambda raw: raw.replace(b"\n", b" "))
    | JSON_VALUES.map(lambda value: json.dumps(value).encode())
    | RECORDS.map(lambda record: json.dumps(record).encode())
)

GOOD_LINES = {
    "claude": [
        claude_line("u1", "Keep this prompt").encode(),
        claude_line("a1", "And this answer", "assistant").encode(),
    ],
    "codex": CODEX_FILE.read_bytes().splitlines()[:4],
    "gemini": GEMINI_FILE.read_bytes().splitlines()[:2],
}
GOOD_EVENTS = {"claude": 4, "codex": 2, "gemini": 2}


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])  # fresh_store: per example
@given(hostile=st.lists(HOSTILE_LINES, min_size=1, max_size=4))
def test_hostile_lines_never_raise_nor_cost_the_good_ones(
    agent: str, hostile: list[bytes], fresh_store: Callable[[], dict[str, str]]
) -> None:
    good = GOOD_LINES[agent]
    with tempfile.TemporaryDirectory() as folder:
        transcript = Path(folder) / "chats" / "session-hostile.jsonl"
        transcript.parent.mkdir()
        transcript.write_bytes(b"\n".join([*good, *hostile]) + b"\n")
        expected = by_id(imported_alone(agent, good, Path(folder), fresh_store()))
        with Memoir.open(Path(folder) / "home", create=True, worker_enabled=False, **fresh_store()) as memoir:
            report = import_transcripts(memoir, agent, [transcript])
            kept = by_id(stored(memoir))

    assert all(p.line == 0 or p.line > len(good) for p in report.problems), report.problems
    assert report.lines_skipped <= len(hostile)
    for event_id, event in expected.items():  # the good lines' events, as they are alone
        assert kept[event_id] == event


def imported_alone(agent: str, good: list[bytes], folder: Path, store: dict[str, str]) -> list[Event]:
    """The events of the good lines imported alone, into a home of their own."""
    alone = folder / "chats" / "session-good.jsonl"
    alone.write_bytes(b"\n".join(good) + b"\n")
    with Memoir.open(folder / "alone", create=True, worker_enabled=False, **store) as memoir:
        import_transcripts(memoir, agent, [alone])
        events = stored(memoir)
    assert len(events) == GOOD_EVENTS[agent]
    return events


FIXTURE_FILES = {"claude": CLAUDE_FILE, "codex": CODEX_FILE, "gemini": GEMINI_FILE}


def json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path to every value in a JSON structure, the whole of it first."""
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for step, inner in items:
        yield from json_paths(inner, (*prefix, step))


def swapped(record: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    changed = copy.deepcopy(record)
    target = changed
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return changed


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
@settings(max_examples=40)
@given(data=st.data())
def test_real_lines_with_a_value_of_any_type_never_raise(agent: str, data: st.DataObject) -> None:
    good = FIXTURE_FILES[agent].read_bytes().splitlines()
    changed = []
    for _ in range(data.draw(st.integers(1, 3), label="lines changed")):
        record = json.loads(data.draw(st.sampled_from(good), label="line"))
        path = data.draw(st.sampled_from(list(json_paths(record))), label="path")
        changed.append(json.dumps(swapped(record, path, data.draw(JSON_VALUES, label="value"))).encode())
    with tempfile.TemporaryDirectory() as folder:
        transcript = Path(folder) / "chats" / "session-changed.jsonl"
        transcript.parent.mkdir()
        transcript.write_bytes(b"\n".join([*good, *changed]) + b"\n")
        with Memoir.open(Path(folder) / "home", create=True, worker_enabled=False) as memoir:
            report = import_transcripts(memoir, agent, [transcript])

    assert report.lines == len(good) + len(changed)
    if agent != "gemini":  # in a Gemini chat, a message's last copy is the one that counts
        assert all(p.line == 0 or p.line > len(good) for p in report.problems), report.problems


@settings(max_examples=30)
@given(data=st.binary(max_size=300))
def test_any_bytes_as_a_whole_gemini_json_file_are_reported_not_raised(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        chat = Path(folder) / "chats" / "session-x.json"
        chat.parent.mkdir()
        chat.write_bytes(data)
        with Memoir.open(Path(folder) / "home", create=True, worker_enabled=False) as memoir:
            report = import_transcripts(memoir, "gemini", [chat])
    assert report.files == 1


# -- the command -----------------------------------------------------------------------------------


@pytest.fixture
def ready(home: Path) -> Path:
    assert cli("init", home=home).exit_code == 0
    return home


def test_import_command_stores_once_and_says_so(ready: Path) -> None:
    first = cli("import", "claude-code", str(DATA / "claude-code"), home=ready, **HASHING)
    second = cli("import", "claude-code", str(CLAUDE_FILE), home=ready, **HASHING)

    assert (first.exit_code, second.exit_code) == (0, 0), first.stderr + second.stderr
    assert first.stdout == (
        "imported 1 file of Claude Code: 1 session, 12 events added, 0 already present, 0 lines skipped\n"
    )
    assert second.stdout.startswith("imported 1 file of Claude Code: 1 session, 0 events added, 12 already present")
    found = cli("search", "why Decimal?", "--conversation", "shop-2c146bae", "--json", home=ready, **HASHING)
    assert "floats lost cents" in found.stdout


def test_import_command_reads_the_agents_folder_under_home(
    ready: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    user = tmp_path / "ada"
    shutil.copytree(DATA / "gemini" / "tmp", user / ".gemini" / "tmp")

    result = cli("import", "gemini", home=ready, HOME=str(user), **HASHING)

    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("imported 1 file of Gemini CLI: 1 session, 5 events added")


def test_import_command_reports_bad_lines_and_exits_2(ready: Path, tmp_path: Path) -> None:
    (tmp_path / "rollouts").mkdir()
    transcript = tmp_path / "rollouts" / "rollout-2025-10-29T10-15-02-broken.jsonl"
    good = CODEX_FILE.read_text().splitlines()
    transcript.write_text(
        "\n".join([good[0], '{"timestamp": "2025-10-29T10:16:00Z", "type": "response_item"', *good[1:]])
    )

    result = cli("import", "codex", str(tmp_path / "rollouts"), home=ready, **HASHING)

    assert result.exit_code == 2
    assert f"{transcript}:2: malformed JSON" in result.stderr
    assert result.stdout.startswith("imported 1 file of Codex: 1 session, 6 events added, 0 already present, 1 line")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["import", "codex", "/no/such/place"], "path: /no/such/place: no such file or folder"),
        (["import", "cursor"], "'cursor' is not one of"),
        (["import", "codex"], "no Codex transcripts at"),
    ],
)
def test_import_command_refuses_what_it_cannot_read(ready: Path, tmp_path: Path, args: list[str], message: str) -> None:
    result = cli(*args, home=ready, HOME=str(tmp_path / "empty"), CODEX_HOME="")

    assert result.exit_code == 2
    assert message in result.stderr


def test_import_command_shows_a_progress_bar_on_a_terminal(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMOIR_EMBEDDING_PROVIDER", "hashing")
    folder = tmp_path / "projects"
    folder.mkdir()
    shutil.copy(CLAUDE_FILE, folder)
    (folder / "broken.jsonl").write_text("nope\n")
    screen = io.StringIO()
    app = typer.Typer()  # the command alone, its progress drawn on a terminal of its own
    terminal = Console(file=screen, force_terminal=True, width=120)
    importing.register(app, lambda ctx: Memoir.open(home, create=True), Console(file=io.StringIO()), terminal)

    result = CliRunner().invoke(app, ["claude-code", str(folder)])

    assert result.exit_code == 2
    drawn = screen.getvalue()
    assert "importing broken.jsonl" in drawn and "file 2/2" in drawn
    assert f"{folder / 'broken.jsonl'}:1: malformed JSON" in drawn
