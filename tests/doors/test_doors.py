"""Every door offers each operation under the name `memoir.model.operations` gives it.

The table is the one list; this test reads each door's own description of itself (the REST
app's routes, the gRPC service descriptor, the MCP server's tools, the CLI's commands,
`MemoirClient`'s methods) and the façade's methods, and fails on any disagreement, so a
door cannot quietly lack an operation or offer one the table does not know. Each door's
defaults and limits are the façade's too: REST's, MCP's and the CLI's as they describe them,
the chat agent's tools and the gRPC servicer by what reaches the façade when a caller gives
nothing (a tool may offer a model less than the façade takes, on purpose and said why).
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import anyio
import typer

from memoir import Memoir, MemoirClient
from memoir.agent import ToolScope, builtin_tools
from memoir.cli.app import app as cli_app
from memoir.errors import MemoirError
from memoir.grpc import memoir_pb2 as pb
from memoir.grpc.service import MemoirServicer
from memoir.mcp.server import build_server
from memoir.model.checks import MAX_ID_LENGTH
from memoir.model.limits import MAX_AROUND, MAX_K, MAX_QUERY_LENGTH, MAX_TOC_PAGE
from memoir.model.memory import MAX_CONTENT
from memoir.model.operations import OPERATIONS, operations_table
from memoir.server.app import create_app
from memoir.vault.daily import MAX_ACTIVITY, MAX_TITLE

DESIGN = Path(__file__).resolve().parents[2] / "docs" / "design.md"


def test_each_operation_is_a_method_of_the_facade_and_the_client() -> None:
    for op in OPERATIONS:
        assert callable(getattr(Memoir, op.name, None)), op.name
        if op.client:
            assert callable(getattr(MemoirClient, op.client, None)), op.client


def test_each_door_offers_what_the_table_says_and_nothing_it_does_not_know(
    open_memoir: Callable[..., Memoir],
) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    document = create_app(memoir).openapi()
    routes = {f"{m.upper()} {path}" for path, ops in document["paths"].items() for m in ops if path.startswith("/api")}
    rpcs = {m.name for m in pb.DESCRIPTOR.services_by_name["MemoirService"].methods}
    tools = {t.name for t in anyio.run(build_server(memoir).list_tools)}
    commands = set(typer.main.get_command(cli_app).commands)  # type: ignore[attr-defined]

    for door, offered in (("rest", routes), ("grpc", rpcs), ("mcp", tools), ("cli", commands)):
        named = {getattr(op, door) for op in OPERATIONS if getattr(op, door)}
        assert named <= offered, f"{door} lacks {sorted(named - offered)}"
    # the other way round for the doors that are nothing but the façade's operations
    batch = {"POST /api/v1/events/batch"}  # ingest, many at once
    assert routes - batch == {op.rest for op in OPERATIONS if op.rest}
    assert rpcs - {"IngestEvents"} == {op.grpc for op in OPERATIONS if op.grpc}
    assert tools == {op.mcp for op in OPERATIONS if op.mcp}


def test_the_design_doc_shows_the_table() -> None:
    assert operations_table() in DESIGN.read_text()


# -- each parameter once: the façade's signature is the declaration every door repeats ----------

EMPTY: tuple[object, ...] = (None, (), [])  # "none given": the same default whichever a door writes
# A door's own name for a façade parameter (the CLI's options are short; MCP's conversation).
ALIASES = {"conversation": "conversation_id", "agent": "agent_id", "deleted": "include_deleted"}


def facade_defaults(name: str) -> dict[str, object]:
    signature = inspect.signature(getattr(Memoir, name))
    return {
        p.name: p.default
        for p in signature.parameters.values()
        if p.name != "self" and p.default is not inspect.Parameter.empty
    }


def same_default(ours: object, theirs: object) -> bool:
    return ours == theirs or (ours in EMPTY and theirs in EMPTY)


def rest_defaults(document: dict[str, Any], route: str) -> dict[str, object]:
    method, path = route.split(" ", 1)
    operation = document["paths"][path][method.lower()]
    found = {p["name"]: p.get("schema", {}).get("default") for p in operation.get("parameters", [])}
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if body is not None:
        schema = document["components"]["schemas"][body["$ref"].rsplit("/", 1)[-1]] if "$ref" in body else body
        found |= {name: prop.get("default") for name, prop in schema.get("properties", {}).items()}
    return found


def test_every_door_takes_the_facades_parameters_with_its_defaults(open_memoir: Callable[..., Memoir]) -> None:
    """A default written at a door and not taken from the façade drifts: REST's, MCP's and the CLI's
    defaults are the façade's (an empty list, an empty tuple and None all mean none given)."""
    memoir = open_memoir(embedding_provider="hashing")
    document = create_app(memoir).openapi()
    tools = {t.name: t.input_schema for t in anyio.run(build_server(memoir).list_tools)}
    commands = typer.main.get_command(cli_app).commands  # type: ignore[attr-defined]
    disagreements, compared = [], 0
    for op in OPERATIONS:
        ours = facade_defaults(op.name)
        offered: dict[str, dict[str, object]] = {}
        if op.rest:
            offered["rest"] = rest_defaults(document, op.rest)
        if op.mcp and op.name != "toc_node":  # the timeline tool opens nodes and years alike
            offered["mcp"] = {k: v.get("default") for k, v in tools[op.mcp].get("properties", {}).items()}
        if op.cli and op.cli in commands and op.cli not in ("memories", "timeline", "scheduler"):
            params = commands[op.cli].params
            offered["cli"] = {ALIASES.get(p.name, p.name): p.default for p in params if not p.required}
        for door, given in offered.items():
            for name, default in given.items():
                if name in ours:
                    compared += 1
                    if not same_default(ours[name], default):
                        disagreements.append(f"{door} {op.name}({name}={default!r}), the façade's is {ours[name]!r}")
    assert disagreements == []
    assert compared > 40, compared  # the doors were read, not skipped


