"""Where each agent keeps its transcripts, and which files under a folder are transcripts.

The defaults follow the agents' own variables: `$CLAUDE_CONFIG_DIR` (else `~/.claude`),
`$CODEX_HOME` (else `~/.codex`), `$GEMINI_CLI_HOME` (a home in place of `~`); `~` is
`$HOME`. A walk does not follow links to folders (a loop, or someone else's files) and
leaves out the files beside transcripts that are not sessions.
"""

from __future__ import annotations

import os
from pathlib import Path

from memoir.errors import InvalidInput

__all__ = ["AGENT_NAMES", "default_roots", "find_transcripts"]

AGENT_NAMES = {"claude": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI"}
_NOT_SESSIONS = {"journal.jsonl", "history.jsonl", "session_index.jsonl"}  # indexes and logs beside sessions


def default_roots(agent: str) -> list[Path]:
    if agent == "claude":
        return [_env_dir("CLAUDE_CONFIG_DIR", Path.home() / ".claude") / "projects"]
    if agent == "codex":
        codex = _env_dir("CODEX_HOME", Path.home() / ".codex")
        return [codex / "sessions", codex / "archived_sessions"]
    return [_env_dir("GEMINI_CLI_HOME", Path.home()) / ".gemini" / "tmp"]


def find_transcripts(agent: str, path: Path | None = None) -> list[Path]:
    """The transcript files at `path` (a file, or a folder walked), by default in the agent's own place."""
    if agent not in AGENT_NAMES:
        raise InvalidInput("agent", f"unknown agent {agent!r}; expected one of {', '.join(AGENT_NAMES)}")
    if path is not None:
        if path.is_file():
            return [path]
        if not path.is_dir():
            what = "not a file nor a folder" if path.exists() else "no such file or folder"
            raise InvalidInput("path", f"{path}: {what}")
        return _walk(agent, path)
    roots = [root for root in default_roots(agent) if root.is_dir()]
    if not roots:
        where = " or ".join(str(root) for root in default_roots(agent))
        raise InvalidInput("path", f"no {AGENT_NAMES[agent]} transcripts at {where}: give the file or folder to import")
    return [file for root in roots for file in _walk(agent, root)]


def _env_dir(name: str, default: Path) -> Path:
    value = os.environ.get(name, "")
    return Path(value) if value.strip() else default


def _walk(agent: str, root: Path) -> list[Path]:
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):  # unreadable folders are passed over; links to folders not followed
        dirs[:] = sorted(d for d in dirs if d != "tool-results")  # Claude Code's spilled tool outputs
        here = Path(folder)
        found.extend(here / name for name in sorted(files) if _is_transcript(agent, here / name))
    return found


def _is_transcript(agent: str, path: Path) -> bool:
    if path.name in _NOT_SESSIONS or path.is_symlink() or not path.is_file():  # a FIFO would block the read
        return False
    if agent == "codex":
        return path.name.startswith("rollout-") and path.suffix == ".jsonl"
    if agent == "gemini":
        return path.suffix in (".json", ".jsonl") and ("chats" in path.parts or path.name.startswith("session-"))
    return path.suffix == ".jsonl"
