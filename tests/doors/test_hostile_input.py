"""Hostile input: every line stands alone, and every bad value is a MemoirError that names its field.

`memoir ingest` stores every good line and reports each bad one as `line N: field: reason`,
whatever is wrong with it: a lone surrogate, bytes that are not UTF-8, a timestamp that
overflows once converted to UTC, digits int() cannot read, a number too long to read, JSON
nested too deep, an id already stored with other content. Through the Python API the same
values raise an `InvalidInput` that names the field, and so do the arguments of reads
(`search`, `build_context`, `events`, `get_event`) and of every CLI command.

The fuzz tests at the end draw arbitrary JSON, Unicode with lone surrogates, raw bytes and
Python values no JSON holds. Per run: 250 `memoir ingest` runs of 1 to 8 lines each (about
1,200 lines, from a file or standard input, in batches of 1, 3 or 1,000), 250 `ingest` calls
through the API, 250 sets of read arguments (5 reads each) and 60 `remember` calls.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from memoir import Event, EventType, InvalidEvent, InvalidInput, InvalidQuery, Memoir, MemoirError
from tests.conftest import cli

GOOD = {"session_id": "s", "event_type": "user_message", "text": "fine"}
DIGITS_5000 = "9" * 5000
DEEP = "[" * 200_000 + "]" * 200_000
HASHING = {"MEMOIR_EMBEDDING_PROVIDER": "hashing"}  # no model to load: these tests are about input


def line(**fields: object) -> bytes:
    """One JSON line of a good event with `fields` changed; surrogates go out as JSON escapes."""
    return json.dumps({**GOOD, **fields}).encode()


def raw_line(field: str, json_value: str) -> bytes:
    """A good event whose `field` is written as this JSON text (for what json.dumps cannot write)."""
    return json.dumps(GOOD)[:-1].encode() + f', "{field}": {json_value}}}'.encode()


@pytest.fixture
def memoir(open_memoir: Callable[..., Memoir]) -> Memoir:
    return open_memoir(embedding_provider="hashing")


def ingest_lines(home: Path, *lines: bytes, via_stdin: bool = False, options: tuple[str, ...] = ()) -> Any:
    """`memoir ingest` of these lines from a file, or from standard input; the home is made when missing."""
    if not home.exists():
        assert cli("init", home=home, **HASHING).exit_code == 0
    data = b"".join(raw + b"\n" for raw in lines)
    if via_stdin:
        return cli("ingest", "-", "--no-wait", *options, home=home, stdin=data, **HASHING)
    path = home.parent / "lines.jsonl"
    path.write_bytes(data)
    return cli("ingest", str(path), "--no-wait", *options, home=home, **HASHING)


def stored_count(home: Path) -> int:
    with Memoir.open(home, worker_enabled=False, embedding_provider="hashing") as memoir:
        return memoir.status().events


# -- every line stands alone -----------------------------------------------------------------

CESU = json.dumps({**GOOD, "text": "\ud800"}, ensure_ascii=False).encode("utf-8", "surrogatepass")
HOSTILE_LINES = [
    pytest.param(line(text="\ud800"), "text", "surrogate", id="lone surrogate in text"),
    pytest.param(line(session_id="s\udc00"), "session_id", "surrogate", id="lone surrogate in session"),
    pytest.param(line(metadata={"k": "\udfff"}), "metadata.k", "surrogate", id="lone surrogate in a metadata value"),
    pytest.param(line(metadata={"\ud83d": "v"}), "metadata", "surrogate", id="lone surrogate in a metadata key"),
    pytest.param(line(**{"\ud800": 1}), "'\\ud800'", "unknown field", id="lone surrogate in a field name"),
    pytest.param(b"\xff" + line(), "event", "not UTF-8 (byte 0xff at column 1)", id="not UTF-8"),
    pytest.param(CESU, "event", "not UTF-8", id="a surrogate encoded as if it were a character"),
    pytest.param(line(timestamp="0001-01-01T00:00:00+14:00"), "timestamp", "out of range", id="year 1 at +14:00"),
    pytest.param(line(timestamp="9999-12-31T23:59:59-14:00"), "timestamp", "out of range", id="year 9999 at -14:00"),
    pytest.param(line(timestamp="²"), "timestamp", "ISO 8601", id="a digit int() cannot read"),
    pytest.param(line(timestamp="１２３"), "timestamp", "ISO 8601", id="full-width digits"),
    pytest.param(line(timestamp=DIGITS_5000), "timestamp", "plausible", id="5,000 digits as text"),
    pytest.param(raw_line("timestamp", DIGITS_5000), "event", "too many digits", id="a 5,000-digit number"),
    pytest.param(raw_line("timestamp", "1e400"), "timestamp", "got inf", id="a number too big for a float"),
    pytest.param(raw_line("text", DEEP), "event", "nested too deeply", id="200k-deep JSON"),
    pytest.param(raw_line("text", "NaN"), "event", "NaN is not a JSON value", id="NaN"),
    pytest.param(line(conversation_id="a\x85b"), "conversation_id", "line break", id="NEL in an id"),
    pytest.param(line(session_id="a\u2028b"), "session_id", "line break", id="line separator in an id"),
    pytest.param(line(agent_id="\x9b"), "agent_id", "control character", id="C1 control in an id"),
    pytest.param(line(metadata={"k": {"n": "v"}}), "metadata.k", "values are text", id="nested metadata"),
    pytest.param(line(metadata=[]), "metadata", "map", id="a list as metadata"),
    pytest.param(
        line(metadata={str(n): "" for n in range(101)}), "metadata", "more than 100 keys", id="metadata with 101 keys"
    ),
    pytest.param(line(metadata={"k": "x" * 70_000}), "metadata", "characters", id="70k characters of metadata"),
    pytest.param(line(text=["fine"]), "text", "expected text", id="a list as text"),
    pytest.param(line(text=0), "text", "expected text", id="zero as text"),
    pytest.param(line(timestamp=True), "timestamp", "got True", id="a bool as timestamp"),
    pytest.param(line(event_type={"user": 1}), "event_type", "unknown type", id="an object as type"),
    pytest.param(line(role="\ud800"), "role", "unknown role '\\ud800'", id="lone surrogate as role"),
]


@pytest.mark.parametrize(("bad", "field", "reason"), HOSTILE_LINES)
def test_a_bad_line_is_reported_by_number_and_the_good_lines_around_it_are_stored(
    home: Path, bad: bytes, field: str, reason: str
) -> None:
    result = ingest_lines(home, line(text="before"), bad, line(text="after"))
    assert (result.exit_code, result.stdout) == (2, "ingested 2, rejected 1\n")
    assert result.stderr.startswith(f"line 2: {field}: ") and reason in result.stderr
    assert result.stderr.count("\n") == 1  # one line per refused line, whatever it held
    assert stored_count(home) == 2


@pytest.mark.parametrize(("bad", "field", "reason"), [p for p in HOSTILE_LINES if p.values[1] != "event"])
def test_the_api_refuses_the_same_values_naming_the_field(memoir: Memoir, bad: bytes, field: str, reason: str) -> None:
    with pytest.raises(InvalidEvent) as caught:
        memoir.ingest(json.loads(bad))
    assert (caught.value.field, str(caught.value)) == (field, f"{field}: {caught.value.reason}")
    assert reason in caught.value.reason


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"timestamp": datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=14)))}, "timestamp"),
        ({"timestamp": datetime.max.replace(tzinfo=timezone(timedelta(hours=-14)))}, "timestamp"),
        ({"timestamp": 10**5000}, "timestamp"),  # past Python's digit limit even for repr()
        ({"timestamp": 1.5}, "timestamp"),
        ({"text": b"bytes"}, "text"),
        ({"metadata": {1: "one"}}, "metadata"),
        ({"event_id": 10**5000}, "event_id"),
        ({"session_id": None}, "session_id"),
    ],
)
def test_python_values_no_json_holds_are_refused_naming_the_field(
    memoir: Memoir, fields: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidEvent) as caught:
        memoir.ingest({**GOOD, **fields})
    assert caught.value.field == field


def test_standard_input_is_read_as_bytes_like_a_file(home: Path) -> None:
    result = ingest_lines(home, line(text="one"), b"\xc3\x28", line(text="two"), via_stdin=True)
    assert (result.exit_code, result.stdout) == (2, "ingested 2, rejected 1\n")
    assert result.stderr == "line 2: event: not UTF-8 (byte 0xc3 at column 1)\n"


def test_a_byte_order_mark_may_open_the_first_line(home: Path) -> None:
    assert ingest_lines(home, b"\xef\xbb\xbf" + line()).stdout == "ingested 1, rejected 0\n"


# -- an id names one event forever -------------------------------------------------------------

ID = "01HN4QXKN6YWXVKZ3JMHP4BCDE"
WHEN = "2024-01-15T10:00:00Z"


def test_an_id_sent_again_with_other_content_is_reported_and_the_stored_event_stands(home: Path) -> None:
    first = [line(event_id=ID, text="original", timestamp=WHEN), line(text="another", timestamp=WHEN)]
    assert ingest_lines(home, *first).stdout == "ingested 2, rejected 0\n"
    again = ingest_lines(home, first[0], line(event_id=ID, text="changed", timestamp=WHEN), line(text="new"))
    assert (again.exit_code, again.stdout) == (2, "ingested 2, rejected 1\n")  # the retry counts, the conflict not
    assert (
        again.stderr
        == f"line 2: event_id: {ID} is already stored with different content: give the new event its own id\n"
    )
    with Memoir.open(home, worker_enabled=False, embedding_provider="hashing") as memoir:
        assert memoir.get_event(ID).text == "original"
        assert memoir.status().events == 3


@pytest.mark.parametrize("batch_size", ["1", "2", "1000"])
def test_every_conflict_of_a_batch_is_reported_on_its_own_line(home: Path, batch_size: str) -> None:
    ids = [f"01HN4QXKN6YWXVKZ3JMHP4BC{n:02d}" for n in range(6)]
    ingest_lines(home, *(line(event_id=i, text="kept", timestamp=WHEN) for i in ids))
    texts = ["kept", "other", "kept", "other", "other", "kept"]
    again = ingest_lines(
        home,
        *(line(event_id=i, text=t, timestamp=WHEN) for i, t in zip(ids, texts, strict=True)),
        options=("--batch-size", batch_size),
    )
    assert again.stdout == "ingested 3, rejected 3\n"
    assert [int(r.split(":")[0].removeprefix("line ")) for r in again.stderr.splitlines()] == [2, 4, 5]


@pytest.mark.parametrize(
    "change",
    [
        {"text": "other"},
        {"session_id": "other"},
        {"event_type": "assistant_message"},
        {"role": "system"},
        {"timestamp": "2024-01-15T10:00:00.001Z"},
        {"metadata": {"k": "v"}},
        {"conversation_id": "other"},
        {"agent_id": "other"},
    ],
)
def test_the_api_raises_for_other_content_under_a_stored_id_and_stores_the_rest(
    memoir: Memoir, change: dict[str, Any]
) -> None:
    original = {**GOOD, "event_id": ID, "timestamp": WHEN}
    assert memoir.ingest(original) == [ID]
    assert memoir.ingest(dict(original)) == [ID]  # the same event again: a harmless retry
    with pytest.raises(InvalidEvent) as caught:
        memoir.ingest([{**GOOD, "text": "first"}, {**original, **change}, {**GOOD, "text": "last"}])
    assert (caught.value.field, caught.value.index) == ("event_id", 1)
    assert str(caught.value).startswith(f"event #1: event_id: {ID} is already stored with different content")
    assert memoir.get_event(ID).to_dict() == Event.from_dict(original).to_dict()
    assert sorted(e.text for e in memoir.events()) == ["fine", "first", "last"]


def test_a_batch_that_repeats_an_id_with_other_content_keeps_the_first(memoir: Memoir) -> None:
    with pytest.raises(InvalidEvent, match=f"event #2: event_id: {ID} is already stored"):
        memoir.ingest([{**GOOD, "event_id": ID}, {**GOOD, "event_id": ID}, {**GOOD, "event_id": ID, "text": "2nd"}])
    assert [e.text for e in memoir.events()] == ["fine"]


# -- reads and arguments -------------------------------------------------------------------------

READS: list[tuple[str, Callable[[Memoir], object], str]] = [
    ("query with a lone surrogate", lambda m: m.search("\ud800"), "query"),
    ("a 200k-character query", lambda m: m.search("x" * 200_000), "query"),
    ("a number as query", lambda m: m.search(5), "query"),  # type: ignore[arg-type]
    ("k past the digit limit", lambda m: m.search("x", k=10**5000), "k"),
    ("a line break in a conversation", lambda m: m.search("x", conversation_id="a\x85b"), "conversation_id"),
    ("kinds that are no list", lambda m: m.search("x", kinds=5), "kinds"),  # type: ignore[arg-type]
    ("a digit int() cannot read", lambda m: m.search("x", since="²"), "since"),
    ("a date out of range in UTC", lambda m: m.search("x", until="0001-01-01T00:00:00+14:00"), "until"),
    ("context for a lone surrogate", lambda m: m.build_context("\udcff"), "query"),
    ("a budget past the digit limit", lambda m: m.build_context("x", budget_tokens=10**5000), "budget_tokens"),
    ("5,000 digits", lambda m: m.events(since=DIGITS_5000), "since"),
    ("a lone surrogate as session", lambda m: m.events(session_id="\ud800"), "session_id"),
    ("a number as conversation", lambda m: m.events(conversation_id=5), "conversation_id"),  # type: ignore[arg-type]
    ("a line separator in an agent", lambda m: m.events(agent_id="a\u2028b"), "agent_id"),
    ("a limit past the digit limit", lambda m: m.events(limit=10**5000), "limit"),
    ("a number as cursor", lambda m: m.events(cursor=5), "cursor"),  # type: ignore[arg-type]
    ("odd digits in a cursor", lambda m: m.events(cursor=f"evt:{'²' * 13}:{ID}"), "cursor"),
    ("a lone surrogate as event id", lambda m: m.get_event("\ud800"), "event_id"),
    ("a huge number as event id", lambda m: m.get_event(10**5000), "event_id"),  # type: ignore[arg-type]
    ("a lone surrogate as memory filter", lambda m: m.memories("\udcff"), "conversation_id"),
]


@pytest.mark.parametrize(("call", "field"), [(call, field) for _, call, field in READS], ids=[r[0] for r in READS])
def test_a_bad_read_argument_is_an_invalid_query_naming_it(
    memoir: Memoir, call: Callable[[Memoir], object], field: str
) -> None:
    with pytest.raises(InvalidQuery) as caught:
        call(memoir)
    assert caught.value.field == field
    assert len(str(caught.value)) < 200  # a value is shown briefly, never in full


NON_UTF8 = "\udcff"  # what Python makes of the byte 0xff in a command-line argument

ARGUMENTS = [
    (["search", NON_UTF8], "query"),
    (["search", "x", "--k", "9" * 30], "k"),
    (["search", "x", "--kinds", NON_UTF8], "kinds"),
    (["search", "x", "--conversation", NON_UTF8], "conversation_id"),
    (["events", "--since", "²"], "since"),
    (["events", "--until", "0001-01-01T00:00:00+14:00"], "until"),
    (["events", "--session", NON_UTF8], "session_id"),
    (["events", "--agent", NON_UTF8], "agent_id"),
    (["events", "--limit", "9" * 30], "limit"),
    (["events", "--cursor", NON_UTF8], "cursor"),
    (["show", NON_UTF8], "event_id"),
    (["remember", NON_UTF8], "content"),
    (["memories", "--conversation", NON_UTF8], "conversation_id"),
    (["ingest", NON_UTF8], "\\udcff"),
]


@pytest.mark.parametrize(
    ("args", "field"), ARGUMENTS, ids=[" ".join(a).encode(errors="replace").decode() for a, _ in ARGUMENTS]
)
def test_a_bad_argument_exits_2_naming_it(home: Path, args: list[str], field: str) -> None:
    assert cli("init", home=home).exit_code == 0
    result = cli(*args, home=home, **HASHING)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"error: {field}: ")


@pytest.mark.parametrize("args", [["forget", NON_UTF8], ["memories", "--history", NON_UTF8]])
def test_a_bad_memory_id_exits_2_naming_it(home: Path, args: list[str]) -> None:
    assert cli("init", home=home).exit_code == 0
    result = cli(*args, home=home, **HASHING)
    assert result.exit_code == 2 and result.stderr.startswith("error: memory_id: ")


def test_a_number_too_long_for_an_option_is_a_usage_error(home: Path) -> None:
    result = cli("events", "--limit", DIGITS_5000, home=home)
    assert result.exit_code == 2 and "Invalid value for '--limit'" in result.stderr


def test_entry_point_reads_real_bytes_from_arguments_and_standard_input(home: Path) -> None:
    assert cli("init", home=home).exit_code == 0

    def memoir(*args: bytes, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
        environment = {**os.environ, "MEMOIR_HOME": str(home), "PYTHONUTF8": "1", **HASHING}
        command = [sys.executable.encode(), b"-m", b"memoir", *args]
        return subprocess.run(command, input=stdin, capture_output=True, env=environment, timeout=120, check=False)

    piped = memoir(b"ingest", b"-", b"--no-wait", stdin=line(text="one") + b"\n\xff\xfe\n" + line(text="two") + b"\n")
    assert (piped.returncode, piped.stdout) == (2, b"ingested 2, rejected 1\n")
    assert piped.stderr == b"line 2: event: not UTF-8 (byte 0xff at column 1)\n"
    argument = memoir(b"events", b"--session", b"caf\xe9")  # Latin-1, not UTF-8
    assert (argument.returncode, argument.stderr) == (
        2,
        b"error: session_id: holds half of a UTF-16 surrogate pair at position 3: send whole characters (UTF-8)\n",
    )


# -- fuzz ---------------------------------------------------------------------------------------

# Every code point, lone surrogates (category Cs) included: Python strings and JSON escapes hold them.
ANY_CHAR = st.characters(categories=["L", "M", "N", "P", "S", "Z", "C"])
TRAPS = ["\ud800", "\udcff", "a\x85b", "\u2028", "\x00", "²", "١٢", "", " ", "NaN", "default", "user_message"]
TEXTS = st.text(ANY_CHAR, max_size=12) | st.sampled_from(TRAPS)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXTS,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(TEXTS, children, max_size=3),
    max_leaves=8,
)
SPECIAL_VALUES = [
    "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "²", DIGITS_5000, 10**30, 2**63, -1, 0, "0",
    "2024-01-15", "2999-01-01T00:00:00Z", "1705312800123", {"k": {"n": "v"}}, {"k": "x" * 70_000}, [], {},
    {str(n): "" for n in range(101)}, True, "UserMessage", "EVENT_TYPE_TOOL_RESULT", "robot", "user", "a\u2029b",
]  # fmt: skip
HOSTILE = JSON_VALUES | st.sampled_from(SPECIAL_VALUES)
# What only Python can pass: non-JSON types, numbers past the digit limit, datetimes that overflow.
PYTHON_VALUES = HOSTILE | st.sampled_from(
    [
        10**5000,
        b"bytes",
        float("nan"),
        {1, 2},
        object(),
        datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=14))),
        datetime.max.replace(tzinfo=timezone(timedelta(hours=-14))),
        EventType.TOOL_RESULT,
    ]
)
RAW_LINES = [
    b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80", b"{", b"[]", b"null", b"NaN", b'"text"', b"\xef\xbb\xbf{}",
    raw_line("timestamp", DIGITS_5000), raw_line("text", DEEP), raw_line("text", "-Infinity"),
    raw_line("metadata", DEEP), b"\x0c", b"   ", b"\xc2\x85", b"\xe2\x80\xa8",
]  # fmt: skip


def mostly(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """`good` three times in four, so that a call with several arguments often gets past its checks."""
    return st.integers(0, 3).flatmap(lambda n: bad if n == 0 else good)


FIELDS = [
    "event_id",
    "session_id",
    "timestamp",
    "event_type",
    "role",
    "text",
    "metadata",
    "conversation_id",
    "agent_id",
]
_ids = itertools.count()


@st.composite
def events(draw: st.DrawFn, values: st.SearchStrategy[Any] = HOSTILE) -> dict[Any, Any]:
    """A good event (an id no other example uses) with up to two fields made hostile, or one unknown added."""
    kind = draw(st.sampled_from([*EventType, "UserMessage", "EVENT_TYPE_TOOL_RESULT"]))
    event: dict[Any, Any] = {
        "event_id": f"01J{next(_ids):023d}",
        "session_id": draw(st.sampled_from(["s1", "🙂", "a b", "日本"])),
        "event_type": kind,
        "text": draw(st.text(min_size=1, max_size=30).filter(lambda t: not t.isspace())),
        "timestamp": draw(st.integers(0, 1_700_000_000_000) | st.sampled_from(["2024-01-15T10:00:00+01:00", WHEN])),
    }
    for name in draw(st.lists(st.sampled_from(["metadata", "conversation_id", "role", "agent_id"]), unique=True)):
        event[name] = draw(
            st.dictionaries(st.text(min_size=1, max_size=5), st.text(max_size=5), max_size=3)
            if name == "metadata"
            else st.sampled_from(["user", "tool"] if name == "role" else ["c1", "ünï", "global"])
        )
    for name in draw(st.lists(st.sampled_from([*FIELDS, "unknown"]) | TEXTS, max_size=2, unique=True)):
        event[name] = draw(values)
    return event


@st.composite
def jsonl(draw: st.DrawFn) -> list[bytes]:
    """Lines of JSON Lines as a client might send them, and as no client should."""
    lines: list[bytes] = []
    sources: list[dict[Any, Any]] = []
    for _ in range(draw(st.integers(1, 8))):
        choice = draw(st.sampled_from(["event", "event", "event", "again", "json", "raw", "bytes"]))
        if choice == "again" and sources:  # the same event again, or other content under its id
            event = dict(draw(st.sampled_from(sources)))  # a time of its own: "now" differs from run to run
            if draw(st.booleans()):
                event["text"] = "other content"
            value: Any = event
        elif choice in ("event", "again"):
            value = draw(events())
            if value.get("timestamp") is not None:
                sources.append(value)
        elif choice == "json":
            value = draw(JSON_VALUES)
        else:
            raw = draw(st.sampled_from(RAW_LINES)) if choice == "raw" else draw(st.binary(max_size=20))
            lines.append(raw.replace(b"\n", b" "))
            continue
        text = json.dumps(value, ensure_ascii=draw(st.booleans()))  # not ASCII: surrogates make bad UTF-8
        lines.append(text.encode("utf-8", "surrogatepass"))
    return lines


def expected(memoir: Memoir, lines: list[bytes]) -> tuple[dict[int, Event], list[int]]:
    """What the API says of each line: the events to store by line number, and the lines to refuse."""
    good: dict[int, Event] = {}
    bad: list[int] = []
    seen: dict[str, Event] = {}
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        event = _api_event(memoir, raw, number)
        if event is None or seen.get(event.event_id, event) != event:
            bad.append(number)
        else:
            good[number] = seen[event.event_id] = event
    return good, bad


def _api_event(memoir: Memoir, raw: bytes, number: int) -> Event | None:
    try:
        value = json.loads(raw.decode("utf-8-sig" if number == 1 else "utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError):  # not UTF-8, not JSON, or JSON that Python will not read
        return None
    if not isinstance(value, dict):
        return None
    try:
        [event] = memoir.prepare(value)  # any other exception fails the test: the point of it
    except MemoirError:
        return None
    return event


def _no_constant(name: str) -> None:
    raise ValueError(name)


def without_time(event: Event) -> dict[str, Any]:
    return {k: v for k, v in event.to_dict().items() if k != "timestamp"}


def assert_names_its_field(error: InvalidInput) -> None:
    """A refusal names a field and says why, on one short line."""
    assert error.field and error.reason
    assert str(error).endswith(f"{error.field}: {error.reason}")
    assert "\n" not in str(error) and len(str(error)) < 400


FUZZ = settings(max_examples=250, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture
def beside(home: Path) -> Iterator[Memoir]:
    """The home `memoir ingest` writes to, opened beside it once for all the examples of a test."""
    with Memoir.open(home, worker_enabled=False, embedding_provider="hashing") as memoir:
        yield memoir


@FUZZ
@given(lines=jsonl(), via_stdin=st.booleans(), batch_size=st.sampled_from(["1", "3", "1000"]))
def test_any_line_stands_alone_through_the_cli(
    home: Path, beside: Memoir, lines: list[bytes], via_stdin: bool, batch_size: str
) -> None:
    memoir = beside
    good, bad = expected(memoir, lines)
    event(f"lines stored: {'some' if good else 'none'}, refused: {'some' if bad else 'none'}")
    before = memoir.status().events
    result = ingest_lines(home, *lines, via_stdin=via_stdin, options=("--batch-size", batch_size))
    assert result.stdout == f"ingested {len(good)}, rejected {len(bad)}\n"
    assert result.exit_code == (2 if bad else 0)
    reported = result.stderr.splitlines()
    assert [int(r.split(":")[0].removeprefix("line ")) for r in reported] == bad
    assert all(re.fullmatch(r"line \d+: \S.*: \S.*", r) and r.isprintable() for r in reported), reported
    new = {e.event_id: e for e in good.values() if e.event_id.startswith("01J")}
    generated = [e for e in good.values() if not e.event_id.startswith("01J")]  # "event_id": null
    assert memoir.status().events == before + len(new) + len(generated)
    assert {i: without_time(memoir.get_event(i)) for i in new} == {i: without_time(e) for i, e in new.items()}


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memoir]:
    """One home for the API fuzz tests, with a few turns indexed (a home per example would take most of their time)."""
    with pytest.MonkeyPatch.context() as env:  # the per-test isolated_env has not run yet
        for name in [name for name in os.environ if name.startswith("MEMOIR_")]:
            env.delenv(name)
        home = tmp_path_factory.mktemp("api") / "home"
        env.setenv("XDG_CONFIG_HOME", str(home.parent / "xdg-config"))
        memoir = Memoir.open(home, worker_enabled=False, embedding_provider="hashing")
    memoir.ingest([{**GOOD, "text": text} for text in ("tides at noon", "Sam likes Go", "the token expires")])
    memoir.flush()
    yield memoir
    memoir.close()


@settings(max_examples=250)
@given(mostly(st.lists(events(PYTHON_VALUES), min_size=1, max_size=3) | events(PYTHON_VALUES), PYTHON_VALUES))
def test_any_value_through_the_api_is_stored_or_refused_naming_the_field(api: Memoir, value: Any) -> None:
    try:
        ids = api.ingest(value)
    except InvalidInput as exc:
        assert_names_its_field(exc)
        event("refused")
        return
    event("stored")
    assert [api.get_event(i).event_id for i in ids] == ids


@settings(max_examples=250)
@given(
    query=mostly(st.text(min_size=1), PYTHON_VALUES),
    k=mostly(st.none() | st.integers(1, 20), PYTHON_VALUES),
    conversation=mostly(st.none() | st.just("c1"), PYTHON_VALUES),
    kinds=mostly(st.none() | st.just(["fact", "turn"]), PYTHON_VALUES),
    since=mostly(st.none() | st.just(WHEN), PYTHON_VALUES),
    session=mostly(st.none() | st.just("s1"), PYTHON_VALUES),
    limit=mostly(st.integers(1, 5), PYTHON_VALUES),
    cursor=mostly(st.none(), PYTHON_VALUES),
)
def test_any_read_argument_gives_an_answer_or_an_invalid_query(
    api: Memoir, query: Any, k: Any, conversation: Any, kinds: Any, since: Any, session: Any, limit: Any, cursor: Any
) -> None:
    reads: list[Callable[[], object]] = [
        lambda: api.search(query, k=k, conversation_id=conversation, kinds=kinds, since=since),
        lambda: api.build_context(query, conversation_id=conversation, budget_tokens=k or 100),
        lambda: api.events(since=since, session_id=session, conversation_id=conversation, limit=limit),
        lambda: api.events(cursor=cursor),
        lambda: api.get_event(query),
    ]
    for read in reads:
        try:
            read()
        except InvalidQuery as exc:
            assert_names_its_field(exc)


@settings(max_examples=60)
@given(
    text=mostly(st.text(min_size=1), PYTHON_VALUES),
    kind=mostly(st.sampled_from(["fact", "gotcha", "Decision"]), PYTHON_VALUES),
    conversation=mostly(st.none() | st.just("c1"), PYTHON_VALUES),
    tags=mostly(st.just(()), st.lists(TEXTS, max_size=2)),
)
def test_any_remember_keeps_a_memory_or_refuses_naming_the_field(
    api: Memoir, text: Any, kind: Any, conversation: Any, tags: Any
) -> None:
    try:
        memory = api.remember(text, kind=kind, conversation_id=conversation, tags=tags)
    except InvalidInput as exc:
        assert_names_its_field(exc)
        event("refused")
        return
    event("kept")
    assert memory.id in {m.id for m in api.memories(memory.conversation_id)}


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda m: m.remember_many("hello"), "drafts"),
        (lambda m: m.remember_many(None), "drafts"),
        (lambda m: m.remember("x", tags=5), "tags"),
        (lambda m: m.reindex(batch_size=0), "batch_size"),
        (lambda m: m.reindex(batch_size="x"), "batch_size"),
        (lambda m: m.reindex(progress="x"), "progress"),
        (lambda m: m.flush(timeout="x"), "timeout"),
        (lambda m: m.memories(kind="bogus"), "kind"),
        (lambda m: m.memories(include_deleted="no"), "include_deleted"),
        (lambda m: m.search("x", kinds=[]), "kinds"),
    ],
)
def test_a_bad_argument_to_the_memory_api_names_its_field_and_changes_nothing(
    open_memoir: Callable[..., Memoir], call: Callable[[Memoir], object], field: str
) -> None:
    memoir = open_memoir(embedding_provider="hashing")
    memoir.remember("kept")
    with pytest.raises(InvalidInput) as raised:
        call(memoir)
    assert raised.value.field == field
    assert [m.content for m in memoir.memories()] == ["kept"]
