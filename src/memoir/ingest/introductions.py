"""The readers of who the user is: an introduction ("I'm Priya", "hiroshi here", "im thiago, barista at
…") and what it goes on to say (an age, a job, where from), or a job said alone where a change is told.

Readers as `readers` describes them: a clause and the message's `Context` in, the facts read
out in the third person, or None when the clause is not of their kind.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from memoir.ingest.lexicon import JOB_ENDINGS, NATIONALITIES, NOT_JOBS, word_list
from memoir.ingest.person import third_person

if TYPE_CHECKING:
    from memoir.ingest.referents import Context

__all__ = ["NAME", "introduction", "self_description"]

NAME = r"(?-i:(?!I['’])[A-Z][a-zà-ÿ'’-]+(?: (?!I['’])[A-Z][a-zà-ÿ'’-]+){0,2})"  # "I'll" is no name
_ANY_NAME = r"[A-Za-zà-ÿ][a-zà-ÿ'’-]+"  # "hiroshi here": people type their own name in lower case too


_INTRODUCTION = [
    re.compile(
        r"^(?:my name is|my name's|the name's|name's|i'm called|i am called|call me|i go by|they call me|soy|"
        rf"je suis|ich bin)\s+"
        rf"(?P<name>{NAME})",
        re.I,
    ),
    # "name's dev btw": typed in lower case, the one word after is the name
    re.compile(
        rf"^(?:my name is|my name's|the name's|name's|call me)\s+(?P<name>{_ANY_NAME})(?=\s*(?:,|$|\bbtw\b))", re.I
    ),
    re.compile(rf"^(?:this is |it's |it is )?(?P<name>{_ANY_NAME}(?: {NAME})?)\s+here\b", re.I),
    _OPENING_ONLY := re.compile(rf"^(?:this is|it's|it is)\s+(?P<name>{NAME})(?=\s*(?:,|$))", re.I),
    re.compile(rf"^(?P<name>{NAME})\s+here\s+again\s*$"),  # a sign-on later in a conversation
    re.compile(rf"^(?:i'm|i am|im)\s+(?P<name>{NAME})(?=\s*(?:,|$|\band\b|\bby the way\b|\bbtw\b))", re.I),
]
_AGAIN = re.compile(rf"^(?P<name>{NAME})\s+again$")
_BY_THE_WAY = re.compile(r"\b(?:by the way|btw)\b", re.I)
_AGAIN_BTW = re.compile(r"^\s*\S+\s+again,?\s+(?:btw|by the way)[\s.!]*$", re.I)  # "Bec again btw.", alone
_HERE_IN = re.compile(r"^(?:a |an )?(?P<job>(?:[\w-]+ ){0,2}[\w-]+) here in (?P<place>[\w' -]+)$", re.I)
_ARTICLE = re.compile(r"^(?:a|an|the)\s", re.I)
_LOWER_NAME = re.compile(
    rf"^(?:i'm|i am|im)\s+(?P<name>{_ANY_NAME})(?:\s+(?:btw|by the way))?,\s+(?P<rest>.+)$", re.I
)  # "im migs btw, 16, grade 10 at marikina science high"
_WHERE_OR_DOING = re.compile(
    r"^(?:(?:now|currently|still|also)\s+)?(?:from|based in|living in|originally from|born in|"
    r"(?!(?:nothing|something|anything|waiting|deciding|thinking|wondering|hoping|feeling)\b)\w+ing\b)",
    re.I,
)  # a passing state ("still waiting", "now thinking about it") says nothing lasting
# A year of a course, said as students say it: "final year architecture", "2nd-year medicine at Leeds".
# A field of one or two words, then at most "student" and where: not "1st year anniversary", "first
# year here", "final year of school".
_YEAR_OF_STUDY = re.compile(
    r"^(?:first|second|third|fourth|fifth|final|\d(?:st|nd|rd|th))[ -](?:year|yr)\s+"
    r"(?!(?:anniversary|here|there|now|of|in|at|on|and|but|so|i|we|you|he|she|they|it|was|is)\b)"
    r"[a-z][\w-]*(?:\s+(?!(?:at|in|student)\b)[a-z][\w-]*)?(?:\s+student)?(?:\s+(?:at|in)\s+\S.*)?$",
    re.I,
)
_LEADING_NAME = re.compile(rf"^(?P<name>{NAME}),\s+(?P<rest>.+)$")


_MAX_PARTS = 8
# Sounds and words that open a message before a comma, and are nobody's name
_INTERJECTIONS = frozenset(
    word_list(
        "ooh oooh oh ohh ah aah ahh hmm hm hmmm wow woah yay ugh oops whoa eek phew aw aww yikes ha hah haha right "
        "well yes yeah yep no nope sure cool great lovely brilliant perfect thanks cheers gosh golly blimey crikey "
        "damn aha ahem alas bravo hurray hooray huh meh nah oi ouch sorted smashing splendid gorgeous"
    )
)
# A part that says something of someone else: "Funmi is a social worker with the county council"
_OWN_SUBJECT = re.compile(r"^(?:[\w'’-]+\s+){1,3}(?:is|are|was|were|has|have|works|worked)\b", re.I)
# What follows a leading word and is a clause of its own: "…, the one-frame idea is clever", "…, that was fun"
_OWN_VERB = re.compile(r"^(?:the|this|that|it|these|those)\b[^,]*\b(?:is|are|was|were|'s)\b", re.I)
# What "im …," says of the user when it is no name: "im late, 25", "im away, 3", "im retired, 67"
_STATES = frozenset(
    word_list(
        "late sick away retired home tired done back fine good ok okay free busy ready sure new off out up down in "
        "single married divorced pregnant broke stuck lost sorry here there so just still also back again almost "
        "nearly about around over only really very too"
    )
)
# Words before "here" that are no name: "I'm here in Paris", "we're here", "still here".
_NOT_A_NAME = frozenset(
    word_list(
        "here me back just i'm i’m im we're we’re we you're they're he's she's it's i still all everyone everybody "
        "nobody someone somebody not on in the a an spelled spelt written pronounced also now whatever anything"
    )
)


def introduction(clause: str, context: Context) -> list[str] | None:
    """ "I'm Priya", "hiroshi here", "Fatima, site engineer at Bouvier": the name, and what follows it."""
    for pattern in _INTRODUCTION:
        if pattern is _OPENING_ONLY and not (context.opening or _BY_THE_WAY.search(context.said)):
            continue  # "… on my phone? It is Tecno Spark.": the phone's name; "Hi, it's Sam" opens a message
        match = pattern.match(clause)
        if match and match.group("name").lower() not in NATIONALITIES | _NOT_A_NAME:
            name = match.group("name")
            context.introduced = True
            rest = clause[match.end() :].strip(" ,")
            return [f"The user's name is {name[0].upper()}{name[1:]}", *_described(rest, years_alone=True)]
    again = _AGAIN.match(clause)  # "Bec again btw" ("btw" is taken off the clause): a sign-on, not "Tom again."
    if again and _AGAIN_BTW.search(context.said) and again.group("name").lower() not in _NOT_A_NAME:
        context.introduced = True
        return [f"The user's name is {again.group('name')}"]
    lower = _LOWER_NAME.match(clause)  # "im thiago, barista at a coffee place": typed in lower case, a job after
    if lower and lower.group("name").lower() in _STATES | NATIONALITIES:
        lower = None  # "im late, 25", "im retired, 67", "I am brazilian, 29 years": how the user is, no name
    first = lower.group("rest").split(",")[0].strip() if lower else ""
    aged = bool(_AGED.match(first + " ") or re.fullmatch(r"\d{1,2}", first))  # "im destiny, 24, been doing nails"
    aged = aged and lower is not None and lower.group("rest").count(",") < _MAX_PARTS  # a sign-on, not a list
    if lower and (_names_a_role(first) or aged) and not _ARTICLE.match(lower["rest"]):
        context.introduced = True
        name = lower.group("name")
        return [f"The user's name is {name[0].upper()}{name[1:]}", *_described(lower.group("rest"))]
    here = _HERE_IN.match(clause)  # "session guitarist here in nashville"
    if here and context.opening and _names_a_role(here.group("job")):
        return _described(f"{here.group('job')} in {here.group('place')}")
    sign_on = _SIGN_ON.match(clause)
    if sign_on and context.opening:
        who = _described(sign_on.group("who"))
        place = sign_on.group("place")
        if who and who[-1].startswith("The user is a"):
            return [*who, *([f"The user lives in {place}"] if place and _PLACE.fullmatch(place) else [])]
    leading = _LEADING_NAME.match(clause)
    if leading and leading.group("name").lower() in _INTERJECTIONS:
        return introduction(leading.group("rest"), context)  # "Cheers, Nadia here, 33": a sound, then the sign-on
    if leading and (
        _plain_job(leading.group("name"))
        or leading.group("name").lower() in NATIONALITIES | _STATES
        or (_OWN_VERB.match(leading.group("rest")) and "," not in leading.group("rest"))
    ):
        leading = None  # "Electrician, not mechanic.", "Irish, living in Boston": who the user is, no name; "Raj,
        # the one-frame idea is clever": a clause of its own (not "Tom, that's me, 45, electrician")
    if leading and context.opening and _described(leading.group("rest")):
        context.introduced = True
        return [f"The user's name is {leading.group('name')}", *_described(leading.group("rest"))]
    return None


def self_description(clause: str, context: Context) -> list[str] | None:
    """ "34, accountant" right after an introduction: the user's age and job; "update: head barista at
    Bonanza, started Monday": a job alone, where a change is told, is the user's new one."""
    if third_person(clause) is not None:
        return None
    if not context.introduced:
        job = clause.split(",")[0]
        started = re.search(r",\s*(?:just\s+)?(?:started|starting|start)\b", clause, re.I)
        the = re.match(r"the\s", job, re.I)  # "the promoter for the last show bailed" is someone else
        # where the job is held ("so cook for 4 on weeknights" asks it: no cook)
        where = re.search(r"\s(?:at|for|with)\s", job) and not re.match(r"cook\s+for\s", job, re.I)
        if (context.changing or started) and not the and _names_a_role(job) and where:
            return _described(job)
        return _told_tersely(clause) if not context.person and not _of_someone(context.said) else None
    facts = _described(clause)
    return facts or None


