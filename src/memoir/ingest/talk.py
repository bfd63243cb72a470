"""Talk about the talk, and the user's moment: what a message says of the conversation itself or of how the user is
right now, done with once said ("I checked the contract again", "I'm drowning", "I wrote I am 46 but …", "It is not
easy o"). The gate (`gate.is_fact`) keeps none of it."""

from __future__ import annotations

import re

__all__ = ["of_the_talk"]


def of_the_talk(text: str, predicate: str, clause: str, sentence: str) -> bool:
    """Is `text` (its `predicate`, made from `clause` of `sentence`) talk about the talk or the user's moment?"""
    if _SAID_BEFORE.match(predicate) and _CORRECTED.search(sentence or clause):
        return True  # "I wrote I am 46 but I had birthday": what the user said before, which the sentence corrects
    if _BARE_COUNT.match(text) or _HOW_IT_IS.match(clause):
        return True  # "The kids (I have 3 - all under 6!)", "It is not easy o, but God is in control"
    if _OF_THE_TALK.match(predicate) or (text.lower().startswith("the user ") and _USERS_MOMENT.match(predicate)):
        return True
    # "realised I got Isla's age wrong": the correction is the fact, not that it was wrong
    return bool(_LOSING_IT.search(predicate) or _GOT_IT_WRONG.search(predicate) or _CORRECTS.match(predicate))


