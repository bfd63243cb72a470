"""The reader of who is who to the user ("my partner Sven and I", "Son's name is Lwazi"), and the
relations named on the way in any fact ("… with my cat Pixel"), which are facts of their own, and what a
relative clause says of whom it follows ("Youssef who is 8", "Poutine, who is a menace and knocks …").

A reader as `readers` describes them: a clause and the message's `Context` in, the facts read
out in the third person, or None when the clause is not of its kind.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

from memoir.ingest.introductions import NAME
from memoir.ingest.lexicon import CHANGEABLE, JOB_ENDINGS, PEOPLE, PETS
from memoir.ingest.values import MONTHS, WEEKDAYS

if TYPE_CHECKING:
    from memoir.ingest.referents import Context

__all__ = [
    "MAX_WHO",
    "VERBS",
    "WHO_IS",
    "aged_in_brackets",
    "named_on_the_way",
    "naming_facts",
    "relation",
    "relative_subject",
    "where_they_live",
    "who_is",
    "without_relations",
]

# A name after a relation may carry its title ("my colleague Dr. Salma Hegazy"): the title alone is no name.
_TITLED_NAME = rf"(?:(?-i:Dr|Mr|Mrs|Ms|Mx|Prof|Fr|Rev)\.?\s+)?{NAME}"

VERBS = (
    r"(?:is|are|was|were|has|have|had|will|would|turns|turned|just|got|gets|likes|loves|can|does|did"
    r"|like|love|hate|want|need|adore|prefer|miss|play|watch|visit|know|call)"  # "My kids love Lego"
)

_RELATION_FRAGMENT = re.compile(
    rf"^(?:(?:it's|it is)\s+(?:me\s+)?(?:and\s+)?)?(?:my|our)\s+(?P<rel>[\w-]+(?: (?!{VERBS}\b)[\w-]+)?)\s+"
    rf"(?P<name>{NAME})(?:\s+and\s+(?:i|me|myself))?$",
    re.I,
)
# A relation said in two words: "my team lead Rakesh", "my best friend Ana" (a business partner is no partner that
# changes: "… with their business partner Declan" stays as said)
_COMPOUND = r"(?P<compound>(?:team|tech|project|line|research|thesis|phd|best)\s+(?!partner\b))?"
# (after a relation in two words, the name before what is said of them: not "my team lead Friday standup", "my line
# manager Teams message")
_SAID_OF_THEM = (
    r"(?(compound)(?<!\bDr)(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bProf)(?=\s*(?:[,.;:!?)]|$)|\s+(?:is|was|were|has|had|have|"
    r"will|would|can|could|says|said|wants|wanted|thinks|thought|told|asked|gave|sent|called|emailed|likes|loves|"
    r"hates|works|lives|just|also|and|who)\b))"
)
_NAMED_RELATION = re.compile(
    rf"\b(?:my|our|their|the user's)\s+(?P<rel>{_COMPOUND}[\w-]+)\s+(?P<name>{_TITLED_NAME}){_SAID_OF_THEM}", re.I
)
# Named between commas: "My supervisor, Dr. Okafor, says it's too long"
_NAMED_BESIDE = re.compile(
    rf"\b(?:my|our|their|the user's)\s+(?P<rel>{_COMPOUND}[\w-]+),\s+(?P<name>{_TITLED_NAME}),", re.I
)
_BARE_RELATION = re.compile(
    rf"^(?!(?i:my|our|the|this|that|his|her|their|it|he|she)\b)(?:(?P<rel>[A-Za-z-]+)'s name is (?P<name>{NAME})"
    rf"|(?P<rel2>[A-Za-z-]+(?: [a-z-]+)?) is (?P<name2>{NAME}))$"
)
# "new manager here is Sunita", "the new coach is Dana now": a relation the user has, named as it changes
_NEW_RELATION = re.compile(
    r"^(?:(?:the|our|my)\s+)?new\s+(?P<rel>[\w-]+(?:\s+(?!(?:here|now|at)\b)[\w-]+)?)"
    rf"(?:\s+(?:here|now|at work))?\s+(?:is|will be)\s+"  # "my new advisor will be Professor Lee"
    rf"(?P<name>{_TITLED_NAME})(?:\s+now)?$",
    re.I,
)
_GO_TO = re.compile(
    r"^(?P<x>.+?) (?:is|are) (?:my|our) (?P<what>go-to(?: \w+)?|favou?rite(?: \w+)?|comfort food|guilty pleasure)"
    r"(?:,.*)?$",
    re.I,
)


def relation(clause: str, context: Context) -> list[str] | None:
    """ "my partner Sven and I" (a fragment), "Son's name is Lwazi", "Head baker is Lucia": who is who."""
    match = _RELATION_FRAGMENT.match(clause)
    if match:
        context.person = f"the user's {match.group('rel')} {match.group('name')}"
        return [f"The user's {match.group('rel')} is {match.group('name')}"]
    bare = _BARE_RELATION.match(clause)
    if bare:
        rel = (bare.group("rel") or bare.group("rel2")).lower()
        name = bare.group("name") or bare.group("name2")
        if rel.split()[-1] in PEOPLE | PETS | CHANGEABLE or rel.endswith(JOB_ENDINGS):
            context.person = name
            return [f"The user's {rel} is {name}"]
    new = _NEW_RELATION.match(clause)
    if new and new.group("rel").split()[-1].lower() in PEOPLE | CHANGEABLE:
        context.person = new.group("name")
        rel = new.group("rel")
        return [f"The user's {rel if rel.isupper() else rel.lower()} is {new.group('name')}"]  # "GP" as typed
    go_to = _GO_TO.match(clause)
    if go_to:
        return [f"The user's {go_to.group('what').lower()} is {go_to.group('x')}"]
    return None


_POSSESSIVE_END = re.compile(r"['’]s$")


def _one_of(relation: str) -> str:
    """A relation as one holds it: "my phd supervisor" is the supervisor, "my line manager" the manager, whom a new
    one replaces; a team lead and a best friend are named so."""
    words = relation.split()
    if words[-1].lower() in _ONE_OF_MANY:  # "our children Emil and Greta": Emil is a child of theirs
        return _ONE_OF_MANY[words[-1].lower()]
    return words[-1] if len(words) > 1 and words[0].lower() in ("phd", "thesis", "research", "line") else relation


_ONE_OF_MANY = {
    "children": "child",
    "kids": "child",
    "boys": "son",
    "girls": "daughter",
    "sons": "son",
    "daughters": "daughter",
    "grandchildren": "grandchild",
    "grandkids": "grandchild",
    "grandsons": "grandson",
    "granddaughters": "granddaughter",
    "sisters": "sister",
    "brothers": "brother",
    "nieces": "niece",
    "nephews": "nephew",
    "stepsons": "stepson",
    "stepdaughters": "stepdaughter",
    "cousins": "cousin",
}
# A name with its age in brackets: "our children Emil (7) and Greta (4)", "my son Sota (14, he plays violin)"
_AGED_IN_BRACKETS = re.compile(
    r"(?<![\w'’-])(?P<name>(?-i:[A-Z])[a-zà-ÿ'’-]+)\s+\((?P<n>\d{1,2}(?:\s*months?)?)"  # a baby's age in months
    r"(?:\s*(?:y/?o|yrs?(?:\s+old)?|years?(?:\s+old)?))?"
    r"\s*[,;)]"
)
_WHOSE_CHILDREN = re.compile(
    r"\b(?:my|our)\s+(?:(?:two|three|four|five|\d|little|lovely|wonderful)\s+)*"
    r"(?P<rel>sons?|daughters?|kids?|children|child|boys?|girls?|grandsons?|granddaughters?|grandchildren|grandkids?|"
    r"nieces?|nephews?|brothers?|sisters?|stepsons?|stepdaughters?|cousins?|twins)\b(?!['’])",
    re.I,
)


# What may stand between a relation and a name of the list it names: other names with their ages, "and", commas
_LISTED = re.compile(r"(?:\s|,|:|\band\b|(?-i:[A-Z])[a-zà-ÿ'’-]+\s*\(\d{1,2}[^)]*\))*")


def aged_in_brackets(clause: str) -> list[str]:
    """Each name said with its age in brackets, and whose it is where the clause says: "our children Emil (7) and
    Greta (4)" -> "The user's child Emil is 7", "The user's child Greta is 4"."""
    found = []
    for m in itertools.islice(_AGED_IN_BRACKETS.finditer(clause), MAX_WHO):
        whose = _WHOSE_CHILDREN.search(clause[: m.start()])
        if whose is None or not _LISTED.fullmatch(clause[whose.end() : m.start()]):
            continue  # "Tom (34) from accounts", "my kids go to school with Tom (8)": of no one the user names
        rel = whose.group("rel").lower()
        rel = _ONE_OF_MANY.get(rel, "child" if rel == "twins" else rel)
        found.append(f"The user's {rel} {m.group('name')} is {m.group('n')}")
    return found


