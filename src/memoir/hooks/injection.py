"""Typed memories injected into a coding agent's context (seed 001's InjectionConfig flow).

After a Read, Edit, Write or Bash: one search for the file or command over the project's
enabled memory types; each type keeps hits scoring at least its effective threshold,
min(1, threshold x the hook's multiplier); memories already shown in this session are
skipped (counted in `deduplication_hits`); then priority gotcha > decision > learning and
score, the per-type limits and a hard limit of 10. The configuration is the YAML front
matter of `<project>/.claude/memory.local.md` (key `injection`), merged over the seed's
defaults. Injected text is memoir's one block of quoted notes (`memoir.model.notes`), never instructions.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from memoir.errors import ConfigError
from memoir.model.frontmatter import load_front_matter
from memoir.model.notes import notes_block
from memoir.retrieval.context import TYPED_KINDS as TYPES
from memoir.retrieval.context import TYPED_LIMIT as HARD_LIMIT
from memoir.retrieval.context import TypeRule, select_typed
from memoir.retrieval.pipeline import Hit

__all__ = [
    "HARD_LIMIT",
    "InjectionConfig",
    "InjectionResult",
    "format_injection",
    "load_injection_config",
    "select",
]

ICONS = {"gotcha": "🚨", "decision": "📋", "learning": "💡"}
MULTIPLIER_RANGE = (0.5, 2.0)
# Tool names of the three agents -> the seed's hook types.
TOOL_TYPES = {
    "Read": "Read",
    "Edit": "Edit",
    "MultiEdit": "Edit",
    "Write": "Write",
    "Bash": "Bash",
    "read_file": "Read",
    "read_many_files": "Read",
    "replace": "Edit",
    "edit": "Edit",
    "write_file": "Write",
    "run_shell_command": "Bash",
    "shell": "Bash",
    "apply_patch": "Edit",
}


@dataclass(frozen=True)
class InjectionConfig:
    enabled: bool = True
    types: Mapping[str, TypeRule] = field(
        default_factory=lambda: {
            "gotcha": TypeRule(True, 0.2, 5),
            "decision": TypeRule(False, 0.35, 3),
            "learning": TypeRule(False, 0.4, 2),
        }
    )
    hook_multipliers: Mapping[str, float] = field(
        default_factory=lambda: {"Read": 1.0, "Edit": 0.8, "Write": 0.8, "Bash": 1.2}
    )

    def enabled_types(self) -> list[str]:
        return [name for name in TYPES if self.enabled and self.types[name].enabled]

    def effective_threshold(self, kind: str, hook_type: str) -> float:
        return min(1.0, self.types[kind].threshold * self.hook_multipliers.get(hook_type, 1.0))


@dataclass
class InjectionResult:
    """Seed 001's MemoryInjectionResult: the memories chosen, by priority then score."""

    memories: list[Hit]
    total_count: int
    deduplication_hits: int


def load_injection_config(project: Path) -> InjectionConfig:
    """The project's configuration merged over the defaults; `ConfigError` names a bad field."""
    path = project / ".claude" / "memory.local.md"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return InjectionConfig()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError.at(str(path), f"cannot be read: {exc}") from None
    return parse_injection_config(_front_matter(path, text))


def _front_matter(path: Path, text: str) -> Mapping[str, Any]:
    if not text.startswith("---"):
        return {}
    end = text.find("\n---", 3)
    if end < 0:
        raise ConfigError.at(str(path), "front matter has no closing '---' line")
    try:
        data = load_front_matter(text[3:end])
    except ValueError as exc:
        raise ConfigError.at(str(path), str(exc)) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError.at(str(path), "front matter must be a mapping of keys to values")
    return data


