"""A fact's text made tidy before it is kept: one line, no old value beside it ("…, not Malaga"), no chatter at its end
("lol", "no cap", ", sorry for the typos"), short (`MAX_CHARS`)."""

from __future__ import annotations

import re

__all__ = ["MAX_CHARS", "NOT_THEN_SAID", "tidy"]

MAX_CHARS = 300

_NOT_VALUE = re.compile(
    r",?\s*(?:and\s+)?(?:not|rather than|instead of)\s+(?:in\s+|at\s+|on\s+|the\s+)?(?-i:[A-Z0-9])[\w:'’-]*"
    r"(?:\s+(?-i:[A-Z])[\w'’-]*)*|,?\s+instead of\s+(?:the\s+|a\s+|an\s+)?[\w'’-]+|,?\s+instead\b"
)
# "is not VAT registered", "don't own a Tesla": the verb's "not", which says the fact, is no old value beside it
_NEGATED_VERB = re.compile(r"\b(?:is|am|are|was|were|be|been|do|does|did|has|have|had|can|will|would)\s*$", re.I)


def _old_value(match: re.Match[str]) -> str:
    # "deposit was not 1800, it was 2100": a number after "not" is the old value still
    number = re.search(r"\d", match.group(0))
    verb = _NEGATED_VERB.search(match.string[: match.start()])
    return match.group(0) if verb and not number else ""


# A sentence that says what is not so, then what is: "my flight is not on Friday, it is on Saturday"
NOT_THEN_SAID = re.compile(r"\bnot\b[^,;.]*[,;]\s*(?:but\s+)?(?:it|it's|its|it’s|that's|they're|he's|she's)\b", re.I)


_NOT_THING = re.compile(r",?\s+(?:and\s+)?not\s+(?:the|a|an|my|our)\s+[\w'’-]+(?:\s+[\w'’-]+)?$")
_FROM_VALUE = re.compile(r"\s+from\s+(?:the\s+)?[\w:'’-]+(?:\s+(?-i:[A-Z])[\w'’-]*)*(?=\s+(?:to|for)\s)")


# A comparison with what the fact replaced, which names the old value: ", much better seat than old DAF"
_THAN_THE_OLD = re.compile(r",\s+[^,]*\bthan\s+(?:the\s+|my\s+|our\s+|their\s+)?(?:old|last|previous)\s+[^,]+$", re.I)


def tidy(text: str, changing: bool) -> str:
    """One line, no old values ("…, not Malaga"; "from Rust to Go" keeps "to Go" when it is a change), short."""
    # in a change, "not in May" is the old value ("my exam is not in May, it is in June"); else it may be the fact
    text = _NOT_VALUE.sub("" if changing else _old_value, text)
    if changing:
        text = _NOT_THING.sub("", _FROM_VALUE.sub("", text))
    text = re.sub(r",?\s+(?:which|who)\s+.*$", "", text)
    # "29 and this is what I do w my brain"
    text = re.sub(r",?\s+(?:and|but)\s+this(?:\s+is|['’]s)\s+(?:what|how|why)\s+.*$", "", text)
    text = re.sub(r",\s+(?:what|which|how many|how much|any)\s+[a-z]+(?:\s+[a-z]+)?\??$", "", text)  # ", what parts"
    text = re.sub(r"\s+(?:after|before|with|for|about|at|on|in|into|from)\s+(?:it|them|that|this)$", "", text)
    text = re.sub(r"\s+(?:lol|haha+|tbh|jk|ngl)\b", "", text, flags=re.I)
    text = re.sub(r"\s+no cap$", "", text, flags=re.I)  # "installed it myself no cap": slang for "honestly"
    # an apology beside the fact is for the chat ("I'm dyslexic, sorry for the typos"; not "Sorry Not Sorry Bakery")
    text = re.sub(r",\s*(?:(?:so|very|really)\s+)?(?-i:sorry)\b(?:\s+(?:for|about|if)\b.*)?$", "", text)
    text = re.sub(r"\s+(?:then|though|anyway)$", "", text, flags=re.I)
    text = _THAN_THE_OLD.sub("", text)  # "Scania R450, much better seat than old DAF": the DAF is gone
    text = " ".join(text.split()).strip(" ,;:-—–")
    if len(text) > MAX_CHARS:
        text = text[:MAX_CHARS].rsplit(" ", 1)[0]
    return text[:1].upper() + text[1:]
