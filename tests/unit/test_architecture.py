"""Layers import downwards only: model <- store <- workers / index <- retrieval <- facade <- doors.

Parsed from the source, so a wrong-way import fails here before it becomes a tangle; and
docs/design.md's package table says the same as ALLOWED, so the page a newcomer reads first
cannot drift from the rule the code is held to.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "memoir"
DESIGN = SRC.parent.parent / "docs" / "design.md"

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
    # The web view is a door like the others: the façade, and the key rule every server shares.
    "web": {"errors", "model", "facade", "auth"},
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
        "web",
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


STORE = SRC / "store"
# Inside the store: the shared SQL (`sql/`), the role protocols (`base.py`) and the records
# they pass (`records.py`) serve both backends; a backend uses them and itself, never the other
# backend, so either can change (or be left uninstalled: psycopg is an extra) without the other noticing.
STORE_ALLOWED = {
    "records": set(),
    "base": {"records"},
    "sql": {"base", "records"},
    "sqlite": {"base", "records", "sql"},
    "postgres": {"base", "records", "sql"},
    "__init__": {"base", "records", "sqlite"},
}


def store_part(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["memoir", "store"] else None


@pytest.mark.parametrize("path", sorted(STORE.rglob("*.py")), ids=lambda p: str(p.relative_to(STORE)))
def test_a_store_backend_never_imports_the_other(path: Path) -> None:
    relative = path.relative_to(STORE)
    part = relative.parts[0] if len(relative.parts) > 1 else relative.stem
    used = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names = [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
        names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
        used |= {found for name in names if (found := store_part(name)) is not None}
    wrong = used - STORE_ALLOWED[part] - {part}
    assert not wrong, f"store/{relative} ({part}) imports store.{sorted(wrong)}"


def test_the_two_backends_are_laid_out_alike() -> None:
    """Each module of the SQLite store has its PostgreSQL namesake: what differs is found in one place."""
    sqlite = {p.stem for p in (STORE / "sqlite").glob("*.py")}
    postgres = {p.stem for p in (STORE / "postgres").glob("*.py")}
    assert sqlite - postgres == set(), f"only on SQLite: {sorted(sqlite - postgres)}"
    assert {"store", "parts", "errors", "schema", "outbox", "search", "transfer"} <= sqlite


def test_no_module_grows_past_600_lines() -> None:
    written = [p for p in SRC.rglob("*.py") if "_pb2" not in p.name]  # protoc's output is not ours to split
    long = {str(p.relative_to(SRC)): n for p in written if (n := len(p.read_text().splitlines())) > 600}
    assert not long, f"split these modules: {long}"


def test_the_facades_class_stays_under_400_lines() -> None:
    """Issue 26: `Memoir` is assembled from mixins (facade/*.py); the class itself stays small."""
    tree = ast.parse((SRC / "facade" / "engine.py").read_text())
    [facade] = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Memoir"]
    assert facade.end_lineno is not None
    assert facade.end_lineno - facade.lineno + 1 < 400, "move a group of operations into a mixin of memoir/facade"


# -- docs/design.md's package table agrees with ALLOWED ------------------------------------------
#
# ALLOWED is the truth; the table is its description, read by these rules:
# - a row's package is `memoir` or `memoir.<layer>[.<module>]`, and its layer is named as
#   `layer_of` names a file (`memoir` itself is `__init__`);
# - its "may import" column is names separated by commas: layers, `memoir` for the package's
#   `__init__`, or "nothing"; a parenthesis only says which modules, and is not read; a module of
#   the row's own layer (`assembly` in a façade row) is no import;
# - each layer of ALLOWED has a row, and each row a layer of ALLOWED;
# - a layer's rows name only what ALLOWED lets it import, and between them all of it: a layer of one
#   row lists exactly ALLOWED's set; a layer split into rows (the façade's modules) gives each
#   module's share.

TABLE_HEADER = "| package | holds | may import |"


def package_rows() -> list[tuple[str, str]]:
    """(package, "may import" cell) for each row of design.md's package table."""
    lines = DESIGN.read_text().splitlines()
    assert TABLE_HEADER in lines, f"docs/design.md has no package table ({TABLE_HEADER})"
    rows: list[tuple[str, str]] = []
    for line in lines[lines.index(TABLE_HEADER) + 2 :]:  # past the header and its |---| line
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        assert len(cells) == 3, f"docs/design.md's package table: not three cells (a | in a cell?): {line[:80]}"
        rows.append((cells[0].strip("`"), cells[2]))
    return rows


def layer_of_package(package: str) -> str:
    parts = package.split(".")
    assert parts[0] == "memoir", f"docs/design.md's package table: {package!r} is not a memoir package"
    return parts[1] if len(parts) > 1 else "__init__"


def named_imports(cell: str, layer: str) -> set[str]:
    """The layers a "may import" cell names, read by the rules above."""
    if cell == "nothing":
        return set()
    names = {name.strip().strip("`") for name in re.sub(r"\([^)]*\)", "", cell).split(",")}
    names = {"__init__" if name == "memoir" else name for name in names}
    own_modules = {p.stem for p in (SRC / layer).glob("*.py")}  # none for a single-module layer
    return {name for name in names if name != layer and (name in ALLOWED or name not in own_modules)}


def test_every_row_of_the_package_table_is_a_layer() -> None:
    unknown = [package for package, _ in package_rows() if layer_of_package(package) not in ALLOWED]
    assert not unknown, f"docs/design.md's package table has rows for no layer of ALLOWED: {unknown}"


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_the_package_table_says_what_a_layer_may_import(layer: str) -> None:
    rows = {package: cell for package, cell in package_rows() if layer_of_package(package) == layer}
    assert rows, f"docs/design.md's package table has no row for the layer {layer!r}"
    named: set[str] = set()
    for package, cell in rows.items():
        names = named_imports(cell, layer)
        extra = names - ALLOWED[layer]
        assert not extra, f"design.md says `{package}` may import {sorted(extra)}; ALLOWED[{layer!r}] does not"
        named |= names
    missing = ALLOWED[layer] - named
    assert not missing, f"design.md's rows {sorted(rows)} leave out {sorted(missing)}, which ALLOWED[{layer!r}] has"
