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
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from memoir.errors import ConfigError

__all__ = ["OPTIONS", "MultiAgentMode", "Option", "Settings", "default_config_file", "load_settings"]


class MultiAgentMode(StrEnum):
    SEPARATE = "separate"  # one store per project; agent_id is informational
    UNIFIED = "unified"  # one store shared by agents; every event is tagged with agent_id


def _parse_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{value!r} is not true/false")


def _parse_number(kind: type[int] | type[float], minimum: float, maximum: float | None = None) -> Callable[[Any], Any]:
    def parse(value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError(f"{value!r} is not a number")
        try:
            number = kind(value)
        except (TypeError, ValueError):
            noun = "a whole number" if kind is int else "a number"
            raise ValueError(f"{value!r} is not {noun}") from None
        if number < minimum:
            raise ValueError(f"{number} is below the minimum {minimum:g}")
        if maximum is not None and number > maximum:
            raise ValueError(f"{number} is above the maximum {maximum:g}")
        return number

    return parse


def _parse_choice(*choices: str) -> Callable[[Any], str]:
    def parse(value: Any) -> str:
        text = str(value).strip().lower()
        if text not in choices:
            raise ValueError(f"{value!r} is not one of {', '.join(choices)}")
        return text

    return parse


def _parse_path(value: Any) -> Path:
    if not str(value).strip():
        raise ValueError("an empty path")
    return Path(os.path.expanduser(str(value)))


def _parse_optional_text(value: Any) -> str | None:
    text = str(value).strip()
    return text or None


@dataclass(frozen=True)
class Option:
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


OPTIONS: tuple[Option, ...] = (
    Option("home", _parse_path, Path("~/.memoir").expanduser(), "folder holding all of memoir's state"),
    Option("db_path", _parse_path, None, "SQLite database file (default: <home>/memoir.db)"),
    Option(
        "multi_agent_mode",
        lambda v: MultiAgentMode(_parse_choice("separate", "unified")(v)),
        MultiAgentMode.SEPARATE,
        "separate: one store per project; unified: one store, events tagged with agent_id",
    ),
    Option("agent_id", _parse_optional_text, None, "agent id given to events that carry none (unified mode)"),
    Option("log_level", _parse_choice("debug", "info", "warning", "error"), "info", "log verbosity"),
    Option("max_clock_skew", _parse_number(float, 0), 300.0, "seconds an event's timestamp may lie in the future"),
    Option("store.synchronous", _parse_choice("full", "normal"), "full", "full: fsync every commit (durable)"),
    Option("store.busy_timeout", _parse_number(float, 0), 30.0, "seconds a writer waits for the database lock"),
    Option("worker.enabled", _parse_bool, True, "run the outbox runner in a background thread of Memoir"),
    Option("worker.batch_size", _parse_number(int, 1), 500, "outbox entries a runner takes at a time"),
    Option("worker.poll_interval", _parse_number(float, 0.01), 0.5, "seconds between looks at an empty outbox"),
    Option("worker.max_attempts", _parse_number(int, 1), 5, "tries before an outbox entry is set aside as failed"),
    Option(
        "embedding.provider",
        _parse_choice("local", "openai", "hashing"),
        "local",
        "local: bundled MiniLM; openai: a server; hashing: shared words only (tests)",
    ),
    Option("embedding.model", _parse_optional_text, None, "model name for an embeddings server"),
    Option(
        "embedding.base_url", _parse_optional_text, None, "OpenAI-compatible base URL, e.g. http://localhost:11434/v1"
    ),
    Option("embedding.api_key", _parse_optional_text, None, "API key for the embeddings server"),
    Option("embedding.threads", _parse_number(int, 1), 2, "threads the local embedding model may use"),
    Option("search.top_k", _parse_number(int, 1), 5, "hits returned when k is not given"),
    Option("search.candidates", _parse_number(int, 1), 50, "candidates taken from each of vector and keyword search"),
    Option("search.fusion", _parse_choice("scores", "rrf"), "scores", "fuse normalised scores, or reciprocal ranks"),
    Option(
        "search.keyword_weight", _parse_number(float, 0, 1), 0.6, "share of BM25 in score fusion (the rest: cosine)"
    ),
    Option("search.speaker_boost", _parse_number(float, 0, 1), 0.1, "added to a named speaker's turns"),
    Option("search.rrf_k", _parse_number(float, 1), 60.0, "reciprocal-rank fusion constant"),
    Option(
        "search.mmr_lambda",
        _parse_number(float, 0, 1),
        0.7,
        "MMR: 1.0 ranks by relevance only, lower favours diversity",
    ),
    Option("search.mmr_floor", _parse_number(float, 0, 1), 0.85, "cosine above which MMR counts items as redundant"),
    Option(
        "search.recency_weight", _parse_number(float, 0, 1), 0.2, "weight w of exp(-age_days/30) in the final score"
    ),
    Option(
        "search.score_threshold", _parse_number(float, 0, 1), 0.35, "minimum reranker relevance (with a reranker only)"
    ),
    Option("search.rerank", _parse_choice("none", "http", "onnx"), "none", "cross-encoder rerank backend"),
    Option("search.rerank_url", _parse_optional_text, None, "a /v1/rerank endpoint (search.rerank = http)"),
    Option("search.rerank_model", _parse_optional_text, None, "model name (http) or ONNX file path (onnx)"),
    Option("search.rerank_candidates", _parse_number(int, 1), 30, "candidates the reranker scores"),
    Option("search.neighbours", _parse_number(int, 0), 1, "turns before and after a hit attached as its context"),
    Option("llm.base_url", _parse_optional_text, "http://localhost:11434/v1", "OpenAI-compatible base URL (Ollama's)"),
    Option("llm.model", _parse_optional_text, None, "chat model; none means heuristics only (e.g. qwen2.5:7b)"),
    Option("llm.api_key", _parse_optional_text, None, "API key for the LLM server"),
    Option("llm.timeout", _parse_number(float, 0.1), 60.0, "seconds to wait for one LLM answer"),
    Option("llm.retries", _parse_number(int, 0), 3, "retries after a timeout or a 5xx answer"),
    Option("llm.breaker_threshold", _parse_number(int, 1), 3, "consecutive failures that open the circuit"),
    Option("llm.breaker_reset", _parse_number(float, 0), 30.0, "seconds before an open circuit lets a trial through"),
    Option("memory.extract", _parse_bool, True, "extract facts from user messages into the vault"),
    Option("vault.git", _parse_bool, False, "commit every vault change to git (seed 004's enable_git_versioning)"),
    Option("vault.watch", _parse_bool, False, "watch the vault and re-index files people edit (start_watcher)"),
    Option("memory.max_entries", _parse_number(int, 1), 500, "live memories per conversation before the oldest go"),
    Option("index.hnsw_threshold", _parse_number(int, 1), 50_000, "items from which an HNSW graph serves big scopes"),
)
_BY_KEY = {o.key: o for o in OPTIONS}
_BY_ATTR = {o.attr: o for o in OPTIONS}


@dataclass(frozen=True)
class Settings:
    home: Path
    db_path: Path | None
    multi_agent_mode: MultiAgentMode
    agent_id: str | None
    log_level: str
    max_clock_skew: float
    store_synchronous: str
    store_busy_timeout: float
    worker_enabled: bool
    worker_batch_size: int
    worker_poll_interval: float
    worker_max_attempts: int
    embedding_provider: str
    embedding_model: str | None
    embedding_base_url: str | None
    embedding_api_key: str | None
    embedding_threads: int
    search_top_k: int
    search_candidates: int
    search_fusion: str
    search_keyword_weight: float
    search_speaker_boost: float
    search_rrf_k: float
    search_mmr_lambda: float
    search_mmr_floor: float
    search_recency_weight: float
    search_score_threshold: float
    search_rerank: str
    search_rerank_url: str | None
    search_rerank_model: str | None
    search_rerank_candidates: int
    search_neighbours: int
    llm_base_url: str | None
    llm_model: str | None
    llm_api_key: str | None
    llm_timeout: float
    llm_retries: int
    llm_breaker_threshold: int
    llm_breaker_reset: float
    memory_extract: bool
    vault_git: bool
    vault_watch: bool
    memory_max_entries: int
    index_hnsw_threshold: int
    sources: Mapping[str, str] = field(default_factory=dict, compare=False)

    @property
    def database(self) -> Path:
        return self.db_path if self.db_path is not None else self.home / "memoir.db"

    def value(self, key: str) -> Any:
        return getattr(self, _BY_KEY[key].attr)

    def source(self, key: str) -> str:
        return self.sources.get(key, "default")

    def replace(self, **changes: Any) -> Settings:
        """A copy with some values given as call arguments (parsed and checked like any other)."""
        return load_settings(overrides=changes, base=self)


def default_config_file(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    root = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".config")
    return Path(root) / "memoir" / "config.toml"


def _read_file(path: Path, *, required: bool) -> dict[str, Any]:
    if not path.exists():
        if required:
            raise ConfigError(f"config file {path} does not exist")
        return {}
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
    kwargs = {o.attr: values[o.key] for o in OPTIONS}
    return Settings(**kwargs, sources=sources)


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
