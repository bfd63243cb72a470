"""Hostile input to the timeline: arguments, model answers, hand-edited summary files, agents, the scheduler.

Every byte from outside is hostile: the arguments of `toc_node`, `browse_toc`, `expand_grip`,
`update_timeline`, `pause_job` and `resume_job` (and of `memoir timeline`, `memoir expand`,
`memoir scheduler`), what a model answers for a segment's summary, and the Markdown files of
the conversation summaries a person may edit. A bad value is a `MemoirError` that names its
field (the CLI: exit 2 and one `error:` line), never costs good data, and in unified mode no
agent sees another's timeline, whatever ids or cursors it passes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memoir import InvalidInput, InvalidQuery, Memoir, MemoirError
from memoir.errors import NotFound
from memoir.model.timeline import TocLevel, TocNode
from memoir.timeline.grips import long_words
from memoir.vault.files import safe_name
from tests.conftest import cli
from tests.doors.test_hostile_input import PYTHON_VALUES, mostly
from tests.scripted_server import chat_reply, scripted_server
from tests.store.test_timeline import EVENTS, is_segment_request, lines_of, open_with_model, segment_nodes

HASHING = {"MEMOIR_EMBEDDING_PROVIDER": "hashing"}
SOME = settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
FEW = settings(max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# A segment of four turns (and its session's end), long ago: closed, so summarized at the next flush.
LINES = [
    "I want the backend in Rust and the mobile app in Kotlin for the lighthouse project.",
    "Rust and Kotlin are a solid choice; PostgreSQL stores the tide tables.",
    "The harbour master Sam confirmed the Lisbon offsite for Friday.",
    "Tide predictions come from the NOAA service every 6 minutes.",
]


def session(
    lines: list[str] = LINES,
    *,
    conversation: str = "c1",
    session_id: str = "s1",
    day: str = "2025-03-03",
    **fields: Any,
) -> list[dict[str, Any]]:
    events = [
        {
            "session_id": session_id,
            "conversation_id": conversation,
            "event_type": "user_message" if i % 2 == 0 else "assistant_message",
            "text": text,
            "timestamp": f"{day}T10:{i:02d}:00Z",
            **fields,
        }
        for i, text in enumerate(lines)
    ]
    end = {"event_type": "session_end", "text": "", "timestamp": f"{day}T10:{len(lines):02d}:30Z"}
    return [*events, {**events[0], **end}]


def walk(memoir: Memoir, agent_id: str | None = None) -> list[TocNode]:
    """Every node the caller sees, from its roots down."""
    nodes: list[TocNode] = []
    pending = list(memoir.toc_root(agent_id=agent_id))
    while pending:
        node = pending.pop()
        nodes.append(node)
        if node.level is not TocLevel.SEGMENT:
            page = memoir.browse_toc(node.node_id, limit=1000, conversation_id=node.conversation_id, agent_id=agent_id)
            pending.extend(page.nodes)
    return nodes


def assert_names(exc: MemoirError, *fields: str) -> None:
    """An InvalidInput names one of `fields`; other MemoirErrors (NotFound, ConfigError) say what was wrong."""
    if isinstance(exc, InvalidInput):
        assert exc.field in fields, (exc.field, fields, str(exc))
        assert str(exc).startswith(f"{exc.field}: ")


# -- 1. arguments ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory, module_store: dict[str, str]) -> Iterator[Memoir]:
    """One home with the README's conversation summarized, for the argument tests (read-only for them)."""
    with pytest.MonkeyPatch.context() as env:  # the per-test isolated_env has not run yet
        for name in [name for name in os.environ if name.startswith("MEMOIR_")]:
            env.delenv(name)
        home = tmp_path_factory.mktemp("timeline-api") / "home"
        env.setenv("XDG_CONFIG_HOME", str(home.parent / "xdg-config"))
        memoir = Memoir.open(home, worker_enabled=False, embedding_provider="hashing", **module_store)
    memoir.ingest(EVENTS)
    assert memoir.flush(timeout=60)
    yield memoir
    memoir.close()


def a_grip(memoir: Memoir) -> str:
    return next(node for node in walk(memoir) if node.level is TocLevel.SEGMENT).grip_ids[0]


BAD_IDS = [
    5, None, b"toc:year:2026", ["toc:year:2026"], float("nan"), 10**30, -1, 10**5000, "\ud800", "toc:year:\udc00",
    "toc:year:2026\x00", "toc:\x1b[2Jyear", "toc:year:2026\u2028", "x" * 100_000, "", " ",
]  # fmt: skip
ID_CALLS: list[tuple[str, Callable[[Memoir, Any], object], tuple[str, ...]]] = [
    ("toc_node", lambda m, v: m.toc_node(v), ("node_id",)),
    ("toc_node conversation", lambda m, v: m.toc_node("toc:year:2026", conversation_id=v), ("conversation_id",)),
    ("toc_node agent", lambda m, v: m.toc_node("toc:year:2026", agent_id=v), ("agent_id",)),
    ("toc_root", lambda m, v: m.toc_root(v), ("conversation_id",)),
    ("toc_root agent", lambda m, v: m.toc_root(agent_id=v), ("agent_id",)),
    ("browse_toc", lambda m, v: m.browse_toc(v), ("node_id", "parent_id")),
    ("browse_toc conversation", lambda m, v: m.browse_toc("toc:year:2026", conversation_id=v), ("conversation_id",)),
    ("expand_grip", lambda m, v: m.expand_grip(v), ("grip_id",)),
    ("expand_grip agent", lambda m, v: m.expand_grip(a_grip(m), agent_id=v), ("agent_id",)),
    ("pause_job", lambda m, v: m.pause_job(v), ("name",)),
    ("resume_job", lambda m, v: m.resume_job(v), ("name",)),
]
OPTIONAL = {
    "toc_node conversation",
    "toc_node agent",
    "toc_root",
    "toc_root agent",
    "browse_toc conversation",
    "expand_grip agent",
}


def brief_id(value: Any) -> str:
    return f"int{value.bit_length()}" if type(value) is int else repr(value)[:24]


