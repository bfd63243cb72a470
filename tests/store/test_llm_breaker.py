"""A home's model as every process sees it: the shared circuit breaker, the ledger of calls, the budgets."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memoir import Memoir
from tests.conftest import message, run_cli
from tests.scripted_server import chat_reply, scripted_server

DEAD = "http://127.0.0.1:9/v1"  # nothing listens there: every call is refused at once
ENV = {"MEMOIR_LLM_MODEL": "qwen", "MEMOIR_LLM_BASE_URL": DEAD, "MEMOIR_EMBEDDING_PROVIDER": "hashing"}


def test_a_breaker_opened_by_one_process_is_open_for_every_process_and_status_says_so(home: Path) -> None:
    with Memoir.open(home, worker_enabled=False, **{key.lower()[7:]: v for key, v in ENV.items()}) as memoir:
        said = ["I live in Oslo.", "I work at Acme.", "My dog is Rex.", "I play the cello."]
        memoir.ingest([message(text) for text in said])
        assert memoir.flush(timeout=60)
        state = memoir.status().model
        assert state is not None and state["breaker"] == "open" and state["failures"] == 3
        assert "no answer from the LLM server" in state["last_error"]
        assert [m.source for m in memoir.memories()] == ["heuristics"] * 4  # the rules took every turn
    seen = run_cli("status", "--json", home=home, **ENV)  # another process
    model = json.loads(seen.stdout)["model"]
    assert (model["breaker"], model["failures"], model["model"]) == ("open", 3, "qwen")
    assert "circuit breaker open" in run_cli("doctor", home=home, **ENV).stdout


def test_without_a_model_status_says_the_rules_extract(home: Path) -> None:
    with Memoir.open(home, worker_enabled=False, embedding_provider="hashing") as memoir:
        assert memoir.status().model is None


def counted(content: str, prompt: int = 40, completion: int = 10) -> Callable[[dict[str, Any]], tuple[int, Any]]:
    """A model answering `content`, with the token usage OpenAI-compatible servers report."""
    usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
    return lambda body: (200, {**chat_reply(content), "usage": usage})


def test_the_ledger_counts_calls_and_tokens_per_job_and_status_shows_them(home: Path) -> None:
    model = counted('{"facts": ["The user keeps bees"]}')
    with scripted_server({"/v1/chat/completions": model}) as server:
        options = {"llm_model": "qwen", "llm_base_url": server.url + "/v1", "embedding_provider": "hashing"}
        with Memoir.open(home, worker_enabled=False, **options) as memoir:
            memoir.ingest([message("I keep bees."), message("I keep bees on the roof.")])
            assert memoir.flush(timeout=60)
            usage = memoir.status().llm_usage["extract_facts"]
        table = run_cli("status", home=home, **ENV).stdout
    assert usage["calls"] == usage["calls_last_day"] >= 2  # extraction per turn, reconciliation for the second
    assert usage["tokens"] == 50 * len(server.requests)
    assert f"{usage['calls']} calls, {usage['tokens']} tokens in all" in table


def test_a_job_past_its_daily_token_budget_hands_its_work_to_the_rules(home: Path) -> None:
    model = counted('{"facts": ["The user relaxes with beekeeping on the roof"]}', prompt=900, completion=100)
    with scripted_server({"/v1/chat/completions": model}) as server:
        options = {"llm_model": "qwen", "llm_base_url": server.url + "/v1", "embedding_provider": "hashing"}
        budget = {"llm.daily_tokens": "extract_facts=1000"}
        with Memoir.open(home, worker_enabled=False, **options, **budget) as memoir:
            said = ["Beekeeping on the roof is how I relax.", "I play the cello.", "I live in Porto."]
            memoir.ingest([message(text) for text in said])
            assert memoir.flush(timeout=60)
            sources = [m.source for m in memoir.memories()]
        assert len(server.requests) == 1  # one call spent the 1,000 tokens: nothing more was asked
    assert sources == ["llm", "heuristics", "heuristics"]  # the model's fact (the rules read none), then the rules


def test_a_hung_model_costs_one_budget_per_call_then_the_shared_breaker_opens(home: Path) -> None:
    release = threading.Event()

    def hung(body: dict[str, Any]) -> tuple[int, Any]:
        release.wait(10)
        return 200, chat_reply('{"facts": []}')

    with scripted_server({"/v1/chat/completions": hung}) as server:
        options = {"llm_model": "qwen", "llm_base_url": server.url + "/v1", "embedding_provider": "hashing"}
        with Memoir.open(home, worker_enabled=False, llm_timeout=5, llm_budget=0.3, **options) as memoir:
            memoir.ingest([message(f"I have {n} cats.") for n in range(5)])
            assert memoir.flush(timeout=60)
            state, usage = memoir.status().model, memoir.status().llm_usage["extract_facts"]
            outcomes = memoir._parts.store._read("SELECT outcome FROM llm_calls")  # type: ignore[attr-defined]
        release.set()
    assert state is not None and state["breaker"] == "open" and "budget" in state["last_error"]
    assert usage["calls"] == 3 and [o for (o,) in outcomes] == ["timed out"] * 3  # then the rules, at once


def test_a_format_the_server_refused_is_not_asked_for_again_by_any_process(home: Path) -> None:
    def no_schemas(body: dict[str, Any]) -> tuple[int, Any]:
        if body.get("response_format", {}).get("type") == "json_schema":
            return 400, {"error": "response_format json_schema is not supported"}
        return 200, chat_reply('{"facts": ["The user keeps bees"]}')

    with scripted_server({"/v1/chat/completions": no_schemas}) as server:
        options = {"llm_model": "qwen", "llm_base_url": server.url + "/v1", "embedding_provider": "hashing"}
        with Memoir.open(home, worker_enabled=False, **options) as memoir:
            memoir.ingest([message("I keep bees.")])
            assert memoir.flush(timeout=60)
        first = [body.get("response_format", {}).get("type") for _, body in server.requests]
        server.requests.clear()
        with Memoir.open(home, worker_enabled=False, **options) as memoir:  # a new process, after a restart
            memoir.ingest([message("I grow tomatoes.")])
            assert memoir.flush(timeout=60)
        second = [body.get("response_format", {}).get("type") for _, body in server.requests]
    assert first[:2] == ["json_schema", "json_object"]
    assert second and set(second) == {"json_object"}  # learnt from the store: never refused again
