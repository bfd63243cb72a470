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
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from pathlib import Path
from typing import Any

from memoir.config.parsers import (
    parse_agent_id,
    parse_bool,
    parse_budgets,
    parse_choice,
    parse_number,
    parse_optional_path,
    parse_optional_text,
    parse_origins,
    parse_path,
    parse_patterns,
    parse_sources,
    parse_store_url,
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


class MultiAgentMode(StrEnum):
    SEPARATE = "separate"  # one store per project; agent_id is informational
    UNIFIED = "unified"  # one store shared by agents; every event is tagged with agent_id


def option(default: Any, parse: Callable[[Any], Any], help: str) -> Any:
    """A setting: a dataclass field whose metadata says how to parse it and what it means."""
    return field(default=default, metadata={"parse": parse, "help": help})


@dataclass(frozen=True)
class StoreSettings:
    synchronous: str = option("full", parse_choice("full", "normal"), "full: fsync every commit (durable)")
    busy_timeout: float = option(30.0, parse_number(float, 0), "seconds a writer waits for the database lock")
    url: str | None = option(
        None, parse_store_url, "postgresql://USER@HOST:PORT/DB to share one PostgreSQL (default: the SQLite file)"
    )
    pool_size: int = option(10, parse_number(int, 1), "PostgreSQL connections each process may hold")


@dataclass(frozen=True)
class WorkerSettings:
    enabled: bool = option(True, parse_bool, "run the outbox runners in background threads of Memoir")
    batch_size: int = option(500, parse_number(int, 1), "outbox entries a runner takes at a time")
    poll_interval: float = option(0.5, parse_number(float, 0.01), "seconds between looks at an empty outbox")
    max_attempts: int = option(5, parse_number(int, 1), "tries before an outbox entry is set aside as failed")
    max_defer: float = option(
        1.0, parse_number(float, 0), "longest the workers hold back while ingest keeps arriving (0: never)"
    )


@dataclass(frozen=True)
class EmbeddingSettings:
    provider: str = option(
        "local",
        parse_optional_text,
        "local: bundled MiniLM (local-exact: without int8 arithmetic); openai: a server; hashing: shared words",
    )
    model: str | None = option(None, parse_optional_text, "model name for an embeddings server")
    base_url: str | None = option(
        None, parse_optional_text, "OpenAI-compatible base URL, e.g. http://localhost:11434/v1"
    )
    api_key: str | None = option(None, parse_optional_text, "API key for the embeddings server")
    threads: int = option(2, parse_number(int, 1), "threads the local embedding model may use")
    model_dir: Path | None = option(None, parse_path, "where the local model's int8 build is kept (<home>/models)")


@dataclass(frozen=True)
class SearchSettings:
    top_k: int = option(5, parse_number(int, 1), "hits returned when k is not given")
    candidates: int = option(50, parse_number(int, 1), "candidates taken from each of vector and keyword search")
    sources: tuple[str, ...] = option(("vector", "keyword"), parse_sources, "candidate lists: vector, keyword")
    fusion: str = option("scores", parse_choice("scores", "rrf"), "fuse normalised scores, or reciprocal ranks")
    keyword_weight: float = option(0.6, parse_number(float, 0, 1), "share of BM25 in score fusion (the rest: cosine)")
    speaker_boost: float = option(0.1, parse_number(float, 0, 1), "added to a named speaker's turns")
    when_boost: float = option(
        0.1, parse_number(float, 0, 1), "added to turns that say when, for a question asking when (issue 28)"
    )
    rrf_k: float = option(60.0, parse_number(float, 1), "reciprocal-rank fusion constant")
    mmr_lambda: float = option(
        0.7, parse_number(float, 0, 1), "MMR: 1.0 ranks by relevance only, lower favours diversity"
    )
    # agent-memory's duplicate threshold: only near-copies are redundant (docs/decisions.md 13)
    mmr_floor: float = option(0.85, parse_number(float, 0, 1), "cosine above which MMR counts items as redundant")
    recency_weight: float = option(0.2, parse_number(float, 0, 1), "weight w of exp(-age_days/30) in the final score")
    score_threshold: float = option(
        0.35, parse_number(float, 0, 1), "minimum reranker relevance (with a reranker only)"
    )
    rerank: str = option("none", parse_optional_text, "cross-encoder rerank backend: none, http or onnx")
    rerank_url: str | None = option(None, parse_optional_text, "a /v1/rerank endpoint (search.rerank = http)")
    rerank_model: str | None = option(None, parse_optional_text, "model name (http) or ONNX file path (onnx)")
    rerank_candidates: int = option(30, parse_number(int, 1), "candidates the reranker scores")
    neighbours: int = option(1, parse_number(int, 0), "turns before and after a hit attached as its context")


@dataclass(frozen=True)
class LLMSettings:
    base_url: str | None = option(
        "http://localhost:11434/v1", parse_optional_text, "OpenAI-compatible base URL (Ollama's)"
    )
    model: str | None = option(None, parse_optional_text, "chat model; none means heuristics only (e.g. qwen2.5:7b)")
    api_key: str | None = option(None, parse_optional_text, "API key for the LLM server")
    timeout: float = option(60.0, parse_number(float, 0.1), "seconds to wait for one LLM answer")
    retries: int = option(3, parse_number(int, 0), "retries after a timeout or a 5xx answer")
    budget: float = option(120.0, parse_number(float, 0.1), "seconds one LLM operation may take, retries included")
    daily_tokens: tuple[tuple[str, int], ...] = option(
        (), parse_budgets, "token budget per job for 24 h, e.g. extract_facts=200000 (none: unlimited)"
    )
    breaker_threshold: int = option(3, parse_number(int, 1), "consecutive failures that open the circuit")
    breaker_reset: float = option(30.0, parse_number(float, 0), "seconds before an open circuit lets a trial through")


@dataclass(frozen=True)
class ProxySettings:
    upstream_url: str | None = option(
        None, parse_optional_text, "where the chat proxy forwards requests (default: llm.base_url)"
    )
    api_key: str | None = option(None, parse_optional_text, "API key sent to the upstream (default: llm.api_key)")
    timeout: float = option(300.0, parse_number(float, 0.1), "seconds to wait for the upstream's answer")


@dataclass(frozen=True)
class ServerSettings:
    max_body_bytes: int = option(
        10_000_000, parse_number(int, 1024), "largest request body `memoir serve` accepts (HTTP and gRPC), in bytes"
    )
    cors_origins: tuple[str, ...] = option(
        (), parse_origins, "origins browsers may call the HTTP API from (comma-separated; none: CORS off)"
    )


@dataclass(frozen=True)
class HooksSettings:
    server_url: str | None = option(
        "http://127.0.0.1:8765",
        parse_optional_text,
        "the `memoir serve` that `memoir hook` hands calls to (none: always write locally)",
    )
    timeout: float = option(2.0, parse_number(float, 0.05), "seconds `memoir hook` waits for that server")
    autostart: bool = option(
        True, parse_bool, "when no server answers on loopback, `memoir hook` starts `memoir serve` in the background"
    )


@dataclass(frozen=True)
class PrivacySettings:
    mask_secrets: bool = option(
        True, parse_bool, "mask keys, tokens and passwords in every text memoir stores, whichever door it came by"
    )
    secret_patterns: tuple[str, ...] = option(
        (), parse_patterns, "extra regular expressions masked out of stored text (group 1 if any, else the match)"
    )


@dataclass(frozen=True)
class MemorySettings:
    extract: bool = option(True, parse_bool, "extract facts from user messages into the vault")
    max_entries: int = option(500, parse_number(int, 1), "live memories per conversation before the oldest go")


@dataclass(frozen=True)
class VaultSettings:
    git: bool = option(False, parse_bool, "commit every vault change to git (seed 004's enable_git_versioning)")
    watch: bool = option(False, parse_bool, "watch the vault and re-index files people edit (start_watcher)")
    path: Path | None = option(None, parse_optional_path, "the vault folder (default: <home>/vault); shared by servers")


@dataclass(frozen=True)
class IndexSettings:
    hnsw_threshold: int = option(50_000, parse_number(int, 1), "items from which an HNSW graph serves big scopes")


@dataclass(frozen=True)
class ChatSettings:
    system_prompt: Path | None = option(
        None, parse_path, "file holding the chat agent's system prompt (none: memoir's own)"
    )
    context_window: int = option(32_768, parse_number(int, 256), "tokens the chat model's context window holds")
    compress_at: float = option(
        0.8, parse_number(float, 0.1, 1), "share of the context window at which the chat agent compresses its history"
    )
    compression: str = option(
        "from_last_n_messages:20",
        parse_optional_text,
        "strategy the chat agent compresses with: whole_history, from_last_n_messages:N, chunked:N,"
        " whole_history_multiple_system_messages",
    )
    max_tool_iterations: int = option(10, parse_number(int, 1), "model calls one chat turn may make for its tools")
    max_answer_tokens: int = option(
        1024, parse_number(int, 16), "tokens one answer of the chat model may take (a small model may ramble on)"
    )


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


SECTIONS: dict[str, type] = {
    "store": StoreSettings,
    "worker": WorkerSettings,
    "embedding": EmbeddingSettings,
    "search": SearchSettings,
    "llm": LLMSettings,
    "proxy": ProxySettings,
    "server": ServerSettings,
    "hooks": HooksSettings,
    "privacy": PrivacySettings,
    "memory": MemorySettings,
    "vault": VaultSettings,
    "index": IndexSettings,
    "chat": ChatSettings,
}
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
        option = _BY_ATTR.get(name) or _BY_KEY.get(name)
        if option is None:
            raise ConfigError(f"unknown setting {name!r}; known settings are {', '.join(sorted(_BY_ATTR))}")
        if raw is not None:
            values[option.key] = _parse(option, raw, f"argument {option.attr}")
            sources[option.key] = "argument"
    return _build(values, sources)


def _collect_defaults_files_env(
    values: dict[str, Any], sources: dict[str, str], config_file: Path | str | None, env: Mapping[str, str]
) -> None:
    for option in OPTIONS:
        values[option.key] = option.default
        sources[option.key] = "default"
    user_file = default_config_file(env)
    explicit = config_file if config_file is not None else env.get("MEMOIR_CONFIG") or None
    layers = [(user_file, False)]
    if explicit is not None:
        layers.append((Path(os.path.expanduser(str(explicit))), True))
    for path, required in layers:
        for key, raw in _read_file(path, required=required).items():
            values[key] = _parse(_BY_KEY[key], raw, f"{path}: {key}")
            sources[key] = f"file {path}"
    for option in OPTIONS:
        if option.env in env and env[option.env] != "":
            values[option.key] = _parse(option, env[option.env], option.env)
            sources[option.key] = f"env {option.env}"
