"""The timeline: segment summaries whose every bullet ends at messages, the table of contents, the scheduler.

Real SQLite, a real loopback HTTP server playing the model (the code path Ollama and
llama.cpp take), and the example conversation of the README.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memoir import Memoir
from memoir.errors import NotFound
from memoir.model.timeline import TocLevel, TocNode, period_of, period_start
from memoir.timeline.builder import rollup
from memoir.timeline.grips import long_words
from tests.conftest import cli, message
from tests.scripted_server import chat_reply, scripted_server

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "conversation.jsonl"
EVENTS = [json.loads(line) for line in EXAMPLE.read_text().splitlines() if line.strip()]


def segment_nodes(memoir: Memoir) -> list[TocNode]:
    nodes: list[TocNode] = []
    pending = memoir.toc_root()
    while pending:
        node = pending.pop()
        if node.level is TocLevel.SEGMENT:
            nodes.append(node)
        else:
            pending.extend(memoir.browse_toc(node.node_id, limit=1000, conversation_id=node.conversation_id).nodes)
    return sorted(nodes, key=lambda n: n.start_time)


def assert_grips_hold(memoir: Memoir, node: TocNode) -> None:
    """Every bullet has a grip, and the grip's events hold its excerpt and support the bullet."""
    for bullet in node.bullets:
        assert bullet.grip_ids, bullet
        for grip_id in bullet.grip_ids:
            context = memoir.expand_grip(grip_id, 0, 0)
            said = "\n".join(e.text for e in context.excerpt_events)
            assert context.grip.excerpt in said
            assert len(context.grip.excerpt) <= 200
            wanted = long_words(bullet.text)
            assert len(wanted & long_words(said)) > 0.3 * len(wanted)


# -- without a model: the extractive summarizer ------------------------------------------


def test_the_example_becomes_a_tree_whose_every_bullet_ends_at_messages(memoir: Memoir) -> None:
    memoir.ingest(EVENTS)
    assert memoir.flush(timeout=60)  # the sessions are from March 2026: quiet, so summarized and rolled up
    [year] = memoir.toc_root()
    assert (year.node_id, year.title, year.conversation_id) == ("toc:year:2026", "2026", "lighthouse")
    [month] = memoir.browse_toc(year.node_id).nodes
    assert (month.node_id, month.title) == ("toc:month:2026-03", "March 2026")
    weeks = memoir.browse_toc(month.node_id).nodes
    assert [w.node_id for w in weeks] == ["toc:week:2026-W10", "toc:week:2026-W11"]
    [day] = memoir.browse_toc("toc:week:2026-W11").nodes
    assert (day.node_id, day.title) == ("toc:day:2026-03-09", "Monday, March 9, 2026")
    segments = segment_nodes(memoir)
    assert len(segments) == 2  # one per session: no 30-minute gap, far from 4,000 tokens
    for node in segments:
        assert node.source == "extractive" and node.note is None
        assert 1 <= len(node.bullets) <= 5 and 3 <= len(node.keywords) <= 7
        assert 1 <= len(node.title.removesuffix(" …").split()) <= 10
        assert_grips_hold(memoir, node)
    # a rollup's bullets are its children's, grips and all
    children_grips = {g for n in segments for g in n.grip_ids}
    assert year.bullets and set(year.grip_ids) <= children_grips


def test_summaries_are_searchable_and_their_hits_end_at_the_grips_events(memoir: Memoir) -> None:
    memoir.ingest(EVENTS)
    assert memoir.flush(timeout=60)
    hits = memoir.search("switching the backend from Rust to Go", conversation_id="lighthouse", kinds=["summary"])
    assert hits and hits[0].kind == "summary" and hits[0].metadata["node_id"].startswith("toc:segment:2026-03-09")
    node = memoir.toc_node(hits[0].metadata["node_id"])
    cited = {e.event_id for g in node.grip_ids for e in memoir.expand_grip(g, 0, 0).excerpt_events}
    assert set(hits[0].event_ids) == cited  # "why do you think that?" ends at messages


def test_expand_grip_gives_the_context_around_the_evidence(memoir: Memoir) -> None:
    memoir.ingest(EVENTS)
    assert memoir.flush(timeout=60)
    node = segment_nodes(memoir)[1]
    context = memoir.expand_grip(node.bullets[1].grip_ids[0], before=2, after=1)
    session = list(memoir.events(session_id=context.excerpt_events[0].session_id, limit=1000))
    at = session.index(context.excerpt_events[0])
    assert context.events_before == session[max(0, at - 2) : at]
    end = session.index(context.excerpt_events[-1])
    assert context.events_after == session[end + 1 : end + 2]


