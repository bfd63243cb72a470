"""`Memoir.inject`: a chat request with memory in it (a mixin of the façade).

The OpenAI-compatible proxy, the coding-agent hooks and the chat agent all do the same:
take the last user message as the query, build the context for it (the conversation's
summary, then the memories and turns that answer it), and put that context, quoted as
data, before the message (`retrieval.inject`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from memoir.retrieval import Context
from memoir.retrieval.injection import inject, last_user_text

__all__ = ["Injection", "InjectionMethods"]


@dataclass(frozen=True)
class Injection:
    messages: list[dict[str, Any]]  # the request to send on
    context: Context  # what was injected (empty when the request had no user message)


class _BuildsContext(Protocol):
    def build_context(
        self, query: str, *, conversation_id: str | None = None, budget_tokens: int = 1500, agent_id: str | None = None
    ) -> Context: ...


class InjectionMethods:
    def inject(
        self: _BuildsContext,
        messages: Any,
        *,
        conversation_id: str | None = None,
        agent_id: str | None = None,
        budget_tokens: int = 1500,
    ) -> Injection:
        """`messages` (OpenAI chat format) with memory before the last user message.

        The caller's list is not changed; a request with no user message comes back as it was.
        A malformed request is `InvalidQuery` naming the field (`messages[2].content`).
        """
        found = last_user_text(messages)
        if found is None:
            return Injection(inject(messages, Context("")), Context(""))
        context = self.build_context(
            found[1], conversation_id=conversation_id, budget_tokens=budget_tokens, agent_id=agent_id
        )
        return Injection(inject(messages, context), context)
