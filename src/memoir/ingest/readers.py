"""The clause readers of the fact rules: each knows one way people state a fact, and writes it standalone.

A reader takes a clause (a statement's part with one subject, `sentences.clauses`) and the
message's `Context`, and returns the facts it reads there in the third person, `[]` when
the clause is its kind but states nothing worth keeping, or None when the clause is not
its kind (the next reader is asked). `rules` tries them in order and gates what they write.
"""

from __future__ import annotations

import re

from memoir.index.keyword import terms
from memoir.ingest.events_named import headcount
from memoir.ingest.introductions import NAME, introduction, self_description
from memoir.ingest.lexicon import CHANGEABLE, PEOPLE, PETS, word_list
from memoir.ingest.noun_phrases import OF_AN_EVENT, TERSE_OWN, noun_phrase
from memoir.ingest.person import others, third_person
from memoir.ingest.pronouns import named_it, pronoun
from memoir.ingest.referents import MANY, NOT_NAMES, WHICH_ONE, Context, name_thing
from memoir.ingest.relations import relation
from memoir.ingest.schedules import schedule
from memoir.ingest.stemming import stem
from memoir.ingest.unsaid import diet, subjectless
from memoir.ingest.values import values

__all__ = ["LATE_READERS", "READERS"]


# -- the subject of a clause -------------------------------------------------------------------------------

_COMPOUND = re.compile(
    rf"^(?:(?:my|our)\s+(?P<rel>{WHICH_ONE}[\w-]+)(?:\s+(?P<relname>{NAME}))?|(?P<name>{NAME}))\s+and\s+(?:i|me)\s+"
    r"(?P<rest>.+)$"
    rf"|^me\s+and\s+(?:my|our)\s+(?P<rel2>[\w-]+)(?:\s+(?P<relname2>{NAME}))?\s+(?P<rest2>.+)$",
    re.I,
)
_NAMED = re.compile(
    rf"^(?P<name>{NAME}(?:'s(?: [a-z-]+){{1,2}})?)\s+(?:actually\s+)?"  # "Craig actually moved to Phoenix"
    r"(?P<rest>(?:(?:is|was|has|had|will|would|can|just|also|"
    r"now|still|already|finally|recently|got|turns|turned|joined|left|lives|lived|works|worked|moved|started|"
    r"runs|leads|manages|teaches|studies|plays|loves|likes|hates|prefers|wants|needs|organi[sz]es|organi[sz]ed|"
    r"plans|planned|takes|took|goes|went|came|comes|became|becomes|owns|drives|speaks|booked|bought|trains|"
    r"handles|does|did|got|gets|'s|are|were|eats|drinks|helps|helped|covers|coaches|sings|dances|swims|"
    r"cooks|writes|wrote|teaches|taught|visits|visited|arrives|arrived|starts|finished|graduated|"
    r"doesn't|does not|isn't|is not|can't|cannot|never|died|passed away)\b).*)$",  # "Tunde doesn't eat pork"
)
_DIED = re.compile(r"(?:died|passed away)\b", re.I)
_ADJECTIVE_ENDINGS = ("er", "est", "ful", "ous", "ive", "able", "ible", "al", "ic", "ly", "ing", "ed", "less")
_LETS = re.compile(
    r"^let's\s+(?P<verb>use|go with|pick|choose|stick with|switch to|keep|do|try|book|meet)\s+(?P<rest>.+)$", re.I
)
# "Always store UTC", "never use tabs": a way of working; "never been on a sports team", "never volunteered": what the
# user has or has not done; "never saw this coming", "always supporting each other", "never a wedding cake": neither
_ALWAYS = re.compile(r"^(?P<how>always|never)\s+(?P<rest>[a-z].+)$", re.I)
_DONE = frozenset(word_list("been had seen done made got gone known met felt lost left taken given eaten driven flown"))
_NEITHER = frozenset(word_list("a an the my was were did saw went took ran gave ate drove flew wrote knew heard"))


def lets(clause: str, context: Context) -> list[str] | None:
    match = _LETS.match(clause)
    if not match:
        return None
    return [f"The user decided to {match.group('verb').lower()} {others(match.group('rest'))}"]


