"""Who has gone from the user's life: a pet lost or rehomed, a partner after a break-up, an associate who left.

What was known of them no longer holds ("Buster is the user's border collie, 13 years old" and "Buster
don't like being left with anybody" after "We lost our old dog on Tuesday"): those facts are taken back.
What the message says is kept as said, and the event log keeps every word of what came before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from memoir.ingest.cues import NAMED_PARTING
from memoir.ingest.known import Known
from memoir.ingest.lexicon import PEOPLE, PETS, word_list
from memoir.ingest.partings import WORK_ROLES, named_leaving, says_parted

__all__ = [
    "DIED",
    "gone_facts",
    "gone_names",
    "kind_words",
    "makes_given_on",
    "says_gone",
    "sold",
]

# The kinds a pet is named by: "our old dog" is the border collie, "our bunny" the rabbit
_KINDS = [
    frozenset(
        word_list(
            "dog dogs puppy pup doggo collie labrador lab retriever spaniel terrier beagle poodle husky shepherd "
            "bulldog dachshund corgi pug chihuahua boxer rottweiler greyhound whippet labradoodle cockapoo "
            "schnauzer doberman sheepdog malamute akita shiba mutt"
        )
    ),
    frozenset(word_list("cat cats kitten kitty tabby siamese persian ragdoll bengal moggy")),
    frozenset(word_list("rabbit bunny")),
]
_ANY_KIND = "|".join(sorted(PETS | {k for kinds in _KINDS for k in kinds}, key=len, reverse=True))
_FOND = r"(?:(?:old|little|sweet|beloved|dear|poor|lovely|baby)\s+)?"
_NAME = r"(?-i:[A-Z])[\w'’-]+"
# What may follow the pet in a sentence of its loss: its name, when, where; not a thing of it ("dog tag", "puppy
# class booking", "bunny slippers")
_AFTER_PET = r"(?=\s*(?:[.,;:!?)]|$|(?-i:[A-Z])|(?:on|last|this|yesterday|today|recently|to|in|at|after|and|so|but)\b))"
# A pet's death at the vet's: "was put down", "had to be put to sleep", "was euthanised"
_PUT_TO_SLEEP = r"(?:was|were|had to be|has been)\s+(?:put down|put to sleep|euthani[sz]ed)"
# A death said as news, which the story of someone gone keeps (`old_story`)
DIED = re.compile(rf"\b(?:died|passed away|{_PUT_TO_SLEEP})\b", re.I)
_PET_GONE = [
    re.compile(  # "we lost our old dog", "we had to rehome our bunny"
        r"\b(?:lost|re-?homed|had to re-?home|had to put down|had to give away|gave away|buried)\s+"
        rf"(?:our|my)\s+{_FOND}(?P<kind>{_ANY_KIND})\b{_AFTER_PET}(?:\s+(?P<name>{_NAME}))?",
        re.I,
    ),
    re.compile(  # "our cat Miso died", "my old dog passed away"
        rf"\b(?:our|my)\s+{_FOND}(?P<kind>{_ANY_KIND})(?:\s+(?P<name>{_NAME}))?\s+(?:has\s+)?"
        rf"(?:died|passed away|{_PUT_TO_SLEEP}|is gone)\b",
        re.I,
    ),
]
# A loss for a while, or long ago: "lost our dog for two hours but found him", "died years ago"
_NOT_FOR_GOOD = re.compile(
    r"\b(?:found|back|home now|almost|nearly|for (?:a|an|one|two|three|\d+|the) (?:minutes?|hours?|while|day|"
    r"night|week|weekend)|years ago|before)\b",
    re.I,
)
# A name that died, at a word's start only (one try per run of letters: a pasted "Ab-Ab-…" is read once)
_NAME_GONE = re.compile(
    rf"(?<![\w'’-])(?P<before>\w+\s+)?(?P<name>{_NAME})\s+(?:has\s+)?"
    rf"(?:died|passed away|{_PUT_TO_SLEEP})\b"
)
# "Had to put Duke down yesterday": a known pet, for good ("had to", done), not "put Max down for a nap", "will
# never put Max down", "may have to put Max down next month", "put Duke down as an emergency contact"
_PUT_DOWN = re.compile(
    rf"(?:^|\b(?:we|i|we've|i've)\s+)(?:(?:just|finally)\s+)?had\s+to\s+put\s+(?P<name>{_NAME})\s+down\b"
    r"(?!\s+(?:for|as|on|to|gently)\b)",
    re.I,
)
# "gave taco to my mom", "rehomed Biscuit": a known pet, by its name as typed, given to someone to keep (not "gave
# Mochi to the vet for her spay", "gave Taco to my mom to hold while I parked", "gave biscuit to the dog")
_GIVEN = re.compile(
    r"\b(?:(?:gave|given)\s+(?P<name>[\w'’-]+)\s+(?:away\b|to\s+(?:my|our|a|an|the)\s+(?:[\w-]+\s+)?"
    r"(?:mom|mum|mother|dad|father|parents|sister|brother|cousin|aunt|uncle|grandma|grandpa|nan|friend|neighbou?r|"
    r"family|shelter|rescue|sanctuary|colleague|coworker|home)\b(?!\s+(?:to|for)\s+(?:hold|walk|mind|watch|a\s)))"
    r"|re-?homed\s+(?P<rehomed>[\w'’-]+))",
    re.I,
)
_OUTLIVES = re.compile(r"\b(?:daughter|son|child|children|kids?|baby|babies|twins)\b")
_PARTNERS = frozenset(word_list("girlfriend boyfriend partner fiance fiancee fiancé fiancée gf bf"))
_BROKE_UP = re.compile(
    # not "we split up the bill", "I broke up the fight", "I'm single-handedly running it"
    r"\b(?:(?:we|i)\s+(?:have\s+|'ve\s+|’ve\s+|just\s+|finally\s+)?(?:broke|broken|split)\s+up"
    r"(?!\s+(?:the|a|an|my|our|his|her|their|into|in|over|between)\b)|"
    rf"{NAMED_PARTING}|"
    r"(?:i'm|i’m|im|i am)\s+single(?![\w-])(?:\s+now|\s+again)?(?=\s*(?:[.,;:!?]|$|and|so|but|lol|haha)))"
    rf"(?:\s+with\s+(?:my\s+\w+\s+)?(?P<name>{_NAME}))?",
    re.I,
)
# Whom the user works beside or under, gone from the work: "my associate leaves the project", "my boss Tom
# retired"; not out for lunch ("my boss left early", "left for Paris this morning", "quit sugar", "is retiring
# next year, maybe")
_WORK = WORK_ROLES
_WORK_PLACE = (
    r"(?:the|our|my|this)\s+(?:company|project|firm|team|lab|business|job|practice|university|uni|group|startup)"
)
_LEFT = re.compile(
    rf"\bmy\s+(?P<rel>{_WORK})(?:\s+(?P<name>{_NAME}))?\s+(?:has\s+|is\s+|just\s+)?"
    r"(?:(?:left|leaves|is leaving|quit|quits|resigned)\s+"
    rf"(?:{_WORK_PLACE}\b(?!\s+(?:party|meeting|call|dinner|lunch))|"
    r"(?=to\s+join\b))|(?:resigned|retired)(?=\s*(?:[.,;!]|$)))",
    re.I,
)


def gone_names(text: str, live: Sequence[Known]) -> list[str]:
    """The names of whom a sentence says is gone, as the known facts give them ("Buster" of "our old dog"):
    what finds the rest of what is known of them."""
    return sorted(_gone(text, live)[1] | named_leaving(text, live))


def kind_words(text: str) -> str:
    """The words whom a sentence says is gone may be known by ("dog": collie, puppy, …; a partner after a
    break-up: girlfriend, fiancé, …), for finding the facts that name them."""
    said = {w.lower() for w in re.findall(r"[a-z]+", text, re.I)}
    partners = _PARTNERS if _BROKE_UP.search(text) else frozenset()
    return " ".join(sorted({k for kinds in _KINDS if said & kinds for k in kinds} | partners))


def says_gone(text: str) -> bool:
    """Does a sentence say a pet, a partner or an associate of the user's is gone, or an organisation declined them?"""
    patterns = (*_PET_GONE, _BROKE_UP, _LEFT)
    return (
        any(p.search(text) for p in patterns)
        or any(p.search(text) is not None for p in (_NAME_GONE, _PUT_DOWN, _GIVEN))
        or says_parted(text)
    )


