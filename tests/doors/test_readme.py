"""The README's examples run as written and print what the README shows.

In a ```console block a `$ ` line is a command (continued while a quote is open) and the lines
after it are what it prints, stdout and stderr as a terminal shows them; a command shown
without output is only run. Every command must succeed, except one followed by `echo $?`.
Ids, times and scores differ from run to run: they are compared by shape, and an id the
README uses in a later command stands for the id the run printed in its place. The homes
the README puts under /tmp go under the test's folder. ```python blocks run in a fresh home.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO

README = (REPO / "README.md").read_text()
ULID = re.compile(r"\b[0-9A-HJKMNP-TV-Z]{26}\b")
TIME = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?|\b\d{8}T\d{6}")
SCORE = re.compile(r"\b\d+\.\d+\b")
WIDTH = "150"  # the terminal width the README's tables were printed at


@dataclass
class Step:
    command: str
    shown: list[str]


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, flags=re.MULTILINE | re.DOTALL)


def steps(block: str) -> list[Step]:
    found: list[Step] = []
    lines = iter(block.splitlines())
    for line in lines:
        if not line.startswith("$ "):
            found[-1].shown.append(line)
            continue
        command = line[2:]
        while not complete(command):
            command += "\n" + next(lines)
        found.append(Step(command, []))
    return found


def complete(command: str) -> bool:
    try:
        shlex.split(command)
    except ValueError:  # an open quote: the command goes on on the next line
        return False
    return True


def shape(lines: list[str]) -> list[str]:
    """What must not change from run to run: ids, times and scores become placeholders, spacing is ignored."""
    shaped = [" ".join(SCORE.sub("<score>", TIME.sub("<time>", ULID.sub("<id>", line))).split()) for line in lines]
    while shaped and not shaped[-1]:
        shaped.pop()
    return shaped


def match_ids(shown: list[str], printed: list[str], ids: dict[str, str]) -> None:
    """Learns which printed id each README id stands for; the README must use its ids consistently."""
    for readme_line, run_line in zip(shown, printed, strict=True):
        for readme_id, run_id in zip(ULID.findall(readme_line), ULID.findall(run_line), strict=True):
            assert ids.setdefault(readme_id, run_id) == run_id, f"README id {readme_id} stands for two ids"
    assert len(set(ids.values())) == len(ids), f"two README ids stand for one id: {ids}"


def run(command: str, previous_status: int, state: Path, tmp: Path) -> tuple[int, list[str]]:
    """Runs one command in bash as the README's shell would: variables and `$?` carry over from the last one."""
    script = f"{f'source {state}' if state.exists() else ''}\n(exit {previous_status})\n{command}\n"
    script += f"status=$?\nexport -p > {state}\nexit $status\n"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "COLUMNS": WIDTH}
    result = subprocess.run(
        ["bash", "-c", script],
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
        check=False,
    )
    return result.returncode, result.stdout.replace(f"{tmp}/", "/tmp/").splitlines()


@pytest.mark.sqlite_only  # the README's output shows the default: the SQLite file in the home
@pytest.mark.parametrize("block", blocks("console"), ids=lambda block: block.splitlines()[0][2:40])
def test_console_examples_print_what_the_readme_shows(block: str, tmp_path: Path) -> None:
    state, ids, status = tmp_path / "shell-state", {}, 0
    all_steps = steps(block)
    for step, following in zip(all_steps, [*all_steps[1:], None], strict=True):
        command = ULID.sub(lambda found: ids.get(found[0], found[0]), step.command).replace("/tmp/", f"{tmp_path}/")
        status, printed = run(command, status, state, tmp_path)
        if following is None or following.command != "echo $?":
            assert status == 0, f"$ {step.command}\nexited {status}:\n" + "\n".join(printed)
        if step.shown:
            assert shape(printed) == shape(step.shown), f"$ {step.command}"
            match_ids(step.shown[: len(printed)], printed[: len(step.shown)], ids)


@pytest.mark.parametrize("code", blocks("python"))
def test_python_examples_run(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # its home, ~/memoir-demo, goes under the test's folder
    exec(compile(code, "README.md", "exec"), {})
