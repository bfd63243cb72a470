"""One hook call handled: its events stored, and the context to give back to the agent.

The server's `POST /hooks/{agent}` and `memoir hook` both end here. Capture comes first
and is what must not be lost; the context is a bonus, so a failure while building it is
logged and the agent gets no context rather than an error. SessionStart gives the
project's key memories and its latest summary; UserPromptSubmit the memories relevant to
the prompt; PostToolUse on a Read, Edit, Write or Bash the typed memories about that file
or command (`injection.select`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memoir.errors import MemoirError
from memoir.hooks.capture import HookCall, events_for
from memoir.hooks.injection import TOOL_TYPES, format_injection, load_injection_config, select, title_of
from memoir.hooks.seen import SeenMemories
from memoir.model.notes import notes_block
from memoir.model.project import project_root
from memoir.model.secrets import Masker

if TYPE_CHECKING:
    from memoir.facade.engine import Memoir

__all__ = ["HookAnswer", "agent_output", "capture", "context_for", "handle", "take_prompt"]

log = logging.getLogger("memoir.hooks")

# Hooks whose output can carry context for the model, per agent (the others ignore it).
_CONTEXT_HOOKS = {"SessionStart", "UserPromptSubmit", "PostToolUse", "BeforeAgent", "AfterTool"}
SEARCH_CANDIDATES = 30
KEY_MEMORIES = 10


@dataclass
class HookAnswer:
    stored: int
    context: str
    deduplication_hits: int = 0


def handle(memoir: Memoir, call: HookCall, masker: Masker) -> HookAnswer:
    """Store the call's events and build its context (never failing for the context's sake)."""
    if call.event == "user_prompt":
        return take_prompt(memoir, call, masker)
    stored = capture(memoir, call, masker)
    context, dedup = context_for(memoir, call, masker)
    return HookAnswer(stored, context, dedup)


def take_prompt(memoir: Memoir, call: HookCall, masker: Masker) -> HookAnswer:
    """A user's prompt, taken as every door takes a user's turn (`Memoir.take_turn`): memory for it
    found first (so the prompt does not answer itself), then the prompt kept as the hooks log it.

    The prompt is searched for as it is kept: masked, and without memoir's own notes that Gemini
    CLI hands back inside it. When the context cannot be built the prompt is still kept.
    """
    events = events_for(call, masker)
    if not events:
        return HookAnswer(0, "")
    turn = [{"role": "user", "content": events[0]["text"]}]
    try:
        injection = memoir.take_turn(turn, conversation_id=call.conversation_id, event=events[0])
    except (MemoirError, OSError) as exc:
        log.warning("no context for %s %s: %s", call.agent, call.hook_name, exc)
        return HookAnswer(capture(memoir, call, masker), "")  # the same ids: kept once, whatever failed
    block = notes_block(injection.context.text, "memoir: earlier notes relevant to this prompt")
    return HookAnswer(len(events), block + "\n" if block else "")


def capture(memoir: Memoir, call: HookCall, masker: Masker) -> int:
    """Store the call's events durably; returns how many."""
    events = events_for(call, masker)
    return len(memoir.ingest(events)) if events else 0


def context_for(memoir: Memoir, call: HookCall, masker: Masker) -> tuple[str, int]:
    """The context for the agent, and the session-dedup hits; ("", 0) when it cannot be built.

    Independent of `capture` (it reads memories, not this call's events), so a server may
    run both at once.
    """
    try:
        return _context(memoir, call, masker)
    except (MemoirError, OSError) as exc:
        log.warning("no context for %s %s: %s", call.agent, call.hook_name, exc)
        return "", 0


def agent_output(call: HookCall, context: str) -> dict[str, Any]:
    """What the agent reads on stdout (or in the HTTP answer): continue, and any context."""
    output: dict[str, Any] = {"continue": True}
    if context and call.hook_name in _CONTEXT_HOOKS:
        output["hookSpecificOutput"] = {"hookEventName": call.hook_name, "additionalContext": context}
    return output


def _context(memoir: Memoir, call: HookCall, masker: Masker) -> tuple[str, int]:
    if call.event == "session_start":
        return _session_context(memoir, call), 0
    if call.event == "tool_result" and call.tool_name in TOOL_TYPES:
        return _tool_context(memoir, call, masker)
    return "", 0


def _session_context(memoir: Memoir, call: HookCall) -> str:
    conversation = call.conversation_id
    memories = [m for m in memoir.memories(conversation) if m.deleted_at is None]
    priority = {"gotcha": 0, "decision": 1, "learning": 2, "fact": 3}
    chosen = sorted(memories, key=lambda m: (priority.get(m.kind.value, 9), -m.created_at.timestamp()))
    known = "\n".join(f"- [{m.kind.value}] {title_of(m.content, 200)} ({m.id})" for m in chosen[:KEY_MEMORIES])
    blocks = [
        notes_block(known, "memoir: what is known about this project"),
        notes_block(_latest_summary(memoir, conversation), "memoir: the latest summary of work in this project"),
    ]
    return "\n\n".join(b for b in blocks if b) + "\n" if any(blocks) else ""


def _latest_summary(memoir: Memoir, conversation: str) -> str:
    roots = memoir.toc_root(conversation)
    if not roots:
        return ""
    node = roots[-1]
    for _ in range(4):  # year -> month -> week -> day
        page = memoir.browse_toc(node.node_id, limit=100, conversation_id=conversation)
        if not page.nodes or page.nodes[-1].level.value == "segment":
            break
        node = page.nodes[-1]
    return "\n".join([node.title, *(f"- {bullet.text}" for bullet in node.bullets[:5])])


def _tool_context(memoir: Memoir, call: HookCall, masker: Masker) -> tuple[str, int]:
    project = project_root(call.cwd)
    config = load_injection_config(project)
    kinds = config.enabled_types()
    subject = _subject(call, project)
    if not kinds or not subject:
        return "", 0
    query = masker.mask(subject)
    found = memoir.search(query[:2000], k=SEARCH_CANDIDATES, conversation_id=call.conversation_id, kinds=kinds)
    seen = SeenMemories(memoir.home, call.agent, call.session_id)
    with seen.held() as pairs:
        result = select(found, config, TOOL_TYPES[call.tool_name], pairs)
    return format_injection(result, query[:200]), result.deduplication_hits


def _subject(call: HookCall, project: Path) -> str:
    """What the tool touched: the file (relative to the project when inside it) or the command."""
    tool_input = call.payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return ""
    for key in ("file_path", "path", "absolute_path", "notebook_path"):
        value = tool_input.get(key)
        if isinstance(value, str) and value.strip():
            try:
                return str(Path(value).relative_to(project))
            except ValueError:
                return value
    command = tool_input.get("command")
    return command if isinstance(command, str) else ""
