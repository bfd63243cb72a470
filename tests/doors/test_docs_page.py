"""`/docs` as a browser shows it: every operation of the OpenAPI document, with nothing to fetch and no script.

The browser test runs a real `memoir serve` and Debian's headless Chromium (`make test`
installs it as root: see the Makefile's `browser` target), which honours the page's
Content-Security-Policy (no script, nothing fetched), and reads the DOM Chromium built.
Without Chromium the test is skipped on a developer's machine and fails under CI, where
`make test` must have installed it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest

from memoir import Memoir
from memoir.server.app import create_app
from memoir.server.docs_page import METHODS, render_docs_page
from tests.system.test_serve import banner, start, stop

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",  # as root (CI) Chromium refuses to start with its sandbox
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def chromium() -> str:
    found = next(filter(None, map(shutil.which, BROWSERS)), None)
    if found:
        return found
    advice = "no Chromium to render /docs with: `make test` installs it as root (apt-get install chromium)"
    if os.environ.get("CI"):
        pytest.fail(advice + "; under CI it must be there")
    pytest.skip(advice)


def rendered_dom(browser: str, url: str) -> str:
    """The DOM headless Chromium built from `url`, as HTML."""
    with tempfile.TemporaryDirectory(prefix="memoir-chromium-") as profile:
        done = subprocess.run(
            [browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", url],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0 and "<body" in done.stdout, done.stderr[-2000:]
    return done.stdout


class Headings(HTMLParser):
    """The text of each `<h3>` inside a `<section class="operation">`: "GET /health", ..."""

    def __init__(self) -> None:
        super().__init__()
        self.operations: list[str] = []
        self.scripts = 0
        self._in_operation = False
        self._heading: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts += 1
        if tag == "section":
            self._in_operation = "operation" in (dict(attrs).get("class") or "").split()
        elif tag == "h3" and self._in_operation:
            self._heading = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "h3" and self._heading is not None:
            self.operations.append(" ".join("".join(self._heading).split()))
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._heading.append(data)


def operations_of(document: dict[str, Any]) -> list[str]:
    return [
        f"{method.upper()} {path}" for path, item in document["paths"].items() for method in METHODS if method in item
    ]


def read(page: str) -> Headings:
    headings = Headings()
    headings.feed(page)
    return headings


@pytest.mark.slow
def test_a_headless_browser_shows_every_operation_of_the_served_document(tmp_path: Path) -> None:
    browser = chromium()
    process = start(tmp_path / "home")
    try:
        url, _ = banner(process)
        document = httpx.get(url + "/openapi.json").json()
        policy = httpx.get(url + "/docs").headers.get("content-security-policy", "")
        dom = rendered_dom(browser, url + "/docs")
    finally:
        stop(process)
    assert document["openapi"].startswith("3.1")  # the version Swagger UI 4 could not render
    expected = operations_of(document)
    assert len(expected) >= 20 and "POST /api/v1/search" in expected
    shown = read(dom)
    assert shown.operations == expected
    assert shown.scripts == 0 and "Unable to render" not in dom
    assert "default-src 'none'" in policy and "script-src" not in policy  # no script could run, nothing loads
    assert '<a href="#schema-Hit">Hit</a>' in dom  # answers link to their schemas, which the page holds
    assert 'id="schema-Hit"' in dom


def test_the_page_fetches_nothing_and_escapes_what_the_document_says(open_memoir: Callable[..., Memoir]) -> None:
    document = create_app(open_memoir(embedding_provider="hashing")).openapi()
    page = render_docs_page(document)
    assert read(page).operations == operations_of(document)
    assert "src=" not in page and "@import" not in page and "url(" not in page
    links = [part.split('"', 1)[0] for part in page.split('href="')[1:]]
    assert links and all(link.startswith("#") or link == "/openapi.json" for link in links), links

    hostile = json.loads(json.dumps(document))
    hostile["info"]["description"] = "<script>alert(1)</script> and `<b>code</b>`"
    hostile["paths"]["/api/v1/search"]["post"]["summary"] = '"><img src=x onerror=alert(1)>'
    hostile["paths"]["/x/<script>"] = {"get": {"responses": {}}}
    page = render_docs_page(hostile)
    assert "<script" not in page and "<img" not in page and "<b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<code>&lt;b&gt;code&lt;/b&gt;</code>" in page
    assert read(page).operations[-1] == "GET /x/<script>"
