"""Every door offers each operation under the name `memoir.model.operations` gives it.

The table is the one list; this test reads each door's own description of itself (the REST
app's routes, the gRPC service descriptor, the MCP server's tools, the CLI's commands,
`MemoirClient`'s methods) and the façade's methods, and fails on any disagreement, so a
door cannot quietly lack an operation or offer one the table does not know.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import typer

from memoir import Memoir, MemoirClient
from memoir.cli.app import app as cli_app
from memoir.grpc import memoir_pb2 as pb
from memoir.mcp.server import build_server
from memoir.model.operations import OPERATIONS, operations_table
from memoir.server.app import create_app

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
