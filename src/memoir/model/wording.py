"""Counts in messages people read: "1 memory", "2 memories", "1,204 events", said one way by every door."""

from __future__ import annotations

__all__ = ["counted"]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`count` and `noun`, singular for one and plural otherwise (`plural`, or the English rule)."""
    if count == 1:
        return f"1 {noun}"
    return f"{count:,} {plural or _plural(noun)}"


def _plural(noun: str) -> str:
    head, _, last = noun.rpartition(" ")  # "memory file" -> "memory files"
    prefix = f"{head} " if head else ""
    if last.endswith("y") and last[-2:-1] not in tuple("aeiou"):
        return prefix + last[:-1] + "ies"
    if last.endswith(("s", "x", "ch", "sh")):
        return prefix + last + "es"
    return prefix + last + "s"
