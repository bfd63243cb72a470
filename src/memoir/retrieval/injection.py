"""Injection (seed 004, step 5): a chat request's last user message becomes memory + the message.

What memoir stored came from people, tools and models, so it is data, never instructions:
the block (`memoir.model.notes`, the one shape every door injects) says so, and every line
of it is quoted (`> `), so a stored "ignore previous instructions" reads as a quotation of
something once said. The user's message follows,
unchanged. Every other message of the request is left as it came. This is what the
OpenAI-compatible proxy and the chat agent send to a model.

The block's wording and shape were chosen by trying them on a real small model (Qwen2.5
Coder 0.5B, decision 74): a full sentence of warning before the notes and a "The user's
message:" header after them were echoed back as the answer in 3 of 16 turns; a short
label in parentheses around plain, quoted sentences was echoed in none, and the notes
were used more often (9 of 10 questions that needed them, against 7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from memoir.errors import InvalidQuery
from memoir.model.notes import MEMORY_PREAMBLE, notes_block, quoted
from memoir.retrieval.context import Context

__all__ = ["MEMORY_PREAMBLE", "QUERY_CHARS", "inject", "last_user_text", "query_of", "quoted", "request_texts"]

QUERY_CHARS = 2000  # of a message, what memoir searches with: the message itself is kept and sent whole


def _checked(messages: Any) -> list[Mapping[str, Any]]:
    if not isinstance(messages, Sequence) or isinstance(messages, str | bytes):
        raise InvalidQuery("messages", "must be a list of chat messages ({'role': ..., 'content': ...})")
    for n, message in enumerate(messages):
        if not isinstance(message, Mapping) or not isinstance(message.get("role"), str):
            raise InvalidQuery(f"messages[{n}]", "must be an object with a text 'role'")
        content = message.get("content")
        if content is not None and not isinstance(content, str | list):
            raise InvalidQuery(f"messages[{n}].content", "must be text, a list of content parts, or null")
    return list(messages)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI content parts: the text ones
        return "\n".join(p["text"] for p in content if isinstance(p, Mapping) and isinstance(p.get("text"), str))
    return ""


def last_user_text(messages: Any) -> tuple[int, str] | None:
    """(index, text) of the last user message with text, or None."""
    checked = _checked(messages)
    for index in range(len(checked) - 1, -1, -1):
        message = checked[index]
        if message["role"] == "user" and _text_of(message.get("content")).strip():
            return index, _text_of(message.get("content"))
    return None


def query_of(text: str) -> str:
    """What memoir searches with for a message: all of a short one; of a long one (a pasted
    document, a log) its start and its end, where the ask usually is. Only the search is
    cut: the message is forwarded and logged whole."""
    if len(text) <= QUERY_CHARS:
        return text
    half = QUERY_CHARS // 2
    return text[:half] + "\n" + text[-half:]


def request_texts(messages: Any) -> list[str]:
    """The text of every message of a request (what a memory block need not repeat)."""
    return [text for m in _checked(messages) if (text := _text_of(m.get("content")).strip())]


def inject(messages: Any, context: Context) -> list[dict[str, Any]]:
    """A new list of messages: the last user message preceded by the quoted memory block.

    Nothing to inject (an empty context, or no user message) gives the messages unchanged.
    """
    result = [dict(m) for m in _checked(messages)]
    found = last_user_text(result)
    if found is None or not context.text.strip():
        return result
    index, _ = found
    block = notes_block(context.text) + "\n\n"
    content = result[index].get("content")
    if isinstance(content, str):
        result[index]["content"] = block + content
    elif isinstance(content, list):  # content parts (text and images): the block is a text part of its own, first
        result[index]["content"] = [{"type": "text", "text": block}, *content]
    return result
