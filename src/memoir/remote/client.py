"""`MemoirClient`: the façade's methods over a memoir server's REST API.

The same names, arguments and return types as `Memoir`, so moving from an embedded home
to a shared server changes one line:

    memoir = Memoir.open()                                  # embedded
    memoir = MemoirClient("http://127.0.0.1:8765")          # served (`memoir serve`)

Errors come back as the same `MemoirError` classes with the same messages; a server that
cannot be reached is `ServerUnavailable`. The client holds a connection pool: close it
(or use it in a `with` block) when done.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from types import TracebackType
from typing import Any
from urllib.parse import quote

import httpx

import memoir.remote.wire as wire
from memoir.errors import InvalidInput, InvalidQuery, ServerUnavailable, no_answer
from memoir.facade.doctor import Finding
from memoir.facade.overview import ConversationInfo, DayCount, LedgerDay
from memoir.facade.views import EventPage, Status
from memoir.http import model_client
from memoir.model import Event, Memory
from memoir.model.checks import brief
from memoir.model.limits import BUDGET_TOKENS
from memoir.model.timeline import GripContext, TocNode, TocPage
from memoir.remote.api import EventLike, MemoirAPI
from memoir.retrieval import Context, Hit, TimeLike
from memoir.workers.scheduler import JobStatus

__all__ = ["MemoirAPI", "MemoirClient"]  # MemoirAPI from memoir.remote.api, where it is written


class MemoirClient:
    """A memoir server's memory, called like a local `Memoir`."""

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8765",
        api_key: str | None = None,
        *,
        timeout: float = 60.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise InvalidQuery("base_url", f"{brief(base_url)} is not an http:// or https:// URL")
        root = base_url.rstrip("/").removesuffix("/api/v1").removesuffix("/v1")
        self.base_url = root
        self._http = model_client(root + "/api/v1", api_key=api_key, timeout=timeout, transport=transport)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> MemoirClient:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- events -----------------------------------------------------------------------------

    def ingest(self, event_or_events: EventLike | Iterable[EventLike], *, agent_id: str | None = None) -> list[str]:
        if isinstance(event_or_events, Event | Mapping):
            answer = self._call("POST", "events", json=_event(event_or_events), params=_params(agent_id=agent_id))
        else:
            given: object = event_or_events
            if isinstance(given, str | bytes) or not isinstance(given, Iterable):
                raise InvalidQuery("events", f"expected an event or a list of events, got {brief(event_or_events)}")
            batch = {"events": [_event(e) for e in event_or_events], "agent_id": agent_id}
            answer = self._call("POST", "events/batch", json=batch)
        return list(answer["event_ids"])

    def events(
        self,
        since: TimeLike | None = None,
        until: TimeLike | None = None,
        session_id: str | None = None,
        conversation_id: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        agent_id: str | None = None,
        all_agents: bool = False,
    ) -> EventPage:
        params = _params(
            since=_time(since), until=_time(until), session_id=session_id, conversation_id=conversation_id,
            limit=limit, cursor=cursor, agent_id=agent_id, all_agents=all_agents,
        )  # fmt: skip
        return wire.event_page_from(self._call("GET", "events", params=params))

    def get_event(self, event_id: str, *, agent_id: str | None = None) -> Event:
        path = f"events/{_segment('event_id', event_id)}"
        return Event.from_dict(self._call("GET", path, params=_params(agent_id=agent_id)))

    # -- search -----------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        conversation_id: str | None = None,
        kinds: Iterable[str] | None = None,
        since: TimeLike | None = None,
        until: TimeLike | None = None,
        agent_id: str | None = None,
        as_of: TimeLike | None = None,
    ) -> list[Hit]:
        body = {
            "query": query, "k": k, "conversation_id": conversation_id,
            "kinds": None if kinds is None else _listed("kinds", kinds), "since": _time(since),
            "until": _time(until), "agent_id": agent_id, "as_of": _time(as_of),
        }  # fmt: skip
        return [wire.hit_from(h) for h in self._call("POST", "search", json=body)["hits"]]

    def build_context(
        self,
        query: str,
        *,
        conversation_id: str | None = None,
        budget_tokens: int = BUDGET_TOKENS,
        agent_id: str | None = None,
        top_k: int | None = None,
        as_of: TimeLike | None = None,
    ) -> Context:
        body = {
            "query": query, "conversation_id": conversation_id, "budget_tokens": budget_tokens,
            "agent_id": agent_id, "top_k": top_k, "as_of": _time(as_of),
        }  # fmt: skip
        return wire.context_from(self._call("POST", "context", json=body))

    # -- memories ---------------------------------------------------------------------------

    def remember(
        self,
        text: str,
        *,
        kind: str = "fact",
        conversation_id: str | None = None,
        tags: Iterable[str] = (),
        severity: str | None = None,
        agent_id: str | None = None,
    ) -> Memory:
        body = {
            "text": text, "kind": kind, "conversation_id": conversation_id, "tags": _listed("tags", tags),
            "severity": severity, "agent_id": agent_id,
        }  # fmt: skip
        return wire.memory_from(self._call("POST", "memories", json=body))

    def forget(self, memory_id: str, *, agent_id: str | None = None) -> Memory:
        path = f"memories/{_segment('memory_id', memory_id)}"
        return wire.memory_from(self._call("DELETE", path, params=_params(agent_id=agent_id)))

    def memories(
        self,
        conversation_id: str | None = None,
        kind: str | None = None,
        include_deleted: bool = False,
        *,
        agent_id: str | None = None,
        all_agents: bool = False,
    ) -> list[Memory]:
        params = _params(
            conversation_id=conversation_id, kind=kind, include_deleted=include_deleted, agent_id=agent_id,
            all_agents=all_agents,
        )  # fmt: skip
        return [wire.memory_from(m) for m in self._call("GET", "memories", params=params)["memories"]]

    def correct(self, memory_id: str, text: str, *, agent_id: str | None = None) -> Memory:
        body = {"text": text, "agent_id": agent_id}
        return wire.memory_from(self._call("PUT", f"memories/{_segment('memory_id', memory_id)}", json=body))

    def memory_history(self, memory_id: str, *, agent_id: str | None = None) -> list[Memory]:
        path = f"memories/{_segment('memory_id', memory_id)}/history"
        found = self._call("GET", path, params=_params(agent_id=agent_id))["memories"]
        return [wire.memory_from(m) for m in found]

    # -- the timeline and the scheduler -------------------------------------------------------

    def toc_root(self, conversation_id: str | None = None, *, agent_id: str | None = None) -> list[TocNode]:
        found = self._call("GET", "timeline", params=_params(conversation_id=conversation_id, agent_id=agent_id))
        return [wire.toc_node_from(n) for n in found["nodes"]]

    def toc_node(
        self,
        node_id: str,
        version: int | None = None,
        *,
        conversation_id: str | None = None,
        agent_id: str | None = None,
    ) -> TocNode:
        params = _params(version=version, conversation_id=conversation_id, agent_id=agent_id)
        return wire.toc_node_from(self._call("GET", f"timeline/nodes/{_segment('node_id', node_id)}", params=params))

    def browse_toc(
        self,
        parent_id: str,
        limit: int = 20,
        cursor: str | None = None,
        *,
        conversation_id: str | None = None,
        agent_id: str | None = None,
    ) -> TocPage:
        params = _params(limit=limit, cursor=cursor, conversation_id=conversation_id, agent_id=agent_id)
        path = f"timeline/nodes/{_segment('parent_id', parent_id)}/children"
        return wire.toc_page_from(self._call("GET", path, params=params))

    def expand_grip(self, grip_id: str, before: int = 3, after: int = 3, *, agent_id: str | None = None) -> GripContext:
        params = _params(before=before, after=after, agent_id=agent_id)
        return wire.grip_context_from(self._call("GET", f"grips/{_segment('grip_id', grip_id)}", params=params))

    def scheduler_status(self) -> list[JobStatus]:
        return [wire.job_status_from(j) for j in self._call("GET", "scheduler")["jobs"]]

    def pause_job(self, name: str) -> None:
        self._call("POST", f"scheduler/{_segment('name', name)}/pause")

    def resume_job(self, name: str) -> None:
        self._call("POST", f"scheduler/{_segment('name', name)}/resume")

    def status(self) -> Status:
        return wire.status_from(self._call("GET", "status"))

    # -- the overview -------------------------------------------------------------------------

    def conversations(self, *, agent_id: str | None = None) -> list[ConversationInfo]:
        found = self._call("GET", "conversations", params=_params(agent_id=agent_id))["conversations"]
        return [wire.conversation_from(c) for c in found]

    def activity(self, conversation_id: str, *, agent_id: str | None = None) -> list[DayCount]:
        path = f"conversations/{_segment('conversation_id', conversation_id)}/activity"
        return [wire.day_count_from(d) for d in self._call("GET", path, params=_params(agent_id=agent_id))["days"]]

    def llm_ledger(self, days: int = 30) -> list[LedgerDay]:
        return [wire.ledger_day_from(d) for d in self._call("GET", "llm/ledger", params=_params(days=days))["days"]]

    def doctor(self) -> list[Finding]:
        return [wire.finding_from(f) for f in self._call("GET", "doctor")["findings"]]

    # -- the wire -------------------------------------------------------------------------------

    def _call(self, method: str, path: str, **request: Any) -> Any:
        if "json" in request:  # datetimes and tuples a caller passes become their JSON forms here
            try:
                request["content"] = json.dumps(request.pop("json"), default=_jsonable).encode()
            except (TypeError, ValueError) as exc:
                raise InvalidInput("body", f"cannot be sent as JSON: {exc}") from None
            request["headers"] = {"Content-Type": "application/json"}
        try:
            answer = self._http.request(method, path, **request)
        except httpx.HTTPError as exc:
            where = f"the memoir server at {self.base_url}"
            raise ServerUnavailable(no_answer(where, exc, "is `memoir serve` running?")) from None
        try:
            body = answer.json()
        except ValueError:
            raise ServerUnavailable(
                f"{self.base_url} answered {answer.status_code} with something else than JSON: is it a memoir server?"
            ) from None
        if answer.is_success:
            return body
        raise wire.error_from(body, answer.status_code)


def _event(event: Any) -> Any:
    return event.to_dict() if isinstance(event, Event) else event


def _time(value: TimeLike | None) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _listed(field: str, values: Any) -> Any:
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        return values  # the server refuses it, naming the field, as the façade would
    return list(values)


def _segment(field: str, value: object) -> str:
    """An id as one path segment (grip and node ids hold colons, any id may hold a slash)."""
    if not isinstance(value, str) or not value:
        raise InvalidQuery(field, f"expected an id, got {brief(value)}")
    return quote(value, safe="")


def _params(**values: Any) -> dict[str, Any]:
    """Query parameters: None left out, booleans as `true`/`false`."""
    return {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in values.items() if v is not None}


def _jsonable(value: object) -> object:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON")
