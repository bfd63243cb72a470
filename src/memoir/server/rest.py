"""The REST API under `/api/v1/`: one route per façade method, arguments by the same names.

GET and DELETE routes take the method's arguments as query parameters, POST routes as a
JSON body; answers are the JSON forms of `memoir.remote.wire`, which `MemoirClient` reads back
into the façade's own types. Bodies are checked for shape here (a 422 naming the field);
every rule about values is the façade's, so a call fails the same way embedded or served.
Routes are plain functions: FastAPI runs them on its thread pool, off the event loop.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

import memoir.remote.wire as wire
from memoir.facade.engine import Memoir
from memoir.model.limits import BUDGET_TOKENS

__all__ = ["create_router"]

Agent = Annotated[str | None, Query(description="the calling agent (unified mode); default: the configured one")]
Conversation = Annotated[str | None, Query(description="the conversation (default: every one the caller sees)")]
Time = str | int | None  # ISO 8601 text or epoch milliseconds


class EventBody(BaseModel):
    """An event as `Memoir.ingest` takes it."""

    model_config = ConfigDict(extra="allow")  # unknown fields reach the façade, which names them

    # Checked by the façade, like every value here, so a call fails the same way embedded or served.
    session_id: Any = Field(None, description="the session the event belongs to (required)")
    event_type: Any = Field(None, description="(required) user_message, assistant_message, tool_result, ...")
    text: Any = None
    role: Any = None
    timestamp: Any = Field(None, description="ISO 8601 or epoch milliseconds (default: now)")
    event_id: Any = Field(None, description="a ULID; sending the same event again stores it once")
    metadata: Any = None
    conversation_id: Any = None
    agent_id: Any = None


class EventBatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    events: list[dict[str, Any]] = Field(description="events as in POST /api/v1/events; all are checked first")
    agent_id: str | None = None


class SearchBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str
    k: int | None = None
    conversation_id: str | None = None
    kinds: list[str] | None = None
    since: Time = None
    until: Time = None
    agent_id: str | None = None
    as_of: Time = Field(default=None, description="what was known just before this moment (a time-travel read)")


class ContextBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str
    conversation_id: str | None = None
    budget_tokens: int = BUDGET_TOKENS
    agent_id: str | None = None
    top_k: int | None = None
    as_of: Time = Field(default=None, description="what was known just before this moment (a time-travel read)")


class CorrectionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    agent_id: str | None = None


class MemoryBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    kind: str = "fact"
    conversation_id: str | None = None
    tags: list[str] = Field(default_factory=list)
    severity: str | None = None
    agent_id: str | None = None


def create_router(memoir: Memoir) -> APIRouter:
    router = APIRouter(prefix="/api/v1")
    _event_routes(router, memoir)
    _memory_routes(router, memoir)
    _timeline_routes(router, memoir)
    _overview_routes(router, memoir)
    return router


def _event_routes(router: APIRouter, memoir: Memoir) -> None:
    @router.post("/events", tags=["events"], status_code=201)
    def ingest(event: EventBody, agent_id: Agent = None) -> dict[str, list[str]]:
        """Append one event durably; answers its id (the same id again for a retry)."""
        return {"event_ids": memoir.ingest(event.model_dump(exclude_unset=True), agent_id=agent_id)}

    @router.post("/events/batch", tags=["events"], status_code=201)
    def ingest_batch(batch: EventBatch) -> dict[str, list[str]]:
        """Append many events in one transaction; one bad event rejects the batch (`index` says which)."""
        return {"event_ids": memoir.ingest(batch.events, agent_id=batch.agent_id)}

    @router.get("/events", tags=["events"])
    def events(
        since: str | None = None,
        until: str | None = None,
        session_id: str | None = None,
        conversation_id: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        agent_id: Agent = None,
        all_agents: bool = False,
    ) -> dict[str, Any]:
        """Events in time order, a page at a time (`next_cursor` fetches the next)."""
        page = memoir.events(
            _time(since), _time(until), session_id, conversation_id, limit, cursor, agent_id, all_agents
        )
        return wire.event_page_to(page)

    @router.get("/events/{event_id}", tags=["events"])
    def get_event(event_id: str, agent_id: Agent = None) -> dict[str, Any]:
        return memoir.get_event(event_id, agent_id=agent_id).to_dict()

    @router.post("/search", tags=["search"])
    def search(body: SearchBody) -> dict[str, Any]:
        """The most relevant memories and turns, best first."""
        hits = memoir.search(**body.model_dump())
        return {"hits": [hit.to_dict() for hit in hits]}

    @router.post("/context", tags=["search"])
    def build_context(body: ContextBody) -> dict[str, Any]:
        """The memory block to put before a message: the memories that answer it."""
        return wire.context_to(memoir.build_context(**body.model_dump()))

    @router.get("/status", tags=["status"])
    def status() -> dict[str, Any]:
        return memoir.status().to_dict()


def _memory_routes(router: APIRouter, memoir: Memoir) -> None:
    @router.post("/memories", tags=["memories"], status_code=201)
    def remember(body: MemoryBody) -> dict[str, Any]:
        """Keep a memory (fact, gotcha, decision or learning); the same content again adds nothing."""
        return memoir.remember(**body.model_dump()).to_dict()

    @router.get("/memories", tags=["memories"])
    def memories(
        conversation_id: str | None = None,
        kind: str | None = None,
        include_deleted: bool = False,
        agent_id: Agent = None,
        all_agents: bool = False,
        newest: int | None = None,
    ) -> dict[str, Any]:
        found = memoir.memories(
            conversation_id, kind, include_deleted, agent_id=agent_id, all_agents=all_agents, newest=newest
        )
        return {"memories": [m.to_dict() for m in found]}

    @router.delete("/memories/{memory_id}", tags=["memories"])
    def forget(memory_id: str, agent_id: Agent = None) -> dict[str, Any]:
        """Soft-delete a memory; answers its tombstone."""
        return memoir.forget(memory_id, agent_id=agent_id).to_dict()

    @router.put("/memories/{memory_id}", tags=["memories"])
    def correct(memory_id: str, body: CorrectionBody) -> dict[str, Any]:
        """Replace a memory by its corrected text; answers the new version (the old one is its history)."""
        return memoir.correct(memory_id, body.text, agent_id=body.agent_id).to_dict()

    @router.get("/memories/{memory_id}/history", tags=["memories"])
    def memory_history(memory_id: str, agent_id: Agent = None) -> dict[str, Any]:
        """Every version of a memory, oldest first."""
        return {"memories": [m.to_dict() for m in memoir.memory_history(memory_id, agent_id=agent_id)]}


def _timeline_routes(router: APIRouter, memoir: Memoir) -> None:
    @router.get("/timeline", tags=["timeline"])
    def toc_root(conversation_id: Conversation = None, agent_id: Agent = None) -> dict[str, Any]:
        """The year nodes of the timeline."""
        return {"nodes": [n.to_dict() for n in memoir.toc_root(conversation_id, agent_id=agent_id)]}

    @router.get("/timeline/nodes/{node_id}", tags=["timeline"])
    def toc_node(
        node_id: str, version: int | None = None, conversation_id: Conversation = None, agent_id: Agent = None
    ) -> dict[str, Any]:
        return memoir.toc_node(node_id, version, conversation_id=conversation_id, agent_id=agent_id).to_dict()

    @router.get("/timeline/nodes/{node_id}/children", tags=["timeline"])
    def browse_toc(
        node_id: str,
        limit: int = 20,
        cursor: str | None = None,
        conversation_id: Conversation = None,
        agent_id: Agent = None,
    ) -> dict[str, Any]:
        """A node's children in time order, a page at a time."""
        page = memoir.browse_toc(node_id, limit, cursor, conversation_id=conversation_id, agent_id=agent_id)
        return wire.toc_page_to(page)

    @router.get("/grips/{grip_id}", tags=["timeline"])
    def expand_grip(grip_id: str, before: int = 3, after: int = 3, agent_id: Agent = None) -> dict[str, Any]:
        """The events a summary's grip stands on, with their neighbours."""
        return wire.grip_context_to(memoir.expand_grip(grip_id, before, after, agent_id=agent_id))

    @router.get("/scheduler", tags=["scheduler"])
    def scheduler_status() -> dict[str, Any]:
        return {"jobs": [job.to_dict() for job in memoir.scheduler_status()]}

    @router.post("/scheduler/{name}/pause", tags=["scheduler"])
    def pause_job(name: str) -> dict[str, str]:
        memoir.pause_job(name)
        return {"job": name, "state": "paused"}

    @router.post("/scheduler/{name}/resume", tags=["scheduler"])
    def resume_job(name: str) -> dict[str, str]:
        memoir.resume_job(name)
        return {"job": name, "state": "running"}


