"""Scopes: which conversation a call that names none belongs to (the one rule, for every door).

- Inside a git repository, the repository's scope (`project_scope`): what a person
  remembers there with `memoir remember`, what a coding agent's hooks capture, its MCP
  server, think documents and imported transcripts all land in it, so the project's
  sessions find them and other repositories do not. The scope is a conversation id: the
  root folder's name (readable in the vault and in `memoir memories`) and a hash of its
  full path (two checkouts called `api` stay apart).
- Outside any repository, what a person remembers or tells the chat is about themselves:
  it goes to `global`, which every conversation reads (`memoir ask`, `memoir chat`, the
  proxy's conversations). A coding agent outside a repository (its hooks, its MCP server)
  keeps its folder's scope, so that its turns do not flood every conversation; it reads
  `global` besides.
- Doors without a working folder (REST, gRPC, the proxy, the Python API) name their
  conversation; one that names none writes to `default`.
- Reading with no conversation (`events`, `search`, `memories`) reads the whole home (in
  unified mode, the calling agent's part of it); injecting memory before a model always
  reads one conversation and `global`.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

__all__ = ["GLOBAL", "caller_scope", "in_repository", "project_root", "project_scope", "scope_of_root"]

GLOBAL = "global"  # the conversation every other reads

_UNSAFE = re.compile(r"[^\w.-]+")
_MAX_NAME = 48


def project_root(cwd: str | os.PathLike[str]) -> Path:
    """The nearest folder at or above `cwd` holding `.git` (a folder, or a worktree's file), else `cwd`."""
    start = Path(os.path.abspath(os.fspath(cwd)))
    for folder in (start, *start.parents):
        try:
            if (folder / ".git").exists():
                return folder
        except OSError:  # a name too long for the system: no repository can be found there
            continue
    return start


def in_repository(cwd: str | os.PathLike[str]) -> bool:
    """Whether `cwd` is inside a git repository (its project root is not just `cwd` itself without `.git`)."""
    root = project_root(cwd)
    try:
        return (root / ".git").exists()
    except OSError:
        return False


def caller_scope(cwd: str | os.PathLike[str]) -> str:
    """The conversation of what a person or an agent keeps from `cwd` naming none: the repository's, else `global`."""
    return project_scope(cwd) if in_repository(cwd) else GLOBAL


def project_scope(cwd: str | os.PathLike[str]) -> str:
    """The conversation id of the project `cwd` belongs to, like `memoir-3fa2c1d0`."""
    return scope_of_root(project_root(cwd))


def scope_of_root(root: Path) -> str:
    """The conversation id of the project whose root folder is `root`."""
    name = _UNSAFE.sub("-", root.name).strip("-.")[:_MAX_NAME] or "project"
    digest = hashlib.sha256(os.fsencode(root)).hexdigest()[:8]
    return f"{name}-{digest}"