# -- the doors no table lists: the chat agent's tools and the gRPC servicer ---------------------


class Recording:
    """The façade, noting each call's arguments as the method sees them (its defaults filled in)."""

    def __init__(self, memoir: Memoir) -> None:
        self.memoir = memoir
        self.calls: list[tuple[str, dict[str, object]]] = []

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.memoir, name)
        if name.startswith("_") or not inspect.ismethod(found):
            return found

        def call(*args: Any, **kwargs: Any) -> Any:
            bound = inspect.signature(found).bind(*args, **kwargs)
            bound.apply_defaults()
            self.calls.append((name, dict(bound.arguments)))
            return found(*args, **kwargs)

        return call


def differing_defaults(calls: list[tuple[str, dict[str, object]]], given: set[str]) -> list[str]:
    """The façade parameters a door passed a value of its own for, though its caller gave none."""
    return [
        f"{method}({name}={used!r}), the façade's is {default!r}"
        for method, arguments in calls
        for name, default in facade_defaults(method).items()
        if name not in given and not same_default(default, used := arguments[name])
    ]


# Each bound a built-in tool's schema sets, and the façade's limit on the same value. A tool may offer
# the model less than the façade takes, on purpose: its answers go into a chat model's context, which
# is short (a small local model's especially), and a model asks for what it is offered. It must never
# offer more: a call its schema allows would be refused by the façade.
TOOL_BOUNDS: dict[tuple[str, str, str], tuple[int, str | None]] = {
    # (tool, argument, keyword): (the façade's limit, why the tool's is smaller; None: it is the same)
    ("remember", "content", "maxLength"): (MAX_CONTENT, None),
    ("search_memory", "query", "maxLength"): (MAX_QUERY_LENGTH, "a question a model writes, not a document"),
    ("search_memory", "k", "minimum"): (1, None),
    ("search_memory", "k", "maximum"): (MAX_K, "20 hits of 2,000 characters already fill a small context"),
    ("forget", "memory_id", "maxLength"): (MAX_ID_LENGTH, "memory ids are 26-character ULIDs"),
    ("write_daily_note", "activity", "maxLength"): (MAX_ACTIVITY, None),
    ("write_daily_note", "title", "maxLength"): (MAX_TITLE, None),
    ("timeline", "node_id", "maxLength"): (MAX_ID_LENGTH, None),
    ("timeline", "conversation_id", "maxLength"): (MAX_ID_LENGTH, None),
    ("timeline", "limit", "minimum"): (1, None),
    ("timeline", "limit", "maximum"): (MAX_TOC_PAGE, "a page of 100 nodes with their bullets is plenty to read"),
    ("expand_grip", "grip_id", "maxLength"): (MAX_ID_LENGTH, None),
    ("expand_grip", "before", "minimum"): (0, None),
    ("expand_grip", "before", "maximum"): (MAX_AROUND, "the turns around an excerpt, not the session"),
    ("expand_grip", "after", "minimum"): (0, None),
    ("expand_grip", "after", "maximum"): (MAX_AROUND, "the turns around an excerpt, not the session"),
}
# A text the façade hands out and takes back, without a limit of its own: the tool takes the longest it makes.
HANDED_BACK = {("timeline", "cursor", "maxLength"): len("9999999999999:") + MAX_ID_LENGTH}  # ms:node id
# A value a tool uses when the model gives none, where it is not the façade's default, and why.
TOOL_DEFAULTS = {("search_memory", "k"): "the chat's own share of hits, whatever search.top_k gives other callers"}


