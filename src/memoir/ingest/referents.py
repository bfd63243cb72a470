"""What a message has named so far, and whom its pronouns stand for (`Context`, `mentioned`).

The readers (`readers`) read each clause with the message's `Context`: who and what the
clauses before named last ("my partner Sven", "a kitten", "my parents", "the user's team
offsite"), so that "she", "it", "they" and "his name is …" in a later clause say whom.
`mentioned` updates it after each clause; `name_thing` after a reader wrote a fact of the
user's.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from memoir.ingest.introductions import NAME
from memoir.ingest.lexicon import CHANGEABLE, NATIONALITIES, PEOPLE, PETS, word_list
from memoir.ingest.relations import VERBS
from memoir.ingest.values import values

__all__ = [
    "MANY",
    "NOT_NAMES",
    "WHICH_ONE",
    "Context",
    "gendered",
    "mentioned",
    "name_thing",
    "named_at_once",
    "unnamed_in",
]


@dataclass
class Context:
    """What a message has named so far ("she", "he", "it"), and what makes a name the user's business."""

    known: Collection[str]  # names and word stems of the facts known already (`rules.known_words`)
    first_person: bool = False  # the sentence speaks of the user
    # the sentence before this one opened with one of the user's people ("My wife is so busy."): a schedule said
    # next without a subject is theirs (`schedules`)
    after_someone: bool = False
    of_someone: bool = False  # this sentence opens so
    spoke_of_self: bool = (
        False  # a sentence of the message before this one did: "I'm CTO at Kiranaflow. Eng team is 12."
    )
    important: bool = False  # the user asked for it to be remembered
    changing: bool = False  # the sentence says something changed
    introduced: bool = False  # the message began with the user's name: "34, accountant" describes them
    opening: bool = True  # the first sentence of the message: "Fatima, site engineer at Bouvier" introduces
    person: str | None = None  # "the user's partner Sven", "Elena"
    pet: str | None = None  # "the user's kitten"
    pet_last: bool = False  # the pet was named after the person: "she" is the pet
    thing: str | None = None  # "the user's team offsite"
    place: str | None = None  # the last place named: "my mother lives there"
    written: list[str] = field(default_factory=list)  # what the readers wrote for the current clause
    named: set[str] = field(default_factory=set)  # people a fact of this message was about ("Kunle is 6")
    sentence: str = ""  # the sentence being read
    said: str = ""  # the same sentence as written, openers and all ("Finally I can sleep …")
    clause: str = ""  # the last clause read: "my wife's is a Pixel" is of the thing it named ("my phone is …")
    event: str | None = None  # the last event named ("weddings"): what "we have moved it" moves
    event_known: bool = False  # the event is one the known facts or the message before named, not this one
    # whom the user's message before this one named last: only whose name "His name is Herr Vogel" gives, as
    # other pronouns across messages as often stand for someone the assistant named
    earlier: str | None = None
    group: str | None = None  # the user's people named last as many ("my parents"): whom "they" stands for
    party: str | None = None  # what "we" named last are ("the band name"): whose name "We're Marea Alta now" is
    # the user's person the message before named by relation alone ("planning my daughter's birthday"), whose
    # name a message opening "Yui, she's turning 7" gives
    unnamed: tuple[str, ...] = ()
    # the user's man and woman the message before named last by relation and name ("My boy Liam", "the missus
    # Sharon"): whom a message opening "He's an apprentice electrician" speaks of
    his: str | None = None
    hers: str | None = None

    def animate(self) -> str | None:
        """Whom "he" or "she" stands for: the pet or the person named last."""
        return self.pet if self.pet and (self.pet_last or not self.person) else self.person


# "my late husband and I": a word before the relation that says which one (`rules` reads it back)
WHICH_ONE = r"(?:(?:late|ex|older|younger|little|big|best|elder|eldest|youngest|twin)\s+)?"
_PET = "|".join(sorted(PETS))
# (and "Mine now starts 19th": a thing of the user's said before, no one named)
NOT_NAMES = {
    *("the", "this", "that", "there", "nobody", "everyone", "everybody", "someone", "somebody", "people"),
    *("mine", "yours", "ours", "theirs", "hers", "his"),
}


_PREPOSITION = r"(?:at|in|on|of|for|from|with|about|to)"