def test_unknown_nodes_and_grips_are_clear_not_found_errors(memoir: Memoir, home: Path) -> None:
    memoir.ingest(EVENTS)
    assert memoir.flush(timeout=60)
    with pytest.raises(NotFound, match="no node 'toc:day:1999-01-01'"):
        memoir.toc_node("toc:day:1999-01-01")
    with pytest.raises(NotFound, match="no grip 'grip:1:nothing'"):
        memoir.expand_grip("grip:1:nothing")
    with pytest.raises(NotFound, match="has no version 9"):
        memoir.toc_node("toc:year:2026", version=9)
    result = cli("expand", "grip:1:nothing", home=home)
    assert result.exit_code == 2 and "no grip" in result.stderr


# -- the calendar -------------------------------------------------------------------------


def ancestors(memoir: Memoir, day: str) -> tuple[str | None, ...]:
    """(week, month, year) above a day node, by each node's own `parent_id`."""
    node = memoir.toc_node(f"toc:day:{day}")
    week = memoir.toc_node(node.parent_id or "")
    month = memoir.toc_node(week.parent_id or "")
    return week.node_id, month.node_id, month.parent_id


def test_rollups_cross_month_and_year_boundaries_and_an_iso_week_spanning_two_years(memoir: Memoir) -> None:
    days = ["2024-12-27", "2024-12-30", "2025-01-02", "2025-01-31", "2025-02-01", "2025-02-03", "2025-12-31"]
    for day in days:
        memoir.ingest(
            [
                message(
                    f"Notes for {day}: the lighthouse lamp needs a new lens.",
                    session_id=day,
                    timestamp=f"{day}T10:00:00Z",
                ),
                message("The keeper ordered it from the harbour shop.", session_id=day, timestamp=f"{day}T10:01:00Z"),
            ]
        )
    assert memoir.flush(timeout=60)
    parents = {day: ancestors(memoir, day) for day in days}
    assert parents["2024-12-27"] == ("toc:week:2024-W52", "toc:month:2024-12", "toc:year:2024")
    # ISO week 1 of 2025 runs from Monday 30 December 2024 to Sunday 5 January: one node per month it touches
    assert parents["2024-12-30"] == ("toc:week:2025-W01:2024-12", "toc:month:2024-12", "toc:year:2024")
    assert parents["2025-01-02"] == ("toc:week:2025-W01:2025-01", "toc:month:2025-01", "toc:year:2025")
    # Friday 31 January and Saturday 1 February share ISO week 5, and each stays in its own month
    assert parents["2025-01-31"] == ("toc:week:2025-W05:2025-01", "toc:month:2025-01", "toc:year:2025")
    assert parents["2025-02-01"] == ("toc:week:2025-W05:2025-02", "toc:month:2025-02", "toc:year:2025")
    assert parents["2025-02-03"] == ("toc:week:2025-W06", "toc:month:2025-02", "toc:year:2025")
    # the hostile trial's day: Wednesday 31 December 2025 is in ISO week 1 of 2026, and in 2025
    assert parents["2025-12-31"] == ("toc:week:2026-W01:2025-12", "toc:month:2025-12", "toc:year:2025")
    assert [y.node_id for y in memoir.toc_root()] == ["toc:year:2024", "toc:year:2025"]
    assert memoir.toc_node("toc:week:2025-W01:2024-12").title == "Week 1, 2025 (Dec 30 - Dec 31)"
    assert memoir.toc_node("toc:week:2025-W01:2025-01").title == "Week 1, 2025 (Jan 1 - Jan 5)"
    assert memoir.toc_node("toc:week:2025-W06").title == "Week 6, 2025 (Feb 3 - Feb 9)"
    assert [n.node_id for n in memoir.browse_toc("toc:month:2024-12").nodes] == [
        "toc:week:2024-W52",
        "toc:week:2025-W01:2024-12",
    ]
    assert [n.node_id for n in memoir.browse_toc("toc:week:2025-W01:2025-01").nodes] == ["toc:day:2025-01-02"]


