"""Git history of the vault (seed 004's `enable_git_versioning`).

Every change to the vault becomes a commit whose message says what changed and why
(the event ids behind it), so `git log -p` is the memory's audit trail. Git is a
witness, never a gatekeeper: if it is missing or fails, the failure is logged and the
write it would have recorded stands.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
from pathlib import Path

__all__ = ["GitHistory"]

log = logging.getLogger("memoir.vault")
_IDENTITY = ["-c", "user.name=memoir", "-c", "user.email=memoir@localhost", "-c", "commit.gpgsign=false"]


class GitHistory:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._ready = False

    def _git(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", *_IDENTITY, *args], cwd=self.root, capture_output=True, text=True, timeout=30, check=False
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
                log.warning("cannot create a git repository in %s: %s", self.root, result.stderr.strip())
                return False
            (self.root / ".gitignore").write_text(".tmp-*\n")
        self._ready = True
        return True

    def commit(self, message: str) -> bool:
        """Commit everything that changed; False (and a log line) when git could not."""
        try:
            if not self._ensure_repo():
                return False
            self._git("add", "-A")
            if self._git("diff", "--cached", "--quiet").returncode == 0:
                return True  # nothing changed
            result = self._git("commit", "-q", "-m", message)
            if result.returncode != 0:
                log.warning("git commit in %s failed: %s", self.root, (result.stderr or result.stdout).strip())
                return False
            return True
        except (OSError, subprocess.SubprocessError) as exc:
            log.warning("git failed in %s: %s", self.root, exc)
            return False

    def log(self) -> list[str]:
        """Commit subjects, newest first (for tests and `memoir doctor`)."""
        result = self._git("log", "--format=%s")
        return result.stdout.splitlines() if result.returncode == 0 else []
