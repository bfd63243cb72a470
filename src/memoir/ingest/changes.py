"""What a message says changed (seed 004, 4.3): the readings the rules' reconciliation
(`rule_decisions`) works from.

People say a fact changed in many ways, and each way names the old fact differently:

- by its old value: "we moved the team offsite from Porto to Lisbon", "the wedding is in
  Seville, not Malaga", "I'm not doing Berlin", "Ravi is planning it now, not Elena";
- by taking it back: "I don't work as a carpenter anymore", "we sold the Volvo", "no more
  Friday nights", "I no longer go on Thursdays", "I used to live in halls";
- by its new value alone, after a verb of change: "the exam got moved to 10 March", "we
  cut the guest list to 60", "I'm down to nine students";
- by saying the same thing anew on a topic that holds one value: "I live in Rotterdam now"
  (`topics`).

Each sentence of a message is read for the facts it states and for each of these
(`Reading`): the old values it names, the pairs of "from A to B", the clauses that take
something back, the new values, and whether a verb of change or an announcement ("change
of plan", "instead") says that what follows replaces something.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from memoir.ingest.casing import cased
from memoir.ingest.counts import counted_left
from memoir.ingest.cues import CHANGE_VERB, NO_MORE, days_freed, is_retraction, job_ends
from memoir.ingest.done_to import put_on_instead, taken_off
from memoir.ingest.in_passing import joined_in_passing, named_in_passing
from memoir.ingest.lexicon import PEOPLE
from memoir.ingest.losses import says_gone
from memoir.ingest.plain import plain_sentence
from memoir.ingest.referents import named_by_age
from memoir.ingest.rules import Statement, read_sentences, within_reach
from memoir.ingest.sentences import clauses
from memoir.ingest.values import NUMBER_WORDS, Value, values

__all__ = ["Reading", "read"]

_PROPER = r"(?-i:[A-Z0-9])[\w:'’.-]*(?:\s+(?-i:[A-Z])[\w'’-]*)*"
# "32 parks not 24", "16h not 15h", "7 yrs not 6": a number with its unit, then the one it replaces
_COUNTED = r"(?<![\w.,])\d[\d.,:]*(?:[a-z]{1,4}\b|(?:\s+[a-z]{2,12}){1,2})"
_FROM_TO = re.compile(
    # what a value changed from is a few words, no clause: not "from dubai sent me money so i can go up to 45k"
    r"\bfrom\s+(?:the\s+|a\s+|an\s+)?(?P<a>(?:(?!\b(?:i|me|we|you|so|and|up|down)\b)[^,;]){1,40}?)"
    r"\s+(?:to|until|till)\s+(?:the\s+|a\s+|an\s+)?(?P<b>[^,;]+?)"
    r"(?=\s*(?:[,;!]|\.(?!\d)|$)|\s+(?:because|since|as|and|but|so|after|when|now)\b"
    # when it changed is not what it changed to: "from VS Code to Neovim last week", "from Chicago to Brooklyn in
    # August"
    r"|\s+(?:(?:last|this)\s+(?:week|weekend|month|year|night|\w+day)|yesterday|today|recently|\w+\s+\w+\s+ago|"
    r"(?:in|by|from)\s+(?:early\s+|mid\s+|late\s+)?(?:January|February|March|April|May|June|July|August|September|"
    r"October|November|December))\b)",
    re.IGNORECASE,
)
# "he now wants a lemon cake, not chocolate": in a change, the last word of the sentence ruled out
_NOT_AT_THE_END = re.compile(
    r",\s*(?:and\s+|but\s+)?not\s+(?:the\s+|a\s+|an\s+)?"
    r"(?P<a>(?!(?:bad|good|great|sure|really|much|quite|yet|anymore|always|necessarily|exactly|only|ideal|perfect|"
    r"cheap|easy|fun|so|too|that|this|it|me|us)\b)[a-z][\w-]{2,})\s*$",
    re.I,
)
_NOW_BEFORE = re.compile(r"\b(?:now|instead|anymore|these days)\b", re.I)
# "…, not Elena", "but not in Porto", "October 10th not the 3rd" (a date, then the one it replaces)
_NOT = re.compile(
    rf"(?:(?<=,)|^|\bbut\b|\band\b|(?<=\d)|(?<=\dst)|(?<=\dnd)|(?<=\drd)|(?<=\dth)|{_COUNTED})\s*not\s+"
    rf"(?:in\s+|at\s+|on\s+|the\s+)?(?P<a>[$€£₹]?{_PROPER})",  # "aim for $850, not $800"
    re.I,
)
_INSTEAD = re.compile(
    rf"\b(?:instead of|rather than)\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?(?P<a>{_PROPER}|[a-z][\w-]+)"
    # "I'm not doing Berlin", not "I'm not scrapping the Lisbon plan" (kept)
    rf"|\bnot (?!(?:scrapp|cancell|dropp|abandon|ditch|kill|chang|shelv|bin)\w*ing\b)\w+ing\s+(?:the\s+|a\s+)?"
    rf"(?P<b>{_PROPER})",
    re.I,
)
_ANNOUNCED = re.compile(
    r"\b(?:instead|change|changes|switch|swap|from now on|these days|nowadays|anymore|correction|"
    r"new (?:job|firm|company|employer|role|position|workplace)|"  # "I have joined a new firm, Varghese & Co"
    r"(?:go|goes|going|went|gone)\s+(?:part|full)[- ]time)\b",  # "I'm going part-time": from full-time
    re.I,
)
# "i quit soccer": a fact of its own ("The user quit soccer", `rules`) that also ends what was said of soccer
_QUIT = re.compile(r"\b(?:quit|quitting)\s+(?!(?:my|the|our|his|her|their|a|an|it|this|that)\b)[a-z]", re.I)
# "Sharon reckons the woolshed's too rough so we've booked the clubrooms": in a change, what is ruled out
_RULED_OUT = re.compile(
    r"\b(?:the\s+|our\s+|my\s+)(?P<x>[a-z][\w-]{2,20}(?:\s+[a-z][\w-]{2,20})?)"
    r"(?:'s|’s|\s+is|\s+was|\s+were|\s+are|\s+got)\s+(?:too\s+\w+|fully booked|booked up|not available|unavailable|"
    r"closed|full|(?:too\s+)?(?:expensive|crazy|pricey|small|rough|far|noisy|cold|damp))\b",
    re.I,
)
# "switched to sova, jett is too hard for me": beside a switch, the thing switched from by its name alone (not one
# whose "his" or "her" follows: "max is too big for his crate, we switched to a bed" is the dog's)
_NAME_RULED_OUT = re.compile(
    # (or why: "we moved to Foundry VTT, I bought the license because Roll20 was so slow")
    r"(?:^|[,;]\s*|\b(?:because|since|cause|cuz|bc)\s+)(?P<x>(?!(?:it|this|that|he|she|they|we|you|i|everything|"
    r"nothing|something|which|what|there|here|life|work|school|traffic|rent|money|time)\b)[\w-]{3,})"
    r"(?:'s|’s|\s+is|\s+was)\s+(?:too|so|way too)\s+\w+"
    r"(?!.*\b(?:his|her|him|she|he)\b)",
    re.I,
)
# "the barn only seats 130 so that's out": the thing before it is ruled out (found after the phrase, each once)
# "the barn only seats 130 so that's out. We've booked Hazelwood Hall instead": a thing ruled out by what it cannot do
# for the user, where the message says what replaces it (not "the gym is closed today so that's out", "The car only
# seats four so that's out for the road trip", "If the barn only seats 130 so that's out")
_THATS_OUT = re.compile(r"\bso\s+(?:that's|that is|it's|it is)\s+(?:out|off the table|a no-go)\b(?!\s+for\b)", re.I)
_RULED_THING = re.compile(
    r"\bthe\s+(?:[a-z][\w-]+\s+)?(?P<x>(?!(?:only|just|is|was)\b)[a-z][\w-]{2,20})\s+"
    r"(?:(?:only|just)\s+(?:seats|holds|fits|takes|sleeps)|(?:can't|cannot|won't|doesn't)\s+(?:seat|hold|fit|take)|"
    r"costs|(?:is|was)\s+(?:too|fully booked|booked up|way over))\b",
    re.I,
)
_REPLACED = re.compile(r"\b(?:instead|booked|went with|going with|chose|picked|switched|found)\b", re.I)


def _ruled_out(text: str, message: str) -> str | None:
    """The thing a sentence rules out by what it cannot do (`_THATS_OUT`), each pattern tried once."""
    out = _THATS_OUT.search(text)
    if out is None or re.match(r"^(?:if|what if|even if)\b", text, re.I) or "?" in text:
        return None
    thing = _RULED_THING.search(text, 0, out.start())
    return thing.group("x") if thing and _REPLACED.search(message) else None


# "scratch Mia, she's too young for the trip": someone or something left out of a plan, said of them after a comma
# (and a thing returned that is being fixed: "I returned the iPhone to the store, they're fixing it")
_LEFT_OUT = re.compile(r"\bscratch\s+[\w'-]+\s*,|,\s+they(?:'re|\s+are)\s+(?:fixing|repairing|replacing)\b", re.I)
_SWAPPED = re.compile(
    r"\b(?:new one|another one|a replacement|swapped|exchanged|for a new|(?:better|bigger|smaller|different|newer) one|"
    r"rented (?:a|another))\b",
    re.I,
)
_SCRATCHED_OR_RETURNED = re.compile(r"\b(?:scratch|returned|sent back|took back|taken back)\b", re.I)
_SWITCHED_TO = re.compile(r"\b(?:switch(?:ed|ing)?|moved|moving|changed|changing)\s+(?:over\s+)?to\s+\w", re.I)
# "asked me to change my days, so from next week I'm Tuesday to Thursday": the days the user works
SCHEDULE_CHANGED = re.compile(
    r"\b(?:chang\w*|swap\w*|switch\w*|mov\w*)\s+(?:my|our|the)\s+(?:working\s+)?(?:days|hours|schedule|rota|shifts)\b",
    re.I,
)
_TO_VALUE = re.compile(r"\b(?:down|up|back|over)\s+to\b|\bnow\b", re.I)
# "Smaller too, like 90 people": a size compared, and a number, is a count changed.
_SIZE_WORD = re.compile(r"\b(?:smaller|bigger|larger|fewer)\b", re.I)
_A_NUMBER = re.compile(r"\b(?:\d+|" + "|".join(NUMBER_WORDS) + r")\b", re.I)  # "smaller, five engineers"


def _resized(text: str) -> bool:
    """A size compared and a number, in either order (each looked for once: "1.1.1.…" is no quadratic scan)."""
    return _SIZE_WORD.search(text) is not None and _A_NUMBER.search(text) is not None


@dataclass(frozen=True)
class Reading:
    """One sentence of a user's message: the facts it states and what it says no longer holds."""

    text: str
    statements: tuple[Statement, ...]
    changing: bool = False  # a change is announced, or a fact taken back
    old: tuple[str, ...] = ()  # values it names as no longer holding: "Porto", "Malaga", "Elena"
    pairs: tuple[tuple[str, str], ...] = ()  # ("Porto", "Lisbon") from "from Porto to Lisbon"
    retracted: tuple[str, ...] = ()  # the clauses that take something back
    new: tuple[Value, ...] = ()  # the values it gives (besides the old ones)
    moved: bool = False  # a verb of change ("moved to", "cut to", "down to"): a new value stands for an old one
    announced: bool = False  # "change of plan", "instead", "a supervisor change": what follows replaces something
    message: str = ""  # the whole message: what "so only 22 now" is about
    gone: bool = False  # someone of the user's is gone: a pet lost, a break-up, an associate who left (`losses`)


