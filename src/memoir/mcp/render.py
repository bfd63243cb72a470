"""The text half of each tool result: what a model reads (the structured half is `memoir.remote.wire`'s JSON).

Plain lines rather than tables or Markdown: a model reads them as they are, and every id it
may pass to another tool (a memory to forget, a node to open, a grip to expand) is printed
whole next to what it names.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from memoir.model import Event, Memory
from memoir.model.timeline import GripContext, TocNode
from memoir.model.wording import counted
from memoir.retrieval import Hit

__all__ = ["grip_text", "hits_text", "memories_text", "memory_line", "nodes_text"]


def hits_text(query: str, hits: Sequence[Hit], scope: str) -> str:
    if not hits:
        return (
            f"no memories or turns in {scope} (and global) match {query!r}: try other words, "
            "or pass conversation_id to look in another conversation"
        )
    lines = [f"{counted(len(hits), 'hit')} for {query!r} in {scope} (and global), best first:"]
    for number, hit in enumerate(hits, start=1):
        label = hit.kind if hit.kind != "turn" else f"turn, {hit.role or 'unknown role'}"
        where = f"memory {hit.memory_id}" if hit.memory_id else f"session {hit.session_id}"
        lines.append(f"{number}. [{label}] {hit.text}")
        events = f", events {', '.join(hit.event_ids)}" if hit.event_ids else ""
        lines.append(f"   score {hit.score:.2f}, {_day(hit.created_at)}, {where}{events}")
    return "\n".join(lines)


def memory_line(memory: Memory) -> str:
    tags = f" tags: {', '.join(memory.tags)};" if memory.tags else ""
    severity = f" severity {memory.severity.value};" if memory.severity else ""
    deleted = " (forgotten)" if memory.deleted_at else ""
    when = _day(memory.created_at)
    return f"[{memory.kind.value}] {memory.content} (id {memory.id};{tags}{severity} {when}){deleted}"


def memories_text(memories: Sequence[Memory], total: int, scope: str) -> str:
    if not memories:
        wider = "" if scope == "every conversation" else ": leave out conversation_id to list every conversation"
        return f"no memories in {scope}{wider}"
    head = f"{counted(total, 'memory')} in {scope}" + (
        f", the newest {len(memories)}:" if total > len(memories) else ":"
    )
    return "\n".join([head, *(f"- {memory_line(m)}" for m in memories)])


def nodes_text(parent: TocNode | None, nodes: Sequence[TocNode], next_cursor: str | None, scope: str) -> str:
    lines = [_node(parent), ""] if parent else []
    if not nodes:
        lines.append("no children" if parent else f"no timeline in {scope} yet (it is built as conversations age)")
    for node in nodes:
        lines.append(_node(node))
    if next_cursor:
        lines.append(f"more: pass cursor {next_cursor!r}")
    return "\n".join(lines).strip()


def grip_text(found: GripContext) -> str:
    grip = found.grip
    lines = [f"grip {grip.grip_id}: {grip.excerpt!r}", ""]
    lines += [_event("  ", e) for e in found.events_before]
    lines += [_event("> ", e) for e in found.excerpt_events]
    lines += [_event("  ", e) for e in found.events_after]
    return "\n".join(lines)


def _node(node: TocNode) -> str:
    span = f"{_day(node.start_time)} to {_day(node.end_time)}"
    children = f", {counted(len(node.child_node_ids), 'child', 'children')}" if node.child_node_ids else ""
    lines = [f"{node.node_id} [{node.level.value}] {node.title} ({span}{children})"]
    for bullet in node.bullets:
        grips = f"  (grips: {', '.join(bullet.grip_ids)})" if bullet.grip_ids else ""
        lines.append(f"  - {bullet.text}{grips}")
    return "\n".join(lines)


def _event(mark: str, event: Event) -> str:
    return f"{mark}[{event.role.value}] {event.text} ({event.event_id})"


def _day(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")
