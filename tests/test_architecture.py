"""Layers import downwards only: model <- store <- workers / index <- retrieval <- assembly <- engine <- interfaces.

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
    "index": {"errors", "model", "config", "registry", "store", "http"},
    "llm": {"errors", "http"},
    "vault": {"errors", "model", "store", "index"},
    "ingest": {"errors", "model", "store", "index", "llm", "vault"},
    "retrieval": {"errors", "model", "config", "registry", "store", "index", "http"},
    "history": {"errors", "model", "index", "llm"},
    "timeline": {"errors", "model", "config", "store", "index", "llm", "vault", "ingest", "history"},
    "assembly": {
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
    },
    "doctor": {"errors", "model", "store", "index", "vault", "assembly"},
    "migration": {"errors", "config", "store", "assembly"},
    "spool": {"errors"},
    "timeline_methods": {"errors", "model", "store", "workers", "assembly"},
    "injection_methods": {"errors", "model", "config", "retrieval", "assembly"},
    "views": {"errors", "model", "config", "store", "llm"},
    "engine": {
        "errors",
        "model",
        "llm",
        "store",
        "workers",
        "config",
        "index",
        "retrieval",
        "vault",
        "assembly",
        "doctor",
        "views",
        "timeline_methods",
        "injection_methods",
        "spool",
    },
    "auth": {"errors"},
    "agent": {"errors", "model", "config", "llm", "history", "retrieval", "vault", "engine", "session_state"},
    "session_state": {"errors", "llm"},
    "think": {"errors", "model", "config", "llm", "vault", "session_state"},
    "wire": {"errors", "model", "store", "views", "retrieval", "workers", "vault", "injection_methods"},
    "hooks": {"errors", "model", "config", "retrieval", "engine", "spool", "session_state"},
    "importers": {"errors", "model", "engine", "hooks"},
    "mcp": {"errors", "model", "config", "retrieval", "engine", "wire", "__init__"},
    "server": {
        "errors",
        "model",
        "retrieval",
        "engine",
        "auth",
        "wire",
        "views",
        "vault",
        "grpc",
        "hooks",
        "mcp",
        "blas",
        "history",
        "llm",
    },
    "grpc": {"errors", "model", "engine", "auth", "retrieval", "views", "workers"},
    "client": {"errors", "model", "retrieval", "views", "workers", "wire", "vault", "http"},
    "cli": {
        "errors",
        "model",
        "config",
        "engine",
        "views",
        "retrieval",
        "server",
        "grpc",
        "auth",
        "hooks",
        "importers",
        "mcp",
        "session_state",
        "think",
        "agent",
        "history",
        "migration",
        "__init__",
    },
    "__init__": {
        "errors",
        "model",
        "store",
        "workers",
        "config",
        "engine",
        "views",
        "retrieval",
        "vault",
        "injection_methods",
        "client",
        "history",
        "agent",
    },
    "entry": {"cli", "hooks", "blas"},
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