def agent_tools(memoir: Memoir) -> dict[str, Any]:
    return {tool.name: tool for tool in builtin_tools(memoir, ToolScope("chat"))}


def test_the_agents_tools_offer_the_model_the_facades_limits_or_less_on_purpose(memoir: Memoir) -> None:
    bounds = {
        (tool.name, argument, keyword): value
        for tool in agent_tools(memoir).values()
        for argument, schema in tool.parameters["properties"].items()
        for keyword, value in schema.items()
        if keyword in ("minimum", "maximum", "maxLength")
    }
    assert set(bounds) == set(TOOL_BOUNDS) | set(HANDED_BACK)  # every bound is stated here, with the façade's
    for key, longest in HANDED_BACK.items():
        assert bounds.pop(key) >= longest, key
    for key, offered in bounds.items():
        limit, why = TOOL_BOUNDS[key]
        if key[2] == "minimum":
            assert offered == limit, key  # a smaller one would offer what the façade refuses
        elif why is None:
            assert offered == limit, key
        else:
            assert 1 <= offered < limit, (key, why)


def test_the_agents_tools_leave_the_facades_defaults_to_it(memoir: Memoir) -> None:
    """A tool called with the least it needs: every façade parameter the model could have given arrives
    at the façade's default, but for the deliberate ones (`TOOL_DEFAULTS`), which stay in range."""
    recording = Recording(memoir)
    tools = agent_tools(cast(Memoir, recording))
    calls = [
        ("search_memory", {"query": "the deploy key"}),
        ("timeline", {}),
        ("timeline", {"node_id": "toc:year:2026"}),
        ("expand_grip", {"grip_id": "grip:1:abc"}),
    ]
    for name, arguments in calls:
        recording.calls.clear()
        with contextlib.suppress(MemoirError):  # no such node or grip: the façade was called all the same
            tools[name].execute(arguments)
        assert recording.calls, name
        offered = set(tools[name].parameters["properties"])
        deliberate = {argument for tool, argument in TOOL_DEFAULTS if tool == name}
        # what the model cannot set is the chat's scope (its conversation, its agent), not a default
        beyond = {p for method, _ in recording.calls for p in facade_defaults(method)} - offered
        assert differing_defaults(recording.calls, set(arguments) | deliberate | beyond) == [], name
    recording.calls.clear()
    tools["search_memory"].execute({"query": "the deploy key"})
    [(_, used)] = recording.calls
    assert 1 <= cast(int, used["k"]) <= tools["search_memory"].parameters["properties"]["k"]["maximum"] <= MAX_K


def test_the_grpc_servicer_leaves_an_unset_field_to_the_facades_default(memoir: Memoir) -> None:
    """Each RPC with only its required fields set (proto3: `optional` fields left out, repeated ones
    empty): the façade method the table names is called with its own default for every parameter."""

    class Refused(Exception):
        pass

    class Context:  # enough of grpc.ServicerContext for the error boundary
        def set_trailing_metadata(self, metadata: object) -> None:
            pass

        def abort(self, code: object, details: str) -> None:
            raise Refused(details)

    recording = Recording(memoir)
    servicer = MemoirServicer(cast(Memoir, recording))
    service = pb.DESCRIPTOR.services_by_name["MemoirService"]
    unset = {rpc.name: getattr(pb, rpc.input_type.name)() for rpc in service.methods}
    unset["IngestEvent"] = pb.IngestEventRequest(event=pb.Event())  # without one it is refused before the façade
    by_rpc = {op.grpc: op.name for op in OPERATIONS if op.grpc} | {"IngestEvents": "ingest"}  # many at once
    compared = 0
    for rpc, request in unset.items():
        recording.calls.clear()
        with contextlib.suppress(Refused):  # an empty id or an unknown job: refused after the façade's call
            getattr(servicer, rpc)(request, Context())
        assert [name for name, _ in recording.calls] == [by_rpc[rpc]], rpc
        fields = {f.name for f in request.DESCRIPTOR.fields if not f.has_presence and not f.is_repeated}
        assert differing_defaults(recording.calls, fields) == [], rpc
        compared += len(facade_defaults(recording.calls[0][0]))
    assert compared > 25, compared
