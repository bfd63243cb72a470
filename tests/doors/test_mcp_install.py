"""`memoir mcp install|remove`: memoir's stdio server registered in a coding agent's MCP configuration.

The file is the user's. Install sets one entry, `memoir`, and leaves every other byte as it
was (their servers, settings, comments, indentation, line endings); remove takes out that
entry and gives the file back byte for byte. A file memoir cannot parse is an error, and
stays untouched. The registered command is this Python by absolute path, so it runs
whatever the agent's PATH and working folder.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memoir.errors import ConfigError, InvalidInput
from memoir.mcp.install import config_path, install_server, remove_server, server_command
from tests.conftest import cli

COMMAND = [sys.executable, "-m", "memoir", "--home", "/srv/memoir home", "mcp"]

CLAUDE_USER = """{
    "numStartups": 34,
    "theme": "dark",
    "projects": {"/work/api": {"allowedTools": [], "mcpServers": {}}},
    "mcpServers": {
        "github": {"type": "stdio", "command": "npx", "args": ["-y", "@github/mcp"], "env": {"TOKEN": "t"}}
    }
}
"""
CODEX = """# my Codex settings
model = "o3"
approval_policy = "on-request"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]   # pinned

[mcp_servers.docs.env]
DOCS_TOKEN = "secret"

