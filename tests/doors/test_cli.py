"""The `memoir` command as a user runs it: real files, stdout apart from stderr, exit codes.

Most tests invoke the app in this process (typer's CliRunner), which maps errors to exit
codes exactly as the entry point does; the `entry point` tests start a real process for
what only a process shows (`python -m memoir`, real standard input, `sys.exit` codes).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memoir import Memoir
from tests.conftest import REPO, cli, run_cli
from tests.scripted_server import replies, scripted_server

EXAMPLE = REPO / "examples" / "conversation.jsonl"
HASHING_ENV = {"MEMOIR_EMBEDDING_PROVIDER": "hashing"}


@pytest.fixture
def ready(home: Path) -> Path:
    assert cli("init", home=home).exit_code == 0
    return home


@pytest.fixture(scope="module")
def example_home(tmp_path_factory: pytest.TempPathFactory, shared_models: Path) -> Path:
    """A home with the example conversation ingested, built once: each test gets a copy."""
    home = tmp_path_factory.mktemp("example") / "home"
    with pytest.MonkeyPatch.context() as env:  # the per-test isolated_env has not run yet
        for name in [name for name in os.environ if name.startswith("MEMOIR_")]:
            env.delenv(name)
        env.setenv("XDG_CONFIG_HOME", str(home.parent / "xdg-config"))
        env.setenv("MEMOIR_EMBEDDING_MODEL_DIR", str(shared_models))  # not a build of the model of its own
        assert cli("init", home=home).exit_code == 0
        assert cli("ingest", str(EXAMPLE), home=home).exit_code == 0
    return home


@pytest.fixture
def ingested(example_home: Path, home: Path) -> Path:
    shutil.copytree(example_home, home)
    url = os.environ.get("MEMOIR_STORE_URL")
    if url:  # --backend=postgres: the copy's database goes into this test's
        assert cli("migrate", "--to", url, home=home, MEMOIR_STORE_URL="").exit_code == 0
    return home


def lines(*events: dict[str, object]) -> str:
    return "".join(json.dumps(e) + "\n" for e in events)


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def status(home: Path) -> dict[str, Any]:
    result = cli("status", "--json", home=home)
    assert result.exit_code == 0, result.stderr
    return dict(json.loads(result.stdout))


# the entry point, in a real process


def test_entry_point_prints_the_version() -> None:
    result = run_cli("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("memoir ") and result.stderr == ""


def test_entry_point_exits_2_on_bad_configuration(home: Path) -> None:
    result = run_cli("status", home=home, MEMOIR_WORKER_BATCH_SIZE="many")
    assert result.returncode == 2
    assert result.stderr == "error: MEMOIR_WORKER_BATCH_SIZE: 'many' is not a whole number\n"


def test_entry_point_exits_1_without_a_home(tmp_path: Path) -> None:
    result = run_cli("status", home=tmp_path / "nowhere")
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: no memoir home at {tmp_path / 'nowhere'}")
    assert "memoir init" in result.stderr and "Traceback" not in result.stderr


def test_entry_point_ingests_real_standard_input(ready: Path) -> None:
    piped = lines({"session_id": "s", "event_type": "user_message", "text": "piped"}) + "{oops\n"
    result = run_cli("ingest", "-", home=ready, stdin=piped, **HASHING_ENV)
    assert result.returncode == 2
    assert result.stdout == "ingested 1, rejected 1\n"
    assert result.stderr.startswith("line 2: event: malformed JSON")


# in process


@pytest.mark.sqlite_only
def test_init_creates_the_home_and_is_harmless_twice(home: Path) -> None:
    first = cli("init", home=home)
    assert first.exit_code == 0, first.stderr
    assert first.stdout == f"memoir home ready at {home} (database {home / 'memoir.db'})\n"
    assert (home / "memoir.db").is_file()
    assert cli("init", home=home).stdout == first.stdout


@pytest.mark.sqlite_only
def test_ingest_the_example_then_status_counts_it(ready: Path) -> None:
    result = cli("ingest", str(EXAMPLE), home=ready)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "ingested 27, rejected 0\n"
    counts = status(ready)
    assert (counts["events"], counts["sessions"], counts["conversations"]) == (27, 2, 1)
    assert counts["outbox_backlog"] == 0  # ingest waits for the background jobs by default
    assert counts["database"] == str(ready / "memoir.db") and counts["size_bytes"] > 0


def test_ingesting_the_same_file_twice_adds_nothing(ingested: Path) -> None:
    again = cli("ingest", str(EXAMPLE), home=ingested)
    assert again.exit_code == 0 and again.stdout == "ingested 27, rejected 0\n"  # acknowledged, not stored twice
    assert status(ingested)["events"] == 27


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
    result = cli("ingest", str(path), home=ready)
    assert result.exit_code == 2
    assert result.stdout == "ingested 2, rejected 7\n"
    reported = result.stderr.splitlines()
    assert [line.split(":")[0] for line in reported] == [f"line {n}" for n in (2, 4, 5, 6, 7, 8, 9)]
    assert reported[0].startswith("line 2: event: malformed JSON")
    assert reported[1] == "line 4: session_id: must not be empty"
    assert reported[2].startswith("line 5: event_type: unknown type 'shout'")
    assert reported[3].startswith("line 6: role: unknown role 'robot'")
    assert reported[4].startswith("line 7: timestamp:") and "in the future" in reported[4]
    assert reported[5].startswith("line 8: event_id: 'BAD-ID' is not a 26-character ULID")
    assert reported[6].startswith("line 9: event: each line must be one JSON object")
    assert status(ready)["events"] == 2


def test_ingest_reads_standard_input(ready: Path) -> None:
    result = cli("ingest", "-", home=ready, stdin=lines({"session_id": "s", "event_type": "user_message", "text": "x"}))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "ingested 1, rejected 0\n"


def test_a_missing_input_file_is_a_clear_error(ready: Path) -> None:
    result = cli("ingest", "no-such-file.jsonl", home=ready)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: no-such-file.jsonl: no such file")


def test_events_as_json_lines_can_be_ingested_elsewhere_unchanged(ingested: Path, tmp_path: Path) -> None:
    exported = cli("events", "--json", "--limit", "1000", home=ingested)
    assert exported.exit_code == 0, exported.stderr
    assert len(exported.stdout.splitlines()) == 27
    other = tmp_path / "other"
    cli("init", home=other)
    assert cli("ingest", "-", home=other, stdin=exported.stdout).exit_code == 0
    assert cli("events", "--json", "--limit", "1000", home=other).stdout == exported.stdout


def test_events_filters_and_pages(ingested: Path) -> None:
    page = cli("events", "--session", "lighthouse-2026-03-09", "--limit", "5", "--json", home=ingested)
    events = json_lines(page.stdout)
    assert len(events) == 5 and {e["session_id"] for e in events} == {"lighthouse-2026-03-09"}
    assert page.stderr.startswith("more: add --cursor evt:")
    cursor = page.stderr.split("--cursor ")[1].strip()
    rest = cli("events", "--session", "lighthouse-2026-03-09", "--cursor", cursor, "--json", home=ingested)
    assert len(json_lines(rest.stdout)) == 13 - 5 and rest.stderr == ""
    assert {e["event_id"] for e in events}.isdisjoint(e["event_id"] for e in json_lines(rest.stdout))


def test_events_table_shows_time_type_text_and_ids(ingested: Path) -> None:
    table = cli("events", "--since", "2026-03-09T00:00:00Z", "--limit", "3", home=ingested, COLUMNS="200")
    assert table.exit_code == 0, table.stderr
    header, *rows = table.stdout.splitlines()
    assert header.split() == ["time", "(UTC)", "type", "session", "conversation", "text", "id"]
    assert [row.split()[2] for row in rows] == ["session_start", "user_message", "assistant_message"]
    assert rows[0].startswith("2026-03-09 14:30:00") and "Back again" in rows[1]
    assert all(len(row.split()[-1]) == 26 for row in rows)  # each row ends with its event id


def test_show_prints_one_event_or_a_clear_error(ingested: Path) -> None:
    [first] = json_lines(cli("events", "--json", "--limit", "1", home=ingested).stdout)
    shown = cli("show", str(first["event_id"]), home=ingested)
    assert shown.exit_code == 0 and json.loads(shown.stdout) == first
    missing = cli("show", "01HN4QXKN6YWXVKZ3JMHP4BCDE", home=ingested)
    assert missing.exit_code == 2 and missing.stdout == ""
    assert missing.stderr == "error: no event with id '01HN4QXKN6YWXVKZ3JMHP4BCDE'\n"


def test_config_show_says_where_each_value_came_from(home: Path, tmp_path: Path) -> None:
    config = tmp_path / "memoir.toml"
    config.write_text("[worker]\nbatch_size = 64\n")
    result = cli("--config", str(config), "config", "show", "--json", home=home, MEMOIR_LOG_LEVEL="warning")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["worker.batch_size"] == {"value": 64, "source": f"file {config}"}
    assert shown["log_level"] == {"value": "warning", "source": "env MEMOIR_LOG_LEVEL"}
    assert shown["home"] == {"value": str(home), "source": "env MEMOIR_HOME"}
    assert shown["multi_agent_mode"]["source"] == "default"
    table = cli("config", "show", home=home, COLUMNS="200")
    assert table.exit_code == 0 and "MEMOIR_WORKER_BATCH_SIZE" in table.stdout


def test_into_a_pipe_tables_keep_every_value_whole(home: Path) -> None:
    """No terminal and no COLUMNS (a script, `| grep`, `> file`): rows are as wide as their values."""
    url = "http://127.0.0.1:11434/v1/" + "a-rather-long-path-segment/" * 6
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    env.update(MEMOIR_HOME=str(home), MEMOIR_LLM_BASE_URL=url)
    done = subprocess.run(
        [sys.executable, "-m", "memoir", "config", "show"], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    [row] = [line for line in done.stdout.splitlines() if line.startswith("llm.base_url")]
    assert url in row and "…" not in row and "MEMOIR_LLM_BASE_URL" in row


def test_an_empty_timeline_says_why_and_what_builds_it(ready: Path, home: Path) -> None:
    assert cli("timeline", home=home).stderr.startswith("no timeline yet: ingest a conversation")
    assert cli("ingest", "--no-wait", str(EXAMPLE), home=ready).exit_code == 0
    waiting = cli("timeline", home=ready)
    assert waiting.exit_code == 0
    assert "being built, 23 events waiting for the segment job" in waiting.stderr
    assert "memoir worker --once" in waiting.stderr


def test_worker_once_drains_what_ingest_left(ready: Path) -> None:
    assert cli("ingest", "--no-wait", str(EXAMPLE), home=ready).exit_code == 0
    # boundary events carry no text to index; facts come from the 10 user messages
    pending = {"track_session": 27, "index_event": 21, "segment": 23, "extract_facts": 10}
    assert status(ready)["outbox_pending"] == pending
    result = cli("worker", "--once", home=ready)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "outbox drained: 81 entries processed\n"
    assert status(ready)["outbox_backlog"] == 0


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_a_worker_stops_on_sigint_or_sigterm_even_started_with_sigint_ignored(ready: Path, how: signal.Signals) -> None:
    """As a script's background job (`memoir worker &`) starts, and as a process manager stops it."""
    assert cli("ingest", "--no-wait", str(EXAMPLE), home=ready).exit_code == 0
    process = subprocess.Popen(
        [sys.executable, "-m", "memoir", "worker"],
        env={**os.environ, **HASHING_ENV, "MEMOIR_HOME": str(ready)},
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),  # ignored, as `&` in a script does
    )
    try:
        assert process.stderr is not None
        assert process.stderr.readline().startswith("worker running on")
        process.send_signal(how)
        _, rest = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, rest  # a clean stop, as `memoir serve`'s, after the batch in hand
    assert "worker stopped:" in rest and "Traceback" not in rest


