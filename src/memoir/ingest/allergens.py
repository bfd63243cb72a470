"""What an allergy is to, where the message said it a little before: "Should I get a cat? jk, I'm allergic to
them" is an allergy to cats, "No peanuts anywhere though, she is severely allergic" one to peanuts.

Said without its object, "allergic" reads as nothing ("The user is allergic to them" points outside the
fact); the allergen is the last one the message named before it, in the same sentence or the one
before (a question included: it names what "them" stands for).
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
# "allergic" with nothing after it it is to, or "to them"/"to it" (not "allergic to cats", "allergic reaction")
_UNSAID = re.compile(r"\ballergic\b(?P<to>\s+to\s+(?:them|it|those|these)\b)?(?!\s+to\b)(?!\s+reaction)", re.I)
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
    if len(ends) >= 2:  # no further back than the sentence before
        before = before[ends[-2] :]
    named = list(_ALLERGEN.finditer(before))
    if not named:
        return match.group(0)
    allergen = named[-1].group("a").lower()
    if allergen in _ANIMALS:  # "a cat … allergic to them": to cats
        allergen = f"{allergen[:-1]}ies" if allergen.endswith("y") else f"{allergen}s"
    return f"allergic to {allergen}"