def _overview_routes(router: APIRouter, memoir: Memoir) -> None:
    @router.get("/conversations", tags=["status"])
    def conversations(agent_id: Agent = None) -> dict[str, Any]:
        """The conversations the caller sees, most recently active first."""
        return {"conversations": [c.to_dict() for c in memoir.conversations(agent_id=agent_id)]}

    @router.get("/conversations/{conversation_id}/activity", tags=["status"])
    def activity(conversation_id: str, agent_id: Agent = None) -> dict[str, Any]:
        """A conversation's events per day (UTC)."""
        return {"days": [day.to_dict() for day in memoir.activity(conversation_id, agent_id=agent_id)]}

    @router.get("/llm/ledger", tags=["status"])
    def llm_ledger(days: int = 30) -> dict[str, Any]:
        """What the model's calls cost, per day and job."""
        return {"days": [day.to_dict() for day in memoir.llm_ledger(days)]}

    @router.get("/doctor", tags=["status"])
    def doctor() -> dict[str, Any]:
        """Whether events, vault and index agree and the models work (read-only)."""
        return {"findings": [asdict(finding) for finding in memoir.doctor()]}


def _time(value: str | None) -> str | int | None:
    """A time bound from a query string: epoch milliseconds when it is all digits, else ISO text."""
    return int(value) if value is not None and value.isascii() and value.isdigit() and len(value) < 19 else value
