"""The web view's pages: one route per page, each a few façade reads and a template.

Paths: `/` (conversations), `/ui/c/{conversation}` (its timeline and activity),
`/ui/c/{conversation}/node/{node_id}` (a node, its versions, its children),
`/ui/grip/{grip_id}` (the messages a bullet rests on), `/ui/c/{conversation}/events`,
`/ui/search`, `/ui/memories`, `/ui/memory/{memory_id}` (with edit and forget),
`/ui/work` (jobs, backlog, the model's breaker and cost), `/ui/doctor`, `/ui/signin`.
A façade error becomes the error page with the status every door gives it.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from datetime import UTC, date, datetime
from importlib.resources import files
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from starlette.concurrency import run_in_threadpool

from memoir.auth import WEB_SESSION_COOKIE, WEB_SESSION_S, key_matches, web_session
from memoir.errors import InvalidQuery, MemoirError, answer_for
from memoir.facade.doctor import Finding
from memoir.facade.engine import Memoir
from memoir.model.limits import MEMORIES_SHOWN
from memoir.model.timeline import TocNode
from memoir.web.charts import bars
from memoir.web.forms import csrf_token, read_form

__all__ = ["create_web_router"]

# The pages run no script of anyone's and load nothing from elsewhere, whatever a memory says.
POLICY = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none';"
    " frame-ancestors 'none'"
)
SHOWN = MEMORIES_SHOWN  # memories listed on one page, newest first
STALE_FORM = "This form is stale or came from another site: nothing was changed. Load the page again."
KINDS = ("turn", "fact", "gotcha", "decision", "learning", "summary")
CSS = files("memoir.web").joinpath("static/memoir.css").read_bytes()


class DoctorRuns:
    """`memoir doctor` reads the whole home (seconds at 100,000 events): the page shows the last
    findings at once and a check runs in the background, one at a time."""

    def __init__(self, memoir: Memoir) -> None:
        self.memoir = memoir
        self.lock = threading.Lock()
        self.findings: list[Finding] | None = None
        self.at: datetime | None = None
        self.running = False

    def start(self) -> None:
        with self.lock:
            if self.running:
                return
            self.running = True
        threading.Thread(target=self._run, name="memoir-web-doctor", daemon=True).start()

    def _run(self) -> None:
        try:
            findings = self.memoir.doctor()
        except MemoirError as exc:
            findings = [Finding("error", "doctor", str(exc))]
        with self.lock:
            self.findings, self.at, self.running = findings, datetime.now(UTC), False


class Pages:
    def __init__(self, memoir: Memoir, api_key: str | None) -> None:
        self.memoir = memoir
        self.doctor = DoctorRuns(memoir)
        self.api_key = api_key
        self.secret = secrets.token_bytes(32)
        self.templates = Environment(
            loader=PackageLoader("memoir.web", "templates"),
            autoescape=select_autoescape(default=True),
            undefined=StrictUndefined,  # a name a template misspells fails its test, not silently
        )
        self.templates.filters["when"] = _when
        self.templates.filters["seg"] = lambda value: quote(str(value), safe="")  # one path segment or query value

    def render(self, request: Request, name: str, code: int = 200, **values: Any) -> HTMLResponse:
        session = request.cookies.get(WEB_SESSION_COOKIE)
        page = self.templates.get_template(name).render(
            csrf=csrf_token(self.secret, session),
            signed_in=self.api_key is not None,
            agent=request.query_params.get("agent") or "",
            **values,
        )
        return HTMLResponse(page, status_code=code, headers=_headers())

    def failed(self, request: Request, exc: MemoirError) -> HTMLResponse:
        return self.render(request, "error.html", answer_for(exc).http, message=str(exc))

    async def page(self, request: Request, name: str, read: Callable[[], dict[str, Any]]) -> HTMLResponse:
        """Render `name` with what `read` gathers (off the event loop), or the error page."""
        try:
            values = await run_in_threadpool(read)
        except MemoirError as exc:
            return self.failed(request, exc)
        return self.render(request, name, **values)

    async def post(self, request: Request, fields: tuple[str, ...], act: Callable[[dict[str, str]], str]) -> Response:
        """Check a form's token, then `act` on its fields (off the event loop) and go where it says."""
        try:
            form = read_form(await request.body(), fields)
            if not key_matches(form["csrf"], csrf_token(self.secret, request.cookies.get(WEB_SESSION_COOKIE))):
                return self.render(request, "error.html", 403, message=STALE_FORM)
            where = await run_in_threadpool(act, form)
        except MemoirError as exc:
            return self.failed(request, exc)
        return RedirectResponse(where, status_code=303, headers=_headers())


def create_web_router(memoir: Memoir, api_key: str | None) -> APIRouter:
    router = APIRouter(include_in_schema=False)
    pages = Pages(memoir, api_key)
    _browse_routes(router, pages)
    _memory_routes(router, pages)
    _work_routes(router, pages)
    _session_routes(router, pages)
    return router


