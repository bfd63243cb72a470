"""A chat session (seed 000's Session): a state machine around a model that calls memoir's tools.

    INITIALIZING --start()--> READY --send()--> PROCESSING --> CHECK_CONTEXT --> READY ...
         |                      |                                                 |
       FAILED                close() --> TERMINATING --> CLOSED  <----------------'

- INITIALIZING checks, in the seed's order, that the LLM answers (else `ModelUnavailable`
  naming `llm.base_url`), that it serves the model (else naming the model and how to get
  it), and that the prompt file exists (else `ConfigError` naming its path); then loads
  the key facts and the tools into the system prompt. A failure leaves the state FAILED
  and is raised for the caller to show.
- PROCESSING: the user's message goes to the model with memory injected before it (the
  proxy's `Memoir.inject`; the history keeps the message as the user wrote it), the
  answer streams to `on_text`, and tools the model calls run in parallel, their results
  going back to it, at most `chat.max_tool_iterations` model calls a turn. A turn that
  fails (the model timed out on every retry, a server error) is raised and the session is
  READY again; a failing tool is only a failed result the model reads.
- A context-length refusal compresses the history and retries once (seed 000: "Context
  overflow: summarize and retry"); CHECK_CONTEXT compresses after a turn that brought the
  history near the window (`agent.context`).
- Every message is logged as an event of the conversation (`agent.transcript`), one
  session id per `ChatSession`; TERMINATING logs `session_end` and saves the compression
  state. A conversation id given to the constructor resumes that conversation.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from memoir.agent.builtins import ToolScope, builtin_tools
from memoir.agent.context import ChatHistory, describe, history_params, load_state, save_state
from memoir.agent.facts import format_key_facts, select_key_facts
from memoir.agent.prompt import build_system_prompt, load_prompt
from memoir.agent.tools import Tool, ToolRegistry
from memoir.agent.transcript import event_record, messages_of, now
from memoir.agent.turn import TurnEnd, TurnRunner
from memoir.config import Settings
from memoir.errors import CompressionError, ConfigError, InvalidInput, ModelUnavailable
from memoir.facade.engine import Memoir
from memoir.llm import LLM, ChatClient
from memoir.llm.priority import ForegroundGate
from memoir.model import Event, new_ulid, now_ms
from memoir.model.chat import Message, ToolCall, ToolResult
from memoir.model.memory import Memory
from memoir.model.project import GLOBAL

if TYPE_CHECKING:
    from memoir.history import HistoryParams, Report

__all__ = ["ChatSession", "Reply", "SessionState"]

log = logging.getLogger("memoir.agent")
MAX_EVENTS = 100_000  # of a resumed conversation: past this the oldest are left to search and the timeline


class SessionState(StrEnum):
    INITIALIZING = "INITIALIZING"
    READY = "READY"
    PROCESSING = "PROCESSING"
    CHECK_CONTEXT = "CHECK_CONTEXT"
    TERMINATING = "TERMINATING"
    CLOSED = "CLOSED"
    FAILED = "FAILED"


@dataclass(frozen=True)
class Reply:
    """One turn's outcome: the answer, each tool the model ran with its result, a compression if one ran."""

    text: str
    tool_calls: list[tuple[ToolCall, ToolResult]] = field(default_factory=list)
    compressed: Report | None = None
    stopped: str | None = None  # why the turn ended without an answer: "max_tool_iterations"

    @property
    def empty(self) -> bool:
        """The model said nothing and called nothing (small models do: a role, then the end of the stream)."""
        return not self.text.strip() and not self.tool_calls and self.stopped is None