_MARITAL = re.compile(r"single|married|divorced|widowed|separated|engaged", re.I)


# Whom a terse description may be of, other than the user: "Client profile: teacher, 42", "Writing a character: …"
@lru_cache(maxsize=64)
def _of_someone(sentence: str) -> bool:
    """Does a sentence speak of someone a terse description may be of? Asked once a sentence, not once a clause."""
    return _OF_SOMEONE.search(sentence) is not None


_OF_SOMEONE = re.compile(
    r"\b(?:profile|persona|character|customer|client|patient|candidate|applicant|user story|about my|for my|"
    r"my (?:brother|sister|son|daughter|dad|mum|mom|wife|husband|friend|boss)|he|she|they|him|her|his|"
    r"guy|girl|bloke|nanny|hired|hiring|new hire)\b",
    re.I,
)
_ASIDE = re.compile(r"^(?:not|needed|wanted|because|so|since)\s", re.I)  # "Two kids, needed the space": why
# "pharmacist @ Northern General, 8-4 Mon-Fri": when the job is held, no part of who the user is
_HOURS = re.compile(
    r"^\d{1,2}(?:[.:]\d\d)?\s*(?:am|pm)?\s*[-–]\s*\d{1,2}(?:[.:]\d\d)?\s*(?:am|pm)?"
    r"(?:\s+(?:mon|tue|wed|thu|fri|sat|sun)\w*\s*[-–]\s*(?:mon|tue|wed|thu|fri|sat|sun)\w*)?$",
    re.I,
)


