"""What a fact is about, so that a new value replaces the old one: a topic is a subject and one attribute.

Some things hold one value at a time: where the user lives, their name, job, diet, age,
the date or place of their wedding, "the user's goal is …". A fact on such a topic with
another value is an update ("The user lives in Rotterdam" replaces "The user lives in
Utrecht"); with the same value it is the same fact. Everything else (likes, pets, plans,
habits) can hold many values at once and is only changed by what a message says changed
(`changes`).

Topics are read from the fact's text in the third person, whoever wrote it (the rules or
a model), so a fact stored last year and one written now compare alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from memoir.ingest.homes import RESIDENCE
from memoir.ingest.lexicon import CHANGEABLE, DIETS, EVENTS, ONE_AT_A_TIME, PEOPLE, PETS, word_list
from memoir.ingest.stemming import stem
from memoir.ingest.values import NUMBER_WORDS, values
from memoir.ingest.workplaces import (
    ACCEPTED,
    BESIDE,
    EMPLOYER,
    GOT_JOB,
    JOB_NOUN,
    JOINING,
    LEADS,
    POSITION,
    WORKS_AS,
    employer,
    names_a_job,
)

__all__ = [
    "FULL_NAME",
    "LISTED_AGE",
    "Topic",
    "job_words",
    "topics",
]

_NUMBER = r"\d{1,3}|" + "|".join(NUMBER_WORDS)
# What one cannot eat, kept beside the diet one keeps ("gluten-free" and "going keto")
_A_DIET = re.compile(
    r"\b(?:vegan|vegetarian|pescatarian|keto|paleo|carnivore|omnivore|plant-based|flexitarian)\b", re.I
)
_RESTRICTION = re.compile(r"(?:gluten|dairy|lactose)[- ](?:free|intolerant)|halal|kosher|teetotal|sober", re.I)
_A_PERSON = r"(?-i:[A-Z])[a-z]+"  # "Emi is on day shifts now"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("name", re.compile(r"^(?P<s>.+?)(?:'s name is| is called| is named| goes by)\s+(?P<v>.+)$", re.I)),
    (
        "age",
        re.compile(
            rf"^(?P<s>.+?)\s+(?:is|turns|turned|will turn|just turned|is turning)\s+(?P<v>{_NUMBER})"
            # an age, not a count: "The user's team is eight staff" is no age
            r"(?:\s+years?\s+old|-year-old)?(?:$|,|\s+(?=(?:years?|yrs?|y/o|now|this|next|in|on|at|soon|today|"
            r"tomorrow|yesterday|last|and|but|so|since|already|too|as|when|with|or|months?|weeks?)\b))",
            re.I,
        ),
    ),
    (  # "The user's dad's 85th was Saturday", "Mia's 7th birthday is today": the age they are now
        "age",
        re.compile(
            # had, not coming: not "Mia's 7th birthday is on Sunday"
            # a birthday by its word, or by when it was ("Dad's 85th was Saturday"), not "dad's 2nd was ok"
            r"^(?P<s>.+?)['’]s\s+(?P<v>\d{1,3})(?:st|nd|rd|th)\s+(?:(?:birthday|bday)\s+(?:was|is today)\b|"
            r"was\s+(?:on\s+)?(?:yesterday|today|last|this|on|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b)",
            re.I,
        ),
    ),
    ("residence", RESIDENCE),
    (
        "diet",
        re.compile(
            r"^(?P<s>the user)\s+(?:is|has gone|went|became|has become|has been|eats|stays|keeps)\s+"
            rf"(?:(?:fully|strictly|completely|mostly|now|a|an|totally|entirely)\s+)*(?P<v>{DIETS})\b",
            re.I,
        ),
    ),
    (  # "is going vegan from Monday", "switched to vegetarian", "going back to vegetarian": a diet said alone (not
        # "switched to vegan butter", "going gluten-free too", "going vegan for January")
        "diet",
        re.compile(
            r"^(?P<s>the user)\s+(?:is\s+going|goes|(?:has\s+|is\s+)?switch(?:ed|ing)\s+to|(?:is\s+)?going\s+back\s+to|"
            r"went\s+back\s+to)\s+(?:(?:fully|strictly|completely|full)\s+)?"
            r"(?P<v>vegan|vegetarian|veggie|pescatarian|pescetarian|keto|paleo|carnivore|plant-based|flexitarian)"
            r"(?=\s*(?:$|[,.;!]|(?:now|from|again|instead|since|because|so|and|but)\b))(?!.*\b(?:too|as well|also)\b)",
            re.I,
        ),
    ),
    ("job", WORKS_AS),
    (  # one nursery or school at a time, for the user's people: "Freddie goes to Little Acorns nursery", then
        # "he's starting at Bright Horizons"
        "school",
        re.compile(
            r"^(?P<s>(?:[Tt]he user's (?:[\w-]+ ){1,2})?[A-Z][a-z]+)\s+(?:now\s+)?"
            r"(?:goes to|attends|is starting at|starts at|has started at|will start at|will be starting at)\s+"
            r"(?:the\s+)?(?P<v>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)*)"
            # a school by its word, or one started at; not a club, a class or a day's visit ("goes to Scouts on
            # Mondays", "goes to Grandma's on Tuesdays", "is starting at Bright Stars ballet")
            r"(?i:(?=\s+(?:nursery|school|preschool|pre-school|kindergarten|daycare|academy|college|primary|"
            r"secondary|high|uni|university)\b)|(?<=[a-z])(?=\s*$|\s*[,.;]|\s+(?:on|in|next|this|from)\s+"
            r"(?!mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends)))"
            r"(?i:(?!.*\b(?:every|on (?:mon|tues|wednes|thurs|fri|satur|sun)days?|class|classes|lessons|club|ballet|"
            r"swimming|scouts|brownies|cubs|guides)\b))",
        ),
    ),
    (  # one shift pattern at a time: "on night shifts, four nights a week", then "on day duty, 8am to 4pm"
        "shift",
        re.compile(
            rf"^(?P<s>the user|{_A_PERSON})\s+"
            r"(?:(?:is|are|'s|works|work|does|has been|switched to|swapped to|moved to)\s+)"
            r"(?:(?:now|currently|still|back|only)\s+)*(?:on\s+)?(?:the\s+)?"
            r"(?P<v>night|day|early|late|morning|evening|afternoon|closing|opening|graveyard|weekend)s?\s+"
            r"(?:shifts?|duty|duties|rota)\b(?!\s+(?:rota\s+)?(?:committee|swaps?|cover)\b)",
            re.I,
        ),
    ),
    ("job", LEADS),
    ("employer", EMPLOYER),
    (  # a language level (CEFR): "My level is A2 now", then "I passed the B1 exam yesterday"
        "language level",
        re.compile(
            # "The user's German is not so good, only A2 level": its level, however it is said before it
            r"^(?P<s>the user)(?:'s (?:\w+ )?level is"
            r"|'s \w+ is(?:\s+[\w\s,]{0,30}?\b(?:only|about|around|at|like|level))?"
            r"| is(?: at)?| passed(?: the| their)?| has)\s+"
            r"(?:(?:now|an?|level)\s+)?(?P<v>(?-i:[ABC][12]))\b",
            re.I,
        ),
    ),
    (  # one computer at a time: "I'm using a Windows laptop, an old Dell", then "So I'm on a Mac now"
        "computer",
        re.compile(
            # what the user works on, not what they bought for someone ("a Mac for their son")
            r"^(?P<s>the user)\s+(?:(?:now|currently|still|also|just)\s+)*(?:is using|uses|is on|works on|"
            r"switched to)\s+(?:a\s+|an\s+|their\s+)?(?:new\s+|old\s+)?"
            r"(?P<v>windows|mac|macbook|imac|linux|ubuntu|chromebook)\b",
            re.I,
        ),
    ),
    (  # one end per term of the user's: "my contract ends in March", then "… extended my contract until June"
        "end of",
        re.compile(
            r"^(?P<s>the user)'s (?P<a>contract|lease|tenancy|visa|work permit|residence permit|permit|placement|"
            r"internship|probation|secondment|membership|subscription)\s+(?:now\s+)?"
            # "ends in March", "runs until end of June"; not "is at Google" (where, not when it ends)
            r"(?:(?:ends|finishes|finish|expires|runs out)\s+(?:now\s+)?(?:(?:until|till|through|to|in|on|at|by)\s+)*"
            r"|(?:runs|lasts|goes|is)\s+(?:now\s+)?(?:until|till|through)\s+)"
            r"(?P<v>.+?)(?:\s+now)?$",
            re.I,
        ),
    ),
    (
        "favourite",
        re.compile(r"^(?P<s>the user)'s (?:favou?rite|fav)\s+(?P<a>[\w\s]+?)\s+(?:is|are)\s+(?P<v>.+)$", re.I),
    ),
]
_RELATION = re.compile(
    r"^the user's (?P<rel>[\w-]+) is (?P<name>(?-i:[A-Z])[\w'-]+(?: (?-i:[A-Z])[\w'-]+)*)$"
    r"|^(?P<name2>(?-i:[A-Z])[\w'-]+(?: (?-i:[A-Z])[\w'-]+)*) is (?:now )?the user's (?P<rel2>[\w-]+)(?: now)?$",
    re.I,
)
# Engaged to someone: who they are to the user now ("The user's boyfriend is Marcus" before it)
_ENGAGED = re.compile(r"^the user is (?:now )?engaged to (?P<name>(?-i:[A-Z])[\w'-]+(?: (?-i:[A-Z])[\w'-]+)*)$", re.I)
_POSSESSIVE = re.compile(
    r"^(?P<s>the user's\s+[\w'-]+(?:\s+(?!is\b|are\b|will\b|now\b|currently\b)[\w'-]+){0,2})"
    r"(?:\s+(?:now|currently))?\s+(?:is|are|will be)\s+"  # "The user's truck now is DAF XF": the truck's
    # not what one is ("a beagle", "a nurse"); a thing's make or model is a value ("The user's car is a Golf")
    r"(?!called\b|named\b|(?:a|an)\b(?!\s+(?-i:[A-Z])[\w-]*(?:\s+(?-i:[A-Z0-9])[\w-]*)*(?:\s+now)?$))(?P<v>.+)$",
    re.I,
)
_ONES = PEOPLE | PETS | CHANGEABLE | ONE_AT_A_TIME  # people and pets: "a Catholic", "a beagle" say what one is


# A measure's last value, said in the past: "The user's last A1c was 8.1" (the one "The user's new A1c is 7.2" replaces)
_LAST_MEASURE = re.compile(
    r"^(?P<s>the user's\s+(?:last|latest|previous|most recent|recent)\s+[\w'-]+(?:\s+[\w'-]+)?)\s+(?:was|were)\s+"
    r"(?P<v>\d[\d.,]*%?.*)$",
    re.I,
)
# What the user pays each month, said as paying: "The user currently pays ₹24,000 rent" (the user's rent)
_PAYS = re.compile(
    r"^the user (?:(?:now|currently|still)\s+)?pays\s+(?:about\s+|around\s+)?(?P<v>[₹$€£]?\d[\d,.]*k?)\s+"
    r"(?:(?:a|per)\s+month\s+)?(?:in\s+|for\s+)?(?P<what>rent|mortgage)\b",
    re.I,
)

# "The user has six staff", "The user's team is eight staff": how many the user has of something, one
# number at a time (not a span or a measure: "The user has 3 weeks left")
_COUNTED = re.compile(
    r"^the user(?:'s (?P<whose>team|staff|company|business|shop|café|cafe|restaurant|class|family|household|school))?"
    r"\s+(?:(?:currently|now|still)\s+)?(?:has|have|is|are|has got|is down to|(?P<kept>is keeping|keeps))\s+(?:now\s+)?"
    rf"(?:about\s+|around\s+|only\s+)?(?P<n>\d{{1,4}}|{_NUMBER})"
    # "is keeping 5 students, all online" of 12, not "2 kids home today" nor "2 cats for my neighbour"
    r"\s+(?:more\s+)?(?P<what>[a-z]+)\b(?(kept)(?=\s*(?:,|$|\s+(?:now|only|all|online)\b)))",
    re.I,
)
# The user's own band's size (not a sister's, nor one booked for a wedding)
_OWN_ENSEMBLE = re.compile(
    r"^the user(?:'s (?:band|group) is (?:now )?a (?P<v>duo|trio|quartet|quintet|sextet|septet|octet)\b"
    r"| (?:plays?|is|sings?) (?:in|with) (?:a|their) (?P<w>duo|trio|quartet|quintet|sextet|septet|octet) called\s)",
    re.I,
)
_MEASURES = frozenset(
    word_list(
        "seconds minutes hours days nights weeks months years decades times kilos kgs pounds lbs miles kms metres "
        "meters euros dollars pounds bucks grams litres liters percent points"
    )
)

_TOGETHER = re.compile(r"^The user and (?:their \w+ )?(?-i:[A-Z])[\w'-]+ are (?P<rest>.+)$", re.I)


FULL_NAME = re.compile(r"^the user is (?P<first>(?-i:[A-Z][a-z]+)) (?P<last>(?-i:[A-Z][a-z]+))(?: now)?(?:,|$)", re.I)


# An age given in brackets after a name, as lists of children are written
LISTED_AGE = re.compile(r"\b(?P<name>(?-i:[A-Z])[a-z]+)\s*\((?P<n>\d{1,2})\)")


@dataclass(frozen=True)
class Topic:
    subject: str  # "user", "the user's cat", "pixel"
    attribute: str  # name, age, residence, diet, job, employer, "favourite colour", place, date, is
    value: str  # normalised

    @property
    def key(self) -> tuple[str, str]:
        return self.subject, self.attribute


# A place for a while or for someone else, not where the user lives
_NOT_A_HOME = re.compile(
    r"\bfor (?:the |a |an |my |our |his |her |their |the user's )?(?:conference|week|weekend|night|nights|trip|holiday|"
    r"stay|festival|wedding|summer|month|mom|mum|dad|parents|son|daughter|friend|brother|sister)\b"
    r"|\bin (?:their|his|her) head\b",
    re.I,
)


_A_GROUP = re.compile(r"\b(?:team|staff|class|group|crew|squad|band|family|household|company|headcount)$", re.I)


@lru_cache(maxsize=4096)
def topics(fact: str) -> tuple[Topic, ...]:
    """The single-valued topics a fact speaks to (none for most facts)."""
    text = " ".join(fact.replace("’", "'").split()).rstrip(".!")
    found: list[Topic] = []
    for attribute, pattern in _PATTERNS:
        match = pattern.match(text)
        if match and attribute == "age" and (not _an_age_now(match.group("v"), text) or _A_GROUP.search(match["s"])):
            continue  # "turned 65 in 2005", "turned 30 when I was born", "turned 180 on brexit"; "team is five"
        if match and attribute in ("employer", "shift") and BESIDE.search(text):
            continue  # "works at Tesco on weekends too, second job": another job beside the one known
        if match and attribute == "end of" and (not _A_TIME.search(match.group("v")) or " if " in text):
            continue  # "The user's visa is through their employer", "runs until June if …": no end said
        if match and attribute == "residence" and _NOT_A_HOME.search(text):
            continue  # "rented a studio in Paris for the week", "found apartment in Riverdale for my mom"
        if match:
            name = f"{attribute} {match.group('a').lower()}" if attribute in ("favourite", "end of") else attribute
            if name == "diet" and _RESTRICTION.match(match.group("v")) and not _A_DIET.search(text):
                name = "restriction"  # gluten-free beside keto: one of each at a time
            value = (employer(text) or match.group("v")) if attribute == "employer" else match.group("v")
            found.append(Topic(_subject(match.group("s")), name, _value(value)))
    relation = _RELATION.match(text)
    if relation and (relation.group("rel") or relation.group("rel2")).lower() not in _ONES | _GROUPS:
        relation = None  # "The user's truck is DAF XF": a thing's make, no person's name
    if relation:
        rel, name = relation.group("rel") or relation.group("rel2"), relation.group("name") or relation.group("name2")
        found.append(Topic(name.lower(), "relation", rel.lower()))
    engaged = _ENGAGED.match(text)
    if engaged:
        found.append(Topic(engaged.group("name").lower(), "relation", "fiancé"))
    found = [_of_language(t, text) for t in found]
    for job in (JOB_NOUN.match(text), JOINING.match(text), POSITION.match(text), ACCEPTED.match(text)):
        if job and job.group("v") and names_a_job(job.group("v")):  # "chef de partie"
            found.append(Topic("user", "job", _value(job.group("v"))))
    got = GOT_JOB.match(text)  # "got job at bakery in Leslieville, head baker position": a new job, its role
    if got and not any(t.attribute == "job" for t in found):
        role = got.group("v") if got.group("v") and names_a_job(got.group("v")) else got.group("where")
        found.append(Topic("user", "job", _value(role)))
    where = employer(text)
    if where and not any(t.attribute == "employer" for t in found):  # "a backend dev at Infosys": Infosys
        found.append(Topic("user", "employer", _value(where)))
    called = _CALLED.search(text)  # "a bass player in a band called Los Faros": the user's band is named so
    if called and text.lower().startswith("the user ") and not any(t.attribute == "name" for t in found):
        found.append(Topic(f"user's {called.group('what').lower()}", "name", _value(called.group("name"))))
    for listed in LISTED_AGE.finditer(text):  # "three kids, Alfie (11), Isla (8) and Freddie (4)": each one's age
        if not any(t.key == (listed.group("name").lower(), "age") for t in found):
            found.append(Topic(listed.group("name").lower(), "age", listed.group("n")))
    if (size := _OWN_ENSEMBLE.match(text)) is not None:  # "plays with a trio called Low Tide"
        found.append(Topic("user's band", "size", (size.group("v") or size.group("w")).lower()))
    counted = _COUNTED.match(text)
    if counted and counted.group("what").lower() not in _MEASURES:
        # the user's work counts as the user's ("six staff", "our team is eight staff"); a family is its own
        home = (counted.group("whose") or "").lower() in ("family", "household")
        whose = f"user's {counted.group('whose').lower()}" if home else "user"
        found.append(Topic(whose, f"count of {stem(counted.group('what'))}", counted.group("n").lower()))
    together = _TOGETHER.match(text)  # "The user and Katrin are now vegan": the user is, too
    if together:
        found.extend(t for t in topics(f"The user is {together.group('rest')}") if t.subject == "user")
    if paid := _PAYS.match(text):
        found.extend(_possessive(f"the user's {paid.group('what').lower()}", paid.group("v")))
    possessive = _POSSESSIVE.match(text) or _LAST_MEASURE.match(text)
    single = relation is None or (relation.group("rel") or relation.group("rel2")).lower() in ONE_AT_A_TIME
    if possessive and single and not any(t.attribute != "relation" for t in found):
        found.extend(_possessive(possessive.group("s"), possessive.group("v")))
    return tuple(found)


# When a term ends: a month, a year, a day, or "end of …", "soon"
_A_TIME = re.compile(
    r"\b(?:\d{1,4}|end|mid|middle|start|beginning|soon|jan\w*|feb\w*|march|mar|apr\w*|may|june?|july?|aug\w*|"
    r"sep\w*|oct\w*|nov\w*|dec\w*|spring|summer|autumn|fall|winter|next|this)\b",
    re.I,
)
_THEN = re.compile(r"\b(?:when|ago|back in|back then|in (?:19|20)\d\d|used to|before)\b", re.I)


def _an_age_now(value: str, text: str) -> bool:
    """Is a number an age said of now: a person's (at most 125), not one of a story ("turned 65 in 2005")?"""
    return (not value.isdigit() or int(value) <= 125) and _THEN.search(text) is None


