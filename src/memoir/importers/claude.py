"""Claude Code's session transcripts, as the hook calls they stand for.

Claude Code appends every session to `~/.claude/projects/<cwd, / and . as ->/<session
id>.jsonl` (`$CLAUDE_CONFIG_DIR/projects` when set); a subagent's turns go to
`<session id>/subagents/agent-<id>.jsonl` beside it, with the parent's session id and
`isSidechain: true`. Each line is an object with a `type`: `user` and `assistant` lines
carry `uuid`, `parentUuid`, `sessionId`, `cwd`, `timestamp` and an Anthropic Messages
`message` (`content` a string or blocks: text, tool_use, tool_result, thinking, image);
one API response is written as one line per content block. Other types (`summary`,
`system`, `file-history-snapshot`, `attachment`...) are bookkeeping, as are lines
marked `isMeta` (text Claude Code adds) or `isCompactSummary`.

The calls: a typed prompt is UserPromptSubmit; a tool_use joined with the tool_result
that answers it (on a later user line, by `tool_use_id`) is PostToolUse, its response
the line's structured `toolUseResult` as the hook gets it, else the block's content;
an assistant line's text is a Stop with `last_assistant_message`; the session's first
line is its SessionStart. Thinking is left out. A subagent's prompts and answers are
the parent's instructions and its report, not the user's: only its tool calls count.
"""

from __future__ import annotations

from typing import Any

from memoir.importers.records import RecordError, Transcript, as_dict, as_list, as_str, required_str, stamp

__all__ = ["ClaudeReader"]

# Texts Claude Code itself puts in user lines: slash-command envelopes and interruptions.
_NOT_TYPED = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "[Request interrupted by user",
)
_BOOKKEEPING = ("isMeta", "isCompactSummary", "isVisibleInTranscriptOnly", "isApiErrorMessage")


class ClaudeReader:
    def __init__(self, transcript: Transcript) -> None:
        self.transcript = transcript
        self.cwd = ""
        self.tools: dict[str, tuple[str, Any]] = {}  # tool_use id -> (name, input), until its result
        self.started: set[str] = set()

    def feed(self, line: int, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind not in ("user", "assistant") or any(record.get(flag) is True for flag in _BOOKKEEPING):
            return
        message = record.get("message")
        if not isinstance(message, dict):
            raise RecordError(f"message: expected an object in a {kind} line")
        where = self._where(record)
        sidechain = record.get("isSidechain") is True
        if not sidechain and where[0] not in self.started:
            self.started.add(where[0])
            self.transcript.hook(line, "session_start", "SessionStart", where, source="startup")
        if kind == "assistant":
            self._assistant(line, record, message, where, sidechain)
        else:
            self._user(line, record, message, where, sidechain)

    def finish(self) -> None:
        """Nothing waits: a tool_use never answered (the session stopped) made no PostToolUse either."""

    def _where(self, record: dict[str, Any]) -> tuple[str, str, str]:
        when = stamp(record.get("timestamp"))
        self.cwd = as_str(record.get("cwd")) or self.cwd
        if not self.cwd:
            raise RecordError("cwd: missing, and no line before it named the project folder")
        session = as_str(record.get("sessionId")).strip() or self.transcript.path.stem
        return session, self.cwd, when

    def _assistant(
        self, line: int, record: dict[str, Any], message: dict[str, Any], where: tuple[str, str, str], sidechain: bool
    ) -> None:
        texts = []
        for block in _blocks(message.get("content")):
            if block.get("type") == "tool_use":
                tool_id = required_str(block, "id")
                self.tools[tool_id] = (as_str(block.get("name")), block.get("input"))
            elif block.get("type") == "text":
                texts.append(as_str(block.get("text")))
        text = "\n".join(t for t in texts if t.strip())
        if text and not sidechain:
            key = required_str(record, "uuid")
            self.transcript.hook(line, key, "Stop", where, last_assistant_message=text, stop_hook_active=False)

    def _user(
        self, line: int, record: dict[str, Any], message: dict[str, Any], where: tuple[str, str, str], sidechain: bool
    ) -> None:
        blocks = _blocks(message.get("content"))
        results = [block for block in blocks if block.get("type") == "tool_result"]
        for block in results:
            self._tool_result(line, block, record.get("toolUseResult") if len(results) == 1 else None, where)
        if results or sidechain:
            return
        prompt = "\n".join(t for b in blocks if b.get("type") == "text" and (t := as_str(b.get("text"))).strip())
        if prompt.strip() and not prompt.lstrip().startswith(_NOT_TYPED):
            self.transcript.hook(line, required_str(record, "uuid"), "UserPromptSubmit", where, prompt=prompt)

    def _tool_result(self, line: int, block: dict[str, Any], structured: Any, where: tuple[str, str, str]) -> None:
        tool_id = required_str(block, "tool_use_id")
        name, tool_input = self.tools.pop(tool_id, ("", None))
        response = structured if isinstance(structured, dict | str) else block.get("content")
        fields = {"tool_name": name, "tool_input": tool_input, "tool_response": response, "tool_use_id": tool_id}
        self.transcript.hook(line, tool_id, "PostToolUse", where, **fields)


def _blocks(content: Any) -> list[dict[str, Any]]:
    """A message's content as blocks: a plain string is one text block."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [as_dict(block) for block in as_list(content)]