def naming_facts(text: str) -> list[str]:
    """ "… with my cat Pixel": the user's cat is Pixel (a relation named on the way)."""
    return [
        # "my partner Mathieu's family": the partner is Mathieu
        f"The user's {_one_of(m.group('rel'))} is {_POSSESSIVE_END.sub('', m.group('name'))}"
        for pattern in (_NAMED_RELATION, _NAMED_BESIDE)
        for m in pattern.finditer(text)
        if m.group("rel").lower().split()[-1] in PEOPLE | PETS | CHANGEABLE
    ]


def without_relations(text: str) -> str:
    """A fact with the relations that change written as names only ("their boyfriend Arjun" -> "Arjun"):
    the relation is a fact of its own, so a boyfriend who becomes a husband changes one fact."""

    def name_only(match: re.Match[str]) -> str:
        return match.group("name") if match.group("rel").lower().split()[-1] in CHANGEABLE else match.group(0)

    return _NAMED_RELATION.sub(name_only, text)


MAX_WHO = 8
_DOES = "lives|works|studies|teaches|runs|owns"  # one thing a relative clause says of someone, beside "is"
WHO_IS = re.compile(
    r"(?<![\w'’-])(?P<name>(?-i:[A-Z])[\w'’-]+),?\s+who(?:(?:'s|\s+is|\s+was|\s+turns|\s+turned|\s+just turned)\s+"
    r"(?P<what>[^,;]+?)(?=\s+and\s+(?-i:[A-Z])|\s*[,;]|$)"
    # "My son Nigel, who lives in Toronto, has been …": one thing said of them, between commas
    rf"|\s+(?P<verb>{_DOES})\s+(?P<done>(?:(?!\band\b)[^,;])+?)(?=\s*,))"
)
# "daughter Meera, 9, football Sat am": the age said between commas after a name
_AGED_AFTER = re.compile(
    r"\b(?:my|our)\s+(?P<rel>[\w-]+)\s+(?P<name>(?-i:[A-Z])[\w'’-]+),\s+(?P<n>\d{1,2})(?:\s*(?:yo|y/o|years? old))?"
    r"\s*(?:,|$)",
    re.I,
)
# "My granddaughter, who is reading law at Durham, would be appalled": what is said of a relation named no more
_RELATION_WHO = re.compile(
    rf"\b(?:my|our)\s+(?P<rel>[\w-]+),\s+who(?:'s|\s+is|\s+(?P<verb>{_DOES}))\s+"
    r"(?P<what>(?:(?!\band\b)[^,;])+?)\s*,",
    re.I,
)


