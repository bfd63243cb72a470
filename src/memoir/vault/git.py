"""Git history of the vault (seed 004's `enable_git_versioning`).

Every change to the vault becomes a commit whose message says what changed and why
(the event ids behind it), so `git log -p` is the memory's audit trail. Git is a
witness, never a gatekeeper: if it is missing or fails (no space left, a broken
repository), the failure is logged and the write it would have recorded stands; the
next commit that succeeds takes in whatever was left out.

Messages quote memory content, which may hold anything a str can: they are handed to
git on standard input (no limit on an argument's length applies) after control
characters, which git refuses (NUL) or which garble a terminal, are written as escapes.
"""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
from pathlib import Path

__all__ = ["GitHistory", "clean_message"]

log = logging.getLogger("memoir.vault")
_IDENTITY = ["-c", "user.name=memoir", "-c", "user.email=memoir@localhost", "-c", "commit.gpgsign=false"]
# C0 controls but tab and newline, DEL, and C1 controls: none belongs in a log line.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_GIT_ERRORS = (OSError, subprocess.SubprocessError, ValueError)  # ValueError: a NUL or bad text in an argument


def clean_message(message: str) -> str:
    """`message` as git accepts it: controls escaped, line ends unified, lone surrogates escaped."""
    text = message.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)
    # A lone surrogate cannot be encoded as UTF-8: written as \udxxx rather than failing.
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if text.strip() else "(no message)"  # git refuses an empty message


class GitHistory:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._ready = False

    def _git(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        # errors="replace": git's output (paths, messages) need not be valid UTF-8.
        return subprocess.run(
            ["git", *_IDENTITY, *args],
            cwd=self.root,
            input=stdin,
            capture_output=True,
            encoding="utf-8",
            errors="replace",
            timeout=30,
            check=False,
        )

    def _ensure_repo(self) -> bool:
        if self._ready:
            return True
        if shutil.which("git") is None:
            log.warning("vault.git is on but git is not installed: changes are not versioned")
            return False
        self.root.mkdir(parents=True, exist_ok=True)
        if not (self.root / ".git").exists():
            result = self._git("init", "-q")
            if result.returncode != 0:
                log.warning("cannot create a git repository in %s: %s", self.root, _said(result))
                return False
        # Written apart from `init`: a first try that created the repository may have failed here.
        ignore = self.root / ".gitignore"
        if not ignore.exists():
            ignore.write_text(".tmp-*\n")
        self._ready = True
        return True

    def commit(self, message: str) -> bool:
        """Commit everything that changed; False (and a log line) when git could not. Never raises."""
        try:
            if not self._ensure_repo():
                return False
            added = self._git("add", "-A")
            if added.returncode != 0:
                log.warning("git add in %s failed: %s", self.root, _said(added))
                return False
            if self._git("diff", "--cached", "--quiet").returncode == 0:
                return True  # nothing changed
            result = self._git("commit", "-q", "--file=-", stdin=clean_message(message))
            if result.returncode != 0:
                log.warning("git commit in %s failed: %s", self.root, _said(result))
                return False
            return True
        except _GIT_ERRORS as exc:
            log.warning("git failed in %s: %s", self.root, exc)
            return False

    def log(self) -> list[str]:
        """Commit subjects, newest first (for tests and `memoir doctor`); [] when git cannot say."""
        try:
            result = self._git("log", "--format=%s")
        except _GIT_ERRORS as exc:
            log.warning("git log failed in %s: %s", self.root, exc)
            return []
        return result.stdout.splitlines() if result.returncode == 0 else []


def _said(result: subprocess.CompletedProcess[str]) -> str:
    """What git said about a failure, on one line."""
    text = (result.stderr or result.stdout).strip()
    return " / ".join(text.splitlines()) or f"exit status {result.returncode}"
