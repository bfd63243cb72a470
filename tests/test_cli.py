"""The `memoir` command, run as a user would: a real process, real files, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO, run_cli

EXAMPLE = REPO / "examples" / "conversation.jsonl"


@pytest.fixture
def ready(home: Path) -> Path:
    assert run_cli("init", home=home).returncode == 0
    return home


def lines(*events: dict[str, object]) -> str:
    return "".join(json.dumps(e) + "\n" for e in events)


def test_init_creates_the_home_and_is_harmless_twice(home: Path) -> None:
    first = run_cli("init", home=home)
    assert first.returncode == 0, first.stderr
    assert "memoir home ready" in first.stdout
    assert (home / "memoir.db").is_file()
    assert run_cli("init", home=home).returncode == 0


def test_ingest_the_example_then_status_counts_it(ready: Path) -> None:
    result = run_cli("ingest", str(EXAMPLE), home=ready)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ingested 27, rejected 0"
    status = json.loads(run_cli("status", "--json", home=ready).stdout)
    assert status["events"] == 27 and status["sessions"] == 2 and status["conversations"] == 1
    assert status["outbox_backlog"] == 0  # ingest waits for the background jobs by default
    assert status["database"] == str(ready / "memoir.db") and status["size_bytes"] > 0


def test_ingesting_the_same_file_twice_adds_nothing(ready: Path) -> None:
    run_cli("ingest", str(EXAMPLE), home=ready)
    run_cli("ingest", str(EXAMPLE), home=ready)
    assert json.loads(run_cli("status", "--json", home=ready).stdout)["events"] == 27


def test_bad_lines_are_reported_by_number_and_good_lines_kept(ready: Path, tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    good = {"session_id": "s", "event_type": "user_message", "text": "fine"}
    path.write_text(
        lines(good)
        + "{not json\n"
        + "\n"
        + lines({"session_id": "", "event_type": "user_message", "text": "x"})
        + lines({"session_id": "s", "event_type": "shout", "text": "x"})
        + lines({"session_id": "s", "event_type": "user_message", "text": "x", "role": "robot"})
        + lines({"session_id": "s", "event_type": "user_message", "text": "x", "timestamp": "2999-01-01T00:00:00Z"})
        + lines({"session_id": "s", "event_type": "user_message", "text": "x", "event_id": "bad-id"})
        + "[1, 2]\n"
        + lines(good)
    )
    result = run_cli("ingest", str(path), home=ready)
    assert result.returncode == 2
    assert result.stdout.strip() == "ingested 2, rejected 7"
    reported = result.stderr.strip().splitlines()
    assert [line.split(":")[0] for line in reported] == [f"line {n}" for n in (2, 4, 5, 6, 7, 8, 9)]
    assert "line 2: event: malformed JSON" in reported[0]
    assert "line 4: session_id: must not be empty" in reported[1]
    assert "line 5: event_type: unknown type 'shout'" in reported[2]
    assert "line 6: role: unknown role 'robot'" in reported[3]
    assert "line 7: timestamp:" in reported[4] and "in the future" in reported[4]
    assert "line 8: event_id: 'BAD-ID' is not a 26-character ULID" in reported[5]
    assert "Traceback" not in result.stderr


def test_ingest_reads_standard_input(ready: Path) -> None:
    result = run_cli(
        "ingest", "-", home=ready, stdin=lines({"session_id": "s", "event_type": "user_message", "text": "piped"})
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ingested 1, rejected 0"


def test_a_missing_input_file_is_a_clear_error(ready: Path) -> None:
    result = run_cli("ingest", "no-such-file.jsonl", home=ready)
    assert result.returncode == 2
    assert "no-such-file.jsonl: no such file" in result.stderr


def test_events_as_json_lines_can_be_ingested_elsewhere_unchanged(ready: Path, tmp_path: Path) -> None:
    run_cli("ingest", str(EXAMPLE), home=ready)
    exported = run_cli("events", "--json", "--limit", "1000", home=ready)
    assert exported.returncode == 0, exported.stderr
    other = tmp_path / "other"
    run_cli("init", home=other)
    assert run_cli("ingest", "-", home=other, stdin=exported.stdout).returncode == 0
    again = run_cli("events", "--json", "--limit", "1000", home=other)
    assert again.stdout == exported.stdout
    assert len(exported.stdout.splitlines()) == 27


def test_events_filters_and_pages(ready: Path) -> None:
    run_cli("ingest", str(EXAMPLE), home=ready)
    page = run_cli("events", "--session", "lighthouse-2026-03-09", "--limit", "5", "--json", home=ready)
    events = [json.loads(line) for line in page.stdout.splitlines()]
    assert len(events) == 5 and {e["session_id"] for e in events} == {"lighthouse-2026-03-09"}
    assert "more: add --cursor evt:" in page.stderr
    cursor = page.stderr.split("--cursor ")[1].strip()
    rest = run_cli("events", "--session", "lighthouse-2026-03-09", "--cursor", cursor, "--json", home=ready)
    assert len(rest.stdout.splitlines()) == 13 - 5


def test_events_table_shows_text_and_ids(ready: Path) -> None:
    run_cli("ingest", str(EXAMPLE), home=ready)
    table = run_cli("events", "--since", "2026-03-09T00:00:00Z", "--limit", "3", home=ready, COLUMNS="200")
    assert table.returncode == 0
    assert "Back again" in table.stdout and "session_start" in table.stdout


def test_show_prints_one_event_or_a_clear_error(ready: Path) -> None:
    run_cli("ingest", str(EXAMPLE), home=ready)
    first = json.loads(run_cli("events", "--json", "--limit", "1", home=ready).stdout)
    shown = run_cli("show", first["event_id"], home=ready)
    assert json.loads(shown.stdout) == first
    missing = run_cli("show", "01HN4QXKN6YWXVKZ3JMHP4BCDE", home=ready)
    assert missing.returncode == 2 and "no event with id" in missing.stderr


def test_config_show_says_where_each_value_came_from(home: Path, tmp_path: Path) -> None:
    config = tmp_path / "memoir.toml"
    config.write_text("[worker]\nbatch_size = 64\n")
    result = run_cli("--config", str(config), "config", "show", "--json", home=home, MEMOIR_LOG_LEVEL="warning")
    shown = json.loads(result.stdout)
    assert shown["worker.batch_size"] == {"value": 64, "source": f"file {config}"}
    assert shown["log_level"] == {"value": "warning", "source": "env MEMOIR_LOG_LEVEL"}
    assert shown["home"] == {"value": str(home), "source": "env MEMOIR_HOME"}
    assert shown["multi_agent_mode"]["source"] == "default"
    table = run_cli("config", "show", home=home, COLUMNS="200")
    assert "MEMOIR_WORKER_BATCH_SIZE" in table.stdout


def test_worker_once_drains_what_ingest_left(ready: Path) -> None:
    run_cli("ingest", "--no-wait", str(EXAMPLE), home=ready)
    pending = json.loads(run_cli("status", "--json", home=ready).stdout)["outbox_pending"]
    # boundary events carry no text to index; facts come from the 10 user messages
    assert pending == {"track_session": 27, "index_event": 21, "extract_facts": 10}
    result = run_cli("worker", "--once", home=ready)
    assert result.returncode == 0, result.stderr
    assert "outbox drained: 58 entries processed" in result.stdout
    assert json.loads(run_cli("status", "--json", home=ready).stdout)["outbox_backlog"] == 0


def test_a_missing_home_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    for command in (["status"], ["events"], ["ingest", str(EXAMPLE)], ["worker", "--once"]):
        result = run_cli(*command, home=tmp_path / "nowhere")
        assert result.returncode == 1
        assert "error: no memoir home at" in result.stderr and "memoir init" in result.stderr
        assert "Traceback" not in result.stderr


def test_bad_configuration_is_a_clear_error(home: Path) -> None:
    result = run_cli("status", home=home, MEMOIR_WORKER_BATCH_SIZE="many")
    assert result.returncode == 2
    assert "error: MEMOIR_WORKER_BATCH_SIZE: 'many' is not a whole number" in result.stderr


def test_usage_errors_exit_2_with_help() -> None:
    result = run_cli("no-such-command")
    assert result.returncode == 2
    assert "No such command" in result.stderr


def test_version() -> None:
    result = run_cli("--version")
    assert result.returncode == 0 and result.stdout.startswith("memoir ")


def test_search_shows_score_kind_when_text_and_provenance(ready: Path) -> None:
    run_cli("ingest", str(EXAMPLE), home=ready)
    table = run_cli("search", "peanut allergy", "--conversation", "lighthouse", "--k", "2", home=ready, COLUMNS="200")
    assert table.returncode == 0, table.stderr
    assert "score" in table.stdout and "turn/user" in table.stdout and "allergic to peanuts" in table.stdout
    hits = [
        json.loads(line)
        for line in run_cli(
            "search", "peanut allergy", "--conversation", "lighthouse", "--json", home=ready
        ).stdout.splitlines()
    ]
    assert len(hits) == 5 and hits[0]["event_ids"] and {h["kind"] for h in hits} <= {"turn", "fact"}
    bad = run_cli("search", "x", "--conversation", "lighthouse", "--kinds", "rumour", home=ready)
    assert bad.returncode == 2 and "kinds: unknown kind 'rumour'" in bad.stderr


def test_reindex_rebuilds_the_search_index(ready: Path) -> None:
    run_cli("ingest", str(EXAMPLE), home=ready)
    result = run_cli("reindex", home=ready)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "reindexed: 21 items searchable"
    facts = len(run_cli("memories", "--json", home=ready).stdout.splitlines())
    assert facts >= 5
    assert json.loads(run_cli("status", "--json", home=ready).stdout)["indexed_items"] == 21 + facts  # turns + facts
