"""Facts that say nothing without the message they came from (the gate, `gate.is_fact`, refuses them).

A kept fact is read later, alone, by a model or a person who never saw the message: "The user buried him under
the apple tree" (whom?), "Room is bigger" (than what?), "The user's dad says it's a loan" (what is?), "The user
can't swap" (what?), "The user needs a window sign" (asked of the assistant, done once answered). What the
user's health, faith or papers need stays ("needs insulin twice a day", "needs to register with Safe Electric").
"""

from __future__ import annotations

import re

from memoir.ingest.lexicon import PEOPLE
from memoir.ingest.values import values

__all__ = ["says_nothing_alone", "someone_unnamed"]


def says_nothing_alone(text: str, predicate: str) -> bool:
    """Does a fact (`predicate`: what it says of its subject, `gate`) lean on what the message said before?"""
    if _SAYS_OF_IT.match(predicate) and not values(predicate):
        return True  # "The user's dad says it's a loan": what "it" is, the message before said
    if _CANNOT_NOW.match(predicate):
        return True  # "I can't swap", "can't leave before friday": the moment's constraint, or what, unsaid
    if _BARE_COMPARATIVE.match(predicate):
        return True  # "Room is bigger", "… is more expensive now": than what, the message before said
    return _A_NEED.match(text) is not None and not _CARE.search(predicate)  # "… needs a window sign"


def someone_unnamed(text: str, predicate: str) -> tuple[int, int] | None:
    """The span in `text` of a "him" or "her" its verb acts on, where the fact names no one it could be."""
    match = _SOMEONE_UNNAMED.match(predicate)
    at = text.rfind(predicate)
    if match is None or at < 0 or _NAMES_SOMEONE.search(text):
        return None
    return at + match.start("p"), at + match.end("p")


# Whom the verb acts on is someone the fact does not name ("buried him under the apple tree", "asked her last
# week", "told her they're too old"): whoever it is, the message before said, and the fact tells nothing of
# anyone. "her" is hers only before a word of her own ("calls her mum every day").
_SOMEONE_UNNAMED = re.compile(
    # (whom the user cares for, lives with or has been with says who the user is: "cares for him full time")
    r"^(?!(?:\w+\s+)?(?:cares?|caring|looks? after|looking after|lives? with|living with|been with|married|"
    r"supports?|raising|raises|raised)\b)"
    r"(?:[\w'-]+\s+){1,3}?(?P<p>him|her(?=\s+(?:to|at|in|on|for|with|about|from|into|under|over|last|next|this|"
    r"yesterday|today|tomorrow|tonight|so|and|but|that|they|they're|he|she|we|i|you|because|when|every|again|back|"
    r"up|out|off|home|there)\b|$))\b",
    re.I,
)
_SAYS_OF_IT = re.compile(
    r"^(?:says|said|thinks|thought|reckons|told the user|tells the user)\s+(?:that\s+)?(?:it|that|this|they|those)"
    r"(?:'s|’s|\s+is|\s+was|\s+are|\s+were|'re)\b",
    re.I,
)
_CANNOT_NOW = re.compile(
    r"^(?:can't|cannot|can not|couldn't|won't|can’t)\s+(?:really\s+|even\s+|just\s+)?"
    r"(?:(?:swap|change|make|do|attend|join|take|get|find|fix|remember|decide|choose|tell|say|help|believe)"
    r"(?:\s+(?:it|that|this|them))?[.!]*$"
    # "can't leave before friday", "can't go this weekend" (not "can't leave work before 5", "… until my green card")
    r"|(?:go|come|leave|attend|make it|get away|travel|be there)\b.*\b(?:(?:before|until|till|on|this|next)\s+"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tonight|today|this (?:week|weekend)|next week)\b)",
    re.I,
)
_BARE_COMPARATIVE = re.compile(
    r"^(?:is|are|was|were|got|gets|is getting)\s+(?:(?:much|way|a lot|a bit|so|even|far|a little|slightly)\s+)?"
    r"(?:(?:more|less)\s+[a-z]+|bigger|smaller|larger|cheaper|dearer|pricier|better|worse|nicer|higher|lower|faster|"
    r"slower|longer|shorter|busier|easier|harder|quieter|louder|closer|further|farther|warmer|colder|hotter|cooler|"
    r"heavier|lighter|happier|safer|calmer|weaker|stronger|healthier|fitter|thinner|wider|narrower|newer|brighter|"
    r"darker|cleaner|tighter|shorter|tidier|cosier|comfier|smoother)(?:\s+(?:now|too|already))?[.!]*$",
    re.I,
)
# What the user needs, told to an assistant, is what they ask it for ("need a window sign: … make it punchy",
# "I need to write a complaint to my landlord", "we need motels that take dogs"), gone once answered; what
# their health needs stays true ("needs speech therapy after their stroke", "post-op physio twice a week"), and
# what they must do to work or stay (a registration, a licence, a visa).
_A_NEED = re.compile(
    r"^the user (?:(?:really|just|also|still|now|only)\s+)*(?:needs?|does not need|doesn't need|don't need)\b", re.I
)
_CARE = re.compile(
    r"\b(?:\w*therap\w*|\w*surg\w*|operation|op|post-op|physio\w*|rehab|treatment|medic\w*|meds|pills?|drugs?|"
    r"insulin|dialysis|chemo\w*|radio\w*|pacemaker|cpap|oxygen|inhaler|epipen|injections?|infusions?|transplant|"
    r"stitches|replacement|replaced|glasses|contacts|lenses|hearing aids?|dentures?|brace|wheelchair|walker|cane|"
    r"crutches|blood|thinners?|check-?ups?|scans?|tests?|carer|care|nurse|diet|halal|kosher|gluten\S*|lactose\S*|"
    r"vegan|vegetarian|avoid\w*|sleep|nap|rest|quiet|a new (?:hip|knee)|interpreter|pray|prayers?|"
    # what the user must do to work or stay: "need register with Safe Electric so I can sign my own certificates"
    r"register|registration|renew|licen[cs]e|permit|visa|sponsor\w*|certification)\b",
    re.I,
)
_NAMES_SOMEONE = re.compile(rf"(?<!^)(?<!^The )\b(?-i:[A-Z])[\w'-]+|\b(?:{'|'.join(sorted(PEOPLE))})\b", re.I)
