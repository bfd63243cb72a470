"""The web view as a person and a hostile page meet it: `memoir serve` on 127.0.0.1, plain HTTP.

Every page answers with escaped HTML under a policy that runs no script; forms change memory
only through the façade and only with the page's own token; with an API key the pages ask
for a sign-in whose cookie is a MAC, never the key. The browser walk is in test_web_browser.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape

from memoir import Memoir
from memoir.server import serving

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "conversation.jsonl"
EVENTS = [json.loads(line) for line in EXAMPLE.read_text().splitlines() if line.strip()]
KEY = "web-key-" + "k" * 24


@pytest.fixture
def site(open_memoir: Callable[..., Memoir]) -> Iterator[tuple[Memoir, httpx.Client]]:
    memoir = open_memoir(embedding_provider="hashing")
    memoir.ingest(EVENTS)
    memoir.flush()
    memoir.update_timeline(rebuild=True)
    with serving(memoir) as where, httpx.Client(base_url=where.url, timeout=30) as client:
        yield memoir, client


class Markup(HTMLParser):
    """What a page's markup would run or follow: script elements, `on…` handlers, `javascript:` links."""

    def __init__(self) -> None:
        super().__init__()
        self.risky: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.risky.append("<script>")
        for name, value in attrs:
            if name.startswith("on") or (value or "").strip().lower().startswith("javascript:"):
                self.risky.append(f"{tag} {name}={value}")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def read_markup(page: str) -> Markup:
    parser = Markup()
    parser.feed(page)
    return parser


def csrf(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, "the page has no form token"
    return found.group(1)


def links(page: str, pattern: str) -> list[str]:
    return [href.replace("&amp;", "&") for href in re.findall(rf'href="({re.escape(pattern)}[^"]*)"', page)]


def test_every_page_answers_html_that_runs_no_script(site: tuple[Memoir, httpx.Client]) -> None:
    memoir, client = site
    fact = memoir.remember("The user's dog is called Biscuit", tags=["important"])
    pages = ["/", "/ui/c/lighthouse", "/ui/c/lighthouse/events", "/ui/search?q=allergic", "/ui/memories"]
    pages += [f"/ui/memory/{fact.id}", "/ui/work", "/ui/doctor"]
    for path in pages:
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.text[:300])
        assert answer.headers["content-type"].startswith("text/html")
        assert "script-src" not in answer.headers["content-security-policy"]  # default-src 'none' covers scripts
        assert "default-src 'none'" in answer.headers["content-security-policy"]
        assert "<script" not in answer.text
        assert client.get(path, headers={"Host": "evil.example"}).status_code == 421  # the Guard covers pages too


class Controls(HTMLParser):
    """The page's controls as a keyboard and a screen reader meet them."""

    def __init__(self) -> None:
        super().__init__()
        self.labelled: set[str] = set()  # ids a <label for=…> names
        self.fields: list[dict[str, str | None]] = []
        self.buttons: list[tuple[dict[str, str | None], str]] = []
        self.tab_orders: list[str | None] = []
        self.links_without_href = 0
        self._button: dict[str, str | None] | None = None
        self._button_text = ""
        self._in_label = 0  # a field inside its <label> is named by it

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if "tabindex" in found:
            self.tab_orders.append(found["tabindex"])
        if tag == "label":
            self._in_label += 1
            if found.get("for"):
                self.labelled.add(str(found["for"]))
        elif tag in ("input", "select", "textarea") and found.get("type") not in ("hidden", "submit"):
            self.fields.append({**found, "in-label": "yes" if self._in_label else None})
        elif tag == "button":
            self._button, self._button_text = found, ""
        elif tag == "a" and not found.get("href"):
            self.links_without_href += 1

    def handle_data(self, data: str) -> None:
        if self._button is not None:
            self._button_text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self._in_label = max(0, self._in_label - 1)
        if tag == "button" and self._button is not None:
            self.buttons.append((self._button, self._button_text.strip()))
            self._button = None


