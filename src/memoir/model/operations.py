"""Which door offers each operation of the façade, by the name it has there.

The façade (`Memoir`) defines each operation once; every door is an adapter over it, named
in its own idiom (`search` is `POST /api/v1/search`, the RPC `Search`, the MCP tool
`search_memory`, `memoir search`). This table is the one list of those names: a test checks
that each door really offers what it says (the REST routes, the gRPC service, the MCP
tools, the CLI's commands, `MemoirClient`'s methods) and that docs/design.md shows
`operations_table()`. `None`: the door does not offer it, on purpose (a reason is given in
docs/design.md), so adding a door or an operation means filling its row here.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DOORS", "OPERATIONS", "Operation", "operations_table"]


@dataclass(frozen=True)
class Operation:
    name: str  # the façade's method
    client: str | None  # MemoirClient's method
    rest: str | None  # "METHOD /path"
    grpc: str | None  # the RPC of memoir.v1.MemoirService
    mcp: str | None  # the MCP tool
    cli: str | None  # the `memoir` command


DOORS = ("client", "rest", "grpc", "mcp", "cli")

OPERATIONS: tuple[Operation, ...] = (
    Operation("ingest", "ingest", "POST /api/v1/events", "IngestEvent", None, "ingest"),
    Operation("events", "events", "GET /api/v1/events", "GetEvents", None, "events"),
    Operation("get_event", "get_event", "GET /api/v1/events/{event_id}", "GetEvent", None, "show"),
    Operation("search", "search", "POST /api/v1/search", "Search", "search_memory", "search"),
    Operation("build_context", "build_context", "POST /api/v1/context", None, "build_context", None),
    Operation("remember", "remember", "POST /api/v1/memories", "Remember", "remember", "remember"),
    Operation("forget", "forget", "DELETE /api/v1/memories/{memory_id}", "Forget", "forget", "forget"),
    Operation("memories", "memories", "GET /api/v1/memories", "ListMemories", "list_memories", "memories"),
    Operation("memory_history", "memory_history", "GET /api/v1/memories/{memory_id}/history", None, None, "memories"),
    Operation("toc_root", "toc_root", "GET /api/v1/timeline", "GetTocRoot", "timeline", "timeline"),
    Operation("toc_node", "toc_node", "GET /api/v1/timeline/nodes/{node_id}", "GetNode", "timeline", "timeline"),
    Operation(
        "browse_toc", "browse_toc", "GET /api/v1/timeline/nodes/{node_id}/children", "BrowseToc", "timeline", None
    ),
    Operation("expand_grip", "expand_grip", "GET /api/v1/grips/{grip_id}", "ExpandGrip", "expand_grip", "expand"),
    Operation("scheduler_status", "scheduler_status", "GET /api/v1/scheduler", "GetSchedulerStatus", None, "scheduler"),
    Operation("pause_job", "pause_job", "POST /api/v1/scheduler/{name}/pause", "PauseJob", None, "scheduler"),
    Operation("resume_job", "resume_job", "POST /api/v1/scheduler/{name}/resume", "ResumeJob", None, "scheduler"),
    Operation("status", "status", "GET /api/v1/status", None, None, "status"),
    Operation("correct", "correct", "PUT /api/v1/memories/{memory_id}", None, None, "correct"),
    Operation("conversations", "conversations", "GET /api/v1/conversations", None, None, "conversations"),
    Operation(
        "activity", "activity", "GET /api/v1/conversations/{conversation_id}/activity", None, None, "conversations"
    ),
    Operation("llm_ledger", "llm_ledger", "GET /api/v1/llm/ledger", None, None, "ledger"),
    Operation("doctor", "doctor", "GET /api/v1/doctor", None, None, "doctor"),
)


def operations_table() -> str:
    """The table as docs/design.md shows it (Markdown)."""
    head = "| operation | `MemoirClient` | REST | gRPC | MCP tool | CLI |\n|---|---|---|---|---|---|"
    rows = [
        "| "
        + " | ".join(f"`{value}`" if value else "—" for value in (op.name, *(getattr(op, d) for d in DOORS)))
        + " |"
        for op in OPERATIONS
    ]
    return "\n".join([head, *rows])
