"""Word stems, enough of a word to match its other forms ("shifts"/"shift", "goes"/"go", "moved"/"move"), by
which the rules compare a message with the facts known."""

from __future__ import annotations

import re
from functools import lru_cache

from memoir.index.keyword import terms
from memoir.ingest.lexicon import word_list

__all__ = ["stem", "stem_set", "stems"]

_IRREGULAR = {
    "goes": "go",
    "went": "go",
    "gone": "go",
    "going": "go",
    "does": "do",
    "did": "do",
    "done": "do",
    "doing": "do",
    "has": "have",
    "had": "have",
    "having": "have",
    "is": "be",
    "was": "be",
    "are": "be",
    "were": "be",
    "been": "be",
    "lives": "live",
    "living": "live",
    "lived": "live",
    "married": "wedd",  # getting married, the wedding: one event
    "marry": "wedd",
    "marrying": "wedd",
    "weddings": "wedd",
}
_NOT_TOPICAL = frozenset(word_list("user users the last next year years week weeks month months day days ago"))


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """Enough of a word to match its other forms: "shifts"/"shift", "goes"/"go", "Fridays"/"friday"."""
    word = word.lower().replace("’", "'").removesuffix("'s")
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("ches", "shes", "xes", "sses", "zes", "oes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            word = word[: -len(suffix)]
            break
    return word.rstrip("e")[:7] or word[:7]  # "move", "moved", "moving": "mov"


def stem_set(words: str) -> frozenset[str]:
    """The stems of a list of words, stop words included ("like" as well as "likes")."""
    return frozenset(stem(w) for w in words.split())


def stems(text: str) -> frozenset[str]:
    """The stems of a text's content words ("user" and time words left out), and its numbers ("3 cats": 3)."""
    return (
        frozenset(stem(w) for w in terms(text) if w not in _NOT_TOPICAL)
        | frozenset(re.findall(r"\b\d\b", text))
        | frozenset(code.lower() for code in _CODE.findall(text))  # "f-6", "k-12": a visa, a grade, as one word
    )


_CODE = re.compile(r"(?<![\w-])[a-z]{1,3}-\d{1,3}(?![\w-])", re.I)