CALENDAR = st.dates(min_value=date(1, 1, 1), max_value=date(9998, 12, 31))
NEAR_A_MONTHS_END = st.builds(
    lambda year, month, shift: date(year, month, 1) + timedelta(days=shift),
    st.integers(1900, 2200),
    st.integers(1, 12),
    st.integers(-4, 3),
)


@settings(max_examples=500)
@given(day=CALENDAR | NEAR_A_MONTHS_END)
def test_every_day_is_under_a_week_of_its_own_month_and_the_weeks_of_a_month_tile_it(day: date) -> None:
    week_id, title, start, end = period_of(TocLevel.WEEK, day)
    month_id, _, month_start, month_end = period_of(TocLevel.MONTH, day)
    assert start.date() <= day < end.date() and month_start <= start < end <= month_end
    assert period_start(week_id) == start.date() and period_of(TocLevel.WEEK, start.date())[0] == week_id
    assert period_of(TocLevel.MONTH, period_start(week_id))[0] == month_id  # how a rollup finds the parent
    assert period_of(TocLevel.YEAR, period_start(month_id))[0] == f"toc:year:{day.year}"
    iso_year, iso_week, _ = day.isocalendar()
    assert week_id.startswith(f"toc:week:{iso_year}-W{iso_week:02d}") and f"Week {iso_week}, {iso_year}" in title
    whole = (end - start).days == 7
    assert week_id.endswith(f"-W{iso_week:02d}") == whole  # only a week cut by a month's end names the month
    # the week's parts, next to each other, cover the month from its first day to its last
    before = period_of(TocLevel.WEEK, start.date() - timedelta(days=1)) if start > month_start else None
    assert before is None or (before[3] == start and before[0] != week_id)


def test_a_home_whose_weeks_crossed_months_is_rebuilt_when_it_is_opened(open_memoir: Callable[..., Memoir]) -> None:
    """Before decision 91 a week hung under the month of its Thursday: 31 December 2025 sat in 2026."""
    memoir = open_memoir(embedding_provider="hashing")
    for day in ("2025-12-31", "2026-01-02"):
        memoir.ingest([message(f"The lamp was checked on {day}.", session_id=day, timestamp=f"{day}T10:00:00Z")])
    memoir.flush(timeout=60)
    store = memoir._parts.store
    old = {  # the nodes the old rule wrote, over this home's own segments
        "toc:day:2025-12-31": "toc:week:2026-W01",
        "toc:day:2026-01-02": "toc:week:2026-W01",
        "toc:week:2026-W01": "toc:month:2026-01",
        "toc:month:2026-01": "toc:year:2026",
        "toc:year:2026": None,
    }
    for node_id, parent_id in old.items():
        children = memoir.browse_toc(node_id).nodes if node_id.startswith("toc:day") else []
        built = rollup(TocLevel(node_id.split(":")[1]), period_start(node_id), children, "default", None)
        store.toc_put(replace(built, node_id=node_id, parent_id=parent_id), created_ms=1)
    with store.atomic():  # as a home made before the step that rebuilds the calendar
        store._conn().execute("DELETE FROM _migrations WHERE name LIKE '%weeks_within_months'")
    memoir.close()
    memoir = open_memoir(embedding_provider="hashing")
    memoir.update_timeline()  # what `memoir timeline` and the rollup job do
    assert ancestors(memoir, "2025-12-31") == ("toc:week:2026-W01:2025-12", "toc:month:2025-12", "toc:year:2025")
    assert ancestors(memoir, "2026-01-02") == ("toc:week:2026-W01:2026-01", "toc:month:2026-01", "toc:year:2026")
    assert [y.node_id for y in memoir.toc_root()] == ["toc:year:2025", "toc:year:2026"]
    with pytest.raises(NotFound):
        memoir.toc_node("toc:week:2026-W01")  # the old week, which held days of two years, is gone
    day = memoir.toc_node("toc:day:2025-12-31")  # a new version; the one the old rule wrote stays readable
    assert memoir.toc_node(day.node_id, version=day.version - 1).parent_id == "toc:week:2026-W01"


