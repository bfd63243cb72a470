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
    if _CANNOT_NOW.match(predicate) or (text.lower().startswith("the user ") and _CANNOT_FOR_NOW.match(predicate)):
        return True  # "I can't swap", "can't leave before friday": the moment's constraint, or what, unsaid
    if _BARE_COMPARATIVE.match(predicate):
        return True  # "Room is bigger", "… is more expensive now": than what, the message before said
    return _A_NEED.match(text) is not None and not _CARE.search(predicate)  # "… needs a window sign"


def someone_unnamed(text: str, predicate: str, sentence: str = "") -> bool:
    """Does the fact's verb act on a "him" or "her" whom neither it nor its sentence names ("I buried him under
    the apple tree"; not "My mum has dementia so I visit her every day", kept as said)?"""
    if _SOMEONE_UNNAMED.match(predicate) is None:
        return False
    return _NAMES_SOMEONE.search(text) is None and _NAMES_SOMEONE.search(sentence) is None


# Whom the verb acts on is someone the fact does not name ("buried him under the apple tree", "asked her last
# week", "told her they're too old"): whoever it is, the message before said, and the fact tells nothing of
# anyone. "her" is hers only before a word of her own ("calls her mum every day").
_SOMEONE_UNNAMED = re.compile(
    # (whom the user cares for, lives with or has been with says who the user is: "cares for him full time")
    r"^(?!(?:\w+\s+)?(?:cares?|caring|looks? after|looking after|lives? with|living with|been with|married|"
    r"supports?|raising|raises|raised)\b)"
    r"(?:[\w'-]+\s+){1,3}?(?:him|her(?=\s+(?:to|at|in|on|for|with|about|from|into|under|over|last|next|this|"
    r"yesterday|today|tomorrow|tonight|so|and|but|that|they|they're|he|she|we|i|you|because|when|every|again|back|"
    r"up|out|off|home|there)\b|$))\b",
    re.I,
)
_SAYS_OF_IT = re.compile(
    r"^(?:says|said|thinks|thought|reckons|told the user|tells the user)\s+(?:that\s+)?(?:it|that|this|they|those)"
    r"(?:'s|’s|\s+is|\s+was|\s+are|\s+were|'re)\b",
    re.I,
)
# the user's own, for the moment: "i cant study then" ("My son can't concentrate" is his)
_CANNOT_FOR_NOW = re.compile(r"^(?:can't|cannot|can not|can’t)\s+(?:study|sleep|focus|concentrate|think)[.!]*$", re.I)
_CANNOT_NOW = re.compile(
    r"^(?:can't|cannot|can not|couldn't|won't|can’t)\s+(?:really\s+|even\s+|just\s+)?"
    r"(?:(?:swap|change|make|do|attend|join|take|get|find|fix|remember|decide|choose|tell|say|help|believe)"
    r"(?:\s+(?:it|that|this|them))?[.!]*$"
    # "can't leave before friday", "can't go this weekend" (not "can't leave work before 5", "… until my green card")
    r"|(?:go|come|leave|attend|make it|get away|travel|be there)\b.*\b(?:(?:before|until|till|this|next)\s+"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tonight|today|this (?:week|weekend)|next week)\b)",
    re.I,
)
_BARE_COMPARATIVE = re.compile(
    # a place's size, price or distance, compared with one the message before named (not a change of health:
    # "My eyesight is getting worse", "My dad is less mobile now" are facts)
    r"^(?:is|are|was|were)\s+(?:(?:much|way|a lot|a bit|so|even|far|a little|slightly)\s+)?"
    r"(?:(?:more|less)\s+(?:expensive|pricey|spacious|central|convenient|affordable)|bigger|smaller|larger|cheaper|"
    r"dearer|pricier|nicer|closer|further|farther|quieter|brighter|darker|newer|wider|narrower|tidier|cosier|comfier|"
    r"roomier)(?:\s+(?:now|too|already))?[.!]*$",
    re.I,
)
# What the user needs, told to an assistant, is what they ask it for ("need a window sign: … make it punchy",
# "I need to write a complaint to my landlord", "we need motels that take dogs"), gone once answered; what
# their health needs stays true ("needs speech therapy after their stroke", "post-op physio twice a week"), and
# what they must do to work, believe or stay (a registration, a licence, a visa, a prayer).
# The need must be of a thing one asks an assistant for (to write, plan or find something; a sign, a menu, a
# gift, motels, time), never a lasting one ("a guide dog", "my tablets every morning", "to fast during Ramadan",
# "a green card", "Sundays off for church": kept, as is anything `_CARE` names).
_A_NEED = re.compile(
    r"^the user (?:(?:really|just|also|still|now|only)\s+)*(?:needs?|does not need|doesn't need|don't need)\s+"
    r"(?:to\s+(?:write|draft|plan|find|buy|book|choose|pick|make|prepare|figure out|decide|sort out|organi[sz]e|send|"
    r"reply|respond|email|finish|scale|pack|tidy|update|create|design|translate|convert|calculate|come up with|"
    r"put together|think of|get (?:a|an|some)|print|order|hire|grind|vent|rant)\b"
    r"|(?:a|an|some|the|more|any|anything|something)\s+(?:[\w'-]+\s+){0,3}?(?:sign|menu|plan|idea|ideas|name|caption|"
    r"gift|present|recipe|list|template|email|letter|message|post|bio|speech|toast|outline|summary|itinerary|logo|"
    r"slogan|title|poem|story|cv|resume|draft|quote|invoice|motels?|hotels?|stop|costume|theme|playlist|car|laptop|"
    r"routine|strategy|pitch|excuse|answer|description|pet-friendly|help|advice|tips)\b"
    r"|time to\b|plan b\b|saner\b|a break\b|a holiday\b|a day off\b|a vacation\b|motels?\b|hotels?\b)",
    re.I,
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
# Someone named: a capitalised word past the first ("I'm" is none) or a relation ("my mum", "dad's ill")
_NAMES_SOMEONE = re.compile(rf"(?<!^)(?<!^The )\b(?-i:[A-Z][a-z])[\w'-]*|\b(?:{'|'.join(sorted(PEOPLE))})\b", re.I)
