"""Short ways of saying a thing of the user's, spelled out for the readers (`plain` calls these).

People who type fast, or in a second language, leave words out that the readers of "I …" and "my X is …" need:
"I have cat, her name is Dubu" (its article), "open my own restaurant, it will be called Racines" (the name said
after a comma), "all my friends moved to cs2 so thats my main game now" (what "that" is), "the band is a quartet
now" (whose band). Each is put as it would be said in full.
"""

from __future__ import annotations

import re

from memoir.ingest.lexicon import PEOPLE, PETS, word_list
from memoir.ingest.values import MONTHS

__all__ = ["spelled_out_clause", "spelled_out_sentence", "thing_said_before"]


def spelled_out_sentence(text: str) -> str:
    """A sentence with a name said after a comma put with its thing, and "so that's my X" with what it is."""
    text = _CALLED_AFTER.sub(r"\g<thing> called ", text)  # "my own restaurant, it will be called Racines"
    if not _NOT_DONE.search(text):  # "they never extended my contract until June", "if they renewed my visa …"
        text = _EXTENDED.sub(r", so \g<whose> \g<what> now runs \g<to>", text)  # "… extended my contract until June"
    return _THATS_MINE.sub(r"\g<lead>\g<x> so \g<x> is \g<mine>", text)  # "moved to cs2 so thats my main game"


def spelled_out_clause(clause: str) -> str:
    """A clause with a pet's article, the user's band, and "X is my Y" put as "my Y is X"."""
    clause = _THE_BAND.sub("our ", clause)  # "the band is a quartet now": the user's band, as only theirs is sized
    clause = _NO_ARTICLE.sub(r"\g<v> a ", clause)  # "I have cat, her name is Dubu": a cat, as said in English
    return _IS_MINE.sub(_mine_is, clause)  # "cs2 is my main game now": the user's main game is cs2


# A thing the user made, opens or has, its name said after a comma: "open my own restaurant, it will be called
# Racines", "I started a podcast, it's called Deep Cuts" (not "a book by my favourite author, it's called Dune",
# "a small town near my parents, it's called Hebden Bridge": the name is of the thing the verb has)
_CALLED_AFTER = re.compile(
    r"(?P<thing>\b(?:open|opening|start|started|starting|launch|launched|launching|run|running|own|owning|build|"
    r"built|building|found|founded|set up|setting up|bought|adopted|joined)\s+"
    r"(?:my|our|a|an)\s+(?:(?:own|new|little|small)\s+)?[\w-]+),\s+(?:it|it's|its|it’s)\s+"
    r"(?:(?:will be|'ll be|is going to be|is|was|'s)\s+)?(?:called|named)\s+(?=(?-i:[A-Z]))",
    re.I,
)
# The user's term someone else lengthened, and to when: "the startup found investor and extended my contract until end
# of June" (the contract now runs until then: that is the fact, whoever did it)
_MONTHS = "|".join(sorted(MONTHS, key=len, reverse=True))  # the month words the values know
_EXTENDED = re.compile(
    r"(?:,?\s+and)?(?:\s+(?:they|he|she))?\s+(?:has\s+|have\s+|just\s+)?(?:extended|renewed|prolonged)\s+"
    r"(?P<whose>my|our)\s+"
    r"(?P<what>contract|lease|tenancy|visa|work permit|residence permit|permit|placement|internship|probation|"
    r"secondment|membership|subscription)\s+(?P<to>until|till|through|to)\b"
    # to an end in time ("until end of June", "until March 2027", "to 2028"), not a length ("to 6 months") or a
    # place or a service ("to London", "to The Economist")
    rf"(?=\s+(?:the\s+)?(?:(?:end|middle|start|beginning)\s+of\s+(?:the\s+)?(?:{_MONTHS}|year|month|week|term|"
    rf"semester|summer|winter|spring|autumn|season|next|this|20\d\d)\b|mid[- ](?:{_MONTHS}|year|month|20\d\d)\b"
    rf"|(?:{_MONTHS})\b(?!\s+(?-i:[A-Z]))|20[2-9]\d\b(?!\s*(?:a|an|per|/|credits?|euros?|dollars?|pounds?|k)\b)"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\b))",
    re.I,
)
# What says the term was not lengthened after all, or only might be
_NOT_DONE = re.compile(
    r"n't\b|\b(?:not|never|nobody|no one|wish|if|unless|would|could|might|should|hope|hoping|wants?|wanted|refused|"
    # hearsay, a guess, or long ago ("back in 2019 they extended my lease until 2021")
    r"yet|apparently|probably|supposedly|supposed|promised|maybe|perhaps|almost|heard|rumou?r\w*|jk|dream\w*|"
    r"back in|ago|had|then|used to|once|previous|expired|was|were|when|after that|before)\b",
    re.I,
)
# What the clause before went to, said to be the user's after "so that's": "all my friends moved to cs2 so thats
# my main game now" (cs2 is the user's main game), "switched to Notion so that's our wiki now"
# (a thing moved or switched to, one of a kind and "now": not "went out with Sarah so that's my weekend sorted")
_THATS_MINE = re.compile(
    r"(?P<lead>\b(?:to|on)\s+)(?P<x>[\w-]+(?:\s+[\w-]+)?)\s+so\s+(?:that's|thats|that is|that’s)\s+"
    r"(?P<mine>(?:my|our)\s+(?:main|new|favourite|favorite|go-to|usual|current|daily)\s+[\w-]+\s+now)"
    r"(?=\s*(?:[.!,;]|$))",
    re.I,
)
# A thing said to be the user's one of a kind, the thing first ("cs2 is my main game now", "Notion is our wiki"):
# put as the user's one ("my main game is cs2 now") for the readers of "my X is Y"; not a person ("Sarah is my
# sister" is read as said), nor a word pointing elsewhere ("that is my main worry")
_IS_MINE = re.compile(
    r"^(?P<x>(?!(?:it|this|that|which|who|what|there|here|he|she|they|everything|nothing|something|work|life|"
    r"family|health|money|time|the|a|an|today|tomorrow|tonight|yesterday|neither|nobody|none|mine|yours|his|hers|ours|"
    r"theirs|everyone|everybody|anyone|anything|someone|both|all|each)\b)(?![\w-]+ing\b)[\w-]+(?:\s+[\w-]+)?)"
    r"\s+is\s+(?P<whose>my|our)\s+"
    # one of a kind said so ("my main game"; not "Today is my birthday", "The gym is my home now")
    r"(?P<role>(?:main|new|favourite|favorite|go-to|usual|current|daily)\s+[a-z][\w-]+)"
    r"(?P<now>\s+now)?(?=\s*(?:[.!,;]|$))",
    re.I,
)


