"""Which memories a session has been shown already (seed 001's session dedup).

Kept per agent session in `<home>/sessions/<session>/injected.json`, so the command
form (a new process per call) and the server agree. A missing or corrupt file is an
empty set: at worst a memory is shown twice, never is a hook call failed for it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memoir.session_state import read_state, write_state

__all__ = ["SeenMemories"]

_LOCK = threading.Lock()  # the server handles one session's calls on several threads
MAX_PAIRS = 5_000


class SeenMemories:
    def __init__(self, home: Path, agent: str, session_id: str) -> None:
        self.home = home
        self.session = f"{agent}-{session_id}"

    @contextmanager
    def held(self) -> Iterator[set[tuple[str, str]]]:
        """The session's (memory id, kind) pairs; what the block adds is saved after it."""
        with _LOCK:
            state = read_state(self.home, self.session, "injected")
            raw = state.get("shown")
            pairs = {(p[0], p[1]) for p in raw if _is_pair(p)} if isinstance(raw, list) else set()
            before = set(pairs)
            yield pairs
            if pairs != before:
                kept = sorted(pairs)[-MAX_PAIRS:]
                write_state(self.home, self.session, "injected", {"shown": [list(p) for p in kept]})


def _is_pair(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)
