"""The LLM tables of the PostgreSQL store: each model's circuit breaker, the ledger of calls, server formats."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memoir.store.base import BreakerRow
from memoir.store.postgres.parts import PostgresParts

__all__ = ["SCHEMA", "PostgresLLMTables"]

SCHEMA = """
CREATE TABLE llm_breakers (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    opened_ms BIGINT,
    trial_until_ms BIGINT,
    last_error TEXT
);
CREATE TABLE llm_calls (
    call_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at_ms BIGINT NOT NULL,
    job TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt_tokens BIGINT NOT NULL,
    completion_tokens BIGINT NOT NULL,
    duration_ms BIGINT NOT NULL,
    outcome TEXT NOT NULL
);
CREATE INDEX llm_calls_by_job ON llm_calls (job, at_ms);
CREATE TABLE llm_servers (base_url TEXT PRIMARY KEY, formats TEXT NOT NULL);
"""

_CLOSED: BreakerRow = (0, None, None, None)
_BREAKER = "SELECT failures, opened_ms, trial_until_ms, last_error FROM llm_breakers WHERE key = %s"


class PostgresLLMTables(PostgresParts):
    def breaker_row(self, key: str) -> BreakerRow:
        rows = self._read(_BREAKER, (key,))
        return (rows[0][0], rows[0][1], rows[0][2], rows[0][3]) if rows else _CLOSED

    def breaker_update(self, key: str, change: Callable[[BreakerRow], BreakerRow]) -> BreakerRow:
        """Read, change and write a breaker's row with the row locked (processes take turns)."""
        with self._translated(), self.atomic():
            conn = self._conn()
            # The row must exist to be locked: a first failure anywhere creates it closed.
            conn.execute(
                "INSERT INTO llm_breakers VALUES (%s, 0, NULL, NULL, NULL) ON CONFLICT (key) DO NOTHING", (key,)
            )
            found = conn.execute(_BREAKER + " FOR UPDATE", (key,)).fetchone()
            before: BreakerRow = (found[0], found[1], found[2], found[3]) if found else _CLOSED
            after = change(before)
            if after != before:
                conn.execute(
                    "UPDATE llm_breakers SET failures = %s, opened_ms = %s, trial_until_ms = %s, last_error = %s"
                    " WHERE key = %s",
                    (*after, key),
                )
            return after

    def ledger_add(
        self, at_ms: int, job: str, model: str, prompt: int, completion: int, duration_ms: int, outcome: str
    ) -> None:
        with self._translated(), self.atomic():
            self._conn().execute(
                "INSERT INTO llm_calls (at_ms, job, model, prompt_tokens, completion_tokens, duration_ms, outcome)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (at_ms, job, model, prompt, completion, duration_ms, outcome),
            )

    def ledger_usage(self, since_ms: int = 0) -> dict[str, tuple[int, int, int]]:
        """job -> (calls, prompt tokens, completion tokens) since `since_ms`."""
        rows = self._read(
            "SELECT job, count(*), sum(prompt_tokens), sum(completion_tokens) FROM llm_calls WHERE at_ms >= %s"
            " GROUP BY job ORDER BY job",
            (since_ms,),
        )
        return {job: (int(calls), int(prompt or 0), int(completion or 0)) for job, calls, prompt, completion in rows}

    def ledger_outcomes(self, since_ms: int = 0) -> dict[str, dict[str, int]]:
        rows = self._read(
            "SELECT job, outcome, count(*) FROM llm_calls WHERE at_ms >= %s"
            " GROUP BY job, outcome ORDER BY job, outcome",
            (since_ms,),
        )
        found: dict[str, dict[str, int]] = {}
        for job, outcome, count in rows:
            found.setdefault(job, {})[outcome] = int(count)
        return found

    def server_formats(self, base_url: str) -> list[str] | None:
        rows = self._read("SELECT formats FROM llm_servers WHERE base_url = %s", (base_url,))
        return rows[0][0].split() if rows else None

    def set_server_formats(self, base_url: str, formats: Sequence[str]) -> None:
        with self._translated(), self.atomic():
            self._conn().execute(
                "INSERT INTO llm_servers VALUES (%s, %s)"
                " ON CONFLICT (base_url) DO UPDATE SET formats = excluded.formats",
                (base_url, " ".join(formats)),
            )
