"""`memoir mcp` and `/mcp`: the façade's memory as seven MCP tools, driven by the official SDK's own client.

In process (the SDK's `Client` on the server object), over stdio (`python -m memoir mcp`
spawned by the SDK's stdio client, as a coding agent starts it) and over streamable HTTP on
a real `memoir serve` (`serving`), where the API key is checked as for every route. A tool
answers what the façade answers, as text for the model and as the REST API's JSON; a
`MemoirError`, or arguments that do not fit the tool's schema, come back as a tool error
naming the field, and nothing a caller sends stops the server.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx
import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult

from memoir import Memoir
from memoir.mcp.server import build_server
from memoir.model.limits import BUDGET_TOKENS, MAX_K, MEMORY_KINDS, SEARCH_KINDS, SEVERITIES
from memoir.model.notes import notes_block
from memoir.model.project import project_scope
from memoir.server import serving

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "conversation.jsonl"
EVENTS = [json.loads(line) for line in EXAMPLE.read_text().splitlines() if line.strip()]
KEY = "k" * 24
TOOLS = {"search_memory", "build_context", "remember", "forget", "list_memories", "timeline", "expand_grip"}
T = TypeVar("T")


@pytest.fixture
def memoir(open_memoir: Callable[..., Memoir]) -> Memoir:
    return open_memoir(embedding_provider="hashing")


@pytest.fixture
def example(memoir: Memoir) -> Memoir:
    """The example conversation (`lighthouse`), indexed, with its timeline built."""
    memoir.ingest(EVENTS)
    memoir.flush()
    memoir.update_timeline(rebuild=True)
    return memoir


def with_client(target: Any, body: Callable[[Client], Awaitable[T]], **options: Any) -> T:
    async def main() -> T:
        async with Client(target, **options) as client:
            return await body(client)

    return anyio.run(main)


def call(target: Any, tool: str, arguments: dict[str, Any]) -> CallToolResult:
    return with_client(target, lambda client: client.call_tool(tool, arguments))


def text(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


# -- the tools ------------------------------------------------------------------------------


def test_the_server_lists_seven_tools_each_with_a_typed_documented_schema(memoir: Memoir) -> None:
    listed = with_client(build_server(memoir), lambda client: client.list_tools()).tools
    assert {tool.name for tool in listed} == TOOLS
    for tool in listed:
        assert tool.description and tool.title
        schema = tool.input_schema
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        for name, prop in schema["properties"].items():
            assert prop.get("description"), f"{tool.name}.{name} has no description"
            assert "type" in prop or "anyOf" in prop, f"{tool.name}.{name} has no type"
    by_name = {tool.name: tool for tool in listed}
    assert by_name["search_memory"].input_schema["required"] == ["query"]
    assert by_name["search_memory"].input_schema["properties"]["k"]["anyOf"][0] == {"type": "integer"}
    assert by_name["search_memory"].annotations.read_only_hint is True
    assert by_name["forget"].annotations.destructive_hint is True


def test_schemas_state_the_facades_own_limits_and_values(memoir: Memoir) -> None:
    listed = {t.name: t for t in with_client(build_server(memoir), lambda client: client.list_tools()).tools}
    for tool in listed.values():
        Draft202012Validator.check_schema(tool.input_schema)  # a valid JSON Schema, as strict clients check
        assert "\n " not in tool.description and not tool.description.startswith(" ")  # no docstring indentation
    search = listed["search_memory"].input_schema["properties"]
    assert (search["k"]["minimum"], search["k"]["maximum"]) == (1, MAX_K)
    assert search["kinds"]["anyOf"][0]["items"]["enum"] == list(SEARCH_KINDS)
    remember = listed["remember"].input_schema["properties"]
    assert remember["kind"]["enum"] == list(MEMORY_KINDS) and remember["severity"]["enum"][:-1] == list(SEVERITIES)
    context = listed["build_context"].input_schema["properties"]
    assert context["budget_tokens"]["default"] == BUDGET_TOKENS
    assert listed["list_memories"].input_schema["properties"]["include_deleted"]["type"] == "boolean"


@pytest.mark.parametrize("flag", ["maybe", "false", 1, None])
def test_a_flag_that_is_not_true_or_false_is_refused_naming_it(memoir: Memoir, flag: object) -> None:
    result = call(build_server(memoir), "list_memories", {"include_deleted": flag})
    assert result.is_error and "include_deleted" in text(result)


def test_not_found_messages_name_no_command_of_another_door(memoir: Memoir) -> None:
    for tool, arguments in (("timeline", {"node_id": "toc:day:2026-03-09"}), ("expand_grip", {"grip_id": "nope"})):
        said = text(call(build_server(memoir), tool, arguments))
        assert "memoir " not in said.replace("memoir knows", ""), said


def test_search_memory_answers_what_the_facade_answers_as_text_and_json(example: Memoir) -> None:
    result = call(build_server(example), "search_memory", {"query": "Which database?", "conversation_id": "lighthouse"})
    hits = example.search("Which database?", conversation_id="lighthouse")
    assert not result.is_error
    assert result.structured_content == {"hits": [json.loads(json.dumps(h.to_dict())) for h in hits]}
    assert hits[0].text in text(result) and "conversation 'lighthouse'" in text(result)


def test_remember_list_and_forget_a_memory(memoir: Memoir) -> None:
    server = build_server(memoir)
    kept = call(server, "remember", {"text": "Deploys need the VPN", "kind": "gotcha", "severity": "high"})
    memory_id = kept.structured_content["id"]
    assert memoir.memories()[0].id == memory_id and memory_id in text(kept)
    listed = call(server, "list_memories", {"kind": "gotcha"})
    assert [m["id"] for m in listed.structured_content["memories"]] == [memory_id]
    gone = call(server, "forget", {"memory_id": memory_id})
    assert gone.structured_content["deleted_at"] is not None
    assert memoir.memories() == []


def test_an_empty_answer_says_where_it_looked_and_how_to_look_wider(memoir: Memoir) -> None:
    server = build_server(memoir)
    searched = text(call(server, "search_memory", {"query": "pelican", "conversation_id": "birds"}))
    assert "conversation 'birds'" in searched and "pass conversation_id" in searched
    listed = text(call(server, "list_memories", {"conversation_id": "birds"}))
    assert "no memories in conversation 'birds'" in listed and "leave out conversation_id" in listed
    context = text(call(server, "build_context", {"query": "pelican", "conversation_id": "birds"}))
    assert "conversation 'birds'" in context and "pass conversation_id" in context


def test_build_context_is_the_facades_memory_block_quoted_as_notes(example: Memoir) -> None:
    arguments = {"query": "What stack?", "conversation_id": "lighthouse", "budget_tokens": 300}
    result = call(build_server(example), "build_context", arguments)
    expected = example.build_context("What stack?", conversation_id="lighthouse", budget_tokens=300)
    assert text(result) == notes_block(
        expected.text, "memoir: earlier notes in conversation 'lighthouse' that bear on the task"
    )
    assert result.structured_content["tokens"] == expected.tokens


def test_the_timeline_opens_node_by_node_down_to_a_grips_turns(example: Memoir) -> None:
    server = build_server(example)
    years = call(server, "timeline", {"conversation_id": "lighthouse"}).structured_content["nodes"]
    assert [n["node_id"] for n in years] == [n.node_id for n in example.toc_root("lighthouse")]
    node = years[0]
    while node["child_node_ids"]:
        opened = call(server, "timeline", {"node_id": node["node_id"], "conversation_id": "lighthouse", "limit": 1})
        assert opened.structured_content["node"]["node_id"] == node["node_id"]
        node = opened.structured_content["nodes"][0]
    grip_id = node["bullets"][0]["grip_ids"][0]
    expanded = call(server, "expand_grip", {"grip_id": grip_id, "before": 1, "after": 1})
    expected = example.expand_grip(grip_id, 1, 1)
    assert [e["event_id"] for e in expanded.structured_content["excerpt_events"]] == [
        e.event_id for e in expected.excerpt_events
    ]
    assert f"> [{expected.excerpt_events[0].role.value}]" in text(expanded)


def test_a_call_naming_no_conversation_uses_the_servers_default_scope(memoir: Memoir) -> None:
    project = build_server(memoir, default_conversation="memoir-3fa2c1d0")
    assert call(project, "remember", {"text": "Tests run with make test"}).structured_content["conversation_id"] == (
        "memoir-3fa2c1d0"
    )
    assert call(project, "search_memory", {"query": "how to run tests"}).structured_content["hits"]
    assert call(project, "search_memory", {"query": "tests", "conversation_id": "other"}).structured_content == {
        "hits": []
    }
    plain = build_server(memoir)  # over HTTP: the façade's default
    assert call(plain, "remember", {"text": "Sam likes tea"}).structured_content["conversation_id"] == "default"


# -- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "arguments", "kind", "field"),
    [
        ("search_memory", {"query": "x", "k": 1000}, "InvalidQuery", "k"),
        ("search_memory", {"query": "   "}, "InvalidQuery", "query"),
        ("remember", {"text": "x", "kind": "rumour"}, "InvalidInput", "kind"),
        ("list_memories", {"limit": 0}, "InvalidQuery", "limit"),
        ("build_context", {"query": "x", "budget_tokens": -1}, "InvalidQuery", "budget_tokens"),
        ("expand_grip", {"grip_id": "grip:1:abc", "before": 101}, "InvalidQuery", "before"),
    ],
)
def test_a_memoir_error_is_a_tool_error_that_names_the_field(
    memoir: Memoir, tool: str, arguments: dict[str, Any], kind: str, field: str
) -> None:
    result = call(build_server(memoir), tool, arguments)
    assert result.is_error
    assert text(result).startswith(f"{kind}: {field}: ")
    assert result.structured_content["error"]["type"] == kind
    assert result.structured_content["error"]["param"] == field


def test_asking_for_what_is_not_there_is_a_tool_error_saying_so(memoir: Memoir) -> None:
    server = build_server(memoir)
    assert text(call(server, "forget", {"memory_id": "01KJPWD6M0C7BDF51E1GE5VEHZ"})).startswith("MemoryNotFound: ")
    assert text(call(server, "expand_grip", {"grip_id": "grip:1:abc"})).startswith("NotFound: no grip 'grip:1:abc'")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"query": "x", "k": "many"}, "InvalidInput: k: Input should be a valid integer"),
        ({"k": 3}, "InvalidInput: query: Field required"),
        ({"query": "x", "kinds": ["fact", 7]}, "InvalidInput: kinds[1]: Input should be a valid string"),
        ({"query": "x", "conversation": "lighthouse"}, "InvalidInput: conversation: search_memory takes no such"),
    ],
)
def test_arguments_outside_the_schema_are_a_tool_error_that_names_the_field(
    memoir: Memoir, arguments: dict[str, Any], message: str
) -> None:
    result = call(build_server(memoir), "search_memory", arguments)
    assert result.is_error and text(result).startswith(message)


def test_an_unknown_tool_is_a_tool_error(memoir: Memoir) -> None:
    result = call(build_server(memoir), "drop_database", {})
    assert result.is_error and "Unknown tool: drop_database" in text(result)


def test_building_the_server_leaves_the_root_logger_to_the_application(memoir: Memoir) -> None:
    root = logging.getLogger()
    before = (list(root.handlers), root.level)
    build_server(memoir)
    assert (list(root.handlers), root.level) == before


HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([10**30, -(10**30), 10**5000, 2**63]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["\ud800", "a\udc80b", "toc:day:\ud83d", "\x00", "x" * 200_000, "[1, 2]", '{"a": 1}']),
    st.lists(st.sampled_from(["fact", "\ud800", 3, None]), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
ARGUMENTS = {
    "search_memory": ["query", "k", "conversation_id", "kinds", "since", "until"],
    "build_context": ["query", "conversation_id", "budget_tokens", "top_k"],
    "remember": ["text", "kind", "conversation_id", "tags", "severity"],
    "forget": ["memory_id"],
    "list_memories": ["conversation_id", "kind", "include_deleted", "limit"],
    "timeline": ["node_id", "conversation_id", "limit", "cursor"],
    "expand_grip": ["grip_id", "before", "after"],
}


@st.composite
def hostile_calls(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    tool = draw(st.sampled_from(sorted(ARGUMENTS)))
    names = draw(st.lists(st.sampled_from(ARGUMENTS[tool]), unique=True, max_size=4))
    return tool, {name: draw(HOSTILE) for name in names}


@pytest.fixture
def server(memoir: Memoir) -> Any:
    """One server for all the examples of a test: each example's calls come after the others'."""
    return build_server(memoir)


@given(calls=st.lists(hostile_calls(), min_size=1, max_size=5))
@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_hostile_arguments_come_back_as_memoir_tool_errors_and_the_server_goes_on(
    server: Any, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    async def session(client: Client) -> None:
        for tool, arguments in calls:
            result = await client.call_tool(tool, arguments)
            if result.is_error:  # memoir's own error, not the SDK's word for a crash
                assert set(result.structured_content["error"]) >= {"type", "message", "param"}, text(result)
        assert len((await client.list_tools()).tools) == len(TOOLS)

    with_client(server, session)


# -- stdio: `memoir mcp` as a coding agent runs it ------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "checkout"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    return root


def stdio(home: Path, cwd: Path) -> StdioServerParameters:
    environment = {**os.environ, "MEMOIR_EMBEDDING_PROVIDER": "hashing"}
    command = [sys.executable, "-m", "memoir", "--home", str(home), "mcp"]
    return StdioServerParameters(command=command[0], args=command[1:], env=environment, cwd=str(cwd))


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_memoir_mcp_serves_the_tools_on_stdio_scoped_to_the_project(
    home: Path, project: Path, tmp_path: Path, mode: str
) -> None:
    errors = (tmp_path / "stderr.txt").open("w")

    async def session(client: Client) -> tuple[set[str], CallToolResult, CallToolResult, CallToolResult]:
        names = {tool.name for tool in (await client.list_tools()).tools}
        kept = await client.call_tool("remember", {"text": "The CI runs on Fridays"})
        found = await client.call_tool("search_memory", {"query": "When does CI run?"})
        refused = await client.call_tool("search_memory", {"query": "CI", "k": 0})
        return names, kept, found, refused

    names, kept, found, refused = with_client(stdio_client(stdio(home, project / "src"), errlog=errors), session)
    errors.close()
    assert names == TOOLS
    assert kept.structured_content["conversation_id"] == project_scope(project)  # the repository, not src/
    assert found.structured_content["hits"][0]["text"] == "The CI runs on Fridays"
    assert refused.is_error and text(refused).startswith("InvalidQuery: k: ")
    assert "memoir MCP server on stdio" in (tmp_path / "stderr.txt").read_text()


@pytest.mark.slow
def test_standard_output_carries_only_the_protocol_and_garbage_does_not_stop_the_server(
    home: Path, project: Path
) -> None:
    initialize = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        "not json at all",
        '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "forget", "arguments": '
        '{"memory_id": "\\ud800"}}}',  # a lone surrogate: not UTF-8, so not JSON the SDK parses
        {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
    ]
    stdin = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    parameters = stdio(home, project)
    # stdin stays open until the last answer: at end of input the server may stop before answering.
    process = subprocess.Popen(
        [parameters.command, *parameters.args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, cwd=project, env=parameters.env,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(stdin)
    process.stdin.flush()
    answers = []
    while not answers or answers[-1].get("id") != 3:
        line = process.stdout.readline()
        assert line, "the server stopped before answering request 3"
        answers.append(json.loads(line))  # every line is a JSON-RPC message
    process.stdin.close()
    remaining = process.stdout.read()
    stderr = process.stderr.read() if process.stderr else ""
    process.wait(timeout=120)
    process.stdout.close()
    if process.stderr:
        process.stderr.close()
    done = subprocess.CompletedProcess(process.args, process.returncode, remaining, stderr)
    answers += [json.loads(line) for line in remaining.splitlines()]
    assert done.returncode == 0, done.stderr
    assert [a.get("id") for a in answers] == [1, 3]  # the SDK drops what it cannot parse, and goes on
    assert {tool["name"] for tool in answers[1]["result"]["tools"]} == TOOLS
    assert "memoir MCP server on stdio" in done.stderr


# -- streamable HTTP: /mcp on `memoir serve` ------------------------------------------------


@pytest.fixture
def keyed(open_memoir: Callable[..., Memoir]) -> Iterator[str]:
    memoir = open_memoir(embedding_provider="hashing", api_key=KEY)
    with serving(memoir) as where:
        yield where.url


def over_http(url: str, body: Callable[[Client], Awaitable[T]], key: str | None = None, **options: Any) -> T:
    async def main() -> T:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        async with (
            httpx2.AsyncClient(headers=headers) as http,
            Client(streamable_http_client(f"{url}/mcp", http_client=http), **options) as client,
        ):
            return await body(client)

    return anyio.run(main)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_memoir_serve_offers_the_same_tools_at_mcp(example: Memoir, mode: str) -> None:
    async def session(client: Client) -> tuple[set[str], CallToolResult, CallToolResult]:
        names = {tool.name for tool in (await client.list_tools()).tools}
        found = await client.call_tool("search_memory", {"query": "Which database?", "conversation_id": "lighthouse"})
        refused = await client.call_tool("expand_grip", {"grip_id": "grip:1:abc"})
        return names, found, refused

    with serving(example) as where:
        names, found, refused = over_http(where.url, session, mode=mode)
    assert names == TOOLS
    expected = example.search("Which database?", conversation_id="lighthouse")
    assert [h["text"] for h in found.structured_content["hits"]] == [h.text for h in expected]
    assert refused.is_error and text(refused).startswith("NotFound: ")


def test_over_http_a_call_naming_no_conversation_uses_the_facades_default(memoir: Memoir) -> None:
    with serving(memoir) as where:
        kept = over_http(where.url, lambda client: client.call_tool("remember", {"text": "Sam likes tea"}))
    assert kept.structured_content["conversation_id"] == "default"


def test_with_an_api_key_mcp_answers_only_callers_who_send_it(keyed: str) -> None:
    listed = over_http(keyed, lambda client: client.list_tools(), key=KEY)
    assert {tool.name for tool in listed.tools} == TOOLS
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    refused = httpx.post(f"{keyed}/mcp", json=request, headers={"Accept": "application/json, text/event-stream"})
    assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
    with pytest.raises(ExceptionGroup) as raised:  # the SDK's task groups carry its error out
        over_http(keyed, lambda client: client.list_tools(), key="w" * 24)
    assert raised.group_contains(MCPError, match="Server returned an error response", depth=None)


@pytest.mark.parametrize(("header", "value", "status"), [("Origin", "http://evil.example", 403), ("Host", "evil", 421)])
def test_without_a_key_mcp_refuses_requests_from_web_pages_of_other_sites(
    memoir: Memoir, header: str, value: str, status: int
) -> None:
    """DNS rebinding: a page elsewhere must not reach a loopback server's tools through the browser."""
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Accept": "application/json, text/event-stream", header: value}
    with serving(memoir) as where:
        assert httpx.post(f"{where.url}/mcp", json=request, headers=headers).status_code == status