def _told_tersely(clause: str) -> list[str] | None:
    """A verbless clause each of whose parts says who the user is ("Electrician, not mechanic.", "Two kids"):
    read as an introduction's description would be, where no part is left unread."""
    parts = [p for p in re.split(r",\s*", clause.strip(" .!")) if p and not _ASIDE.match(p) and not _HOURS.match(p)]
    parts = [p.replace(" @ ", " at ") for p in parts]
    if parts and _AGED.fullmatch(f"{parts[0]} "):
        return _described(parts[0])  # "51 yo, plan is run 4 more yrs then retire": the age said as one, first
    units: list[str] = []
    for part in parts:  # "Backend eng at N26, Berlin": where the job is, with it
        at_work = units and _plain_job(units[-1]) and " at " in units[-1] and _PLACE.fullmatch(part)
        units[-1:] = [f"{units[-1]}, {part}"] if at_work else [*units[-1:], part]
    if not all(
        _MARITAL.fullmatch(p)
        or re.fullmatch(r"\d{1,3}", p)  # an age: a number alone, or one said old (not "20 years")
        or _AGED.fullmatch(f"{p} ")
        or _FAMILY_COUNT.match(p)
        or _plain_job(p.split(",")[0])
        or p.lower() in NATIONALITIES
        for p in units
    ):
        return None  # "Job transfer.", "Rain constant.": no more a job than a dog called a Labrador
    if all(p.isdigit() for p in units):
        return None  # "so now 16" (artisans): a number alone is an age only beside what else the user is
    facts = [_described(part) for part in units]
    return [f for found in facts for f in found] if units and all(facts) else None


