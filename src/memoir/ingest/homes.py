"""Where the user lives, as people say it: the pattern of the residence topic (`topics`), a home of one value at a
time ("The user lives in Rotterdam" replaces "… in Utrecht"; "we moved last weekend to Mississauga" too)."""

from __future__ import annotations

import re

__all__ = ["RESIDENCE", "home_here"]

RESIDENCE = re.compile(
    r"^(?P<s>the user)(?: and [\w' ]+?)?\s+(?:(?:now|currently|still|also|just)\s+)*"
    r"(?:lives|live|is living|are living|resides|is based|"
    r"(?:got|found|bought|rented|have|has) an? (?:flat|house|apartment|place|home)(?: together)?|"
    # "found apartment in Riverdale", "found a cheaper room in Leith": typed without the article, or sized
    r"(?:found|bought|rented) (?:an? )?(?:(?:new|bigger|smaller|cheaper|nicer)\s+)?"
    r"(?:flat|house|apartment|place|home|room|studio)|"
    r"has moved|moved|has relocated|relocated|is moving|moves|shares an? (?:flat|house|apartment|place|room|"
    r"home)(?: with [^,]+?)?|rents an? (?:flat|house|apartment|room)(?: with [^,]+?)?|"
    r"(?:has )?moved (?:flats|house|houses|home|apartments|places),?(?: and)?(?: is)?(?: now)?)"
    # when, between the move and where, a place by its name: "moved last weekend (27-28 December 2025) to
    # Mississauga" (not "moved last year to part-time", "… to Slack from Teams")
    r"(?:\s+(?:(?:last|this)\s+(?:week|weekend|month|year|\w+day)|yesterday|recently)(?:\s+\([^()]*\))?"
    r"(?=\s+to\s+(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?\s*(?:,|$)))?"
    r"\s+(?:back\s+)?"
    # "moved into graduate dormitory on campus", not "moved into management" or "into the spare room"
    r"(?:in|to|at|into(?=\s+(?:(?:a|an|the|my|our|their|new|own|shared|student|graduate|rented)\s+)*"
    r"(?:flat|house|apartment|place|home|dorm\w*|halls?|studio|condo|bungalow|cottage|accommodation|"
    r"residence|hostel|goshiwon|(?-i:[A-Z]))))\s+(?P<v>.+)$",
    re.I,
)


# "… at a fintech startup here in Montreal", "I sing in the church choir here in Bath": where the user lives, said of
# what they do there (work, study, sing, run …), not of a stay ("visiting my sister here in Boston", "stuck here in
# Frankfurt airport", "here in Bali for 3 months"); the whole place ("here in New York visiting family" is no "New")
_DONE_HERE = re.compile(
    r"^the user (?:also\s+)?(?:works|teaches|sings|studies|runs|owns|leads|manages|coaches|volunteers|plays|"
    r"is an? (?!visitor|tourist|guest|patient)[\w-]+(?:\s+[\w-]+)?\s+(?:at|in|for|with)\b)",
    re.I,
)
_HERE_IN = re.compile(
    r"\bhere in (?P<place>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)(?![\w'-])(?!\s+(?-i:[A-Z]))"
    r"(?!.*\b(?:visit\w*|staying|stuck|airport|hotel|hospital|holiday|vacation|trip|conference|course|internship|"
    r"until|till|for (?:a|the|this|\d+|two|three|a few)\s+(?:days?|weeks?|months?|nights?)))",
    re.I,
)


def home_here(made: list[str]) -> list[str]:
    """Where the user lives, said as "here in <place>" inside a fact of what they do there, a fact of its own
    (unless one of the facts says where the user lives already)."""
    if any(RESIDENCE.match(text) for text in made):
        return []
    for text in made:
        here = _HERE_IN.search(text) if _DONE_HERE.match(text) else None
        if here is not None:
            return [f"The user lives in {here.group('place')}"]
    return []
