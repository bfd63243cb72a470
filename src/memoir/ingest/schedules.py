"""A habit said as its schedule, without a verb: "spin class every Tuesday morning before work", "Ava ballet Sat
9am", "Ollie swimming Tues 5pm at the leisure centre" (`schedule`, a reader: `readers` describes one).

What is done is one of the things people do on a weekly schedule (a class, a lesson, a sport, a
shift, choir); when is a weekday, "every …", or "daily", right after it. The user's, when no name
opens it; a name's, when the name is the user's business (a known fact names it, or the message
did before).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memoir.ingest.lexicon import PEOPLE, word_list

if TYPE_CHECKING:
    from memoir.ingest.referents import Context

__all__ = ["schedule"]

_ACTIVITIES = frozenset(
    word_list(
        "class classes lesson lessons practice training rehearsal rehearsals club swimming swim ballet football "
        "soccer rugby cricket hockey netball basketball tennis yoga pilates gym choir karate judo taekwondo dance "
        "dancing gymnastics tutoring tuition therapy physio spin climbing running parkrun scouts cubs brownies "
        "guides"
    )
)
_DAY = (
    r"(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day)?s?"
    r"|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?|weekends?|weekdays?"
)
_WHEN = rf"(?:every\s+(?:{_DAY}|day|morning|evening|night|week)|on\s+(?:{_DAY})|{_DAY}|daily|weekly|twice a week)"
# A verb or a word that is no activity's name: "need post-op physio twice a week" is a need, no habit
_NOT_WHAT = (
    r"(?:need|needs|want|wants|have|has|had|got|get|do|does|did|go|goes|went|doing|going|no|not|my|our|the|a|an|to|"
    r"at|for|i|we|missed|skipped|cancelled|canceled|hate|hates|love|loves)"
)
# What may follow the day, and nothing else: its time ("5pm", "at 6:30", "morning"), where ("at the leisure
# centre"), before or after work; not "… would be nice", "… was great when I was a kid", "… for both boys", a question
_AT = (
    r"(?:\s+(?:at\s+|from\s+)?\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm)?(?:\s?-\s?\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm)?)?"
    r"|\s+(?:morning|afternoon|evening|night)s?)"
)
# A label that makes what follows the user's own: "So: spin class …", "me: …", "my week: …"
_MY_LABEL = re.compile(r"^(?:so|ok|okay|context|me|mine|my (?:week|weeks|schedule|routine|plan|timetable|days))$", re.I)
_SCHEDULE = re.compile(
    rf"^(?:(?P<name>(?-i:[A-Z])[a-z][\w'-]*)\s+)?(?P<what>(?!{_NOT_WHAT}\b)(?:[a-z][\w-]*\s+){{0,2}}?(?P<last>[a-z][\w-]*))\s+"
    rf"(?P<when>{_WHEN})\b{_AT}*(?:\s+(?:at|in)\s+the\s+[a-z]+(?:\s+[a-z]+){{0,2}}"
    r"|\s+(?:before|after)\s+(?:work|school|uni|college))?$",
    re.I,
)


def schedule(clause: str, context: Context) -> list[str] | None:
    """ "spin class every Tuesday morning": the user has it then; "Ava ballet Sat 9am": Ava, if she is theirs.
    Several said one after the other between commas are each read ("Ollie swimming Tues 5pm, Ava ballet Sat")."""
    if "?" in context.said:  # "Swimming lessons every saturday: is that too much for a 4yo?": asked about
        return None
    label = re.match(r"^\s*(?P<l>[^:–—-]{1,40}?)\s*(?::|\s[-–—])\s", context.said)
    if label and not _MY_LABEL.match(label.group("l").strip()):
        return None  # "My wife: spin class every Tuesday", "At the gym: …": someone else's, or a timetable
    parts = re.split(r",\s+", clause.strip().rstrip("."))
    first = _one(parts[0], context)
    if first is None:
        return None
    return [*first, *(fact for part in parts[1:] for fact in _one(part, context) or ())]


def _one(part: str, context: Context) -> list[str] | None:
    match = _SCHEDULE.match(part)
    if match is None or match.group("last").lower() not in _ACTIVITIES:
        return None
    if any(w.lower() in PEOPLE or w.lower() in context.known for w in match.group("what").split()):
        return None  # "kids swimming on saturdays", "leo football every saturday": theirs, read no further
    what, said = match.group("what").lower(), part[match.start("when") :]
    name = match.group("name")
    if name is None or name.lower() in _ACTIVITIES:  # "Spin class every Tuesday": the first word, capitalized
        if context.after_someone or context.person is not None:
            return None  # "My wife is so busy. Spin class every Tuesday morning": hers
        return [f"The user has {f'{name.lower()} ' if name else ''}{what} {said}"]
    if name.lower() in context.known or name.lower() in context.named:
        return [f"{name} has {what} {said}"]
    return None
