"""Which words of a keyword query carry weight: those in at most half of the indexed rows.

FTS5's BM25 gives a word held by half the rows or more an IDF of zero (it clamps it to a
millionth), so such a word changes no ranking, yet every row holding it must be scored:
`src/checkout.py` matched all 10,000 memories of a project through `src` and `py` and took
10 ms where `checkout` alone took 0.05 ms. Such words are left out of the query, unless
every word is one. The counts come from the store and are kept for a few seconds: they move
slowly, and a stale count only decides whether a weightless word is asked for.
"""

from __future__ import annotations

import threading
import time

from memoir.index.keyword import match_expression, terms
from memoir.store import SearchIndex

__all__ = ["KeywordTerms"]

TTL_SECONDS = 10.0
MAX_WORDS = 20_000  # counts remembered; past it the memory starts over


class KeywordTerms:
    def __init__(self, store: SearchIndex, ttl: float = TTL_SECONDS) -> None:
        self.store = store
        self.ttl = ttl
        self._counts: dict[str, tuple[float, int, int]] = {}  # word -> (when, rows then, rows holding it)
        self._lock = threading.Lock()

    def match(self, query: str) -> str | None:
        """The FTS5 expression for `query` without its weightless words; None when it has no words."""
        words = terms(query)
        if len(words) < 2:
            return match_expression(query)
        weightless = self._weightless(words)
        return match_expression(" ".join([word for word in words if word not in weightless] or words))

    def _weightless(self, words: list[str]) -> set[str]:
        now = time.monotonic()
        with self._lock:
            known = {word: entry for word in words if (entry := self._counts.get(word)) and now - entry[0] <= self.ttl}
        stale = [word for word in words if word not in known]
        if stale:  # one call for every word to count: the row count is read once
            rows, counts = self.store.keyword_document_counts(stale)
            fresh = {word: (now, rows, counts[word]) for word in stale}
            known.update(fresh)
            with self._lock:
                if len(self._counts) + len(fresh) > MAX_WORDS:
                    self._counts.clear()
                self._counts.update(fresh)
        return {word for word, (_, rows, holding) in known.items() if rows > 0 and holding * 2 >= rows}
