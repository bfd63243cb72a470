"""Front matter as people write it: the one YAML reader for every file a person edits.

Vault notes and `.claude/memory.local.md` are the user's files, so their YAML is hostile
input: safe loading (no objects built), no aliases (they expand without bound), a size
bound, and nesting or numbers too big for Python reported as a `ValueError` naming the
problem, never a raw RecursionError.
"""

from __future__ import annotations

from typing import Any

import yaml

__all__ = ["MAX_FRONT_MATTER", "load_front_matter"]

MAX_FRONT_MATTER = 64 * 1024


class _NoAliasLoader(yaml.SafeLoader):
    """Safe YAML that refuses aliases: front matter never needs them, and they expand without bound."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            raise yaml.YAMLError("YAML aliases (*name) are not allowed in front matter")
        return super().compose_node(parent, index)


def load_front_matter(text: str) -> Any:
    """YAML as people write it in front matter: safe, alias-free, bounded; ValueError naming the problem.

    Every reader of a person's front matter (vault notes, `.claude/memory.local.md`) goes
    through here, so hostile nesting, aliases and huge numbers fail one way everywhere.
    """
    if len(text) > MAX_FRONT_MATTER:
        raise ValueError(f"front matter longer than {MAX_FRONT_MATTER // 1024} KiB")
    try:
        return yaml.load(text, Loader=_NoAliasLoader)  # a SafeLoader: no object construction
    except (yaml.YAMLError, RecursionError, ValueError, OverflowError) as exc:
        first_line = (str(exc) or repr(exc)).splitlines()[0]
        raise ValueError(f"broken front matter: {first_line}") from None
