"""`Memoir`'s overview reads (a mixin): the conversations a caller sees, a conversation's activity
by day, and what the model cost by day. What the web view's pages and `GET /api/v1/conversations`,
`…/activity` and `/llm/ledger` answer, from the session catalogue and the LLM ledger, never by
reading every event.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from memoir.facade.assembly import Parts
from memoir.model import now_ms
from memoir.model.checks import check_count, check_filters

__all__ = ["ConversationInfo", "DayCount", "LedgerDay", "OverviewMethods"]

EPOCH_DAY = date(1970, 1, 1)
MAX_LEDGER_DAYS = 366


@dataclass(frozen=True)
class ConversationInfo:
    conversation_id: str
    sessions: int
    events: int
    first_at: datetime
    last_at: datetime

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["first_at"], data["last_at"] = _iso(self.first_at), _iso(self.last_at)
        return data


@dataclass(frozen=True)
class DayCount:
    day: date
    events: int

    def to_dict(self) -> dict[str, Any]:
        return {"day": self.day.isoformat(), "events": self.events}


@dataclass(frozen=True)
class LedgerDay:
    day: date
    job: str
    calls: int
    prompt_tokens: int
    completion_tokens: int
    seconds: float

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "day": self.day.isoformat()}


class OverviewMethods:
    _parts: Parts

    def conversations(self, *, agent_id: str | None = None) -> list[ConversationInfo]:
        """The conversations the caller sees, most recently active first, with their sessions and events."""
        check_filters(agent_id=agent_id)
        agent = self._parts.agent_scope(agent_id)
        found: dict[str, list[int]] = {}  # conversation -> [sessions, events, first ms, last ms]
        for session in self._parts.store.sessions():
            if agent is not None and session.agent_id != agent:
                continue
            row = found.setdefault(session.conversation_id, [0, 0, session.first_ms, session.last_ms])
            row[0] += 1
            row[1] += session.event_count
            row[2], row[3] = min(row[2], session.first_ms), max(row[3], session.last_ms)
        infos = [ConversationInfo(c, s, e, _at(first), _at(last)) for c, (s, e, first, last) in found.items()]
        return sorted(infos, key=lambda info: (info.last_at, info.conversation_id), reverse=True)

    def activity(self, conversation_id: str, *, agent_id: str | None = None) -> list[DayCount]:
        """A conversation's events per day (UTC), the days it has events, in order."""
        check_filters(conversation_id=conversation_id, agent_id=agent_id)
        rows = self._parts.store.event_days(conversation_id, self._parts.agent_scope(agent_id))
        return [DayCount(EPOCH_DAY + timedelta(days=day), count) for day, count in rows]

    def llm_ledger(self, days: int = 30) -> list[LedgerDay]:
        """What memoir's model calls cost, per day (UTC) and job, over the last `days` days."""
        check_count("days", days, 1, MAX_LEDGER_DAYS)
        today = (now_ms() // 86_400_000) * 86_400_000
        rows = self._parts.store.ledger_days(today - (days - 1) * 86_400_000)
        return [
            LedgerDay(EPOCH_DAY + timedelta(days=day), job, calls, prompt, completion, ms / 1000)
            for day, job, calls, prompt, completion, ms in rows
        ]


def _at(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
