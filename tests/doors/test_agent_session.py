"""ChatSession (seed 000's session lifecycle) against a scripted OpenAI-compatible server and a real memoir home.

The model is scripted turn by turn (`ScriptedChat`); what the session sent, what it
logged as events and what memoir keeps are read back.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoir import ConfigError, Memoir, ModelUnavailable
from memoir.agent import ChatSession, SessionState, Tool
from memoir.agent.turn import NOT_RUN
from memoir.errors import InvalidInput
from memoir.llm import ChatClient
from memoir.model.project import GLOBAL
from memoir.retrieval.injection import MEMORY_PREAMBLE
from tests.scripted_server import ScriptedChat, ScriptedServer, chat_reply, models, sse, tool_call

MODEL = "scripted-7b"


TLDR = "## Key Objectives\nCount the boats.\n## Key Findings\nThe harbour holds twelve boats."


class Model:
    """The server's chat route: a chat turn goes to the script the test sets, a request for a TL;DR
    (history compression asks without tools) gets `TLDR`."""

    def __init__(self) -> None:
        self.script = ScriptedChat("Hello!")
        self.summaries: list[dict[str, Any]] = []

    def __call__(self, body: dict[str, Any]) -> tuple[int, Any]:
        if "tools" not in body:
            self.summaries.append(body)
            return 200, chat_reply(TLDR)
        return self.script(body)

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return self.script.bodies

    def says(self, *answers: Any, **options: Any) -> ScriptedChat:
        self.script = ScriptedChat(*answers, **options)
        return self.script


@pytest.fixture
def model() -> Iterator[tuple[Model, str]]:
    script = Model()
    server = ScriptedServer({"/v1/models": models(MODEL, "other:7b"), "/v1/chat/completions": script}).start()
    yield script, server.url + "/v1"
    server.stop()


@pytest.fixture
def chat(
    open_memoir: Callable[..., Memoir], model: tuple[Model, str]
) -> Iterator[Callable[..., ChatSession]]:  # fmt: skip
    """Makes started sessions on the test's home (closed afterwards); options are settings."""
    made: list[ChatSession] = []
    memoir = open_memoir()

    def start(conversation_id: str | None = None, *, client: ChatClient | None = None, **options: Any) -> ChatSession:
        values = {"llm.base_url": model[1], "llm.model": MODEL, **options}
        session = ChatSession(memoir, conversation_id, settings=memoir.settings.replace(**values), client=client)
        made.append(session)
        return session.start()

    yield start
    for session in made:
        session.close()


def kinds(memoir: Memoir, conversation: str) -> list[str]:
    return [e.event_type.value for e in memoir.events(conversation_id=conversation, limit=1000)]


# -- INITIALIZING ------------------------------------------------------------------------


def test_start_checks_the_llm_and_builds_the_system_prompt(chat: Callable[..., ChatSession]) -> None:
    session = chat()
    assert session.state is SessionState.READY and session.conversation_id.startswith("chat-")
    [system] = session.messages
    assert system.role == "system" and "You are memoir" in system.content
    assert "- **remember**:" in system.content and "- **expand_grip**:" in system.content
    assert kinds(session.memoir, session.conversation_id) == ["session_start"]


