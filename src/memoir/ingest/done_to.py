"""What someone else did to the user or to the user's plans, said of the user (`plain.plain_clause`).

"they moved my dentist appointment to Thursday" is "my dentist appointment got moved to Thursday"; "they made
me team lead" is "I became team lead", "Walker Books signed me for a 3-book series" is "I got signed by Walker
Books for a 3-book series"; "work has agreed to let me go part-time" is "I am going part-time".
"""

from __future__ import annotations

import re

from memoir.ingest.lexicon import EVENTS, MEDICATIONS
from memoir.ingest.workplaces import names_a_job

__all__ = ["done_to_me", "done_to_plans", "prescribed", "put_on_instead", "stopped_taking", "taken_off"]

_DONE_TO_PLANS = re.compile(
    r"^(?:they|someone|the \w+|(?-i:[A-Z])[\w'’-]+)\s+(?:have\s+|has\s+)?"
    r"(?P<verb>moved|pushed|postponed|rescheduled|bumped|brought)(?P<how>\s+(?:back|forward|up))?\s+"
    r"(?P<whose>my|our|the)\s+(?P<what>[\w-]+(?:\s+(?!back\b|forward\b|up\b)[\w-]+)?)(?P<how2>\s+(?:back|forward|up))?"
    r"\s+(?P<to>to|till|until)\s+(?P<rest>.+)$",
    re.I,
)


def done_to_plans(text: str) -> str:
    """ "they moved my dentist appointment to Thursday the 11th" -> "my dentist appointment got moved to …"."""
    match = _DONE_TO_PLANS.match(text)
    if match is None:
        return text
    whose = match.group("whose")
    if whose.lower() == "the":  # "UWC postponed the graduation to September": the user's event, not any thing
        if match.group("what").split()[-1].lower() not in EVENTS:
            return text
        whose = "my"
    how = match.group("how") or match.group("how2") or ""
    return (
        f"{whose} {match.group('what')} got {match.group('verb').lower()}{how} "
        f"{match.group('to')} {match.group('rest')}"
    )


# What someone did to the user, said of the user: "they made me team lead", "Walker Books signed me for …".
_DONE_TO_ME = re.compile(
    # (a name's words and the auxiliaries apart and bounded: "Has Has Has …" was either, every split tried)
    r"^(?P<who>they|someone|(?:the|my|our)\s+[\w-]+|(?-i:[A-Z])[\w'’&-]+"
    r"(?:\s+(?:&\s+)?(?!(?:have|has|just|finally|officially)\b)(?-i:[A-Z])[\w'’&-]+){0,5}"
    r"(?:\s+in\s+(?-i:[A-Z])[\w'’-]+)?)\s+"  # "Morrow & Pike in Nottingham offered me …"
    r"(?:have\s+|has\s+|just\s+|finally\s+|officially\s+){0,4}"
    r"(?P<verb>made|promoted|hired|signed|appointed|offered|took on|taken on|elected|accepted|admitted)\s+me\s+"
    r"(?P<rest>\S.*)$",
    re.I,
)
_MEDICINE = "|".join(MEDICATIONS.split())
# Who prescribes, or changes what the user takes
_PRESCRIBER = r"doc|doctor|gp|consultant|specialist|psychiatrist|cardiologist|endo|endocrinologist|nurse|pharmacist"
# A medicine changed by whoever prescribes it: "the doc took me off the old pill last week and put me on Jardiance
# instead", "my GP switched me to sertraline"
_MEDICATED = re.compile(
    rf"^(?:(?:the|my|our)\s+(?:{_PRESCRIBER})|they|he|she)\s+(?:(?:has|have|just|finally)\s+)*"
    r"(?:took\s+me\s+off\s+(?P<old>[^,]+?)(?:\s+(?:last\s+\w+|yesterday|today|this\s+\w+))?,?\s+and\s+)?"
    # a medicine known by its name, or one put on ("put me on Jardiance"); not "moved me to Room 4", "Ward B"
    rf"(?:(?:switched|moved|put|started|changed)\s+me\s+(?:on|onto|to|over\s+to)\s+(?P<new>{_MEDICINE})\b|"
    r"(?:put|started)\s+me\s+on\s+(?P<named>(?-i:[A-Z])[a-z][\w-]+)(?!\s+\w*\d))"
    r"(?:\s+instead)?\b",
    re.I,
)
# "made me" a role, not a feeling ("made me cry", "made me so happy")
_MADE_ROLE = re.compile(
    r"^(?:(?:a|an|the|their|our|my)\s+)?(?:[\w-]+\s+){0,2}(?:lead|head|captain|chair|chairperson|partner|director|"
    r"manager|supervisor|owner|editor|president|treasurer|secretary|coordinator|principal|chief|officer|"
    r"ambassador|foreman)\b",
    re.I,
)
_OFFERED_ROLE = re.compile(
    r"^(?:a|an|the)\s+(?:[\w-]+\s+){0,2}(?:job|role|position|post|place|spot|scholarship|contract|promotion|"
    r"partnership|internship|apprenticeship|residency|fellowship|postdoc|deal|offer)\b",
    re.I,
)
# A title's words that make it a role: "Head of Design", "Team Lead", "CTO"
_A_ROLE_TITLE = re.compile(
    r"\b(?:Lead|Director|Manager|Officer|Engineer|Partner|Editor|Head|Designer|Developer|Analyst|Consultant|"
    r"Surveyor|CEO|CTO|CFO|COO|CIO|CMO|CPO|VP|SVP|EVP|QS|PM|GM|MD|SRE|SWE|EA|PA)$|^Head of\b"
)
# A role by its title
_TITLE_OFFERED = re.compile(r"^(?-i:[A-Z])[\w-]*(?:\s+(?:of\s+)?(?-i:[A-Z])[\w-]*){0,3}(?=,|\s*$)")
_OFFERED = re.compile(r"^(?P<what>(?:a|an|the)\s+[^,]+?)(?P<tail>(?:\s+(?:for|at|to|as|in|on)\b|,).*)?$")
_PASSIVE = {
    "made": "became",
    "promoted": "got promoted",
    "hired": "got hired",
    "signed": "got signed",
    "appointed": "got appointed",
    "offered": "got offered",
    "took on": "got taken on",
    "taken on": "got taken on",
    "elected": "got elected",
    "accepted": "got accepted",
    "admitted": "got admitted",
}


