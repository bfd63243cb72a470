"""A fact read from a message: its text, standalone and in the third person, and what it was made of."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Statement"]


@dataclass(frozen=True)
class Statement:
    text: str  # the fact, standalone, in the third person
    important: bool = False  # the user asked for it to be remembered
    clause: str = ""  # the words it was made from
    source: str = "heuristics"  # the rules, or the model ("llm") when it read a fact the rules missed