@pytest.mark.parametrize("command", [["status"], ["events"], ["ingest", str(EXAMPLE)], ["worker", "--once"]])
def test_a_missing_home_is_a_clear_error_not_a_traceback(tmp_path: Path, command: list[str]) -> None:
    result = cli(*command, home=tmp_path / "nowhere")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(f"error: no memoir home at {tmp_path / 'nowhere'}")
    assert "memoir init" in result.stderr and not (tmp_path / "nowhere").exists()


def test_bad_configuration_is_a_clear_error(home: Path) -> None:
    result = cli("status", home=home, MEMOIR_WORKER_BATCH_SIZE="many")
    assert result.exit_code == 2
    assert result.stderr == "error: MEMOIR_WORKER_BATCH_SIZE: 'many' is not a whole number\n"


def test_usage_errors_exit_2_with_help() -> None:
    result = cli("no-such-command")
    assert result.exit_code == 2 and result.stdout == ""
    assert "No such command 'no-such-command'" in result.stderr and "memoir --help" in result.stderr


def test_version() -> None:
    result = cli("--version")
    assert result.exit_code == 0 and result.stdout.startswith("memoir ") and result.stdout.count("\n") == 1


def test_an_unexpected_error_is_one_line_and_exit_1(ready: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Memoir) -> None:
        raise RuntimeError("disk gremlins")

    monkeypatch.setattr(Memoir, "status", broken)
    result = cli("status", home=ready, MEMOIR_DEBUG="")
    assert result.exit_code == 1
    assert result.stderr == ("internal error: RuntimeError('disk gremlins') (set MEMOIR_DEBUG=1 for a traceback)\n")
    with pytest.raises(RuntimeError, match="disk gremlins"):
        cli("status", home=ready, MEMOIR_DEBUG="1")