@pytest.mark.parametrize("value", BAD_IDS, ids=brief_id)
@pytest.mark.parametrize(("name", "call", "fields"), ID_CALLS, ids=[c[0] for c in ID_CALLS])
def test_a_hostile_id_is_refused_naming_its_field(
    api: Memoir, name: str, call: Callable[[Memoir, Any], object], fields: tuple[str, ...], value: Any
) -> None:
    if value is None and name in OPTIONAL:
        call(api, value)  # None is the default there
        return
    with pytest.raises(MemoirError) as caught:
        call(api, value)
    assert_names(caught.value, *fields)
    assert not any(job.paused for job in api.scheduler_status())  # a refused name pauses nothing


BAD_NUMBERS = [0, -1, 2**31 + 1, 2**63, 10**30, 10**5000, 1.0, float("nan"), float("inf"), "1", True, b"1", [1]]
NUMBER_CALLS: list[tuple[str, Callable[[Memoir, Any], object], str]] = [
    ("version", lambda m, v: m.toc_node("toc:year:2026", v), "version"),
    ("limit", lambda m, v: m.browse_toc("toc:year:2026", limit=v), "limit"),
    ("before", lambda m, v: m.expand_grip(a_grip(m), before=v), "before"),
    ("after", lambda m, v: m.expand_grip(a_grip(m), after=v), "after"),
    ("rebuild", lambda m, v: m.update_timeline(rebuild=v), "rebuild"),
]


@pytest.mark.parametrize("value", BAD_NUMBERS, ids=brief_id)
@pytest.mark.parametrize(("name", "call", "field"), NUMBER_CALLS, ids=[c[0] for c in NUMBER_CALLS])
def test_a_hostile_number_is_refused_naming_its_field(
    api: Memoir, name: str, call: Callable[[Memoir, Any], object], field: str, value: Any
) -> None:
    if (name in ("before", "after") and type(value) is int and value == 0) or (name == "rebuild" and value is True):
        call(api, value)  # a fair question: no context, or a rebuild
        return
    with pytest.raises(InvalidQuery) as caught:
        call(api, value)
    assert caught.value.field == field


BAD_CURSORS = [
    "²:toc:x",  # str.isdigit() says yes, int() says no
    "١٢:toc:x",  # Arabic-Indic digits: not what browse_toc writes
    "１２:toc:x",  # full-width digits
    "1:toc:\ud800",
    "1:toc:\x00",
    "1:toc:a\x1b[2J",
    "1:toc:a\u2028b",
    "1:toc:" + "x" * 100_000,
    "x" * 100_000,
    "-1:toc:x",
    " 1:toc:x",
    "1e3:toc:x",
    "9" * 16 + ":toc:x",
    ":toc:x",
    "1:",
    "",
    5,
    b"1:toc:x",
    ["1:toc:x"],
    float("nan"),
    10**5000,
]


@pytest.mark.parametrize("cursor", BAD_CURSORS, ids=brief_id)
def test_a_malformed_cursor_is_refused_naming_the_cursor(api: Memoir, cursor: Any) -> None:
    with pytest.raises(InvalidQuery) as caught:
        api.browse_toc("toc:month:2026-03", limit=1, cursor=cursor)
    assert caught.value.field == "cursor"


def children_of(memoir: Memoir, node_id: str, **scope: Any) -> list[str]:
    return [n.node_id for n in memoir.browse_toc(node_id, limit=1000, **scope).nodes]


def test_a_cursor_from_another_node_or_a_forged_one_reads_only_the_nodes_children(api: Memoir) -> None:
    first = api.browse_toc("toc:month:2026-03", limit=1)
    assert first.has_more and first.next_cursor
    children = children_of(api, "toc:week:2026-W10")
    foreign = [first.next_cursor, "0:toc:a", "999999999999999:toc:zzz", f"1:{'toc:' * 60}"]
    for cursor in foreign:
        page = api.browse_toc("toc:week:2026-W10", limit=5, cursor=cursor)
        assert {n.node_id for n in page.nodes} <= set(children), cursor
        assert all(n.parent_id == "toc:week:2026-W10" for n in page.nodes)


@SOME
@given(cursor=mostly(st.text(max_size=40).map(lambda t: "1:toc:" + t), PYTHON_VALUES | st.text(max_size=40)))
def test_any_cursor_pages_the_nodes_children_or_is_an_invalid_query(api: Memoir, cursor: Any) -> None:
    children = set(children_of(api, "toc:month:2026-03"))
    try:
        page = api.browse_toc("toc:month:2026-03", limit=1, cursor=cursor)
    except InvalidQuery as exc:
        refused: InvalidQuery | None = exc
    else:
        refused = None
        assert {n.node_id for n in page.nodes} <= children
    assert refused is None or refused.field == "cursor"


@SOME
@given(
    node_id=mostly(st.sampled_from(["toc:year:2026", "toc:month:2026-03", "toc:day:2026-03-09"]), PYTHON_VALUES),
    version=mostly(st.none() | st.integers(1, 3), PYTHON_VALUES),
    conversation=mostly(st.none() | st.just("lighthouse"), PYTHON_VALUES),
    limit=mostly(st.integers(1, 5), PYTHON_VALUES),
    before=mostly(st.integers(0, 5), PYTHON_VALUES),
    after=mostly(st.integers(0, 5), PYTHON_VALUES),
    grip=mostly(st.just("real"), PYTHON_VALUES | st.text(max_size=30).map(lambda t: "grip:" + t)),
)
def test_any_browsing_argument_gives_an_answer_or_a_memoir_error_naming_the_field(
    api: Memoir, node_id: Any, version: Any, conversation: Any, limit: Any, before: Any, after: Any, grip: Any
) -> None:
    fields = ("node_id", "parent_id", "version", "conversation_id", "limit", "before", "after", "grip_id")
    for call in (
        lambda: api.toc_node(node_id, version, conversation_id=conversation),
        lambda: api.browse_toc(node_id, limit=limit, conversation_id=conversation),
        lambda: api.expand_grip(a_grip(api) if grip == "real" else grip, before, after),
    ):
        try:
            call()
        except MemoirError as exc:
            assert_names(exc, *fields)


