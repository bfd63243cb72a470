"""The words by which people say that something changed, or no longer holds.

Shared by the rules that read statements (a clause that takes something back states no
fact) and by the rules that apply changes to what is known (`rule_decisions`).
"""

from __future__ import annotations

import re

__all__ = [
    "CHANGE_NOUN",
    "CHANGE_VERB",
    "CORRECTION",
    "NAMED_PARTING",
    "NO_MORE",
    "RETRACTION",
    "days_freed",
    "is_retraction",
    "job_ends",
]

# A break-up said otherwise, of someone named ("kayla and me called it quits"; not "we called it quits on the
# renovation", "we parted ways with our old accountant"): a retraction here, a loss in `losses`
NAMED_PARTING = (
    r"(?-i:[A-Z])[\w'-]+\s+and\s+(?:i|me)\s+(?:have\s+|just\s+|finally\s+)?(?:called it quits|parted ways)"
    r"(?!\s+(?:on|with|for|around|at)\b)"
)

# The words a clause may open with before what it does: "yeah scratch creta" (each its own fixed-width lookbehind)
_OPENERS = ("yeah", "yes", "ok", "okay", "so", "and", "but", "wait", "actually")
_AFTER_AN_OPENER = "|".join(rf"(?<=\b{w}\s)" for w in _OPENERS)