# What the user did or will do about the conversation itself, done with once said: "I checked the contract again",
# "i looked at bank", "I have new information", "I have reconsidered the location", "I shall report back on how it
# goes", "but I find solution" (what was checked or reconsidered, the message says as a fact of its own)
_OF_THE_TALK = re.compile(
    # (all it says: "checked and it's 4 weeks, not 3" says what was found)
    r"^(?:has\s+|have\s+|had\s+)?(?:just\s+|also\s+)?(?:(?:double-|re-?)?checked(?:\s+(?:the|my|our)\s+[\w-]+)?"
    r"(?:\s+again)?$|(?:read|went\s+through|looked\s+through)\s+(?:the|my|our)\s+[\w-]+\s+again$"
    r"|looked\s+(?:at|again)(?:\s+(?:the\s+|my\s+|our\s+)?(?:bank|contract|numbers|budget|email|letter|draft|list|menu|"
    r"calendar|schedule|account|statement|receipt|it))?(?:\s+again)?$"
    r"|(?:reconsidered|rethought|revised|re-?did|re-?read)(?:\s+(?:the|my|our)\s+(?:[\w-]+\s+)?"
    r"(?:location|plans?|budget|numbers|figures|draft|letter|list|menu|idea|dates?|timeline|schedule|speech|email|"
    r"cv|resume|maths?|math)(?:\s+(?:again|upwards?|downwards?))?$|$))"
    r"|^(?:has|have|got)\s+(?:some\s+)?(?:new\s+information|news|an\s+update|updates|a\s+question|questions|"
    r"another\s+question|one\s+more\s+question)$"
    r"|^(?:shall|will|'ll)\s+(?:report\s+back(?:\s+on\s+how\s+it\s+(?:goes|went))?|let\s+(?:you|the\s+assistant)\s+know|"
    r"keep\s+(?:you|the\s+assistant)\s+posted|get\s+back\s+to\s+(?:you|the\s+assistant))$"
    r"|^(?:finds?|found)\s+(?:a\s+)?solution$|^(?:has|have)\s+(?:finally\s+)?decided$"
    r"|^(?:spoke|talked|chatted)(?:\s+(?:last\s+\w+|before|earlier|yesterday|already|the other day))?$",
    re.I,
)
# The user's moment, said of the user only ("My startup is drowning", "My chemo hasn't started yet" are facts):
# "I'm drowning", "I literally haven't started", "I do apologise" (another's habit of it is theirs)
_USERS_MOMENT = re.compile(
    r"^(?:is|'s)\s+(?:so\s+|just\s+|totally\s+|completely\s+)?(?:drowning|swamped|overwhelmed|snowed under)$"
    r"|^(?:has not|hasn't|have not|haven't)\s+(?:even\s+|literally\s+|really\s+|actually\s+)*(?:started|begun)"
    r"(?:\s+(?:yet|lol|haha))?$"
    r"|^(?:does\s+|do\s+|must\s+)?apologi[sz]es?(?:\s+for\s+\w+(?:\s+\w+)?)?$"
    # "I'm not even sure what I'm asking", "not certain how to begin": a doubt of the moment
    r"|^(?:is|'s)\s+(?:still\s+|just\s+)?not\s+(?:even\s+|really\s+|quite\s+|too\s+|so\s+|entirely\s+)*"
    r"(?:sure|certain)\s+(?:what|how|where|whether|if|why|which)\b"
    # how the news of the moment leaves the user: "I am disappointed but moving on", "nervous already" (not "My son is
    # anxious", of him; grief is kept: "Miso died last night, I am heartbroken")
    r"|^(?:is|'s|was|are)\s+(?:so\s+|very\s+|really\s+|a bit\s+|a little\s+|quite\s+|just\s+|all\s+|still\s+)*"
    r"(?:disappointed|gutted|upset|sad|nervous|anxious|relieved|thrilled|excited|frustrated|annoyed|overwhelmed|happy|terrified|shocked|speechless|"
    r"over the moon)(?:\s+(?:now|today|already|though|lol|haha))*$",
    re.I,
)
_SAID_BEFORE = re.compile(
    r"^(?:wrote|said|typed|put|told\s+(?:you|the\s+assistant))\s+(?:that\s+)?(?:they|they're|they’re|the\s+user)\b",
    re.I,
)
_CORRECTED = re.compile(r"\b(?:but|actually|correction|wrong|mistake|meant|in fact)\b", re.I)
_BARE_COUNT = re.compile(r"^the user (?:has|have|had|got)\s+\d+$", re.I)
# How "it" or "this" feels: "it is not easy", "it's a lot", "this is crazy" (not "it's cheap", "it is 40 minutes")
_HOW_IT_IS = re.compile(
    r"^(?:it|this|that)\s*(?:is|'s|’s|was|has been)\s+(?:not\s+)?(?:so\s+|very\s+|really\s+|quite\s+|a bit\s+|too\s+|"
    r"pretty\s+|super\s+|just\s+|honestly\s+)*"
    r"(?:easy|hard|difficult|tough|crazy|insane|mad|a lot|too much|stressful|exhausting|tiring|frustrating|annoying|"
    r"scary|sad|terrible|awful|horrible|brutal|rough|fun|nice|great|amazing|lovely|cool|weird|funny|wild|a nightmare|"
    r"a mess|chaos|madness|hectic|overwhelming|heartbreaking)\b(?:\s+(?:o|oh|lol|haha|tbh|honestly|now|though))*$",
    re.I,
)
# "I need one day off or I'll lose the plot": a figure of speech for a mood, wherever it is said
_LOSING_IT = re.compile(r"\b(?:lose|losing)\s+(?:the plot|(?:my|their|the user's|his|her) (?:mind|marbles))\b", re.I)
# "so I correct the capacity: 28 couverts maximum": that something is corrected, not what it is now
_CORRECTS = re.compile(
    r"^(?:corrects?|correcting|corrected|fix(?:es|ed)?|updat(?:es|ed|ing))\s+(?:the|their)\s+\w+$", re.I
)
_GOT_IT_WRONG = re.compile(
    r"\b(?:(?:got|had|typed|wrote|said|put)\s+(?:[\w'’]+\s+){0,3}?|"
    # "I calculate wrong", "i weighed wrong lol" (not "i counted calories wrong": what was counted is said)
    r"(?:calculat(?:e|es|ed)|counted|weigh(?:s|ed)?|measured)\s+(?:it\s+|that\s+|them\s+)?)(?:wrong|incorrect)\b"
    r"(?!\s+(?:with|about)\b)",
    re.I,
)
