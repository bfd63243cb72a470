"""The `/docs` page: the OpenAPI document of `memoir serve` as one plain HTML page, rendered on the server.

No script, no stylesheet or font to fetch, nothing from a CDN: the page is built from the
same document `/openapi.json` serves (whatever its OpenAPI version), so it reads offline,
with JavaScript off, and in any browser or terminal browser (docs/decisions.md 89). Each
operation has its method, path, summary, description, parameters, body and answers; each
schema its fields, linked from wherever it is used.
"""

from __future__ import annotations

import html
import re
from typing import Any

__all__ = ["render_docs_page"]

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_REF = "#/components/schemas/"

_STYLE = """
body{font:15px/1.5 system-ui,sans-serif;max-width:62rem;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{font-family:ui-monospace,monospace;font-size:.92em}
h2{border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2.5rem}
section.operation{border:1px solid #ddd;border-radius:6px;padding:.2rem 1rem;margin:1rem 0}
.method{display:inline-block;min-width:4.5rem;font-weight:bold;text-transform:uppercase}
.get{color:#0a6}.post{color:#06c}.delete{color:#c30}.put,.patch{color:#a60}
table{border-collapse:collapse;margin:.4rem 0}
th,td{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}
nav ul{columns:2}
"""


def render_docs_page(document: dict[str, Any]) -> str:
    """The whole page for `document` (an OpenAPI 3.x dict), escaped throughout."""
    info = document.get("info", {})
    title = str(info.get("title", "API"))
    operations = list(_operations(document))
    schemas = document.get("components", {}).get("schemas", {})
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)} API</title><style>{_STYLE}</style></head><body>",
        f"<h1>{_e(title)} API <small>version {_e(info.get('version', ''))}</small></h1>",
        _prose(info.get("description")),
        f"<p>OpenAPI {_e(document.get('openapi', ''))}: the machine-readable document is at "
        '<a href="/openapi.json"><code>/openapi.json</code></a>.</p>',
        '<nav><h2 id="operations">Operations</h2><ul>',
        *(f'<li><a href="#{_anchor(m, p)}">{_method(m)} <code>{_e(p)}</code></a></li>' for m, p, _ in operations),
        "</ul></nav>",
        *(_operation(method, path, operation) for method, path, operation in operations),
        '<h2 id="schemas">Schemas</h2>',
        *(_schema_section(name, schema) for name, schema in schemas.items()),
        "</body></html>",
    ]
    return "\n".join(part for part in parts if part)


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    found = []
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            if isinstance(item.get(method), dict):
                found.append((method, str(path), item[method]))
    return found


def _operation(method: str, path: str, operation: dict[str, Any]) -> str:
    parts = [
        f'<section class="operation" id="{_anchor(method, path)}">',
        f"<h3>{_method(method)} <code>{_e(path)}</code></h3>",
    ]
    if operation.get("summary"):
        parts.append(f"<p><strong>{_e(operation['summary'])}</strong></p>")
    parts.append(_prose(operation.get("description")))
    parameters = operation.get("parameters", [])
    if parameters:
        parts.append("<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>type</th><th>description</th></tr>")
        for parameter in parameters:
            required = " (required)" if parameter.get("required") else ""
            parts.append(
                f"<tr><td><code>{_e(parameter.get('name', ''))}</code>{required}</td><td>{_e(parameter.get('in', ''))}"
                f"</td><td>{_type(parameter.get('schema', {}))}</td>"
                f"<td>{_inline(parameter.get('description', ''))}</td></tr>"
            )
        parts.append("</table>")
    body = operation.get("requestBody")
    if isinstance(body, dict):
        required = " (required)" if body.get("required") else ""
        parts.append(f"<h4>Body{required}</h4>{_content(body)}")
    responses = operation.get("responses", {})
    if responses:
        parts.append("<h4>Answers</h4><table><tr><th>status</th><th>meaning</th><th>body</th></tr>")
        for status in sorted(responses, key=str):
            answer = responses[status]
            parts.append(
                f"<tr><td>{_e(status)}</td><td>{_inline(answer.get('description', ''))}</td>"
                f"<td>{_content(answer)}</td></tr>"
            )
        parts.append("</table>")
    parts.append("</section>")
    return "\n".join(part for part in parts if part)


def _content(holder: dict[str, Any]) -> str:
    shown = []
    for media, entry in holder.get("content", {}).items():
        schema = entry.get("schema", {}) if isinstance(entry, dict) else {}
        shown.append(f"<code>{_e(media)}</code>: {_type(schema)}{_fields(schema)}")
    return "<br>".join(shown)


def _schema_section(name: str, schema: dict[str, Any]) -> str:
    return (
        f'<section class="schema" id="schema-{_e(name)}"><h3>{_e(name)}</h3>'
        f"{_prose(schema.get('description'))}{_type(schema)}{_fields(schema)}</section>"
    )


def _fields(schema: dict[str, Any]) -> str:
    """The properties of an object schema written in place, as a table; nothing for a reference."""
    properties = schema.get("properties") if isinstance(schema, dict) and "$ref" not in schema else None
    if not isinstance(properties, dict) or not properties:
        return ""
    required = set(schema.get("required", []))
    rows = ["<table><tr><th>field</th><th>type</th><th>description</th></tr>"]
    for field, sub in properties.items():
        mark = " (required)" if field in required else ""
        rows.append(
            f"<tr><td><code>{_e(field)}</code>{mark}</td><td>{_type(sub)}{_fields(sub)}</td>"
            f"<td>{_inline(sub.get('description', '') if isinstance(sub, dict) else '')}</td></tr>"
        )
    rows.append("</table>")
    return "".join(rows)


def _type(schema: Any) -> str:
    """A schema in a few words: `string`, `array of Hit` (linked), `integer | null`, `one of a, b`."""
    if not isinstance(schema, dict) or not schema:
        return "any"
    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = ref.removeprefix(_REF)
        return f'<a href="#schema-{_e(name)}">{_e(name)}</a>'
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(schema.get(key), list):
            joiner = " &amp; " if key == "allOf" else " | "
            return joiner.join(_type(option) for option in schema[key])
    if "enum" in schema:
        return "one of " + ", ".join(f"<code>{_e(_json(v))}</code>" for v in schema["enum"])
    kind = schema.get("type", "any")
    kinds = kind if isinstance(kind, list) else [kind]
    words = []
    for one in kinds:
        if one == "array":
            words.append(f"array of {_type(schema.get('items', {}))}")
        else:
            words.append(_e(one) + (f" ({_e(schema['format'])})" if one == "string" and "format" in schema else ""))
    return " | ".join(words)


def _json(value: Any) -> str:
    return "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def _anchor(method: str, path: str) -> str:
    return _e(f"{method}-{re.sub(r'[^A-Za-z0-9_-]+', '-', path).strip('-')}")


def _method(method: str) -> str:
    return f'<span class="method {_e(method)}">{_e(method.upper())}</span>'


def _prose(text: Any) -> str:
    """Paragraphs of a description, `code` spans kept; everything else escaped, never markup."""
    if not text:
        return ""
    return "".join(f"<p>{_inline(block)}</p>" for block in re.split(r"\n\s*\n", str(text).strip()) if block.strip())


def _inline(text: Any) -> str:
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", _e(text))


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)