def test_a_progress_that_cannot_be_called_is_refused_and_costs_no_segment(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    memoir.ingest(EVENTS)
    assert memoir.flush(timeout=60, lanes=["fast"])  # segmented; the summaries wait
    with pytest.raises(InvalidQuery) as caught:
        memoir.update_timeline(rebuild=True, progress=5)  # type: ignore[arg-type]
    assert caught.value.field == "progress"
    memoir.update_timeline(rebuild=True)
    assert len(segment_nodes(memoir)) == 2


# -- 1b. the command line ----------------------------------------------------------------


# The module's home is built once on its SQLite file; with --backend=postgres each test has
# a database of its own, so the command-line tests read that file (what they test is the
# command line, which is the same whatever the store).
ON_THE_FILE = {"MEMOIR_STORE_URL": ""}


@pytest.fixture(scope="module")
def cli_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("timeline-cli") / "home"
    with pytest.MonkeyPatch.context() as env:
        for name in [name for name in os.environ if name.startswith("MEMOIR_")]:
            env.delenv(name)
        env.setenv("XDG_CONFIG_HOME", str(home.parent / "xdg-config"))
        with Memoir.open(home, worker_enabled=False, embedding_provider="hashing") as memoir:
            memoir.ingest(EVENTS)
            assert memoir.flush(timeout=60)
    return home


CLI_CASES = [
    ("timeline", "\ud800"),
    ("timeline", "toc:year:2026\x00"),
    ("timeline", "toc:\x1b]2;x\x07"),
    ("timeline", "x" * 100_000),
    ("timeline", ""),
    ("timeline", "toc:year:1999"),
    ("timeline", "toc:year:2026", "--version", "0"),
    ("timeline", "toc:year:2026", "--version", "-1"),
    ("timeline", "toc:year:2026", "--version", str(2**63)),
    ("timeline", "toc:year:2026", "--version", str(10**30)),
    ("timeline", "--version", "0"),  # a version of no node
    ("timeline", "--version", "-1"),
    ("timeline", "--conversation", "\udcff"),
    ("timeline", "--conversation", "a\x1bb"),
    ("timeline", "--conversation", ""),
    ("timeline", "--conversation", "x" * 100_000),
    ("timeline", "toc:year:2026", "--conversation", "nope"),
    ("timeline", "--agent", "\x00"),
    ("expand", "GRIP", "--before", "-1"),
    ("expand", "GRIP", "--after", str(10**30)),
    ("expand", "GRIP", "--before", str(2**63)),
    ("expand", "GRIP", "--agent", "a\x00"),
    ("expand", "\udcff"),
    ("expand", "grip:1:x\x00"),
    ("expand", "x" * 100_000),
    ("expand", ""),
    ("scheduler", "pause", "\ud800"),
    ("scheduler", "pause", "x" * 100_000),
    ("scheduler", "pause", "segment\x00"),
    ("scheduler", "pause", ""),
    ("scheduler", "resume", "\x1b[2J"),
]


@pytest.mark.parametrize("args", CLI_CASES, ids=lambda a: " ".join(a)[:40])
def test_a_hostile_argument_on_the_command_line_is_one_error_line_and_exit_2(
    cli_home: Path, args: tuple[str, ...]
) -> None:
    if "GRIP" in args:
        with Memoir.open(cli_home, worker_enabled=False, embedding_provider="hashing", store_url="") as memoir:
            args = tuple(a_grip(memoir) if a == "GRIP" else a for a in args)
    result = cli(*args, home=cli_home, **HASHING, **ON_THE_FILE)
    assert result.exit_code == 2, (result.stdout[:300], result.stderr[:300])
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr[:300]
    assert "\x1b" not in result.stderr and "\x00" not in result.stderr
    with Memoir.open(cli_home, worker_enabled=False, embedding_provider="hashing", store_url="") as memoir:
        assert not any(job.paused for job in memoir.scheduler_status())


@pytest.mark.parametrize("value", ["nan", "1.5", "", "0x10", "١"])
def test_a_number_the_command_line_cannot_read_is_a_usage_error(cli_home: Path, value: str) -> None:
    for args in (("timeline", "toc:year:2026", "--version", value), ("expand", "grip:1:x", "--before", value)):
        result = cli(*args, home=cli_home, **HASHING)
        assert result.exit_code == 2 and "Invalid value" in result.stderr, result.stderr


@SOME
@given(
    command=st.sampled_from(["timeline", "expand", "pause", "resume"]),
    value=st.text(st.characters(categories=["L", "M", "N", "P", "S", "Z", "C"]), max_size=30),
)
def test_any_text_argument_on_the_command_line_is_an_answer_or_one_error_line(
    cli_home: Path, command: str, value: str
) -> None:
    assume(not value.startswith("-"))  # an option, for the parser
    args = {"timeline": ["timeline", value], "expand": ["expand", value]}.get(command, ["scheduler", command, value])
    result = cli(*args, home=cli_home, **HASHING)
    assert result.exit_code in (0, 2), result.stderr
    if result.exit_code == 2:
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    if command == "pause" and result.exit_code == 0:  # the fuzz found a real job name: resume it
        assert cli("scheduler", "resume", value, home=cli_home, **HASHING).exit_code == 0


# -- 2. model answers --------------------------------------------------------------------


def answering(answer: Callable[[list[str]], str]) -> Callable[[dict[str, Any]], tuple[int, Any]]:
    """The model: `answer` for segment summaries, a short true sentence for conversation summaries."""

    def route(body: dict[str, Any]) -> tuple[int, Any]:
        if not is_segment_request(body):
            return 200, chat_reply(json.dumps({"summary": lines_of(body)[0][:80]}))
        return 200, chat_reply(answer(lines_of(body)))

    return route


def summarized(open_memoir: Callable[..., Memoir], answer: Callable[[list[str]], str]) -> tuple[Memoir, TocNode]:
    with scripted_server({"/v1/chat/completions": answering(answer)}) as server:
        memoir = open_with_model(open_memoir, server.url)
        memoir.ingest(session())
        assert memoir.flush(timeout=30)
        nodes = segment_nodes(memoir)
        status = {job.name: job for job in memoir.scheduler_status()}
    assert status["summarize"].failures == 0, status["summarize"].last_error
    assert len(nodes) == 1, "the segment has no summary at all"
    return memoir, nodes[0]


def said_in(memoir: Memoir) -> str:
    return "\n".join(e.text for e in memoir.events(conversation_id="c1", limit=1000))


def word_in(word: str, text: str) -> bool:
    return re.search(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])", text) is not None


