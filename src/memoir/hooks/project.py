"""Which project a coding agent works in: the repository root, and the memory scope named for it.

Every hook call, imported transcript, think document and MCP call from a coding agent is
scoped by project, so that what was learnt in one repository is not injected into
another. The scope is a conversation id: the root folder's name (readable in the vault
and in `memoir memories`) and a hash of its full path (two checkouts called `api` stay
apart).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

__all__ = ["project_root", "project_scope", "scope_of_root"]

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


def project_scope(cwd: str | os.PathLike[str]) -> str:
    """The conversation id of the project `cwd` belongs to, like `memoir-3fa2c1d0`."""
    return scope_of_root(project_root(cwd))


def scope_of_root(root: Path) -> str:
    """The conversation id of the project whose root folder is `root`."""
    name = _UNSAFE.sub("-", root.name).strip("-.")[:_MAX_NAME] or "project"
    digest = hashlib.sha256(os.fsencode(root)).hexdigest()[:8]
    return f"{name}-{digest}"
