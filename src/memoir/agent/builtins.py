"""The agent's built-in tools, each a thin call to `Memoir` (seed 000's tools, on memoir's memory).

    remember          keep a fact (important: always in the prompt); a correction updates the fact
    search_memory     memories and past turns that answer a query
    forget            soft-delete a memory by id
    write_daily_note  append to today's note in the vault (daily/YYYY-MM-DD.md)
    read_daily_note   a day's note (today by default)
    timeline          the table of contents of past conversations, level by level
    expand_grip       the turns a timeline bullet stands on

What the user tells the agent holds in every chat, so `remember` keeps it in `global`
(the conversation every chat searches besides its own), with the chat's conversation as
its `source` and the user's message as its event (seed 000's KeyFact.source). Results
are small JSON objects: the model reads them, so they hold what it needs and no more.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memoir.agent.facts import closest_important
from memoir.agent.tools import Tool
from memoir.facade.engine import Memoir
from memoir.model.checks import MAX_ID_LENGTH
from memoir.model.limits import MAX_AROUND, MAX_K, MAX_QUERY_LENGTH, MAX_TOC_PAGE
from memoir.model.memory import MAX_CONTENT, Memory
from memoir.model.project import GLOBAL
from memoir.model.timeline import TocNode
from memoir.vault import MemoryDraft
from memoir.vault.book import MemoryNotFound
from memoir.vault.daily import MAX_ACTIVITY, MAX_TITLE, DailyNotes

__all__ = ["ToolScope", "builtin_tools"]

MAX_TEXT = 2_000  # characters of a hit or an event shown to the model: enough to answer, not to flood
# What a tool offers the model is a share of what the façade takes: a chat model's context is short
# (a small local model's especially), so fewer hits, turns and nodes come back than the façade
# allows. Never more: a call the schema lets the model make must not be refused
# (tests/doors/test_doors.py holds each to the façade's limit).
SEARCH_K = 5  # hits shown when the model names no number: the chat's own share, whatever search.top_k is
MAX_SEARCH_K = min(20, MAX_K)
MAX_QUERY = min(2_000, MAX_QUERY_LENGTH)  # a question the model writes, not a document
MAX_SHOWN_AROUND = min(20, MAX_AROUND)  # turns shown before and after a grip
MAX_NODES = min(100, MAX_TOC_PAGE)  # timeline nodes in one page


@dataclass
class ToolScope:
    """Where the built-in tools act: the chat's conversation, its agent, the turn's user message."""

    conversation_id: str
    agent_id: str | None = None
    facts_conversation: str = GLOBAL  # where `remember` keeps facts
    event_ids: Callable[[], tuple[str, ...]] = lambda: ()  # the user message the current turn answers
    clock: Callable[[], datetime] = field(default=lambda: datetime.now().astimezone())


def _short(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "…"


def _fact(memory: Memory) -> dict[str, Any]:
    return {"id": memory.id, "content": memory.content, "important": memory.important}


def _schema(required: tuple[str, ...] = (), **properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}


def _text(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


def _count(description: str, low: int, high: int) -> dict[str, Any]:
    return {"type": "integer", "description": description, "minimum": low, "maximum": high}


def builtin_tools(memoir: Memoir, scope: ToolScope) -> list[Tool]:
    """The seven built-in tools, acting on `memoir` within `scope`."""
    return [
        _remember(memoir, scope),
        _search(memoir, scope),
        _forget(memoir, scope),
        *_daily(memoir, scope),
        _timeline(memoir, scope),
        _expand(memoir, scope),
    ]


def _remember(memoir: Memoir, scope: ToolScope) -> Tool:
    def run(args: dict[str, Any]) -> dict[str, Any]:
        content, important = args["content"].strip(), bool(args.get("important", False))
        known = [
            m
            for conversation in dict.fromkeys([scope.facts_conversation, scope.conversation_id])
            for m in memoir.memories(conversation_id=conversation, agent_id=scope.agent_id)
        ]
        corrected = closest_important(content, known)
        events = scope.event_ids()
        if corrected is not None:
            new = memoir.correct(
                corrected.id, content, source=scope.conversation_id, event_ids=events, agent_id=scope.agent_id
            )
            return {**_fact(new), "action": "updated", "replaces": _fact(corrected)}
        tags = ("important",) if important else ()
        draft = MemoryDraft(
            content, conversation_id=scope.facts_conversation, tags=tags, event_ids=events, source=scope.conversation_id
        )
        kept = memoir.remember_many([draft], agent_id=scope.agent_id)[0]
        return {**_fact(kept), "action": "added"}

    return Tool(
        "remember",
        "Keep a fact about the user for later conversations. important: true for what should always be"
        " known (a preference, a name, a standing instruction). To correct a fact, remember the corrected"
        " sentence: it replaces the fact it corrects.",
        _schema(
            ("content",),
            content=_text("the fact, as one sentence", minLength=1, maxLength=MAX_CONTENT),
            important={"type": "boolean", "description": "always show this fact to the assistant"},
        ),
        run,
    )


def _search(memoir: Memoir, scope: ToolScope) -> Tool:
    def run(args: dict[str, Any]) -> list[dict[str, Any]]:
        hits = memoir.search(
            args["query"], k=args.get("k", SEARCH_K), conversation_id=scope.conversation_id, agent_id=scope.agent_id
        )
        return [
            {
                "text": _short(hit.text),
                "kind": hit.kind,
                "when": hit.created_at.isoformat(timespec="seconds"),
                "memory_id": hit.memory_id,
                "conversation_id": hit.conversation_id,
                **({"role": hit.role} if hit.role else {}),
            }
            for hit in hits
        ]

    return Tool(
        "search_memory",
        "Search long-term memory (facts and past conversations) for what answers a query.",
        _schema(
            ("query",),
            query=_text("what to look for", minLength=1, maxLength=MAX_QUERY),
            k=_count("how many hits", 1, MAX_SEARCH_K),
        ),
        run,
    )


def _forget(memoir: Memoir, scope: ToolScope) -> Tool:
    def run(args: dict[str, Any]) -> dict[str, Any]:
        versions = memoir.memory_history(args["memory_id"], agent_id=scope.agent_id)  # checks the id, and the agent
        # Only what this chat can search (its conversation and the facts it keeps): an id from anywhere
        # else is not a way into another conversation's memories. As if it did not exist, as for agents.
        if versions[0].conversation_id not in (scope.facts_conversation, scope.conversation_id):
            raise MemoryNotFound(versions[0].id)
        gone = memoir.forget(args["memory_id"], agent_id=scope.agent_id)
        return {"id": gone.id, "content": gone.content, "forgotten": True}

    return Tool(
        "forget",
        "Forget a memory by its id (from search_memory or the key facts), when the user asks to or it is wrong.",
        _schema(("memory_id",), memory_id=_text("the memory's id (26 characters)", minLength=1, maxLength=64)),
        run,
    )


def _daily(memoir: Memoir, scope: ToolScope) -> list[Tool]:
    notes = DailyNotes(memoir.vault_root)

    def write(args: dict[str, Any]) -> dict[str, Any]:
        note = notes.append(args["activity"], args.get("title"), now=scope.clock())
        return {"date": note.day.isoformat(), "path": str(note.path), "written": True}

    def read(args: dict[str, Any]) -> dict[str, Any]:
        note = notes.read(args.get("date"), now=scope.clock())
        if note.text is None:
            return {"date": note.day.isoformat(), "exists": False}
        return {"date": note.day.isoformat(), "exists": True, "path": str(note.path), "content": note.text}

    return [
        Tool(
            "write_daily_note",
            "Write an entry to today's daily log (an Obsidian daily note): an activity, with an optional title.",
            _schema(
                ("activity",),
                activity=_text("the activity or note to log", minLength=1, maxLength=MAX_ACTIVITY),
                title=_text("an optional title for the entry", maxLength=MAX_TITLE),
            ),
            write,
        ),
        Tool(
            "read_daily_note",
            "Read a day's daily log: today's, or the date given as YYYY-MM-DD.",
            _schema(date=_text("the day, YYYY-MM-DD (default: today)", pattern=r"^\d{4}-\d{2}-\d{2}$")),
            read,
        ),
    ]


def _node(node: TocNode) -> dict[str, Any]:
    return {
        "node_id": node.node_id,
        "conversation_id": node.conversation_id,
        "level": node.level.value,
        "title": node.title,
        "bullets": [{"text": b.text, "grip_ids": list(b.grip_ids)} for b in node.bullets],
        "has_children": bool(node.child_node_ids),
    }


def _timeline(memoir: Memoir, scope: ToolScope) -> Tool:
    def run(args: dict[str, Any]) -> dict[str, Any]:
        conversation = args.get("conversation_id")
        if args.get("node_id") is None:
            roots = memoir.toc_root(conversation, agent_id=scope.agent_id)
            return {"nodes": [_node(n) for n in roots]}
        paging = {name: args[name] for name in ("limit", "cursor") if name in args}  # else the façade's defaults
        page = memoir.browse_toc(args["node_id"], conversation_id=conversation, agent_id=scope.agent_id, **paging)
        return {"nodes": [_node(n) for n in page.nodes], "next_cursor": page.next_cursor}

    return Tool(
        "timeline",
        "Browse the timeline of past conversations: without node_id, the years; with a node's id, its"
        " children (months, weeks, days, segments), each with bullets whose grip_ids expand_grip opens.",
        _schema(
            node_id=_text("a node's id (toc:...), from an earlier answer", maxLength=MAX_ID_LENGTH),
            conversation_id=_text("the node's conversation, when several have it", maxLength=MAX_ID_LENGTH),
            limit=_count("children per page", 1, MAX_NODES),
            cursor=_text("next_cursor of the page before", maxLength=300),
        ),
        run,
    )


def _expand(memoir: Memoir, scope: ToolScope) -> Tool:
    def run(args: dict[str, Any]) -> dict[str, Any]:
        around = {name: args[name] for name in ("before", "after") if name in args}  # else the façade's defaults
        found = memoir.expand_grip(args["grip_id"], agent_id=scope.agent_id, **around)

        def turns(events: list[Any]) -> list[dict[str, str]]:
            return [
                {"role": e.role.value, "text": _short(e.text), "when": e.timestamp.isoformat(timespec="seconds")}
                for e in events
            ]

        return {
            "excerpt": found.grip.excerpt,
            "before": turns(found.events_before),
            "turns": turns(found.excerpt_events),
            "after": turns(found.events_after),
        }

    return Tool(
        "expand_grip",
        "Open a timeline bullet's grip: the turns it summarizes, with a few before and after.",
        _schema(
            ("grip_id",),
            grip_id=_text("the grip's id, from a bullet's grip_ids", minLength=1, maxLength=MAX_ID_LENGTH),
            before=_count("turns shown before", 0, MAX_SHOWN_AROUND),
            after=_count("turns shown after", 0, MAX_SHOWN_AROUND),
        ),
        run,
    )