def assert_honest(memoir: Memoir, node: TocNode, invented: tuple[str, ...] = ()) -> None:
    """The model's answer, every bullet supported by its grips, or the extractive summary with the reason."""
    assert node.source in ("llm", "extractive")
    assert (node.note is None) if node.source == "llm" else bool(node.note)
    assert 1 <= len(node.bullets) <= 5
    for bullet in node.bullets:
        assert bullet.grip_ids
        for grip_id in bullet.grip_ids:
            context = memoir.expand_grip(grip_id, 0, 0)
            evidence = "\n".join(e.text for e in context.excerpt_events)
            assert context.grip.excerpt in evidence and len(context.grip.excerpt) <= 200
            if node.source == "extractive":
                assert bullet.text == context.grip.excerpt  # its own sentence
            else:
                wanted = long_words(bullet.text)
                assert len(wanted & long_words(evidence)) > 0.3 * len(wanted)
        for name in invented:
            assert not word_in(name, bullet.text), f"invented {name!r} in {bullet.text!r}"
    everything = json.dumps(node.to_dict(), ensure_ascii=False)
    assert everything.encode("utf-8")  # whole characters only


def answer(bullets: Any, **fields: Any) -> str:
    return json.dumps({"title": "Lighthouse stack and tides", "bullets": bullets, "keywords": ["tide"], **fields})


LOOKALIKE = str.maketrans("aceopxyABCEHKMOPTX", "асеорхуАВСЕНКМОРТХ")  # Cyrillic letters that look Latin

ANSWERS: list[tuple[str, Callable[[list[str]], str], str | None, tuple[str, ...]]] = [
    # (id, the answer, the source it must give (None: either), names that must not appear)
    ("a JSON array", lambda lines: json.dumps(lines), "extractive", ()),
    ("an array of objects", lambda lines: json.dumps([{"title": "x", "bullets": lines}]), "extractive", ()),
    ("objects as bullets", lambda lines: answer([{"text": lines[0]}, {"bullets": [lines[1]]}]), "extractive", ()),
    ("a list inside a bullet list", lambda lines: answer([lines[:2]]), "extractive", ()),
    ("10,000 true bullets", lambda lines: answer([lines[i % 4] for i in range(10_000)]), None, ()),
    ("true then invented bullets", lambda lines: answer(lines[:2] + ["Sam adopted a dog named Biscuit"] * 9998), None,
     ("Biscuit",)),
    ("control characters", lambda lines: answer([lines[0] + "\x00\x07", "\x1b[2J" + lines[1]]), None, ()),
    ("RTL marks", lambda lines: answer(["\u202e" + lines[0], lines[2].replace(" ", "\u200f ")]), None, ()),
    ("keywords that are numbers or null", lambda lines: answer(lines[:2], keywords=[1, None, 2.5, True, "tide"]), None,
     ()),
    ("keywords null", lambda lines: answer(lines[:2], keywords=None), None, ()),
    # A bad title costs only itself: the bullets stand and the first names the node.
    ("title null", lambda lines: answer(lines[:2], title=None), "llm", ()),
    ("title a number", lambda lines: answer(lines[:2], title=42), "llm", ()),
    ("no bullets", lambda lines: answer([]), "extractive", ()),
    ("a lookalike sentence", lambda lines: answer([lines[0].translate(LOOKALIKE)]), None,
     tuple(w.strip(".;") for w in LINES[0].translate(LOOKALIKE).split() if w not in LINES[0].split())),
    ("Rust becomes Ruby", lambda lines: answer([lines[0].replace("Rust", "Ruby")]), None, ("Ruby",)),
    ("Rust becomes a lookalike", lambda lines: answer([lines[0].replace("Rust", "Ruѕt")]), None, ("Ruѕt",)),
    ("Lisbon becomes Madrid", lambda lines: answer([lines[2].replace("Lisbon", "Madrid")]), None, ("Madrid",)),
    ("Sam becomes Pam", lambda lines: answer([lines[2].replace("Sam", "Pam")]), None, ("Pam",)),
    ("6 becomes 60", lambda lines: answer([lines[3].replace("6", "60")]), None, ("60",)),
    ("NOAA becomes ECMWF", lambda lines: answer([lines[3].replace("NOAA", "ECMWF")]), None, ("ECMWF",)),
    ("another language", lambda lines: answer(["Das Backend soll in Rust und die App in Kotlin sein"]), None, ()),
    ("another script", lambda lines: answer(["バックエンドはRustで、アプリはKotlinで書く"]), None, ()),
    ("not JSON", lambda lines: "Sure! " + lines[0], "extractive", ()),
    ("JSON in a code fence, then more", lambda lines: "```json\n" + answer(lines[:2]) + "\n```{}", None, ()),
]  # fmt: skip


@pytest.mark.parametrize(("answer_of", "source", "invented"), [a[1:] for a in ANSWERS], ids=[a[0] for a in ANSWERS])
def test_a_hostile_summary_answer_leaves_an_honest_node(
    open_memoir: Callable[..., Memoir],
    answer_of: Callable[[list[str]], str],
    source: str | None,
    invented: tuple[str, ...],
) -> None:
    memoir, node = summarized(open_memoir, answer_of)
    assert_honest(memoir, node, invented)
    if source is not None:
        assert node.source == source, node.note


@pytest.mark.parametrize(
    "answer_of",
    [
        lambda lines: answer([lines[0] + " \ud800"]),
        lambda lines: answer(lines[:2], title="Tides \udc00"),
        lambda lines: answer(lines[:2], keywords=["\ud83dtide"]),
    ],
    ids=["in a bullet", "in the title", "in a keyword"],
)
def test_a_lone_surrogate_in_the_answer_still_leaves_a_summary(
    open_memoir: Callable[..., Memoir], answer_of: Callable[[list[str]], str]
) -> None:
    memoir, node = summarized(open_memoir, answer_of)
    assert_honest(memoir, node)


@pytest.mark.parametrize("title", ["A" * 1_000_000, "Lighthouse " * 100_000], ids=["one-word", "many-words"])
def test_a_one_megabyte_title_is_not_stored(open_memoir: Callable[..., Memoir], title: str) -> None:
    memoir, node = summarized(open_memoir, lambda lines: answer(lines[:3], title=title))
    assert_honest(memoir, node)
    assert len(node.title) <= 120  # the schema's maxLength


