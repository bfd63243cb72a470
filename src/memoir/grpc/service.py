"""`MemoirServicer`: the `memoir.v1.MemoirService` RPCs, each one call of the `Memoir` façade.

The servicer holds no rules of its own. A request's fields become the façade's arguments
(an `optional` field left out is not passed, so the façade's default applies), and what
the façade returns becomes the response (`convert`). Scope travels per call: the
`conversation_id` and `agent_id` of each request go to the façade as they came.

Errors are translated at this one boundary (`rpc`): a `MemoirError` ends the call with a
status chosen by its class, its message as details (it names the field), and trailing
metadata `memoir-error` (the class name) and `memoir-field` (the field, when there is
one), so a client can tell a mistake from an outage without parsing text. Where a
façade argument and the proto field it came from differ in name (`before` and
`events_before`), the error names the proto field: the one the client can see. Anything
else is a bug of memoir: INTERNAL with a generic message, the traceback in the log.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import grpc

from memoir.errors import InvalidEvent, InvalidInput, MemoirError, answer_for
from memoir.facade.engine import Memoir
from memoir.grpc import memoir_pb2 as pb
from memoir.grpc import memoir_pb2_grpc as pb_grpc
from memoir.grpc.convert import (
    event_fields,
    event_message,
    event_messages,
    given,
    grip_context_message,
    hit_message,
    job_message,
    memory_message,
    node_message,
)

__all__ = ["MemoirServicer", "status_of"]

log = logging.getLogger("memoir.grpc")

Method = TypeVar("Method", bound=Callable[..., Any])

_INTERNAL_MESSAGE = "internal error in memoir: the server's log has the details"
_TIMES = {"since": "since_ms", "until": "until_ms"}  # the façade's time filters and their proto fields
_AS_OF = {"as_of": "as_of_ms"}


def status_of(error: MemoirError) -> Any:
    """The gRPC status code for a memoir error: `memoir.errors.answer_for`, the one table every door reads."""
    return getattr(grpc.StatusCode, answer_for(error).grpc)


def rpc(**renames: str) -> Callable[[Method], Method]:
    """Wrap an RPC method with the error boundary; `renames` maps façade argument names to
    the request's field names where they differ, so an error names what the client sent."""

    def decorate(method: Method) -> Method:
        @functools.wraps(method)
        def guarded(self: MemoirServicer, request: Any, context: Any) -> Any:
            try:
                return method(self, request, context)
            except MemoirError as exc:
                _refuse(context, _renamed(exc, renames))
            except Exception:  # a bug, not the caller's doing: keep its details out of the answer
                log.exception("gRPC %s failed", method.__name__)
                _abort(context, grpc.StatusCode.INTERNAL, _INTERNAL_MESSAGE)

        return guarded  # type: ignore[return-value]  # same signature as `method`

    return decorate


def _renamed(error: MemoirError, renames: dict[str, str]) -> MemoirError:
    if isinstance(error, InvalidInput) and error.field in renames:
        return type(error)(renames[error.field], error.reason, index=error.index)
    return error


def _refuse(context: Any, error: MemoirError) -> NoReturn:
    trailer = [("memoir-error", type(error).__name__)]
    field = getattr(error, "field", None)
    if isinstance(field, str):
        trailer.append(("memoir-field", _header_value(field)))
    context.set_trailing_metadata(tuple(trailer))
    _abort(context, status_of(error), str(error))


def _header_value(text: str) -> str:
    """Metadata values travel as HTTP/2 headers: printable ASCII only (a field may name a metadata key)."""
    return text if text.isascii() and text.isprintable() else ascii(text)


def _abort(context: Any, code: Any, message: str) -> NoReturn:
    context.abort(code, message)
    raise AssertionError("ServicerContext.abort returns only by raising")  # for the type checker


def present(message: Any, *names: str, **renamed: str) -> dict[str, Any]:
    """The façade's keyword arguments for the optional fields the sender gave: `names` where
    argument and field share their name, `renamed` as argument=field where they differ."""
    pairs = [*((name, name) for name in names), *renamed.items()]
    return {argument: getattr(message, field) for argument, field in pairs if message.HasField(field)}


