"""Keyword queries: natural-language text to an FTS5 MATCH expression for BM25 ranking.

FTS5 joins bare terms with AND, which finds nothing for most questions; memoir quotes
each content word (stop words dropped) and joins them with OR, letting BM25 weigh
rare words up. The index's porter stemmer applies to query terms too.
"""

from __future__ import annotations

import re

__all__ = ["STOPWORDS", "match_expression", "terms"]

_STOPWORDS_TEXT = """
    a about above after again against all am an and any are as at be because been before being below between
    both but by can could did do does doing down during each few for from further had has have having he her
    here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not
    now of off on once only or other our ours ourselves out over own same she should so some such than that the
    their theirs them themselves then there these they this those through to too under until up very was we
    were what when where which while who whom why will with would you your yours yourself yourselves did does
    also ever get got like make made many much one said say says something thing things want wanted way well yes
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)


def terms(text: str) -> list[str]:
    """Content words of `text`, lower-cased, in order, without repeats."""
    seen: dict[str, None] = {}
    for match in _WORD.finditer(text.lower()):
        word = match.group().replace("’", "'")
        if word.endswith("'s"):
            word = word[:-2]
        if len(word) > 1 and word not in STOPWORDS:
            seen.setdefault(word, None)
    return list(seen)


def match_expression(text: str) -> str | None:
    """An FTS5 expression matching any content word of `text`; None when there is none."""
    words = terms(text)
    if not words:
        return None
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)