def test_nodes_are_versioned_and_old_versions_stay_readable(memoir: Memoir) -> None:
    memoir.ingest([message("The lamp of the lighthouse was cleaned.", timestamp="2025-06-02T10:00:00Z")])
    memoir.ingest([message("The lens was polished as well.", timestamp="2025-06-02T10:05:00Z")])
    assert memoir.flush(timeout=60)
    first = memoir.toc_node("toc:day:2025-06-02")
    assert first.version == 1
    # the same day, another session: the day node is rolled up again (the day has long aged)
    memoir.ingest([message("The keeper painted the door red.", session_id="s9", timestamp="2025-06-02T18:00:00Z")])
    memoir.ingest([message("Then he oiled the hinges.", session_id="s9", timestamp="2025-06-02T18:03:00Z")])
    assert memoir.flush(timeout=60)
    latest = memoir.toc_node("toc:day:2025-06-02")
    assert latest.version == 2 and len(latest.child_node_ids) == 2
    assert memoir.toc_node("toc:day:2025-06-02", version=1) == first


def test_browsing_pages_through_children_with_a_cursor(memoir: Memoir) -> None:
    for n in range(5):
        memoir.ingest(
            [
                message(
                    f"Day {n}: the tide table was checked.",
                    session_id=f"d{n}",
                    timestamp=f"2025-07-0{2 * n + 1}T09:00:00Z",
                )
            ]
        )
    assert memoir.flush(timeout=60)
    seen, cursor = [], None
    while True:
        page = memoir.browse_toc("toc:month:2025-07", limit=2, cursor=cursor)
        seen.extend(n.node_id for n in page.nodes)
        if not page.has_more:
            break
        cursor = page.next_cursor
    assert seen == ["toc:week:2025-W27:2025-07", "toc:week:2025-W28"]  # week 27 began on 30 June
    week = memoir.browse_toc("toc:week:2025-W27:2025-07", limit=2)  # 1, 3 and 5 July
    assert len(week.nodes) == 2 and week.has_more and week.next_cursor
    rest = memoir.browse_toc("toc:week:2025-W27:2025-07", limit=2, cursor=week.next_cursor)
    assert [n.node_id for n in rest.nodes] == ["toc:day:2025-07-05"] and not rest.has_more


# -- with a model -------------------------------------------------------------------------


def lines_of(body: dict[str, Any]) -> list[str]:
    """The transcript a summary request carries: `[role] text` lines."""
    return [re.sub(r"^\[\w+\] ", "", line) for line in body["messages"][1]["content"].splitlines()]


def is_segment_request(body: dict[str, Any]) -> bool:
    return body["messages"][0]["content"].startswith("You summarize one part of a conversation")


def model(answer: Callable[[list[str]], str]) -> Callable[[dict[str, Any]], tuple[int, Any]]:
    def route(body: dict[str, Any]) -> tuple[int, Any]:
        if not is_segment_request(body):  # the conversation summary: a short true answer
            return 200, chat_reply(json.dumps({"summary": lines_of(body)[0][:80]}))
        return 200, chat_reply(answer(lines_of(body)))

    return route


def paraphrase(lines: list[str]) -> str:
    """What a small real model writes: shortened sentences in its own order, a title, keywords."""
    bullets = [" ".join(line.split()[:9]).rstrip(".,") for line in lines if len(line.split()) > 4][:4]
    return json.dumps(
        {"title": "Planning the lighthouse app with Sam", "bullets": bullets, "keywords": ["tides", "app"]}
    )


def open_with_model(open_memoir: Callable[..., Memoir], url: str, **options: Any) -> Memoir:
    return open_memoir(
        llm_model="qwen", llm_base_url=url + "/v1", memory_extract=False, embedding_provider="hashing", **options
    )