def name_thing(text: str, context: Context) -> None:
    """Remember what "the user's X" a clause spoke of, with its name when it gives one."""
    match = re.match(
        rf"^the user's (?P<x>[\w-]+(?: (?!{VERBS}\b)(?![\w-]+ed\b)(?-i:[a-z])[\w-]*)?)(?: (?P<name>{NAME}))?\b",
        text,
        re.I,
    )
    if not match:
        return
    if re.search(rf"\s{_PREPOSITION}$", match.group("x")) and not match.group("name"):
        return  # "the user's favourite at the moment is the Zoe": no "favourite at" that "it" could be
    head = match.group("x").split()[-1].lower()
    called = re.search(rf"\b(?:called|named)\s+(?P<name>{NAME})", text)
    name = match.group("name") or (called.group("name") if called else None)
    phrase = f"the user's {match.group('x')}" + (f" {name}" if name and name not in match.group("x") else "")
    if head in PEOPLE | CHANGEABLE:  # a wife, a boss: "it" is never them
        context.person = phrase
    else:
        context.thing = phrase


_UNNAMED = re.compile(rf"\b(?:my|our)\s+(?P<rel>{WHICH_ONE}[\w-]+)\b(?!\s*(?:'s|’s|{NAME}))", re.I)


# The user's people who are many: "they" after them is them
MANY = frozenset(
    word_list(
        "parents kids children grandparents in-laws grandkids grandchildren twins siblings sons daughters "
        "folks housemates roommates flatmates"
    )
)


def _unnamed_relation(clause: str, after: int) -> re.Match[str] | None:
    """The last person of the user's named by relation alone after `after` ("a complaint to my landlord"):
    whose name "his name is Herr Vogel" gives next."""
    found = [m for m in _UNNAMED.finditer(clause, after) if m.group("rel").split()[-1].lower() in PEOPLE]
    return found[-1] if found else None


# What is cancelled or flown to is a place or a plan, not a person: "We cancelled Lanzarote in the end" (but one
# books a person: "booked Dr Patel for Tuesday. He is a cardiologist")
_THING_BEFORE = re.compile(
    r"\b(?:cancell?ed|cancell?ing|(?:fly|flew|flying|travel(?:l?ed|l?ing)?|moved|moving|trip|holiday)\s+(?:to|in))"
    r"\s+$",
    re.I,
)


_AT_HOME = re.compile(r"\b(?:at|to|from|round|over)\s+$", re.I)
# A name's "'s" with nothing after it that is theirs: a disease, a shop ("has Alzheimer's, he …", "at Sainsbury's")
_NAMED_THING = re.compile(r"['’]s(?=\s*(?:$|[,.;:!?)]|(?:and|or|but|so|which|since|too)\b))", re.I)


_A_WORD_AFTER = re.compile(r"\s+(?-i:[a-z])")