# "the physio has me on aqua aerobics twice a week", "Doc put me on metformin": what the user is on
_HAS_ME_ON = re.compile(
    r"^(?:the |my |our )?(?P<who>doctor|doc|gp|physio|physiotherapist|coach|trainer|nurse|dentist|consultant|"
    r"specialist|vet|therapist|dietitian|dietician|surgeon|boss|manager|school)\s+(?:has|had|'s|put|got|started|"
    r"switched)\s+(?:me|us)\s+(?:on|onto)\s+(?P<what>\S.*)$",
    re.I,
)


def put_on(clause: str, context: Context) -> list[str] | None:
    match = _HAS_ME_ON.match(clause)
    if not match:
        return None
    return [f"The user is on {others(match.group('what'))}"]


_MY_THING = re.compile(
    r"^(?P<what>(?!(?:it|this|that|which|what)\b)[\w][\w' -]{1,60}?)\s+(?P<verb>is|are|'s)\s+"
    r"(?:(?:really|just|totally|honestly|so|definitely|also)\s+)*(?P<not>not\s+)?"
    r"(?:(?:really|just|totally|honestly|so|definitely|quite)\s+)*"
    r"(?P<kept>non-negotiable|sacred|a must|a ritual|my ritual|(?:my (?:thing|jam|cup of tea)|for me))$",
    re.I,
)


def my_thing(clause: str, context: Context) -> list[str] | None:
    """ "writing sales-y stuff is not my thing", "Mornings are not for me", "Baking is my jam": a like; "beach
    volleyball every Thursday is non-negotiable": a habit kept."""
    match = _MY_THING.match(clause.replace(" isn't ", " is not ").replace(" aren't ", " are not "))
    if not match:
        return None
    what = others(match.group("what"))
    first = what.split()[0]
    if first.lower() not in context.known and not first.isupper():
        what = what[0].lower() + what[1:]  # capitalized as the sentence's first word, not as a name
    if not match.group("kept").lower().startswith(("my thing", "my jam", "my cup", "for me")):
        if not re.search(r"\b(?:my|our|every|each)\b", match.group("what"), re.I) or re.match(
            r"(?:the|his|her|their|this|that|its)\b", match.group("what"), re.I
        ):
            return []  # "The deadline is non-negotiable", "Her gym time is sacred": nothing the user keeps to
        # "beach volleyball every Thursday with my lab mates is non-negotiable": something the user keeps to
        kept = what.replace("the user's", "their")
        return [] if match.group("not") else [f"The user never misses {kept}"]
    return [f"The user {'does not like' if match.group('not') else 'likes'} {what}"]


def always(clause: str, context: Context) -> list[str] | None:
    match = _ALWAYS.match(clause)
    if not match:
        return None  # "Always store UTC": the user's way of working, said to the assistant
    how, rest = match.group("how").lower(), match.group("rest")
    first = rest.split()[0].lower()
    if first in _DONE or (first.endswith("ed") and len(first) > 4):
        return [f"The user has {how} {rest}"]  # "never been on a sports team"
    if first in _NEITHER or first.endswith("ing"):
        return None
    return [f"The user wants to {how} {rest}"]


def compound(clause: str, context: Context) -> list[str] | None:
    """ "My neighbour Siobhán and I run together", "Arjun and I got married": the user and them."""
    match = _COMPOUND.match(clause)
    if not match:
        return None
    rel, name = match.group("rel") or match.group("rel2"), match.group("relname") or match.group("relname2")
    rest = match.group("rest") or match.group("rest2")
    if rel is not None:
        who = name if name and rel.lower() in CHANGEABLE else f"their {rel}" + (f" {name}" if name else "")
        facts = [f"The user's {rel} is {name}"] if name else []
    else:
        who, facts = match.group("name"), []
    context.person = name or match.group("name") or context.person
    return [*facts, f"The user and {who} {others(rest)}"]


_HOME_AREA = re.compile(
    r"^(?:that's|that is|thats|it's|it is|its)\s+(?:my|our)\s+(?:own\s+)?(?:barrio|neighbou?rhood|hood|area|"
    r"home ?town|part of town|manor|local area|quarter|district)(?:,.*)?$",
    re.I,
)