def test_a_models_summary_is_used_when_every_bullet_is_said_in_the_segment(open_memoir: Callable[..., Memoir]) -> None:
    with scripted_server({"/v1/chat/completions": model(paraphrase)}) as server:
        memoir = open_with_model(open_memoir, server.url)
        memoir.ingest(EVENTS)
        assert memoir.flush(timeout=60)
        nodes = segment_nodes(memoir)
    sent = [body for _, body in server.requests if is_segment_request(body)]
    assert len(sent) == 2 and all(b["response_format"]["type"] == "json_schema" for b in sent)
    for node in nodes:
        assert (node.source, node.note, node.title) == ("llm", None, "Planning the lighthouse app with Sam")
        assert_grips_hold(memoir, node)
        assert {memoir.expand_grip(g, 0, 0).grip.source for g in node.grip_ids} == {"segment_summarizer"}


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (
            lambda lines: json.dumps(
                {"title": "A walk", "bullets": ["Sam adopted a golden retriever named Biscuit"], "keywords": []}
            ),
            "is not said in these messages",
        ),
        (lambda lines: json.dumps({"title": "...", "bullets": ["..."], "keywords": []}), "says something"),
        (lambda lines: "Sure! Here is the summary: {title: lighthouse", "no usable JSON"),
    ],
    ids=["invented-bullet", "placeholder", "broken-json"],
)
def test_a_bad_answer_is_replaced_by_the_extractive_summary_and_the_reason_kept(
    open_memoir: Callable[..., Memoir], answer: Callable[[list[str]], str], reason: str
) -> None:
    with scripted_server({"/v1/chat/completions": model(answer)}) as server:
        memoir = open_with_model(open_memoir, server.url)
        memoir.ingest(EVENTS)
        assert memoir.flush(timeout=60)
        nodes = segment_nodes(memoir)
    assert len(nodes) == 2
    for node in nodes:
        assert node.source == "extractive" and node.note is not None and reason in node.note
        assert "Biscuit" not in json.dumps([node.title, [b.text for b in node.bullets], node.keywords])
        assert_grips_hold(memoir, node)
    retried = [b for _, b in server.requests if is_segment_request(b)]
    assert "could not be used" in retried[1]["messages"][-1]["content"]  # one corrective retry first


def test_a_hung_model_costs_one_budget_then_the_extractive_summary_stands_in(
    open_memoir: Callable[..., Memoir],
) -> None:
    release = threading.Event()

    def hung(body: dict[str, Any]) -> tuple[int, Any]:
        release.wait(10)
        return 200, chat_reply("{}")

    with scripted_server({"/v1/chat/completions": hung}) as server:
        memoir = open_with_model(open_memoir, server.url, llm_timeout=0.3, llm_budget=0.8, llm_retries=1)
        memoir.ingest(EVENTS[:9])
        assert memoir.flush(timeout=60)
        release.set()
        [node] = segment_nodes(memoir)
    assert node.source == "extractive" and node.note and "budget" in node.note
    assert_grips_hold(memoir, node)


# -- the scheduler ------------------------------------------------------------------------


