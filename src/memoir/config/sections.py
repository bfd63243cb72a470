"""The settings' sections: one frozen dataclass per table of the TOML file, each field a setting.

A field made by `option` carries its default, its parser and its help; `memoir.config`
derives every option from these fields (`OPTIONS`), so a setting is declared once, here.
`SECTIONS` names each section as the file and the dotted keys do (`search` ->
`SearchSettings`); `Settings` (in `memoir.config`) holds one of each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from memoir.config.parsers import (
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

__all__ = [
    "SECTIONS",
    "ChatSettings",
    "EmbeddingSettings",
    "HooksSettings",
    "IndexSettings",
    "LLMSettings",
    "MemorySettings",
    "MultiAgentMode",
    "PrivacySettings",
    "ProxySettings",
    "SearchSettings",
    "ServerSettings",
    "StoreSettings",
    "VaultSettings",
    "WorkerSettings",
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
