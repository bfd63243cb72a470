"""The `memoir` executable's first step: `memoir hook` goes down a fast path.

Coding agents start `memoir hook` for every tool call. Importing the typer app, and
through it the search stack, would cost more than the whole hook may take (100 ms), so
that one command is recognised here, before anything heavy is imported; every other
command goes to `memoir.cli`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

__all__ = ["main"]


def main() -> None:
    fast = hook_arguments(sys.argv[1:])
    if fast is not None:
        from memoir.hooks.command import run_hook

        raise SystemExit(run_hook(**fast))
    from memoir.blas import use_one_blas_thread

    use_one_blas_thread()  # before numpy is imported (decision 70)
    from memoir.cli import main as cli_main

    cli_main()


def hook_arguments(argv: list[str]) -> dict[str, Any] | None:
    """`[--home H] [--config C] hook [EVENT] [--agent A]` as keywords; None for anything else."""
    found: dict[str, Any] = {"home": None, "config": None, "event": None, "agent": "claude"}
    words = iter(argv)
    for word in words:
        name, _, value = word.partition("=")
        if name in ("--home", "--config"):
            found[name[2:]] = Path(value or next(words, ""))
        elif word == "hook":
            break
        else:
            return None
    else:
        return None
    for word in words:
        name, _, value = word.partition("=")
        if name == "--agent":
            found["agent"] = value or next(words, "")
        elif word.startswith("-") or found["event"] is not None:
            return None  # --help and anything unusual: the full CLI explains
        else:
            found["event"] = word
    return found