# A job said alone, as a terse person says it: a word that is one ("electrician", "nurse"), not any word ending
# like one ("transfer", "constant", "labrador")
_BARE_JOBS = frozenset(
    word_list(
        "nurse teacher chef cook driver trucker plumber carpenter mechanic farmer lawyer doctor pilot baker welder "
        "programmer developer dev designer accountant paramedic firefighter cashier barista waiter waitress cleaner "
        "builder painter electrician engineer surgeon dentist pharmacist vet architect journalist writer tutor "
        "lecturer professor student retired retiree midwife carer caregiver soldier officer therapist scientist artist "
        "pianist guitarist physio"
    )
)


_NOT_IN_A_JOB = frozenset(word_list("i he she they we you it is are was were am be the my his her our their will not"))


_ENGINEERS = frozenset(("eng", "swe", "sre"))  # an engineer, as engineers write it
# Where a job said alone is held: "pharmacist @ Northern General", "backend eng at N26"
_AT_WORK = re.compile(r"\s+(?:at|@)\s+(?-i:[A-Z0-9])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*){0,3}$")


def _plain_job(part: str) -> bool:
    at_work = _AT_WORK.search(part) is not None
    part = _AT_WORK.sub("", part)
    words = part.lower().split()
    if at_work and words and words[-1] in _ENGINEERS and len(words) <= 2:
        return True  # "Backend eng at N26": an engineer, as engineers write it, where they work
    if not re.fullmatch(r"[a-z-]+(?:\s+[a-z-]+){0,2}", part.lower()) or set(words) & _NOT_IN_A_JOB:
        return False  # "she is nurse", "she'll cook": a sentence, not a job said alone
    return 0 < len(words) <= 3 and (words[-1] in _BARE_JOBS or words[-1].endswith(("ician", "ologist")))


