"""The circuit breaker of a home's model is shared by every process of the home, and shown."""

from __future__ import annotations

import json
from pathlib import Path

from memoir import Memoir
from tests.conftest import message, run_cli

DEAD = "http://127.0.0.1:9/v1"  # nothing listens there: every call is refused at once
ENV = {"MEMOIR_LLM_MODEL": "qwen", "MEMOIR_LLM_BASE_URL": DEAD, "MEMOIR_EMBEDDING_PROVIDER": "hashing"}


def test_a_breaker_opened_by_one_process_is_open_for_every_process_and_status_says_so(home: Path) -> None:
    with Memoir.open(home, worker_enabled=False, **{key.lower()[7:]: v for key, v in ENV.items()}) as memoir:
        memoir.ingest([message(f"I have {n} cats.") for n in range(4)])
        assert memoir.flush(timeout=60)
        state = memoir.status().model
        assert state is not None and state["breaker"] == "open" and state["failures"] == 3
        assert "no LLM answers" in state["last_error"]
        assert [m.source for m in memoir.memories()] == ["heuristics"] * 4  # the rules took every turn
    seen = run_cli("status", "--json", home=home, **ENV)  # another process
    model = json.loads(seen.stdout)["model"]
    assert (model["breaker"], model["failures"], model["model"]) == ("open", 3, "qwen")
    assert "circuit breaker open" in run_cli("doctor", home=home, **ENV).stdout


def test_without_a_model_status_says_the_rules_extract(home: Path) -> None:
    with Memoir.open(home, worker_enabled=False, embedding_provider="hashing") as memoir:
        assert memoir.status().model is None
