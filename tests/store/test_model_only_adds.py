"""The property issue 25 asks for: whatever a small model answers, it never ends a conversation with
fewer right facts or more stale ones than the rules alone.

The recorded answers of Qwen2.5 Coder 0.5B (tests/data/llm-replays) are served by a scripted
OpenAI-compatible server on 127.0.0.1 to a real home, which ingests whole conversations written
for the purpose (tests/data/facts). What each recorded answer may hold: tests/unit/test_llm_replays.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bench.facts import SET_NAMES, UNRECORDED, has  # the benchmark's own reading of a fact's words
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir import Memoir
from tests.replays import FACTS_REPLAYS, Replayer, load
from tests.scripted_server import scripted_server

FACTS_ROWS = load(FACTS_REPLAYS)
# Conversations where the model reads facts the rules do not ("thinking 2nd location, vancouver wa" as a move to
# Vancouver, "on square now" as "Fees for eating the user are on square now", "flying home to ohio for christmas")
# and neither reads the later change ("killing the 2nd shop idea", "went w lightspeed" after asking for
# alternatives, "flights insane. doing jeju w min-ji's family instead"): the model leaves those old
# values, the rules never had them. Known, and in docs/performance.md. (`flat-savings-pune` left this list when a
# model's fact naming the place the same message moved away from was no longer kept, `_without_old_places`.)
# `landscaping-invoices-wokingham` (`blind8`): the model reads "Starling was closing my account", the old bank's end,
# which the rules do not read at all; the property counts any fact naming Starling as the old value left live.
_UNREAD_CHANGES = frozenset(("bike-shop-owner-terse", "expat-teacher-korea-terse", "landscaping-invoices-wokingham"))
# Every set whose model answers were recorded: `dev`, written beside the rules, and those written by others who
# never saw them (a set in `UNRECORDED` would be answered with answers to other prompts)
CONVERSATIONS = [
    conversation
    for name in SET_NAMES
    if name not in UNRECORDED
    for conversation in json.loads((Path(__file__).parents[1] / "data" / "facts" / f"{name}.json").read_text())
    if conversation["name"] not in _UNREAD_CHANGES
]


def outcome(conversation: dict[str, Any], live: list[str]) -> tuple[int, int]:
    """(right facts kept, stale values left live)."""
    holds = lambda words: any(all(has(m, w) for w in words) for m in live)  # noqa: E731
    return sum(holds(f["words"]) for f in conversation["facts"]), sum(holds(s["words"]) for s in conversation["stale"])


def live_facts(home: Path, conversation: dict[str, Any], **options: Any) -> list[str]:
    name = conversation["name"]
    turns = [
        {"session_id": name, "conversation_id": name, "event_type": f"{t['role']}_message", "text": t["text"],
         "timestamp": 1_767_225_600_000 + n * 30_000}
        for n, t in enumerate(conversation["turns"])
    ]  # fmt: skip
    with Memoir.open(home, worker_enabled=False, embedding_provider="hashing", **options) as memoir:
        memoir.ingest(turns)
        assert memoir.flush(timeout=300)
        return [m.content for m in memoir.memories(name, kind="fact")]


RULES: dict[tuple[str, str], tuple[int, int]] = {}  # by backend and conversation


@settings(
    max_examples=10,
    deadline=None,
    # a conversation and an order of the answers: as small as the input gets
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.large_base_example],
)
@given(st.sampled_from(CONVERSATIONS), st.randoms(use_true_random=False))
def test_with_any_recorded_answers_the_model_never_leaves_fewer_right_facts_or_more_stale_ones(
    tmp_path_factory: pytest.TempPathFactory,
    fresh_store: Callable[[], dict[str, str]],
    backend: str,
    conversation: dict[str, Any],
    rng: Any,
) -> None:
    """The recorded answers are served for their very requests, and where a request differs (this test's
    embedder finds other neighbours) an answer recorded for a request of the same kind, in a random order."""
    name = conversation["name"]
    if (backend, name) not in RULES:
        rules = live_facts(tmp_path_factory.mktemp("rules"), conversation, **fresh_store())
        RULES[backend, name] = outcome(conversation, rules)
    rows = list(FACTS_ROWS)
    rng.shuffle(rows)
    replayer = Replayer(rows)
    with scripted_server({"/v1/chat/completions": replayer}) as up:
        options = {"llm_model": "qwen2.5-coder-0.5b", "llm_base_url": up.url + "/v1", "llm_retries": 0}
        live = live_facts(tmp_path_factory.mktemp("model"), conversation, **options, **fresh_store())
    kept, stale = outcome(conversation, live)
    assert replayer.calls, "the model was never asked"
    right, stale_by_rules = RULES[backend, name]
    assert kept >= right and stale <= stale_by_rules, (name, (kept, stale), (right, stale_by_rules), live)
