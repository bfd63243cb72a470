"""A message as the readers read it: runs of blanks squeezed, informal spellings written out ("gonna", "im", a
lower-case "i"), chatty asides in brackets left out.
"""

from __future__ import annotations

import re

__all__ = ["squeezed", "written_out"]


# Runs of blanks read as one: several patterns try each position of a run, and a message padded
# with thousands of spaces inside a sentence took seconds (4,000: 7 s), quadratically more.
_BLANKS = re.compile(r"[^\S\n]{2,}")
_NEWLINES = re.compile(r"\n\s*\n\s*")


def squeezed(text: str) -> str:
    """A message with each run of blanks one blank, and each run of empty lines one."""
    return _NEWLINES.sub("\n\n", _BLANKS.sub(" ", text))


# People type fast: "gonna", "im", "dont", a lower-case "i". Read as written out.
_INFORMAL = {
    "gonna": "going to",
    "hav": "have",
    "wanna": "want to",
    "gotta": "have to",
    "im": "I'm",
    "ive": "I've",
    "dont": "don't",
    "didnt": "didn't",
    "doesnt": "doesn't",
    "cant": "can't",
    "wont": "won't",
    "isnt": "isn't",
    "thats": "that's",
    "hes": "he's",
    "shes": "she's",
    "wasnt": "wasn't",
    "arent": "aren't",
    "havent": "haven't",
    "couldnt": "couldn't",
    "i": "I",
    "i'm": "I'm",
    "i've": "I've",
    "i'll": "I'll",
    "i'd": "I'd",
}
# Verbs typed without their final "g" ("startin monday w Lone Star", "thinkin bout goin dedicated"): a list, as
# "cousin", "Berlin" and "within" end so too
_G_DROPPED = (
    "startin",
    "stayin",
    "goin",
    "doin",
    "thinkin",
    "workin",
    "drivin",
    "runnin",
    "gettin",
    "tryin",
    "lookin",
    "movin",
    "leavin",
    "makin",
    "comin",
    "livin",
    "plannin",
    "headin",
    "talkin",
    "sayin",
    "trainin",
    "playin",
    "teachin",
    "learnin",
    "studyin",
    "sellin",
    "buyin",
    "buildin",
    "flyin",
    "sleepin",
    "eatin",
    "cookin",
    "bakin",
    "waitin",
    "havin",
)
_INFORMAL.update({word: f"{word}g" for word in _G_DROPPED})
_INFORMAL.update({f"{word}'": f"{word}g" for word in _G_DROPPED})
_NAMES_TOO = frozenset([*_G_DROPPED, "hes", "shes", "thats"])  # capitalised mid-sentence, a name
_INFORMAL_WORD = re.compile(r"(?<![\w'])(?:" + "|".join(map(re.escape, _INFORMAL)) + r")(?![\w'])", re.I)
# An aside in brackets that is talk, not content: "(can't say who lol)", "(don't ask)", "(!)".
_ASIDE = re.compile(r"\s*\((?:[^()]*\b(?:lol|haha\w*|jk|lmao|can't|don't|dont|cant|ugh|sigh)\b[^()]*|[^\w()]*)\)")


# A verb of when typed without its "-s" after one thing of the user's, as many write English: "My contract finish in
# end of March" (not "my kids start in May", "my contracts end")
_BARE_WHEN = re.compile(
    # first in its clause ("let my son start in September" asks it), a term or an event of the user's ("my best
    # finish at Boston", "my wife and my son start" are not)
    r"(?:^|(?<=[,.;:!?]\s)|(?<=\bbut\s)|(?<=\bso\s))"
    r"(?P<thing>(?:my|our)\s+(?:contract|lease|tenancy|visa|permit|course|class|semester|term|exam|internship|"
    r"placement|probation|shift|training|holiday|vacation|leave|trip|flight|appointment|surgery|treatment|"
    r"subscription|membership|season|programme|program|project|interview|job|school|degree|residency))"
    r"\s+(?P<verb>finish|end|start|begin|expire)(?=\s+(?:in|on|at|by|until|till|next|this|soon|tomorrow)\b)"
    r"(?![^,.;!?]*\b(?:is|was|were|are)\b)",  # "my semester start in feb was rough": a noun
    re.I,
)


def written_out(text: str) -> str:
    """`text` with informal spellings written out and chatty asides in brackets left out."""
    text = _BARE_WHEN.sub(_with_s, _ASIDE.sub("", text))
    # .get: a letter that only matches ignoring case ("İ" for "i") lowers to another text, and stays as written.
    return _INFORMAL_WORD.sub(_written_out, text)


def _written_out(match: re.Match[str]) -> str:
    word = match.group(0)
    if word[:1].isupper() and word.lower() in _NAMES_TOO and re.search(r"\w\s+$", match.string[: match.start()]):
        return word  # a name mid-sentence: "Rachel Makin", "Goin Road", "my boss is called Hes"
    return _INFORMAL.get(word.lower(), word)


def _with_s(match: re.Match[str]) -> str:
    verb = match.group("verb")
    return f"{match.group('thing')} {verb}{'es' if verb.lower().endswith('sh') else 's'}"
