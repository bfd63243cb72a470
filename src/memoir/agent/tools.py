"""Tools the chat agent may call, and the registry that checks them (seed 000's Tool and ToolRegistry).

Registration is the caller's contract, so a broken tool is refused there with
`InvalidTool` naming the field: a name matching `^[a-z_][a-z0-9_]*$` (and at most 64
characters, OpenAI's limit), unique; a non-empty description; parameters that are a
valid JSON Schema of an object; a callable `execute`.

Running a tool is the model's doing, and a model's mistakes are answers, not exceptions:
an unknown tool, arguments that are not JSON or break the tool's schema, and a tool that
raises all come back as `ToolResult(success=False, error=...)`, which the model reads and
the conversation goes on (seed 000: "a failing tool keeps the conversation going").
Arguments are checked against the schema before the tool sees them, so a tool may trust
their shape. Only `KeyboardInterrupt` and `SystemExit` get through: a person stopping
memoir is not a tool failing.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in 4.26; types-jsonschema would bring them

from memoir.errors import InvalidTool
from memoir.model.chat import ToolResult
from memoir.model.checks import brief

__all__ = ["Tool", "ToolRegistry"]

log = logging.getLogger("memoir.agent")

_NAME = re.compile(r"[a-z_][a-z0-9_]*")
MAX_NAME = 64
MAX_ERROR = 500  # characters of an error sent back to the model: a hostile value must not fill its context
Execute = Callable[[dict[str, Any]], Any]


@dataclass(frozen=True)
class Tool:
    """A capability the agent can invoke: `execute(arguments)` returns JSON-able data or a `ToolResult`."""

    name: str
    description: str
    parameters: Mapping[str, Any]
    execute: Execute

    def check(self) -> None:
        """Seed 000's rules; InvalidTool naming the field that breaks one."""
        if not isinstance(self.name, str) or len(self.name) > MAX_NAME or not _NAME.fullmatch(self.name):
            raise InvalidTool(
                "name", f"must match ^[a-z_][a-z0-9_]*$ (at most {MAX_NAME} characters), got {brief(self.name)}"
            )
        if not isinstance(self.description, str) or not self.description.strip():
            raise InvalidTool("description", f"tool {self.name!r} needs a description the model can read")
        _check_schema(self.name, self.parameters)
        if not callable(self.execute):
            raise InvalidTool(
                "execute", f"tool {self.name!r}: must be a function of the arguments, got {brief(self.execute)}"
            )

    def definition(self) -> dict[str, Any]:
        """The tool in OpenAI's format (Ollama, llama.cpp and vLLM take the same)."""
        function = {"name": self.name, "description": self.description, "parameters": dict(self.parameters)}
        return {"type": "function", "function": function}


def _check_schema(name: str, parameters: object) -> None:
    if not isinstance(parameters, Mapping):
        raise InvalidTool("parameters", f"tool {name!r}: must be a JSON Schema object, got {brief(parameters)}")
    if parameters.get("type") != "object":
        raise InvalidTool("parameters", f"tool {name!r}: must describe an object (type: object): arguments are named")
    try:
        json.dumps(parameters)  # it is sent to the model as JSON
        jsonschema.Draft202012Validator.check_schema(parameters)
    except (TypeError, ValueError) as exc:
        raise InvalidTool("parameters", f"tool {name!r}: not JSON: {exc}") from None
    except jsonschema.SchemaError as exc:
        raise InvalidTool("parameters", f"tool {name!r}: not a valid JSON Schema: {_bounded(exc.message)}") from None


def _bounded(text: str) -> str:
    return text if len(text) <= MAX_ERROR else text[:MAX_ERROR] + "…"


def _failure(error: str) -> ToolResult:
    return ToolResult(False, error=_bounded(error))


class ToolRegistry:
    """Tools by name, in registration order."""

    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, tuple[Tool, Any]] = {}  # name -> (tool, its schema's validator)
        for tool in tools:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        if not isinstance(tool, Tool):
            raise InvalidTool("tool", f"expected a Tool, got {brief(tool)}")
        tool.check()
        if tool.name in self._tools:
            raise InvalidTool("name", f"a tool named {tool.name!r} is registered already")
        self._tools[tool.name] = (tool, jsonschema.Draft202012Validator(tool.parameters))

    def get(self, name: str) -> Tool | None:
        found = self._tools.get(name)
        return found[0] if found else None

    def has(self, name: str) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[Tool]:
        return (tool for tool, _ in self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def definitions(self) -> list[dict[str, Any]]:
        """Every tool in OpenAI's `tools` format."""
        return [tool.definition() for tool in self]

    def describe(self) -> str:
        """A Markdown list of the tools, for the system prompt."""
        return "\n".join(f"- **{tool.name}**: {' '.join(tool.description.split())}" for tool in self)

    def execute(self, name: str, arguments: str | Mapping[str, Any] | None) -> ToolResult:
        """Run a tool for the model: never raises for the model's mistakes or the tool's failures."""
        found = self._tools.get(name) if isinstance(name, str) else None
        if found is None:
            known = ", ".join(self._tools) or "none"
            return _failure(f"unknown tool {brief(name)}; the tools are: {known}")
        tool, validator = found
        parsed = _arguments(arguments)
        if isinstance(parsed, ToolResult):
            return parsed
        problem = _schema_problem(validator, parsed)
        if problem is not None:
            return _failure(f"arguments: {problem}")
        return _run(tool, parsed)


def _arguments(arguments: str | Mapping[str, Any] | None) -> dict[str, Any] | ToolResult:
    """The arguments as an object, or the failure to send back (not JSON, not an object)."""
    if arguments is None or (isinstance(arguments, str) and not arguments.strip()):
        return {}  # a call with no arguments: some models send "" rather than "{}"
    if isinstance(arguments, Mapping):
        return dict(arguments)
    try:
        value = json.loads(arguments)
    except (TypeError, ValueError, RecursionError) as exc:  # RecursionError: hostile nesting; TypeError: not text
        return _failure(f"arguments: not JSON ({_bounded(str(exc))}): send a JSON object")
    if not isinstance(value, dict):
        return _failure(f"arguments: must be a JSON object, got {brief(value)}")
    return value


def _schema_problem(validator: Any, arguments: dict[str, Any]) -> str | None:
    try:
        error = jsonschema.exceptions.best_match(validator.iter_errors(arguments))
    except RecursionError:
        return "nested too deeply to check"
    except Exception as exc:  # noqa: BLE001 - a schema whose $ref resolves nowhere: the tool's fault, told all the same
        return f"the tool's schema could not be applied ({_said(exc)})"
    if error is None:
        return None
    where = ".".join(str(part) for part in error.absolute_path)
    return _bounded(f"{where}: {error.message}" if where else error.message)


def _run(tool: Tool, arguments: dict[str, Any]) -> ToolResult:
    try:
        result = tool.execute(arguments)
    except Exception as exc:  # noqa: BLE001 - whatever a tool raises, the model is told and the turn goes on
        said = _said(exc)
        log.warning("tool %s failed: %s", tool.name, said)
        return _failure(said)
    return result if isinstance(result, ToolResult) else ToolResult(True, data=result)


def _said(exc: BaseException) -> str:
    """`Type: message`, even for an exception whose message cannot be made."""
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001 - a hostile __str__
        text = ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