def _of_language(topic: Topic, text: str) -> Topic:
    """A language level is one per language where the fact names it ("The user's Spanish level is B1", "The
    user passed the B1 German exam"), one of the language the conversation is about where it does not."""
    if topic.attribute != "language level":
        return topic
    named = re.search(r"\b(?!The\b|User\b|[ABC][12]\b)(?-i:[A-Z])[a-z]+\b", text)
    return Topic(topic.subject, f"{named.group(0).lower()} level", topic.value) if named else topic


def job_words(fact: str) -> set[str]:
    """The words of the job a fact names ("sous-chef": sous, chef), for telling a promotion from a new career."""
    return {w for t in topics(fact) if t.attribute == "job" for w in re.split(r"[\s-]+", t.value) if w}


_A_NAME = re.compile(r"^(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+){0,2}(?:\s+now)?$")
# What the user belongs to or runs, known by a name: "a band called Los Faros", "The user's band is Marea Alta now"
_GROUPS = frozenset(word_list("band team company startup shop restaurant bakery cafe café business choir club"))
_CALLED = re.compile(
    rf"\b(?:a|an|the|their|my|our)\s+(?:[\w-]+\s+)?(?P<what>{'|'.join(sorted(_GROUPS))})\s+(?:called|named)\s+"
    r"(?P<name>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+){0,2})",
    re.I,
)