def gone_facts(text: str, live: Sequence[Known]) -> list[Known]:
    """The known facts about whom a sentence says is gone: their relation to the user and what was said of them."""
    kinds, names, relations = _gone(text, live)
    if not (kinds or names or relations):
        return []
    broke_up = _BROKE_UP.search(text) is not None
    found = []
    for known in live:
        if known.id is None:
            continue
        lower = known.text.lower()
        subject = lower.split()[0].removesuffix("'s").removesuffix("’s")
        relation = re.match(r"the user's ([\w-]+(?: [\w-]+)?)", lower)
        theirs = relation is not None and (
            relation.group(1).split()[0] in kinds | relations
            or relation.group(1) in relations
            or relation.group(1).split()[-1] in names  # "The user's cat Miso is 3"
        )
        pet = _pet_of(known.text)  # "… old border collie Duke follows …", "The user has a dog named Rex"
        has = re.match(rf"the user has an? (?:[\w-]+ ){{0,2}}(?P<kind>{_ANY_KIND})\b", lower)
        # "has a dog named Pepper and a cat named Salt" is the cat's too: not taken back for the dog
        alone = has is not None and len(re.findall(rf"\b(?:{_ANY_KIND})\b", lower)) == 1
        # after a break-up, what the user did with the partner is over ("The user lives with Kayla in Perth", "The
        # user and Kayla split the rent"), not what outlives it ("has a daughter with Kayla")
        together = (
            broke_up
            and not _OUTLIVES.search(lower)
            and any(re.search(rf"\b(?:with|the user and)\s+{re.escape(name)}\b", lower) for name in names)
        )
        if (
            subject in names
            or theirs
            or together
            or (pet and pet[0] in names)
            or (has and alone and has.group("kind") in kinds)
        ):
            found.append(known)
    return found