def test_a_paused_job_stays_paused_across_a_restart_and_its_work_waits(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    memoir.pause_job("summarize")
    memoir.close()
    memoir = open_memoir(embedding_provider="hashing")  # another process, later
    memoir.ingest(EVENTS)
    assert memoir.flush(timeout=60)
    jobs = {job.name: job for job in memoir.scheduler_status()}
    assert jobs["summarize"].paused and jobs["summarize"].backlog == 2  # its work waits (and flush does not)
    assert memoir.toc_root() == [] and memoir.status().timeline.get("segments summarized", 0) == 0, (
        memoir.status().timeline
    )
    assert {"index_event", "segment", "extract_facts", "rollup", "conversation_summary"} <= set(jobs)
    memoir.resume_job("summarize")
    assert memoir.flush(timeout=60)
    assert len(segment_nodes(memoir)) == 2
    with pytest.raises(Exception, match="no job 'nap'"):
        memoir.pause_job("nap")


def test_a_paused_outbox_job_keeps_its_entries(memoir: Memoir) -> None:
    memoir.pause_job("segment")
    memoir.ingest(EVENTS)
    assert memoir.flush(timeout=60)
    assert memoir.status().outbox_pending["segment"] == 23
    memoir.resume_job("segment")
    assert memoir.flush(timeout=60)
    assert "segment" not in memoir.status().outbox_pending and len(segment_nodes(memoir)) == 2


# -- scopes -------------------------------------------------------------------------------


def test_agents_never_see_each_others_timeline(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(multi_agent_mode="unified", agent_id="planner", embedding_provider="hashing")
    old = {"timestamp": "2025-05-05T10:00:00Z"}
    memoir.ingest([message("The planner chose Lisbon for the offsite.", **old), message("Flights are booked.", **old)])
    memoir.ingest([message("The coder fixed the UTC bug.", **old), message("Tests pass now.", **old)], agent_id="coder")
    assert memoir.flush(timeout=60)
    mine = segment_nodes(memoir)
    assert len(mine) == 1 and "Lisbon" in json.dumps(mine[0].to_dict()) and "UTC" not in json.dumps(mine[0].to_dict())
    [theirs] = list(memoir.toc_root(agent_id="coder"))
    coder_grip = memoir.toc_node(theirs.node_id, agent_id="coder").grip_ids[0]
    with pytest.raises(NotFound):
        memoir.expand_grip(coder_grip)  # the planner may not read the coder's evidence
    assert memoir.expand_grip(coder_grip, agent_id="coder").excerpt_events


# -- the command line ---------------------------------------------------------------------


def test_memoir_timeline_draws_the_tree_and_expand_shows_the_evidence(home: Path) -> None:
    assert cli("init", home=home).exit_code == 0
    assert cli("ingest", str(EXAMPLE), home=home).exit_code == 0
    drawn = cli("timeline", home=home)
    assert drawn.exit_code == 0, drawn.stderr
    for expected in ("2026", "March 2026", "Week 11, 2026", "Monday, March 9, 2026", "toc:segment:2026-03-09", "grip:"):
        assert expected in drawn.stdout
    grip_id = re.findall(r"grip:\d+:[0-9a-f]+", drawn.stdout)[0]
    shown = cli("expand", grip_id, home=home)
    assert shown.exit_code == 0 and ">" in shown.stdout and grip_id in shown.stdout
    as_json = [json.loads(line) for line in cli("timeline", "--json", home=home).stdout.splitlines()]
    assert {n["level"] for n in as_json} == {"year", "month", "week", "day", "segment"}
    assert all(set(b) == {"text", "grip_ids"} for n in as_json for b in n["bullets"])
    status = cli("scheduler", "status", "--json", home=home)
    assert {j["name"] for j in json.loads(status.stdout)} >= {"summarize", "rollup", "segment"}
    assert cli("scheduler", "pause", "nap", home=home).exit_code == 2


def test_build_context_puts_the_conversation_summary_first_where_it_adds(memoir: Memoir) -> None:
    memoir.ingest(EVENTS)
    assert memoir.flush(timeout=60)
    overview = memoir.build_context("catch me up: what have we discussed so far?", conversation_id="lighthouse")
    assert overview.text.startswith("Summary of the conversation so far: ")
    assert overview.tokens <= 1500
    specific = memoir.build_context("what backend language did we pick?", conversation_id="lighthouse")
    assert specific.hits and "Summary of the conversation so far" not in specific.text  # its hits answer it
    files = list((memoir.home / "vault" / "entries" / "lighthouse" / "summaries").rglob("*.md"))
    assert files and all("role: summary" in f.read_text() for f in files)


def test_a_turn_whose_words_a_summary_hit_carries_is_left_out_of_the_context() -> None:
    from datetime import UTC, datetime

    from memoir.retrieval import Hit, format_context

    def hit(kind: str, text: str, event_ids: tuple[str, ...]) -> Hit:
        when = datetime(2026, 3, 9, tzinfo=UTC)
        return Hit(kind, text, 1.0, event_ids, None, {}, when, "lighthouse", role="user" if kind == "turn" else None)

    summary = hit("summary", "Backend\n- we're switching the backend from Rust to Go", ("E1", "E2"))
    covered, other = (
        hit("turn", "we're switching the backend from Rust to Go", ("E1",)),
        hit("turn", "Mia is 7", ("E9",)),
    )
    context = format_context([covered, summary, other], summary="Sam plans a tide app.", budget_tokens=400)
    assert [h.kind for h in context.hits] == ["summary", "turn"] and context.hits[1] is other
    assert context.text.startswith("Summary of the conversation so far: Sam plans a tide app.")


def test_an_old_conversation_imported_in_batches_is_not_cut_where_a_batch_ended(memoir: Memoir) -> None:
    old = [
        message(f"Log line {n}: the lamp burned all night.", timestamp=f"2025-01-10T09:{n:02d}:00Z") for n in range(6)
    ]
    memoir.ingest(old[:3])
    assert memoir.flush(timeout=60, lanes=["fast"])
    memoir.ingest(old[3:])  # appended; the segment job has not placed them yet
    assert memoir.flush(timeout=60, lanes=["llm"])  # the model lane looks first: the session seems quiet
    assert memoir.flush(timeout=60)
    [segment] = segment_nodes(memoir)
    assert len({e.event_id for g in segment.grip_ids for e in memoir.expand_grip(g, 0, 0).excerpt_events}) >= 1
    assert memoir.status().timeline == {"segments summarized": 1, "toc nodes": 5}  # segment, day, week, month, year