_RELATIVE_LAST = re.compile(r",\s+who(?:'s|’s|\s+is|\s+was|\s+are)\s+[^,;]+$", re.I)


def who_is(clause: str, made: list[str]) -> list[str]:
    """Of the people a fact of the user's names, what a relative clause says ("two kids, Youssef who is 8
    and Laila who is 5"): a fact each, as said."""
    if not made:
        return []
    # A few: each is gated against the whole clause, and a pasted list of thousands cost seconds.
    found = itertools.islice(WHO_IS.finditer(clause), MAX_WHO)
    said = [
        f"{m.group('name')} {m.group('verb') or 'is'} {(m.group('what') or m.group('done')).strip()}" for m in found
    ]
    said += [
        f"The user's {m.group('rel').lower()} {m.group('name')} is {m.group('n')}" for m in _AGED_AFTER.finditer(clause)
    ]
    kin = _RELATION_WHO.search(clause)
    if kin and kin.group("rel").lower() in PEOPLE:
        said.append(f"The user's {kin.group('rel').lower()} {kin.group('verb') or 'is'} {kin.group('what').strip()}")
    return said


def named_on_the_way(made: list[str]) -> list[str]:
    """Relations named inside a fact, each a fact of its own ("… in Leipzig with their cat Pixel")."""
    extra = []
    for text in made:
        for naming in naming_facts(text.replace("their ", "my ").replace("the user's ", "my ")):
            rel, name = naming.removeprefix("The user's ").split(" is ", 1)
            lowered = text.lower()  # "The user's cat Pixel is 4": who Pixel is goes without saying, unless the
            # relation is one that changes, which the fact loses (`rules`): "… roommate Hana cooks" -> "Hana cooks"
            said = lowered.startswith(naming.lower()) or (
                lowered.startswith(f"the user's {rel} {name} ".lower()) and rel.lower().split()[-1] not in CHANGEABLE
            )
            if naming not in made and not said:
                extra.append(naming)
    return extra