def test_a_one_megabyte_bullet_is_not_stored(open_memoir: Callable[..., Memoir]) -> None:
    memoir, node = summarized(open_memoir, lambda lines: answer([(lines[0] + " ") * 12_000]))
    assert_honest(memoir, node)
    assert all(len(b.text) <= 300 for b in node.bullets)  # the schema's maxLength


def test_keywords_are_words_whatever_the_model_sends(open_memoir: Callable[..., Memoir]) -> None:
    memoir, node = summarized(open_memoir, lambda lines: answer(lines[:2], keywords="tides"))
    assert_honest(memoir, node)
    assert all(isinstance(k, str) and 2 <= len(k) <= 40 for k in node.keywords), node.keywords


def test_the_terminal_gets_no_control_sequence_from_a_models_answer(
    open_memoir: Callable[..., Memoir], home: Path
) -> None:
    title = "\x1b]2;owned\x07\x1b[31mLighthouse stack"
    memoir, node = summarized(open_memoir, lambda lines: answer([lines[0] + " \x1b[2J\x00", lines[1]], title=title))
    assert_honest(memoir, node)
    memoir.close()
    drawn = cli("timeline", home=home, **HASHING)
    assert drawn.exit_code == 0
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", drawn.stdout), repr(drawn.stdout[-400:])
    grip = node.grip_ids[0]
    shown = cli("expand", grip, home=home, **HASHING)
    assert shown.exit_code == 0 and "\x1b" not in shown.stdout


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@st.composite
def bullets(draw: st.DrawFn) -> Any:
    """A line of the segment, maybe cut, with something put in, or any JSON value."""
    kind = draw(st.sampled_from(["line", "cut", "insert", "json"]))
    if kind == "json":
        return draw(JSON_VALUES)
    line = draw(st.sampled_from(LINES))
    if kind == "cut":
        return line[: draw(st.integers(0, len(line)))]
    at = draw(st.integers(0, len(line)))
    return line[:at] + draw(st.text(max_size=20)) + line[at:]


ANY_ANSWER = st.one_of(
    JSON_VALUES.map(json.dumps),
    st.text(max_size=100),
    st.fixed_dictionaries(
        {"title": st.text(max_size=60) | JSON_VALUES, "bullets": st.lists(bullets(), max_size=7) | JSON_VALUES},
        optional={"keywords": st.lists(JSON_VALUES, max_size=8) | JSON_VALUES, "extra": JSON_VALUES},
    ).map(json.dumps),
)


def test_any_summary_answer_leaves_an_honest_node(tmp_path: Path, fresh_store: Callable[[], dict[str, str]]) -> None:
    current: dict[str, str] = {}

    @SOME
    @given(reply=ANY_ANSWER)
    def check(reply: str) -> None:
        current["reply"] = reply
        with (
            tempfile.TemporaryDirectory(dir=tmp_path) as folder,
            Memoir.open(
                Path(folder) / "home",
                worker_enabled=False,
                llm_model="qwen",
                llm_base_url=server.url + "/v1",
                memory_extract=False,
                embedding_provider="hashing",
                **fresh_store(),
            ) as memoir,
        ):
            memoir.ingest(session())
            assert memoir.flush(timeout=30)
            [node] = segment_nodes(memoir)
            assert_honest(memoir, node)

    with scripted_server({"/v1/chat/completions": answering(lambda lines: current["reply"])}) as server:
        check()


# -- 3. hand-edited conversation summaries -----------------------------------------------

NOTES = [
    f"Note {i}: the lighthouse keeper logged the tide at harbour gauge {i} and repainted lamp number {i}."
    for i in range(24)
]


@pytest.fixture
def summarized_home(open_memoir: Callable[..., Memoir]) -> Memoir:
    """A conversation `c1` with an L3 summary (a brief one) in the vault."""
    memoir = open_memoir(embedding_provider="hashing")
    memoir.ingest(session(NOTES[:8]))
    assert memoir.flush(timeout=30)
    assert (summaries(memoir) / "L3" / "final.md").is_file()
    return memoir


def summaries(memoir: Memoir, conversation: str = "c1") -> Path:
    return memoir.home / "vault" / "entries" / conversation / "summaries"


OUTSIDE_SECRET = "SECRET FROM OUTSIDE THE VAULT"


def plant_broken_yaml(folder: Path, outside: Path) -> bytes:
    data = b"---\nid: [unclosed\nrole: {\n---\nmy own notes about the keeper\n"
    (folder / "L3" / "final.md").write_bytes(data)
    return data


def plant_binary(folder: Path, outside: Path) -> bytes:
    data = bytes(range(256)) * 40 + b"\xff\xfe\x00"
    (folder / "L3" / "final.md").write_bytes(data)
    return data


def plant_symlink(folder: Path, outside: Path) -> bytes:
    (folder / "L3" / "final.md").unlink()
    (folder / "L3" / "final.md").symlink_to("/etc/passwd")
    return b"->/etc/passwd"


def plant_symlink_outside(folder: Path, outside: Path) -> bytes:
    (outside / "final.md").write_text(f"---\nid: x\nrole: summary\n---\n{OUTSIDE_SECRET}\n")
    (folder / "L3" / "final.md").unlink()
    (folder / "L3" / "final.md").symlink_to(outside / "final.md")
    return b"->" + str(outside / "final.md").encode()


