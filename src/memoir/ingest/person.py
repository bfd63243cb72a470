"""First person to third: "I drink my coffee black" -> "The user drinks their coffee black".

The rules and a small model's answers both arrive in the user's own words; memoir keeps
facts about "the user", standalone. The rewrite is mechanical: the subject (I, we, my X,
our X) becomes "The user" or "The user's X", the verb after it (past adverbs such as
"usually" or "just") takes the third person singular (have -> has, study -> studies,
go -> goes; past forms and modals stay), and the first-person words after it become
"their"/"them" when the user is the subject, "the user's"/"the user" otherwise.
"""

from __future__ import annotations

import re

from memoir.ingest.lexicon import word_list

__all__ = ["ADVERBS", "IRREGULAR_PAST", "about_the_user", "conjugate", "others", "third_person"]

ADVERBS = frozenset(
    word_list(
        "also just really still only now currently mostly usually always never often sometimes rarely even "
        "actually already finally recently normally typically generally definitely totally basically "
        "seriously honestly absolutely literally truly mainly mostly probably barely hardly occasionally "
        "regularly frequently newly originally initially officially fully completely happily luckily sadly "
        "unfortunately apparently obviously clearly certainly simply kinda sorta almost nearly"
    )
)
IRREGULAR_PAST = frozenset(
    word_list(
        "was were went had did got made took saw came gave left ran swam ate drank bought sold found told tore wore "
        "thought felt kept met paid put read said sent set sat spent stood taught won wrote began broke "
        "brought built caught chose drew drove fell flew forgot grew heard held hid hurt knew lay led lost "
        "meant quit rode rose shook shot shut sang slept spoke stole struck swore threw understood woke wore "
        "became cut let hit split spread cost burst bet fit overcame overslept undertook withdrew fought "
        "sought sank rang slid spun sprang stuck stung swung wept wound dealt dug fed fled forgave froze hung "
        "leapt lent lit mistook shone shrank misread misheard misunderstood overheard"
    )
)
_BASE_ED = frozenset(
    ["need", "feed", "bleed", "breed", "speed", "seed", "proceed", "succeed", "exceed", "heed", "shed", "wed", "embed"]
)
_MODALS = frozenset(
    word_list("can could will would shall should may might must cannot can't couldn't won't wouldn't shouldn't mustn't")
)
_AUX = {
    "am": "is",
    "'m": "is",
    "are": "is",
    "'re": "is",
    "have": "has",
    "'ve": "has",
    "do": "does",
    "don't": "doesn't",
    "haven't": "hasn't",
    "aren't": "isn't",
    "ain't": "isn't",
    "'d": "would",
    "'ll": "will",
    "were": "was",
    "be": "is",
}
_SUBJECT = re.compile(
    r"^(?P<who>i|im|ive|we)(?P<aux>'m|'re|'ve|'d|'ll)?(?=\W|$)|^(?P<poss>my|our)\s+(?=\S)",
    re.IGNORECASE,
)
_HOW_MANY_OF_US = r"\b(\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) of us\b"
_USER_INNER = [
    (r"\bI'm\b", "they're"),
    (r"\bI've\b", "they've"),
    (r"\bI'd\b", "they'd"),
    (r"\bI'll\b", "they'll"),
    (r"\bI am\b", "they are"),  # "whenever I am awake"
    (r"\bI was\b", "they were"),
    (r"\bI\b(?!-\d)", "they"),  # not a road: "run I-10 mostly"
    (r"\bmyself\b", "themselves"),
    (r"\bourselves\b", "themselves"),
    (r"\bmine\b", "theirs"),
    (r"\bours\b", "theirs"),
    (r"\bmy\b", "their"),
    (r"\bour\b", "their"),
    (r"\bme\b", "them"),
    (_HOW_MANY_OF_US, r"\1 people"),  # "our team (four of us)": four people, not "four of the user"
    (r"(?-i:\bus\b)", "them"),
    (r"\bwe're\b", "they're"),
    (r"\bwe've\b", "they've"),
    (r"(?-i:\bwe\b)", "they"),
]
_OTHER_INNER = [
    (r"\bI'm\b", "the user is"),
    (r"\bI've\b", "the user has"),
    (r"\bI'd\b", "the user would"),
    (r"\bI'll\b", "the user will"),
    (r"\bI\b(?!-\d)", "the user"),
    (r"\bmyself\b", "the user"),
    (r"\bmine\b", "the user's"),
    (r"\bours\b", "the user's"),
    (r"\bmy\b", "the user's"),
    (r"\bour\b", "the user's"),
    (r"\bme\b", "the user"),
    (_HOW_MANY_OF_US, r"\1 people"),
    (r"(?-i:\bus\b)", "the user"),
    # "so we're doing Byron Bay instead": the user is, not "the user're"
    (r"(?-i:\bwe don't\b)", "the user doesn't"),
    (r"(?-i:\bwe aren't\b)", "the user isn't"),
    (r"(?-i:\bwe haven't\b)", "the user hasn't"),
    (r"(?-i:\bwe weren't\b)", "the user wasn't"),
    (r"(?-i:\bwe're\b)", "the user is"),
    (r"(?-i:\bwe've\b)", "the user has"),
    (r"(?-i:\bwe'll\b)", "the user will"),
    (r"(?-i:\bwe are\b)", "the user is"),
    (r"(?-i:\bwe were\b)", "the user was"),
    (r"(?-i:\bwe have\b)", "the user has"),
    (r"(?-i:\bwe\b)", "the user"),
]
# Words in -ly that are no adverbs
_LY_NOT_ADVERBS = (
    r"(?:re)?(?:apply|reply|supply|imply|comply|multiply|rely|bully|rally|tally|dally|sully|ally)|family|lily|july|"
    r"italy|assembly|belly|jelly|holly|folly|monopoly|anomaly|fly"
)
# "my note says I keep 3 pens", "summer is when we actually have time": the verb after any adverbs
_I_VERB = re.compile(
    r"(^|[^\w'])(?:I|(?-i:we)) ((?:(?:(?!(?:"
    + _LY_NOT_ADVERBS
    + r")\b)[a-z]{3,}ly|last|first|both|all|"
    + "|".join(sorted(ADVERBS))
    # not "don't", nor "we kids", "we three" (a plural or a number said of "we")
    + r") )*+)((?!was\b|had\b|(?:cant|dont|wont|didnt|doesnt|isnt)\b|[a-z]*[^s]s\b|(?:two|three|four|five|six)\b)"
    + r"[a-z]+)\b(?!['’])"
)
_INNER_USER = [(re.compile(p, re.IGNORECASE), r) for p, r in _USER_INNER]
_INNER_OTHER = [(re.compile(p, re.IGNORECASE), r) for p, r in _OTHER_INNER]


