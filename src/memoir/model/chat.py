"""Chat messages (seed 000's Message, ToolCall, ToolResult), as the agent and history compression see them.

A `Message` is what an OpenAI-compatible chat request carries, plus two things memoir
knows and no request field holds: when it was said (`timestamp`, for `FromTimestamp`) and
the event that logged it (`event_id`, so a summary's grips lead back to the log).
`to_openai()` leaves both out, so what goes to a model is plain OpenAI format.

Validation takes every shape the OpenAI chat API takes (what a proxy client sends is not
memoir's to narrow): the roles `system`, `developer` (OpenAI's newer name for system
instructions, treated alike), `user`, `assistant` and `tool`; empty text; `content: null`
beside `tool_calls`; content parts; a tool message names its call (`tool_call_id`) and
may leave out its tool's `name`, as OpenAI's own messages do. What is refused is what no
model could read: a role outside these, text that is not text, a tool call on a message
that cannot make one. Errors name the field (`messages[3].content`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from memoir.errors import InvalidInput, InvalidQuery
from memoir.model.checks import brief, surrogate_at
from memoir.model.event import parse_timestamp

__all__ = ["ROLES", "Message", "ToolCall", "ToolResult", "messages_from_openai", "messages_to_openai"]

# "function" is OpenAI's deprecated role for a function's result (with an assistant's
# `function_call` before it): clients still send it, and the API still takes it.
Role = Literal["system", "developer", "user", "assistant", "tool", "function"]
ROLES: tuple[str, ...] = ("system", "developer", "user", "assistant", "tool", "function")
INSTRUCTION_ROLES = ("system", "developer")  # kept whole by every history strategy
RESULT_ROLES = ("tool", "function")  # what a tool (or legacy function) call gave back
MAX_MESSAGE_CHARS = 4_000_000  # past any model's context window: a bound, so a hostile body cannot exhaust memory


@dataclass(frozen=True)
class ToolCall:
    """A model's request to run a tool: `arguments` is the JSON text the model wrote, unparsed."""

    id: str
    name: str
    arguments: str = "{}"

    def to_openai(self) -> dict[str, Any]:
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}

    @classmethod
    def from_openai(cls, data: Any, where: str) -> ToolCall:
        if not isinstance(data, Mapping):
            raise InvalidQuery(where, f"must be an object, got {brief(data)}")
        function = data.get("function")
        if not isinstance(function, Mapping):
            raise InvalidQuery(f"{where}.function", f"must be an object, got {brief(function)}")
        call_id, name, arguments = data.get("id"), function.get("name"), function.get("arguments", "{}")
        if not isinstance(call_id, str) or not call_id:
            raise InvalidQuery(f"{where}.id", f"must be non-empty text, got {brief(call_id)}")
        if not isinstance(name, str) or not name:
            raise InvalidQuery(f"{where}.function.name", f"must be non-empty text, got {brief(name)}")
        if not isinstance(arguments, str):
            # Some servers send the object itself, not its JSON text. A value json cannot write (an int
            # past Python's 4,300 digits, nesting past the recursion limit) is the caller's error, named.
            try:
                arguments = json.dumps(arguments)
            except (TypeError, ValueError, RecursionError):
                raise InvalidQuery(f"{where}.function.arguments", f"must be JSON, got {brief(arguments)}") from None
        return cls(call_id, name, arguments)


@dataclass(frozen=True)
class ToolResult:
    """What running a tool gave: data when it succeeded, an error message when it did not."""

    success: bool
    data: Any = None
    error: str | None = None

    def to_content(self) -> str:
        """The tool message's content: JSON the model reads."""
        body = {"success": True, "data": self.data} if self.success else {"success": False, "error": self.error}
        return json.dumps(body, ensure_ascii=False, default=str)