def plant_big(folder: Path, outside: Path) -> bytes:
    with open(folder / "L3" / "final.md", "wb") as handle:
        handle.write(b"---\nid: x\n---\n")
        handle.write(b"The keeper wrote a lot. " * (50 * 1024 * 1024 // 24))
    return b"big"


def plant_folder(folder: Path, outside: Path) -> bytes:
    (folder / "L3" / "final.md").unlink()
    (folder / "L3" / "final.md").mkdir()
    (folder / "L3" / "final.md" / "mine.txt").write_text("keep me")
    return b"dir"


def plant_chunk_folder(folder: Path, outside: Path) -> bytes:
    (folder / "L1" / "chunk_0.md").mkdir(parents=True)
    (folder / "L1" / "chunk_0.md" / "mine.txt").write_text("keep me")
    return b"dir"


def plant_level_link(folder: Path, outside: Path) -> bytes:
    (outside / "final.md").write_text(f"---\nid: x\nrole: summary\n---\n{OUTSIDE_SECRET}\n")
    shutil.rmtree(folder / "L3")
    (folder / "L3").symlink_to(outside, target_is_directory=True)
    return b"level"


GARBAGE = [
    ("broken YAML", plant_broken_yaml),
    ("binary garbage", plant_binary),
    ("a link to /etc/passwd", plant_symlink),
    ("a link to a file outside", plant_symlink_outside),
    ("a 50 MB file", plant_big),
    ("a folder as final.md", plant_folder),
    ("a folder as chunk_0.md", plant_chunk_folder),
    ("the L3 folder a link outside", plant_level_link),
]


def kept(root: Path, planted: bytes, original: bytes | None) -> bool:
    """Is what the person put there still somewhere under the conversation's folder?"""
    for path in root.rglob("*"):
        if planted.startswith(b"->") and path.is_symlink() and os.readlink(path).encode() == planted[2:]:
            return True
        if planted == b"dir" and path.name == "mine.txt" and path.read_text() == "keep me":
            return True
        if planted == b"big" and path.is_file() and not path.is_symlink() and path.stat().st_size > 40 << 20:
            return True
        if original is not None and path.is_file() and not path.is_symlink() and path.read_bytes() == original:
            return True
    return False


@pytest.mark.parametrize("plant", [g[1] for g in GARBAGE], ids=[g[0] for g in GARBAGE])
def test_a_hand_edited_summary_file_breaks_nothing_and_is_kept(
    summarized_home: Memoir, home: Path, tmp_path: Path, plant: Callable[[Path, Path], bytes]
) -> None:
    memoir = summarized_home
    outside = tmp_path / "outside"
    outside.mkdir()
    planted = plant(summaries(memoir), outside)
    original = None if planted in (b"big", b"dir", b"level") or planted.startswith(b"->") else planted
    before_outside = sorted(p.name for p in outside.iterdir())
    # reading: the timeline and the context still come, with nothing from outside the vault
    drawn = cli("timeline", home=home, **HASHING)
    assert drawn.exit_code == 0, drawn.stderr
    context = memoir.build_context("catch me up: what did the keeper log?", conversation_id="c1")
    assert "root:" not in context.text and OUTSIDE_SECRET not in context.text
    # a refresh (the conversation grew) and another conversation: neither is stuck, nothing is lost
    memoir.ingest(session(NOTES[8:16]))
    memoir.ingest(session(NOTES[:8], conversation="c2", session_id="s2"))
    assert memoir.flush(timeout=5), {j.name: j.last_error for j in memoir.scheduler_status() if j.failures}
    assert (summaries(memoir, "c2") / "L3" / "final.md").is_file()  # another conversation is not held up
    context = memoir.build_context("catch me up: what did the keeper log?", conversation_id="c1")
    assert "root:" not in context.text and OUTSIDE_SECRET not in context.text
    assert kept(memoir.home / "vault" / "entries" / "c1", planted, original) or planted == b"level"
    assert sorted(p.name for p in outside.iterdir()) == before_outside  # nothing written outside
    if planted != b"level":  # the refresh wrote a summary of its own, which the context shows
        assert (summaries(memoir) / "L3" / "final.md").is_file()
        assert not (summaries(memoir) / "L3" / "final.md").is_symlink()
        assert context.text.startswith("Summary of the conversation so far: "), context.text[:200]


def test_a_fifo_as_the_summary_file_does_not_hang_build_context(summarized_home: Memoir) -> None:
    memoir = summarized_home
    final = summaries(memoir) / "L3" / "final.md"
    final.unlink()
    os.mkfifo(final)
    outcome: list[object] = []

    def read() -> None:
        try:
            outcome.append(memoir.build_context("tide", conversation_id="c1"))
        except BaseException as exc:  # noqa: BLE001 - reported below
            outcome.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(5)
    hung = reader.is_alive()
    if hung:  # let it go: a writer that closes at once gives the reader an empty file
        os.close(os.open(final, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(5)
    assert not hung, "build_context waited on a FIFO in the vault"
    assert outcome and not isinstance(outcome[0], BaseException), outcome


def test_the_summary_files_of_deleted_history_survive_repeated_refreshes(summarized_home: Memoir) -> None:
    memoir = summarized_home
    mine = b"---\nid: mine\n---\nthe keeper is called Ada\n"
    (summaries(memoir) / "L3" / "final.md").write_bytes(mine)
    for start in (8, 12, 16, 20):
        memoir.ingest(session(NOTES[start : start + 4], session_id=f"s{start}", day="2025-03-04"))
        assert memoir.flush(timeout=10)
    deleted = memoir.home / "vault" / "entries" / "c1" / "deleted" / "summaries"
    assert any(p.read_bytes() == mine for p in deleted.rglob("*.md"))


# -- 4. agents in unified mode -----------------------------------------------------------

PLANNER = ["The planner chose Lisbon for the offsite.", "Flights to Lisbon are booked with TAP airlines."]
CODER = ["The coder moved the cluster to Kubernetes.", "Kubernetes pods restart after the Helm upgrade."]


@pytest.fixture
def agents(open_memoir: Callable[..., Memoir]) -> Memoir:
    """Two agents, one conversation id, the same session ids and times: on two days, so cursors exist."""
    memoir = open_memoir(multi_agent_mode="unified", agent_id="planner", embedding_provider="hashing")
    for day in ("2025-05-05", "2025-05-06"):
        memoir.ingest(session(PLANNER, session_id="s1", day=day), agent_id="planner")
        memoir.ingest(session(CODER, session_id="s1", day=day), agent_id="coder")
    assert memoir.flush(timeout=30)
    return memoir


def secrets_of(agent: str) -> tuple[str, ...]:
    # words with lower case: a ULID (upper-case Crockford base32) may spell "TAP" by chance
    return ("Kubernetes", "Helm", "coder") if agent == "planner" else ("Lisbon", "TAP airlines", "planner")


def assert_clean(agent: str, *things: object) -> None:
    text = json.dumps([t.to_dict() if hasattr(t, "to_dict") else str(t) for t in things], ensure_ascii=False)
    for secret in secrets_of(agent):
        assert secret not in text, f"{agent} sees {secret!r}"


@pytest.mark.parametrize(("me", "other"), [("planner", "coder"), ("coder", "planner")])
def test_an_agent_never_sees_another_agents_timeline_by_any_id(agents: Memoir, me: str, other: str) -> None:
    memoir = agents
    mine, theirs = walk(memoir, me), walk(memoir, other)
    assert mine and theirs
    assert_clean(me, *mine)
    assert any(n.level is TocLevel.SEGMENT for n in mine)
    their_grips = {g for n in theirs for g in n.grip_ids}
    assert their_grips and not their_grips & {g for n in mine for g in n.grip_ids}
    for node in theirs:  # their node ids, passed as mine: my own node of that id, or NotFound
        for scope in ({}, {"conversation_id": "c1"}):
            try:
                assert_clean(me, memoir.toc_node(node.node_id, agent_id=me, **scope))
                assert_clean(me, memoir.toc_node(node.node_id, 1, agent_id=me, **scope))
                assert_clean(me, *memoir.browse_toc(node.node_id, limit=1000, agent_id=me, **scope).nodes)
            except NotFound:
                pass
        assert_clean(me, *memoir.toc_root("c1", agent_id=me))
    for grip in their_grips:
        with pytest.raises(NotFound):
            memoir.expand_grip(grip, agent_id=me)
        if me == "planner":  # the configured agent
            with pytest.raises(NotFound):
                memoir.expand_grip(grip)
    for grip in {g for n in mine for g in n.grip_ids}:  # my evidence, with all the context there is
        context = memoir.expand_grip(grip, 100, 100, agent_id=me)
        assert_clean(me, *context.events_before, *context.excerpt_events, *context.events_after)


@pytest.mark.parametrize(("me", "other"), [("planner", "coder"), ("coder", "planner")])
def test_another_agents_cursor_pages_only_my_own_nodes(agents: Memoir, me: str, other: str) -> None:
    memoir = agents
    week = "toc:week:2025-W19"
    theirs = memoir.browse_toc(week, limit=1, agent_id=other)
    assert theirs.has_more and theirs.next_cursor
    page = memoir.browse_toc(week, limit=5, cursor=theirs.next_cursor, agent_id=me)
    assert_clean(me, *page.nodes)
    assert {n.node_id for n in page.nodes} <= {n.node_id for n in memoir.browse_toc(week, agent_id=me).nodes}


@pytest.mark.parametrize(("me", "other"), [("planner", "coder"), ("coder", "planner")])
def test_another_agents_summaries_are_not_in_my_search_or_context(agents: Memoir, me: str, other: str) -> None:
    memoir = agents
    for query in (*secrets_of(me), " ".join(PLANNER + CODER)):
        hits = memoir.search(query, conversation_id="c1", kinds=["summary"], agent_id=me)
        assert_clean(me, *[h.text for h in hits], *[h.metadata for h in hits])
        for hit in hits:
            assert {memoir.get_event(e, agent_id=me).agent_id for e in hit.event_ids} <= {me}
        context = memoir.build_context(query, conversation_id="c1", agent_id=me)
        assert_clean(me, context.text)
    own = " ".join(PLANNER if me == "planner" else CODER)
    assert memoir.search(own, conversation_id="c1", kinds=["summary"], agent_id=me)


def test_an_agent_named_like_anothers_summary_folder_does_not_read_its_summary(
    open_memoir: Callable[..., Memoir],
) -> None:
    """`safe_name` makes `Alice Smith` the folder `@Alice-Smith-<digest>`, which is also a legal agent id."""
    memoir = open_memoir(multi_agent_mode="unified", agent_id="planner", embedding_provider="hashing")
    victim = "Alice Smith"
    intruder = safe_name(victim)
    assert intruder != victim
    secret = [f"The secret budget for Lisbon is {n} thousand euros and the hotel is near Alfama." for n in range(9)]
    memoir.ingest(session(secret), agent_id=victim)
    assert memoir.flush(timeout=30)
    assert "Alfama" in memoir.build_context("budget", conversation_id="c1", agent_id=victim).text
    assert "Alfama" not in memoir.build_context("budget", conversation_id="c1", agent_id=intruder).text


def test_conversations_named_alike_do_not_share_a_summary(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    first = "tide log"
    second = safe_name(first)
    secret = [f"The tide log says gauge {n} was repainted by Ada near Alfama." for n in range(9)]
    memoir.ingest(session(secret, conversation=first))
    assert memoir.flush(timeout=30)
    assert "Alfama" in memoir.build_context("gauge", conversation_id=first).text
    assert "Alfama" not in memoir.build_context("gauge", conversation_id=second).text


# -- 5. pause and resume -----------------------------------------------------------------


def segment_states(memoir: Memoir) -> dict[str, list[Any]]:
    store = memoir._parts.store  # the segments table is what the promise is about
    return {state: store.segments(state, limit=100_000) for state in ("open", "closed", "summarized")}


def traffic(seed: int) -> list[dict[str, Any]]:
    """Three conversations, sessions on several days, one long enough for several segments."""
    events: list[dict[str, Any]] = []
    for n in range(3):
        lines = [
            f"Turn {i} of talk {n}: the keeper of lighthouse {seed} checked lamp {i} and the tide." for i in range(6)
        ]
        events += session(lines, conversation=f"c{n}", session_id=f"s{seed}-{n}", day=f"2025-04-0{n + 1}")
    long = [f"Entry {i}: " + "the lens of the lamp was polished and measured again " * 40 for i in range(12)]
    events += session(long, conversation="c0", session_id=f"long-{seed}", day="2025-04-09")[:-1]  # no session_end
    return events


def assert_nothing_lost(memoir: Memoir) -> None:
    states = segment_states(memoir)
    assert not states["open"] and not states["closed"], {k: len(v) for k, v in states.items()}
    placed = {e for segment in states["summarized"] for e in segment.event_ids}
    texts = {e.event_id for e in memoir.events(limit=10_000) if e.text.strip()}
    assert texts <= placed, f"{len(texts - placed)} events in no segment"
    nodes = {n.node_id for n in segment_nodes(memoir)}
    assert {s.node_id for s in states["summarized"]} == nodes
    assert not memoir.status().outbox_pending


def test_pausing_every_job_then_ingesting_then_resuming_loses_nothing(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    names = [job.name for job in memoir.scheduler_status()]
    for name in names:
        memoir.pause_job(name)
        memoir.pause_job(name)  # twice: still one pause
    memoir.ingest(traffic(1))
    assert memoir.flush(timeout=30)
    assert memoir.toc_root() == [] and not any(segment_states(memoir).values())
    status = {job.name: job for job in memoir.scheduler_status()}
    assert all(job.paused for job in status.values()) and status["segment"].backlog > 0
    for name in reversed(names):
        memoir.resume_job(name)
        memoir.resume_job(name)
    assert memoir.flush(timeout=60)
    assert_nothing_lost(memoir)


def test_a_background_worker_paused_everywhere_loses_nothing(open_memoir: Callable[..., Memoir]) -> None:
    memoir = open_memoir(embedding_provider="hashing", worker_enabled=True)
    names = [job.name for job in memoir.scheduler_status()]
    for name in names:
        memoir.pause_job(name)
    memoir.ingest(traffic(2))
    assert memoir.flush(timeout=10)  # paused work is not waited for
    assert not any(segment_states(memoir).values()) and memoir.toc_root() == []
    for name in names:
        memoir.resume_job(name)
    assert memoir.flush(timeout=60)
    assert_nothing_lost(memoir)


@FEW
@given(
    data=st.data(),
    paused=st.lists(
        st.sampled_from(["segment", "summarize", "rollup", "index_event", "track_session", "conversation_summary"]),
        unique=True,
    ),
)
def test_any_pauses_and_resumes_between_batches_lose_nothing(
    tmp_path: Path, fresh_store: Callable[[], dict[str, str]], data: st.DataObject, paused: list[str]
) -> None:
    folder = tempfile.mkdtemp(dir=tmp_path)
    home = Path(folder) / "home"
    with Memoir.open(home, worker_enabled=False, embedding_provider="hashing", **fresh_store()) as memoir:
        for name in paused:
            memoir.pause_job(name)
        events = traffic(3)
        cut = data.draw(st.integers(0, len(events)))
        memoir.ingest(events[:cut])
        assert memoir.flush(timeout=30)
        order = data.draw(st.permutations(paused))
        rest = events[cut:]
        for i, name in enumerate(order):
            memoir.resume_job(name)
            if i == len(order) // 2:
                memoir.ingest(rest)  # more arrives while some jobs still wait
                assert memoir.flush(timeout=30)
                rest = []
        if rest:
            memoir.ingest(rest)
        assert memoir.flush(timeout=60)
        assert_nothing_lost(memoir)


@pytest.fixture
def memoir_hashing(open_memoir: Callable[..., Memoir]) -> Memoir:
    return open_memoir(embedding_provider="hashing")


def test_a_job_name_is_compared_exactly(memoir_hashing: Memoir) -> None:
    for name in ("Segment", "segment ", " segment", "segment\x00", "seg\u200bment", "ѕegment", "summarize\n"):
        with pytest.raises(MemoirError):
            memoir_hashing.pause_job(name)
    assert not any(job.paused for job in memoir_hashing.scheduler_status())


# -- 6. the calendar ---------------------------------------------------------------------

# Any moment a conversation may have happened at, the turns of months and years drawn often.
A_MOMENT = st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(2025, 6, 30), timezones=st.just(UTC))
AT_A_TURN_OF_MONTH = st.builds(
    lambda year, month, minutes: datetime(year, month, 1, tzinfo=UTC) + timedelta(minutes=minutes),
    st.integers(1971, 2025),
    st.integers(1, 12),
    st.integers(-3 * 24 * 60, 3 * 24 * 60),
)
TURNS = st.lists(st.tuples(A_MOMENT | AT_A_TURN_OF_MONTH, st.integers(0, 2)), min_size=1, max_size=8)


def walk_conversation(memoir: Memoir, conversation: str) -> list[TocNode]:
    """Every node of one conversation reachable from its years, by browsing."""
    nodes: list[TocNode] = []
    pending = list(memoir.toc_root(conversation))
    while pending:
        node = pending.pop()
        nodes.append(node)
        if node.level is not TocLevel.SEGMENT:
            pending.extend(memoir.browse_toc(node.node_id, limit=1000, conversation_id=conversation).nodes)
    return nodes


@SOME
@given(turns=TURNS)
def test_every_day_hangs_under_its_own_month_and_year_whatever_the_timestamps(
    memoir_hashing: Memoir, turns: list[tuple[datetime, int]]
) -> None:
    conversation = f"cal-{uuid.uuid4().hex}"  # one home for every example, a conversation each
    events = [
        {
            "session_id": f"{conversation}-{session}",
            "conversation_id": conversation,
            "event_type": "user_message",
            "text": f"The tide gauge was read at {moment.isoformat()}.",
            "timestamp": moment.isoformat(),
        }
        for moment, session in turns
    ]
    memoir_hashing.ingest(events)
    assert memoir_hashing.flush(timeout=60)
    memoir_hashing.update_timeline(rebuild=True)  # every segment closed and summarized, every period rolled up
    nodes = walk_conversation(memoir_hashing, conversation)
    for day in [n for n in nodes if n.level is TocLevel.DAY]:
        on = day.start_time.date()
        week = memoir_hashing.toc_node(day.parent_id or "", conversation_id=conversation)
        month = memoir_hashing.toc_node(week.parent_id or "", conversation_id=conversation)
        assert week.level is TocLevel.WEEK and week.start_time <= day.start_time < week.end_time, day.node_id
        assert month.start_time <= week.start_time < week.end_time <= month.end_time, week.node_id
        assert (month.node_id, month.parent_id) == (f"toc:month:{on:%Y-%m}", f"toc:year:{on.year}"), day.node_id
    # and every segment is reachable: no day was filed where browsing from its year cannot find it
    reached = {n.node_id for n in nodes if n.level is TocLevel.SEGMENT}
    store = memoir_hashing._parts.store
    placed = {s.node_id for s in store.segments("summarized", limit=100_000) if s.conversation_id == conversation}
    assert placed and reached == placed
