"""The LLM tables (both backends): each model's circuit breaker, the ledger of calls, server formats."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memoir.store.records import BreakerRow
from memoir.store.sql.parts import SQLParts, upsert

__all__ = ["LLMTables"]

# (failures, opened_ms, trial_until_ms, last_error): the store keeps it, the breaker gives it meaning.
_CLOSED: BreakerRow = (0, None, None, None)
_BREAKER = "SELECT failures, opened_ms, trial_until_ms, last_error FROM llm_breakers WHERE key = ?"
_SAVE_FORMATS = upsert("llm_servers", ("base_url", "formats"), ("base_url",))


class LLMTables(SQLParts):
    def breaker_row(self, key: str) -> BreakerRow:
        rows = self._rows(_BREAKER, (key,))
        return (rows[0][0], rows[0][1], rows[0][2], rows[0][3]) if rows else _CLOSED

    def breaker_update(self, key: str, change: Callable[[BreakerRow], BreakerRow]) -> BreakerRow:
        """Read, change and write a breaker's row with the row locked (processes take turns)."""
        with self._translated(), self.atomic():
            # The row must exist to be locked: a first failure anywhere creates it closed.
            self._run("INSERT INTO llm_breakers VALUES (?, 0, NULL, NULL, NULL) ON CONFLICT (key) DO NOTHING", (key,))
            found = self._run(_BREAKER + "{for_update}", (key,)).fetchone()
            before: BreakerRow = (found[0], found[1], found[2], found[3]) if found else _CLOSED
            after = change(before)
            if after != before:
                self._run(
                    "UPDATE llm_breakers SET failures = ?, opened_ms = ?, trial_until_ms = ?, last_error = ?"
                    " WHERE key = ?",
                    (*after, key),
                )
            return after

    def ledger_add(
        self, at_ms: int, job: str, model: str, prompt: int, completion: int, duration_ms: int, outcome: str
    ) -> None:
        """One LLM operation: what it cost and how it ended."""
        with self._translated(), self.atomic():
            self._run(
                "INSERT INTO llm_calls (at_ms, job, model, prompt_tokens, completion_tokens, duration_ms, outcome)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (at_ms, job, model, prompt, completion, duration_ms, outcome),
            )

    def ledger_usage(self, since_ms: int = 0) -> dict[str, tuple[int, int, int]]:
        """job -> (calls, prompt tokens, completion tokens) since `since_ms`."""
        rows = self._rows(
            "SELECT job, count(*), sum(prompt_tokens), sum(completion_tokens) FROM llm_calls WHERE at_ms >= ?"
            " GROUP BY job ORDER BY job",
            (since_ms,),
        )
        return {job: (int(calls), int(prompt or 0), int(completion or 0)) for job, calls, prompt, completion in rows}

    def ledger_outcomes(self, since_ms: int = 0) -> dict[str, dict[str, int]]:
        rows = self._rows(
            "SELECT job, outcome, count(*) FROM llm_calls WHERE at_ms >= ? GROUP BY job, outcome ORDER BY job, outcome",
            (since_ms,),
        )
        found: dict[str, dict[str, int]] = {}
        for job, outcome, count in rows:
            found.setdefault(job, {})[outcome] = int(count)
        return found

    def ledger_days(self, since_ms: int = 0) -> list[tuple[int, str, int, int, int, int]]:
        """(day since 1970 UTC, job, calls, prompt tokens, completion tokens, milliseconds), by day and job."""
        rows = self._rows(
            "SELECT at_ms / 86400000, job, count(*), sum(prompt_tokens), sum(completion_tokens), sum(duration_ms)"
            " FROM llm_calls WHERE at_ms >= ? GROUP BY at_ms / 86400000, job ORDER BY 1, 2",
            (since_ms,),
        )
        return [(int(d), job, int(n), int(p or 0), int(c or 0), int(ms or 0)) for d, job, n, p, c, ms in rows]

    def server_formats(self, base_url: str) -> list[str] | None:
        """The response formats a server was found to take (None: not yet refused any)."""
        rows = self._rows("SELECT formats FROM llm_servers WHERE base_url = ?", (base_url,))
        return rows[0][0].split() if rows else None

    def set_server_formats(self, base_url: str, formats: Sequence[str]) -> None:
        with self._translated(), self.atomic():
            self._run(_SAVE_FORMATS, (base_url, " ".join(formats)))
