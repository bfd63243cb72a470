"""Where the user lives, as people say it: the pattern of the residence topic (`topics`), a home of one value at a
time ("The user lives in Rotterdam" replaces "… in Utrecht"; "we moved last weekend to Mississauga" too)."""

from __future__ import annotations

import re

__all__ = ["RESIDENCE"]

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
