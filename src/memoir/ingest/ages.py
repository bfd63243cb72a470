"""Ages said beside what is known of them: one of a list ("Chidera (9) and Tobe (5)") corrected by what a statement
says of that one, and the age someone has until a birthday to come ("Poppy is turning 10 next month": 9).
"""

from __future__ import annotations

import re

from memoir.ingest.topics import LISTED_AGE, topics

__all__ = ["LISTED_AGE", "still_before", "with_listed_age"]


def with_listed_age(fact: str, statement: str) -> str | None:
    """The fact with one person's age of its list corrected, where the statement gives it ("Tobe is 6 now" of
    "two children, Chidera (9) and Tobe (5)"), or None."""
    for age in (t for t in topics(statement) if t.attribute == "age" and t.value.isdigit()):
        listed = next((m for m in LISTED_AGE.finditer(fact) if m.group("name").lower() == age.subject), None)
        # of the one so named: "Isla is 9", not "Isla's friend is 9" or "The user's niece Isla is 3"
        plain = re.match(
            rf"{re.escape(age.subject)}(?:\s+(?:is|turned|turns|just turned|will be)|['’]s)\s+\d", statement, re.I
        )
        if listed and plain:
            return f"{fact[: listed.start('n')]}{age.value}{fact[listed.end('n') :]}"
    return None


_TURNING = re.compile(r"\b(?:is turning|turns|will turn|will be)\s+(?P<n>\d{1,3})\b(?!\s*(?:years? ago|months?))", re.I)


def still_before(known: str, age: str) -> bool:
    """Is `age` the one a fact says someone has until a birthday to come ("Poppy is turning 10 next month": 9)?"""
    turning = _TURNING.search(known)
    return turning is not None and age.isdigit() and int(age) == int(turning.group("n")) - 1