def mentioned(clause: str, context: Context) -> None:
    """Who a clause named last ("my partner Sven", "not Elena", "a kitten"): "he", "she", "there" in the next one.

    A capitalized word that starts the clause is a name only when known already ("Volcano sounds fun").
    """
    relations = [
        m
        for m in re.finditer(rf"\b(?:my|our)\s+(?P<rel>[\w-]+)\s+(?P<name>{NAME})", clause, re.I)
        if m.group("rel").lower() in PEOPLE | CHANGEABLE
    ]
    found = values(clause)
    names = [
        v
        for v in found
        if v.kind == "name"
        and v.text.lower() not in NATIONALITIES | NOT_NAMES
        and (v.start > 0 or v.text.split()[0].lower() in context.known)
        and not v.text[:2].isupper()  # "RSVPs", "LUTH": an acronym is no one "she" stands for
        # "We cancelled Lanzarote": a trip, no "he" (but "cancelled Jack's swim class" names Jack)
        # (the words just before it: searched over the whole clause, a pasted list of names took seconds)
        and (
            _THING_BEFORE.search(clause[max(0, v.start - 40) : v.start]) is None
            or clause[v.end : v.end + 2] in ("'s", "’s")
        )
        # "has Alzheimer's and …": no one ("we stayed at Priya's, she has a puppy" is Priya's)
        and not (_NAMED_THING.match(clause, v.end) and not _AT_HOME.search(clause[max(0, v.start - 12) : v.start]))
        # "the Toronto journey is too much … He and his wife will come": a name said of a thing, no one "he" is
        and not (clause[max(0, v.start - 4) : v.start].lower() == "the " and _A_WORD_AFTER.match(clause, v.end))
        # "not building the Eiffel Tower. And now she's …": a building, no one "she" stands for
        and not (clause[max(0, v.start - 4) : v.start].lower() == "the " and v.text.split()[-1].lower() in _BUILT)
        # "Mr. Qureshi (Zoya's father) has taken over. He …": an aside names whom "he" is not
        and clause.count("(", 0, v.start) <= clause.count(")", 0, v.start)
    ]
    places = [v for v in found if v.kind == "place"]
    if places:
        context.place = places[-1].text
    pets = list(
        re.finditer(rf"(?:\b(?:a|an|my|our|the)\s+(?:new\s+|little\s+|old\s+)?|^)(?P<pet>{_PET})\b", clause, re.I)
    )  # "dog ate a bit of raisin bread", typed without its article
    last = relations[-1] if relations else None
    person_at = -1
    party = re.search(
        r"\b(?:the|my|our)\s+(?P<p>band|team|company|group|choir|club|shop|startup|business)\b", clause, re.I
    )
    if party:
        context.party = party.group("p").lower()
    many = [m for m in _UNNAMED.finditer(clause) if m.group("rel").split()[-1].lower() in MANY]
    if many:
        context.group = f"the user's {many[-1].group('rel').lower()}"
    unnamed = _unnamed_relation(clause, last.end() if last else 0)
    if unnamed is not None and (not names or names[-1].start <= unnamed.start()):
        context.person, person_at = f"the user's {unnamed.group('rel').lower()}", unnamed.start()
    elif last is not None and (not names or names[-1].start <= last.start("name")):
        context.person, person_at = f"the user's {last.group('rel')} {last.group('name')}", last.start()
    elif names:
        context.person, person_at = names[-1].text, names[-1].start
    if pets:
        context.pet = f"the user's {pets[-1].group('pet').lower()}"
        called = re.search(rf"\b(?:called|named)\s+(?P<name>{NAME})", clause[pets[-1].end() :])
        if called:  # "my cat is called Pixel": Pixel is the cat, not a person
            context.pet += f" {called.group('name')}"
            if context.person == called.group("name"):
                context.person, person_at = None, -1
        context.pet_last = pets[-1].start() > person_at
    elif person_at >= 0:
        context.pet_last = False


# What a place or a building is named by last: "the Eiffel Tower", "the Potato Shed", "the Royal Mail depot"
_BUILT = frozenset(
    word_list(
        "tower bridge street road park hall hotel hospital school museum centre center station airport mall square "
        "church cathedral palace castle lake river mountain beach building theatre theater stadium arena shed depot "
        "market library gallery"
    )
)
_HERS = frozenset(
    word_list(
        "wife fiancée fiancee girlfriend daughter mother mum mom mommy sister grandmother grandma granny nan aunt "
        "niece landlady stepdaughter stepmother stepmum stepmom granddaughter daughter-in-law sister-in-law "
        "mother-in-law wife-to-be lola abuela nonna oma nani nana dadi"
    )
)
_HIS = frozenset(
    word_list(
        "husband fiancé fiance boyfriend son father dad daddy brother grandfather grandpa uncle nephew landlord "
        "stepson stepfather stepdad grandson son-in-law brother-in-law father-in-law husband-to-be lolo abuelo "
        "nonno opa"
    )
)
_OWNER = re.compile(rf"\b(?:my|our)\s+(?P<rel>{WHICH_ONE}[\w-]+)(?:'s|’s)\s", re.I)


def unnamed_in(text: str) -> tuple[str, ...]:
    """The user's people a message named by relation alone ("my daughter's birthday", "my landlord"), as
    "daughter", in order; none where it named them ("my daughter Yui")."""
    found = [
        m for m in (*_UNNAMED.finditer(text), *_OWNER.finditer(text)) if m.group("rel").split()[-1].lower() in PEOPLE
    ]
    return tuple(m.group("rel").lower() for m in sorted(found, key=lambda m: m.start()))


_NAME_THEN_PRONOUN = re.compile(
    rf"^(?P<name>{NAME}),\s+(?P<p>she|he)(?P<verb>'s|’s|\s+is|\s+was|\s+has|\s+had)\s+", re.I
)