def contrast(one: str, other: str) -> float:
    """WCAG 2's contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_control_is_labelled_and_reachable_by_keyboard_and_text_is_readable(
    site: tuple[Memoir, httpx.Client],
) -> None:
    memoir, client = site
    fact = memoir.remember("The user's dog is called Biscuit")
    pages = ["/", "/ui/c/lighthouse", "/ui/c/lighthouse/events", "/ui/search?q=allergic", "/ui/memories"]
    pages += [f"/ui/memory/{fact.id}", "/ui/work", "/ui/doctor"]
    for path in pages:
        controls = Controls()
        controls.feed(client.get(path).text)
        for field in controls.fields:  # a field is named by its label, or by aria-label where it has none
            assert field["in-label"] or field.get("id") in controls.labelled or field.get("aria-label"), (path, field)
        for button, text in controls.buttons:
            assert text or button.get("aria-label"), (path, button)
        # Native controls and links with an address are in the tab order; no page takes one out or reorders it.
        assert all(order == "0" for order in controls.tab_orders), (path, controls.tab_orders)
        assert controls.links_without_href == 0, path
    css = client.get("/ui/static/memoir.css").text
    colours = dict(re.findall(r"--([a-z]+): (#[0-9a-f]{6})", css))
    pairs = [(colours[name], colours["bg"]) for name in ("ink", "muted", "accent", "bad", "good")]
    pairs += [(colours["ink"], "#f2f2f2"), (colours["ink"], "#fff4c2"), ("#7a4b00", colours["bg"])]  # buttons, marks
    for text, background in pairs:
        assert contrast(text, background) >= 4.5, (text, background)  # WCAG AA for body text
    assert "outline: 3px solid" in css  # focus shows


def test_the_timeline_walks_down_to_the_original_messages(site: tuple[Memoir, httpx.Client]) -> None:
    _, client = site
    page = client.get("/").text
    assert links(page, "/ui/c/lighthouse")
    conversation = client.get("/ui/c/lighthouse").text
    assert "<svg" in conversation and "Events per day" in conversation  # the activity chart
    path = links(conversation, "/ui/c/lighthouse/node/")[0]
    levels = []
    while True:  # year -> month -> week -> day -> segment, the first child each time
        node = client.get(path).text
        levels.append(re.search(r'<p class="muted">(\w+) ·', node).group(1))  # type: ignore[union-attr]
        children = [link for link in links(node, "/ui/c/lighthouse/node/") if "cursor=" not in link]
        children = [link for link in children if link != path and link not in path]
        if levels[-1] == "segment" or not children:
            break
        path = children[-1]
    assert levels[0] == "year" and levels[-1] == "segment", levels
    assert '<details class="evidence">' in node and '<tr class="mark">' in node  # the evidence opens in place
    grip = links(node, "/ui/grip/")[0]
    evidence = client.get(grip).text
    assert '<tr class="mark">' in evidence  # the message the bullet rests on, among its neighbours
    day = links(conversation, "/ui/c/lighthouse/events?day=")[0]
    assert client.get(day).text.count("<tr") > 1  # a bar of the chart opens that day's events


def test_search_finds_what_the_example_says_and_opens_its_session(site: tuple[Memoir, httpx.Client]) -> None:
    _, client = site
    form = {"q": "allergic", "kind": "turn", "conversation": "", "agent": "", "since": "", "until": ""}
    page = client.get("/ui/search", params=form).text  # as the form sends it: every field, some empty
    assert "allerg" in page.lower()
    session = links(page, "/ui/c/lighthouse/events?session=")[0]
    assert client.get(session).status_code == 200


def test_search_in_unified_mode_finds_one_agents_memory_by_the_agent_field(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(multi_agent_mode="unified", agent_id=None, embedding_provider="hashing")
    memoir.remember("The deploy key lives in the zebra vault", agent_id="coder", conversation_id="ops")
    with serving(memoir) as where, httpx.Client(base_url=where.url, timeout=30) as client:
        form = client.get("/ui/search").text
        assert '<label for="agent">Agent</label>' in form and 'id="agent" name="agent"' in form
        asked = {"q": "zebra vault", "conversation": "ops"}
        assert "The deploy key lives" in client.get("/ui/search", params={**asked, "agent": "coder"}).text
        assert "The deploy key lives" not in client.get("/ui/search", params={**asked, "agent": "planner"}).text
        assert "agent_id" in client.get("/ui/search", params=asked).text  # unified mode: whose, it asks


def test_an_edit_changes_the_markdown_file_and_keeps_the_history(site: tuple[Memoir, httpx.Client]) -> None:
    memoir, client = site
    fact = memoir.remember("The user's dog is called Biscut")
    page = client.get(f"/ui/memory/{fact.id}").text
    sent = {"csrf": csrf(page), "text": "The user's dog is called Biscuit", "agent": ""}
    answer = client.post(f"/ui/memory/{fact.id}/edit", data=sent)
    assert answer.status_code == 303
    new_id = answer.headers["location"].rsplit("/", 1)[1]
    assert "called Biscuit" in memoir.memory_path(new_id).read_text()
    history = client.get(answer.headers["location"]).text
    assert "Biscut" in history and "replaced" in history  # the old version, and what became of it
    gone = client.post(f"/ui/memory/{new_id}/forget", data={"csrf": csrf(history), "agent": ""})
    assert gone.status_code == 303
    assert memoir.memory_history(new_id)[-1].deleted_at is not None


def test_a_form_without_the_pages_token_changes_nothing(site: tuple[Memoir, httpx.Client]) -> None:
    memoir, client = site
    fact = memoir.remember("The user lives in Utrecht")
    before = [(m.id, m.content) for m in memoir.memories(include_deleted=True)]
    for data in ({"csrf": "0" * 64, "text": "hacked", "agent": ""}, {"text": "hacked", "agent": ""}):
        answer = client.post(f"/ui/memory/{fact.id}/edit", data=data)
        assert answer.status_code in (403, 422), answer.text[:200]
    cross_site = client.post(
        f"/ui/memory/{fact.id}/forget", data={"csrf": csrf(client.get("/ui/work").text), "agent": ""},
        headers={"Origin": "https://evil.example"},
    )  # fmt: skip
    assert cross_site.status_code == 403  # the Guard: a keyless server answers loopback pages only
    assert [(m.id, m.content) for m in memoir.memories(include_deleted=True)] == before


def test_jobs_pause_and_resume_from_the_work_page(site: tuple[Memoir, httpx.Client]) -> None:
    memoir, client = site
    page = client.get("/ui/work").text
    assert client.post("/ui/work/segment/pause", data={"csrf": csrf(page)}).status_code == 303
    assert next(j for j in memoir.scheduler_status() if j.name == "segment").paused
    assert "Resume" in client.get("/ui/work").text
    assert client.post("/ui/work/segment/resume", data={"csrf": csrf(page)}).status_code == 303
    assert not next(j for j in memoir.scheduler_status() if j.name == "segment").paused


MARKUP = st.sampled_from(
    ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", '"><svg onload=1>']
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=st.text(max_size=40), markup=MARKUP, after=st.text(max_size=40))
def test_memory_text_is_shown_as_text_on_every_page(
    site: tuple[Memoir, httpx.Client], before: str, markup: str, after: str
) -> None:
    memoir, client = site
    try:
        fact = memoir.remember(f"The user said {before}{markup}{after}")
    except Exception:  # noqa: BLE001 - text the façade refuses never reaches a page
        return
    for path in (f"/ui/memory/{fact.id}", "/ui/memories"):
        page = read_markup(client.get(path).text)
        assert page.risky == [], path
        assert markup in "".join(page.text), path  # shown, as text
    found = read_markup(client.get("/ui/search", params={"q": markup, "kind": "fact"}).text)
    assert found.risky == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.binary(max_size=200))
def test_any_form_body_is_refused_cleanly_or_accepted(site: tuple[Memoir, httpx.Client], body: bytes) -> None:
    memoir, client = site
    before = [m.content for m in memoir.memories(include_deleted=True)]
    answer = client.post(
        "/ui/work/segment/pause", content=body, headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert answer.status_code in (403, 422), answer.status_code  # never 500, never a change without the token
    assert answer.headers["content-type"].startswith("text/html")
    assert [m.content for m in memoir.memories(include_deleted=True)] == before


def test_with_a_key_the_pages_ask_for_a_sign_in_and_the_cookie_is_not_the_key(
    open_memoir: Callable[..., Memoir],
) -> None:
    memoir = open_memoir(embedding_provider="hashing", api_key=KEY)
    with serving(memoir) as where, httpx.Client(base_url=where.url, timeout=30) as client:
        assert client.get("/").status_code == 303  # to the sign-in page
        assert client.get("/api/v1/status").status_code == 401
        form = client.get("/ui/signin").text
        wrong = client.post("/ui/signin", data={"csrf": csrf(form), "key": "nope" * 5})
        assert wrong.status_code == 403 and "memoir_session" not in client.cookies
        right = client.post("/ui/signin", data={"csrf": csrf(form), "key": KEY})
        assert right.status_code == 303
        session = client.cookies["memoir_session"]
        assert KEY not in session and KEY not in right.headers["location"]
        assert "HttpOnly" in right.headers["set-cookie"] and "SameSite=strict" in right.headers["set-cookie"]
        assert client.get("/").status_code == 200
        assert client.get("/api/v1/status").status_code == 401  # the cookie opens pages, never the API
        client.cookies.clear()
        client.cookies.set("memoir_session", session[:-1] + ("0" if session[-1] != "0" else "1"))
        assert client.get("/").status_code == 303  # a session whose MAC is not the server's


def test_the_memories_page_reads_only_the_newest_from_the_store(site: tuple[Memoir, httpx.Client]) -> None:
    memoir, client = site
    everything = memoir.memories()
    assert memoir.memories(newest=3) == everything[-3:]  # still oldest first
    assert memoir.memories(newest=10_000) == everything
    page = client.get("/ui/memories").text
    first, last = (str(escape(m.content)) for m in (everything[0], everything[-1]))
    assert page.index(last) < page.index(first)  # newest first on the page
