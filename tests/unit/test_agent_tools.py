"""ToolRegistry (seed 000): registration rules, OpenAI definitions, and a model's mistakes as results, never raised."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memoir.agent import Tool, ToolRegistry
from memoir.errors import InvalidTool
from memoir.model.chat import ToolResult

NAME = re.compile(r"[a-z_][a-z0-9_]*")
SCHEMA = {
    "type": "object",
    "required": ["activity"],
    "properties": {
        "activity": {"type": "string", "description": "The activity or note to log"},
        "title": {"type": "string", "description": "Optional title for the entry"},
    },
}


def echo(arguments: dict[str, Any]) -> Any:
    return arguments


def tool(name: str = "write_note", description: str = "Write a note", parameters: Any = None, run: Any = echo) -> Tool:
    return Tool(name, description, SCHEMA if parameters is None else parameters, run)


@given(st.text(max_size=70))
def test_a_name_is_accepted_exactly_when_it_matches_the_seed_pattern(name: str) -> None:
    if NAME.fullmatch(name) and len(name) <= 64:
        assert ToolRegistry([tool(name)]).names == [name]
    else:
        with pytest.raises(InvalidTool) as caught:
            ToolRegistry([tool(name)])
        assert caught.value.field == "name"


@given(st.from_regex(NAME, fullmatch=True).filter(lambda n: len(n) <= 64), st.text(max_size=30))
def test_a_description_must_say_something(name: str, description: str) -> None:
    if description.strip():
        assert ToolRegistry([tool(name, description)]).has(name)
    else:
        with pytest.raises(InvalidTool) as caught:
            ToolRegistry([tool(name, description)])
        assert caught.value.field == "description"


def test_names_are_unique() -> None:
    registry = ToolRegistry([tool()])
    with pytest.raises(InvalidTool, match="registered already") as caught:
        registry.register(tool(description="another"))
    assert caught.value.field == "name" and len(registry) == 1


@pytest.mark.parametrize(
    ("parameters", "reason"),
    [
        ("not a schema", "JSON Schema object"),
        ({"type": "string"}, "type: object"),
        ({"type": "object", "properties": {"a": {"type": "strnig"}}}, "not a valid JSON Schema"),
        ({"type": "object", "required": "activity"}, "not a valid JSON Schema"),
        ({"type": "object", "default": object()}, "not JSON"),
    ],
)
def test_parameters_must_be_a_json_schema_of_an_object(parameters: Any, reason: str) -> None:
    with pytest.raises(InvalidTool, match=reason) as caught:
        ToolRegistry([tool(parameters=parameters)])
    assert caught.value.field == "parameters"


def test_execute_must_be_callable() -> None:
    with pytest.raises(InvalidTool) as caught:
        ToolRegistry([tool(run="not a function")])
    assert caught.value.field == "execute"


def test_definitions_are_in_openai_format_and_the_prompt_gets_a_markdown_list() -> None:
    registry = ToolRegistry([tool(), tool("read_note", "Read\n  a note")])
    assert registry.definitions()[0] == {
        "type": "function",
        "function": {"name": "write_note", "description": "Write a note", "parameters": SCHEMA},
    }
    json.dumps(registry.definitions())
    assert registry.describe() == "- **write_note**: Write a note\n- **read_note**: Read a note"
    assert registry.names == ["write_note", "read_note"] and registry.has("read_note") and registry.get("x") is None


def test_valid_arguments_reach_the_tool_and_its_data_comes_back() -> None:
    result = ToolRegistry([tool()]).execute("write_note", '{"activity": "met Ada"}')
    assert result == ToolResult(True, data={"activity": "met Ada"})
    assert json.loads(result.to_content()) == {"success": True, "data": {"activity": "met Ada"}}


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ('{"title": "no activity"}', "arguments: 'activity' is a required property"),
        ('{"activity": 5}', "arguments: activity: 5 is not of type 'string'"),
        ("{not json", "arguments: not JSON"),
        ("[1, 2]", "arguments: must be a JSON object"),
        ("[" * 100_000, "arguments: not JSON"),
    ],
)
def test_invalid_arguments_are_a_failed_result_the_model_reads(arguments: str, error: str) -> None:
    ran: list[Any] = []
    result = ToolRegistry([tool(run=ran.append)]).execute("write_note", arguments)
    assert not result.success and result.error is not None and result.error.startswith(error)
    assert ran == []  # checked before the tool runs


def test_an_unknown_tool_is_a_failed_result_naming_the_tools() -> None:
    result = ToolRegistry([tool()]).execute("delete_everything", "{}")
    assert (
        not result.success
        and "unknown tool 'delete_everything'" in str(result.error)
        and "write_note" in str(result.error)
    )


class Hostile(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message for you")


@pytest.mark.parametrize("raised", [ValueError("bad value"), RecursionError(), KeyError("k"), Hostile()])
def test_a_tool_that_raises_is_a_failed_result(raised: Exception) -> None:
    def explode(arguments: dict[str, Any]) -> Any:
        raise raised

    result = ToolRegistry([tool(run=explode)]).execute("write_note", '{"activity": "x"}')
    assert not result.success and str(result.error).startswith(type(raised).__name__)


def test_a_person_stopping_memoir_is_not_a_tool_failure() -> None:
    def interrupted(arguments: dict[str, Any]) -> Any:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ToolRegistry([tool(run=interrupted)]).execute("write_note", '{"activity": "x"}')


def test_a_tool_may_answer_with_its_own_result() -> None:
    registry = ToolRegistry([tool(run=lambda arguments: ToolResult(False, error="disk full"))])
    assert registry.execute("write_note", '{"activity": "x"}') == ToolResult(False, error="disk full")


def test_empty_arguments_are_an_empty_object() -> None:
    registry = ToolRegistry([tool(parameters={"type": "object"})])
    assert registry.execute("write_note", "").data == {} and registry.execute("write_note", None).data == {}


def test_a_schema_whose_reference_resolves_nowhere_is_a_failed_result() -> None:
    parameters = {"type": "object", "properties": {"a": {"$ref": "urn:nowhere"}}}
    result = ToolRegistry([tool(parameters=parameters)]).execute("write_note", '{"a": 1}')
    assert not result.success and "schema could not be applied" in str(result.error)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(st.one_of(st.text(max_size=200), JSON_VALUES.map(json.dumps)), st.text(max_size=20))
def test_whatever_a_model_sends_comes_back_as_a_result(arguments: str, name: str) -> None:
    registry = ToolRegistry([tool()])
    for called in (name, "write_note"):
        result = registry.execute(called, arguments)
        assert isinstance(result, ToolResult)
        assert result.success or (isinstance(result.error, str) and len(result.error) <= 501)
        json.loads(result.to_content())