def read(
    text: str, known: Collection[str] = (), before: str = "", names: Collection[str] = (), facts: Iterable[str] = ()
) -> list[Reading]:
    """Every statement sentence of a message, read for its facts and its changes (`before`: the user's
    message before it, whom its pronouns may stand for; `names`: the known facts' names, which a message
    typed in lower case is given its capitals back by, `casing`; `facts`: the live facts' texts, whose ages
    may say whom a pronoun stands for, `referents.named_by_age`, and whose counts what a bare count counts,
    `counts.counted_left`)."""
    text, before = cased(within_reach(text), names), cased(within_reach(before), names)
    # each reads the facts only where its own words are said: most messages need neither
    by_age, by_count = itertools.tee(facts)
    text = counted_left(named_by_age(text, before, by_age), by_count)
    sentences = read_sentences(text, known, before)
    readings = [_reading(sentence.text, found, sentence.change, text) for sentence, found in sentences]
    passing = named_in_passing(text, sentences)  # "something my son-in-law Mark could build?": no change
    joined = [Reading(s.clause, (s,), message=text) for s in joined_in_passing(text)]
    readings = _named_with_ages(_without_ages_at_the_end(readings))
    # "the doctor took me off the old pill. He says the Jardiance works better": unless a statement says it already
    put_on = put_on_instead(text)
    if put_on and not any(put_on.split()[-1] in s.text for r in readings for s in r.statements):
        readings.append(Reading(put_on, (Statement(put_on, clause=put_on),), message=text))
    return joined + readings + [Reading(s.clause, (s,), message=text) for s in passing]