# "Work has agreed to let me go part-time": the user goes part-time
_LET_ME_GO = re.compile(
    r"^(?:[\w'’-]+\s+){1,3}?(?:has\s+|have\s+|will\s+|finally\s+|agreed\s+to\s+)*let\s+me\s+go\s+"
    r"(?P<how>(?:part|full)[- ]time\b.*)$",
    re.I,
)


# "my boss wont let me go part-time", "hoping they let me": not let
_NOT_LET = re.compile(
    r"\b(?:not|never|won'?t|wont|didn'?t|didnt|don'?t|dont|doesn'?t|refused?|hop(?:e|ing)|might|may|maybe|if|would|"
    r"could|should|asked|ask)\b|n't\b",
    re.I,
)


def done_to_me(text: str) -> str:
    """ "they made me team lead for Atlas" -> "I became team lead for Atlas"; "Walker Books signed me for a
    3-book series" -> "I got signed by Walker Books for a 3-book series"; "work let me go part-time" -> "I am
    going part-time"."""
    if (let_go := _LET_ME_GO.match(text)) and not _NOT_LET.search(text[: let_go.start("how")]):
        return f"I am going {let_go.group('how')}"
    if medicated := _MEDICATED.match(text):  # "the doc took me off the old pill and put me on Jardiance instead"
        new = medicated.group("new") or medicated.group("named")
        old = medicated.group("old")
        return f"I switched from {old} to {new}" if old else f"I am on {new} now"
    match = _DONE_TO_ME.match(text)
    if match is None:
        return text
    verb, rest, who = match.group("verb").lower(), match.group("rest"), match.group("who")
    first = who.split()[0].lower()
    # "Morrow & Pike offered me Senior QS, £50k": a role by its title, offered by an employer by name
    titled = _TITLE_OFFERED.match(rest) if verb == "offered" and who[:1].isupper() and first != "they" else None
    if titled and not (names_a_job(titled.group(0).split()[-1].lower()) or _A_ROLE_TITLE.search(titled.group(0))):
        titled = None  # "Spotify offered me Premium", "Mum offered me Christmas": no role
    if (verb == "made" and not _MADE_ROLE.match(rest)) or (
        verb == "offered" and not _OFFERED_ROLE.search(rest) and titled is None
    ):
        return text  # "my mum made me dinner", "they offered me coffee"
    by = (
        f" by {who}" if first in ("my", "our") or (who[0].isupper() and first not in ("they", "someone", "the")) else ""
    )
    if verb == "made":
        return f"I became {rest}"
    if titled is not None and not _OFFERED_ROLE.search(rest):  # "I got offered Senior QS by Morrow & Pike, £50k"
        return f"I got offered {titled.group(0)}{by}{rest[titled.end() :]}"
    offered = _OFFERED.match(rest) if by and verb == "offered" else None
    if offered:  # "Google offered me a job in Zurich": what was offered first, then by whom
        return f"I {_PASSIVE[verb]} {offered.group('what')}{by}{offered.group('tail') or ''}"
    return f"I {_PASSIVE[verb]}{by} {rest}"


# A medicine stopped by whoever prescribes it, said alone: "the doctor took me off the old pill"
# ("she has taken me off the warfarin": a prescriber said before, a medicine named)
_TOOK_OFF = re.compile(
    rf"\b(?:(?:the|my|our)\s+(?:{_PRESCRIBER})|he|she|they)\s+(?:(?:has|have|had|just|finally)\s+)*(?:took|taken)\s+"
    r"me\s+off\s+(?P<old>(?:the|my)\s+(?:old\s+|current\s+)?(?:pills?|meds|medications?|medicines?|tablets?)|"
    rf"(?:(?:the|my)\s+)?(?:{_MEDICINE}))(?=\s*(?:[,.;!]|$))",
    re.I,
)


