"""The README starts with the two commands, every CLI command is documented, and every decision has a status."""

from __future__ import annotations

import re

from memoir.cli.app import app
from tests.conftest import REPO


def test_the_readme_opens_with_make_run_and_make_test() -> None:
    readme = (REPO / "README.md").read_text()
    first_section = readme.split("\n## ", 2)[1]
    assert "make run" in first_section and "make test" in first_section


def test_the_readmes_first_screen_is_what_a_new_user_needs() -> None:
    """What memoir is, the two make commands, installing the package with a short Python example, then
    the doors as a table linking to their sections (issue 26): in that order, before anything else."""
    readme = (REPO / "README.md").read_text()
    sections = re.findall(r"^## (.+)$", readme, flags=re.MULTILINE)
    assert sections[:3] == ["Two commands", "In your own environment", "Doors"], sections[:4]
    first = readme.split("\n## Doors", 1)[0]
    assert "pip install" in first and "memoir-engine" in first
    [example] = re.findall(r"^```python\n(.*?)^```", first, flags=re.MULTILINE | re.DOTALL)
    assert len(example.splitlines()) <= 10
    doors = readme.split("\n## Doors", 1)[1].split("\n## ", 1)[0]
    anchors = {
        re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")
        for title in re.findall(r"^#+ (.+)$", readme, flags=re.MULTILINE)
    }
    links = re.findall(r"\]\(#([^)]+)\)", doors)
    assert links and set(links) <= anchors, set(links) - anchors
    assert len(readme[: readme.index("\n## Doors")].splitlines()) < 60  # the table is on the first screen or next to it


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


def heading_anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_decision_has_a_status_and_a_place_in_the_index() -> None:
    text = (REPO / "docs" / "decisions.md").read_text()
    headings = re.findall(r"^## (\d+)\. (.+)$", text, flags=re.MULTILINE)
    numbers = [int(n) for n, _ in headings]
    assert numbers == list(range(1, len(numbers) + 1)), "decisions are numbered 1, 2, 3 ... in order"

    # The status line right under each heading; a decision it names came later.
    statuses = dict(re.findall(r"^## (\d+)\. .+\n\nStatus: (.+)$", text, flags=re.MULTILINE))
    for n in numbers:
        status = statuses.get(str(n), "")
        assert re.fullmatch(r"accepted|accepted; amended by \d+(, \d+)*|superseded by \d+", status), (n, status)
        assert all(n < int(later) <= len(numbers) for later in re.findall(r"\d+", status)), (n, status)

    # Every decision is in the index, and every link of the index reaches a heading.
    index = text[: text.index("\n## 1. ")]
    anchors = {heading_anchor(f"{n}. {title}"): int(n) for n, title in headings}
    links = re.findall(r"\]\(#([^)]+)\)", index)
    broken = [link for link in links if link not in anchors]
    assert not broken, f"index links that reach no heading: {broken}"
    missing = set(numbers) - {anchors[link] for link in links}
    assert not missing, f"decisions missing from the index: {sorted(missing)}"
