"""Other AIs' command-line tools, asked for a thought (seed 001's ProviderConfig).

    claude   claude --print --no-session-persistence [--model M] [--agent A] [--settings {"outputStyle": S}]
    codex    codex exec [--model M] -
    gemini   gemini -o text [--model M] -p "<read the request on stdin>"

The prompt always goes on standard input, never in an argument: a long document stays
under the argument size limit, and no text can be read as a flag. The executable is
found on PATH by its own name and nothing else: asking for codex runs codex or fails
saying it is missing, and never silently runs another provider (a bug of the reference).
Each runs in its own process group, so a timeout kills the tool and whatever it started.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memoir.errors import InvalidInput, ModelOutputError, ProviderUnavailable
from memoir.session_state import safe_session

__all__ = [
    "PROVIDERS",
    "ProviderAnswer",
    "ProviderConfig",
    "ProviderUnavailable",
    "attribution",
    "build_command",
    "filter_gemini_noise",
    "invoke",
    "provider_config",
    "strip_codex_headers",
]

DEFAULT_TIMEOUT = 120.0  # seconds: the reference's limit for an external CLI
MAX_ANSWER_CHARS = 100_000  # an answer longer than this is cut (and says so): a document is read by people
_VALUE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@ -]{0,127}")  # a model, agent or style name: never a flag
_CODEX_STAMP = re.compile(r"^\[\d{4}-\d{2}-\d{2}T[^\]]*\]")
_GEMINI_INSTRUCTION = "Answer the request given on standard input."


def _as_is(raw: str) -> str:
    return raw.strip()


def strip_codex_headers(raw: str) -> str:
    """The answer of `codex exec`, without the banner and time-stamped log lines older versions print.

    Newer versions log to stderr and print only the answer; older ones print `[time] ...`
    headers, the prompt after `[time] User instructions:`, the answer after `[time] codex`,
    and `[time] tokens used: N` at the end.
    """
    lines = raw.splitlines()
    marks = [i for i, line in enumerate(lines) if _CODEX_STAMP.match(line) and line.rstrip().endswith("] codex")]
    if marks:
        lines = lines[marks[-1] + 1 :]
    kept = [line for line in lines if not (_CODEX_STAMP.match(line) and "tokens used" in line)]
    start = next((i for i, line in enumerate(kept) if line.strip() and not _CODEX_STAMP.match(line)), len(kept))
    return "\n".join(kept[start:]).strip()


def filter_gemini_noise(raw: str) -> str:
    """The answer of `gemini -o text`, without the lines its extensions and login print."""
    noise = ("Loading extension", "[Gemini]")
    lines = [line for line in raw.splitlines() if not any(mark in line for mark in noise)]
    return "\n".join(line for line in lines if line.strip() != "Loaded cached credentials.").strip()


@dataclass(frozen=True)
class ProviderConfig:
    name: str
    command: str
    args: tuple[str, ...]
    model_flag: str
    parse: Callable[[str], str]
    install: str  # how to get the tool, for the error that says it is missing
    prompt_args: tuple[str, ...] = ()  # what tells the tool to read the prompt from stdin
    supports_agent: bool = False
    supports_style: bool = False


PROVIDERS: dict[str, ProviderConfig] = {
    "claude": ProviderConfig(
        "claude",
        "claude",
        ("--print", "--no-session-persistence"),
        "--model",
        _as_is,
        "npm install -g @anthropic-ai/claude-code",
        supports_agent=True,
        supports_style=True,
    ),
    "codex": ProviderConfig(
        "codex", "codex", ("exec",), "--model", strip_codex_headers, "npm install -g @openai/codex", ("-",)
    ),
    "gemini": ProviderConfig(
        "gemini",
        "gemini",
        ("-o", "text"),
        "--model",
        filter_gemini_noise,
        "npm install -g @google/gemini-cli",
        ("-p", _GEMINI_INSTRUCTION),
    ),
}


@dataclass(frozen=True)
class ProviderAnswer:
    text: str
    provider: str
    model: str | None
    argv: tuple[str, ...]  # what ran, the executable by its full path


def provider_config(name: object) -> ProviderConfig:
    if not isinstance(name, str) or name not in PROVIDERS:
        raise InvalidInput("call", f"{name!r} is not a provider: choose {', '.join(PROVIDERS)}")
    return PROVIDERS[name]


def checked_value(field: str, value: str | None) -> str | None:
    """A model, agent or style name as given (None stays None); InvalidInput when it could be a flag."""
    if value is None:
        return None
    if not isinstance(value, str) or not _VALUE.fullmatch(value):
        raise InvalidInput(field, f"{value!r} is not a name (letters, digits and . _ : / @ - space, up to 128)")
    return value


def build_command(
    provider: str, *, model: str | None = None, agent: str | None = None, style: str | None = None
) -> list[str]:
    """The argument list for `provider` (executable by name); the prompt goes on stdin."""
    config = provider_config(provider)
    argv = [config.command, *config.args]
    if (model := checked_value("model", model)) is not None:
        argv += [config.model_flag, model]
    if (agent := checked_value("agent", agent)) is not None:
        if not config.supports_agent:
            raise InvalidInput("agent", f"{config.name} cannot take an agent: only claude does")
        argv += ["--agent", agent]
    if (style := checked_value("style", style)) is not None:
        if not config.supports_style:
            raise InvalidInput("style", f"{config.name} cannot take an output style: only claude does")
        argv += ["--settings", json.dumps({"outputStyle": style})]
    return argv + list(config.prompt_args)


def invoke(
    provider: str,
    prompt: str,
    *,
    model: str | None = None,
    agent: str | None = None,
    style: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    cwd: Path | None = None,
) -> ProviderAnswer:
    """Ask `provider`'s tool; its cleaned answer, or ProviderUnavailable / ModelOutputError."""
    config = provider_config(provider)
    argv = build_command(provider, model=model, agent=agent, style=style)
    executable = shutil.which(config.command)
    if executable is None:
        raise ProviderUnavailable(
            f"`{config.command}` is not installed (not found on PATH): install it (`{config.install}`)"
            f" or choose another with --call {'|'.join(p for p in PROVIDERS if p != config.name)}"
        )
    argv[0] = executable
    stdout = _run(config, argv, prompt, timeout, cwd)
    text = config.parse(_printable(stdout))
    if not text:
        raise ModelOutputError(f"`{config.command}` answered nothing usable (its output was {len(stdout)} characters)")
    if len(text) > MAX_ANSWER_CHARS:
        text = text[:MAX_ANSWER_CHARS] + f"\n\n[answer cut at {MAX_ANSWER_CHARS} characters]"
    return ProviderAnswer(text, config.name, model, tuple(argv))