def home_area(clause: str, context: Context) -> list[str] | None:
    """ "writing from a café in Lavapiés, that's my barrio": the place named last is where the user lives."""
    if _HOME_AREA.match(clause) is None:
        return None
    return [f"The user lives in {context.place}"] if context.place else []


_MAX_FRAGMENTS = 16
_N_IN_THE = re.compile(
    r"^the user is (?P<n>\w+) in (?:the|our) (?P<group>band|team|group|family|house|household|crew|office|class)"
    r"(?=,|$)",
    re.I,
)
# ", who is a plumber," inside a clause: said of the one before it (`rules._who_is`), not of the user
_BETWEEN_COMMAS = re.compile(r",\s+(?:who|which)\b[^,]*,\s+(?=[a-z])")


def user(clause: str, context: Context) -> list[str] | None:
    """ "I …", "we …", "my X …", "our X …": in the third person, with what its comma fragments add."""
    text = third_person(clause)
    if text is None:
        return None
    if (
        context.party
        and re.match(r"^we", clause, re.I)
        and re.match(r"^the user is (?-i:[A-Z])[\w'-]+(?: (?-i:[A-Z])[\w'-]+)*(?: now)?$", text, re.I)
    ):  # "We're Marea Alta now" after "changing the band name": the band's name, not the user's
        return [f"The user's {context.party} is{text[len('The user is') :]}"]
    if re.match(r"^the user is (?:\d+|six|seven|eight|nine|ten|\w+teen|\w+ty)\b", text, re.I) and re.match(
        r"^we", clause, re.I
    ):
        within = _N_IN_THE.match(text)  # "we are 4 in the band": the band's size
        if within:
            text = f"The user's {within.group('group').lower()} is {within.group('n')} people{text[within.end() :]}"
        else:
            text = "The user's team is" + text[len("The user is") :]  # "we're six engineers plus a designer"
    if context.place:  # "my mother lives there"
        text = re.sub(r"\b(lives?|is|are|works?|moved|stays?) there\b", rf"\1 in {context.place}", text)
    head, *fragments = re.split(r",\s+", _BETWEEN_COMMAS.sub(" ", text))
    facts = [head]
    # The first few: a fact grows with each, is read again with each (quadratic on a pasted list),
    # and one past gate.MAX_WORDS is none anyway.
    for fragment in fragments[:_MAX_FRAGMENTS]:
        facts[-1:] = _fragment(facts[-1], fragment)
    if text.startswith("The user's "):
        name_thing(text, context)
    return facts


# "…, now teaching in Lyon": what the user is doing; "nothing", "morning" and the like end so and are no verb.
_DOING = re.compile(
    r"^(?!(?:nothing|something|anything|everything|morning|evening|thing|things|king|ring|spring|string|"
    r"during|ceiling|wedding|building|ding|sing|wing|bring|sibling|pudding|darling|shilling)\b)\w+ing\b",
    re.I,
)


def _fragment(head: str, fragment: str) -> list[str]:
    """What a comma fragment adds to the fact before it ("…, have been for ten years"; "…, no sugar")."""
    been = re.match(r"^(?:(?:i |the user )?(?:have|has|'ve)\s+)?been\s+(?P<d>(?:for|since)\s+.+)$", fragment, re.I)
    state = re.match(r"^(?P<s>the user) is (?P<x>.+)$", head, re.I)
    if been and state:
        return [f"{state.group('s')} has been {state.group('x')} {been.group('d')}"]
    where = re.match(r"^where (?:they|the user|we|i) (?P<how>live|lives|are based|grew up|work|works)$", fragment, re.I)
    places = [v for v in values(head) if v.kind in ("place", "name")]
    if where and places:  # "…in Nakuru, where we live": where the user lives, a fact of its own
        verb = {"live": "lives", "are based": "is based", "work": "works"}.get(where.group("how"), where.group("how"))
        return [head, f"The user {verb} in {places[-1].text}"]
    family = re.match(rf"^(?P<rel>[\w-]+) (?P<name>{NAME}) (?P<rest>(?:is|was|has|turned|turns)\b.+)$", fragment)
    if family and family.group("rel").lower() in PEOPLE | PETS:  # "…, son Kuba is 12"
        return [head, f"The user's {family.group('rel')} {family.group('name')} {family.group('rest')}"]
    if (
        re.match(r"^(?:which|who|whom|that|lol|haha|thank|thanks)\b", fragment, re.I)
        or re.search(r"\b(?:it|them|that|this|him|her|one|ones)(?:\s+(?:lol|haha+|tbh|ngl))?[.!]*$", fragment, re.I)
        or not _says_something(fragment)
    ):
        return [head]  # ", which is brutal", ", lovely but so slow", ", never liked it": an opinion, not the fact
    if re.match(r"^(?:a|an)\s+\w", fragment, re.I) and re.match(r"^the user is \S+(?: \S+)?$", head, re.I):
        return [head, f"The user is {fragment}"]
    if _DOING.match(fragment) and head.lower().startswith("the user "):
        return [head, f"The user is {fragment}"]
    return [f"{head}, {fragment}"]


