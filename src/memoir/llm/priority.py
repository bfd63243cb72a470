"""Foreground first: a person waiting on a model (`memoir chat`, `ask`, the proxy) goes before memoir's own work.

A laptop's model server answers one request at a time (llama.cpp's one slot, Ollama's
default). memoir's background lanes ask it too, for facts and summaries, and a chat turn
that arrives behind a summary waits for it, or times out. So every process of a home
marks a foreground call while it is in flight (a shared `flock` on a file per server in
the home), and background work waits before each call while any is marked, in any
process: it starts again once the person has their answer. A background call already in
flight finishes; the foreground one waits at most for that call.

The lock is taken on a file of its own per server and process call, and released by the
kernel if its holder dies, so a killed chat never holds the background back.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = ["ForegroundGate"]

POLL = 0.1  # seconds between looks while a foreground call is in flight


class ForegroundGate:
    def __init__(self, path: Path, max_wait: float = 600.0) -> None:
        self.path = path
        self.max_wait = max_wait  # a foreground call that never ends must not stop the background for ever

    @classmethod
    def of(cls, home: Path, base_url: str) -> ForegroundGate:
        """The gate of one model server (by its URL) in a home."""
        digest = hashlib.sha256(base_url.rstrip("/").encode("utf-8", "surrogatepass")).hexdigest()[:16]
        return cls(Path(home) / "run" / f"llm-{digest}.lock")

    def _open(self) -> int | None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            return os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        except OSError:
            return None  # a read-only or full home: no priority, never a failure

    @contextlib.contextmanager
    def foreground(self) -> Iterator[None]:
        """Mark a call a person waits on, for as long as it runs."""
        fd = self._open()
        try:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_SH)
            yield
        finally:
            if fd is not None:
                os.close(fd)  # releases the lock

    def busy(self) -> bool:
        """Is a foreground call in flight now (in any process)?"""
        fd = self._open()
        if fd is None:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
        return False

    def wait(self) -> float:
        """Before a background call: wait while a foreground one is in flight; returns the seconds waited."""
        started = time.monotonic()
        while self.busy() and time.monotonic() - started < self.max_wait:
            time.sleep(POLL)
        return time.monotonic() - started
