"""A number corrected: "it's 16h not 15h", "its 7 yrs not 6", "32 parks not 24" (`corrected`).

The fact corrected is one that holds the old number measuring what the correction measures: with the
unit said beside either number ("15h", "7 yrs", "24 parks"), written glued or apart, or with none where
none is said. Of several such facts, the one the sentence speaks of (a word besides the numbers, "the
party is 16h not 15h"); where it speaks of nothing else ("Only one thing, it's 16h not 15h"), or of
what no fact holds after "Sorry, change:" or with no unit ("35 not 34, birthday was last week"), only the
one fact there is. A number said of someone else ("my wife's shift is 9h not 7h", "Ana's …", "the baby
sleeps 10 hours not 7") corrects nothing of the user's own, and any other only the user's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memoir.ingest.changes import Reading
from memoir.ingest.fact_words import mentions, related
from memoir.ingest.known import Known
from memoir.ingest.lexicon import PEOPLE, word_list
from memoir.ingest.stemming import stems
from memoir.ingest.values import values

__all__ = ["corrected", "counterpart", "is_number", "swap_number"]

# Words that follow a number and are no unit of it ("6 not 7", "7 yrs not 6 i started …")
_NOT_A_UNIT = frozenset(
    word_list(
        "not and or but i so the a an to of in on at for with now instead this that it is was are lol sorry no yes "
        "ok please pls haha my our your his her their me we you he she they from by as if then than"
    )
)
# What a correction says besides its numbers that names nothing ("Only one thing, it's 16h not 15h")
_SAYS_NOTHING = stems(
    "only one thing just sorry correction actually wait mistake typo small bit little quick oh ah btw also so and "
    "it's its is not no yes ok okay very good thanks"
)
# Units said in the singular, apart from their number ("2 hour ones", "a 25 year mortgage")
_UNITS = frozenset(
    word_list(
        "hour hr minute min second sec day week wk month year yr km mile metre meter kg lb pound euro dollar rupee "
        "page person guest kid child litre liter cup step rep set lap"
    )
)
_THOUSANDS = frozenset(("k", "m", "bn", "mn", "million", "thousand", "lakh", "crore"))
_LONG = {"yr": "year", "hr": "hour", "min": "minute", "sec": "second", "wk": "week", "mo": "month"}
_SOMEONE_ELSE = re.compile(
    rf"\b(?:(?:my|our|the|his|her|their)\s+(?:[\w-]+\s+)?(?:{'|'.join(sorted(PEOPLE))})|"
    rf"(?:{'|'.join(sorted(PEOPLE))})['’]s|he|she|they|his|her|their)\b",
    re.I,
)

# A fact of the user's own, not of one of their people ("The user's shift …", not "The user's wife's shift …")
_USERS_OWN = re.compile(rf"^the user(?!['’]s\s+(?:{'|'.join(sorted(PEOPLE))})\b)\b", re.I)


def is_number(value: str) -> bool:
    """A number, with its currency ("$50k"); not a day of the month ("the 3rd": a date, read as one)."""
    if re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)", value, re.I):
        return False
    return value[:1].isdigit() or (value[:1] in "$€£₹" and value[1:2].isdigit())


def corrected(reading: Reading, live: Sequence[Known]) -> list[tuple[Known, str, str | None]]:
    """The facts a sentence's number corrections replace, as (fact, "value", the old number)."""
    found: list[tuple[Known, str, str | None]] = []
    numbers = " ".join(v.text for v in values(reading.text) if v.kind in ("number", "date", "time"))
    about = stems(reading.text) - stems(numbers) - _SAYS_NOTHING
    about = frozenset(w for w in about if not w[:1].isdigit())  # "16h", "15h": the numbers, with their units
    numbers_corrected = [o for o in reading.old if is_number(o)]
    if len(numbers_corrected) > 1:  # "she's 34 not 33, and I'm 35 not 34": each by its words (`rule_decisions`)
        return []
    for old in numbers_corrected:
        unit = _correction_unit(reading.text, old)
        holding = [k for k in live if k.id is not None and _holds(k.text, old, unit)]
        if _whose(reading.text, old) == "theirs":
            holding = [k for k in holding if not _USERS_OWN.match(k.text)]
        else:  # "I sleep 8 hours not 9", "25 laps not 20": the user's, who is speaking, not the daughter's 20 laps
            holding = [k for k in holding if _USERS_OWN.match(k.text)]
        if about:  # the fact the sentence speaks of; or, after "Sorry, change:", the one fact there is
            near = [k for k in holding if related(k.stems, about, old)]
            alone = len(holding) == 1 and (reading.announced or unit is None)  # "35 not 34, birthday was …"
            holding = near or (holding if alone else [])
        elif len(holding) > 1:
            holding = []  # "it's 16h not 15h" of two facts at 15h: which, it does not say
        found += [(k, "value", old) for k in holding if not any(k is f for f, _, _ in found)]
    return found