_NOT_DONE = re.compile(
    r"\b(?:hope|hopefully|wish|if|maybe|might|should|whether|asked|not sure|don't think|do not think|doubt)\b", re.I
)
# Off only for a while: "… just for the surgery", "… only for a week"
_A_WHILE = (
    r"(?:(?:just|only)\s+for\b|for\s+(?:a|one|two|three|the)\s+(?:few\s+)?(?:days?|weeks?|months?|surgery|"
    r"operation|procedure)\b)"
)
# in the clause after it, or put back on
_UNDONE = re.compile(rf"\bput\s+me\s+back\s+on\b|\b{_A_WHILE}", re.I)
# in the sentence, right after the medicine stopped (not "…, I'd been on it for two months")
_FOR_A_WHILE = re.compile(rf"[\s,]*{_A_WHILE}", re.I)


def taken_off(clause: str, sentence: str = "") -> str | None:
    """ "the doctor took me off the old pill" -> "I stopped taking my pills": what the user no longer takes, by the
    words a known medicine is named by as well (`fact_words.with_aliases`); None: no medicine was stopped."""
    off = _TOOK_OFF.search(clause)
    if off is None or _NOT_DONE.search(clause[: off.start()]) or _UNDONE.search(clause, off.end()):
        return None  # "I hope she has taken me off the warfarin", "… then put me back on it"
    after = sentence.lower().split(off.group("old").lower(), 1)[-1] if sentence else ""
    if _FOR_A_WHILE.match(after):
        return None  # its sentence says for how long: "she took me off warfarin, just for the surgery"
    old = re.sub(r"^(?:the|my)\s+", "", off.group("old"), flags=re.I)
    return f"I stopped taking {old if old.lower() in _MEDICINES else 'my pills'}"


_A_MEDICINE = re.compile(rf"\b(?:{_MEDICINE})\b", re.I)
_MEDICINES = frozenset(MEDICATIONS.split())


def stopped_taking(dropped: str | None, known: str) -> str | None:
    """ "The user stopped taking their pills" of a fact naming one medicine: that medicine ("… taking metformin")."""
    medicine = _A_MEDICINE.search(known) if dropped and dropped.endswith("taking their pills") else None
    return dropped.removesuffix("their pills") + medicine.group() if dropped and medicine else dropped


def put_on_instead(message: str) -> str | None:
    """The medicine a message names after a prescriber took the user off another, as the user's: "the doctor took me
    off the old pill. He says the Jardiance works better" -> "The user takes Jardiance" (None: none)."""
    off = _TOOK_OFF.search(message)
    new = _A_MEDICINE.search(message, off.end()) if off else None
    if new is None:
        return None
    start = max(message.rfind(mark, 0, new.start()) for mark in ".!?;")  # its sentence, to the medicine
    said = message[start + 1 : new.start()]
    if not _PRESCRIBED.search(said) or _NOT_THE_USERS.search(said + message[new.end() : new.end() + 40]):
        return None  # "He didn't want me on insulin either", "Should I ask about Jardiance?", "Mum's still on …"
    return f"The user takes {new.group()[0].upper()}{new.group()[1:]}"


# What makes the medicine named after the old one the user's new one: the prescriber's word for it, or "on"
_PRESCRIBED = re.compile(
    r"(?:^|\s)(?:(?:he|she|they|the doc\w*)\s+(?:says|said|thinks|reckons)\s+(?:that\s+)?the|"
    r"(?:put|started|switched)\s+me\s+(?:on|to)|(?:i'm|i am)\s+(?:now\s+)?on)\s*$",
    re.I,
)
_NOT_THE_USERS = re.compile(
    r"\b(?:not|no|n't|never|either|if|maybe|should|could|would|might|ask|asked|try|about|my \w+|\w+'s|still)\b|\?",
    re.I,
)


# A medicine a prescriber added beside what else they did: "the doctor increased the metformin to 1000 mg and added
# Jardiance, one tablet in the morning"
_ADDED = re.compile(
    rf"(?:^|(?<=[:;]\s))(?P<said>(?:the|my|our)\s+(?:{_PRESCRIBER})\b[^.;!?]*?)\s+and\s+(?:also\s+)?added\s+"
    rf"(?P<new>(?:{_MEDICINE})\b|(?-i:[A-Z])[a-z][\w-]+)(?P<rest>[^.;!?]*)",
    re.I,
)


def prescribed(sentence: str) -> str:
    """A sentence whose prescriber added a medicine, the medicine a statement of the user's own: "… and added
    Jardiance, one tablet in the morning" -> "…; I also take Jardiance, one tablet in the morning"."""
    return _ADDED.sub(lambda m: f"{m.group('said')}; I also take {m.group('new')}{m.group('rest')}", sentence)