def _possessive(subject: str, value: str) -> list[Topic]:
    """ "The user's goal is …" holds one value; an event's place and date are two ("in Malaga on 14 June")."""
    head = subject.split()[-1].lower()
    if head in _ONES and re.match(r"an?\s", value, re.I):
        return []  # "The user's wife is a Catholic": what she is, not her name
    # "The user's kitten is Mango now", "The user's band is Marea Alta now", "The user's wife is Sneha": a name,
    # which "The user's wife is pregnant" does not replace
    if (head in PETS or head in _GROUPS or head in PEOPLE) and _A_NAME.match(value):
        return [Topic(_subject(subject), "name", _value(value))]
    if head not in EVENTS and not subject.lower().endswith(tuple(f" {e}" for e in EVENTS)):
        return [Topic(_subject(subject), "is", _value(value))]
    kinds = {"place": "place", "name": "place", "date": "date", "weekday": "date", "time": "time"}
    found: dict[str, Topic] = {}
    for item in values(value):
        if item.kind in kinds:
            found.setdefault(kinds[item.kind], Topic(_subject(subject), kinds[item.kind], item.key))
    return list(found.values())


def _subject(subject: str) -> str:
    """A subject's key: its name when it has one ("the user's cat Pixel" -> "pixel"), else its words."""
    lowered = subject.lower().strip()
    whose = re.fullmatch(r"the user's (?:new |current )?(?P<rel>[\w -]+)", lowered)
    if whose and whose.group("rel") in _SAME_ROLE:  # a new manager replaces the team lead: one role
        return f"user's {_SAME_ROLE[whose.group('rel')]}"
    names = [w for w in re.findall(r"\b[A-Z][\w'-]*", subject) if w.lower() not in ("the", "user", "user's")]
    if names:
        return str(names[-1]).lower().removesuffix("'s")
    return "user" if lowered == "the user" else lowered.removeprefix("the ")


# Names of one role: whoever the user reports to, whoever treats them.
_SAME_ROLE = {
    **dict.fromkeys(
        ("boss", "manager", "line manager", "lead", "team lead", "tech lead", "supervisor", "advisor", "adviser"),
        "boss",
    ),
    **dict.fromkeys(("doctor", "gp", "physician"), "doctor"),
}


def _value(value: str) -> str:
    words = [w for w in re.split(r"[\s,]+", value.lower().strip(" .")) if w]
    while words and words[-1] in ("now", "currently", "again", "too", "anymore", "these", "days"):
        words.pop()
    return " ".join(w for w in words if w not in ("the", "a", "an"))
