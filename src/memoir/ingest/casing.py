"""Names in a message typed all in lower case ("freddie is 2 months today", "wife jen does our books").

The readers know a name by its capital. People who type without capitals still name the
people, pets and places their facts already hold ("Freddie", "Taco", "Square"), and name
someone new right after who they are ("wife jen", "my sister chloe shes 12", "…, my daughter
keisha 🥹") or after a title ("dr okafor is taking over"). In a message
with no word written with a capital ("I" and shouting, "HOLY", aside), those words get theirs
back before it is read; a message with capitals is left as typed, as its writer chose them.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from memoir.index.keyword import STOPWORDS
from memoir.ingest.lexicon import PEOPLE, PETS, word_list
from memoir.ingest.person import IRREGULAR_PAST
from memoir.ingest.referents import MANY
from memoir.ingest.values import MONTHS, WEEKDAYS

__all__ = ["cased", "names_in"]

# Words that are also names, and more often words in a lower-case message: "i may go", "i'll mark it"
_ALSO_WORDS = frozenset(
    word_list(
        "may march august june sun sat wed will can mark bill pat sue rob grant chase drew rose hope grace joy "
        "faith dawn sky summer autumn winter spring jack frank gene ray lee art buck guy ben"
    )
)
_NOT_A_NAME = STOPWORDS | _ALSO_WORDS | frozenset(word_list("user the im ive ill id dont cant wont"))
# Said between who someone is and what they do: "my wife really does our books" names nobody "really"
_NOT_NAMES_AFTER_KIN = frozenset(
    word_list(
        "just now also still always never usually finally actually already recently sometimes often even "
        "probably basically literally totally def prob kinda sorta rn tho though too again new old little big "
        "older younger oldest youngest eldest baby best lol ok okay and or but so today tonight tomorrow yesterday "
        "twice once later earlier early late back legit allways always pregnant sick home here there nowadays man "
        "guy lady plant"
    )
)
_A_CAPITAL = re.compile(r"\b(?-i:[A-Z][a-z])")  # a word written with a capital; "HOLY", "LOL" are shouted
_WORD = re.compile(r"(?<![\w'’-])(?-i:[a-z][a-z'’-]*[a-z])(?![\w-])")
_KIN = "|".join(sorted(PEOPLE | PETS | {"missus", "missis", "hubby", "bf"}, key=len, reverse=True))  # "gf": gluten-free
# who someone is, a lower-case word, then a verb said of it: "wife jen does our books", "sister chloe shes 12"
_KIN_NAMED = re.compile(
    rf"(?:^|(?<=\bmy\s)|(?<=\bour\s)|(?<=\blittle\s)|(?<=\bbig\s)|(?<=\bolder\s)|(?<=\byounger\s)|(?<=[,.!]\s)|"
    rf"(?<=\bme and\s)|(?<=\bme & ))"
    rf"(?P<kin>{_KIN})\s+(?P<name>(?-i:[a-z]){{2,}})(?=\s+(?:is|was|has|had|does|did|says|said|works|lives|"
    r"gets|starts|started|turned|turns|shes|hes|loves|hates|wants|rides|runs|goes|went|plays|comes|came|both|keeps|"
    r"kept|barks|likes|needs|sleeps|cries|got|just)\b"
    # "i got my dog peanut w me" (not "… along with his brother", "my dog sleeps w me")
    r"|(?<!s)\s+(?:w|with)\s+(?:me|us)\b)",
    re.I,
)
# The user's own relation named last in its clause, said as an aside or as whom to put down: "first grandbaby due in
# march, my daughter keisha 🥹", "put my sister magda"; only a relation a person has by name (not "my baby girl", "my
# dog treats"), and not a thing of theirs said without its "'s" ("i need to buy my daughter diapers", "my wife
# salary", "worried about my dad health"), a day, or a word to the listener ("my dad sunday", "my mum pls")
_NAMED_KIN = "|".join(
    word_list(
        "wife husband partner fiancé fiancée fiance fiancee boyfriend girlfriend gf bf hubby missus son daughter "
        "brother sister mum mom mother dad father cousin niece nephew aunt uncle grandson granddaughter friend "
        "bestie stepson stepdaughter"
    )
)
_KIN_NAMED_LAST = re.compile(
    r"(?:^|(?<=[,.;:!?]\s)|(?<=\band\s)|(?<=\bput\s)|(?<=\badd\s)|(?<=\bask\s)|(?<=\binvite\s)|(?<=\bwith\s)|"
    r"(?<=\bof\s)|(?<=\bfor\s))"
    rf"(?P<whose>(?:my|our)\s+)(?P<kin>{_NAMED_KIN})\s+(?P<name>(?-i:[a-z]){{2,}})(?=\s*(?:[.!?;,]|[^\w\s'’-]|$))",
    re.I,
)
# What follows a relation, last in its clause, and is theirs, not their name
_THEIRS_LAST = frozenset(
    word_list(
        "health medicine meds homework uni school daycare nursery salary bday birthday football concert practice "
        "knee back hair tooth teeth surgery allergy asthma cough diapers formula laptop phone bike car truck tablet "
        "shoes garden house flat room wedding funeral party pls plz asap ofc aswell everyday overnight lowkey jk tbf "
        "xxx hahah haha sorry too also again first flap door boy girl bump tree bed crate cage tank bowl toy lead "
        "somehow seldom never nvr always really bottle wipes pram cot stroller monitor seat clothes food wallet hip "
        "hips leg legs arm arms foot feet hand hands eye eyes ear ears neck head stomach tummy skin crib bus glasses "
        "braces anniversary essay etc mothersday quinceanera graduation prescription diagnosis"
    )
)
_CALENDAR = frozenset(word_list(" ".join(WEEKDAYS + MONTHS))) | frozenset(
    word_list(
        "tonight tonite tmrw tmr tomorrow tomorow tommorow yesterday today weekends weekdays anymore everywhere "
        "somewhere overseas abroad"
    )
)
# Said of a relation at the end of a clause, and no name: a title ("my colleague dr. salma"), a deed ("my mum won, …")
_NOT_NAMES_LAST = frozenset(
    word_list(
        "dr mr mrs ms miss prof sir won lost left ran quit died said agrees insists knows thinks says helps cares "
        "approves disagrees refuses help come comes go goes stay stays work cook cooks drive drives pay pays agree "
        "know think say want need do does did can could would should might must wants needs gave told send give take "
        "make fix call tell ask bring get let put see last next this that"
    )
)
# Words said after a relation that are no name of theirs ("my dog busy w me"): slang, a state, a word to the listener
_SLANG = frozenset(
    word_list(
        "tbh ngl idk btw omg smh lmao haha hahaha lol xx xox rn fr imo ugh rip wow mate anyway anyways bless love "
        "sigh yay yikes oops aww phew hun babe bro dude innit though tho asleep right along away stuck born awake "
        "alone together included aside instead either neither especially mostly mainly busy safe quiet sick ill "
        "tired happy sad home out here there outside inside upstairs downstairs fine ok okay good well please first "
        "soon yep nope hehe cuz fam"
    )
)
# What a word naming a thing, not a person, ends with: "my dentist appointment", "my partner visa"
_A_THING = re.compile(r"(?:ment|tion|sion|ness|ity|ship|ance|ence|age|ure|ism|ing|ed|ly|er|or|al|ic|ous|ful|less)$")
# Things a relation word names before a verb: "my dog food is", "my partner visa got"
_THINGS_AFTER_KIN = frozenset(
    word_list(
        "visa food bowl bed toys toy walker sitter insurance fee fees bill bills account car house place job work "
        "office role contract number phone email group chat team side stuff thing things life name school class "
        "vet surgery appointment party wedding funeral birthday passport license licence card plan plans trip "
        "flight room stuff kids family friends crate lead leash cage tank"
    )
)


def names_in(fact: str) -> list[str]:
    """The words a fact writes with a capital past its first word, lower-cased: its names ("freddie")."""
    words = fact.split()[1:]
    return [w.strip('.,;:!?()"').lower().removesuffix("'s").removesuffix("’s") for w in words if w[:1].isupper()]


def cased(text: str, names: Collection[str] = ()) -> str:
    """The message with its names capitalised, when it was typed without capitals (`names`: the lower-cased
    names of the facts known, `names_in`); any other message as it is."""
    if _A_CAPITAL.search(text) is not None:
        return text
    text = _TITLED.sub(_titled, _KIN_NAMED.sub(_kin_named, _KIN_BRACKETED.sub(_kin_bracketed, text)))
    text = _CALLED.sub(_called, _KIN_NAMED_LAST.sub(_kin_named_last, text))
    if not names:
        return text
    return _WORD.sub(lambda m: _capital(m.group(0)) if _known(m, names) else m.group(0), text)


# A name with who they are in brackets after it, first in its clause: "kenzie (gf) says its the dumbest thing" (not
# "made pasta (gf)", nor "with family (my parents)")
_ONE_KIN = "|".join(sorted((PEOPLE | PETS | {"gf", "bf", "hubby", "missus"}) - MANY, key=len, reverse=True))
_PERSON_DOES = re.compile(r"\)\s+(?:says|said|thinks|thought|reckons|wants|told|asked|loves|hates)\b", re.I)
_KIN_BRACKETED = re.compile(
    r"(?:^|(?<=[.,;:!?]\s)|(?<=\band\s))(?P<name>(?-i:[a-z]){2,})"
    rf"(?=\s+\((?:my\s+|our\s+)?(?:{_ONE_KIN})\))",
    re.I,
)


def _kin_bracketed(match: re.Match[str]) -> str:
    if _no_name(match.group("name")) or not _PERSON_DOES.search(match.string, match.end(), match.end() + 40):
        return match.group(0)  # "made pasta (gf) …": no one
    return _capital(match.group("name"))


# "a team its called night owls were gonna …": what follows "called" up to a word no name is made of
_CALLED = re.compile(r"\b(?P<how>called|named)\s+(?P<name>(?-i:[a-z][a-z'’-]*)(?:\s+(?-i:[a-z][a-z'’-]*)){0,2})")


def _called(match: re.Match[str]) -> str:
    words = match.group("name").split()
    named = []
    for word in words:
        if word in _NOT_A_NAME or word in _NOT_NAMES_AFTER_KIN or word.endswith(("ing", "ed")):
            break
        named.append(word)
    if not named:
        return match.group(0)
    rest = words[len(named) :]
    return " ".join([match.group("how"), *(_capital(w) for w in named), *rest])


def _kin_named(match: re.Match[str]) -> str:
    name = match.group("name")
    if re.sub(r"(.)\1{2,}$", r"\1", name.lower()) in _NOT_A_NAME:  # "my wife sooo likes this place"
        return match.group(0)
    if name.lower() in _NOT_A_NAME | _NOT_NAMES_AFTER_KIN | PEOPLE | PETS | _SLANG | _CALENDAR:
        return match.group(0)
    if _A_THING.search(name) or name in _THINGS_AFTER_KIN or name.lower() in _THEIRS_LAST:  # "my dad working late",
        # "my dentist appointment got", "my son asthma got worse"
        return match.group(0)
    return f"{match.group('kin')} {_capital(name)}"


# A title and the name after it: "dr okafor is taking over", "my supervisor dr hebert wants" (not "dr appointment")
# (not "42 maple dr near the park": a title follows a word that takes a person, or opens its clause)
_TAKES_A_PERSON = (
    frozenset(
        word_list(
            "my our the his her their your with to and so but by from saw see seeing new is was am im i'm its it's "
            "asked called met"
        )
    )
    | PEOPLE
)
_TITLED = re.compile(
    # "ms" only where no illness or software is meant ("i have ms", "with ms", "ms teams")
    r"\b(?P<title>dr|mr|mrs|prof|(?<!\bwith\s)(?<!\bmy\s)ms(?!\s+(?:teams|excel|word|office|dynamics|paint|access|"
    r"outlook|edge|sql|project|since|symptoms|relapse|flare|fatigue|nurse|society|diagnosis|meds|neurologist)\b))"
    r"(?P<dot>\.?)\s+(?P<name>(?-i:[a-z])[a-z'’-]+)(?:\s+(?P<last>(?-i:[a-z])[a-z'’-]+))?\b",
    re.I,
)
_WORD_BEFORE = re.compile(r"(?:^|(?P<mark>[,.;:!?(])|(?P<word>[\w'’-]+))\s*$")


def _no_name(word: str) -> bool:
    """Is a lower-case word after a title no name: a verb, a day, a word that is no one's? ("dr lee", "dr may" are
    names: the words that are names as often as not, `_ALSO_WORDS`, are after a title)"""
    verb = word in IRREGULAR_PAST or word.endswith("ing") or word in _TYPED_SHORT  # "my dr wont prescribe"
    return verb or word in STOPWORDS | _NOT_NAMES_LAST | _NOT_NAMES_AFTER_KIN | _SLANG | _CALENDAR | _THEIRS_LAST


_TYPED_SHORT = frozenset(word_list("im ive ill id dont cant wont doesnt didnt isnt wasnt shouldnt couldnt wouldnt"))


def _done(word: str) -> bool:
    """Does a word end as a deed does ("prescribed", "recommends")? Said of "my dr", it is one; of "dr", it may be a
    name."""
    return word.endswith(("ed", "s"))


_AFTER_A_TITLE = frozenset(
    word_list(
        "appt appts appointments visit visits note notes orders letter office clinic told prescription receptionist "
        "surgery nurse"
    )
)


def _takes_a_person(before: str) -> bool:
    """Does a title stand where a person is named: first in its clause, or after a word that takes a person ("my",
    "with", "is", "supervisor"), not "42 maple dr"? (The word before, read here: as lookbehinds, one for each word,
    the pattern tried them all at every position of a message.)"""
    found = _WORD_BEFORE.search(before[-40:])
    return found is None or found.group("word") is None or found.group("word").lower() in _TAKES_A_PERSON


def _titled(match: re.Match[str]) -> str:
    if not _takes_a_person(match.string[: match.start()]):
        return match.group(0)
    name = match.group("name")
    # of "my dr", a word in "-ed" or "-es" is what they did ("my dr prescribed me …", "my prof hates my thesis"); of
    # "seeing dr", "is dr", a name ("dr ahmed", "dr hayes")
    owned = re.search(r"\b(?:my|our|the|his|her|their|your)\s+$", match.string[: match.start()], re.I) is not None
    if _no_name(name) or name in _THINGS_AFTER_KIN or name in _AFTER_A_TITLE or (owned and _done(name)):
        return match.group(0)
    last = match.group("last")
    if last is None:
        return f"{_capital(match.group('title'))}{match.group('dot')} {_capital(name)}"
    surname = not (_no_name(last) or _done(last))  # "mr delgado went on leave", "dr kim retired"
    return (
        f"{_capital(match.group('title'))}{match.group('dot')} {_capital(name)} {_capital(last) if surname else last}"
    )


def _kin_named_last(match: re.Match[str]) -> str:
    name = match.group("name").lower()
    if name in _NOT_NAMES_LAST or name in _THEIRS_LAST or name.endswith("s"):  # "my son shoes", "my dog treats"
        return match.group(0)
    named = _kin_named(match)
    return named if named == match.group(0) else match.group("whose") + named


# Where a known name stands in a sentence: before a verb said of it ("freddie is 2 months"), or after a word that
# takes a person or a pet ("gave taco to", "with jen"); not "reading a book" nor "max 3 people" of Max
_BEFORE_A_VERB = re.compile(
    r"\s+(?:is|was|has|had|does|did|got|gets|says|said|shes|hes|just|still|turned|turns|loves|hates|wants|needs|"
    r"starts|started|went|goes|came|comes|keeps|kept|can|will|won't|wont|isn't|isnt|doesn't|doesnt|and|&)\b|['’]s\b"
)
_POSSESSIVE = re.compile(r"['’]s$")
_OWNED = re.compile(r"\b(?:my|our|your|his|her|their)\s+$")  # not "the atlas deadline" of project Atlas
_AFTER_A_TAKER = re.compile(
    r"\b(?:with|to|for|from|and|gave|took|told|called|met|saw|named|love|miss|walked|fed|hugged|texted|asked|"
    r"visited|picked up|dropped off)\s+$"
)


def _known(match: re.Match[str], names: Collection[str]) -> bool:
    word = _POSSESSIVE.sub("", match.group(0))  # "gary's pulled out": Gary's
    if word not in names or word in _NOT_A_NAME or len(word) <= 2 or word.endswith("ing"):
        return False
    text = match.string
    before = text[max(0, match.start() - 20) : match.start()]
    if _OWNED.search(before):
        return False  # "my target is to lose 5kg": a thing of the user's, whatever the facts name Target
    before_a_noun = re.match(r"\s+[a-z]+\s+(?:is|was|got|has|slipped|moved)\b", text[match.end() :]) is not None
    return (
        word != match.group(0)  # a known name with its "'s"
        or _BEFORE_A_VERB.match(text, match.end()) is not None
        or _AFTER_A_TAKER.search(before) is not None
        or (before_a_noun and re.search(r"\bthe\s+$", before) is not None)  # "the atlas deadline slipped"
    )


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:]
