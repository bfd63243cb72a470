"""`memoir mcp install|remove`: memoir's stdio server registered in a coding agent's MCP configuration.

The configuration file is the user's: memoir sets one entry, named `memoir`, and touches no
other byte of the file (`json_text`, `toml_text`); a file it cannot parse is an error and is
left as it was; `remove` takes out exactly that entry (and deletes the file only when
nothing else was in it). Installing again replaces memoir's entry as a whole. Writes are
atomic and keep the file's permissions (`~/.claude.json` may hold secrets) and symbolic
links (dotfile managers link these files).

Files: Claude Code `.mcp.json` (project) or `~/.claude.json` (user), `mcpServers`; Codex
`.codex/config.toml` (project; Codex reads it in trusted projects) or `~/.codex/config.toml`
(`$CODEX_HOME` when set), `[mcp_servers.memoir]`; Gemini CLI `.gemini/settings.json` or
`~/.gemini/settings.json`, `mcpServers`.
"""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memoir.errors import ConfigError, InvalidInput
from memoir.mcp import json_text, toml_text

__all__ = ["AGENTS", "Registration", "config_path", "install_server", "remove_server", "server_command"]

AGENTS = {"claude": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI"}
NAME = "memoir"
CODEX_STARTUP_S = 30  # Codex waits 10 s by default; the first start of the search stack may take longer


@dataclass(frozen=True)
class Registration:
    agent: str
    path: Path
    command: list[str]
    replaced: bool  # an earlier memoir entry was there


def config_path(agent: str, scope: str, project: Path, home: Path | None = None) -> Path:
    """The file that holds `agent`'s MCP servers for the project, or for the user."""
    if agent not in AGENTS:
        raise InvalidInput("agent", f"unknown agent {agent!r}; expected one of {', '.join(AGENTS)}")
    if scope not in ("project", "user"):
        raise InvalidInput("scope", f"expected project or user, got {scope!r}")
    home = home or Path.home()
    if agent == "claude":
        return project / ".mcp.json" if scope == "project" else home / ".claude.json"
    if agent == "codex":
        user_folder = Path(os.environ["CODEX_HOME"]) if os.environ.get("CODEX_HOME") else home / ".codex"
        return (project / ".codex" if scope == "project" else user_folder) / "config.toml"
    return (project if scope == "project" else home) / ".gemini" / "settings.json"


def server_command(memoir_home: Path | None = None, config_file: Path | None = None) -> list[str]:
    """This Python running `memoir mcp`, by absolute paths, so it works whatever the agent's PATH and folder.

    Not resolved through links: a virtual environment's python is a link, and resolving it would leave the
    environment (and memoir) behind.
    """
    words = [os.path.abspath(sys.executable), "-m", "memoir"]
    if memoir_home is not None:
        words += ["--home", os.path.abspath(memoir_home)]
    if config_file is not None:
        words += ["--config", os.path.abspath(config_file)]
    for word in words:
        if not word.isprintable() or not _encodable(word):
            raise InvalidInput("command", f"{word!r} cannot be written to a settings file (not plain UTF-8 text)")
    return [*words, "mcp"]


def install_server(agent: str, path: Path, command: list[str]) -> Registration:
    text = _read(path)
    entry = _entry(agent, command)
    if agent == "codex":
        edited = toml_text.set_table(text, "mcp_servers", NAME, entry, str(path))
        replaced = NAME in toml_text.parse_toml(text, str(path)).get("mcp_servers", {})
    else:
        edited = json_text.set_member(text, "mcpServers", NAME, entry, str(path))
        replaced = NAME in json_text.parse_object(text, str(path)).get("mcpServers", {})
    _write(path, edited)
    return Registration(agent, path, command, replaced)


def remove_server(agent: str, path: Path) -> bool:
    """Take memoir's entry out of the file; False when there was none."""
    if not path.exists():
        return False
    text = _read(path)
    if agent == "codex":
        edited = toml_text.remove_table(text, "mcp_servers", NAME, str(path))
    else:
        edited = json_text.remove_member(text, "mcpServers", NAME, str(path))
    if edited is None:
        return False
    if edited.strip():
        _write(path, edited)
    else:
        path.unlink()  # it held memoir's entry and nothing else: `install` made it
    return True


def _entry(agent: str, command: list[str]) -> dict[str, Any]:
    program, arguments = command[0], command[1:]
    if agent == "claude":
        return {"type": "stdio", "command": program, "args": arguments}
    if agent == "codex":
        return {"command": program, "args": arguments, "startup_timeout_sec": CODEX_STARTUP_S}
    return {"command": program, "args": arguments}


def _read(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return ""
    except OSError as exc:
        raise ConfigError.at(str(path), f"cannot be read: {exc.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError.at(str(path), "is not UTF-8 text; memoir leaves it untouched") from None


def _write(path: Path, text: str) -> None:
    target = path.resolve()  # through a link, to the file it points to, which stays a link
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.memoir-tmp")
    try:
        temporary.write_bytes(text.encode("utf-8"))
        if target.exists():
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        os.replace(temporary, target)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise ConfigError.at(str(path), f"cannot be written: {exc.strerror}") from None


def _encodable(word: str) -> bool:
    try:
        word.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
