"""The recorded answers of a real small model (Qwen2.5 Coder 0.5B) to memoir's prompts, as an upstream.

A copy of ../shared/data/llm-replays, kept with the tests so a fresh clone runs them;
shared by `tests/test_llm_replays.py` and `bench/llm_real.py --replay` (no pytest here).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.scripted_server import chat_reply

__all__ = ["EXTRACTIONS", "RECONCILIATIONS", "ROWS", "Replayer", "user_text"]

REPLAYS = Path(__file__).parent / "data" / "llm-replays" / "qwen2.5-coder-0.5b-q4.jsonl"
ROWS = [json.loads(line) for line in REPLAYS.read_text().splitlines() if line.strip()]
EXTRACTIONS = [r for r in ROWS if r["request"]["messages"][0]["content"].startswith("You extract facts")]
RECONCILIATIONS = [r for r in ROWS if r["request"]["messages"][0]["content"].startswith("You keep a user's memory")]


def user_text(row: dict[str, Any]) -> str:
    """The message the call was about (a corrective retry repeats it first, then adds its complaint)."""
    return str(row["request"]["messages"][1]["content"])


class Replayer:
    """The recordings as an upstream: an extraction answer for its own message, reconciliations in turn."""

    def __init__(self) -> None:
        self.extractions = {user_text(r): r["content"] for r in EXTRACTIONS}
        self.reconciliations = [r["content"] for r in RECONCILIATIONS]
        self.calls = 0

    def __call__(self, body: dict[str, Any]) -> tuple[int, Any]:
        self.calls += 1
        system, user = body["messages"][0]["content"], body["messages"][1]["content"]
        if system.startswith("You extract facts"):
            return 200, chat_reply(self.extractions.get(user, '{"facts": []}'))
        answer = self.reconciliations[self.calls % len(self.reconciliations)]
        return 200, chat_reply(answer)
