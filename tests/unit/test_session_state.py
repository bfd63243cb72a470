"""Session state (seed 001): per-session JSON files, hostile ids, fail-open reads, hints, the breaker."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memoir.errors import InvalidInput, StoreError
from memoir.llm.breaker import BreakerState
from memoir.session_state import (
    HintState,
    SessionState,
    read_state,
    safe_session,
    session_breaker,
    write_state,
)

SAFE_FOLDER = re.compile(r"[A-Za-z0-9._-]{1,64}")
FIXTURES = [HealthCheck.function_scoped_fixture]


class Clock:
    def __init__(self, now: float = 1_750_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


# -- where state lives ----------------------------------------------------------------------


def test_a_tame_session_id_is_its_own_folder(tmp_path: Path) -> None:
    write_state(tmp_path, "abc-DEF_1.2", "hints", {"a": 1})
    assert json.loads((tmp_path / "sessions" / "abc-DEF_1.2" / "hints.json").read_text()) == {"a": 1}
    assert read_state(tmp_path, "abc-DEF_1.2", "hints") == {"a": 1}


@pytest.mark.parametrize("hostile", ["", ".", "..", "../../etc", "a/b", "a\\b", "x" * 65, "é", "a\x00b", "sp ace"])
def test_a_hostile_session_id_becomes_a_hash_never_a_path(tmp_path: Path, hostile: str) -> None:
    state = SessionState(tmp_path, hostile)
    state.write("hints", {"ok": True})
    assert state.folder.parent == tmp_path / "sessions"
    assert re.fullmatch(r"x-[0-9a-f]{32}", state.folder.name)
    assert state.read("hints") == {"ok": True}


def test_an_id_that_looks_like_a_digest_is_digested_too(tmp_path: Path) -> None:
    """So no hostile id can land in another id's folder by naming its hash."""
    digested = safe_session("../x")
    assert safe_session(digested) != digested


@given(st.text(max_size=200))
def test_every_session_id_maps_to_one_safe_folder_name(session_id: str) -> None:
    name = safe_session(session_id)
    assert SAFE_FOLDER.fullmatch(name) and name not in (".", "..")
    assert safe_session(session_id) == name


@given(st.text(max_size=80), st.text(max_size=80))
def test_two_session_ids_never_share_a_folder(first: str, second: str) -> None:
    if first != second:
        assert safe_session(first) != safe_session(second)


def test_a_state_name_is_never_a_path(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="name"):
        SessionState(tmp_path, "s").write("../escape", {})


# -- reading fails open, writing is atomic --------------------------------------------------


def test_missing_state_reads_as_empty(tmp_path: Path) -> None:
    assert SessionState(tmp_path, "s").read("hints") == {}


@pytest.mark.parametrize("content", [b"", b"{", b"[1, 2]", b'"text"', b"\xff\xfe", b"[" * 100_000, b"1e999999"])
def test_corrupt_state_reads_as_empty(tmp_path: Path, content: bytes) -> None:
    state = SessionState(tmp_path, "s")
    state.folder.mkdir(parents=True)
    (state.folder / "hints.json").write_bytes(content)
    assert state.read("hints") == {}


def test_an_oversized_or_linked_state_file_reads_as_empty(tmp_path: Path) -> None:
    state = SessionState(tmp_path, "s")
    state.folder.mkdir(parents=True)
    (state.folder / "hints.json").write_text(json.dumps({"pad": "x" * 300_000}))
    assert state.read("hints") == {}
    secret = tmp_path / "secret.json"
    secret.write_text('{"token": "abc"}')
    (state.folder / "breaker.json").symlink_to(secret)
    assert state.read("breaker") == {}


def test_a_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    state = SessionState(tmp_path, "s")
    for n in range(3):
        state.write("hints", {"n": n})
    assert sorted(p.name for p in state.folder.iterdir()) == ["hints.json"]


def test_a_write_that_the_disk_refuses_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "sessions").write_text("a file where the folder should be")
    with pytest.raises(StoreError, match="cannot write session state"):
        SessionState(tmp_path, "s").write("hints", {})