def test_an_interrupt_exits_130(ready: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(self: Memoir) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Memoir, "status", interrupted)
    result = cli("status", home=ready)
    assert (result.exit_code, result.stderr) == (130, "interrupted\n")


def test_search_shows_score_kind_when_text_and_provenance(ingested: Path) -> None:
    args = ("search", "peanut allergy", "--conversation", "lighthouse")
    table = cli(*args, "--k", "2", home=ingested, COLUMNS="200")
    assert table.exit_code == 0, table.stderr
    header, *rows = table.stdout.splitlines()
    assert header.split() == ["score", "kind", "when", "(UTC)", "text", "from"]
    assert len(rows) == 2 and "allergic to peanuts" in table.stdout
    hits = json_lines(cli(*args, "--json", home=ingested).stdout)
    assert (
        len(hits) == 5
        and all(h["event_ids"] for h in hits)
        and {h["kind"] for h in hits} <= {"turn", "fact", "summary"}
    )
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    bad = cli("search", "x", "--conversation", "lighthouse", "--kinds", "rumour", home=ingested)
    assert bad.exit_code == 2 and bad.stderr.startswith("error: kinds: unknown kind 'rumour'")


def test_reindex_rebuilds_the_search_index(ingested: Path) -> None:
    facts = len(cli("memories", "--json", home=ingested).stdout.splitlines())
    assert facts >= 10  # what the rules learn from the example's ten user messages (name, project, stack, …)
    result = cli("reindex", home=ingested)
    assert result.exit_code == 0, result.stderr
    summaries = status(ingested)["timeline"]["segments summarized"]  # a segment per session of the example
    assert result.stdout == f"reindexed: {21 + facts + summaries} items searchable\n"  # turns, facts, summaries
    assert status(ingested)["indexed_items"] == 21 + facts + summaries