def test_an_unreachable_llm_is_named_and_the_session_failed(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir()
    values = {"llm.base_url": "http://127.0.0.1:9/v1", "llm.model": MODEL}
    session = ChatSession(memoir, settings=memoir.settings.replace(**values))
    with pytest.raises(ModelUnavailable, match=r"no answer from the LLM server at http://127\.0\.0\.1:9/v1"):
        session.start()
    assert session.state is SessionState.FAILED


def test_a_model_the_server_lacks_is_named(chat: Callable[..., ChatSession], model: tuple[Model, str]) -> None:
    with pytest.raises(ModelUnavailable) as caught:
        chat(**{"llm.model": "llama9:70b"})
    assert str(caught.value) == (
        f"model 'llama9:70b' not found at {model[1]}: pull it (`ollama pull llama9:70b`) or set llm.model"
    )


def test_a_missing_prompt_file_is_named(chat: Callable[..., ChatSession], tmp_path: Path) -> None:
    missing = tmp_path / "prompts" / "diana.md"
    with pytest.raises(ConfigError) as caught:
        chat(**{"chat.system_prompt": str(missing)})
    assert str(caught.value) == f"system prompt file not found: {missing} (chat.system_prompt)"


def test_no_model_configured_says_which_setting(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir()
    session = ChatSession(memoir)
    with pytest.raises(ConfigError, match=r"set llm\.model \(MEMOIR_LLM_MODEL\)"):
        session.start()
    assert session.state is SessionState.FAILED


def test_the_prompt_file_comes_first(chat: Callable[..., ChatSession], tmp_path: Path) -> None:
    prompt = tmp_path / "diana.md"
    prompt.write_text("You are DIANA, Josh's assistant.\n")
    session = chat(**{"chat.system_prompt": str(prompt)})
    assert session.messages[0].content.startswith("You are DIANA, Josh's assistant.\n\n# Tools\n\n- **remember**")


def test_a_bad_compression_setting_fails_the_start(chat: Callable[..., ChatSession]) -> None:
    with pytest.raises(ConfigError, match=r"chat\.compression"):
        chat(**{"chat.compression": "summarize_everything_twice"})


# -- PROCESSING --------------------------------------------------------------------------


def test_a_turn_streams_and_logs_both_messages(chat: Callable[..., ChatSession], model: tuple[Model, str]) -> None:
    script, _ = model
    script.says(lambda body: (200, sse("The keeper ", "is Ada.")))
    session = chat()
    pieces: list[str] = []
    reply = session.send("Who keeps the lighthouse?", on_text=pieces.append)
    assert reply.text == "The keeper is Ada." and pieces == ["The keeper ", "is Ada."] and reply.tool_calls == []
    assert session.state is SessionState.READY
    events = session.memoir.events(conversation_id=session.conversation_id)
    assert [(e.event_type.value, e.text) for e in events[1:]] == [
        ("user_message", "Who keeps the lighthouse?"),
        ("assistant_message", "The keeper is Ada."),
    ]
    assert {e.session_id for e in events} == {session.session_id}
    assert [m.event_id for m in session.messages[1:]] == [e.event_id for e in events[1:]]
    request = script.bodies[0]
    assert request["stream"] is True and request["model"] == MODEL
    assert [t["function"]["name"] for t in request["tools"]][:3] == ["remember", "search_memory", "forget"]


def test_memory_is_injected_before_the_message_it_answers_only(
    chat: Callable[..., ChatSession], model: tuple[Model, str]
) -> None:
    script, _ = model
    session = chat()
    session.memoir.remember("The lighthouse keeper is called Ada", conversation_id="global")
    session.send("Who is the lighthouse keeper?")
    session.send("Thanks")
    first, second = script.bodies
    assert first["messages"][-1]["content"].startswith(f"({MEMORY_PREAMBLE}")
    assert "Ada" in first["messages"][-1]["content"] and first["messages"][-1]["content"].endswith("keeper?")
    assert second["messages"][1]["content"] == "Who is the lighthouse keeper?"  # the history keeps what was said
    assert session.messages[1].content == "Who is the lighthouse keeper?"


def test_a_tool_call_runs_and_its_result_goes_back(chat: Callable[..., ChatSession], model: tuple[Model, str]) -> None:
    script, _ = model
    script.says([tool_call("remember", {"content": "Josh prefers dark mode", "important": True})], "Noted.")
    session = chat()
    reply = session.send("Remember that I prefer dark mode")
    assert reply.text == "Noted."
    [(call, result)] = reply.tool_calls
    assert call.name == "remember" and result.success and result.data["action"] == "added"
    tool_message = script.bodies[1]["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == call.id
    assert json.loads(tool_message["content"])["data"]["content"] == "Josh prefers dark mode"
    [fact] = session.memoir.memories(conversation_id="global")
    assert fact.important and fact.source == session.conversation_id
    assert fact.event_ids == (session.messages[1].event_id,)  # learned from the user's message
    assert kinds(session.memoir, session.conversation_id)[1:] == [
        "user_message",
        "assistant_message",
        "tool_result",
        "assistant_message",
    ]


def test_parallel_tool_calls_run_at_once(open_memoir: Callable[..., Memoir], model: tuple[Model, str]) -> None:
    script, url = model
    meeting = threading.Barrier(3, timeout=10)  # three calls: each waits for the others, so one at a time would fail

    def wait(arguments: dict[str, Any]) -> str:
        meeting.wait()
        return f"done {arguments['n']}"

    tool = Tool("wait", "Wait for the others", {"type": "object", "properties": {"n": {"type": "integer"}}}, wait)
    script.says([tool_call("wait", {"n": n}, f"call_{n}") for n in range(3)], "All done.")
    memoir = open_memoir()
    values = {"llm.base_url": url, "llm.model": MODEL}
    with ChatSession(memoir, settings=memoir.settings.replace(**values), tools=[tool], builtins=False) as session:
        reply = session.send("go")
    assert [(c.id, r.data) for c, r in reply.tool_calls] == [(f"call_{n}", f"done {n}") for n in range(3)]
    assert [m["tool_call_id"] for m in script.bodies[1]["messages"][-3:]] == ["call_0", "call_1", "call_2"]


def test_the_tool_loop_stops_after_ten_model_calls(chat: Callable[..., ChatSession], model: tuple[Model, str]) -> None:
    script, _ = model
    script.says([tool_call("search_memory", {"query": "again"})])
    session = chat()
    reply = session.send("loop forever")
    assert len(script.bodies) == 10 and reply.stopped == "max_tool_iterations"
    assert len(reply.tool_calls) == 10 and reply.tool_calls[-1][1].error == NOT_RUN
    assert all(result.success for _, result in reply.tool_calls[:-1])
    script.says("Back to normal.")
    assert session.send("hello").text == "Back to normal."
    sent = script.bodies[-1]["messages"]
    calls = [c["id"] for m in sent if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    answers = [m["tool_call_id"] for m in sent if m["role"] == "tool"]
    assert calls == answers  # every call answered: a history the API takes


def test_the_limit_is_a_setting(chat: Callable[..., ChatSession], model: tuple[Model, str]) -> None:
    script, _ = model
    script.says([tool_call("search_memory", {"query": "again"})])
    chat(**{"chat.max_tool_iterations": 3}).send("loop")
    assert len(script.bodies) == 3


def test_invalid_arguments_go_back_to_the_model(chat: Callable[..., ChatSession], model: tuple[Model, str]) -> None:
    script, _ = model
    script.says([tool_call("remember", {"important": "very"})], "Sorry, let me try again later.")
    reply = chat().send("remember something")
    [(_, result)] = reply.tool_calls
    assert not result.success and str(result.error).startswith("arguments: ")
    assert json.loads(script.bodies[1]["messages"][-1]["content"])["success"] is False
    assert reply.text == "Sorry, let me try again later."


def test_a_tool_that_raises_keeps_the_conversation_going(
    open_memoir: Callable[..., Memoir], model: tuple[Model, str]
) -> None:
    script, url = model

    def broken(arguments: dict[str, Any]) -> Any:
        raise OSError("the disk is on fire")

    tool = Tool("broken", "Always fails", {"type": "object"}, broken)
    script.says([tool_call("broken")], "That did not work.")
    memoir = open_memoir()
    settings_ = memoir.settings.replace(**{"llm.base_url": url, "llm.model": MODEL})
    with ChatSession(memoir, settings=settings_, tools=[tool]) as session:
        reply = session.send("try it")
        assert session.state is SessionState.READY
    assert reply.tool_calls[0][1].error == "OSError: the disk is on fire" and reply.text == "That did not work."


def test_hostile_tool_calls_never_break_the_turn(chat: Callable[..., ChatSession], model: tuple[Model, str]) -> None:
    script, _ = model
    session = chat()
    values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=10,
    )

    @settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(name=st.sampled_from(["remember", "forget", "read_daily_note", ""]) | st.text(max_size=20),
           arguments=st.text(max_size=100) | values.map(json.dumps))  # fmt: skip
    def turn(name: str, arguments: str) -> None:
        script.says([tool_call(name, arguments, "call_x")], "ok")
        reply = session.send("go")
        assert reply.text == "ok" and session.state is SessionState.READY

    turn()


# -- failures of the model ----------------------------------------------------------------


def test_timeouts_are_retried_three_times(chat: Callable[..., ChatSession], model: tuple[Model, str]) -> None:
    script, url = model
    script.says("Finally.", delay=1.0, slow=3)
    client = ChatClient(base_url=url, model=MODEL, timeout=0.3, retries=3, backoff=0.01)
    reply = chat(client=client).send("hello?")
    assert reply.text == "Finally." and len(script.bodies) == 4


def test_a_model_that_never_answers_is_reported_and_the_session_is_ready_again(
    chat: Callable[..., ChatSession], model: tuple[Model, str]
) -> None:
    script, url = model
    script.says("Too late.", delay=1.0, slow=4)
    session = chat(client=ChatClient(base_url=url, model=MODEL, timeout=0.3, retries=3, backoff=0.01))
    with pytest.raises(ModelUnavailable, match=r"did not answer within 0\.3 s \(4 tries\)"):
        session.send("hello?")
    assert session.state is SessionState.READY and len(script.bodies) == 4
    assert session.send("still there?").text == "Too late."
    assert [m.role for m in session.messages[1:]] == ["user", "user", "assistant"]


def test_a_model_gone_mid_session_is_named(chat: Callable[..., ChatSession], model: tuple[Model, str]) -> None:
    script, _ = model
    session = chat()
    script.says((404, {"error": {"message": f"model '{MODEL}' not found"}}))
    with pytest.raises(ModelUnavailable, match=f"ollama pull {MODEL}"):
        session.send("hello")
    assert session.state is SessionState.READY


def test_a_session_must_be_started_and_not_closed(chat: Callable[..., ChatSession]) -> None:
    session = chat()
    session.close()
    session.close()  # twice: harmless
    assert session.state is SessionState.CLOSED
    with pytest.raises(InvalidInput, match="CLOSED"):
        session.send("hello")
    assert kinds(session.memoir, session.conversation_id) == ["session_start", "session_end"]


# -- the log, resuming, the context window ------------------------------------------------


def conversation(memoir: Memoir, name: str, turns: int) -> None:
    """`turns` exchanges logged as a chat would have, in an earlier session of `name`."""
    events = []
    for n in range(turns):
        events.append({"session_id": "earlier", "conversation_id": name, "event_type": "user_message",
                       "text": f"question {n} about the harbour and its boats"})  # fmt: skip
        events.append({"session_id": "earlier", "conversation_id": name, "event_type": "assistant_message",
                       "text": f"answer {n}: the harbour holds twelve boats"})  # fmt: skip
    memoir.ingest(events)


def test_resuming_rebuilds_the_messages_from_the_log(
    chat: Callable[..., ChatSession], model: tuple[Model, str]
) -> None:
    script, _ = model
    script.says([tool_call("remember", {"content": "Ada keeps the lighthouse"})], "Noted.")
    first = chat()
    first.send("Ada keeps the lighthouse")
    first.close()
    script.says("Ada does.")
    again = chat(first.conversation_id)
    assert [(m.role, m.content, m.tool_calls, m.event_id) for m in again.messages[1:]] == [
        (m.role, m.content, m.tool_calls, m.event_id) for m in first.messages[1:]
    ]
    again.send("Who keeps the lighthouse?")
    sent = script.bodies[-1]["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "assistant", "user"]
    assert sent[2]["tool_calls"][0]["function"]["name"] == "remember"
    assert len({e.session_id for e in again.memoir.events(conversation_id=first.conversation_id)}) == 2


def test_a_resumed_history_with_a_lost_tool_answer_is_made_consistent(
    chat: Callable[..., ChatSession], open_memoir: Callable[..., Memoir]
) -> None:
    memoir = open_memoir()
    calls = json.dumps([{"id": "call_1", "name": "remember", "arguments": "{}"}])
    memoir.ingest([
        {"session_id": "s", "conversation_id": "crashed", "event_type": "user_message", "text": "remember this"},
        {"session_id": "s", "conversation_id": "crashed", "event_type": "assistant_message", "text": "remember({})",
         "metadata": {"tool_calls": calls, "content": "none"}},
        {"session_id": "s", "conversation_id": "crashed", "event_type": "tool_result", "text": "orphan",
         "metadata": {"tool_call_id": "call_9", "tool_name": "forget"}},
    ])  # fmt: skip
    session = chat("crashed")
    assert [m.role for m in session.messages] == ["system", "user"]


def test_context_overflow_compresses_and_retries(
    chat: Callable[..., ChatSession], model: tuple[Model, str], open_memoir: Callable[..., Memoir]
) -> None:
    script, _ = model
    conversation(open_memoir(), "harbour", 15)
    refusal = (400, {"error": {"message": "This model's maximum context length is 4096 tokens"}})
    script.says(refusal, "Twelve boats.")
    session = chat("harbour")
    reply = session.send("How many boats?")
    assert reply.text == "Twelve boats." and len(script.bodies) == 2 and len(script.summaries) == 1
    before, after = (len(body["messages"]) for body in script.bodies)
    assert after < before and session.state is SessionState.READY
    assert any(TLDR in str(m["content"]) for m in script.bodies[1]["messages"])  # the model's TL;DR stands in
    assert script.bodies[1]["messages"][-1]["content"].endswith("How many boats?")  # the open turn stays


def test_a_second_overflow_ends_the_turn(chat: Callable[..., ChatSession], model: tuple[Model, str],
                                         open_memoir: Callable[..., Memoir]) -> None:  # fmt: skip
    script, _ = model
    conversation(open_memoir(), "harbour", 15)
    script.says((400, {"error": {"message": "too many tokens in the prompt"}}))
    session = chat("harbour")
    with pytest.raises(ModelUnavailable, match="too long"):
        session.send("How many boats?")
    assert len(script.bodies) == 2 and session.state is SessionState.READY


def test_an_overflow_with_too_little_to_compress_says_so(
    chat: Callable[..., ChatSession], model: tuple[Model, str]
) -> None:
    script, _ = model
    script.says((400, {"error": {"message": "context length exceeded"}}))
    with pytest.raises(ModelUnavailable, match="compressing the history did not help"):
        chat().send("a long message")


def test_near_the_window_the_history_is_compressed_after_the_turn(
    chat: Callable[..., ChatSession], model: tuple[Model, str], open_memoir: Callable[..., Memoir]
) -> None:
    script, _ = model
    conversation(open_memoir(), "harbour", 15)
    session = chat("harbour", **{"chat.context_window": 2000, "chat.compress_at": 0.5})
    assert session.context_tokens() >= 1000  # the system prompt and the tools alone come close
    reply = session.send("How many boats?")
    assert reply.compressed is not None and reply.compressed.source == "llm" and len(script.summaries) == 1
    session.send("And now?")
    assert len(script.bodies[1]["messages"]) < len(script.bodies[0]["messages"])
    assert len(session.messages) == 1 + 30 + 4  # every message is kept: only what is sent is compressed


def test_far_from_the_window_nothing_is_compressed(chat: Callable[..., ChatSession]) -> None:
    assert chat().send("hello").compressed is None


def test_compress_forces_one_and_the_state_is_saved_and_taken_back(
    chat: Callable[..., ChatSession], model: tuple[Model, str], open_memoir: Callable[..., Memoir], home: Path
) -> None:
    script, _ = model
    conversation(open_memoir(), "harbour", 15)
    session = chat("harbour")
    report = session.compress()
    assert report.summarized and report.summaries and report.tokens_after < report.tokens_before
    session.send("How many boats?")
    view = script.bodies[-1]["messages"]
    assert any(str(m["content"]).startswith("Summary of messages") for m in view)
    session.close()
    saved = json.loads((home / "chat" / "harbour" / "state.json").read_text())
    assert saved["summarizedAt"] == 31 and saved["summarizedThrough"] == session.messages[30].event_id
    again = chat("harbour")
    again.send("How many boats?")
    resumed = script.bodies[-1]["messages"]
    assert resumed[: len(view) - 1] == view[:-1]  # the same prompt and compressed prefix, byte for byte
    assert resumed[len(view) - 1 :][:2] == [
        {"role": "user", "content": "How many boats?"},
        {"role": "assistant", "content": "Hello!"},
    ]


def test_too_little_history_to_compress_is_said(chat: Callable[..., ChatSession]) -> None:
    from memoir.errors import InsufficientHistory

    with pytest.raises(InsufficientHistory):
        chat().compress()


# -- key facts ----------------------------------------------------------------------------


def test_key_facts_of_the_conversation_and_global_are_in_the_system_prompt(
    chat: Callable[..., ChatSession], open_memoir: Callable[..., Memoir]
) -> None:
    memoir = open_memoir()
    for n in range(12):
        memoir.remember(f"important fact number {n}", conversation_id="global", tags=["important"])
    for n in range(7):
        memoir.remember(f"recent fact number {n}", conversation_id="harbour")
    memoir.remember("a fact of another conversation", conversation_id="elsewhere", tags=["important"])
    session = chat("harbour")
    facts = session.key_facts()
    assert [f.content for f in facts] == [f"important fact number {n}" for n in range(11, 1, -1)] + [
        f"recent fact number {n}" for n in range(6, 1, -1)
    ]
    prompt = session.messages[0].content
    # quoted as data, like every block of memory memoir puts before a model
    assert "> ## Important\n>\n> - important fact number 11 #important\n" in prompt
    assert "> ## Recent\n>\n> - [" in prompt and "] recent fact number 6\n" in prompt
    assert "another conversation" not in prompt and "important fact number 1 " not in prompt


def test_a_correction_updates_the_fact_keeping_its_date(
    chat: Callable[..., ChatSession], model: tuple[Model, str], open_memoir: Callable[..., Memoir]
) -> None:
    script, _ = model
    memoir = open_memoir()
    old = memoir.remember("Josh prefers dark mode in all apps", conversation_id="global", tags=["important"])
    script.says([tool_call("remember", {"content": "Josh prefers light mode in all apps", "important": True})], "Ok.")
    session = chat()
    [(_, result)] = session.send("Actually I prefer light mode in all apps").tool_calls
    assert result.data["action"] == "updated" and result.data["replaces"]["id"] == old.id
    [new] = memoir.memories(conversation_id="global")
    assert new.content == "Josh prefers light mode in all apps" and new.id != old.id
    assert new.created_at == old.created_at and new.source == session.conversation_id and new.important
    assert [m.id for m in memoir.memory_history(new.id)] == [old.id, new.id]


def test_a_new_fact_beside_a_key_fact_is_added(chat: Callable[..., ChatSession], model: tuple[Model, str],
                                               open_memoir: Callable[..., Memoir]) -> None:  # fmt: skip
    script, _ = model
    memoir = open_memoir()
    memoir.remember("Josh prefers dark mode in all apps", conversation_id="global", tags=["important"])
    script.says([tool_call("remember", {"content": "Josh's main project is DIANA", "important": True})], "Ok.")
    [(_, result)] = chat().send("My main project is DIANA").tool_calls
    assert result.data["action"] == "added"
    assert len(memoir.memories(conversation_id="global")) == 2


# -- whose: unified mode, and starting again ----------------------------------------------------


def test_in_unified_mode_the_chat_is_the_agents(open_memoir: Callable[..., Memoir], model: tuple[Model, str]) -> None:
    script, url = model
    memoir = open_memoir(multi_agent_mode="unified", agent_id="diana")
    script.says([tool_call("remember", {"content": "Josh likes sailing", "important": True})], "Noted.")
    values = {"llm.base_url": url, "llm.model": MODEL}
    with ChatSession(memoir, "josh", settings=memoir.settings.replace(**values)) as session:
        session.send("I like sailing")
    assert {e.agent_id for e in memoir.events(conversation_id="josh")} == {"diana"}
    [fact] = memoir.memories(conversation_id="global")
    assert fact.agent_id == "diana"  # learned from diana's events: hers, though kept in global


def test_a_failed_start_can_be_tried_again(open_memoir: Callable[..., Memoir], model: tuple[Model, str]) -> None:
    _, url = model
    memoir = open_memoir()
    session = ChatSession(memoir, settings=memoir.settings.replace(**{"llm.base_url": url, "llm.model": "later:7b"}))
    with pytest.raises(ModelUnavailable):
        session.start()
    session.settings = session.settings.replace(**{"llm.model": MODEL})
    assert session.start().state is SessionState.READY
    with pytest.raises(InvalidInput, match="started already"):
        session.start()
    session.close()


def test_an_empty_answer_is_said_and_the_users_turn_is_still_read_for_facts(
    chat: Callable[..., ChatSession], model: tuple[Model, str]
) -> None:
    """Issue 25: a small model answered "remember that …" with a role, then the end of the stream; memoir showed
    nothing and kept nothing. The answer is now empty for all to see, and the rules keep what the user said."""
    script, _ = model
    script.says("")  # a role delta, then [DONE]: no text, no tool call
    session = chat()
    reply = session.send("Please remember that I'm allergic to shellfish.")
    assert reply.empty and reply.text == "" and not reply.tool_calls
    session.memoir.flush(timeout=30)
    facts = [m.content for m in session.memoir.memories(GLOBAL)]  # the user's, for every later chat
    assert facts == ["The user is allergic to shellfish"]  # whether or not the model called `remember`
    [fact] = session.memoir.memories(GLOBAL)
    assert fact.important  # asked to be remembered: one of the key facts of the next chat's prompt
    assert fact.content in [f.content for f in session.key_facts()]


def test_the_repl_says_when_the_model_returned_nothing() -> None:
    import io

    from rich.console import Console

    from memoir.agent import Reply
    from memoir.cli.chat import _Printer

    shown = io.StringIO()
    _Printer(Console(file=shown, force_terminal=False), prompt="memoir> ").finish(Reply(""))
    assert shown.getvalue() == "memoir> (the model returned nothing)\n"
