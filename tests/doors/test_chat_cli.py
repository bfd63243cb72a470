"""`memoir chat` and `memoir ask`: the chat agent from a terminal, against a scripted OpenAI-compatible server.

The REPL runs for real in tmux (keys sent with send-keys, the screen read with
capture-pane), so what is checked is what a person would see; `memoir ask` runs as a
child process. What the model answers is scripted; what memoir stored is read back.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memoir import Memoir
from tests.conftest import run_cli
from tests.scripted_server import ScriptedServer

MODEL = "scripted-7b"


def sse(*pieces: str, tool_calls: list[dict[str, Any]] | None = None) -> bytes:
    """A streamed chat completion: one chunk per piece of text, then the tool calls, then [DONE]."""
    chunks = [{"choices": [{"index": 0, "delta": {"role": "assistant", "content": piece}}]} for piece in pieces]
    if tool_calls:
        deltas = [{"index": n, **call} for n, call in enumerate(tool_calls)]
        chunks.append({"choices": [{"index": 0, "delta": {"tool_calls": deltas}, "finish_reason": "tool_calls"}]})
    else:
        chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    return b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in chunks) + b"data: [DONE]\n\n"


def completion(content: str, tool_calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {"object": "chat.completion", "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}


def remember_call(text: str) -> dict[str, Any]:
    arguments = json.dumps({"content": text, "important": True})
    return {
        "id": f"call_{uuid.uuid4().hex[:8]}",
        "type": "function",
        "function": {"name": "remember", "arguments": arguments},
    }


class Model:
    """A chat model that remembers what it is told to, then answers; it streams when asked to."""

    def __init__(self) -> None:
        self.turns: list[dict[str, Any]] = []
        self.refuse = 0  # user turns to answer with a 400 first

    def __call__(self, body: dict[str, Any]) -> tuple[int, Any]:
        if "response_format" in body:  # memoir's own fact extraction, in the background
            return 200, completion('{"facts": []}')
        self.turns.append(body)
        last = body["messages"][-1]
        said = str(last["content"]).split("\n)\n\n")[-1]  # after the injected memory
        if self.refuse and last["role"] == "user":
            self.refuse -= 1
            return 400, {"error": {"message": "the request was malformed in some way"}}
        if last["role"] == "user" and "remember that" in said.lower():
            fact = said.lower().split("remember that", 1)[1].strip(" .")
            calls = [remember_call(fact)]
            return 200, sse(tool_calls=calls) if body.get("stream") else completion("", calls)
        if last["role"] == "tool":
            return 200, sse("Noted", ", I will remember.") if body.get("stream") else completion("Noted.")
        answer = ("The lighthouse ", "keeper is Ada.") if "lighthouse" in said else ("Hello", "!")
        return 200, sse(*answer) if body.get("stream") else completion("".join(answer))


@pytest.fixture
def model() -> Iterator[tuple[Model, str]]:
    script = Model()
    server = ScriptedServer(
        {"/v1/models": lambda body: (200, {"object": "list", "data": [{"id": MODEL}]}), "/v1/chat/completions": script}
    ).start()
    yield script, server.url + "/v1"
    server.stop()


def chat_env(home: Path, url: str, **extra: str) -> dict[str, str]:
    return {
        "MEMOIR_HOME": str(home),
        "MEMOIR_LLM_BASE_URL": url,
        "MEMOIR_LLM_MODEL": MODEL,
        "MEMOIR_LLM_TIMEOUT": "5",
        **extra,
    }


def test_ask_streams_one_answer_and_logs_both_turns(
    home: Path, model: tuple[Model, str], open_memoir: Callable[..., Memoir]
) -> None:
    script, url = model
    done = run_cli("ask", "Who keeps the lighthouse?", "--conversation", "harbour", **chat_env(home, url))
    assert done.returncode == 0, done.stderr
    assert "The lighthouse keeper is Ada." in done.stdout
    assert script.turns[-1]["stream"] is True  # the answer was asked for as a stream
    texts = [(e.event_type.value, e.text) for e in open_memoir().events(conversation_id="harbour")]
    assert ("user_message", "Who keeps the lighthouse?") in texts
    assert ("assistant_message", "The lighthouse keeper is Ada.") in texts


def test_ask_with_no_llm_answering_says_so_and_what_to_do(home: Path) -> None:
    done = run_cli("ask", "hello", **chat_env(home, "http://127.0.0.1:9/v1"))
    assert done.returncode == 1
    assert "no answer from the LLM server at http://127.0.0.1:9/v1" in done.stderr
    assert "Traceback" not in done.stderr


def test_ask_with_an_unknown_model_names_it(home: Path, model: tuple[Model, str]) -> None:
    _, url = model
    done = run_cli("ask", "hello", **chat_env(home, url, MEMOIR_LLM_MODEL="no-such-model"))
    assert done.returncode == 1
    assert "no-such-model" in done.stderr


def test_ask_with_a_missing_prompt_file_names_its_path(home: Path, model: tuple[Model, str], tmp_path: Path) -> None:
    _, url = model
    missing = tmp_path / "nowhere" / "prompt.md"
    done = run_cli("ask", "hello", "--system-prompt", str(missing), **chat_env(home, url))
    assert done.returncode != 0
    assert str(missing) in done.stderr


def test_ask_without_a_model_configured_says_which_setting_to_set(home: Path, model: tuple[Model, str]) -> None:
    _, url = model
    env = chat_env(home, url)
    del env["MEMOIR_LLM_MODEL"]
    done = run_cli("ask", "hello", **env)
    assert done.returncode == 2
    assert "llm.model" in done.stderr


# -- the REPL, driven in tmux ---------------------------------------------------------------


class Terminal:
    """A tmux session running one command; keys in, screen out."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.name = f"memoir-{uuid.uuid4().hex[:8]}"
        exports = " ".join(f"{k}={_quote(v)}" for k, v in env.items())
        shell = f"env {exports} {' '.join(_quote(part) for part in command)}; echo EXITED=$?; sleep 60"
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", "200", "-y", "50", shell], check=True)

    def send(self, text: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, "-l", text], check=True)
        subprocess.run(["tmux", "send-keys", "-t", self.name, "Enter"], check=True)

    def screen(self) -> str:
        done = subprocess.run(
            ["tmux", "capture-pane", "-p", "-J", "-S", "-500", "-t", self.name],
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen shows:\n{self.screen()}")

    def wait_for_prompt(self, timeout: float = 60.0) -> None:
        """Until the REPL asks for the next line, so keys sent next are not typed ahead into the answer."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.screen().rstrip().endswith("you>"):
                return
            time.sleep(0.1)
        raise AssertionError(f"no prompt; the screen shows:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], check=False, capture_output=True)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


@pytest.fixture
def terminal() -> Iterator[Callable[[list[str], dict[str, str]], Terminal]]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    opened: list[Terminal] = []

    def start(command: list[str], env: dict[str, str]) -> Terminal:
        opened.append(Terminal(command, env))
        return opened[-1]

    yield start
    for each in opened:
        each.close()


def repl_env(home: Path, url: str) -> dict[str, str]:
    keep = {
        k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "XDG_CONFIG_HOME", "MEMOIR_EMBEDDING_MODEL_DIR")
    }
    return {**keep, **chat_env(home, url), "TERM": "xterm", "COLUMNS": "200"}


def test_a_chat_session_in_a_terminal_streams_remembers_and_resumes(
    home: Path, model: tuple[Model, str], terminal: Callable[[list[str], dict[str, str]], Terminal],
    open_memoir: Callable[..., Memoir],
) -> None:  # fmt: skip
    script, url = model
    screen = terminal([sys.executable, "-m", "memoir", "chat"], repl_env(home, url))
    started = screen.wait_for("/help for commands")
    conversation = started.split("conversation ", 1)[1].split()[0]

    screen.send("Hello there")
    screen.wait_for("memoir> Hello!")
    screen.wait_for_prompt()
    screen.send("Please remember that the lighthouse keeper is Ada.")
    screen.wait_for("Noted, I will remember.")
    screen.wait_for("[tool remember: ok]")
    screen.wait_for_prompt()
    screen.send("/facts")
    screen.wait_for_prompt()
    facts = screen.screen().rsplit("you> /facts", 1)[1]
    screen.send("/compress")
    screen.wait_for("nothing to compress yet: 7 messages, compression needs 10")
    screen.send("/timeline")
    screen.wait_for("you> /timeline\n")
    screen.send("/bogus")
    screen.wait_for("unknown command /bogus")
    screen.send("/exit")
    screen.wait_for(f"resume with `memoir chat -c {conversation}`")
    screen.wait_for("EXITED=0")

    # Everything said was logged in the conversation, tool result included.
    kinds = [e.event_type.value for e in open_memoir().events(conversation_id=conversation)]
    assert kinds.count("user_message") == 2 and "tool_result" in kinds and kinds[-1] == "session_end"

    # Resumed by id, the model gets the earlier turns back.
    again = terminal([sys.executable, "-m", "memoir", "chat", "-c", conversation], repl_env(home, url))
    again.wait_for("/help for commands")
    again.send("Who keeps the lighthouse?")
    again.wait_for("memoir> The lighthouse keeper is Ada.")
    sent = [m.get("content") for m in script.turns[-1]["messages"]]
    assert any("Hello there" in str(content) for content in sent)
    fact_id = facts.split("keeper is ", 1)[1].split("  (", 1)[1].split(")", 1)[0]
    again.send(f"/forget {fact_id}")
    again.wait_for(f"forgot {fact_id}: ")
    again.send("/facts")
    # What the user asked to remember is one fact in `global`, whether the model's `remember` call or the rules
    # reading the user's own words came first (the later finds the earlier): forgotten, it is gone.
    again.wait_for_prompt()
    left = again.screen().rsplit("you> /facts", 1)[1]
    assert fact_id not in left and "lighthouse keeper is" not in left.lower()
    again.send("/exit")
    again.wait_for("EXITED=0")


def test_a_turn_that_fails_is_reported_and_the_session_goes_on(
    home: Path, model: tuple[Model, str], terminal: Callable[[list[str], dict[str, str]], Terminal]
) -> None:
    script, url = model
    script.refuse = 1
    screen = terminal([sys.executable, "-m", "memoir", "chat"], repl_env(home, url))
    screen.wait_for("/help for commands")
    screen.send("Hello there")
    screen.wait_for("error:")
    screen.send("Hello again")
    screen.wait_for("memoir> Hello!")
    screen.send("/exit")
    screen.wait_for("EXITED=0")
