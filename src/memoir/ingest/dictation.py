"""Messages dictated by voice, which come without punctuation: "ok hi this is Lorraine I'm dictating this in the car
so sorry if it comes out a bit weird we're doing up the kitchen at our place in Bendigo and I need help …" is read as
the sentences it was said in, each new subject ("I'm", "we're") starting one.
"""

from __future__ import annotations

import re

from memoir.ingest.lexicon import word_list

__all__ = ["punctuated"]

_LONG = 30  # words: a short message without punctuation is a text, not a dictation
# A subject that starts what was said next: "… in the car I'm on my way", "… in Bendigo we're doing up …"
_SUBJECT = re.compile(
    r"(?<=[\w)])\s+(?=(?:I'm|I've|I'll|I'd|I|we're|we've|we'll|we|he's|she's|they're)\s"
    r"|(?:our|my)\s+[\w-]+\s+(?:is|are|was|were)\s)"  # "… that makes sense our budget is 18000 all up"
)
# After these the subject goes on what was being said: "so I", "and we", "which I", "I think he's", "if we"
_GOES_ON = frozenset(
    word_list(
        "and but so or nor yet that if when whether because cause coz cos since as than though although unless until "
        "while where which who what how why think thought reckon reckons guess hope know knew mean said says "
        "wish suppose bet then once after before like maybe probably just also honestly actually really"
    )
)


def punctuated(text: str) -> str:
    """A long message said without a stop or a comma, with a stop where each new subject begins; any other text as
    it is."""
    if len(text.split()) < _LONG or re.search(r"[.!?;,:\n]", text):
        return text
    text = _SPOKEN.sub(lambda m: _MARKS[m.group(1).lower()], text)  # "… cupboards full stop how do you …"
    return _SUBJECT.sub(_stop, text)


# Punctuation said aloud, as dictation software leaves it when it does not know the command
_MARKS = {"full stop": ". ", "question mark": "? ", "new paragraph": ". "}
_SPOKEN = re.compile(r"\s+(full stop|question mark|new paragraph)\b\s*", re.I)


# A thing just named, which the subject may go on to say more of: "the builder we've got lined up is Tony"
_DETERMINERS = frozenset(word_list("the a an this that these those my our his her their your any every some each"))


def _stop(match: re.Match[str]) -> str:
    said = match.string[: match.start()]
    before = [w.lower() for w in said.split()[-2:]]
    if not before or before[-1] in _GOES_ON or (len(before) == 2 and before[0] in _DETERMINERS):
        return match.group()
    if _CONDITION.match(re.split(r"\.\s|\b(?:but|so)\b", said)[-1]):
        return match.group()  # "if we won Tattslotto I'd just knock the whole place down": what would follow
    return ". "


_CONDITION = re.compile(r"^\s*(?:(?:and|but|so|oh)\s+)?(?:if|unless|when|once|even if)\b", re.I)
