"""Notes as lists and terse messages write them: "car = Dacia Jogger", "Daily driver: ThinkPad X1 Carbon", and a
list about the user under a heading ("Context:\n- Priya, 34\n- Sheffield")."""

from __future__ import annotations

import re

from memoir.ingest.lexicon import PEOPLE, PETS, word_list

__all__ = ["about_the_user", "noted"]


def noted(text: str) -> str:
    """A sentence with a note of the user's own written out: "car = Dacia Jogger" is "my car is Dacia Jogger";
    "Ollie 9, Ava 7, Finn 14 months" is "Ollie is 9, Ava is 7, Finn is 14 months"."""
    return _ages_listed(_NOTED.sub(_noted, text))


# A list of people and their ages, as a busy parent writes it: "Ollie 9, Ava 7, Finn 14 months" (three or more, or
# an age said in months or years: "Arsenal 2, Chelsea 1" is a score)
_AGE_UNIT = r"(?:months?|mos?|yrs?|years?|yo|y/o)"
_NAME_AGE = rf"(?-i:[A-Z])[a-z]+\s+\d{{1,2}}(?:\s*{_AGE_UNIT}(?:\s+old)?)?"
_AGES_LISTED = re.compile(rf"^\s*{_NAME_AGE}(?:\s*(?:,|and|&)\s*{_NAME_AGE})+\s*[.!]?\s*$", re.I)
_AN_AGE = re.compile(r"(?-i:[A-Z])[a-z]+(?=\s+\d)")  # a name, then its age
_UNIT = re.compile(rf"\d\s*{_AGE_UNIT}\b", re.I)


def _ages_listed(text: str) -> str:
    """Said alone, three or more names each with an age, or a baby's in months, are the user's children's."""
    if not _AGES_LISTED.match(text) or (len(_AN_AGE.findall(text)) < 3 and not _UNIT.search(text)):
        return text
    return "my children " + _AGED.sub(lambda m: f"{m.group('name')} ({m.group('age')})", text.strip(" .!"))


_AGED = re.compile(rf"(?P<name>(?-i:[A-Z])[a-z]+)\s+(?P<age>\d{{1,2}}(?:\s*{_AGE_UNIT})?)")


# A note of the user's own, as lists and terse messages write them: "car = Dacia Jogger", "physio = Gareth",
# "Daily driver: ThinkPad X1 Carbon": the user's thing or person, named by a name or a number
_NOTED = re.compile(
    r"^(?:[-*•]\s*)?(?P<key>(?-i:[A-Za-z][a-z-]+(?:\s+[a-z-]+)?))\s*(?:=|:)\s*"
    r"(?P<value>(?!(?:I|We|The|It|This|That|My|Our|He|She|They|You|Yes|No|Not|Ok|Okay|So|And|But|If)\b)"
    r"(?-i:[A-Z0-9])[\w'’.£$€-]*(?:\s+(?-i:[A-Z0-9])[\w'’.£$€-]*){0,3})(?=\s*(?:[,;.!]|$))",
    re.I,
)
# What heads a note rather than names the user's own: "Problem: York entry …", "update: head barista at Bonanza"
_NOT_OWN = frozenset(
    word_list(
        "problem problems issue issues question questions q a update updates edit note notes ps pps next last also re "
        "fyi tldr context constraints options option food sorry thanks btw result results summary example eg answer "
        "reason news bonus warning spoiler source quote me i we us you he she they it this that my mine day week wk "
        "today tonight yesterday tomorrow morning evening step part round name current new old now then total status"
    )
)


# What a note may open with capitalised as a line's first word, rather than a name ("Gareth: ITB" is the physio's
# word, not the user's "gareth")
_NOTED_ALONE = frozenset(
    word_list(
        "car phone laptop job work school budget rent salary team gym diet race goal target editor os bike van "
        "doctor gp physio dentist coach vet"
    )
)


def _noted(match: re.Match[str]) -> str:
    key = match.group("key").lower()
    named = match.group("key")[0].isupper() and " " not in key and key not in _NOTED_ALONE | PEOPLE | PETS
    if named or set(key.split()) & _NOT_OWN:
        return match.group()
    are = "are" if re.search(r"[^s]s$", key) else "is"  # "Shows: Puebla May 5, …": the user's shows are
    return f"my {key} {are} {match.group('value')}"


# A list of who the user is, under a heading that says so: "Context:\n- Priya, 34\n- Sheffield"
_ABOUT_ME = re.compile(
    r"(?:^|\n|[.!?]\s+)(?:(?:some|quick|a bit of|a little|my|brief)\s+)?"
    r"(?:context|about me|background|bio|info|details|profile|who i am)\s*:\s*\n"
    r"(?P<lines>(?:[ \t]*[-*•][^\n]*(?:\n|$))+)",
    re.I,
)


def about_the_user(text: str) -> list[str]:
    """The first line of a list about the user, read as a message's opening is ("Priya, 34" introduces her; the
    lines after it are read as any others)."""
    if "\n" not in text:
        return []
    return [m.group("lines").splitlines()[0].strip(" \t-*•") for m in _ABOUT_ME.finditer(text)]
