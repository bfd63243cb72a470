"""Configuration: typed settings with one precedence order, and where each value came from.

Precedence, highest first (ARCHITECTURE.md):
  1. call arguments / CLI flags
  2. `MEMOIR_*` environment variables (`worker.batch_size` -> `MEMOIR_WORKER_BATCH_SIZE`)
  3. a config file given with `--config` (or `MEMOIR_CONFIG`)
  4. the user's file, `$XDG_CONFIG_HOME/memoir/config.toml` (`~/.config/memoir/config.toml`)
  5. built-in defaults (seed 002's configuration model where it has one)

`MEMOIR_HOME` relocates all state. Files are TOML; dotted keys are tables:

    home = "~/.memoir"
    multi_agent_mode = "unified"
    [worker]
    batch_size = 500

The sections and their fields, each a setting's default, parser and help, are in `sections.py`;
this module holds `Settings`, the options derived from it, and how they are loaded.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from memoir.config.parsers import (
    parse_agent_id,
    parse_choice,
    parse_number,
    parse_optional_text,
    parse_path,
)
from memoir.config.sections import (
    SECTIONS,
    ChatSettings,
    EmbeddingSettings,
    HooksSettings,
    IndexSettings,
    LLMSettings,
    MemorySettings,
    MultiAgentMode,
    PrivacySettings,
    ProxySettings,
    SearchSettings,
    ServerSettings,
    StoreSettings,
    VaultSettings,
    WorkerSettings,
    option,
)
from memoir.errors import ConfigError

__all__ = [
    "OPTIONS",
    "SECTIONS",
    "ChatSettings",
    "EmbeddingSettings",
    "HooksSettings",
    "IndexSettings",
    "LLMSettings",
    "MemorySettings",
    "MultiAgentMode",
    "Option",
    "PrivacySettings",
    "SearchSettings",
    "Settings",
    "StoreSettings",
    "VaultSettings",
    "WorkerSettings",
    "default_config_file",
    "load_settings",
    "option",
]


def _parse_mode(value: Any) -> MultiAgentMode:
    return MultiAgentMode(parse_choice("separate", "unified")(value))


@dataclass(frozen=True)
class Settings:
    """Every setting, grouped in sections as in the TOML file (`settings.search.top_k`)."""

    home: Path = option(Path("~/.memoir").expanduser(), parse_path, "folder holding all of memoir's state")
    db_path: Path | None = option(None, parse_path, "SQLite database file (default: <home>/memoir.db)")
    multi_agent_mode: MultiAgentMode = option(
        MultiAgentMode.SEPARATE,
        _parse_mode,
        "separate: one store per project; unified: one store, events tagged with agent_id",
    )
    agent_id: str | None = option(None, parse_agent_id, "agent id given to events that carry none (unified mode)")
    log_level: str = option("info", parse_choice("debug", "info", "warning", "error"), "log verbosity")
    api_key: str | None = option(
        None, parse_optional_text, "key clients of `memoir serve` send (Authorization: Bearer); needed off loopback"
    )
    max_clock_skew: float = option(300.0, parse_number(float, 0), "seconds an event's timestamp may lie in the future")
    store: StoreSettings = field(default_factory=StoreSettings)
    worker: WorkerSettings = field(default_factory=WorkerSettings)
    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    search: SearchSettings = field(default_factory=SearchSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    proxy: ProxySettings = field(default_factory=ProxySettings)
    server: ServerSettings = field(default_factory=ServerSettings)
    hooks: HooksSettings = field(default_factory=HooksSettings)
    privacy: PrivacySettings = field(default_factory=PrivacySettings)
    memory: MemorySettings = field(default_factory=MemorySettings)
    vault: VaultSettings = field(default_factory=VaultSettings)
    index: IndexSettings = field(default_factory=IndexSettings)
    chat: ChatSettings = field(default_factory=ChatSettings)
    sources: Mapping[str, str] = field(default_factory=dict, compare=False)

    @property
    def database(self) -> Path:
        return self.db_path if self.db_path is not None else self.home / "memoir.db"

    @property
    def vault_folder(self) -> Path:
        return self.vault.path if self.vault.path is not None else self.home / "vault"

    def value(self, key: str) -> Any:
        section, _, name = key.rpartition(".")
        holder = getattr(self, section) if section else self
        return getattr(holder, name)

    def source(self, key: str) -> str:
        return self.sources.get(key, "default")

    def replace(self, **changes: Any) -> Settings:
        """A copy with some values given as call arguments (parsed and checked like any other)."""
        return load_settings(overrides=changes, base=self)


@dataclass(frozen=True)
class Option:
    """One setting as files, variables and `memoir config show` see it, derived from the sections."""

    key: str  # dotted, as in the TOML file
    parse: Callable[[Any], Any]
    default: Any
    help: str

    @property
    def attr(self) -> str:
        return self.key.replace(".", "_")

    @property
    def env(self) -> str:
        return "MEMOIR_" + self.attr.upper()


def _options_of(holder: type, prefix: str = "") -> list[Option]:
    found = []
    for spec in fields(holder):
        if "parse" in spec.metadata:
            found.append(Option(prefix + spec.name, spec.metadata["parse"], spec.default, spec.metadata["help"]))
        elif spec.name in SECTIONS:
            found.extend(_options_of(SECTIONS[spec.name], f"{spec.name}."))
    return found


OPTIONS: tuple[Option, ...] = tuple(_options_of(Settings))
_BY_KEY = {o.key: o for o in OPTIONS}
_BY_ATTR = {o.attr: o for o in OPTIONS}


def _build(values: Mapping[str, Any], sources: Mapping[str, str]) -> Settings:
    """Settings from dotted keys: top-level values, then one dataclass per section."""
    top = {key: value for key, value in values.items() if "." not in key}
    sections: dict[str, dict[str, Any]] = {name: {} for name in SECTIONS}
    for key, value in values.items():
        if "." in key:
            section, name = key.split(".", 1)
            sections[section][name] = value
    built = {name: SECTIONS[name](**given) for name, given in sections.items()}
    return Settings(**top, **built, sources=dict(sources))


def default_config_file(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    root = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".config")
    return Path(root) / "memoir" / "config.toml"


def _read_file(path: Path, *, required: bool) -> dict[str, Any]:
    if not path.exists():
        if required:
            raise ConfigError(f"config file {path} does not exist")
        return {}
    import tomllib  # here: most homes have no file, and `memoir hook` starts for every tool call

    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from None
    return _flatten(data, path)


def _flatten(data: Mapping[str, Any], path: Path, prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for name, value in data.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict):
            flat.update(_flatten(value, path, key + "."))
        elif key in _BY_KEY:
            flat[key] = value
        else:
            known = ", ".join(sorted(_BY_KEY))
            raise ConfigError(f"{path}: unknown setting {key!r}; known settings are {known}")
    return flat


def _parse(option: Option, raw: Any, where: str) -> Any:
    if raw is None:
        return None
    try:
        return option.parse(raw)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def load_settings(
    overrides: Mapping[str, Any] | None = None,
    *,
    config_file: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    base: Settings | None = None,
) -> Settings:
    """Settings from every source, with `sources` saying where each value came from.

    `overrides` are call arguments, keyed by attribute name (`worker_batch_size`) or
    dotted key (`worker.batch_size`); `None` values mean "not given".
    """
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    if base is not None:
        values = {o.key: base.value(o.key) for o in OPTIONS}
        sources = dict(base.sources)
    else:
        _collect_defaults_files_env(values, sources, config_file, env)
    for name, raw in (overrides or {}).items():
        setting = _BY_ATTR.get(name) or _BY_KEY.get(name)
        if setting is None:
            raise ConfigError(f"unknown setting {name!r}; known settings are {', '.join(sorted(_BY_ATTR))}")
        if raw is not None:
            values[setting.key] = _parse(setting, raw, f"argument {setting.attr}")
            sources[setting.key] = "argument"
    return _build(values, sources)


def _collect_defaults_files_env(
    values: dict[str, Any], sources: dict[str, str], config_file: Path | str | None, env: Mapping[str, str]
) -> None:
    for setting in OPTIONS:
        values[setting.key] = setting.default
        sources[setting.key] = "default"
    user_file = default_config_file(env)
    explicit = config_file if config_file is not None else env.get("MEMOIR_CONFIG") or None
    layers = [(user_file, False)]
    if explicit is not None:
        layers.append((Path(os.path.expanduser(str(explicit))), True))
    for path, required in layers:
        for key, raw in _read_file(path, required=required).items():
            values[key] = _parse(_BY_KEY[key], raw, f"{path}: {key}")
            sources[key] = f"file {path}"
    for setting in OPTIONS:
        if setting.env in env and env[setting.env] != "":
            values[setting.key] = _parse(setting, env[setting.env], setting.env)
            sources[setting.key] = f"env {setting.env}"