_IDIOMS = frozenset(word_list("jam thing life passion vibe weakness pleasure everything favourite favorite world"))


def _mine_is(match: re.Match[str]) -> str:
    if match.group("role").split()[-1].lower() in PEOPLE | _IDIOMS:
        return match.group(0)
    return f"{match.group('whose')} {match.group('role')} is {match.group('x')}{match.group('now') or ''}"


# "the band is a quartet now": only the user's own band is sized so
# (a new size, "now": not "I saw Nirvana live, the band is a trio")
_THE_BAND = re.compile(
    r"^the\s+(?=(?:band|group)\s+(?:is|'s)\s+(?:now\s+a\s+(?:duo|trio|quartet|quintet|sextet)\b|"
    r"a\s+(?:duo|trio|quartet|quintet|sextet)\s+now\b))",
    re.I,
)
# A pet had, said without its article (as people whose first language has none write): "I have cat", "we got dog"
_NO_ARTICLE = re.compile(
    rf"\b(?P<v>(?:i|we)\s+(?:have|got|own|adopted|bought|also have))\s+(?=(?:{'|'.join(sorted(PETS))})"
    # not "dog food", "fish for dinner", "fish and chips", "cat and dog allergy"
    r"(?:\s*(?:[,.;!?]|$)|\s+(?:named|called|who|at home|too)\b))",
    re.I,
)


# "My car is electric, my wife's is not": whose, with the thing of the clause before left unsaid.
_OWNER_ALONE = re.compile(r"^(?P<owner>(?:my|our)\s+[\w'’-]+['’]s)\s+(?P<rest>(?:is|are|was|were)\b.*)$", re.I)
_THING_OF = re.compile(
    r"\b(?:my|our)\s+(?:[\w-]+['’]s\s+)?(?P<thing>(?:[\w-]+\s+)?[\w-]+)\s+(?:is|are|was|were)\b", re.I
)
_NOTHING_SAID = re.compile(r"^(?:is|are|was|were)(?:\s+(?:not|too|also|as well|n't))*\s*$", re.I)


def thing_said_before(clause: str, before: str) -> str:
    """ "my wife's is a Pixel" after "My phone is an iPhone": "my wife's phone is a Pixel"; "" where nothing
    is said of it ("my wife's is not") or the clause before named no thing of the user's."""
    alone = _OWNER_ALONE.match(clause.strip())
    if alone is None:
        return clause
    thing = _THING_OF.search(before)
    if thing is None or _NOTHING_SAID.match(alone.group("rest")) or thing.group("thing").split()[-1].lower() in PEOPLE:
        return ""  # "my mum is a nurse and my dad's is a teacher": no thing of the mum's
    return f"{alone.group('owner')} {thing.group('thing')} {alone.group('rest')}"