def _described(text: str, years_alone: bool = False) -> list[str]:
    """What an introduction goes on to say, each comma-separated part a fact: an age, a job, where from.
    (`years_alone`: "41 years" first after "I am Seun," is an age; after a word alone, "Labrador, 3 years", or after a
    job, "I'm Marek, welder, 15 years", it is not.)"""
    facts: list[str] = []
    for index, part in enumerate(re.split(r",\s*|\s+and\s+(?=a |an |\d)", text)):
        part = re.sub(r"[^\w\s'’:.,-]", "", part).strip(" .")  # emoji and the like
        part = re.sub(r"\s+here\s+(?=(?:in|at)\s)", " ", part, flags=re.I)  # "staff nurse here in Galway …"
        if not part:
            continue
        if facts and facts[-1].startswith("The user is a") and re.fullmatch(r"in\s+(?:the\s+)?[A-Z][\w&-]*", part):
            facts[-1] = f"{facts[-1]}, {part}"  # "staff nurse in Galway University Hospital, in ICU": where in it
            continue
        aged = _AGED.match(part)  # "63 yr old retired firefighter": the age, then the rest
        if aged:
            facts.append(f"The user is {aged.group('age')} years old")
            part = part[aged.end() :]
            if not part:
                continue
        if facts and facts[-1].startswith("The user is a") and _PLACE.fullmatch(part):
            if re.search(r"\b(?:in|at) an? [a-z]", facts[-1]):  # "chef in a bouchon in Lyon, Le Petit Machon"
                facts[-1] = f"{facts[-1]}, {part}"  # the workplace's name
            else:
                facts.append(f"The user lives in {part}")  # "backend dev at Infosys, Bangalore": where they work
        elif re.fullmatch(r"\d{1,3}(?:\s+years?\s+old)?", part) or (
            years_alone and index == 0 and re.fullmatch(r"\d{1,3}\s+(?:years?|yrs?)", part)  # "I am Seun, 41 years"
        ):
            facts.append(f"The user is {part.split()[0]} years old")
        elif _MARITAL.fullmatch(part):  # "Divorced, two kids."
            facts.append(f"The user is {part.lower()}")
        elif _FAMILY_COUNT.match(part):  # "two kids", "3 boys"
            facts.append(f"The user has {part[0].lower()}{part[1:]}")
        elif re.match(r"^(?:in\s+)?(?:grade|year|form)\s+\d{1,2}\b", part, re.I):  # "grade 10 at marikina science high"
            facts.append(f"The user is in {part.removeprefix('in ')}")
        elif re.match(r"^been\s+\w+ing\b", part, re.I):  # "been doing nails 5 yrs at a salon in decatur"
            facts.append(f"The user has {part}")
        elif _DID.match(part) or _IRREGULAR_DID.match(part):  # "farmed corn near Ames", "spent 20 years as a nurse"
            facts.append(third_person(f"I {part[0].lower()}{part[1:]}") or f"The user {part}")
        elif _WHERE_OR_DOING.match(part):  # "based in Dubai", "now running yoga retreats in Ubud"
            facts.append(f"The user is {part}")
        elif _YEAR_OF_STUDY.match(part):  # "final year architecture at RMIT"
            studying = re.search(r"\bstudent\b", part, re.I)  # "a 2nd year law student", "in final year law"
            facts.append(f"The user is {'a' if studying else 'in'} {part[0].lower()}{part[1:]}")
        elif part.lower() in NATIONALITIES:  # "I'm Diego, Mexican, doing a PhD"
            facts.append(f"The user is {part[0].upper()}{part[1:]}")
        elif _names_a_role(part) and not _OWN_SUBJECT.match(part):
            lead = re.match(r"^(?:also|now|currently|still)\s+", part, re.I)  # "also a nurse": the article after it
            said, part = (lead.group(0).lower(), part[lead.end() :]) if lead else ("", part)
            article = (
                "" if re.match(r"^(?:a|an|the)\s", part, re.I) else ("an " if part[0].lower() in "aeiou" else "a ")
            )
            facts.append(f"The user is {said}{article}{part[0].lower() + part[1:] if not _proper(part) else part}")
        elif _RETIRED.match(part):  # "retired now after farming corn outside Kearney"
            facts.append(f"The user is {part[0].lower()}{part[1:]}")
    return facts


