"""Reads of the event log and the session catalogue (both backends), and the store's statistics.

Appending differs (SQLite inserts row by row and compares counts, PostgreSQL inserts arrays
and reads back what `RETURNING` gave), so `append` stays with each backend; what is read
back, and how, is the same.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from memoir.model import Event
from memoir.store.records import EventQuery, SessionInfo, StoreStats
from memoir.store.sql.parts import SQLParts
from memoir.store.sql.rows import EVENT_COLUMNS, row_to_event, session_rows, where_clause

__all__ = ["EventReads"]


class EventReads(SQLParts):
    backend: str
    location: str

    def _size_bytes(self) -> int:
        raise NotImplementedError

    def _schema(self) -> list[str]:
        """The names of the schema steps applied."""
        raise NotImplementedError

    # -- events -------------------------------------------------------------------------

    def _as_stored(self, events: Sequence[Event], fresh: Sequence[Event]) -> list[Event]:
        """What `append` returns, inside its transaction: each event sent, or the one stored under its id.

        Some ids may have been stored before (or repeated in the batch): the stored event stands
        and is returned in place of the one sent, so the caller can tell a retry (an equal event)
        from a conflict (other content). Only those are read back.
        """
        if len(fresh) == len(events):
            return list(events)
        new = {id(e) for e in fresh}
        stored = self.get_many([e.event_id for e in events if id(e) not in new])
        return [e if id(e) in new else stored[e.event_id] for e in events]

    def get(self, event_id: str) -> Event | None:
        return self.get_many([event_id]).get(event_id)

    def get_many(self, event_ids: Sequence[str]) -> dict[str, Event]:
        unique = list(dict.fromkeys(event_ids))
        rows = self._rows_in(f"SELECT {EVENT_COLUMNS} FROM events WHERE event_id {{in}}", unique)
        return {row[0]: row_to_event(row) for row in rows}

    def scan(self, query: EventQuery) -> list[Event]:
        where, params = where_clause(query)
        order = "timestamp_ms DESC, event_id DESC" if query.newest_first else "timestamp_ms, event_id"
        sql = f"SELECT {EVENT_COLUMNS} FROM events{where} ORDER BY {order} LIMIT ?"
        return [row_to_event(row) for row in self._rows(sql, [*params, query.limit])]

    def count_events(self, query: EventQuery | None = None) -> int:
        where, params = where_clause(query or EventQuery())
        return int(self._rows(f"SELECT count(*) FROM events{where}", params)[0][0])

    def event_days(self, conversation_id: str, agent_id: str | None = None) -> list[tuple[int, int]]:
        """(day, events that day) of a conversation, in order: days since 1970 (UTC), for an activity chart."""
        sql = "SELECT timestamp_ms / 86400000, count(*) FROM events WHERE conversation_id = ?"
        params: list[object] = [conversation_id]
        if agent_id is not None:
            sql += " AND agent_id = ?"
            params.append(agent_id)
        rows = self._rows(sql + " GROUP BY timestamp_ms / 86400000 ORDER BY 1", params)
        return [(int(day), int(count)) for day, count in rows]

    # -- session catalogue (derived) ----------------------------------------------------

    def track_sessions(self, events: Sequence[Event]) -> None:
        with self._translated(), self.atomic():
            self._run_many(
                "INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (conversation_id, session_id, agent_id) DO UPDATE SET"
                " first_ms = {least}(sessions.first_ms, excluded.first_ms),"
                " last_ms = {greatest}(sessions.last_ms, excluded.last_ms),"
                " event_count = sessions.event_count + excluded.event_count,"
                " started = {greatest}(sessions.started, excluded.started),"
                " ended = {greatest}(sessions.ended, excluded.ended)",
                session_rows(events),
            )

    def sessions(self, conversation_id: str | None = None) -> Iterator[SessionInfo]:
        sql = "SELECT * FROM sessions"
        params = [] if conversation_id is None else [conversation_id]
        sql += "" if conversation_id is None else " WHERE conversation_id = ?"
        for row in self._rows(sql + " ORDER BY first_ms", params):
            conv, session, agent, first, last, count, started, ended = row
            yield SessionInfo(conv, session, agent or None, first, last, count, bool(started), bool(ended))

    # -- status -------------------------------------------------------------------------

    def stats(self) -> StoreStats:
        def by_action(failed: bool) -> dict[str, int]:
            condition = "IS NOT NULL" if failed else "IS NULL"
            rows = self._rows(f"SELECT action, sum(size) FROM outbox WHERE failed_at_ms {condition} GROUP BY action")
            return {action: int(size) for action, size in rows}

        return StoreStats(
            backend=self.backend,
            location=self.location,
            size_bytes=self._size_bytes(),
            schema=self._schema(),
            events=self.count_events(),
            sessions=int(self._rows("SELECT count(*) FROM sessions")[0][0]),
            conversations=int(self._rows("SELECT count(DISTINCT conversation_id) FROM events")[0][0]),
            outbox_pending=by_action(False),
            outbox_failed=by_action(True),
        )
