"""Scopes: which conversations, agent, kinds and time range a read may see.

Checking a scope costs nothing: a conversation with nothing stored yet is a valid scope
that simply finds nothing of its own (an agent's first turn searches before anything
is stored), so no lookup guards it. `global` is the one scope every conversation sees.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from memoir.errors import InvalidInput, InvalidQuery
from memoir.model import parse_timestamp
from memoir.model.checks import brief, check_filters
from memoir.model.event import to_ms
from memoir.model.limits import SEARCH_KINDS
from memoir.store import IndexScope

__all__ = ["GLOBAL_SCOPE", "KINDS", "TimeLike", "search_scope", "time_bound"]

GLOBAL_SCOPE = "global"  # memories visible from every conversation (seed 004)
KINDS = SEARCH_KINDS
TimeLike = datetime | str | int


def search_scope(
    conversation_id: str | None,
    kinds: Iterable[str] | str | None,
    since: TimeLike | None,
    until: TimeLike | None,
    *,
    agent_id: str | None,
) -> IndexScope:
    """The scope of a search: a conversation plus `global`, or with none named the whole home
    (as `events` reads it); in unified mode one agent's and the shared."""
    if conversation_id is not None:
        check_filters(conversation_id=conversation_id)  # the rules of ids, whatever the caller passed
    return IndexScope(
        conversation_ids=None if conversation_id is None else tuple(dict.fromkeys((conversation_id, GLOBAL_SCOPE))),
        agent_id=agent_id,
        kinds=_kinds(kinds),
        since_ms=time_bound("since", since),
        until_ms=time_bound("until", until),
    )


def _kinds(kinds: Iterable[str] | str | None) -> tuple[str, ...] | None:
    if kinds is None:
        return None
    if not isinstance(kinds, str | Iterable):
        raise InvalidQuery("kinds", f"expected kind names, got {brief(kinds)}")
    chosen = tuple(kinds.split(",")) if isinstance(kinds, str) else tuple(kinds)
    unknown = [kind for kind in chosen if kind not in KINDS]
    if not chosen:
        raise InvalidQuery("kinds", f"name at least one kind: {', '.join(KINDS)}")
    if unknown:
        raise InvalidQuery("kinds", f"unknown kind {brief(unknown[0])}; known: {', '.join(KINDS)}")
    return chosen


def time_bound(name: str, value: TimeLike | None) -> int | None:
    """A time filter as epoch ms; a bad value is an InvalidQuery naming the filter."""
    if value is None:
        return None
    try:
        return to_ms(parse_timestamp(value, name))
    except InvalidInput as exc:
        raise InvalidQuery(exc.field, exc.reason) from None