def _browse_routes(router: APIRouter, pages: Pages) -> None:
    memoir = pages.memoir

    @router.get("/")
    async def home(request: Request, agent: str | None = None) -> HTMLResponse:
        return await pages.page(request, "home.html", lambda: {"conversations": memoir.conversations(agent_id=agent)})

    @router.get("/ui/c/{conversation_id}")
    async def conversation(request: Request, conversation_id: str, agent: str | None = None) -> HTMLResponse:
        def read() -> dict[str, Any]:
            days = memoir.activity(conversation_id, agent_id=agent)
            years = memoir.toc_root(conversation_id, agent_id=agent)
            chart = bars([(d.day.isoformat(), d.events) for d in days], "events")
            return {"conversation_id": conversation_id, "days": days, "chart": chart, "years": years}

        return await pages.page(request, "conversation.html", read)

    @router.get("/ui/c/{conversation_id}/node/{node_id}")
    async def node(
        request: Request, conversation_id: str, node_id: str, version: int | None = None,
        compare: int | None = None, cursor: str | None = None, agent: str | None = None,
    ) -> HTMLResponse:  # fmt: skip
        def read() -> dict[str, Any]:
            def at(which: int | None) -> TocNode:
                return memoir.toc_node(node_id, which, conversation_id=conversation_id, agent_id=agent)

            shown, latest, other = at(version), at(None), at(compare) if compare else None
            children = memoir.browse_toc(node_id, 50, cursor, conversation_id=conversation_id, agent_id=agent)
            # Each bullet's evidence, to open in place: the messages and a turn on either side.
            grips = {g: memoir.expand_grip(g, 1, 1, agent_id=agent) for b in shown.bullets for g in b.grip_ids}
            return {
                "conversation_id": conversation_id, "node": shown, "latest": latest, "other": other,
                "changes": _changes(other, shown) if other else None, "children": children, "grips": grips,
            }  # fmt: skip

        return await pages.page(request, "node.html", read)

    @router.get("/ui/grip/{grip_id}")
    async def grip(request: Request, grip_id: str, agent: str | None = None) -> HTMLResponse:
        return await pages.page(
            request, "grip.html", lambda: {"found": memoir.expand_grip(grip_id, 3, 3, agent_id=agent)}
        )

    @router.get("/ui/c/{conversation_id}/events")
    async def events(
        request: Request, conversation_id: str, session: str | None = None, day: str | None = None,
        cursor: str | None = None, agent: str | None = None,
    ) -> HTMLResponse:  # fmt: skip
        def read() -> dict[str, Any]:
            since, until = _day_bounds(day)
            page = memoir.events(since, until, session, conversation_id, 200, cursor, agent)
            return {"conversation_id": conversation_id, "page": page, "session": session or "", "day": day or ""}

        return await pages.page(request, "events.html", read)

    @router.get("/ui/search")
    async def search(
        request: Request, q: str = "", kind: str = "", conversation: str = "", since: str = "", until: str = "",
        agent: str = "",
    ) -> HTMLResponse:  # fmt: skip
        def read() -> dict[str, Any]:
            hits = []
            if q.strip():
                hits = memoir.search(
                    q, k=20, conversation_id=conversation or None, kinds=[kind] if kind else None,
                    since=since or None, until=until or None, agent_id=agent or None,  # the form's empty field
                )  # fmt: skip
            asked = {"q": q, "kind": kind, "conversation": conversation, "since": since, "until": until}
            return {"hits": hits, "asked": asked, "kinds": KINDS}

        return await pages.page(request, "search.html", read)


def _memory_routes(router: APIRouter, pages: Pages) -> None:
    memoir = pages.memoir

    @router.get("/ui/memories")
    async def memories(
        request: Request, kind: str = "", conversation: str = "", deleted: bool = False, agent: str | None = None
    ) -> HTMLResponse:
        def read() -> dict[str, Any]:
            # A page a person can read, read as such from the store; filters narrow the rest.
            found = memoir.memories(conversation or None, kind or None, deleted, agent_id=agent, newest=SHOWN)
            asked = {"kind": kind, "conversation": conversation, "deleted": deleted}
            return {"memories": found[::-1], "more": len(found) == SHOWN, "asked": asked, "kinds": KINDS[1:]}

        return await pages.page(request, "memories.html", read)

    @router.get("/ui/memory/{memory_id}")
    async def memory(request: Request, memory_id: str, agent: str | None = None) -> HTMLResponse:
        def read() -> dict[str, Any]:
            history = memoir.memory_history(memory_id, agent_id=agent)
            shown = next((m for m in history if m.id == memory_id), history[-1])
            return {"memory": shown, "history": history, "path": str(memoir.memory_path(shown, agent_id=agent))}

        return await pages.page(request, "memory.html", read)

    @router.post("/ui/memory/{memory_id}/edit")
    async def edit(request: Request, memory_id: str) -> Response:
        def act(form: dict[str, str]) -> str:
            corrected = memoir.correct(memory_id, form["text"], agent_id=form["agent"] or None)
            return f"/ui/memory/{corrected.id}" + (f"?agent={form['agent']}" if form["agent"] else "")

        return await pages.post(request, ("text", "agent"), act)

    @router.post("/ui/memory/{memory_id}/forget")
    async def forget(request: Request, memory_id: str) -> Response:
        def act(form: dict[str, str]) -> str:
            memoir.forget(memory_id, agent_id=form["agent"] or None)
            return f"/ui/memory/{memory_id}" + (f"?agent={form['agent']}" if form["agent"] else "")

        return await pages.post(request, ("agent",), act)