@dataclass(frozen=True)
class Message:
    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None
    timestamp: datetime | None = None  # when it was said, where known
    event_id: str | None = None  # the event that logged it, where it was logged
    extra: tuple[tuple[str, Any], ...] = field(default=(), compare=False, repr=False)  # other OpenAI keys, kept

    def __post_init__(self) -> None:
        calls: Any = self.tool_calls  # a list from a caller would make the message unhashable (TokenCounter keys on it)
        if isinstance(calls, list):
            object.__setattr__(self, "tool_calls", tuple(calls))
        check_message(self, "message")

    @property
    def instructs(self) -> bool:
        """A system or developer message: instructions, never summarized or dropped."""
        return self.role in INSTRUCTION_ROLES

    @property
    def calls(self) -> bool:
        """An assistant message asking for tools (or, in the legacy form, one function)."""
        return bool(self.tool_calls) or any(key == "function_call" for key, _ in self.extra)

    @property
    def is_result(self) -> bool:
        """A tool's (or a legacy function's) result: it belongs with the call before it."""
        return self.role in RESULT_ROLES

    def to_openai(self) -> dict[str, Any]:
        data: dict[str, Any] = dict(self.extra)
        data["role"] = self.role
        if not isinstance(data.get("content"), list):
            data["content"] = self.content if self.content or not self.tool_calls else None
        if self.tool_calls:
            data["tool_calls"] = [call.to_openai() for call in self.tool_calls]
        if self.tool_call_id is not None:
            data["tool_call_id"] = self.tool_call_id
        if self.name is not None:
            data["name"] = self.name
        return data

    @classmethod
    def from_openai(cls, data: Any, where: str = "message") -> Message:
        """A message from an OpenAI chat request (or from `Message.to_openai`), checked."""
        if isinstance(data, Message):
            return data
        if not isinstance(data, Mapping):
            raise InvalidQuery(where, f"must be an object with 'role' and 'content', got {brief(data)}")
        role = data.get("role")
        if role not in ROLES:
            raise InvalidQuery(f"{where}.role", f"must be one of {', '.join(ROLES)}; got {brief(role)}")
        calls = data.get("tool_calls")
        if calls is None:
            calls = ()
        # Not `or ()`: false, 0 and "" are wrong values to refuse, not an empty list to take.
        if not isinstance(calls, Sequence) or isinstance(calls, str | bytes):
            raise InvalidQuery(f"{where}.tool_calls", f"must be a list, got {brief(calls)}")
        known = {"role", "content", "tool_calls", "tool_call_id", "name", "timestamp", "event_id"}
        timestamp = data.get("timestamp")
        try:
            moment = None if timestamp is None else parse_timestamp(timestamp, f"{where}.timestamp")
        except InvalidInput as exc:
            raise InvalidQuery(exc.field, exc.reason) from None
        content = data.get("content")
        if isinstance(content, list):
            known.discard("content")  # content parts (images too) go on as they came; their text is `content`
        message = cls.__new__(cls)
        fields = {
            "role": role,
            "content": _content_text(content, f"{where}.content"),
            "tool_calls": tuple(ToolCall.from_openai(c, f"{where}.tool_calls[{n}]") for n, c in enumerate(calls)),
            "tool_call_id": data.get("tool_call_id"),
            "name": data.get("name"),
            "timestamp": moment,
            "event_id": data.get("event_id"),
            "extra": tuple(
                (k, _json_value(k, v, where)) for k, v in data.items() if k not in known and isinstance(k, str)
            ),
        }
        for name, value in fields.items():
            object.__setattr__(message, name, value)
        check_message(message, where)
        return message


def _json_value(key: str, value: Any, where: str) -> Any:
    """`value` (another OpenAI key's, kept to be sent on) if it can be written as UTF-8 JSON; else InvalidQuery.

    These keys and values go to the model again and into the history's digest: an int past
    Python's 4,300 digits, nesting past the recursion limit or a lone surrogate would fail
    there with a raw ValueError, RecursionError or UnicodeEncodeError, far from where it was.
    """
    if surrogate_at(key) is not None:
        raise InvalidQuery(where, f"the key {brief(key)} holds half of a UTF-16 surrogate pair")
    field = f"{where}.{key}" if len(key) <= 64 and key.isprintable() else f"{where}[{brief(key)}]"  # a short name
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        raise InvalidQuery(field, f"must be a JSON value, got {brief(value)}") from None
    if surrogate_at(text) is not None:
        raise InvalidQuery(field, "holds half of a UTF-16 surrogate pair: send whole characters")
    return value