_PAST_AGE = re.compile(r"^(?P<name>(?-i:[A-Z])[\w'-]+) was (?:\d{1,3}|[a-z]+teen)(?: years?(?: old)?)?$", re.I)


def _without_ages_at_the_end(readings: list[Reading]) -> list[Reading]:
    """ "Had to put Duke down yesterday. He was 14.": the age of one the message says is gone is part of the loss,
    no fact of its own kept beside it (it would keep the one gone among the living)."""
    gone = {
        word
        for r in readings
        if r.gone
        for s in r.statements
        if says_gone(s.clause or s.text)  # "We had to put Max down and Bella was 9": Max is gone, not Bella
        for word in re.findall(r"\b[A-Z][\w'-]+", s.text)
    }
    if not gone:
        return readings
    return [replace(r, statements=tuple(s for s in r.statements if not _aged_gone(s.text, gone))) for r in readings]


_NAMING = re.compile(r"^the user's (?P<rel>[\w-]+) is (?P<name>(?-i:[A-Z])[\w'’-]+)$", re.I)
_AGED = re.compile(r"^(?P<name>(?-i:[A-Z])[\w'’-]+) is (?P<age>\d{1,2})(?: years old)?$")


def _named_with_ages(readings: list[Reading]) -> list[Reading]:
    """ "Son's name is Lwazi, he's 12": one fact, "The user's son Lwazi is 12", not who he is and his age apart (the
    age alone does not say whose, and it is how an age said in brackets is kept: `rules._with_ages`)."""
    said = [s.text for r in readings for s in r.statements]
    ages = {m.group("name"): m.group("age") for text in said if (m := _AGED.match(text))}
    named = {m.group("name"): m.group("rel") for text in said if (m := _NAMING.match(text))}
    both = {name for name in ages if name in named and named[name].lower() in PEOPLE}
    if not both:
        return readings

    def merged(statement: Statement) -> Statement | None:
        if (aged := _AGED.match(statement.text)) and aged.group("name") in both:
            return None
        if (naming := _NAMING.match(statement.text)) and (name := naming.group("name")) in both:
            return replace(statement, text=f"The user's {naming.group('rel')} {name} is {ages[name]}")
        return statement

    return [replace(r, statements=tuple(k for s in r.statements if (k := merged(s)) is not None)) for r in readings]