# -- HintState --------------------------------------------------------------------------------


def test_a_hint_is_shown_three_times_then_suppressed(tmp_path: Path) -> None:
    hints = HintState(tmp_path, "s1")
    shown: list[str] = []
    for _ in range(5):
        hints.show("call-ai-assistance", "try --call", shown.append)
    assert shown == ["try --call"] * 3
    assert hints.count("call-ai-assistance") == 3
    assert not hints.should_show("call-ai-assistance")
    assert hints.should_show("call-ai-assistance", threshold=4)


def test_hints_are_stored_in_the_seeds_shape(tmp_path: Path) -> None:
    HintState(tmp_path, "s1", clock=Clock(0.5)).increment("call-ai-assistance")
    data = json.loads((tmp_path / "sessions" / "s1" / "hints.json").read_text())
    assert data == {
        "sessionId": "s1",
        "hints": {"call-ai-assistance": {"count": 1, "lastShown": "1970-01-01T00:00:00.500Z"}},
    }


def test_hints_are_per_session_and_reset(tmp_path: Path) -> None:
    first = HintState(tmp_path, "s1")
    for _ in range(3):
        first.increment("tip")
    assert not first.should_show("tip")
    assert HintState(tmp_path, "s2").should_show("tip")  # a new session sees every hint again
    first.reset()
    assert first.should_show("tip") and first.count("tip") == 0


def test_a_bad_hint_type_or_threshold_is_named(tmp_path: Path) -> None:
    hints = HintState(tmp_path, "s")
    with pytest.raises(InvalidInput, match="hint_type"):
        hints.should_show("Not A Type")
    with pytest.raises(InvalidInput, match="threshold"):
        hints.should_show("tip", threshold=-1)


def test_a_corrupt_hints_file_is_rebuilt(tmp_path: Path) -> None:
    state = SessionState(tmp_path, "s")
    state.folder.mkdir(parents=True)
    (state.folder / "hints.json").write_text('{"sessionId": "s", "hints": {"tip": {"count": -4}, "ok": 7}')
    hints = HintState(tmp_path, "s")
    assert hints.should_show("tip")
    assert hints.increment("tip") == 1
    assert json.loads((state.folder / "hints.json").read_text())["hints"]["tip"]["count"] == 1


def test_entries_breaking_the_seeds_rules_are_dropped(tmp_path: Path) -> None:
    write_state(
        tmp_path,
        "s",
        "hints",
        {
            "sessionId": "s",
            "hints": {
                "good": {"count": 2, "lastShown": "2026-01-24T22:15:00.000Z"},
                "negative": {"count": -1, "lastShown": "2026-01-24T22:15:00.000Z"},
                "boolean": {"count": True, "lastShown": "x"},
                "BAD KEY": {"count": 1, "lastShown": "x"},
            },
        },
    )
    assert set(HintState(tmp_path, "s").entries()) == {"good"}


def test_a_file_of_another_session_is_not_read_as_this_ones(tmp_path: Path) -> None:
    write_state(tmp_path, "s", "hints", {"sessionId": "other", "hints": {"tip": {"count": 9, "lastShown": "x"}}})
    assert HintState(tmp_path, "s").count("tip") == 0


def test_a_hint_that_cannot_be_saved_does_not_fail_the_command(tmp_path: Path) -> None:
    (tmp_path / "sessions").write_text("not a folder")
    shown: list[str] = []
    assert HintState(tmp_path, "s").show("tip", "hello", shown.append)
    assert shown == ["hello"]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=20,
)


@hsettings(max_examples=60, suppress_health_check=FIXTURES)
@given(content=st.one_of(st.binary(max_size=300), JSON.map(lambda v: json.dumps(v).encode())))
def test_any_hints_file_reads_without_raising_and_is_rebuilt(tmp_path: Path, content: bytes) -> None:
    state = SessionState(tmp_path, "s")
    state.folder.mkdir(parents=True, exist_ok=True)
    (state.folder / "hints.json").write_bytes(content)
    hints = HintState(tmp_path, "s")
    before = hints.count("tip")
    assert hints.increment("tip") == before + 1
    data = json.loads((state.folder / "hints.json").read_text())
    assert data["sessionId"] == "s" and data["hints"]["tip"]["count"] == before + 1


