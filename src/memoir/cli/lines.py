"""`memoir ingest`'s lines (read as bytes, each parsed alone, stored a batch at a time, refused alone) and its wait."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console

from memoir.cli import render
from memoir.errors import InvalidEvent, InvalidInput
from memoir.facade.engine import Memoir
from memoir.model import Event
from memoir.model.wording import counted

__all__ = ["Batches", "input_lines", "parse_line", "wait_for_jobs"]

Numbered = Iterator[tuple[int, bytes]]


@contextmanager
def input_lines(
    source: str, err: Console, fail: Callable[[str], NoReturn]
) -> Iterator[tuple[Numbered, Callable[[str], None]]]:
    """(numbered non-blank lines, as bytes, and how to report one), from a file (with a progress bar) or stdin.

    Bytes either way, so a line that is not UTF-8 is refused alone by `parse_line`.
    """
    if source == "-":
        stdin = getattr(sys.stdin, "buffer", None)  # None when the shell closed it (<&-)
        if stdin is None:
            fail("standard input is closed: pipe the events in, or give a file")
        yield _numbered(stdin, lambda size: None), lambda message: err.print(render.escape(message))
        return
    path = Path(source)
    if not path.is_file():
        what = "a folder, not a file" if path.is_dir() else "no such file"
        fail(f"{source}: {what} (give a JSON Lines file, or - for standard input)")
    with render.byte_progress(err, path) as (advance, report), path.open("rb") as handle:
        yield _numbered(handle, advance), report


def _numbered(handle: Iterable[bytes], advance: Callable[[int], None]) -> Numbered:
    for number, raw in enumerate(handle, start=1):
        advance(len(raw))
        if raw.strip():
            yield number, raw


class Batches:
    """Events of numbered lines, stored a batch at a time; counts them and reports each line refused.

    Refusals wait for their batch to be stored, so that those found then (an id stored with
    other content) are reported in line order with those found while reading.
    """

    def __init__(self, memoir: Memoir, report: Callable[[str], None], size: int) -> None:
        self.memoir, self.report, self.size = memoir, report, size
        self.pending: list[tuple[int, Event]] = []
        self.refused: list[tuple[int, str]] = []
        self.accepted = 0
        self.rejected = 0
        self.done_through = 0  # every line up to this one is stored or reported

    def add(self, number: int, raw: bytes) -> None:
        try:
            events = self.memoir.prepare(parse_line(raw, number))
        except InvalidInput as exc:
            self._refuse(number, exc)
            return
        self.pending.extend((number, event) for event in events)
        if len(self.pending) >= self.size:
            self.store()

    def store(self) -> None:
        batch, self.pending = self.pending, []
        if batch:
            try:
                self.accepted += len(self.memoir.ingest([event for _, event in batch]))
            except InvalidInput as exc:
                # An event refused at write time (its id is stored with other content): the others
                # were stored; those before it are done, the rest go one by one to say which lines.
                first = exc.index or 0
                self.accepted += first
                self._one_by_one(batch[first:])
            self.done_through = batch[-1][0]
        for _, message in sorted(self.refused):
            self.report(message)
        self.refused.clear()

    def _one_by_one(self, batch: list[tuple[int, Event]]) -> None:
        for number, event in batch:
            try:
                self.memoir.ingest(event)
            except InvalidInput as exc:
                self._refuse(number, exc)
            else:
                self.accepted += 1

    def _refuse(self, number: int, exc: InvalidInput) -> None:
        self.rejected += 1
        self.refused.append((number, f"line {number}: {exc}"))


def parse_line(raw: bytes, number: int) -> dict[str, Any]:
    """One line's event object, from its bytes; whatever is wrong with them is an InvalidEvent."""
    try:
        # A byte order mark may open the first line (some Windows tools write one).
        line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidEvent("event", f"not UTF-8 (byte {raw[exc.start]:#04x} at column {exc.start + 1})") from None
    try:
        data = json.loads(line, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise InvalidEvent("event", f"malformed JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise InvalidEvent("event", "malformed JSON (nested too deeply)") from None
    except InvalidEvent:
        raise
    except ValueError:  # Python reads no integer past its digit limit (4,300 digits)
        raise InvalidEvent("event", "malformed JSON (a number with too many digits)") from None
    if not isinstance(data, dict):
        raise InvalidEvent("event", f"each line must be one JSON object with event fields, got {type(data).__name__}")
    return data


def _refuse_constant(name: str) -> NoReturn:
    raise InvalidEvent("event", f"malformed JSON ({name} is not a JSON value)")


def wait_for_jobs(memoir: Memoir, err: Console, *, everything: bool) -> None:
    """The fast lane always (searchable on return); the llm lane with `--wait`, or when no model makes it slow."""
    if not everything and memoir.uses_model:
        memoir.wait_searchable()
        if left := memoir.pending():
            err.print(
                f"{counted(left, 'event')} waiting for the model (fact extraction): "
                "`memoir worker` runs it, or ingest --wait"
            )
        return
    if not everything:
        memoir.flush()
        return
    with render.count_progress(err, "waiting for background jobs") as update:
        total = max(memoir.pending(), 1)
        done = threading.Event()
        failure: list[BaseException] = []

        def drain() -> None:
            try:
                memoir.flush()
            except BaseException as exc:  # noqa: BLE001 - raised again from the main thread
                failure.append(exc)
            finally:
                done.set()

        threading.Thread(target=drain, name="memoir-ingest-wait", daemon=True).start()
        while not done.wait(0.2):
            update(max(0, total - memoir.pending()), total)
        update(total, total)
    if failure:
        raise failure[0]