def parse_injection_config(data: Mapping[str, Any]) -> InjectionConfig:
    section = data.get("injection")
    if section is None:
        return InjectionConfig()
    if not isinstance(section, dict):
        raise ConfigError.at("injection", "must be a mapping (enabled, types, hook_multipliers)")
    config = InjectionConfig()
    enabled = _bool(section.get("enabled", config.enabled), "injection.enabled")
    types = dict(config.types)
    given_types = _mapping(section.get("types", {}), "injection.types")
    for name, value in given_types.items():
        if name not in TYPES:
            raise ConfigError.at(f"injection.types.{name}", f"unknown memory type; expected one of {', '.join(TYPES)}")
        types[name] = _type_config(types[name], _mapping(value, f"injection.types.{name}"), f"injection.types.{name}")
    multipliers = dict(config.hook_multipliers)
    for hook, value in _mapping(section.get("hook_multipliers", {}), "injection.hook_multipliers").items():
        key = f"injection.hook_multipliers.{hook}"
        if hook not in multipliers:
            raise ConfigError.at(key, f"unknown hook type; expected one of {', '.join(multipliers)}")
        multipliers[hook] = _number(value, key, *MULTIPLIER_RANGE)
    return InjectionConfig(enabled, types, multipliers)


def _type_config(base: TypeRule, given: Mapping[str, Any], where: str) -> TypeRule:
    unknown = set(given) - {"enabled", "threshold", "limit"}
    if unknown:
        raise ConfigError.at(
            f"{where}.{sorted(map(str, unknown))[0]}", "unknown key; expected enabled, threshold, limit"
        )
    result = base
    if "enabled" in given:
        result = replace(result, enabled=_bool(given["enabled"], f"{where}.enabled"))
    if "threshold" in given:
        result = replace(result, threshold=_number(given["threshold"], f"{where}.threshold", 0.0, 1.0))
    if "limit" in given:
        limit = given["limit"]
        if type(limit) is not int or not 1 <= limit <= HARD_LIMIT:
            raise ConfigError.at(
                f"{where}.limit", f"must be a whole number from 1 to {HARD_LIMIT}, got {limit!r}"[:200]
            )
        result = replace(result, limit=limit)
    return result


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError.at(where, "must be a mapping")
    return {str(k): v for k, v in value.items()}


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError.at(where, f"must be true or false, got {value!r}"[:200])
    return value


def _number(value: Any, where: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(float(value)):
        raise ConfigError.at(where, f"must be a number from {low} to {high}, got {value!r}"[:200])
    if not low <= float(value) <= high:
        raise ConfigError.at(where, f"must be from {low} to {high}, got {value}")
    return float(value)


def select(hits: list[Hit], config: InjectionConfig, hook_type: str, seen: set[tuple[str, str]]) -> InjectionResult:
    """The typed hits to inject; (memory id, kind) pairs in `seen` are skipped, then `seen` grows."""
    if not config.enabled:
        return InjectionResult([], 0, 0)
    fresh, dedup = [], 0
    for hit in hits:
        if hit.memory_id is None or hit.kind not in config.types:
            continue
        if (hit.memory_id, hit.kind) in seen:
            # counted only when it would have been shown: over its threshold
            dedup += hit.relevance >= config.effective_threshold(hit.kind, hook_type)
            continue
        fresh.append(hit)
    multiplier = config.hook_multipliers.get(hook_type, 1.0)
    chosen = select_typed(fresh, dict(config.types), multiplier)
    seen.update((hit.memory_id, hit.kind) for hit in chosen if hit.memory_id)
    return InjectionResult(chosen, len(chosen), dedup)


def title_of(text: str, width: int = 80) -> str:
    first = " ".join(text.strip().splitlines()[0].split()) if text.strip() else ""
    return first if len(first) <= width else first[: width - 1].rstrip() + "…"


def format_injection(result: InjectionResult, subject: str) -> str:
    """The seed's icons and relevance, in memoir's one block of quoted notes (so it reads as data)."""
    if not result.memories:
        return ""
    lines = []
    for item in result.memories:
        lines.append(f"{ICONS[item.kind]} {item.kind} ({item.memory_id}), Relevance: {item.relevance * 100:.0f}%")
        lines.extend(item.text.strip().splitlines()[:20])
        lines.append("")
    return notes_block("\n".join(lines), f"memoir: notes recorded earlier in this project about {subject}") + "\n"
