"""What of a sentence is asked and what is said: "I'm in, are you?" states "I'm in"; "Craig moved to Phoenix this
month??" is said in surprise, not asked; "I'm physics teacher in a high school, …, but improvising voices??" states
the first part."""

from __future__ import annotations

import re

__all__ = ["statement_part"]

_QUESTION_TAG = re.compile(
    r",\s*(?:do|did|does|don't|didn't|is|isn't|are|aren't|was|wasn't|have|haven't|can|can't|will|won't|right|ok|okay|"
    r"what about|how about|and|or)\b[^,]*\?$"
    # what the user asks after saying something: "my roommate Hana cooks sometimes so maybe recipes for two?",
    # "I have a beagle, what should I feed her?"
    r"|,?\s+so\s+(?:maybe|perhaps|any|what|how|which|should|could|would|can|do|does|is|are)\b[^,]*\?$"
    r"|,\s*(?:what|how|which|where|when|why|any|should|could|would)\b[^,]*\?$"
    r"|:\s*(?:what|how|which|where|when|why|any|is|are|do|does|can|should|could|would)\b[^:]*\?$",
    re.IGNORECASE,
)
# A question or request typed without its mark after what the user says ("my birthday is in march, can u
# suggest a theme for the party"; "I walk the dog every morning, does that count as exercise"): cut off.
_ASKED_AFTER = re.compile(
    r"(?:,\s*|\s+(?=any\s))(?:(?:so|and|but|also)\s+)?(?:"
    r"(?:can|could|would|will)\s+(?:you|u|ya)\b"
    r"|(?:pls|please|plz)\s+(?:help|suggest|give|tell|write|make|send|check|explain)\b"
    r"|(?:what|how|which|where|when|why)\s+(?:is|are|do|does|should|can|could|would|about|to)\b"
    r"|(?:does|do|is|should|would)\s+(?:that|this|it)\s+\w+"
    r"|any\s+(?:tips|ideas|advice|suggestions|recommendations|thoughts)\b"
    r")[^,]*$",
    re.IGNORECASE,
)


def statement_part(said: str) -> str | None:
    """The sentence without its end mark; a question's statement before a tag ("I'm in, are you?"), or None."""
    text = said.rstrip()
    if _SURPRISE.search(text) and not _ASKS.match(text):  # "Craig actually moved to Phoenix this month??"
        text = text.rstrip("?!")
    if not text.endswith("?"):
        text = _ASKED_AFTER.sub("", text.rstrip(".!…"))
        return text.strip() or None
    tag = _QUESTION_TAG.search(text)
    if tag is None:  # "I'm physics teacher in a high school, so rules are ok, but improvising voices??": the statement
        asked = _ASKED_LAST.search(text)
        return text[: asked.start()].strip() if asked and _SAID_FIRST.match(text) else None
    return text[: tag.start()].strip() or None


# A statement said in surprise ("??", "?!"), not asked: no question word or verb first, nothing asked of "you"
_SURPRISE = re.compile(r"(?:\?\?|\?!|!\?)[?!]*$")
_ASKS = re.compile(
    # ("So I'm fired??", "So my landlord can just keep my deposit??": asked, to be told it is not so)
    r"^so\b|^(?:(?:and|but|ok|okay|also|wait|hmm|um|like)\W+)*(?:what|who|whom|whose|which|where|when|why|how|is|are|am|was|"
    r"were|do|does|did|can|could|should|would|will|shall|may|might|must|have|has|had|isn't|aren't|don't|doesn't|"
    r"didn't|won't|can't|any|anyone|anybody|anything)\b|.*\b(?:you|u|ya|your)\b"
    # or asked after a comma: "I'm quitting my job, but should I??"
    r"|.*[,;]\s*(?:(?:but|so|and|or)\s+)?(?:what|why|how|when|where|who|should|can|could|would|will|do|does|did|is|"
    r"are|am)\b",
    re.I,
)
# A short question after a statement of the user's own, in one sentence
# (not of "you", nor a doubt of the statement: "I'm quitting my job, but should I??", "…, but why??")
_ASKED_LAST = re.compile(
    r",\s+(?:but|so|and)\s+(?![^,]*\b(?:you|u|your|should|why|how|what|when|where|really|right)\b)"
    r"(?!(?:is|are|am|was|were|do|does|did|can|could|would|will|shall|have|has|isn't|aren't|don't)\b)[^,]{1,40}\?+$",
    re.I,
)
_SAID_FIRST = re.compile(r"^(?:i'm|i am|im|i have|i've|i work|i live|my\s+[\w-]+\s+is)\s+\w", re.I)
