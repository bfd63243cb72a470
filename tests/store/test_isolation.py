"""Isolation: agents (unified mode) and conversations never see each other's data.

In unified mode one home serves many agents: every read and write acts within the
calling agent (`agent_id` per call, the configured one by default) plus the shared
`global` conversation. Reading across agents happens only when asked for with
`all_agents=True`. In separate mode conversations are the boundary, with `global`
shared by all. Derived data (a turn's neighbouring-turn keyword columns, facts
extracted from messages) follows the same boundary as what it was derived from.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir import EventNotFound, InvalidInput, Memoir, NotFound
from tests.conftest import cli, message

AGENTS = ("planner", "coder")
WORDS = ("zebra", "violin", "quartz", "harbour", "saffron", "glacier", "lantern", "orchid")


def unified(home: Path, **options: object) -> Memoir:
    return Memoir.open(
        home,
        multi_agent_mode="unified",
        agent_id=None,
        embedding_provider="hashing",
        worker_enabled=False,
        vault_watch=False,
        **options,
    )


def test_unified_mode_needs_an_agent_for_every_read_and_private_write(home: Path) -> None:
    with unified(home) as memoir:
        for read in (
            lambda: memoir.search("anything"),
            lambda: memoir.build_context("anything"),
            lambda: memoir.memories(),
            lambda: memoir.events(),
        ):
            with pytest.raises(InvalidInput, match="agent_id"):
                read()
        with pytest.raises(InvalidInput, match="agent_id"):
            memoir.remember("The build uses make")
        shared = memoir.remember("The office is closed on Fridays", conversation_id="global")
        assert shared.agent_id is None


def test_another_agents_memories_events_and_facts_are_invisible_and_untouchable(home: Path) -> None:
    with unified(home) as memoir:
        theirs = memoir.remember("The deploy key lives in the zebra vault", agent_id="coder")
        [turn] = memoir.ingest(message("I play the violin on Sundays"), agent_id="coder")
        memoir.flush()
        facts = [m for m in memoir.memories(agent_id="coder") if m.source != "user"]
        assert facts, "the coder's message gave a fact"
        assert all(m.agent_id == "coder" for m in facts)
        mine = memoir.remember("The planner likes lanterns", agent_id="planner")

        for query in ("zebra vault deploy key", "violin Sundays"):
            hits = memoir.search(query, agent_id="planner", k=20)
            assert not any("zebra" in h.text or "violin" in h.text for h in hits)
            assert "zebra" not in memoir.build_context(query, agent_id="planner").text
            assert "violin" not in memoir.build_context(query, agent_id="planner").text
        assert [m.id for m in memoir.memories(agent_id="planner")] == [mine.id]
        assert memoir.events(agent_id="planner") == []
        with pytest.raises(EventNotFound):
            memoir.get_event(turn, agent_id="planner")
        for act in (memoir.forget, memoir.memory_history, memoir.memory_path):
            with pytest.raises(NotFound):
                act(theirs.id, agent_id="planner")
        assert not memoir.memories(agent_id="coder", include_deleted=True)[0].deleted

        # The owner sees it all; reading across agents is explicit.
        assert any("zebra" in h.text for h in memoir.search("zebra vault", agent_id="coder"))
        assert {m.agent_id for m in memoir.memories(all_agents=True)} == {"planner", "coder"}
        assert len(memoir.events(all_agents=True)) == 1


def test_the_global_conversation_is_shared_by_every_agent(home: Path) -> None:
    with unified(home) as memoir:
        shared = memoir.remember("Standup is at nine in the harbour room", conversation_id="global", agent_id="coder")
        for agent in AGENTS:
            assert any(h.memory_id == shared.id for h in memoir.search("standup harbour", agent_id=agent))
            assert shared.id in {m.id for m in memoir.memories(agent_id=agent)}


def test_neighbouring_turns_of_another_agent_never_reach_the_keyword_columns(home: Path) -> None:
    """Two agents writing into the same session id: each turn's context is its own agent's turns."""
    with unified(home) as memoir:
        for n, word in enumerate(WORDS):
            agent = AGENTS[n % 2]
            memoir.ingest(message(f"{agent} says {word}", timestamp=1_700_000_000_000 + n), agent_id=agent)
        memoir.flush()
        for agent in AGENTS:
            for hit in memoir.search("says", agent_id=agent, k=20, kinds=["turn"]):
                assert hit.text.startswith(agent)
                assert all(line.startswith(f"[user] {agent}") for line in hit.context)
            # a word only the other agent said finds nothing, even through the neighbour columns
            other_words = [w for n, w in enumerate(WORDS) if AGENTS[n % 2] != agent]
            for word in other_words:
                assert not any(word in h.text for h in memoir.search(word, agent_id=agent, k=20))


OPS = st.lists(
    st.tuples(
        st.sampled_from(AGENTS),
        st.sampled_from(("c1", "c2", "global")),
        st.sampled_from(WORDS),
        st.sampled_from(("remember", "ingest", "forget")),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(OPS)
def test_generated_histories_keep_every_agent_to_its_own_and_the_shared(ops: list[tuple[str, str, str, str]]) -> None:
    home = Path(tempfile.mkdtemp()) / "home"
    try:
        with unified(home) as memoir:
            owner: dict[str, str | None] = {}  # memory id -> its agent (None: shared)
            for agent, conversation, word, op in ops:
                if op == "remember":
                    memory = memoir.remember(f"{agent} noted {word}", conversation_id=conversation, agent_id=agent)
                    owner[memory.id] = memory.agent_id
                    assert memory.agent_id == (None if conversation == "global" else agent)
                elif op == "ingest":
                    memoir.ingest(message(f"{agent} said {word}", conversation_id=conversation), agent_id=agent)
                elif owner:
                    target = sorted(owner)[len(word) % len(owner)]
                    if owner[target] in (None, agent):
                        memoir.forget(target, agent_id=agent)
                    else:
                        with pytest.raises(NotFound):
                            memoir.forget(target, agent_id=agent)
            memoir.flush()
            for agent in AGENTS:
                listed = memoir.memories(agent_id=agent, include_deleted=True)
                assert all(m.agent_id in (None, agent) for m in listed)
                assert all(e.agent_id == agent for e in memoir.events(agent_id=agent, limit=1000))
                for conversation in ("c1", "c2"):
                    for word in WORDS:
                        for hit in memoir.search(word, agent_id=agent, conversation_id=conversation, k=50):
                            assert hit.agent_id in (None, agent)
                            assert hit.text.startswith(agent) or hit.conversation_id == "global"
    finally:
        shutil.rmtree(home.parent, ignore_errors=True)


def test_separate_mode_keeps_conversations_apart_but_shares_global(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    memoir.remember("Alice's allergy is to saffron", conversation_id="alice")
    memoir.ingest(message("My locker code is glacier", conversation_id="alice"))
    memoir.remember("The cafeteria closes at three", conversation_id="global")
    memoir.flush()
    for query in ("saffron allergy", "locker code glacier"):
        hits = memoir.search(query, conversation_id="bob", k=20)
        assert all(h.conversation_id in ("bob", "global") for h in hits)
        assert "saffron" not in memoir.build_context(query, conversation_id="bob").text
    assert any("cafeteria" in h.text for h in memoir.search("cafeteria", conversation_id="bob"))
    assert memoir.memories("bob") == []
    assert memoir.events(conversation_id="bob") == []


def test_the_command_line_acts_as_the_agent_it_is_given(home: Path) -> None:
    env = {"MEMOIR_MULTI_AGENT_MODE": "unified", "MEMOIR_EMBEDDING_PROVIDER": "hashing"}
    assert cli("init", home=home, **env).exit_code == 0
    made = cli("remember", "The deploy key lives in the zebra vault", "--agent", "coder", home=home, **env)
    assert made.exit_code == 0
    memory_id = made.stdout.split()[2]
    as_planner = ("--agent", "planner")
    assert cli("memories", *as_planner, home=home, **env).stderr.startswith("no memories in ")
    assert cli("search", "zebra vault", *as_planner, home=home, **env).stderr.startswith("no hits anywhere")
    refused = cli("forget", memory_id, *as_planner, home=home, **env)
    assert refused.exit_code == 2 and "no memory with id" in refused.stderr
    assert memory_id in cli("memories", "--all-agents", "--json", home=home, **env).stdout
    assert "coder" in cli("memories", "--all-agents", home=home, **env).stdout  # whose, in the table
    assert cli("memories", home=home, **env).stderr.startswith("error: agent_id: ")  # nobody configured
    assert cli("forget", memory_id, "--agent", "coder", home=home, **env).exit_code == 0


def test_facts_learned_in_global_stay_with_the_agent_whose_message_they_came_from(home: Path) -> None:
    with unified(home) as memoir:
        memoir.ingest(message("My wife is Alice.", conversation_id="global"), agent_id="coder")
        memoir.flush()
        memoir.ingest(message("My wife is Carol.", conversation_id="global"), agent_id="planner")
        memoir.flush()
        coder = memoir.memories("global", agent_id="coder")
        planner = memoir.memories("global", agent_id="planner")
        assert [m.content for m in coder] == ["The user's wife is Alice"]  # not replaced by the planner's user
        assert [m.content for m in planner] == ["The user's wife is Carol"]
        assert {m.agent_id for m in coder + planner} == {"coder", "planner"}


def test_a_payload_cannot_speak_for_another_agent_than_the_caller(home: Path) -> None:
    with unified(home) as memoir:
        with pytest.raises(InvalidInput, match="agent_id"):
            memoir.ingest(message("hello", agent_id="coder"), agent_id="planner")
        with pytest.raises(InvalidInput, match="agent_id"):
            memoir.remember_many([{"text": "x", "agent_id": "coder"}], agent_id="planner")
        for flag in ("no", 1, None):
            with pytest.raises(InvalidInput, match="all_agents"):
                memoir.memories(agent_id="planner", all_agents=flag)  # type: ignore[arg-type]
            with pytest.raises(InvalidInput, match="all_agents"):
                memoir.events(agent_id="planner", all_agents=flag)  # type: ignore[arg-type]
        assert memoir.events(all_agents=True) == [] and memoir.memories(all_agents=True) == []
