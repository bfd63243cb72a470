"""`memoir hooks install|remove`: memoir's entries merged into a coding agent's settings file.

The settings file is the user's: memoir adds its own entries next to theirs, never
changes or drops one of theirs, refuses to touch a file it cannot parse, and `remove`
takes out exactly what `install` put in. memoir's entries are recognised by what they run
(`... hook <Event> --agent <agent>` for the command form, `.../hooks/<agent>` for the
http form), because Claude Code validates its settings and an extra tag key could make
it reject the file. Writes are atomic (a temporary file renamed over the old one).

Files: Claude Code `.claude/settings.json` (project) or `~/.claude/settings.json` (user);
Codex `.codex/hooks.json` or `~/.codex/hooks.json` (Claude's format); Gemini CLI
`.gemini/settings.json` or `~/.gemini/settings.json` (its own event names, timeouts in ms).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memoir.errors import ConfigError, InvalidInput

__all__ = ["HookPlan", "install_hooks", "remove_hooks", "settings_path"]

# Which of the agent's events memoir listens to, and whether each is about tools (matcher "*").
EVENTS = {
    "claude": {
        "SessionStart": False,
        "UserPromptSubmit": False,
        "PostToolUse": True,
        "Stop": False,
        "SubagentStop": False,
        "SessionEnd": False,
    },
    "codex": {"SessionStart": False, "UserPromptSubmit": False, "PostToolUse": True, "Stop": False},
    "gemini": {
        "SessionStart": False,
        "BeforeAgent": False,
        "AfterTool": True,
        "AfterAgent": False,
        "SessionEnd": False,
    },
}
TIMEOUT_S = 10
_OURS = re.compile(r"\bmemoir\b.* hook \w+ --agent (claude|codex|gemini)\s*$")
_OURS_URL = re.compile(r"/hooks/(claude|codex|gemini)$")


@dataclass(frozen=True)
class HookPlan:
    agent: str
    path: Path
    kind: str  # command or http
    added: list[str]
    replaced: int  # memoir's own earlier entries taken out first


def settings_path(agent: str, scope: str, project: Path, home: Path | None = None) -> Path:
    if agent not in EVENTS:
        raise InvalidInput("agent", f"unknown agent {agent!r}; expected one of {', '.join(EVENTS)}")
    if scope not in ("project", "user"):
        raise InvalidInput("scope", f"expected project or user, got {scope!r}")
    base = project if scope == "project" else (home or Path.home())
    folder, name = {"claude": (".claude", "settings.json"), "codex": (".codex", "hooks.json")}.get(
        agent, (".gemini", "settings.json")
    )
    return base / folder / name


def hook_command(agent: str, event: str, memoir_home: Path | None) -> str:
    words = [sys.executable, "-m", "memoir"]
    if memoir_home is not None:
        words += ["--home", str(memoir_home)]
    return " ".join(shlex.quote(word) for word in words) + f" hook {event} --agent {agent}"


def install_hooks(agent: str, path: Path, *, kind: str, server_url: str | None, memoir_home: Path | None) -> HookPlan:
    if kind == "http" and (agent != "claude" or not server_url):
        raise InvalidInput("type", "the http form needs Claude Code and a server URL (hooks.server_url)")
    settings = _read(path)
    hooks = settings.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ConfigError.at(f"{path}: hooks", "is not a mapping of events to hook groups; fix or remove it first")
    replaced = _strip_ours(hooks)
    for event, about_tools in EVENTS[agent].items():
        entry = _entry(agent, event, kind, server_url, memoir_home)
        group: dict[str, Any] = {"matcher": "*", "hooks": [entry]} if about_tools else {"hooks": [entry]}
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise ConfigError.at(f"{path}: hooks.{event}", "is not a list of hook groups; fix or remove it first")
        groups.append(group)
    _write(path, settings)
    return HookPlan(agent, path, kind, list(EVENTS[agent]), replaced)


def remove_hooks(path: Path) -> int:
    """Take memoir's entries out of the file; returns how many. Nothing else changes."""
    if not path.exists():
        return 0
    settings = _read(path)
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return 0
    removed = _strip_ours(hooks)
    if removed:
        if not hooks:
            del settings["hooks"]
        _write(path, settings)
    return removed


def _entry(agent: str, event: str, kind: str, server_url: str | None, memoir_home: Path | None) -> dict[str, Any]:
    if kind == "http":
        return {"type": "http", "url": f"{(server_url or '').rstrip('/')}/hooks/{agent}", "timeout": TIMEOUT_S}
    timeout = TIMEOUT_S * 1000 if agent == "gemini" else TIMEOUT_S  # Gemini counts milliseconds
    entry: dict[str, Any] = {"type": "command", "command": hook_command(agent, event, memoir_home), "timeout": timeout}
    if agent == "gemini":
        entry["name"] = "memoir"
    return entry


def _is_ours(entry: Any) -> bool:
    if not isinstance(entry, dict):
        return False
    command, url = entry.get("command"), entry.get("url")
    return bool(
        (isinstance(command, str) and _OURS.search(command)) or (isinstance(url, str) and _OURS_URL.search(url))
    )


def _strip_ours(hooks: dict[str, Any]) -> int:
    removed = 0
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept_groups = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list):
                kept_groups.append(group)
                continue
            kept = [entry for entry in inner if not _is_ours(entry)]
            removed += len(inner) - len(kept)
            if kept or not inner:
                kept_groups.append({**group, "hooks": kept} if len(kept) != len(inner) else group)
        if kept_groups or not groups:
            hooks[event] = kept_groups
        else:
            del hooks[event]
    return removed


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError.at(str(path), f"cannot be read: {exc}") from None
    if not text.strip():
        return {}
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ConfigError.at(
            str(path), f"is not valid JSON ({exc}); fix it first, memoir leaves it untouched"
        ) from None
    if not isinstance(value, dict):
        raise ConfigError.at(str(path), "is not a JSON object; memoir leaves it untouched")
    return value


def _write(path: Path, settings: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.memoir-tmp")
    tmp.write_text(json.dumps(settings, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