def test_ingest_returns_once_searchable_and_leaves_the_models_work_to_its_lane(home: Path, tmp_path: Path) -> None:
    lines = tmp_path / "turns.jsonl"
    lines.write_text(
        json.dumps({"session_id": "s", "event_type": "user_message", "text": "I keep bees on the roof."}) + "\n"
    )
    model = replies('{"facts": ["The user keeps bees on the roof"]}')
    with scripted_server({"/v1/chat/completions": model}) as server:
        env = {"MEMOIR_LLM_MODEL": "qwen", "MEMOIR_LLM_BASE_URL": server.url + "/v1", **HASHING_ENV}
        assert cli("init", home=home, **env).exit_code == 0
        result = cli("ingest", str(lines), home=home, **env)
        assert result.exit_code == 0 and "1 event waiting for the model" in result.stderr, result.stderr
        assert server.requests == []  # nothing waited for the model
        assert "bees" in cli("search", "bees roof", home=home, **env).stdout  # but the turn is searchable
        waited = cli("ingest", str(lines), "--wait", home=home, **env)  # the same event again: drains the lane
        assert waited.exit_code == 0 and server.requests
    with Memoir.open(home, worker_enabled=False, embedding_provider="hashing") as memoir:
        assert [m.content for m in memoir.memories()] == ["The user keeps bees on the roof"]
        assert memoir.pending() == 0


