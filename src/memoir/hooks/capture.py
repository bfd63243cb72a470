"""A coding agent's hook call, read from its JSON, and the events it becomes.

Claude Code, Codex and Gemini CLI send one JSON object per hook call: `session_id`,
`transcript_path`, `cwd`, `hook_event_name` and fields of the event (`prompt`;
`tool_name`, `tool_input`, `tool_response`; `source` or `reason`...). Codex speaks Claude's
format; Gemini names its events differently (BeforeAgent, AfterTool, PreCompress...).
Everything is read defensively: the payload comes from outside, any field may be
missing or of the wrong type, and only `session_id` is required.

The events are scoped by project (the repository root of `cwd`: `project_scope`) and by
the agent's session; the agent's name, the hook and the tool's file paths go into the
metadata; every text and metadata value passes the secrets masker first. Event ids are
derived from the call (`derived_ulid`), so the same call delivered twice (a retry, the
command form falling back after the server did not answer) is stored once.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any

from memoir.errors import InvalidInput
from memoir.model.checks import brief
from memoir.model.event import parse_timestamp
from memoir.model.ids import derived_ulid, now_ms
from memoir.model.notes import strip_notes
from memoir.model.project import project_root, scope_of_root
from memoir.model.secrets import Masker

__all__ = ["AGENTS", "MAX_PAYLOAD_BYTES", "HookCall", "events_for", "parse_call"]

AGENTS = ("claude", "codex", "gemini")
MAX_PAYLOAD_BYTES = 16_000_000
MAX_TOOL_TEXT = 8_000  # characters of a tool's input and output kept in the log
MAX_PROMPT_TEXT = 200_000

# The agents' event names -> ours. Codex uses Claude's names.
EVENT_NAMES = {
    "SessionStart": "session_start",
    "UserPromptSubmit": "user_prompt",
    "BeforeAgent": "user_prompt",
    "PreToolUse": "tool_call",
    "BeforeTool": "tool_call",
    "PostToolUse": "tool_result",
    "AfterTool": "tool_result",
    "Stop": "stop",
    "AfterAgent": "stop",
    "SubagentStart": "subagent_start",
    "SubagentStop": "subagent_stop",
    "PreCompact": "pre_compact",
    "PreCompress": "pre_compact",
    "SessionEnd": "session_end",
    "Notification": "notification",
}
KINDS = frozenset(EVENT_NAMES.values())
_ONE_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")  # what ids may not hold
_FILE_KEYS = ("file_path", "path", "notebook_path", "absolute_path", "dir_path", "directory")


@dataclass(frozen=True)
class HookCall:
    """One hook call, its fields checked: `event` is ours (`user_prompt`, `tool_result`...)."""

    agent: str
    event: str
    hook_name: str  # the agent's own name for it
    session_id: str
    cwd: str
    payload: Mapping[str, Any]
    at_ms: int

    @cached_property  # a walk up the folders, asked for by every event of the call
    def root(self) -> Path:
        return project_root(self.cwd)

    @cached_property
    def conversation_id(self) -> str:
        return scope_of_root(self.root)

    @property
    def tool_name(self) -> str:
        return _text(self.payload.get("tool_name")) or ""

    def text(self, name: str) -> str:
        return _text(self.payload.get(name)) or ""


def parse_call(agent: str, body: bytes | str | Mapping[str, Any], event: str | None = None) -> HookCall:
    """The hook call in `body` (the agent's JSON); `event` is the name given on the command line."""
    if agent not in AGENTS:
        raise InvalidInput("agent", f"unknown agent {brief(agent)}; expected one of {', '.join(AGENTS)}")
    payload = _payload(body)
    hook_name = _text(payload.get("hook_event_name")) or event or ""
    kind = EVENT_NAMES.get(hook_name) or (hook_name if hook_name in KINDS else None)
    if kind is None:
        known = ", ".join(EVENT_NAMES)
        raise InvalidInput("hook_event_name", f"unknown hook event {brief(hook_name)}; expected one of {known}")
    session_id = _ONE_LINE.sub("", _text(payload.get("session_id")) or "").strip()[:200]
    if not session_id:
        raise InvalidInput("session_id", "is required (the agent's session id)")
    cwd = (_text(payload.get("cwd")) or ".").replace("\0", "")
    return HookCall(agent, kind, hook_name, session_id, cwd or ".", payload, _when(payload))


def _payload(body: bytes | str | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(body, Mapping):
        return body
    if len(body) > MAX_PAYLOAD_BYTES:
        raise InvalidInput("payload", f"larger than {MAX_PAYLOAD_BYTES:,} bytes")
    try:
        value = json.loads(body)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise InvalidInput("payload", f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise InvalidInput("payload", f"expected a JSON object, got {type(value).__name__}")
    return value


def _when(payload: Mapping[str, Any]) -> int:
    stamp = payload.get("timestamp")
    if isinstance(stamp, str):
        try:
            when: datetime = parse_timestamp(stamp)
            return int(when.timestamp() * 1000)
        except (InvalidInput, ValueError, OverflowError):
            pass  # a wrong clock in the payload is not worth losing the call over
    return now_ms()


def _text(value: Any) -> str | None:
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8") if not value.isascii() else value
    return None


def _render(value: Any, limit: int, masker: Masker) -> str:
    """A tool's input or output as text: strings as they are, anything else as JSON.

    Masked before it is encoded (JSON escapes the quotes around a `"password": "..."`
    inside a string) and before it is cut (half a key is still a key).
    """
    if value is None:
        return ""
    if isinstance(value, str):
        text = masker.mask(value)
    else:
        try:
            text = json.dumps(masker.mask_tree(value), ensure_ascii=False, default=str)
        except (ValueError, TypeError, RecursionError):
            text = repr(value)
    text = _text(text) or ""
    if len(text) > limit:
        return f"{text[:limit]}\n[... {len(text) - limit:,} more characters not kept]"
    return text


def _files(tool_input: Any) -> list[str]:
    if not isinstance(tool_input, Mapping):
        return []
    found = [value for key in _FILE_KEYS if (value := _text(tool_input.get(key)))]
    paths = tool_input.get("paths")
    if isinstance(paths, list):
        found.extend(text for p in paths[:20] if (text := _text(p)))
    return found[:20]


def _tool_text(call: HookCall, masker: Masker) -> str:
    tool_input = call.payload.get("tool_input")
    response = call.payload.get("tool_response", call.payload.get("tool_output"))
    described = _render(tool_input, MAX_TOOL_TEXT // 4, masker)
    result = _render(response, MAX_TOOL_TEXT, masker)
    return f"{call.tool_name or 'tool'}({described})" + (f"\n{result}" if result else "")


def _assistant_text(call: HookCall) -> str:
    for name in ("last_assistant_message", "prompt_response", "response"):
        text = call.text(name)
        if text.strip():
            return text
    return ""


def events_for(call: HookCall, masker: Masker, *, key: str | None = None) -> list[dict[str, Any]]:
    """The events this call adds to the log (none for calls that carry nothing to keep).

    `key` names the call for its event ids when the caller knows a stable name (an imported
    transcript's message id); by default the ids derive from the payload's content.
    """
    metadata = {"capture": "hook", "coding_agent": call.agent, "hook": call.hook_name}
    metadata["project"] = (_text(str(call.root)) or "")[:1000]
    made: list[tuple[str, str, dict[str, str]]] = []  # (event type, text, extra metadata)
    if call.event == "session_start":
        made.append(("session_start", "", {"source": call.text("source")[:100]}))
    elif call.event == "user_prompt":
        # Gemini hands SessionStart's context back inside the next prompt: it is memoir's, not the user's.
        prompt = masker.mask(strip_notes(call.text("prompt")))[:MAX_PROMPT_TEXT]
        if prompt.strip():
            made.append(("user_message", prompt, {}))
    elif call.event == "tool_result":
        extra = {"tool_name": call.tool_name[:200]}
        files = _files(call.payload.get("tool_input"))
        if files:
            extra["file_paths"] = "\n".join(files)[:4000]
        tool_use_id = call.text("tool_use_id")
        if tool_use_id:
            extra["tool_use_id"] = tool_use_id[:200]
        made.append(("tool_result", _tool_text(call, masker), extra))
    elif call.event == "stop":
        answer = _assistant_text(call)
        if answer:
            made.append(("assistant_message", masker.mask(answer)[:MAX_PROMPT_TEXT], {}))
        made.append(("assistant_stop", "", {}))
    elif call.event in ("subagent_start", "subagent_stop"):
        extra = {"subagent": (call.text("agent_type") or call.text("agent_id"))[:200]}
        made.append((call.event, "", extra))
    elif call.event == "session_end":
        made.append(("session_end", "", {"reason": call.text("reason")[:200]}))
    if key is None:  # same call, same ids: the key is the call's content, not the time it arrived
        content = json.dumps(call.payload, sort_keys=True, default=str).encode("utf-8", "replace")
        key = f"{call.hook_name}:{hashlib.sha256(content).hexdigest()}"
    return [
        _event(call, key, index, kind, text, metadata | extra, masker) for index, (kind, text, extra) in enumerate(made)
    ]


def _event(
    call: HookCall, key: str, index: int, kind: str, text: str, metadata: dict[str, str], masker: Masker
) -> dict[str, Any]:
    event_id = derived_ulid(call.at_ms, call.agent, call.session_id, key, str(index))
    return {
        "event_id": event_id,
        "timestamp": call.at_ms + index,  # keeps the call's events in order
        "session_id": call.session_id,
        "conversation_id": call.conversation_id,
        "event_type": kind,
        "text": masker.mask(text),
        "metadata": {key: masker.mask(value) for key, value in metadata.items() if value},
    }
