"""Readers of a clause whose subject or owner is a pronoun (`readers` describes a reader): "she is 4 years old",
"her little brother Kenta is 3", "his name's moose", "we named her Pickles", "it's 6 grandkids now"; whom
the pronoun stands for is the message's `Context` (`referents`).
"""

from __future__ import annotations

import re

from memoir.ingest.introductions import NAME
from memoir.ingest.lexicon import PEOPLE, PETS, word_list
from memoir.ingest.person import others
from memoir.ingest.referents import Context, fits

__all__ = ["named_it", "pronoun"]

_PERSONAL_PRONOUN = re.compile(r"^(?P<p>he|she|they|it)(?P<aux>'s|'re|'ve|'ll|'d)?\s+(?P<rest>\S.*)$", re.I)
_POSSESSIVE_PRONOUN = re.compile(r"^(?P<p>his|her|their)\s+(?P<rest>\S.*)$", re.I)


_NAMED_IT = re.compile(rf"^(?:i|we|they)\s+(?:just\s+)?(?:named|called)\s+(?:her|him|it)\s+(?P<name>{NAME})$", re.I)


def named_it(clause: str, context: Context) -> list[str] | None:
    """ "just adopted a kitten, we named her Pickles": the pet or person (or thing) named last is called so."""
    match = _NAMED_IT.match(clause)
    named = context.animate() or context.thing  # "Our baby arrived, we named her Rose": the baby, not the cat
    if match is None or named is None:
        return None
    return [f"{named[0].upper()}{named[1:]} is named {match.group('name')}"]


# A sentence that names whom its pronoun stands for, after a comma at its end: "He's an idiot, my landlord",
# "He's the best teacher I ever had, Mr Jones"
_NAMES_ANOTHER = re.compile(
    rf",\s*(?:(?:my|our)\s+(?:[\w-]+\s+)?(?:{'|'.join(sorted(PEOPLE, key=len, reverse=True))})"
    rf"|(?:Mr|Mrs|Ms|Dr)\.?\s+\w+|{NAME})\s*[.!?]*$",
    re.I,
)


_COUNT_NOW = re.compile(
    r"^(?:it's|it is|its|we're at|we are at)\s+(?:up to\s+|down to\s+)?(?P<n>\d+|two|three|four|five|six|seven|eight|"
    r"nine|ten|eleven|twelve)\s+(?P<what>[a-z]+(?:s|children|people|men|sheep|cattle|deer|fish))(?P<now>\s+now)?$",
    re.I,
)
# Time told as a count, not things counted: "it's 3 weeks now"
_SPANS = frozenset(word_list("seconds minutes hours days nights weeks months years decades times"))
# A sum or a measure: "I was wrong, it's 12 dollars" is no 12 things the user has
_MEASURES = frozenset(
    word_list("dollars euros pounds quid bucks rupees pesos kms kilometres kilometers miles kilos grams litres points")
)


def pronoun(clause: str, context: Context) -> list[str] | None:
    """ "she is 4 years old", "her little brother Kenta is 3": whoever was named last."""
    counted = _COUNT_NOW.match(clause)
    # "it's 6 grandkids now", "I tell a lie, it's 4 grandchildren": how many there are
    if (
        counted
        and counted.group("what").lower() not in _SPANS | _MEASURES
        and (counted.group("now") or context.changing)
    ):
        return [f"The user has {counted.group('n')} {counted.group('what')}{counted.group('now') or ''}"]
    match = _PERSONAL_PRONOUN.match(clause)
    if match:
        said = match.group("p").lower()
        who = context.animate() if said in ("he", "she") else context.thing if said == "it" else None
        who = context.group if said == "they" else who  # "my parents are visiting … they arrive October 3rd"
        crossing = who is None and context.opening and said in ("he", "she")  # "My boy Liam turns 21" then
        if crossing and not _NAMES_ANOTHER.search(context.sentence):  # "He's an apprentice electrician": Liam
            who = context.his if said == "he" else context.hers
            if who is not None and not who.split()[-1][:1].isupper():
                context.person = who  # "She don't like the cold. Also she is diabetic": the mother, both times
        if said in ("he", "she") and who is not None and not fits(said, who):  # "my mom. he hated …": not her
            who = context.pet if context.pet is not None and fits(said, context.pet) else None
        if who is None or (said == "it" and _NOBODY_IT.match(match.group("rest"))):
            return []  # "it'll mostly be me and my mum": no thing of the user's, who will be there
        aux = {"'s": "is", "'re": "are", "'ve": "has", "'ll": "will", "'d": "would"}.get(
            (match.group("aux") or "").lower()
        )
        if aux == "is" and re.match(r"(?:been|got|had|gone)\b", match.group("rest"), re.I):
            aux = "has"  # "it's been five": it has
        rest = f"{aux} {match.group('rest')}" if aux else match.group("rest")
        return [f"{who} {others(rest)}"]
    owner = _POSSESSIVE_PRONOUN.match(clause)
    whose = context.animate() if owner and owner.group("p").lower() != "their" else None
    if owner and whose is None and re.match(r"name(?:'s|’s|\s+is)\s", owner.group("rest"), re.I):
        whose = context.earlier if fits(owner.group("p"), context.earlier) else None
    if owner and re.match(r"(?:\w+\s+){1,2}(?:i|we)\s", owner.group("rest"), re.I):
        return []  # "Her number I will add myself": the user's doing, told object first
    if owner and whose:
        whose = whose if not whose.endswith("s") else whose + "'"
        # "his name's moose": a name, as names are written
        rest = re.sub(r"^name(?:'s|’s|\s+is)\s+(\w)", lambda m: f"name is {m.group(1).upper()}", owner.group("rest"))
        return [f"{whose}'s {others(rest)}".replace("''s", "'")]
    family = re.match(rf"^(?:his|her|their)\s+(?:\w+\s+)?(?P<rel>[\w-]+)\s+(?P<name>{NAME})\s+(?P<rest>.+)$", clause)
    if owner and family and family.group("rel").lower() in PEOPLE | PETS:  # whose is not known: the name will do
        context.person = family.group("name")
        return [f"{family.group('name')} {others(family.group('rest'))}"]
    return None


_NOBODY_IT = re.compile(r"(?:\w+ly\s+|just\s+)?(?:be|was|is)\s+(?:just\s+|only\s+)?(?:me|us|you)\b", re.I)
