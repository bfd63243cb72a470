"""What an allergy is to, where the message said it a little before: "Should I get a cat? jk, I'm allergic to
them" is an allergy to cats, "No peanuts anywhere though, she is severely allergic" one to peanuts.

Said without its object, "allergic" reads as nothing ("The user is allergic to them" points outside the
fact). "To them" or "to it" stands for the last allergen named, in the sentence or the one before, that
the pronoun can stand for (a kind of animal or a plural for "them", a food named without a count for
"it"); "allergic" alone, ending its clause, for a food the same sentence ruled out ("no peanuts", "without
eggs"). Anything else is left as said: "Mango gives me a rash, I'm allergic" is not to the dog named
before, "allergic asthma" is no allergy to anything.
"""

from __future__ import annotations

import re

from memoir.ingest.lexicon import word_list

__all__ = ["allergens_named"]

# What people are allergic to, as they name it: foods, animals, and a few more
_ANIMALS = frozenset(word_list("cat dog horse rabbit bunny hamster guinea-pig bee wasp"))
_ALLERGENS = (
    r"peanuts?|nuts|tree nuts|cashews?|almonds?|walnuts?|hazelnuts?|pistachios?|shellfish|prawns?|shrimps?|"
    r"crabs?|lobsters?|fish|eggs?|milk|dairy|gluten|wheat|soy|soya|sesame|strawberr(?:y|ies)|kiwis?|mustard|"
    r"celery|lupin|pollen|dust|latex|penicillin|mou?ld|"
    r"cats?|dogs?|horses?|rabbits?|bunn(?:y|ies)|hamsters?|guinea[- ]pigs?|bees?|wasps?"
)
_ALLERGEN = re.compile(rf"\b(?P<a>{_ALLERGENS})\b", re.I)
_RULED_OUT = re.compile(rf"\b(?:no|without|any|zero)\s+(?P<a>{_ALLERGENS})\b", re.I)
_MASS = frozenset(
    word_list("fish milk dairy gluten wheat soy soya sesame shellfish penicillin latex dust pollen mould mold")
)
# "allergic to them/it", or "allergic" ending its clause (not "allergic to cats", "allergic reaction", "… asthma")
_UNSAID = re.compile(
    r"\ballergic\b(?:\s+to\s+(?P<to>them|it|those|these)\b|(?=\s*(?:[,.;!?)]|$|\s+(?:though|too|even|lol|haha)\b)))",
    re.I,
)
_REACH = 200  # characters back to the allergen: the sentence, or the one before
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")


def allergens_named(text: str) -> str:
    """The message with each allergy said without its object given the allergen said before it."""
    if "allergic" not in text.lower():
        return text
    return _UNSAID.sub(lambda m: _with_allergen(m, text), text)


def _with_allergen(match: re.Match[str], text: str) -> str:
    before = text[max(0, match.start() - _REACH) : match.start()]
    ends = [m.end() for m in _SENTENCE_END.finditer(before)]
    pronoun = (match.group("to") or "").lower()
    if pronoun:  # "to them": the sentence, or the one before
        before = before[ends[-2] :] if len(ends) >= 2 else before
        named = [m.group("a").lower() for m in _ALLERGEN.finditer(before)]
        fits = [a for a in named if (a in _MASS) == (pronoun == "it") or (pronoun != "it" and a in _ANIMALS)]
    else:  # "allergic" alone: a food the same sentence ruled out
        before = before[ends[-1] :] if ends else before
        fits = [m.group("a").lower() for m in _RULED_OUT.finditer(before)]
    if not fits:
        return match.group(0)
    allergen = fits[-1]
    if allergen in _ANIMALS:  # "a cat … allergic to them": to cats
        allergen = f"{allergen[:-1]}ies" if allergen.endswith("y") else f"{allergen}s"
    return f"allergic to {allergen}"
