"""`Memoir.build_context` and `Memoir.inject`: memory ready to put before a message (a mixin of the façade).

The OpenAI-compatible proxy, the coding-agent hooks and the chat agent all do the same:
take the last user message as the query, build the context for it (the memories and
turns that answer it, after the conversation's summary when the message asks for an
overview), and put that context, quoted as data, before the message (`retrieval.inject`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from memoir.config import Settings
from memoir.facade.assembly import Parts
from memoir.model import DEFAULT_CONVERSATION
from memoir.model.checks import check_count
from memoir.model.limits import BUDGET_TOKENS, MAX_BUDGET_TOKENS, MAX_TOP_K
from memoir.retrieval import Context, Hit, TimeLike, format_context
from memoir.retrieval.context import hits_for, wants_overview
from memoir.retrieval.injection import inject, last_user_text, query_of, request_texts

__all__ = ["CUT_BEFORE_TEXT", "Injection", "InjectionMethods", "TurnMethods"]

CUT_BEFORE_TEXT = "(no answer: it was cut off before any text arrived)"


@dataclass(frozen=True)
class Injection:
    messages: list[dict[str, Any]]  # the request to send on
    context: Context  # what was injected (empty when the request had no user message)
    event_id: str | None = None  # `take_turn`: the event that keeps the user's message (None: none was kept)


class _Searches(Protocol):
    _parts: Parts

    @property
    def settings(self) -> Settings: ...

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        conversation_id: str | None = None,
        kinds: Iterable[str] | None = None,
        since: TimeLike | None = None,
        until: TimeLike | None = None,
        agent_id: str | None = None,
        as_of: TimeLike | None = None,
    ) -> list[Hit]: ...

    def build_context(
        self,
        query: str,
        *,
        conversation_id: str | None = None,
        budget_tokens: int = BUDGET_TOKENS,
        agent_id: str | None = None,
        top_k: int | None = None,
        as_of: TimeLike | None = None,
    ) -> Context: ...

    def inject(
        self,
        messages: Any,
        *,
        conversation_id: str | None = None,
        agent_id: str | None = None,
        budget_tokens: int = BUDGET_TOKENS,
        top_k: int | None = None,
    ) -> Injection: ...

    def ingest(self, event_or_events: Any, *, agent_id: str | None = None) -> list[str]: ...


class InjectionMethods:
    def build_context(
        self: _Searches,
        query: str,
        *,
        conversation_id: str | None = None,
        budget_tokens: int = BUDGET_TOKENS,
        agent_id: str | None = None,
        top_k: int | None = None,
        as_of: TimeLike | None = None,
    ) -> Context:
        """The memory block to inject before `query`: the memories that answer it, one plain sentence each.

        `top_k` is how many hits compete for the budget (default: `search.top_k`, at least 10, and one per
        75 tokens of the budget: 20 for 1,500); the conversation's summary leads only for a query that
        asks for an overview (`retrieval.context.wants_overview`). `as_of`: what was known just before
        that moment (`Memoir.search`); the conversation's summary is today's, so it is left out then.
        """
        return _context(self, query, conversation_id, agent_id, budget_tokens, top_k, (), as_of)

    def inject(
        self: _Searches,
        messages: Any,
        *,
        conversation_id: str | None = None,
        agent_id: str | None = None,
        budget_tokens: int = BUDGET_TOKENS,
        top_k: int | None = None,
    ) -> Injection:
        """`messages` (OpenAI chat format) with memory before the last user message.

        The caller's list is not changed; a request with no user message comes back as it was.
        A malformed request is `InvalidQuery` naming the field (`messages[2].content`).
        """
        found = last_user_text(messages)
        if found is None:
            return Injection(inject(messages, Context("")), Context(""))
        present = request_texts(messages)  # what the request holds already is not memory to repeat
        context = _context(self, query_of(found[1]), conversation_id, agent_id, budget_tokens, top_k, present)
        return Injection(inject(messages, context), context)


class TurnMethods:
    """A conversation's turns through a door that sits between a person and their model (the proxy)."""

    def take_turn(
        self: _Searches,
        messages: Any,
        *,
        conversation_id: str = DEFAULT_CONVERSATION,
        session_id: str | None = None,
        agent_id: str | None = None,
        via: str = "api",
        budget_tokens: int = BUDGET_TOKENS,
        top_k: int | None = None,
        timestamp: TimeLike | None = None,
        event: Mapping[str, Any] | None = None,
    ) -> Injection:
        """A chat request in: its last user message kept as the user's words, and the request
        with memory before that message, to send on to the model.

        Every door that takes a user's turn does this: the proxy, the coding-agent hooks
        (UserPromptSubmit) and the chat agent. The message is kept before the model answers
        (the user said it, whatever the model does); memory is built first, so the message
        does not answer itself. `via` names the door in the event's metadata, `timestamp`
        dates it (default now); a door that logs more about the message than its text (the
        hooks: their ids and metadata) passes its own `event` instead.
        """
        injection = self.inject(
            messages, conversation_id=conversation_id, agent_id=agent_id, budget_tokens=budget_tokens, top_k=top_k
        )
        said = last_user_text(messages)
        if event is None and said is not None:
            event = _turn("user_message", said[1], conversation_id, session_id, via)
            if timestamp is not None:
                event["timestamp"] = timestamp
        if event is None:
            return injection
        [event_id] = self.ingest([event], agent_id=agent_id)
        return replace(injection, event_id=event_id)

    def take_answer(
        self: _Searches,
        text: str,
        *,
        conversation_id: str = DEFAULT_CONVERSATION,
        session_id: str | None = None,
        agent_id: str | None = None,
        via: str = "api",
        partial: bool = False,
    ) -> None:
        """The model's answer to a turn, kept; `partial` marks an answer cut off (a stream the
        client closed, or the model's server dropped). A complete empty answer is not kept
        (an event needs text); one cut off before any text is, as a note saying so, so the
        log shows the turn went unanswered."""
        if partial and not text.strip():
            text = CUT_BEFORE_TEXT
        if text.strip():
            event = _turn("assistant_message", text, conversation_id, session_id, via)
            if partial:
                event["metadata"]["partial"] = "true"
            self.ingest([event], agent_id=agent_id)


def _turn(kind: str, text: str, conversation_id: str, session_id: str | None, via: str) -> dict[str, Any]:
    session = session_id or f"{via}-{conversation_id}"
    return {
        "session_id": session,
        "conversation_id": conversation_id,
        "event_type": kind,
        "text": text,
        "metadata": {"via": via},
    }


def _context(
    memoir: _Searches,
    query: str,
    conversation_id: str | None,
    agent_id: str | None,
    budget_tokens: int,
    top_k: int | None,
    present: Sequence[str],
    as_of: TimeLike | None = None,
) -> Context:
    check_count("budget_tokens", budget_tokens, 1, MAX_BUDGET_TOKENS)
    if top_k is not None:
        check_count("top_k", top_k, 1, MAX_TOP_K)
    k = hits_for(budget_tokens, memoir.settings.search.top_k) if top_k is None else top_k
    # Memory put before a model is one conversation's (and global's), never the whole home's.
    conversation = conversation_id or DEFAULT_CONVERSATION
    hits = memoir.search(query, k=k, conversation_id=conversation, agent_id=agent_id, as_of=as_of)
    summary = None
    if as_of is None and wants_overview(query):
        summary = memoir._parts.summaries.final_text(conversation, agent_id=memoir._parts.agent_scope(agent_id))
    return format_context(hits, summary=summary, budget_tokens=budget_tokens, exclude=present)