class ChatSession:
    def __init__(
        self,
        memoir: Memoir,
        conversation_id: str | None = None,
        settings: Settings | None = None,
        client: ChatClient | None = None,
        tools: Iterable[Tool] | None = None,
        *,
        agent_id: str | None = None,
        builtins: bool = True,
    ) -> None:
        """`tools` are added to the built-in ones (`builtins=False` leaves those out); InvalidTool for a bad one."""
        self.memoir = memoir
        self.settings = settings or memoir.settings
        self.conversation_id = conversation_id or f"chat-{new_ulid(now_ms())}"
        self.session_id = f"chat-session-{new_ulid(now_ms())}"
        self.agent_id = agent_id
        self.state = SessionState.INITIALIZING
        self._client, self._own_client = client, client is None
        scope = ToolScope(self.conversation_id, agent_id, event_ids=self._turn_events)
        self.tools = ToolRegistry([*(builtin_tools(memoir, scope) if builtins else []), *(tools or ())])
        self._definitions = describe(self.tools.definitions())  # counted against the window with the messages
        self.history: ChatHistory | None = None
        self._params: HistoryParams | None = None
        self._runner: TurnRunner | None = None
        self._started = False
        self._user_event: str | None = None

    # -- INITIALIZING ---------------------------------------------------------------------

    @property
    def model(self) -> str:
        return self._client.model if self._client else self.settings.llm.model or ""

    @property
    def messages(self) -> list[Message]:
        """Every message of the conversation so far, the system prompt first."""
        return list(self.history.messages) if self.history else []

    def start(self) -> ChatSession:
        """INITIALIZING -> READY; FAILED with the error raised when the LLM, the model or the prompt is missing.

        A FAILED session may be started again (once the server runs, say).
        """
        if self.state not in (SessionState.INITIALIZING, SessionState.FAILED):
            raise InvalidInput("state", f"the session is {self.state.value}: it was started already")
        self.state = SessionState.INITIALIZING
        try:
            client = self._connect()
            prompt = load_prompt(self.settings.chat.system_prompt)
            self._params = history_params(self.settings.chat.compression)
            system = build_system_prompt(prompt, self.tools.describe(), format_key_facts(self.key_facts()))
            self.history = self._resume(Message("system", system))
            self._ingest_boundary("session_start")
        except BaseException:
            self.state = SessionState.FAILED
            if self._own_client and self._client is not None:
                self._client.close()
                self._client = None  # a new one for the next start
            raise
        chat = self.settings.chat
        self._runner = TurnRunner(client, self.tools, chat.max_tool_iterations, chat.max_answer_tokens)
        self.state = SessionState.READY
        return self

    def _connect(self) -> ChatClient:
        llm = self.settings.llm
        if self._client is None:
            if not llm.model:
                raise ConfigError("llm.model: no chat model is set: set llm.model (MEMOIR_LLM_MODEL), e.g. qwen2.5:7b")
            if not llm.base_url:
                raise ConfigError("llm.base_url: no LLM server is set: set llm.base_url (MEMOIR_LLM_BASE_URL)")
            self._client = ChatClient(
                base_url=llm.base_url,
                model=llm.model,
                api_key=llm.api_key,
                timeout=llm.timeout,
                retries=llm.retries,
                foreground=ForegroundGate.of(self.memoir.home, llm.base_url),  # before memoir's own work
            )
        client = self._client
        health = client.health()
        if health.problem == "model":
            raise ModelUnavailable(
                f"model {client.model!r} not found at {client.base_url}: pull it (`ollama pull {client.model}`)"
                " or set llm.model"
            )
        if not health.ok:
            raise ModelUnavailable(health.detail)
        return client

    def _turn_events(self) -> tuple[str, ...]:
        return (self._user_event,) if self._user_event else ()

    def _resume(self, system: Message) -> ChatHistory:
        """The conversation's logged messages (none for a new one) and its saved compression state."""
        events: list[Event] = []
        cursor: str | None = None
        while len(events) < MAX_EVENTS:
            page = self.memoir.events(
                conversation_id=self.conversation_id, limit=10_000, cursor=cursor, agent_id=self.agent_id
            )
            events.extend(page)
            cursor = page.next_cursor
            if cursor is None:
                break
        history = ChatHistory(system, messages_of(events))
        if len(history.messages) > 1:
            history.restore(load_state(self.memoir.home, self.conversation_id))
        return history

    def key_facts(self) -> list[Memory]:
        """The 10 most recent important facts, then the 5 most recent others, of this conversation and `global`."""
        scopes = dict.fromkeys([self.conversation_id, GLOBAL])
        return select_key_facts(
            m for scope in scopes for m in self.memoir.memories(conversation_id=scope, agent_id=self.agent_id)
        )

    # -- PROCESSING -----------------------------------------------------------------------

    def send(
        self,
        text: str,
        on_text: Callable[[str], None] | None = None,
        on_tool: Callable[[ToolCall, ToolResult], None] | None = None,
    ) -> Reply:
        """One turn: the user's `text` in, the model's answer out (its text streamed to `on_text`).

        `on_tool` hears of each tool the model ran, with its result, as soon as it has run.
        """
        history = self._ready()
        message = Message("user", text, timestamp=now())  # checked here: an empty message is refused
        self.state = SessionState.PROCESSING
        try:
            message, injected = self._take(message)
            self._user_event = message.event_id
            history.append(message)
            calls, reply = self._run_turn(history, message, injected, on_text, on_tool)
            self.state = SessionState.CHECK_CONTEXT
            compressed = self._check_context()
            return Reply(reply.text, calls, compressed, reply.stopped)
        finally:
            self._user_event = None
            if self.state is not SessionState.CLOSED:
                self.state = SessionState.READY

    def _ready(self) -> ChatHistory:
        if self.state is not SessionState.READY or self.history is None:
            raise InvalidInput("state", f"the session is {self.state.value}: start() it first, or open a new one")
        return self.history

    def _take(self, message: Message) -> tuple[Message, str]:
        """The user's message kept (`Memoir.take_turn`, as the proxy and the hooks do), with its event id,
        and as the model gets it: memory for it quoted before it (nothing when none is found).

        The history goes with the request, so memory never repeats what the model has before it already.
        """
        history = [m.to_openai() for m in self.history.view()] if self.history else []
        request = [*history, {"role": "user", "content": message.content}]
        record = event_record(message, self.session_id, self.conversation_id)
        # what the user says of themselves in a chat is theirs in every conversation, as `remember` keeps it
        record["metadata"]["facts_to"] = GLOBAL
        injection = self.memoir.take_turn(
            request, conversation_id=self.conversation_id, agent_id=self.agent_id, event=record
        )
        assert injection.event_id is not None  # the request ends with the user's message
        content = injection.messages[-1].get("content")
        kept = _with_event(message, injection.event_id, record)
        return kept, content if isinstance(content, str) else message.content

    def _run_turn(
        self,
        history: ChatHistory,
        message: Message,
        injected: str,
        on_text: Callable[[str], None] | None,
        on_tool: Callable[[ToolCall, ToolResult], None] | None,
    ) -> tuple[list[tuple[ToolCall, ToolResult]], TurnEnd]:
        def request() -> list[dict[str, Any]]:
            view = history.view()
            sent = [m.to_openai() for m in view]
            for item, original in zip(sent, view, strict=True):
                if original.event_id == message.event_id:  # this turn's message: with its memory
                    item["content"] = injected
            return sent

        assert self._runner is not None
        return self._runner.run(request, self._record, on_text, self._overflowed, on_tool)

    def _record(self, messages: Sequence[Message]) -> list[Message]:
        """Log messages the turn produced and add them to the history; returns them with their event ids."""
        logged = self._log(*messages)
        assert self.history is not None
        self.history.append(*logged)
        return logged

    def _overflowed(self) -> None:
        """The model refused the request as too long: compress now (the runner retries once)."""
        assert self.history is not None
        assert self._params is not None
        self.state = SessionState.CHECK_CONTEXT
        try:
            self.history.compress(self._params, self._llm())
        finally:
            self.state = SessionState.PROCESSING

    # -- CHECK_CONTEXT --------------------------------------------------------------------

    def context_tokens(self) -> int:
        """Tokens the next request holds (messages and tool definitions)."""
        assert self.history is not None
        return self.history.tokens(self._definitions)

    def _check_context(self) -> Report | None:
        chat = self.settings.chat
        if self.context_tokens() < chat.compress_at * chat.context_window:
            return None
        try:
            return self.compress()
        except CompressionError as exc:  # too few messages to compress, say: the next turn tries again
            log.warning("history not compressed: %s", exc)
            return None

    def compress(self) -> Report:
        """Compress the history now (`/compress`); InsufficientHistory when there is too little of it."""
        history = self.history
        if history is None or self._params is None:
            raise InvalidInput("state", f"the session is {self.state.value}: start() it first")
        return history.compress(self._params, self._llm())

    def _llm(self) -> LLM | None:
        return LLM(self._client) if self._client is not None else None

    # -- TERMINATING ----------------------------------------------------------------------

    def close(self) -> None:
        """TERMINATING -> CLOSED: `session_end` logged, the compression state saved. Closing twice is harmless."""
        if self.state is SessionState.CLOSED:
            return
        started, self.state = self._started, SessionState.TERMINATING
        try:
            if started and self.history is not None:
                self._ingest_boundary("session_end")
                save_state(self.memoir.home, self.conversation_id, self.history.saved())
        finally:
            self.state = SessionState.CLOSED
            if self._runner is not None:
                self._runner.close()
            if self._own_client and self._client is not None:
                self._client.close()

    def __enter__(self) -> ChatSession:
        return self.start() if self.state is SessionState.INITIALIZING else self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the log ----------------------------------------------------------------------------

    def _log(self, *messages: Message) -> list[Message]:
        records = [event_record(m, self.session_id, self.conversation_id) for m in messages]
        ids = self.memoir.ingest(records, agent_id=self.agent_id) if records else []
        return [_with_event(m, event_id, record) for m, event_id, record in zip(messages, ids, records, strict=True)]

    def _ingest_boundary(self, kind: str) -> None:
        event = {
            "session_id": self.session_id,
            "conversation_id": self.conversation_id,
            "event_type": kind,
            "text": "",
            "metadata": {"model": self.model, "source": "memoir chat"},
        }
        self.memoir.ingest(event, agent_id=self.agent_id)
        self._started = self._started or kind == "session_start"


def _with_event(message: Message, event_id: str, record: dict[str, Any]) -> Message:
    return replace(message, event_id=event_id, timestamp=record["timestamp"])