def named_at_once(text: str, unnamed: Sequence[str]) -> str:
    """ "Yui, she's turning 7" after "my daughter's birthday": "my daughter Yui is turning 7" (a name given at
    once, of the one person the message before left unnamed whom "she" or "he" fits; not "Emma, she's my best
    friend": what it says is who she is)."""
    match = _NAME_THEN_PRONOUN.match(text)
    if match is None or re.match(r"(?:my|our|a|an|the|not)\b", text[match.end() :], re.I):
        return text
    fitting = _HERS if match.group("p").lower() == "she" else _HIS
    fit = [rel for rel in unnamed if rel.split()[-1] in fitting or rel.split()[-1] not in _HERS | _HIS]
    if len(fit) != 1:
        return text  # "my daughter's birthday and my mum's visit": which of them is Yui?
    verb = match.group("verb").strip()
    verb = "is" if verb in ("'s", "’s") else verb
    return f"my {fit[0]} {match.group('name')} {verb} {text[match.end() :]}"


_HIS_TOO = _HIS | {"boy", "lad", "fella", "bloke"}
_HERS_TOO = _HERS | {"girl", "lass"}


def fits(pronoun: str, who: str | None) -> bool:
    """Can "his" or "her" stand for `who` ("the user's wife Larissa" is no "his")?"""
    relation = re.match(r"the user's ([\w-]+)", who or "", re.I)
    rel = relation.group(1).lower() if relation else ""
    return who is not None and rel not in (_HERS_TOO if pronoun.lower() in ("he", "his", "him") else _HIS_TOO)


def gendered(text: str) -> tuple[str | None, str | None]:
    """The last man and the last woman of the user's a text names by relation ("my boy Liam", "my wife Sharon",
    "my mother"), as "the user's boy Liam", "the user's mother"."""
    his = hers = None
    for m in re.finditer(rf"\b(?:my|our)\s+(?P<rel>[\w-]+)(?:\s+(?P<name>{NAME}))?", text, re.I):
        rel, name = m.group("rel").lower(), m.group("name")
        who = f"the user's {rel} {name}" if name else f"the user's {rel}"  # "my mother arrives …": the mother
        if rel in _HIS_TOO:
            his = who
        elif rel in _HERS_TOO:
            hers = who
    return his, hers


# A pronoun's new age, first in a sentence: "oh and she turned 8 yesterday!!", "He's 5 now"
_PRONOUN_AGED = re.compile(
    r"(?:^|(?<=[.!?]\s))(?P<lead>(?:(?:oh|and|also|so|btw|omg|ok)[,\s]+)*)(?P<who>she|he)"
    r"(?=(?:\s+(?:just|finally|officially))?(?:\s+(?:turned|turns|is)|['’]s|s)\s+(?P<n>\d{1,3})\b)",
    re.I,
)
_AGED_KNOWN = re.compile(
    r"^the user's (?P<rel>[\w-]+) (?P<name>(?-i:[A-Z])[\w'-]+) (?:is|turned) (?P<age>\d{1,3})\b", re.I
)


def named_by_age(text: str, before: str, facts: Iterable[str]) -> str:
    """ "she turned 8 yesterday" in a message whose "she" no name before it stands for (nor the message before's),
    of the one girl of the user's known to be 7 or 8: "Mia turned 8 yesterday". `facts`: the live facts' texts,
    read only where a pronoun's age is said."""
    said = _PRONOUN_AGED.search(text)
    if said is None or _names_someone(text[: said.start()]) or any(gendered(before)):
        return text
    his = said.group("who").lower() == "he"
    matches = {
        m.group("name")
        for fact in facts
        if (m := _AGED_KNOWN.match(fact))
        and m.group("rel").lower() in (_HIS_TOO if his else _HERS_TOO)
        and 0 <= int(said.group("n")) - int(m.group("age")) <= 2
    }
    if len(matches) != 1:
        return text  # none, or two it could be
    return f"{text[: said.start('who')]}{matches.pop()}{text[said.end('who') :]}"


def _names_someone(text: str) -> bool:
    """Does a text name someone "she" or "he" may stand for: a relation ("my mum"), a capitalised word that
    does not open its sentence?"""
    if re.search(r"\b(?:my|our)\s+\w+", text, re.I):
        return True
    return any((text[: m.start()].rstrip()[-1:] or ".") not in ".!?" for m in re.finditer(r"\b[A-Z][a-z]+\b", text))