def named(clause: str, context: Context) -> list[str] | None:
    """ "Elena Costa joined the team in June": kept when the user's business (see `rules`)."""
    match = _NAMED.match(clause)
    if not match:
        return None
    name = match.group("name")
    if name.lower() in NOT_NAMES or name.split()[0].lower() in NOT_NAMES or name.lower() in TERSE_OWN | OF_AN_EVENT:
        return None  # "Rent is ₹21,000 here", "Budget is around £18,000": the user's (`noun_phrase`)
    named_before = {*context.known, *context.named}
    if name.split()[0].lower() not in named_before and name.lower().endswith(_ADJECTIVE_ENDINGS):
        return None  # "Warmer is better for my knee": a word capitalized as the sentence's first
    first = name.split("'")[0].lower()
    said = {stem(w) for w in terms(match.group("rest")) if len(w) > 3}
    business = first in context.known or first.split()[0] in context.known or any(w in context.known for w in said)
    if _DIED.match(match.group("rest")) and first not in context.known and first.split()[0] not in context.known:
        return []  # "Matthew Perry died": news of the world, not of the user's people
    if not (context.first_person or context.important or business or first in context.named):
        return []
    context.named.add(first)  # "Kunle is 6. Kunle's birthday is on the 22nd": still the user's business
    context.person = name.split("'")[0] if "'" not in name or name.endswith("'s") else context.person
    rest = others(match.group("rest"))
    if context.thing:  # "Elena is planning it": the thing named before
        rest = re.sub(r"\bit$", context.thing, rest)
    return [f"{name} {rest}"]


# A relation typed without "my", as a clause's subject: "wife works in pharmacy", "Daughter starts school in June"
_KIN = re.compile(
    r"^(?P<rel>[A-Za-z][\w-]+)\s+(?P<rest>(?:works|lives|is|has|teaches|studies|runs|goes|plays|starts|"
    r"finishes|turns|turned|just turned|loves|hates)\b.+)$"
)


def kin(clause: str, context: Context) -> list[str] | None:
    """ "wife works in pharmacy in The Square shopping centre", typed tersely: the user's wife, as "my wife"."""
    match = _KIN.match(clause)
    rel = match.group("rel").lower() if match else ""
    if not match or rel not in PEOPLE or rel in _MANY_OF_THEM or rel in context.known:
        return None
    rest = match.group("rest")
    if re.match(r"(?:is|has)\b", rest) and not values(rest) and not re.match(r"is an? \w", rest):
        return None  # "teacher is different", "boss is strict": how they seem, not a fact
    context.person = f"the user's {rel}"
    return [f"The user's {rel} {others(match.group('rest'))}"]


_MANY_OF_THEM = MANY | {"people", "friends"}


READERS = (
    my_thing,
    introduction,
    relation,
    self_description,
    lets,
    always,
    put_on,
    compound,
    named_it,
    home_area,
    pronoun,
    user,
    diet,
    named,
)
LATE_READERS = (headcount, kin, noun_phrase, schedule, subjectless)


# -- helpers ------------------------------------------------------------------------------------------


def _says_something(fragment: str) -> bool:
    from memoir.ingest.gate import content_words  # the gate's notion of content

    return bool(content_words(fragment))


def _is_pet(phrase: str) -> bool:
    return any(word in PETS for word in phrase.lower().split())