# -- CircuitBreakerState ----------------------------------------------------------------------


def test_the_breaker_opens_after_three_failures_and_says_so_in_the_seeds_fields(tmp_path: Path) -> None:
    clock = Clock()
    breaker = session_breaker(tmp_path, "s", clock=clock)
    for _ in range(2):
        assert breaker.allow()
        breaker.record_failure("refused")
    assert breaker.state is BreakerState.CLOSED
    assert breaker.allow()
    breaker.record_failure("refused")
    assert breaker.state is BreakerState.OPEN and not breaker.allow()
    data = json.loads((tmp_path / "sessions" / "s" / "breaker.json").read_text())
    assert data["sessionId"] == "s" and data["consecutiveFailures"] == 3 and data["isOpen"] is True
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", data["lastAttempt"])


def test_after_thirty_seconds_one_trial_goes_through(tmp_path: Path) -> None:
    clock = Clock()
    breaker = session_breaker(tmp_path, "s", clock=clock)
    for _ in range(3):
        breaker.record_failure()
    clock.now += 29
    assert not breaker.allow()
    clock.now += 2
    assert breaker.state is BreakerState.HALF_OPEN
    assert breaker.allow()  # the trial
    assert not session_breaker(tmp_path, "s", clock=clock).allow()  # another process meanwhile: no second trial
    breaker.record_failure()  # the trial failed: open again, for another 30 s
    assert breaker.state is BreakerState.OPEN
    clock.now += 31
    assert breaker.allow()
    breaker.record_success()
    assert breaker.state is BreakerState.CLOSED
    assert json.loads((tmp_path / "sessions" / "s" / "breaker.json").read_text())["consecutiveFailures"] == 0


def test_a_success_resets_the_count(tmp_path: Path) -> None:
    breaker = session_breaker(tmp_path, "s", clock=Clock())
    breaker.record_failure()
    breaker.record_failure()
    breaker.record_success()
    breaker.record_failure()
    assert breaker.snapshot().consecutive_failures == 1 and breaker.state is BreakerState.CLOSED


def test_a_new_session_starts_with_a_closed_breaker(tmp_path: Path) -> None:
    clock = Clock()
    for _ in range(3):
        session_breaker(tmp_path, "old", clock=clock).record_failure()
    assert not session_breaker(tmp_path, "old", clock=clock).allow()
    assert session_breaker(tmp_path, "new", clock=clock).allow()


@hsettings(max_examples=60, suppress_health_check=FIXTURES)
@given(content=st.one_of(st.binary(max_size=300), JSON.map(lambda v: json.dumps(v).encode())))
def test_any_breaker_file_reads_without_raising(tmp_path: Path, content: bytes) -> None:
    state = SessionState(tmp_path, "s")
    state.folder.mkdir(parents=True, exist_ok=True)
    (state.folder / "breaker.json").write_bytes(content)
    breaker = session_breaker(tmp_path, "s", clock=Clock())
    breaker.allow()
    breaker.record_failure("x")
    assert breaker.snapshot().consecutive_failures >= 1


@pytest.mark.parametrize(
    "fields",
    [
        {"consecutiveFailures": -3, "isOpen": True},
        {"consecutiveFailures": "3", "isOpen": True},
        {"consecutiveFailures": 3, "isOpen": True, "openedAt": "0001-01-01T00:00:00+14:00"},
        {"consecutiveFailures": 3, "isOpen": True, "openedAt": 12},
    ],
)
def test_a_mangled_breaker_file_is_a_closed_breaker(tmp_path: Path, fields: dict[str, object]) -> None:
    write_state(tmp_path, "s", "breaker", {"sessionId": "s", **fields})
    assert session_breaker(tmp_path, "s", clock=Clock()).allow()