# A past verb and what it did, not a state said so ("married", "retired", "based in Leeds")
_DID = re.compile(
    r"^(?!(?:married|divorced|retired|widowed|engaged|based|located|settled|qualified|self-employed|unemployed|"
    r"bored|tired|stressed|excited|interested|worried|scared|confused|exhausted|obsessed|stuck|tied|"
    r"wanted|needed|asked|tried|hoped|wondered|meant|decided|planned|intended|called|texted|emailed)\b)"
    r"[a-z]+[^e]ed\s+\w+\s+\w+",  # not "need a hand"
    re.I,
)
# "retired now after farming corn", "retired since 2019", "retired from teaching"; not "retired the dog from agility"
_RETIRED = re.compile(
    r"^(?:(?:now|recently|just|semi[- ]?)\s*)?retired"
    r"(?:\s+(?:now|after|since|from\s+(?!it\b|that\b|this\b)|in|last|this|early|a|two|three|\d)\b[^,]*)?$",
    re.I,
)
# An irregular past and what it did ("spent 20 years as a nurse", "grew up in Cork"), not "sent here by my therapist"
_IRREGULAR_DID = re.compile(
    r"^(?:spent|grew up|went|took|made|ran|built|taught|wrote|sold|left)\s+(?!here\b|by\b|there\b)\w+", re.I
)
_FAMILY_COUNT = re.compile(
    r"^(?:two|three|four|five|six|[2-9])\s+(?:kids|boys|girls|sons|daughters|children|grandkids|grandchildren)$", re.I
)
# "63 yr old retired firefighter", "24 yo": not "12 years" (a driver's, of experience)
_AGED = re.compile(r"^(?P<age>\d{1,3})[\s-]*(?:y/?o|(?:yrs?|years?)[\s-]+old)(?:\s+|$)", re.I)
_PLACE = re.compile(r"(?-i:[A-Z][a-zà-ÿ]+(?:,? [A-Z][a-zà-ÿ]+){0,2})")
# "63 yr old retired firefighter here, Dayton Ohio": who, then where, said as a sign-on
_SIGN_ON = re.compile(r"^(?P<who>.+?)\s+here(?:,\s*(?P<place>[^,]+))?$", re.I)


def _names_a_role(phrase: str) -> bool:
    """ "site engineer at Bouvier Construction", "retired librarian", "3rd year phd student in marine biology"."""
    head = re.split(r"\s+(?:at|in|for|with|from|of|on|near|outside)\s+", phrase, maxsplit=1)[0]  # "officer on the A380"
    words = head.lower().split()
    if words and words[0] in _PAST_FIRST:  # "sent here by my therapist" is no therapist
        return False
    if len(words) == 2 and words[1] == "player" and words[0] in _INSTRUMENTS:  # "bass player", not "team player"
        return True
    if words and words[-1] in _ENGINEERS:  # "backend eng at N26": an engineer, as engineers write it
        return len(words) <= 3
    if len(words) >= 3 and words[1] == "de" and words[0].endswith(JOB_ENDINGS):  # "chef de cuisine", "chef de partie"
        return words[0] not in NOT_JOBS
    studying = re.search(r"\bstudent\s+(?:\d(?:st|nd|rd|th)\s+year|year\s+\d)$", head.lower())  # "PhD student 2nd year"
    return 0 < len(words) <= 6 and (
        studying is not None
        or _titled(words, phrase)
        or (words[-1] not in NOT_JOBS and words[-1].endswith(JOB_ENDINGS))
    )


# Titles that end like no job word: "co-founder and CEO of Ledgerly", "VP of sales", "CTO at Stripe"
_PAST_FIRST = frozenset(word_list("sent spent went got took made left came brought was were had"))
_TITLES = frozenset(word_list("ceo cto cfo coo cmo cio cpo cso vp svp evp"))
# What may come before a title ("co-founder and CEO", "the CTO"), not "NOT a CEO", "BTW the CEO", "married to the CEO"
_BEFORE_TITLE = frozenset(
    word_list("co-founder cofounder founder and & interim acting deputy the a an associate senior")
)


def _titled(words: list[str], phrase: str) -> bool:
    """ "co-founder and CEO of Ledgerly": a title, not "CEO of my household lmao" nor "CEO of nothing"."""
    return (
        words[-1] in _TITLES
        and all(w in _BEFORE_TITLE for w in words[:-1])
        and re.search(r"\bof\s+(?:my|our|your|nothing|the house|the household)\b", phrase, re.I) is None
    )


_INSTRUMENTS = frozenset(
    word_list("bass guitar drum drums piano keyboard keys violin viola cello sax saxophone trumpet flute harp")
)


def _proper(text: str) -> bool:
    first = text.split()[0]
    if len(first) > 1 and first.isupper():  # "CEO of Ledgerly", "VP of sales": kept as written
        return True
    return text[:1].isupper() and text.split()[0].lower() not in NOT_JOBS and not _names_a_role(text.split()[0])