[profiles.fast]
model = "o4-mini"
"""
GEMINI = '{\r\n\t"theme": "GitHub",\r\n\t"hooks": {"AfterTool": []},\r\n\t"mcpServers": {}\r\n}\r\n'

AGENT_FILES = [("claude", CLAUDE_USER), ("codex", CODEX), ("gemini", '{\n  "theme": "GitHub"\n}\n')]


def read(path: Path, agent: str) -> dict[str, Any]:
    text = path.read_text()
    return tomllib.loads(text) if agent == "codex" else json.loads(text)


def servers(document: dict[str, Any], agent: str) -> dict[str, Any]:
    return document.get("mcp_servers" if agent == "codex" else "mcpServers", {})


@pytest.mark.parametrize(("agent", "original"), AGENT_FILES)
def test_install_adds_memoir_beside_the_users_servers_and_remove_gives_the_file_back(
    tmp_path: Path, agent: str, original: str
) -> None:
    path = tmp_path / "settings"
    path.write_text(original)
    before = read(path, agent)
    done = install_server(agent, path, COMMAND)
    after = read(path, agent)
    entry = servers(after, agent).pop("memoir")
    assert [entry["command"], *entry["args"]] == COMMAND
    assert {k: v for k, v in after.items() if v != {}} == before  # theirs, all of it, as it was
    assert not done.replaced
    assert install_server(agent, path, COMMAND).replaced  # again: the same file, memoir's entry replaced
    assert remove_server(agent, path)
    assert path.read_text() == original  # byte for byte
    assert not remove_server(agent, path)


def test_new_text_follows_the_files_own_indentation_and_line_endings(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(GEMINI.encode())
    install_server("gemini", path, COMMAND)
    text = path.read_bytes().decode()
    assert '\r\n\t\t"memoir": {\r\n\t\t\t"command": ' in text and "\n" not in text.replace("\r\n", "")
    assert json.loads(text)["mcpServers"]["memoir"] == {"command": COMMAND[0], "args": COMMAND[1:]}


def test_codex_waits_longer_for_memoir_to_start_and_its_comments_stay(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CODEX)
    install_server("codex", path, COMMAND)
    assert tomllib.loads(path.read_text())["mcp_servers"]["memoir"]["startup_timeout_sec"] == 30
    assert path.read_text().startswith(CODEX)


def test_a_file_with_only_memoirs_entry_is_removed_with_it(tmp_path: Path) -> None:
    for agent in ("claude", "codex", "gemini"):
        path = tmp_path / agent / "config"
        install_server(agent, path, COMMAND)
        assert path.exists()
        assert remove_server(agent, path)
        assert not path.exists()


@pytest.mark.parametrize(
    ("agent", "broken", "reason"),
    [
        ("claude", '{"mcpServers": {"a": 1},', "not valid JSON"),
        ("gemini", "[1, 2]", "not a JSON object"),
        ("claude", '{"mcpServers": ["a"]}', "mcpServers: is not a JSON object"),
        ("claude", '{"mcpServers": {"memoir": {}, "memoir": {}}}', "names 'memoir' 2 times"),
        ("codex", "model = ", "not valid TOML"),
        ("codex", "mcp_servers = 3\n", "mcp_servers: is not a table"),
        ("codex", '[mcp_servers]\nmemoir = { command = "x" }\n', "edit the file by hand"),
    ],
)
def test_a_file_memoir_cannot_edit_safely_is_an_error_and_stays_untouched(
    tmp_path: Path, agent: str, broken: str, reason: str
) -> None:
    path = tmp_path / "settings"
    path.write_text(broken)
    with pytest.raises(ConfigError, match=reason):
        install_server(agent, path, COMMAND)
    assert path.read_text() == broken


def test_links_and_permissions_of_the_file_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "dotfiles" / "claude.json"
    target.parent.mkdir()
    target.write_text(CLAUDE_USER)
    target.chmod(0o600)
    link = tmp_path / ".claude.json"
    link.symlink_to(target)
    install_server("claude", link, COMMAND)
    assert link.is_symlink() and "memoir" in json.loads(target.read_text())["mcpServers"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


USER_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)
OTHER_SERVERS = st.dictionaries(
    st.text(min_size=1, max_size=8).filter(lambda name: name != "memoir"), USER_JSON, min_size=1, max_size=3
)


@given(
    document=st.dictionaries(st.text(max_size=8).filter(lambda k: k != "mcpServers"), USER_JSON, max_size=4),
    others=st.none() | OTHER_SERVERS,
    indent=st.sampled_from([None, 2, 4, "\t"]),
    agent=st.sampled_from(["claude", "gemini"]),
)
@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_json_settings_file_comes_back_byte_for_byte(
    tmp_path: Path, document: dict[str, Any], others: dict[str, Any] | None, indent: Any, agent: str
) -> None:
    assume(document or others)  # an empty `{}` is no one's: remove deletes the file memoir filled
    original = json.dumps({**document, **({"mcpServers": others} if others else {})}, indent=indent) + "\n"
    path = tmp_path / f"{agent}.json"
    path.write_text(original)
    install_server(agent, path, COMMAND)
    installed = json.loads(path.read_text())
    assert installed["mcpServers"].pop("memoir")["args"] == COMMAND[1:]
    assert installed == ({**document, "mcpServers": others} if others else {**document, "mcpServers": {}})
    assert remove_server(agent, path)
    assert path.read_text() == original


def test_the_files_each_agent_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project, home = tmp_path / "repo", tmp_path / "me"
    monkeypatch.delenv("CODEX_HOME", raising=False)
    assert config_path("claude", "project", project, home) == project / ".mcp.json"
    assert config_path("claude", "user", project, home) == home / ".claude.json"
    assert config_path("codex", "project", project, home) == project / ".codex" / "config.toml"
    assert config_path("codex", "user", project, home) == home / ".codex" / "config.toml"
    assert config_path("gemini", "project", project, home) == project / ".gemini" / "settings.json"
    assert config_path("gemini", "user", project, home) == home / ".gemini" / "settings.json"
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    assert config_path("codex", "user", project, home) == tmp_path / "codex-home" / "config.toml"
    with pytest.raises(InvalidInput, match=r"^agent: unknown agent 'cursor'"):
        config_path("cursor", "project", project, home)
    with pytest.raises(InvalidInput, match=r"^scope: expected project or user"):
        config_path("claude", "global", project, home)


def test_the_command_is_this_python_by_absolute_path_with_the_home_when_one_is_set(tmp_path: Path) -> None:
    assert server_command() == [os.path.abspath(sys.executable), "-m", "memoir", "mcp"]
    with_home = server_command(Path("rel/home"), tmp_path / "memoir.toml")
    assert with_home[3:] == ["--home", os.path.abspath("rel/home"), "--config", str(tmp_path / "memoir.toml"), "mcp"]


def test_memoir_mcp_install_and_remove_from_the_shell(
    tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    monkeypatch.chdir(project / "src")
    installed = cli("mcp", "install", "--agent", "gemini", home=home)
    assert installed.exit_code == 0, installed.stderr
    settings_file = project / ".gemini" / "settings.json"
    entry = json.loads(settings_file.read_text())["mcpServers"]["memoir"]
    assert [entry["command"], *entry["args"]] == [sys.executable, "-m", "memoir", "--home", str(home), "mcp"]
    assert str(settings_file) in installed.stdout
    removed = cli("mcp", "remove", "--agent", "gemini", home=home)
    assert removed.exit_code == 0 and not settings_file.exists()
    assert "not registered" in cli("mcp", "remove", "--agent", "gemini", home=home).stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["mcp", "uninstall"], "action: expected install or remove, got 'uninstall'"),
        (["mcp", "--agent", "codex"], "--agent and --scope go with `memoir mcp install`"),
        (["mcp", "install", "--agent", "cursor"], "agent: unknown agent 'cursor'"),
    ],
)
def test_memoir_mcp_refuses_what_it_cannot_do(home: Path, arguments: list[str], message: str) -> None:
    result = cli(*arguments, home=home)
    assert result.exit_code == 2 and message in result.stderr
