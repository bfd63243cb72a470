"""Several processes on one home at once: memories stay single, opens never fail, forgets stick.

A home is shared by every process that opens it: an agent's hooks, the CLI, a server,
a worker. Each of them may remember, forget, reindex or just look while the others
write, and none of them may see (or leave behind) a half-done change of another:

- processes remembering the same facts at once keep one memory per fact, with one note
  each, and every process is handed that memory;
- opening a home (and `status`, `search`, `memories`, from the API or the `memoir`
  command) never fails because another process is forgetting at that moment;
- a `reindex` running beside `forget` never brings a forgotten memory back into search.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from memoir import Memoir
from tests.durability import CHILDREN, as_here, here, preload

# Children forked from the server of tests/durability.py, where memoir and this module are
# imported already: real processes of their own, in milliseconds.
CONTEXT = CHILDREN
preload(__name__)
GUARD_S = 120  # a hung child fails the test instead of hanging it; not a speed requirement
TOPICS = ["lighthouse", "orchard", "glacier", "harbour", "meadow", "quarry", "canyon", "lagoon", "tundra", "delta"]


def open_home(home: Path) -> Memoir:
    return Memoir.open(home, worker_enabled=False, vault_watch=False, embedding_provider="hashing")


def fact(n: int, tag: str = "shared") -> str:
    return f"{tag} fact {n}: the {TOPICS[n % len(TOPICS)]} keeper logs entry {n * 7919}"


def live_note_files(home: Path) -> list[Path]:
    """Regular note files outside `deleted/` (no symlinks, no temporary files)."""
    root = home / "vault" / "entries"
    return [
        path
        for path in root.rglob("*.md")
        if not path.name.startswith(".tmp-") and not path.is_symlink() and "deleted" not in path.relative_to(root).parts
    ]


# -- children (module level: the server imports this module) --------------------------------


def _report(out: Any, work: Callable[[], object]) -> None:
    """Run `work`; put ("ok", its result) or ("error", the traceback) on `out`."""
    try:
        out.put(("ok", work()))
    except BaseException:  # noqa: BLE001 - whatever it was, the parent must see it
        out.put(("error", traceback.format_exc()))


def remember_all(home: str, texts: list[str], go: Any, out: Any) -> None:
    def work() -> dict[str, str]:
        with open_home(Path(home)) as memoir:
            go.wait(GUARD_S)
            return {text: memoir.remember(text).id for text in texts}

    _report(out, work)


def remember_then_forget(home: str, seconds: float, per_round: int, done: Any, out: Any) -> None:
    def work() -> int:
        rounds = 0
        try:
            with open_home(Path(home)) as memoir:
                deadline = time.monotonic() + seconds
                while time.monotonic() < deadline:
                    memories = [memoir.remember(fact(n, f"round {rounds}")) for n in range(per_round)]
                    for memory in memories:
                        memoir.forget(memory.id)
                    rounds += 1
        finally:
            done.set()
        return rounds

    _report(out, work)


def open_and_look(home: str, done: Any, out: Any) -> None:
    def work() -> tuple[int, list[str]]:
        opens, errors = 0, []
        while not done.is_set():
            opens += 1
            try:
                with open_home(Path(home)) as memoir:
                    memoir.status()
                    memoir.search("keeper logs entry", kinds=["fact"])
                    memoir.memories()
            except Exception:  # noqa: BLE001 - every failed open is counted and shown
                errors.append(traceback.format_exc())
        return opens, errors

    _report(out, work)


def reindex_until(home: str, started: Any, done: Any, out: Any) -> None:
    """Reindex in a loop; after each pass, look for memories forgotten before it ended that it put back."""

    def work() -> tuple[int, list[str]]:
        runs, checked, back = 0, set(), []
        with open_home(Path(home)) as memoir:
            while not done.is_set():
                memoir.reindex()
                runs += 1
                started.set()
                # Each forget below committed before this line: its memory must stay out of search.
                dead = [m for m in memoir.memories(include_deleted=True) if m.deleted and m.id not in checked]
                for memory in dead:
                    hits = memoir.search(memory.content, kinds=["fact"], k=10)
                    if memory.id in [h.memory_id for h in hits]:
                        back.append(f"{memory.id} ({memory.content!r}) after reindex pass {runs}")
                    checked.add(memory.id)
        return runs, back

    _report(out, work)


def forget_each(home: str, ids: list[str], started: Any, done: Any, out: Any) -> None:
    def work() -> int:
        try:
            with open_home(Path(home)) as memoir:
                started.wait(GUARD_S)
                for memory_id in ids:
                    memoir.forget(memory_id)
        finally:
            done.set()
        return len(ids)

    _report(out, work)


# -- the parent's side ---------------------------------------------------------------------


def start(target: Callable[..., None], *args: Any) -> tuple[BaseProcess, Any]:
    out = CONTEXT.Queue()
    process = CONTEXT.Process(target=as_here, args=(here(), target, *args, out))
    process.start()
    return process, out


def outcome(process: BaseProcess, out: Any) -> Any:
    """The child's result; the test fails with the child's traceback if it raised."""
    try:
        status, value = out.get(timeout=GUARD_S)
    finally:
        process.join(GUARD_S)
        if process.is_alive():
            process.kill()
    assert status == "ok", f"a child process failed:\n{value}"
    return value


def cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {
        **os.environ,
        "MEMOIR_HOME": str(home),
        "MEMOIR_EMBEDDING_PROVIDER": "hashing",
        "MEMOIR_VAULT_WATCH": "false",
        "MEMOIR_DEBUG": "1",
    }
    return subprocess.run(
        [sys.executable, "-m", "memoir", *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=GUARD_S,
        check=False,
    )


def test_four_processes_remembering_the_same_facts_keep_one_memory_and_one_note_each(tmp_path: Path) -> None:
    home = tmp_path / "home"
    open_home(home).close()
    texts = [fact(n) for n in range(60)]
    orders = [texts, texts[::-1], *(random.Random(seed).sample(texts, len(texts)) for seed in (1, 2))]
    go = CONTEXT.Event()
    children = [start(remember_all, str(home), order, go) for order in orders]
    time.sleep(0.5)
    go.set()  # the children opened the home (or are about to): all remember at once
    handed = [outcome(*child) for child in children]

    notes = live_note_files(home)
    assert len(notes) == 60, f"{len(notes)} live notes for 60 facts"
    with open_home(home) as memoir:
        live = memoir.memories()
        assert sorted(m.content for m in live) == sorted(texts), f"{len(live)} live memories for 60 facts"
        kept = {m.content: m.id for m in live}
    for text in texts:  # every process was handed the one memory that was kept
        assert {ids[text] for ids in handed} == {kept[text]}, f"{text!r} became several memories"


def test_opening_a_home_never_fails_while_another_process_forgets(tmp_path: Path) -> None:
    home = tmp_path / "home"
    open_home(home).close()
    done = CONTEXT.Event()
    forgetter = start(remember_then_forget, str(home), 8.0, 10, done)
    readers = [start(open_and_look, str(home), done) for _ in range(2)]
    failed_commands = []
    commands = 0
    while not done.is_set():  # the `memoir` command too, as a hook or a person runs it
        for args in (("status",), ("search", "keeper logs entry", "--kinds", "fact")):
            commands += 1
            result = cli(home, *args)
            if result.returncode != 0:
                failed_commands.append(f"memoir {' '.join(args)} exited {result.returncode}:\n{result.stderr[-2000:]}")

    rounds = outcome(*forgetter)
    looks = [outcome(*reader) for reader in readers]
    opens = sum(n for n, _ in looks)
    errors = [error for _, errors in looks for error in errors]
    assert rounds > 0 and opens > 0 and commands > 0
    assert not errors, f"{len(errors)} of {opens} opens failed; the first:\n{errors[0]}"
    assert not failed_commands, (
        f"{len(failed_commands)} of {commands} commands failed; the first:\n{failed_commands[0]}"
    )
    with open_home(home) as memoir:
        assert memoir.memories() == []  # every remembered fact was forgotten
        assert memoir.search("keeper logs entry", kinds=["fact"], k=100) == []


def test_reindex_beside_forget_never_brings_a_forgotten_memory_back(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with open_home(home) as memoir:
        memories = memoir.remember_many([fact(n) for n in range(40)])
    ids = [m.id for m in memories]
    started, done = CONTEXT.Event(), CONTEXT.Event()
    reindexer = start(reindex_until, str(home), started, done)
    forgetter = start(forget_each, str(home), ids, started, done)
    assert outcome(*forgetter) == len(ids)
    runs, back = outcome(*reindexer)
    assert runs > 0
    assert not back, f"{len(back)} forgotten memories were searchable again, e.g. {back[0]}"

    with open_home(home) as memoir:
        assert memoir.memories() == [], "forgotten memories are listed as live"
        found = {h.memory_id for n in range(40) for h in memoir.search(fact(n), kinds=["fact"], k=100)}
        assert not found & set(ids), f"{len(found & set(ids))} forgotten memories are searchable"
        assert memoir.status().indexed_items == 0
