"""Asides in brackets said where they belong: one that is a sentence of its own after the sentence that held it ("I'm
Gwen, recently retired headteacher (32 years in primary - I'm finally free!) and I've taken up beekeeping"), one of
someone named said of them ("my husband (he's a chef - long hours!)"), an age first after a name kept where it was
said ("my son Sota (14, he plays violin …)")."""

from __future__ import annotations

import re

__all__ = ["lifted_asides"]

# An aside in brackets that is a sentence of its own: "(32 years in primary - I'm finally allowed some free time!)"
# or opens with the user's own subject: "(I know the owner)"
_OWN_SENTENCE_ASIDE = re.compile(
    r"\s*\((?P<inside>(?!\s*(?:he|she|they|it)\b)(?:[^()]{0,300}?\s[-–—]\s[^()]{0,300}|"
    # an end mark, where the aside has its own subject ("(I know, I know!)"; not "(at Google!)", "(finally!)")
    r"(?=[^()]*\b(?:i|i'm|i’m|im|we|we're|you|that's|it's|this is)\b)[^()]{0,300}?[!?][^()]{0,300}|"
    r"(?:i|i'm|i’m|im|we|we're)\s+\w[^()]{0,300}))\)",
    re.I,
)
# After a name, an age first, then what is said of them: "my son Sota (14, he plays violin - much better than me)"
_AGED_ASIDE = re.compile(r"\s*\((?P<age>\d{1,2})\s*,\s*(?P<rest>[^()]{1,300})\)")
# Of someone just named, a sentence of its own: "My mum (she's 70 next week!) still works", "my husband (he's a chef
# - long hours!) works in Soho": said after, of them
_THEIR_ASIDE = re.compile(
    r"(?P<who>(?:\b(?:my|our)\s+[\w-]+|(?<![\w'’-])(?-i:[A-Z])[a-z]+))\s*"
    r"\((?P<pronoun>he|she)(?P<verb>['’]s|\s+is|\s+was|\s+has)\s+(?P<rest>[^()]{0,300}?(?:[!?]|\s[-–—]\s)[^()]{0,300})\)",
    re.I,
)
_SENTENCE_END = re.compile(r"(?<!\b(?:st|dr|mr|ms|no|vs|mt|jr|sr))(?<!\bmrs)(?<!\betc)[.!?…]+(?=\s|$)", re.I)
_IS = ("is", "'s", "\u2019s")
_THEY_FIRST = re.compile(r"(?P<p>he|she|they|who)(?P<verb>['’]s|\s+is|\s+was|\s+has)?\b", re.I)


def _of(name: str, pronoun: re.Match[str]) -> str:
    """ "she's obsessed with horses" of Ava: "Ava is obsessed with horses" (read after the sentence, "she" would be
    whoever it named last)."""
    verb = (pronoun.group("verb") or "").strip()
    return f"{name} {'is' if verb in _IS else verb}".rstrip() if name else pronoun.group(0)


_MAX_ASIDES = 8


def lifted_asides(text: str) -> str:
    """`text` with each aside that is a sentence of its own said after the sentence that held it: "I'm Gwen,
    recently retired headteacher (32 years in primary - I'm finally free!) and I've taken up beekeeping." is an
    introduction and an aside, not one sentence broken in two. An age first after a name stays where it was said
    ("Sota (14, he plays violin …)"), what follows it said after only when it is of them ("he plays …")."""
    if "(" not in text:
        return text  # most messages: three searches spared
    for _ in range(_MAX_ASIDES):
        own, aged, theirs = (p.search(text) for p in (_OWN_SENTENCE_ASIDE, _AGED_ASIDE, _THEIR_ASIDE))
        if aged and not re.search(r"(?-i:[A-Z])[\w'’-]+$", text[: aged.start()]):
            aged = None  # "two kids (8, 5)", "three times a week (5, 8 and 10 km)": no one's age
        found = [m for m in (own, aged, theirs) if m is not None]
        if not found:
            return text
        aside = min(found, key=lambda m: m.start())
        if aside is aged:
            rest = aside.group("rest").strip()
            name = re.search(r"(?:\b(?:my|our)\s+[\w-]+\s+)?[\w'’-]+$", text[: aside.start()], re.I)  # "my son Sota"
            who = name.group(0) if name else ""
            said = _THEY_FIRST.sub(lambda m, who=who: _of(who, m), rest, count=1)
            kept = f" ({aside.group('age')})"
            text = _said_after(text, aside.start(), aside.end(), kept, said if _THEY_FIRST.match(rest) else "")
        elif aside is theirs:
            verb = aside.group("verb").strip()
            said = f"{aside.group('who')} {'is' if verb in _IS else verb} {aside.group('rest').strip()}"
            text = _said_after(text, aside.start() + len(aside.group("who")), aside.end(), "", said)
        else:
            text = _said_after(text, aside.start(), aside.end(), "", aside.group("inside").strip())
    return text


def _said_after(text: str, start: int, end: int, kept: str, said: str) -> str:
    """`text` with `text[start:end]` replaced by `kept`, and `said` as a sentence after the sentence it was in."""
    stop = _SENTENCE_END.search(text, end)
    cut = stop.end() if stop else len(text)
    head = text[:start] + kept + text[end:cut]
    if not said:
        return head + text[cut:]
    said = said if said[-1:] in ".!?…" else f"{said}."
    return f"{head}{'' if stop else '.'} {said}{text[cut:]}"
