"""Codex's session rollouts, as the hook calls they stand for.

Codex appends each session to `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<session
id>.jsonl` (`$CODEX_HOME` when set; archived ones move to `archived_sessions/`). Each
line is `{"timestamp", "type", "payload"}` (`RolloutLine` in codex-rs/protocol): a
`session_meta` first (`id`, `cwd`, `timestamp`, `cli_version`...), then `response_item`
(the model's history: `message` with `role` and `input_text`/`output_text` content,
`function_call`/`custom_tool_call`/`local_shell_call` with a `call_id`, their
`function_call_output`/`custom_tool_call_output`, `reasoning`...), `event_msg`
(`user_message` with the text the user typed, `agent_message`, `token_count`...),
`turn_context` (whose `cwd` holds from that turn on) and `compacted`.

The calls: `session_meta` is SessionStart; `event_msg` `user_message` is UserPromptSubmit
(the user's own words; the user `message` items also hold the instructions and
environment Codex injects, so they stand in only for rollouts without any
`user_message`); a tool call joined with its output by `call_id` is PostToolUse; an
assistant `message` is a Stop. Reasoning and the `agent_message` copies are left out.
Messages carry no id of their own in a rollout: theirs is their time and content.
"""

from __future__ import annotations

import json
import re
from typing import Any

from memoir.importers.records import Call, RecordError, Transcript, as_dict, as_list, as_str, digest, stamp

__all__ = ["CodexReader"]

_UUID_AT_END = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}$")
_TOOL_CALLS = {"function_call": "arguments", "custom_tool_call": "input", "local_shell_call": "action"}
_TOOL_OUTPUTS = ("function_call_output", "custom_tool_call_output")
_LINE_TYPES = ("session_meta", "response_item", "event_msg", "turn_context", "compacted")
# What Codex puts in user messages besides the user's words (AGENTS.md, environment, ...).
_INJECTED = ("<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<permissions instructions>")


class CodexReader:
    def __init__(self, transcript: Transcript) -> None:
        self.transcript = transcript
        found = _UUID_AT_END.search(transcript.path.stem)
        self.session = found.group() if found else transcript.path.stem  # until session_meta names it
        self.cwd = ""
        self.calls: dict[str, tuple[str, Any]] = {}  # call_id -> (tool name, input), until its output
        self.typed_prompts = False
        self.item_prompts: list[Call] = []  # user messages, for rollouts without user_message events

    def feed(self, line: int, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind not in _LINE_TYPES:
            raise RecordError(
                f"type: {json.dumps(kind)[:60]} is not a rollout line's (expected {', '.join(_LINE_TYPES)})"
            )
        payload = record.get("payload")
        if not isinstance(payload, dict):
            raise RecordError(f"payload: expected an object in a {kind} line")
        when = stamp(record.get("timestamp"))
        if kind == "session_meta":
            self._session_meta(line, payload, when)
        elif kind == "turn_context":
            self.cwd = as_str(payload.get("cwd")) or self.cwd
        elif kind == "event_msg" and payload.get("type") == "user_message":
            self._user_message(line, payload, when)
        elif kind == "response_item":
            self._response_item(line, payload, when)

    def finish(self) -> None:
        if not self.typed_prompts:
            self.transcript.calls.extend(self.item_prompts)

    def _where(self, when: str) -> tuple[str, str, str]:
        if not self.cwd:
            raise RecordError("no session_meta line before it: the project folder (cwd) is unknown")
        return self.session, self.cwd, when

    def _session_meta(self, line: int, payload: dict[str, Any], when: str) -> None:
        self.session = as_str(payload.get("id")).strip() or self.session
        self.cwd = as_str(payload.get("cwd")) or self.cwd
        self.transcript.hook(line, "session_meta", "SessionStart", self._where(when), source="startup")

    def _user_message(self, line: int, payload: dict[str, Any], when: str) -> None:
        self.typed_prompts = True
        prompt = as_str(payload.get("message"))
        if prompt.strip():
            self.transcript.hook(line, f"prompt:{digest(prompt)}", "UserPromptSubmit", self._where(when), prompt=prompt)

    def _response_item(self, line: int, item: dict[str, Any], when: str) -> None:
        kind = as_str(item.get("type"))
        if kind == "message":
            self._message(line, item, when)
        elif kind in _TOOL_CALLS:
            call_id = _call_id(item)
            self.calls[call_id] = (as_str(item.get("name")) or kind, _tool_input(item.get(_TOOL_CALLS[kind])))
        elif kind in _TOOL_OUTPUTS:
            call_id = _call_id(item)
            name, tool_input = self.calls.pop(call_id, ("", None))
            fields = {"tool_name": name, "tool_input": tool_input, "tool_response": item.get("output")}
            self.transcript.hook(line, call_id, "PostToolUse", self._where(when), **fields, tool_use_id=call_id)

    def _message(self, line: int, item: dict[str, Any], when: str) -> None:
        role = item.get("role")
        texts = [as_str(part.get("text")) for part in map(as_dict, as_list(item.get("content")))]
        text = "\n".join(t for t in texts if t.strip())
        if not text:
            return
        if role == "assistant":
            key = f"answer:{digest(text)}"
            self.transcript.hook(line, key, "Stop", self._where(when), last_assistant_message=text)
        elif role == "user" and not text.lstrip().startswith(_INJECTED):
            where = self._where(when)
            payload = self.transcript.payload("UserPromptSubmit", where, prompt=text)
            self.item_prompts.append(Call(line, f"prompt:{digest(text)}", payload))


def _call_id(item: dict[str, Any]) -> str:
    call_id = as_str(item.get("call_id")) or as_str(item.get("id"))
    if not call_id.strip():
        raise RecordError(f"call_id: missing in a {as_str(item.get('type'))} item")
    return call_id


def _tool_input(value: Any) -> Any:
    """Function arguments come as a string of JSON: the hook gets them parsed."""
    if isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return value
    return value