def relative_subject(first: str) -> str | None:
    """Whose is a verb after "and" that follows a relative clause ("… our cat, Poutine, who is a menace and knocks
    …"): the person named before "who" ("Poutine"), "" where the clause names no one in capitals ("… poutine, who is
    …"), None where no relative clause ends before it (the verb is the sentence's subject's)."""
    who = list(itertools.islice(WHO_IS.finditer(first), MAX_WHO))
    if who and who[-1].end() == len(first.rstrip()):
        return who[-1].group("name")
    return "" if _RELATIVE_LAST.search(first) else None


# Where the user's people live, said on the way: "… closer to their parents in Moncton", "at the user's son's house in
# Leeds" (a place by its name; not "their sister in law", "their mum in hospital", "their sister in London for lunch")
_FAMILY = (
    "parents|grandparents|in-laws|mum|mom|mother|dad|father|sister|brother|son|daughter|grandma|grandmother|grandpa|"
    "grandfather|aunt|uncle|cousin|niece|nephew|best friend|friend"
)
_WHEN = "|".join(m.capitalize() for m in (*MONTHS, *WEEKDAYS))  # "visit my mum in May" is when
_LIVES_ON_THE_WAY = re.compile(
    rf"\b(?:their|the user's)\s+(?P<rel>{_FAMILY})(?:['’]s\s+(?:house|place|flat|home|apartment))?\s+(?:in|near)\s+"
    rf"(?!(?:{_WHEN})\b)(?P<place>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)(?![\w'-])"
    r"(?!\s+(?:for|on|last|this|next|law)\b)"
)


def where_they_live(made: list[str]) -> list[str]:
    """Where the user's people live, named inside a fact, each a fact of its own ("The user's parents live in
    Moncton" of "… closer to their parents in Moncton")."""
    found = []
    for text in made:
        for m in _LIVES_ON_THE_WAY.finditer(text):
            rel = m.group("rel").lower()
            verb = "live" if rel in ("parents", "grandparents", "in-laws") else "lives"
            said = f"The user's {rel} {verb} in {m.group('place')}"
            if not any(f.lower().startswith(said.lower()) for f in made) and said not in found:
                found.append(said)
    return found