def _run(config: ProviderConfig, argv: list[str], prompt: str, timeout: float, cwd: Path | None) -> str:
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env={**os.environ, "NO_COLOR": "1"},  # plain text: no colour codes in a document
            start_new_session=True,  # its own process group: a timeout kills what it started too
        )
    except OSError as exc:
        raise ProviderUnavailable(f"`{config.command}` could not be started: {exc.strerror or exc}") from None
    try:
        out, err = process.communicate(prompt.encode("utf-8", "replace"), timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        raise ProviderUnavailable(
            f"`{config.command}` gave no answer within {timeout:g} s: it was stopped; try again, or ask another"
        ) from None
    if process.returncode != 0:
        said = _printable(err.decode("utf-8", "replace")).strip()[-300:] or "no message"
        raise ProviderUnavailable(f"`{config.command}` failed (exit {process.returncode}): {said}")
    return out.decode("utf-8", "replace")


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):  # the group is gone: it ended on its own meanwhile
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate()


def _printable(text: str) -> str:
    """`text` without control characters (a tool's colour codes, a hostile terminal sequence)."""
    return "".join(c for c in text if c in "\n\t" or unicodedata.category(c)[0] != "C")


def attribution(provider: str, model: str | None, session_id: str) -> str:
    """The seed's `model:X provider:Y [session]` line of a thought an AI added.

    The session as its folder is named: a hostile id becomes a hash, not Markdown.
    """
    return f"model:{model or 'default'} provider:{provider} [{safe_session(session_id)}]"