def test_conversations_lists_each_with_its_counts_and_one_its_days(ingested: Path) -> None:
    [conversation] = json_lines(cli("conversations", "--json", home=ingested).stdout)
    events = len(EXAMPLE.read_text().splitlines())
    assert conversation["events"] == events and conversation["sessions"] >= 1
    table = cli("conversations", home=ingested).stdout
    assert conversation["conversation_id"] in table and f"{events:,}" in table
    days = json_lines(cli("conversations", conversation["conversation_id"], "--json", home=ingested).stdout)
    assert sum(day["events"] for day in days) == events
    missing = cli("conversations", "nowhere", home=ingested)
    assert missing.exit_code == 0 and "no events in conversation 'nowhere'" in missing.stderr


def test_ledger_says_when_the_model_cost_nothing_and_refuses_a_bad_span(ready: Path) -> None:
    quiet = cli("ledger", home=ready)
    assert quiet.exit_code == 0 and "no model calls in the last 30 days" in quiet.stderr
    bad = cli("ledger", "--days", "0", home=ready)
    assert bad.exit_code == 2 and "days" in bad.stderr


def test_correct_replaces_a_memory_and_keeps_the_old_version_as_history(ready: Path) -> None:
    remembered = cli("remember", "The standup is at 9:30", "--conversation", "team", home=ready)
    old_id = remembered.stdout.split()[2]
    corrected = cli("correct", old_id, "The standup is at 10:00", home=ready)
    assert corrected.exit_code == 0, corrected.stderr
    new_id = corrected.stdout.split("now ")[1].split()[0]
    history = json_lines(cli("memories", "--history", new_id, "--json", home=ready).stdout)
    assert [m["content"] for m in history] == ["The standup is at 9:30", "The standup is at 10:00"]
    with Memoir.open(ready, worker_enabled=False) as memoir:
        [live] = memoir.memories()
        assert live.id == new_id and "10:00" in memoir.memory_path(live).read_text()
    again = cli("correct", old_id, "x", home=ready)
    assert again.exit_code == 2 and f"{old_id} was replaced by {new_id}" in again.stderr


def test_a_big_vault_is_listed_a_page_at_a_time_unless_every_memory_is_asked_for(
    ready: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memoir.cli import memories as memories_command

    monkeypatch.setattr(memories_command, "TABLE_PAGE", 2)  # the page a table shows by default (200)
    for n in range(4):
        assert cli("remember", f"Locker {n} is free", "--conversation", "gym", home=ready).exit_code == 0

    table = cli("memories", home=ready)
    assert [n for n in range(4) if f"Locker {n} is free" in table.stdout] == [2, 3]
    assert "the 2 latest shown; --newest N for more, --all for every one" in table.stderr
    assert len(cli("memories", "--all", home=ready).stdout.splitlines()) == 1 + 4
    newest = cli("memories", "--newest", "3", home=ready)
    assert len(newest.stdout.splitlines()) == 1 + 3 and newest.stderr == ""
    assert [m["content"] for m in json_lines(cli("memories", "--json", home=ready).stdout)] == [
        f"Locker {n} is free" for n in range(4)
    ]
    assert [m["content"] for m in json_lines(cli("memories", "--json", "--newest", "1", home=ready).stdout)] == [
        "Locker 3 is free"
    ]
    refused = cli("memories", "--newest", "0", home=ready)
    assert refused.exit_code == 2 and "--newest" in refused.stderr
    both = cli("memories", "--all", "--newest", "2", home=ready)
    assert both.exit_code == 2 and "give one" in both.stderr
    beyond = cli("memories", "--json", "--newest", "10001", home=ready)  # past a page: said, not cut short
    assert beyond.exit_code == 2 and "newest" in beyond.stderr and beyond.stdout == ""


def test_status_counts_one_item_as_one_item(ready: Path) -> None:
    assert cli("remember", "The standup is at 9:30", "--conversation", "team", home=ready).exit_code == 0
    table = cli("status", home=ready).stdout
    assert re.search(r"search index\s+1 item\n", table), table