CHANGE_VERB = re.compile(
    r"\b(?:switch(?:ed|ing)?|mov(?:ed|ing)|chang(?:ed|ing)|push(?:ed|ing)|postpon(?:ed|ing)|reschedul(?:ed|ing)|"
    r"shift(?:ed|ing)|cut|upgrad(?:ed|ing)|downgrad(?:ed|ing)|updat(?:ed|ing) to|rais(?:ed|ing)|increas(?:ed|ing)|"
    r"reduc(?:ed|ing)|"
    r"bump(?:ed|ing)|upped|"
    # "got brought forward to 26 April", "bring it to the 3rd"; not "bring my corgi to the shop every day"
    r"(?:brought|bring(?:ing)?)(?=(?:\s+[\w'-]+){0,4}?\s+(?:forward|ahead|back|up|down|in|earlier|later|"
    r"to\s+(?:the\s+)?(?:\d|next|(?:mon|tues|wednes|thurs|fri|satur|sun)day|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|"
    r"nov|dec)))|"
    # "rent is becoming 31,000 from April"
    r"relocat(?:ed|ing)|transferr(?:ed|ing)|swapp(?:ed|ing)|becoming(?=\s+(?:\d|£|€|\$|₹|rs\b))|"
    r"slipp(?:ed|ing)|delay(?:ed|ing)|replac(?:ed|ing)|took over|taking over|takes over|took me off|"
    r"(?:went|gone|going|come|came) (?:up|down) (?:to|from)|(?:down|up|back) to|"
    r"(?:reduce|increase|raise|lower(?:ed)?|drop(?:ped)?|trim(?:med)?) (?:it |that |this )?to|"
    r"ended up (?:going with|going for|with|choosing|picking|booking|getting)|went with|settled on|opted for)\b",
    re.IGNORECASE,
)
# "Correction, … his name was Ole Haugen", "I tell a lie, it's 4": what was said before was wrong
CORRECTION = re.compile(
    r"\b(?:correction|i misspoke|i stand corrected|i tell a lie|my bad|my mistake|i was wrong|i got (?:that|it) wrong|"
    r"typo|typed the wrong|wrong name|misread|misremembered|scratch that)\b",
    re.I,
)
# "a supervisor change", "big changes at work", "change of plan": a change is announced.
CHANGE_NOUN = re.compile(r"\b(?:change|changes|instead|switch|swap|from now on|these days|nowadays|now)\b", re.I)
RETRACTION = re.compile(
    r"\b(?:no longer|anymore|any more|no more|used to|not \w+ing (?-i:[A-Z])\w*|quit (?:my|the|our|\w+ing)|"
    r"sold (?:the|my|our|his|her)|gave up|give up|given up|stopped \w+|stop \w+ing|dropped \w+|got rid of|"
    r"(?:we|i|we've|i've)\s+cut (?-i:[A-Z])\w+|"  # "we cut Hiroshima, too much for dad's hip": dropped from a plan
    r"broke up|split up|divorced|dropped out|moved (?:off|away from)|"
    rf"{NAMED_PARTING}|"
    r"old\s+[\w-]+\s+(?:is going|goes|went)\s+to\s+(?:my|a|the|his|her|our)|"  # "old card is going to my cousin"
    # the user's own: "Efua pulled out of the 10k" leaves the user in it
    r"(?:i|we|i've|we've|i have|we have)\s+(?:\w+\s+)?(?:withdr[ae]wn? from|withdrew from|pulled out of)"
    r"(?=\s+(?:the|my|our|this|that)\s+(?:[\w-]+\s+){0,2}(?:race|marathon|half|triathlon|course|programme|program|"
    r"competition|tournament|league|trip|tour|event|class|exam|show|match|game|auction|sale|conference))|"
    r"(?:is|are) out the window|moved out of|cut out|(?:i'm|im|i am|we're|we are) out of|done with|"
    r"left (?:my|our|the|us|the user)?\s*(?:job|team|company|firm|band|hospital|school|clinic|practice|agency|"
    r"startup|lab|us|(?-i:[A-Z]))|"
    r"handed in (?:my|our|his|her|their) notice|resigned|"
    # someone named gives up their part: "Mrs. Fernandes is unwell and stepped back", "Gary's pulled out" (not "pulled
    # out of the drive", "stepped back from the edge")
    r"(?-i:[A-Z])[a-z]+(?:\s+(?:is|was)\s+\w+\s+and|['’]s|\s+has)?\s+(?:stepped\s+(?:back|down|aside)|pulled\s+out)"
    r"(?!\s+(?:of|from)\b)|"
    r"cancell?ed|called off|isn't happening|"
    # a plan that came to nothing, named: "the Lisbon flat fell through", "the Deloitte thing didn't work out" (not
    # "why it didn't work out", "my last relationship didn't work out", "keto didn't work out for my wife")
    r"\b(?:the|my|our)\s+(?!(?:last|previous|past|old|first|ex)\b)(?:[\w'-]+\s+){0,2}?"
    r"(?:deal|sale|purchase|flat|house|apartment|offer|plan|plans|trip|job|move|booking|venue|loan|mortgage|thing|"
    r"idea|contract|place|position|internship|visa|lease|transfer|sponsorship)\s+"
    r"(?:fell through|(?:didn't|did not|didnt) work out)"
    r"(?!\s+(?:for|the|a|an|so|today|this|last|yet|at\s+first|very|too)\b)|"
    # "the Bosch position is closed already" (not "the gym is closed today", "the offer is closed on Sunday", "the
    # listing was pulled for a day")
    r"(?:position|job|role|opening|vacancy|post|offer|deal|listing)\s+(?:is|was|has been|got)\s+(?:already\s+)?"
    r"(?:closed|filled|withdrawn|pulled)(?:\s+(?:already|now|anyway))?(?=\s*(?:[.;!]|$|,?\s+(?:but|so|and)\b))|"
    # a thing the user took back to where it came from: "I returned the Yamaha to the store" (not "returned the
    # favour", "returned home", "haven't returned the Kindle yet", "took back the iPhone to the shop to fix the screen")
    r"(?<!n't\s)(?<!\bnot\s)(?<!\bnever\s)(?<!\bwill\s)(?<!\bto\s)(?<!\bhave\s)(?<!\bhad\s)(?<!'d\s)"
    r"(?<!\balmost\s)(?<!\bnearly\s)"
    r"(?:returned|sent back|took back|taken back)\s+(?:the|my|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+"
    r"(?:to\s+(?:the|a)\s+(?:store|shop|seller|dealer|retailer|dealership|website)|for\s+a\s+(?:refund|full refund))"
    r"(?!\s+(?:to\s+(?:fix|repair|be\s+fixed|be\s+repaired|swap|exchange|get|have)|for\s+(?:a\s+|an\s+)?"
    r"(?:repair|replacement|fix|exchange|new\s+one|warranty|upgrade|discount)|last\s+year)\b|,\s+they(?:'re|\s+are)\s+"
    r"fixing)|"
    # a thing hired, given back: "I returned the rental yesterday" (not "haven't returned the rental yet")
    r"(?<!n't\s)(?<!\bnot\s)(?<!\bnever\s)(?<!\bwill\s)(?<!\bto\s)(?<!'d\s)"
    r"(?:returned|gave back|given back|handed back|sent back)\s+(?:the|my|our)\s+(?:rental|rented\s+[\w-]+|loaner|"
    r"hire\s+[\w-]+)\b(?!\s+(?:yet|tomorrow|next)\b)|"
    r"is off(?! to\b)|are off(?! to\b)|"  # "the wedding is off"; "Kate is off to uni" goes
    r"not happening|never mind|is gone|are gone|is no more|is over|"
    # "killing the 2nd shop idea", "scrapped the plan to move", "let us scratch the Lisbon idea": a plan given up
    # (not "not scrapping the plan", "never abandon"; "killing my meal plan", "killing the workout plan so far" are
    # doing well at it: only an idea is killed)
    r"(?<!\bnot\s)(?<!\bnever\s)(?<!n't\s)(?<!\bwont\s)(?<!\bdont\s)"
    r"(?:kill(?:ing|ed)?\s+(?:the|that|this)\s+(?:[\w'-]+\s+){0,3}idea|"
    r"(?:scrap(?:ping|ped)?|scratch(?:ing|ed)?|forget|ditch(?:ing|ed)?|shelv(?:e|ing|ed)|binn(?:ing|ed)|"
    r"abandon(?:ing|ed)?|dropp(?:ing|ed))\s+(?:the|that|this|my|our)\s+(?:[\w'-]+\s+){0,3}(?:idea|plan|plans))"
    r"(?:\s+(?:to|of)\s+(?!(?:the|a|an|my|our)\b)[\w'-]+)?\b|"  # "the plan to move": the plan is what it says
    # a name given up by itself, first in its clause: "scratch vancouver actually", "yeah scratch creta." (not
    # "scratch that", "from scratch now", "a scratch golfer", "Milo likes to scratch furniture")
    rf"(?:^|(?<=[,.;:!]\s)|{_AFTER_AN_OPENER})"
    r"scratch\s+(?!(?:that|this|it|the|my|our|his|her|their|a|an|everything|all|what|off|out|up|me|him|them|card|"
    # a word typed in lower case, then the sentence's end or "actually" (not "scratch Mia, she's too young for the
    # trip", "scratch Monday, the pool is shut": someone or a day left out of a plan)
    r"cards|golfer)\b)(?-i:[a-z])[\w'-]+(?=\s*(?:[.;!]|$|\s+(?:actually|then|instead)\b))|"
    r"(?:it's|it’s|it is|it was) not (?:\w+ ){1,2}at all|"  # "turns out it's not milk at all"
    # a debt paid off ("used my bonus to close the car loan"), not one meant to be ("want to close the loan")
    r"(?<!want to )(?<!need to )(?<!going to )(?<!trying to )(?<!plan to )(?<!hope to )(?<!wanna )"
    r"(?:clos(?:e|ed|ing)|paid off|pay off|paying off|paid back|cleared|settle|settled)\s+(?:the|my|our)\s+"
    r"(?:[\w-]+\s+)?(?:loan|mortgage|debt|overdraft)|"
    # a thing of work given back: "So I must give back company van" (not "gave back the book to my sister")
    r"(?:give|giving|gave|given|hand|handing|handed)\s+back\s+(?:the\s+|my\s+|our\s+)?"
    r"(?=(?:company|work|rental|leased|lease|hire)\s+\w)|"
    # a job ending: "last day at the hagwon is july 31", "my last day at Google was Friday"
    # (not a break: "my last day at the bank is Friday before maternity leave", "… then summer holidays")
    r"last (?:day|shift) (?:at|with) (?:the |my |our )?(?=[\w-]+\s+(?:is|was|will be)\b)"
    r"(?![^.;!?]*\b(?:leave|holidays?|break|vacation|half-term|term)\b))\b",
    re.IGNORECASE,
)
# "plot twist, no puppy": in a sentence that says something changed, "no X" takes X back.
NO_MORE = re.compile(r"(?:^|,\s*)no\s+(?P<x>(?!more\b|longer\b|idea\b|problem\b|worries\b)[a-z][\w-]*)\b", re.I)