class MemoirServicer(pb_grpc.MemoirServiceServicer):
    """The `memoir.v1.MemoirService` RPCs over one open `Memoir` (which the caller closes)."""

    def __init__(self, memoir: Memoir) -> None:
        self._memoir = memoir

    # -- the event log ------------------------------------------------------------------------

    @rpc(timestamp="timestamp_ms")
    def IngestEvent(self, request: pb.IngestEventRequest, context: Any) -> pb.IngestEventResponse:
        if not request.HasField("event"):
            raise InvalidEvent("event", "is required")
        event = event_fields(request.event, given(request, "conversation_id"))
        [event_id] = self._memoir.ingest(event, agent_id=given(request, "agent_id"))
        return pb.IngestEventResponse(event_id=event_id)

    @rpc(timestamp="timestamp_ms")
    def IngestEvents(self, request: pb.IngestEventsRequest, context: Any) -> pb.IngestEventsResponse:
        conversation = given(request, "conversation_id")
        events = [event_fields(event, conversation) for event in request.events]
        event_ids = self._memoir.ingest(events, agent_id=given(request, "agent_id"))
        return pb.IngestEventsResponse(event_ids=event_ids)

    @rpc(**_TIMES)
    def GetEvents(self, request: pb.GetEventsRequest, context: Any) -> pb.GetEventsResponse:
        arguments = present(request, "session_id", "conversation_id", "limit", "cursor", "agent_id", **_TIMES)
        page = self._memoir.events(**arguments)
        return pb.GetEventsResponse(events=event_messages(page), next_cursor=page.next_cursor)

    @rpc()
    def GetEvent(self, request: pb.GetEventRequest, context: Any) -> pb.GetEventResponse:
        event = self._memoir.get_event(request.event_id, **present(request, "agent_id"))
        return pb.GetEventResponse(event=event_message(event))

    # -- search ---------------------------------------------------------------------------------

    @rpc(**_TIMES, **_AS_OF)
    def Search(self, request: pb.SearchRequest, context: Any) -> pb.SearchResponse:
        kinds = list(request.kinds) or None  # a repeated field cannot be absent: empty means every kind
        arguments = present(request, "k", "conversation_id", "agent_id", **_TIMES, **_AS_OF)
        hits = self._memoir.search(request.query, kinds=kinds, **arguments)
        return pb.SearchResponse(hits=[hit_message(hit) for hit in hits])

    # -- memories -------------------------------------------------------------------------------

    @rpc()
    def Remember(self, request: pb.RememberRequest, context: Any) -> pb.RememberResponse:
        arguments = present(request, "kind", "conversation_id", "severity", "agent_id")
        memory = self._memoir.remember(request.text, tags=list(request.tags), **arguments)
        return pb.RememberResponse(memory=memory_message(memory))

    @rpc()
    def Forget(self, request: pb.ForgetRequest, context: Any) -> pb.ForgetResponse:
        tombstone = self._memoir.forget(request.memory_id, **present(request, "agent_id"))
        return pb.ForgetResponse(memory=memory_message(tombstone))

    @rpc()
    def ListMemories(self, request: pb.ListMemoriesRequest, context: Any) -> pb.ListMemoriesResponse:
        arguments = present(request, "conversation_id", "kind", "include_deleted", "agent_id", "all_agents")
        return pb.ListMemoriesResponse(memories=[memory_message(m) for m in self._memoir.memories(**arguments)])

    # -- the timeline ---------------------------------------------------------------------------

    @rpc()
    def GetTocRoot(self, request: pb.GetTocRootRequest, context: Any) -> pb.GetTocRootResponse:
        nodes = self._memoir.toc_root(**present(request, "conversation_id", "agent_id"))
        return pb.GetTocRootResponse(nodes=[node_message(node) for node in nodes])

    @rpc()
    def GetNode(self, request: pb.GetNodeRequest, context: Any) -> pb.GetNodeResponse:
        arguments = present(request, "version", "conversation_id", "agent_id")
        node = self._memoir.toc_node(request.node_id, **arguments)
        return pb.GetNodeResponse(node=node_message(node))

    @rpc(cursor="continuation_token")
    def BrowseToc(self, request: pb.BrowseTocRequest, context: Any) -> pb.BrowseTocResponse:
        arguments = present(request, "limit", "conversation_id", "agent_id", cursor="continuation_token")
        page = self._memoir.browse_toc(request.parent_id, **arguments)
        nodes = [node_message(node) for node in page.nodes]
        return pb.BrowseTocResponse(nodes=nodes, continuation_token=page.next_cursor, has_more=page.has_more)

    @rpc(before="events_before", after="events_after")
    def ExpandGrip(self, request: pb.ExpandGripRequest, context: Any) -> pb.ExpandGripResponse:
        arguments = present(request, "agent_id", before="events_before", after="events_after")
        return grip_context_message(self._memoir.expand_grip(request.grip_id, **arguments))

    # -- the scheduler --------------------------------------------------------------------------

    @rpc()
    def GetSchedulerStatus(self, request: pb.GetSchedulerStatusRequest, context: Any) -> pb.GetSchedulerStatusResponse:
        return pb.GetSchedulerStatusResponse(jobs=[job_message(job) for job in self._memoir.scheduler_status()])

    @rpc()
    def PauseJob(self, request: pb.PauseJobRequest, context: Any) -> pb.PauseJobResponse:
        self._memoir.pause_job(request.name)
        return pb.PauseJobResponse(name=request.name, paused=True)

    @rpc()
    def ResumeJob(self, request: pb.ResumeJobRequest, context: Any) -> pb.ResumeJobResponse:
        self._memoir.resume_job(request.name)
        return pb.ResumeJobResponse(name=request.name, paused=False)