def _aged_gone(text: str, gone: set[str]) -> bool:
    aged = _PAST_AGE.match(text)
    return aged is not None and aged.group("name") in gone


def _value_at(match: re.Match[str], text: str) -> str:
    """What "not …" names: the value said there ("15" of "not 15h", "6" of "not 6 I started"), else its words."""
    at = match.start("a") + (1 if match.group("a")[:1] in "$€£₹" else 0)  # "not $50k": the number
    return next((v.text for v in values(text) if v.start == at), match.group("a").strip())


def _reading(text: str, found: Sequence[Statement], announced: bool, message: str = "") -> Reading:
    moved = _resized(text) or any(p.search(text) is not None for p in (CHANGE_VERB, _TO_VALUE, SCHEDULE_CHANGED))
    pairs = tuple((m.group("a"), m.group("b")) for m in _FROM_TO.finditer(text)) if moved else ()
    old = {a.strip() for a, _ in pairs}
    old |= {_value_at(m, text) for m in _NOT.finditer(text)} | {
        (m.group("a") or m.group("b")).strip() for m in _INSTEAD.finditer(text)
    }
    announced = announced or _ANNOUNCED.search(text) is not None or CHANGE_VERB.search(text) is not None
    last = _NOT_AT_THE_END.search(text) if announced or moved else None
    if last and _NOW_BEFORE.search(text, 0, last.start()):  # "now wants a lemon cake, not chocolate"; not "rent is
        old.add(last.group("a"))  # high, not cheap", said beside a move
    if (thing := _ruled_out(text, message or text)) is not None:
        old.add(thing)
    if announced:  # "… the woolshed's too rough so we've booked the clubrooms": the woolshed is no more
        old |= {m.group("x").strip() for m in _RULED_OUT.finditer(text)}
    if announced and _SWITCHED_TO.search(text):  # "i switched to sova, jett is too hard": what it was switched from
        old |= {m.group("x").strip() for m in _NAME_RULED_OUT.finditer(text)}
    parts = [taken_off(p, text) or p for c in clauses(plain_sentence(text)) for p in re.split(r",\s+", c)]
    left_out = _LEFT_OUT.search(text) is not None  # once a sentence, not once a part
    swapped = _SWAPPED.search(text) is not None  # "I returned the rental car, they gave me a new one"
    retracted = tuple(
        p
        for p in parts
        if (is_retraction(p) and not ((left_out or swapped) and _SCRATCHED_OR_RETURNED.search(p)))
        or (announced and NO_MORE.match(p))
        or _QUIT.search(p)
    )
    olds = {o.lower() for o in old} | {v.text.lower() for clause in retracted for v in values(clause)}
    new = tuple(v for v in values(text) if v.text.lower() not in olds)
    gone = says_gone(text)
    changing = announced or moved or bool(old) or bool(retracted) or gone or job_ends(text) or bool(days_freed(text))
    return Reading(
        text, tuple(found), changing, tuple(sorted(old)), pairs, retracted, new, moved, announced, message or text, gone
    )
