"""Which imported events the agent's hooks stored already, live, under ids of their own.

A hook call carries no message id (Claude Code sends none with a prompt or an answer), so
the hooks name a call's events by the call's content and time, and an import names them by
the transcript's ids: one message, two ids, and the log's idempotency on ids cannot see
that they are the same (decision 92). So both paths identify a message the same way, by
what it is: its session and coding agent, its event type, and its tool call id (a tool
result; the hooks and the transcript both carry it) or else its text, as stored (masked).
Before an import stores an event, it looks for a stored event of the same identity in
the session, at most `WINDOW_MS` apart; the closest pairs are taken first, each stored
event at most once, and a matched event is counted present rather than stored.

Closest first keeps a repeated message apart: a "continue" typed twice, once before the
hooks were installed, pairs the captured one with its own line, and the other is stored.
An event that matches nothing takes nothing, so leaving the events stored by an earlier
import out of the next one's matching changes no pair: importing again is idempotent.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

from memoir.model import Event

__all__ = ["WINDOW_MS", "captured_already", "identity"]

# How far apart a hook's time and the transcript's may be for one message: the hook is
# stamped when the agent calls it (a Stop at the end of the turn), the line when written.
WINDOW_MS = 3_600_000

Identity = tuple[str, str, str, str]


def identity(event: Event) -> Identity:
    """What makes two events one message, whichever path stored them."""
    tool_call = event.metadata.get("tool_use_id", "")
    said = f"tool:{tool_call}" if tool_call else f"text:{event.text}"
    return event.session_id, event.metadata.get("coding_agent", ""), event.event_type.value, said


def captured_already(candidates: Sequence[Event], stored: Iterable[Event], window_ms: int = WINDOW_MS) -> set[str]:
    """Ids of `candidates` (about to be imported) that a `stored` event of another id already holds."""
    by_identity: dict[Identity, list[tuple[int, str]]] = {}
    for event in stored:
        by_identity.setdefault(identity(event), []).append((event.timestamp_ms, event.event_id))
    for times in by_identity.values():
        times.sort()
    pairs: list[tuple[int, str, str]] = []  # (how far apart, candidate id, stored id)
    for event in candidates:
        near = by_identity.get(identity(event), [])
        first = bisect.bisect_left(near, (event.timestamp_ms - window_ms, ""))
        for at, stored_id in near[first:]:
            if at > event.timestamp_ms + window_ms:
                break
            pairs.append((abs(at - event.timestamp_ms), event.event_id, stored_id))
    matched: set[str] = set()
    taken: set[str] = set()
    for _, candidate, stored_id in sorted(pairs):
        if candidate not in matched and stored_id not in taken:
            matched.add(candidate)
            taken.add(stored_id)
    return matched