def is_retraction(clause: str) -> bool:
    """Does the clause take something back ("not … anymore", "we sold the Volvo", "I used to …")? Not one said
    as a supposition ("If we paid off the mortgage, …")."""
    return RETRACTION.search(clause) is not None and _SUPPOSED.match(clause) is None


_SUPPOSED = re.compile(r"^(?:(?:and|but|so)\s+)?(?:if|unless|suppose|supposing|what if|imagine)\b", re.I)


# The user's job ended, said of the user and of now: "I quit my job", "I got laid off", "I was made redundant", "put
# in my notice", each ending its clause or said with when or where ("… today", "… at Deloitte"); not "fired up", "left
# my job laptop on the train", "let go of the fear", "put in my notice for the gym membership"
_JOB_ENDED = re.compile(
    r"\bi(?:'ve|’ve| have)?\s+(?:just\s+)?(?:quit|lost)\s+my\s+job|"  # "left my job" is as often for the day
    r"\bi(?:'ve|’ve| have)?\s+(?:just\s+)?(?:been|was|got)\s+(?:laid off|made redundant|fired|sacked)|"
    r"\b(?:put|handed)\s+in\s+my\s+(?:notice|resignation)",
    re.I,
)
_ENDED_THERE = re.compile(
    r"\s*(?:[.,;:!?)]|$|(?:today|yesterday|this (?:morning|week|month)|last (?:week|month|friday|monday|tuesday|"
    r"wednesday|thursday|night)|on (?:monday|tuesday|wednesday|thursday|friday)|(?:at|from) (?-i:[A-Z])\w*|"
    r"in (?:january|february|march|april|may|june|july|august|september|october|november|december)|"
    r"and|but|so|because|cos|now)\b)",
    re.I,
)
_NOT_THE_JOB = re.compile(
    r"\b(?:thinking|might|maybe|may (?:be|have|need|get)|considering|should i|if|want to|wants to|going to|gonna|"
    r"afraid|worried|scared|jk|joking|kidding|dream|dreamt|dreamed|podcast|novel|story|says|said|thinks|"
    # taken back, or told as how something began: "but they begged me to stay", "When I lost my job, I started …"
    r"stay|staying|rehired|back|then|retrained|(?:when|after|since|once)\s+i|"
    # a flat's notice, or a role that is no job: "put in my notice, moving out of the flat", "fired from the rota"
    r"flat|landlord|landlady|lease|tenancy|apartment|moving out|volunteer|rota|club|committee|choir|band|"
    r"leave|holiday|vacation|fifa|sims|career mode|game|closed|ages ago|last job|april fools?)\b|\bat \d\d\b|"
    # someone else's words, quoted
    r"[\"“”‘]|(?:says|said|told me):|"
    # long ago, or another job than the one had now
    r"\b(?:\d+|a few|several|many|two|three)\s+(?:years?|yrs?)\s+ago\b|\bin\s+(?:19|20)\d\d\b|"
    r"\b(?:back (?:then|when|in)|last year|when i was|as a (?:kid|teen|teenager)|before|after uni|twice|"
    r"in my career|previous|former|first|second|weekend|side|summer|part[- ]time|still)\b",
    re.I,
)


def job_ends(text: str) -> bool:
    """Does a sentence say the user's job ended ("I got laid off last week")?"""
    return (
        any(_ENDED_THERE.match(text, m.end()) for m in _JOB_ENDED.finditer(text)) and _NOT_THE_JOB.search(text) is None
    )


# A day given back: "so Tuesdays are free now", "my weekends are free again" (what the user did then, over)
_FREED = re.compile(
    r"\b(?P<day>(?:mon|tues|wednes|thurs|fri|satur|sun)day|weekend)s\s+(?:are|r)\s+(?:free|clear)\s+(?:now|again)\b",
    re.I,
)


def days_freed(text: str) -> list[str]:
    """The days a sentence gives back to the user ("Tuesdays are free now": ["tuesday"])."""
    return [m.group("day").lower() for m in _FREED.finditer(text)]