def _work_routes(router: APIRouter, pages: Pages) -> None:
    memoir = pages.memoir

    @router.get("/ui/work")
    async def work(request: Request) -> HTMLResponse:
        def read() -> dict[str, Any]:
            ledger = memoir.llm_ledger(30)
            per_day: dict[str, int] = {}
            for row in ledger:
                per_day[row.day.isoformat()] = per_day.get(row.day.isoformat(), 0) + row.tokens
            budgets = dict(memoir.settings.llm.daily_tokens)
            return {
                "status": memoir.status(), "jobs": memoir.scheduler_status(), "ledger": ledger,
                "chart": bars(sorted(per_day.items()), "tokens"), "budgets": budgets,
            }  # fmt: skip

        return await pages.page(request, "work.html", read)

    @router.get("/ui/doctor")
    async def doctor(request: Request) -> HTMLResponse:
        runs = pages.doctor
        if runs.findings is None:
            runs.start()  # the first look: check now; the page says so
        return pages.render(request, "doctor.html", findings=runs.findings, at=runs.at, running=runs.running)

    @router.post("/ui/doctor")
    async def doctor_again(request: Request) -> Response:
        def act(form: dict[str, str]) -> str:
            pages.doctor.start()
            return "/ui/doctor"

        return await pages.post(request, (), act)

    @router.post("/ui/work/{name}/{action}")
    async def pause_or_resume(request: Request, name: str, action: str) -> Response:
        def act(form: dict[str, str]) -> str:
            if action not in ("pause", "resume"):
                raise InvalidQuery("action", f"{action[:40]!r} is not pause or resume")
            (memoir.pause_job if action == "pause" else memoir.resume_job)(name)
            return "/ui/work"

        return await pages.post(request, (), act)


def _session_routes(router: APIRouter, pages: Pages) -> None:
    @router.get("/ui/signin")
    async def signin_page(request: Request) -> HTMLResponse:
        return pages.render(request, "signin.html", wrong=False)

    @router.post("/ui/signin")
    async def signin(request: Request) -> Response:
        try:
            form = read_form(await request.body(), ("key",))
        except MemoirError as exc:
            return pages.failed(request, exc)
        # No session yet: the sign-in form's token is the one made for "no session".
        fresh = key_matches(form["csrf"], csrf_token(pages.secret, None))
        if pages.api_key is None or not fresh or not key_matches(form["key"], pages.api_key):
            return pages.render(request, "signin.html", 403, wrong=True)
        response = RedirectResponse("/", status_code=303, headers=_headers())
        token = web_session(pages.api_key, time.time())
        response.set_cookie(WEB_SESSION_COOKIE, token, max_age=WEB_SESSION_S, httponly=True, samesite="strict")
        return response

    @router.post("/ui/signout")
    async def signout(request: Request) -> Response:
        response = RedirectResponse("/ui/signin", status_code=303, headers=_headers())
        response.delete_cookie(WEB_SESSION_COOKIE)
        return response

    @router.get("/ui/static/memoir.css")
    async def css() -> Response:
        return Response(CSS, media_type="text/css", headers={"Cache-Control": "max-age=3600"})


def _headers() -> dict[str, str]:
    # `same-origin`, not `no-referrer`: under no-referrer Chromium sends `Origin: null` with the
    # page's own form posts, which the Guard must refuse (it cannot tell them from a foreign page's).
    return {"Content-Security-Policy": POLICY, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}


def _when(moment: datetime | None) -> str:
    return "" if moment is None else moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M")


def _day_bounds(day: str | None) -> tuple[str | None, str | None]:
    """A `YYYY-MM-DD` day as [since, until) in UTC, for the events of one bar of the chart."""
    if not day:
        return None, None
    try:
        start = date.fromisoformat(day)
    except ValueError:
        raise InvalidQuery("day", f"{day[:40]!r} is not a date (YYYY-MM-DD)") from None
    end = date.fromordinal(start.toordinal() + 1)
    return start.isoformat() + "T00:00:00Z", end.isoformat() + "T00:00:00Z"


def _changes(before: TocNode, after: TocNode) -> dict[str, list[str]]:
    """Bullets one version has and the other has not, by their text."""
    old, new = [b.text for b in before.bullets], [b.text for b in after.bullets]
    return {"removed": [t for t in old if t not in new], "added": [t for t in new if t not in old]}