def conjugate(verb: str) -> str:
    """The third person singular of a verb in the first person ("have" -> "has"); past forms stay."""
    lower = verb.lower()
    if lower in _AUX:
        return _AUX[lower]
    past = lower.endswith("ed") and lower not in _BASE_ED
    if lower in _MODALS or lower in IRREGULAR_PAST or past or lower.endswith("n't") or not lower.isalpha():
        return verb
    if lower == "go" or lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(lower) > 2 and lower.endswith("y") and lower[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _inner(text: str, user_subject: bool) -> str:
    if not user_subject:  # "my note says I keep 3 pens": the user keeps them
        text = _I_VERB.sub(lambda m: f"{m.group(1)}the user {m.group(2)}{conjugate(m.group(3))}", text)
    for pattern, replacement in _INNER_USER if user_subject else _INNER_OTHER:
        text = pattern.sub(replacement, text)
    return text


def third_person(clause: str) -> str | None:
    """The clause with "the user" for its first-person subject, or None when the subject is not the user's."""
    text = clause.replace("’", "'").strip()
    match = _SUBJECT.match(text)
    if match is None:
        return None
    rest = text[match.end() :].lstrip()
    if match.group("poss"):
        return "The user's " + _inner(rest, user_subject=False)
    aux = match.group("aux")
    if match.group("who").lower() == "im":
        aux = "'m"
    elif match.group("who").lower() == "ive":
        aux = "'ve"
    if aux and aux.lower() == "'ve" and rest.lower().startswith("got "):
        aux, rest = None, "have " + rest[4:]  # "I've got two kids": the user has two kids
    verb = f"{_AUX[aux.lower()]} {rest}" if aux else _conjugated(rest)  # "I'm" is "is": nothing to conjugate
    return "The user " + _inner(verb, user_subject=True)


# An adverb by its ending ("nearly", "slowly", "weekly", "deeply"); not a verb that ends so (apply, reapply, rely,
# bully, rally, tally)
_ADVERB_LY = re.compile(
    rf"^(?!(?:{_LY_NOT_ADVERBS})$)"
    r"[a-z]{2,}(?:al|i|ful|less|ous|ive|ent|ant|at|ut|ed|ing|ib|ab|ar|er|ct|st|ght|rd|nd|ow|ort|ss|t|d|n|r|s|m|w|k|"
    r"ep|ap|os|is|ur|et|im|in|ug|ig|ng|on)ly$"
)
_HEDGE = re.compile(r"^(?:sort|kind) of$", re.I)


def _conjugated(rest: str) -> str:
    """`rest` (what follows the subject) with its first verb, after any adverbs, in the third person."""
    words = rest.split(" ")
    for index, word in enumerate(words):
        bare = word.lower().strip(",")
        if bare in ADVERBS or bare in ("both", "all") or _ADVERB_LY.match(bare):
            continue  # "I nearly came off my bike": the user nearly came, not "nearlies"
        if bare in ("not", "never") or (bare == "no" and index + 1 < len(words) and words[index + 1] == "longer"):
            continue
        if bare == "longer" and index > 0 and words[index - 1].lower() == "no":
            continue
        if _HEDGE.match(" ".join(words[index : index + 2])) or (
            index and _HEDGE.match(" ".join(words[index - 1 : index + 1]))
        ):
            continue  # "I just sort of nod": the user just sort of nods
        if index + 1 < len(words) and bare in ("have", "'ve") and words[index + 1].lower() == "got":
            words[index : index + 2] = ["has"]  # "I've got two kids": the user has two kids
            break
        words[index] = conjugate(word) if word else word
        break
    return " ".join(words)


def about_the_user(text: str) -> str:
    """A fact with no first person left: "I live in Utrecht" -> "The user lives in Utrecht", "Elena joined
    our team" -> "Elena joined the user's team" (a model writes the user's words back as often as not)."""
    converted = third_person(text)
    if converted is not None:
        return converted
    return _inner(text, user_subject=text.lower().startswith("the user "))


def others(text: str) -> str:
    """First-person words in a clause about someone else: "my" -> "the user's", "me" -> "the user"."""
    converted = third_person("my " + text)
    return converted[len("The user's ") :] if converted else text