def _content_text(content: Any, where: str) -> str:
    """Text content, or the text parts of an OpenAI content-part list, joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        for n, part in enumerate(content):  # sent on as they came: a part that is no object is refused here
            if not isinstance(part, Mapping):
                raise InvalidQuery(f"{where}[{n}]", f"a content part must be an object, got {brief(part)}")
        return "\n".join(p["text"] for p in content if isinstance(p.get("text"), str))
    raise InvalidQuery(where, f"must be text, a list of content parts, or null; got {brief(content)}")


def check_message(message: Message, where: str) -> None:
    """Seed 000's rules for one message; `where` names it in errors (`messages[3]`)."""
    if message.role not in ROLES:
        raise InvalidQuery(f"{where}.role", f"must be one of {', '.join(ROLES)}; got {brief(message.role)}")
    if not isinstance(message.content, str):
        raise InvalidQuery(f"{where}.content", f"must be text, got {brief(message.content)}")
    if len(message.content) > MAX_MESSAGE_CHARS:
        raise InvalidQuery(f"{where}.content", f"longer than {MAX_MESSAGE_CHARS} characters")
    if surrogate_at(message.content) is not None:
        raise InvalidQuery(f"{where}.content", "holds half of a UTF-16 surrogate pair: send whole characters")
    if any(key == "content" and value == [] for key, value in message.extra):  # as OpenAI refuses it
        raise InvalidQuery(f"{where}.content", "a list of content parts needs at least one part")
    if not isinstance(message.tool_calls, tuple):
        raise InvalidQuery(f"{where}.tool_calls", f"must be a list of tool calls, got {brief(message.tool_calls)}")
    if message.tool_calls and message.role != "assistant":
        raise InvalidQuery(f"{where}.tool_calls", "only an assistant message calls tools")
    for n, call in enumerate(message.tool_calls):
        _check_call(call, f"{where}.tool_calls[{n}]")
    if message.role == "tool" and (not isinstance(message.tool_call_id, str) or not message.tool_call_id):
        raise InvalidQuery(f"{where}.tool_call_id", f"a tool message names its call; got {brief(message.tool_call_id)}")
    for key in ("tool_call_id", "name", "event_id"):
        value = getattr(message, key)
        if value is not None and not isinstance(value, str):
            raise InvalidQuery(f"{where}.{key}", f"must be text, got {brief(value)}")
        if value is not None and surrogate_at(value) is not None:  # else a raw UnicodeEncodeError when sent or hashed
            raise InvalidQuery(f"{where}.{key}", "holds half of a UTF-16 surrogate pair: send whole characters")


def _check_call(call: object, where: str) -> None:
    """A tool call's id, name and arguments are whole text: they are sent on, hashed and logged.

    Empty names pass: the agent keeps a model's nameless call, answered as an unknown tool.
    """
    if not isinstance(call, ToolCall):
        raise InvalidQuery(where, f"must be a tool call, got {brief(call)}")
    for key, value in (("id", call.id), ("function.name", call.name), ("function.arguments", call.arguments)):
        if not isinstance(value, str):
            raise InvalidQuery(f"{where}.{key}", f"must be text, got {brief(value)}")
        if surrogate_at(value) is not None:
            raise InvalidQuery(f"{where}.{key}", "holds half of a UTF-16 surrogate pair: send whole characters")


def messages_from_openai(messages: Any, field_name: str = "messages") -> list[Message]:
    """A request's `messages`, each checked; errors name `messages[N].field`."""
    if not isinstance(messages, Sequence) or isinstance(messages, str | bytes):
        raise InvalidQuery(field_name, f"must be a list of chat messages, got {brief(messages)}")
    return [Message.from_openai(m, f"{field_name}[{n}]") for n, m in enumerate(messages)]


def messages_to_openai(messages: Sequence[Message]) -> list[dict[str, Any]]:
    return [m.to_openai() for m in messages]