def swap_number(text: str, old: str, new: str, said: str) -> str | None:
    """`text` with the old number written as the new one where it has the correction's unit (None: nowhere)."""
    unit = _correction_unit(said, old)
    for at in re.finditer(rf"(?<![\w.,]){re.escape(old.lstrip('$€£₹'))}(?![\d.,]\d)", text):
        if unit is None or _unit_key(_unit_after(text, at.end())) == unit:
            start = at.start() - (1 if at.start() > 0 and text[at.start() - 1] in "$€£₹" else 0)
            number = new if new[:1] in "$€£₹" or text[start] not in "$€£₹" else f"{text[start]}{new.lstrip('$€£₹')}"
            return text[:start] + number + text[at.end() :]
    return None


def _holds(text: str, old: str, unit: str | None) -> bool:
    number = re.escape(old.lstrip("$€£₹"))
    for at in re.finditer(rf"(?<![\w.,]){'[$€£₹]?' if old[:1] in '$€£₹' else ''}{number}(?![\d.,]\d)", text):
        if at.start() > 0 and text[at.start() - 1].isalnum():
            continue
        if unit is None or _unit_key(_unit_after(text, at.end())) == unit:
            return True
    return False


def _correction_unit(text: str, old: str) -> str | None:
    """What the correction measures: the unit after the old number ("not 15h"), else after the number before
    "not" ("7 yrs not 6"); None where neither has one."""
    said_not = re.search(rf"\bnot\s+(?:the\s+)?{re.escape(old)}", text, re.I)
    if said_not is None:
        return None
    after = _unit_key(_unit_after(text, said_not.end()))
    if after is not None:
        return after
    clause = re.split(r"[;.!?]\s+", text[: said_not.start()])[-1]  # "only 10 days holiday, not 12": days
    numbers = list(re.finditer(r"(?<![\w.,])\d[\d.,:]*", clause))
    return _unit_key(_unit_after(clause, numbers[-1].end())) if numbers else None


def _unit_after(text: str, at: int) -> str | None:
    glued = re.match(r"([a-z]{1,4})(?![\w])", text[at:], re.I)
    if glued:
        return glued.group(1)
    word = re.match(r"\s+([a-z]{2,12})\b", text[at:], re.I)
    if word is None or word.group(1).lower() in _NOT_A_UNIT:
        return None
    said = word.group(1).lower()  # "24 parks", "7 yrs", "2 hour ones"; not "15 because …"
    return said if said.removesuffix("s") in _UNITS or (said.endswith("s") and len(said) > 3) else None


def _unit_key(unit: str | None) -> str | None:
    if not unit or unit.lower() in _NOT_A_UNIT or unit.lower() in _THOUSANDS:
        return None  # "$55k": the number's own, no unit
    unit = unit.lower()
    unit = unit[:-1] if unit.endswith("s") and len(unit) > 2 else unit
    return _LONG.get(unit, unit)


def _whose(text: str, old: str) -> str | None:
    """Whose number the clause that corrects it is: "theirs" (one of the user's people, or someone named: "my wife's
    shift is 9h not 7h", "Ana's shift …", "the baby sleeps 10 hours not 7"), else None: the user's, who speaks."""
    said_not = re.search(rf"\bnot\s+(?:the\s+)?{re.escape(old)}", text, re.I)
    said = text[: said_not.start() if said_not else len(text)]
    clause = next((p for p in reversed(re.split(r"[,;.!?]\s*|\s+(?:but|and|so)\s+", said)) if p.strip()), "")
    names = [w for w in re.findall(r"\b(?-i:[A-Z])[a-z]+", clause) if w.lower() not in _OPENERS]
    if _SOMEONE_ELSE.search(clause) or names:
        return "theirs"
    return None


_OPENERS = frozenset(word_list("it it's its that this only sorry correction actually wait the oh ok so and but also"))


def counterpart(old: str, reading: Reading, known: Known, said: str | None) -> str | None:
    """The new value that takes `old`'s place: B of "from A to B", else a value of the same kind."""
    for a, b in reading.pairs:
        if a.strip().lower() == old.lower():
            return b.strip()
    named = values(reading.text)  # "not the 3rd": the value is "the 3rd"
    kind = next((v.kind for v in named if v.text.lower().removeprefix("the ") == old.lower()), "name")
    kinds = {"place", "name"} if kind in ("place", "name") else {kind}
    candidates = [v for v in reading.new if v.kind in kinds and not mentions(known.text, v.text)]
    # "the 10k yesterday was 52 minutes, not 55": the value said just before "not" the old one
    said_not = re.search(rf"\bnot\s+(?:the\s+)?{re.escape(old)}(?:[a-z]{{1,4}})?\b", reading.text, re.I)
    at = said_not.start() if said_not else -100
    candidates.sort(key=lambda v: (not at - 25 <= v.end <= at, abs(at - v.end)))
    preferred = [v for v in candidates if said is not None and v.text in said]
    chosen = preferred or candidates
    return chosen[0].text if chosen else None
