"""The relations a person has one of (a dad, a wife, a boss) and the names known facts give them, so that "The
user's dad turned 85" is about Paddy when "The user's dad Paddy is 84" is known.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from memoir.ingest.lexicon import ONE_AT_A_TIME, word_list
from memoir.ingest.topics import Topic

__all__ = ["as_named", "relation_named"]

# Relations a person has one of: "The user's dad" is the dad a known fact names ("The user's dad Paddy is 84")
_ONE_OF = ONE_AT_A_TIME | frozenset(
    word_list("dad mum mom mam father mother daddy mummy mommy stepdad stepmum stepmom")
)
_REL_NAMED = re.compile(r"^the user's (?P<rel>[\w-]+) (?P<name>(?-i:[A-Z])[\w'-]+)\b(?!['’]s)", re.I)


@lru_cache(maxsize=4096)
def relation_named(fact: str) -> tuple[str, str] | None:
    """The relation a person has one of and the name a fact gives it: ("dad", "Paddy") of "The user's dad
    Paddy is 84", or None."""
    named = _REL_NAMED.match(fact)
    if named is None or named.group("rel").lower() not in _ONE_OF:
        return None
    return named.group("rel").lower(), named.group("name")


def as_named(mine: Sequence[Topic], known: str) -> Sequence[Topic]:
    """A statement's topics of the user's dad (wife, boss) as of the one a known fact names: "The user's dad
    turned 85" is Paddy's age when "The user's dad Paddy is 84" is known."""
    named = relation_named(known)
    if named is None:
        return mine
    whose = f"user's {named[0]}"
    return [replace(t, subject=named[1].lower()) if t.subject == whose else t for t in mine]
