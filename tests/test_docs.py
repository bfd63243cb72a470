"""The README starts with the two commands, and every CLI command is documented."""

from __future__ import annotations

import re

from memoir.cli.app import app
from tests.conftest import REPO


def test_the_readme_opens_with_make_run_and_make_test() -> None:
    readme = (REPO / "README.md").read_text()
    first_section = readme.split("\n## ", 2)[1]
    assert "make run" in first_section and "make test" in first_section


def command_names() -> list[str]:
    names = [c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands]
    for group in app.registered_groups:  # `memoir config show`, `memoir scheduler pause`, ...
        assert group.typer_instance is not None
        names += [f"{group.name} {c.name}" for c in group.typer_instance.registered_commands]
    return names


def test_every_cli_command_is_documented() -> None:
    docs = (REPO / "docs" / "cli.md").read_text()
    documented = set(re.findall(r"^## `memoir ([a-z ]+?)`", docs, flags=re.MULTILINE))
    assert set(command_names()) == documented


def test_every_setting_is_documented() -> None:
    from memoir.config import OPTIONS

    docs = (REPO / "docs" / "configuration.md").read_text()
    missing = [o.key for o in OPTIONS if f"`{o.key}`" not in docs or o.env not in docs]
    assert not missing
