"""Every door offers each operation under the name `memoir.model.operations` gives it.

The table is the one list; this test reads each door's own description of itself (the REST
app's routes, the gRPC service descriptor, the MCP server's tools, the CLI's commands,
`MemoirClient`'s methods) and the façade's methods, and fails on any disagreement, so a
door cannot quietly lack an operation or offer one the table does not know.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import anyio
import typer

from memoir import Memoir, MemoirClient
from memoir.cli.app import app as cli_app
from memoir.grpc import memoir_pb2 as pb
from memoir.mcp.server import build_server
from memoir.model.operations import OPERATIONS, operations_table
from memoir.server.app import create_app

DESIGN = Path(__file__).resolve().parents[1] / "docs" / "design.md"


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