def _gone(text: str, live: Sequence[Known]) -> tuple[frozenset[str], set[str], set[str]]:
    """The pet kinds, names and relations a sentence says are gone (names: theirs, as the known facts give)."""
    kinds: frozenset[str] = frozenset()
    names: set[str] = set()
    relations: set[str] = set()
    pets = _pets(live)
    if _NOT_FOR_GOOD.search(text) is None:
        for pattern in _PET_GONE:
            for m in pattern.finditer(text):
                if m.group("name"):  # "our cat Miso died": Miso, not every cat
                    names.add(m.group("name").lower())
                    continue
                of_kind = _kinds_of(m.group("kind").lower())
                theirs = [n for n, kind in pets.items() if kind in of_kind]
                if len(theirs) <= 1:  # the one pet of its kind ("our dog" of two dogs is neither)
                    kinds |= of_kind
                    names |= set(theirs)
        for m in _NAME_GONE.finditer(text):  # "Miso died", not "my grandpa Max passed away"
            before = (m.group("before") or "").strip().lower()
            if m.group("name").lower() in pets and before not in PEOPLE:
                names.add(m.group("name").lower())
        given = [m.group("name") or m.group("rehomed") for m in _GIVEN.finditer(text)]
        put = [m.group("name") for m in _PUT_DOWN.finditer(text)]
        names |= {name.lower() for name in (*given, *put) if name.lower() in pets}
    for m in _BROKE_UP.finditer(text):
        partners = _related(live, _PARTNERS)
        named = m.group("name")
        names |= {named.lower()} if named else set(partners)
        relations |= {rel for name, rel in partners.items() if name == named.lower()} if named else set(_PARTNERS)
    for m in _LEFT.finditer(text):
        rel = m.group("rel").lower()
        relations.add(rel)
        names |= {m.group("name").lower()} if m.group("name") else set(_related(live, {rel}))
    return kinds, names, relations


def _kinds_of(kind: str) -> frozenset[str]:
    return next((kinds for kinds in _KINDS if kind in kinds), frozenset({kind}))


_PET_FACTS = [
    re.compile(rf"^(?P<name>{_NAME}) is (?:the user's|their) (?:[\w-]+ ){{0,2}}?(?P<kind>{_ANY_KIND})\b", re.I),
    re.compile(
        rf"^the user's (?P<kind>{_ANY_KIND})(?:'s name is| is called| is named| is)? (?P<name>{_NAME})(?:\s+now)?$",
        re.I,
    ),
    re.compile(rf"^the user has an? (?:[\w-]+ ){{0,2}}(?P<kind>{_ANY_KIND}),? (?:called |named )?(?P<name>\w+)$", re.I),
    # "The user's cat Miso is 3", "The user's old border collie Duke follows the user out"
    re.compile(rf"^the user's {_FOND}(?:[\w-]+ )?(?P<kind>{_ANY_KIND}) (?P<name>{_NAME})\b", re.I),
    # "The user takes their springer spaniel, Bramble, along …", "The user walks their dog Rex every morning"
    re.compile(
        rf"^the user (?:[\w-]+ ){{1,2}}(?:their|the user's) {_FOND}(?:[\w-]+ )?(?P<kind>{_ANY_KIND}),?"
        rf" (?P<name>{_NAME})\b",
        re.I,
    ),
]


