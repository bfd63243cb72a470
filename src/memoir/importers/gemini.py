"""Gemini CLI's chat recordings, as the hook calls they stand for.

Gemini CLI records each session under `~/.gemini/tmp/<project>/chats/` (the home is
`$GEMINI_CLI_HOME` when set): `session-<time>-<id>.jsonl` today, a subagent's as
`chats/<parent session id>/<id>.jsonl`, and `session-*.json` (one ConversationRecord
object) before that. A `.jsonl` starts with the metadata (`sessionId`, `projectHash`,
`startTime`, `kind`...), then holds message records (`id`, `timestamp`, `type` user,
gemini, info, error or warning, `content` as a string or parts; a gemini message's
`toolCalls` with `id`, `name`, `args`, `status`, `result`, `resultDisplay`), `$set`
metadata updates and `$rewindTo` markers. A message is written again, whole, each time
it changes (tokens, tool calls added, results filled in): the last copy of an id wins,
as Gemini CLI's own loader has it. The `<project>` folder is a short name for the
project (once a hash of its path); its `.project_root` file, or `~/.gemini/projects.json`,
says which folder it is.

The calls: a user message is BeforeAgent (its `displayContent`, what was typed, over the
`content` sent with files expanded); a finished tool call is AfterTool, its response the
text the model got (`llmContent`) and what the user saw (`returnDisplay`); a gemini
message's text is AfterAgent; the metadata's `startTime` is SessionStart. Thoughts,
info/error/warning messages and rewinds are left out (a rewind hides messages from the
model; they still happened).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from memoir.importers.records import RecordError, Transcript, as_dict, as_list, as_str, required_str, stamp

__all__ = ["GeminiReader"]

_FINISHED = ("success", "error", "cancelled")
_MAX_SIDE_FILE = 4_000_000  # .project_root and projects.json: small files


class GeminiReader:
    def __init__(self, transcript: Transcript) -> None:
        self.transcript = transcript
        self.meta: dict[str, Any] = {}
        self.meta_line = 0
        self.messages: dict[str, tuple[int, dict[str, Any]]] = {}  # id -> (line, its last copy), first seen first
        self.last_prompt = ""

    def feed(self, line: int, record: dict[str, Any]) -> None:
        if "$rewindTo" in record:
            return
        update = record.get("$set")
        if isinstance(update, dict):
            self.meta.update(update)
        elif isinstance(record.get("sessionId"), str) and isinstance(record.get("projectHash"), str):
            self.meta.update({name: value for name, value in record.items() if name != "messages"})
            self.meta_line = self.meta_line or line
            for index, message in enumerate(as_list(record.get("messages"))):  # a whole older .json file
                self._keep(line, message, f"messages[{index}]")
        elif "id" in record:
            self._keep(line, record, "message")
        else:
            raise RecordError("not a Gemini CLI chat record (no id, sessionId or $set)")

    def _keep(self, line: int, message: Any, name: str) -> None:
        message_id = as_dict(message).get("id")
        if not isinstance(message_id, str) or not message_id.strip():
            self.transcript.skip(line, f"{name}: expected an object with a non-empty string id")
            return
        self.messages[message_id] = (line, message)

    def finish(self) -> None:
        session = as_str(self.meta.get("sessionId")).strip()
        if not session and self.messages:
            self.transcript.skip(0, "no metadata line (sessionId): the file's name stands for the session")
        session = session or self.transcript.path.stem
        cwd = self._project()
        main = self.meta.get("kind") != "subagent"  # a subagent's prompts and answers are not the user's
        if main and self.meta.get("startTime") is not None:
            self._start(session, cwd)
        for message_id, (line, message) in self.messages.items():
            try:
                self._message(line, message, session, cwd, main)
            except RecordError as exc:
                self.transcript.skip(line, f"message {message_id[:60]!r}: {exc}")

    def _start(self, session: str, cwd: str) -> None:
        try:
            where = (session, cwd, stamp(self.meta.get("startTime"), "startTime"))
        except RecordError as exc:
            self.transcript.skip(self.meta_line, str(exc))
            return
        self.transcript.hook(self.meta_line, "session_start", "SessionStart", where, source="startup")

    def _message(self, line: int, message: dict[str, Any], session: str, cwd: str, main: bool) -> None:
        kind = message.get("type")
        if kind not in ("user", "gemini"):
            return
        where = (session, cwd, stamp(message.get("timestamp")))
        if kind == "user":
            prompt = _text(message.get("displayContent")) or _text(message.get("content"))
            if prompt.strip() and main:
                self.last_prompt = prompt
                self.transcript.hook(line, message["id"], "BeforeAgent", where, prompt=prompt)
            return
        for call in as_list(message.get("toolCalls")):
            self._tool_call(line, as_dict(call), where)
        answer = _text(message.get("content"))
        if answer.strip() and main:
            fields = {"prompt": self.last_prompt, "prompt_response": answer, "stop_hook_active": False}
            self.transcript.hook(line, message["id"], "AfterAgent", where, **fields)

    def _tool_call(self, line: int, call: dict[str, Any], where: tuple[str, str, str]) -> None:
        status = as_str(call.get("status"))
        if status not in _FINISHED and call.get("result") is None:
            return  # still running when written: a later copy of the message has its end
        tool_id = required_str(call, "id")
        if call.get("timestamp") is not None:
            where = (where[0], where[1], stamp(call.get("timestamp"), "toolCalls.timestamp"))
        response: dict[str, Any] = {"llmContent": _text(call.get("result")), "returnDisplay": call.get("resultDisplay")}
        if status == "error":
            response["error"] = True
        fields = {"tool_name": as_str(call.get("name")), "tool_input": call.get("args"), "tool_response": response}
        self.transcript.hook(line, tool_id, "AfterTool", where, **fields, tool_use_id=tool_id)

    def _project(self) -> str:
        """The project folder the chat belongs to, or (said in a note) its Gemini folder in its place."""
        temp = next((folder.parent for folder in self.transcript.path.parents if folder.name == "chats"), None)
        found = _project_of(temp) if temp is not None else None
        directories = [d for d in as_list(self.meta.get("directories")) if isinstance(d, str) and d.strip()]
        found = found or (directories[0] if directories else None)
        if found:
            return found
        fallback = str(temp or self.transcript.path.parent)
        self.transcript.skip(0, f"its project folder is unknown (no .project_root): memories are scoped by {fallback}")
        return fallback


def _text(content: Any) -> str:
    """The text of a PartListUnion (a string, a part, or a list of them); thoughts left out."""
    if isinstance(content, str):
        return content
    texts = []
    for part in content if isinstance(content, list) else [content]:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and part.get("thought") is not True:
            texts.append(as_str(part.get("text")) or _response_text(as_dict(part.get("functionResponse"))))
    return "\n".join(t for t in texts if t)


def _response_text(function_response: dict[str, Any]) -> str:
    response = function_response.get("response")
    if not isinstance(response, dict):
        return as_str(response)
    for name in ("output", "error"):
        if isinstance(response.get(name), str):
            return str(response[name])
    try:
        return json.dumps(response, ensure_ascii=False, default=str)
    except (ValueError, TypeError, RecursionError):
        return ""


def _project_of(temp: Path) -> str | None:
    """`<temp>/.project_root`, else the path `~/.gemini/projects.json` maps to this folder's name (or hash)."""
    marker = _read_small(temp / ".project_root")
    if marker and marker.strip():
        return marker.strip()
    try:
        registry = json.loads(_read_small(temp.parent.parent / "projects.json") or "{}")
    except (ValueError, RecursionError):
        return None
    for project, slug in as_dict(as_dict(registry).get("projects")).items():
        hashed = hashlib.sha256(project.encode("utf-8", "surrogatepass")).hexdigest()
        if temp.name in (slug, hashed):
            return str(project)
    return None


def _read_small(path: Path) -> str | None:
    try:
        with path.open("rb") as handle:
            return handle.read(_MAX_SIDE_FILE).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
