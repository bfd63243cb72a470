"""Configuration: the precedence order, where each value came from, and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from memoir import ConfigError, MultiAgentMode, load_settings
from memoir.config import OPTIONS, SECTIONS, Settings, default_config_file


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_built_in_defaults_follow_seed_002(tmp_path: Path) -> None:
    settings = load_settings(env={"HOME": str(tmp_path)})
    assert settings.multi_agent_mode is MultiAgentMode.SEPARATE
    assert settings.agent_id is None
    assert settings.log_level == "info"
    assert settings.home == Path("~/.memoir").expanduser()
    assert settings.database == settings.home / "memoir.db"
    assert all(settings.source(o.key) == "default" for o in OPTIONS)


def test_each_layer_overrides_the_one_below(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    write(
        default_config_file(env),
        'log_level = "debug"\n[worker]\nbatch_size = 10\npoll_interval = 2.0\nmax_attempts = 7\n',
    )
    explicit = write(tmp_path / "given.toml", "[worker]\nbatch_size = 20\npoll_interval = 3.0\n")
    env |= {"MEMOIR_WORKER_BATCH_SIZE": "30"}
    settings = load_settings({"worker_max_attempts": 9}, config_file=explicit, env=env)
    assert settings.log_level == "debug"  # user file
    assert settings.worker.poll_interval == 3.0  # --config file beats the user file
    assert settings.worker.batch_size == 30  # environment beats files
    assert settings.worker.max_attempts == 9  # arguments beat everything
    assert settings.source("log_level") == f"file {default_config_file(env)}"
    assert settings.source("worker.poll_interval") == f"file {explicit}"
    assert settings.source("worker.batch_size") == "env MEMOIR_WORKER_BATCH_SIZE"
    assert settings.source("worker.max_attempts") == "argument"


def test_memoir_home_relocates_the_database(tmp_path: Path) -> None:
    settings = load_settings(env={"MEMOIR_HOME": str(tmp_path / "h")})
    assert settings.database == tmp_path / "h" / "memoir.db"
    assert settings.source("home") == "env MEMOIR_HOME"


def test_memoir_config_names_a_config_file(tmp_path: Path) -> None:
    path = write(tmp_path / "c.toml", 'multi_agent_mode = "unified"\nagent_id = "a1"\n')
    settings = load_settings(env={"MEMOIR_CONFIG": str(path)})
    assert settings.multi_agent_mode is MultiAgentMode.UNIFIED
    assert settings.agent_id == "a1"


def test_every_option_has_a_memoir_variable() -> None:
    assert {o.key: o.env for o in OPTIONS}["worker.batch_size"] == "MEMOIR_WORKER_BATCH_SIZE"
    assert all(o.env.startswith("MEMOIR_") and o.env.isupper() for o in OPTIONS)


@pytest.mark.parametrize(
    ("env", "needle"),
    [
        ({"MEMOIR_WORKER_BATCH_SIZE": "lots"}, "MEMOIR_WORKER_BATCH_SIZE: 'lots' is not a whole number"),
        ({"MEMOIR_WORKER_BATCH_SIZE": "0"}, "MEMOIR_WORKER_BATCH_SIZE: 0 is below the minimum 1"),
        ({"MEMOIR_MULTI_AGENT_MODE": "shared"}, "MEMOIR_MULTI_AGENT_MODE: 'shared' is not one of separate, unified"),
        ({"MEMOIR_WORKER_ENABLED": "perhaps"}, "MEMOIR_WORKER_ENABLED: 'perhaps' is not true/false"),
    ],
)
def test_bad_values_name_their_variable(env: dict[str, str], needle: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(env=env)
    assert needle in str(caught.value)


def test_an_unknown_key_in_a_file_is_named_with_the_file(tmp_path: Path) -> None:
    path = write(tmp_path / "c.toml", "[worker]\nbatchsize = 3\n")
    with pytest.raises(ConfigError, match=r"c\.toml: unknown setting 'worker\.batchsize'"):
        load_settings(config_file=path, env={})


def test_a_file_that_is_not_toml_is_a_clear_error(tmp_path: Path) -> None:
    path = write(tmp_path / "c.toml", "this is = = not toml")
    with pytest.raises(ConfigError, match="is not valid TOML"):
        load_settings(config_file=path, env={})


def test_a_missing_explicit_config_file_is_an_error_but_a_missing_user_file_is_not(tmp_path: Path) -> None:
    load_settings(env={"XDG_CONFIG_HOME": str(tmp_path / "none")})
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(config_file=tmp_path / "absent.toml", env={})


def test_unknown_arguments_are_refused() -> None:
    with pytest.raises(ConfigError, match="unknown setting 'wroker_enabled'"):
        load_settings({"wroker_enabled": False}, env={})


def test_replace_keeps_sources_and_marks_new_arguments(tmp_path: Path) -> None:
    settings = load_settings(env={"MEMOIR_LOG_LEVEL": "warning"})
    changed = settings.replace(worker_enabled=False)
    assert changed.worker.enabled is False and changed.source("worker.enabled") == "argument"
    assert changed.log_level == "warning" and changed.source("log_level") == "env MEMOIR_LOG_LEVEL"


def test_sections_are_the_one_source_of_options_and_defaults() -> None:
    defaults = Settings()
    keys = {o.key for o in OPTIONS}
    for name, section in SECTIONS.items():
        assert getattr(defaults, name) == section()
        assert {key for key in keys if key.startswith(name + ".")} == {
            f"{name}.{field}" for field in section.__dataclass_fields__
        }
    assert all(defaults.value(o.key) == o.default for o in OPTIONS)
    assert load_settings(env={}).search == defaults.search  # no other layer adds its own defaults


def test_parts_take_their_defaults_from_the_sections(tmp_path: Path) -> None:
    from memoir.retrieval import SearchPipeline
    from memoir.workers import OutboxRunner

    runner = OutboxRunner.__init__.__kwdefaults__
    assert runner is not None and runner["batch_size"] == Settings().worker.batch_size
    assert SearchPipeline.__dataclass_fields__["parameters"].default_factory() == Settings().search  # type: ignore[misc]


def test_an_unknown_provider_lists_the_known_ones(tmp_path: Path) -> None:
    from memoir import Memoir

    with pytest.raises(ConfigError, match=r"provider 'nope'; known: hashing, local, local-exact, openai"):
        Memoir.open(tmp_path / "h", embedding_provider="nope", worker_enabled=False)


@pytest.mark.parametrize("value", ["a\nb", "x" * 257, "tab\there"])
def test_an_agent_id_setting_must_be_one_printable_line(value: str) -> None:
    with pytest.raises(ConfigError, match="agent_id"):
        load_settings({"agent_id": value})


@pytest.mark.parametrize("home", [5, 2.5, b"/tmp/home", "", "a\x00b", True, ["/tmp"]])
def test_a_home_that_is_not_a_path_is_refused_and_nothing_is_created(home: object, tmp_path: Path) -> None:
    from memoir import Memoir

    before = set(Path.cwd().iterdir())
    with pytest.raises(ConfigError, match="home"):
        Memoir.open(home)  # type: ignore[arg-type]
    assert set(Path.cwd().iterdir()) == before  # no folder named "5" (or anything) appeared
