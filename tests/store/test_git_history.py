"""The vault's git history is a witness, never a gatekeeper: a commit that fails is logged, not raised.

A message may quote anything a memory holds (NUL, escape sequences, megabytes): git gets
a message it accepts, on standard input, and the commit goes through where it can.
(Git on a full disk: tests/system/test_disk_full.py.)
"""

from __future__ import annotations

import logging
import shutil
import subprocess
from pathlib import Path

import pytest

from memoir import Memoir
from memoir.vault.git import GitHistory, clean_message

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def body(repo: Path) -> str:
    """The newest commit's whole message."""
    return subprocess.run(["git", "log", "-1", "--format=%B"], cwd=repo, capture_output=True, text=True).stdout


def change(repo: Path, name: str = "note.md", text: str = "text\n") -> None:
    repo.mkdir(parents=True, exist_ok=True)
    (repo / name).write_text(text)


def test_control_characters_are_escaped_and_the_commit_goes_through(tmp_path: Path) -> None:
    git = GitHistory(tmp_path / "vault")
    change(git.root)
    assert git.commit("remember fact: a\x00b \x1b[31mred\x1b[0m\r\nsecond line\x7f")
    assert body(git.root) == "remember fact: a\\x00b \\x1b[31mred\\x1b[0m\nsecond line\\x7f\n\n"


def test_a_message_git_would_refuse_becomes_one_it_takes() -> None:
    assert clean_message("") == "(no message)"
    assert clean_message(" \x00 ") == " \\x00 "
    assert clean_message("tab\tand\nnewline stay") == "tab\tand\nnewline stay"
    assert clean_message("half a pair \ud800") == "half a pair \\ud800"
    assert clean_message("\x85 and \u2028 and é") == "\\x85 and \u2028 and é"


def test_a_message_longer_than_any_argument_may_be_is_committed(tmp_path: Path) -> None:
    git = GitHistory(tmp_path / "vault")
    change(git.root)
    message = "remember 5000 memories\n\n" + "fact 01ABC: something worth keeping in mind\n" * 5000  # 220 KB
    assert git.commit(message)
    assert git.log() == ["remember 5000 memories"]


def test_nothing_changed_is_no_commit(tmp_path: Path) -> None:
    git = GitHistory(tmp_path / "vault")
    change(git.root)
    assert git.commit("first") and git.commit("again")
    assert git.log() == ["first"]


def test_a_broken_repository_is_logged_and_the_next_good_commit_takes_everything(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    git = GitHistory(tmp_path / "vault")
    change(git.root, "one.md")
    assert git.commit("first")
    head = git.root / ".git" / "HEAD"
    saved = head.read_text()
    head.write_text("garbage\n")  # git no longer sees a repository here
    change(git.root, "two.md")
    with caplog.at_level(logging.WARNING, logger="memoir.vault"):
        assert git.commit("second") is False
    assert "git add" in caplog.text or "git commit" in caplog.text
    head.write_text(saved)
    assert git.commit("third")
    assert git.log() == ["third", "first"]


def test_git_raising_in_python_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    git = GitHistory(tmp_path / "vault")
    change(git.root)

    def refuses(*args: object, **kwargs: object) -> None:
        raise ValueError("embedded null byte")

    monkeypatch.setattr(subprocess, "run", refuses)
    with caplog.at_level(logging.WARNING, logger="memoir.vault"):
        assert git.commit("anything") is False
        assert git.log() == []
    assert "embedded null byte" in caplog.text


def test_log_of_a_vault_not_made_yet_is_empty(tmp_path: Path) -> None:
    assert GitHistory(tmp_path / "nowhere").log() == []


def test_a_memory_holding_a_nul_byte_is_kept_and_committed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with Memoir.open(home, worker_enabled=False, embedding_provider="hashing", vault_git=True) as memoir:
        memory = memoir.remember("the code is 12\x0034")
        assert [m.content for m in memoir.memories()] == ["the code is 12\x0034"]
        assert memoir.memory_path(memory).read_text().count("12\x0034") == 1
    assert GitHistory(home / "vault").log() == [f"remember fact {memory.id}: the code is 12\\x0034 (user)"]