def _pets(live: Sequence[Known]) -> dict[str, str]:
    """The user's pets the known facts name, name -> kind ("buster": "collie")."""
    return dict(pet for known in live if (pet := _pet_of(known.text)) is not None)


@lru_cache(maxsize=4096)
def _pet_of(fact: str) -> tuple[str, str] | None:
    """(name, kind) of the pet a fact names ("Buster is the user's border collie"), read once per fact."""
    for pattern in _PET_FACTS:
        if m := pattern.match(fact.rstrip(".")):
            return m.group("name").lower(), m.group("kind").lower()
    return None


def _related(live: Sequence[Known], relations: frozenset[str] | set[str]) -> dict[str, str]:
    """The user's people of these relations the known facts name, name -> relation."""
    found = {}
    for known in live:
        m = re.match(rf"^the user's (?P<rel>[\w-]+(?: (?!is\b)[\w-]+)?)(?: is)? (?P<name>{_NAME})", known.text, re.I)
        if m and m.group("rel").lower() in relations:
            found[m.group("name").lower()] = m.group("rel").lower()
    return found


# "sold my old bass": the thing the user had, whatever else its fact says ("a Fender Jazz Bass")
_SOLD_OLD = re.compile(
    r"\b(?:sold|sell|selling|traded in|got rid of|gave away)\s+(?:my|our|the)\s+(?:old|former)\s+"
    r"(?P<x>[a-z][\w-]+(?:\s+(?!(?:to|for|on|at|in|and|so|because|last|this|yesterday)\b)[a-z][\w-]+){0,2})"
    # "old card is going to my cousin": given on, once a new one came
    r"|(?:^|\b(?:my|our|the)\s+)old\s+(?P<y>[a-z][\w-]+)\s+(?:is going|goes|went)\s+to\s+(?:my|a|the|his|her|our)\b"
    # "returned the Yamaha to the store": taken back to where it was bought
    r"|\b(?:returned|sent back|took back|taken back)\s+(?:my|our|the)\s+(?P<z>[\w-]+(?:\s+(?!to\b|for\b)[\w-]+){0,2}?)"
    r"\s+(?:to\s+(?:the|a)\s+(?:store|shop|seller|dealer|retailer|dealership|website)|for\s+a\s+(?:full\s+)?refund)",
    re.I,
)
# A thing said by its kind that a fact names by its make: "old card" of "a GTX 1660 super"
_MAKES = {"card": "card gpu gtx rtx radeon geforce", "phone": "phone iphone pixel galaxy android"}


def sold(retracted: Sequence[str], known: str) -> bool:
    """Is `known` the user's having the old thing a clause says they sold ("The user's bass is a Fender Jazz
    Bass", "The user drives an old Golf"), not something else of its kind ("teaches bass lessons")?"""
    for clause in retracted:
        if sold := _SOLD_OLD.search(clause):  # every word of it: "golf clubs" is no Golf, "bass amp" no bass
            said = (sold.group("x") or sold.group("y") or sold.group("z")).lower()
            thing = (
                f"(?:{'|'.join(_MAKES[said].split())})" if said in _MAKES else r"\s+".join(map(re.escape, said.split()))
            )
            lower = known.lower()
            if sold.group("z") and " and " in lower:
                continue  # "returned the amp" of "a Yamaha C40 and a Yamaha amp": the rest is still had
            if re.match(rf"^the user's (?:[\w-]+ )?{thing}\b", lower) or re.match(
                rf"^the user(?: has| had| owns| owned| drives| rides| plays| bought| got|'s (?:pc|computer|rig|"
                rf"setup|laptop)\b)\b.*\b{thing}",
                lower,
            ):
                return True
    return False


def makes_given_on(clause: str) -> str | None:
    """The makes a thing given on is known by ("card": gtx, rtx, …), for finding the facts that name it."""
    given = _SOLD_OLD.search(clause)
    said = (given.group("y") or "").lower() if given else ""
    return _MAKES.get(said)
