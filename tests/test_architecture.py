"""Layers import downwards only: model <- store <- workers / index <- retrieval <- facade <- doors.

Parsed from the source, so a wrong-way import fails here before it becomes a tangle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "memoir"

# What each layer may import from memoir (besides itself). `errors` is importable by all.
ALLOWED = {
    "errors": set(),
    "model": {"errors"},
    "config": {"errors"},
    "http": {"errors"},
    "blas": set(),
    "registry": {"errors", "config"},
    "store": {"errors", "model"},
    "workers": {"errors", "model", "config", "store"},
    "index": {"errors", "model", "config", "http", "registry", "store"},
    "llm": {"errors", "http"},
    "vault": {"errors", "model", "store", "index"},
    "ingest": {"errors", "model", "store", "index", "llm", "vault"},
    "retrieval": {"errors", "model", "config", "http", "registry", "store", "index"},
    "history": {"errors", "model", "index", "llm"},
    "timeline": {"errors", "model", "config", "store", "index", "llm", "vault", "ingest", "history"},
    "facade": {
        "errors",
        "model",
        "config",
        "store",
        "workers",
        "index",
        "llm",
        "vault",
        "ingest",
        "retrieval",
        "timeline",
        "history",
        "think",
    },
    "auth": {"errors"},
    "agent": {"errors", "model", "config", "llm", "vault", "retrieval", "history", "facade", "session_state"},
    "session_state": {"errors", "llm"},
    "think": {"errors", "model", "config", "llm", "vault", "session_state"},
    "remote": {"errors", "model", "http", "store", "workers", "vault", "retrieval", "facade"},
    "hooks": {"errors", "model", "config", "retrieval", "facade", "session_state"},
    "importers": {"errors", "model", "facade", "hooks"},
    "mcp": {"errors", "model", "config", "retrieval", "facade", "remote", "__init__"},
    # The servers reach the engine through the façade only.
    "server": {
        "errors",
        "model",
        "blas",
        "facade",
        "auth",
        "remote",
        "hooks",
        "mcp",
        "grpc",
    },
    "grpc": {"errors", "model", "workers", "retrieval", "facade", "auth"},
    "cli": {
        "errors",
        "model",
        "config",
        "retrieval",
        "history",
        "facade",
        "auth",
        "agent",
        "session_state",
        "think",
        "hooks",
        "importers",
        "mcp",
        "server",
        "grpc",
        "__init__",
    },
    "__init__": {
        "errors",
        "model",
        "config",
        "store",
        "workers",
        "vault",
        "retrieval",
        "history",
        "facade",
        "agent",
        "remote",
    },
    "entry": {"blas", "hooks", "cli"},
    "__main__": {"entry"},
}


def layer_of(path: Path) -> str:
    relative = path.relative_to(SRC)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


def memoir_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "memoir":
            parts = node.module.split(".")
            found.add(parts[1] if len(parts) > 1 else "__init__")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "memoir":
                    found.add(parts[1] if len(parts) > 1 else "__init__")
    return found


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: str(p.relative_to(SRC)))
def test_modules_import_only_from_lower_layers(path: Path) -> None:
    layer = layer_of(path)
    assert layer in ALLOWED, f"{layer} is a new layer: add it to ALLOWED with the layers it may use"
    wrong = memoir_imports(path) - ALLOWED[layer] - {layer}
    assert not wrong, f"{path.relative_to(SRC)} ({layer}) imports {sorted(wrong)}"


def test_no_module_grows_past_600_lines() -> None:
    written = [p for p in SRC.rglob("*.py") if "_pb2" not in p.name]  # protoc's output is not ours to split
    long = {str(p.relative_to(SRC)): n for p in written if (n := len(p.read_text().splitlines())) > 600}
    assert not long, f"split these modules: {long}"
