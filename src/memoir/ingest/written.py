"""A message as the readers read it: runs of blanks squeezed, informal spellings written out ("gonna", "im", a
lower-case "i"), chatty asides in brackets left out.
"""

from __future__ import annotations

import re

from memoir.ingest.asides import lifted_asides
from memoir.ingest.lexicon import PEOPLE, word_list
from memoir.ingest.referents import MANY

__all__ = ["squeezed", "without_faces", "written_out"]


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
    # words of work typed short: "mgr is sanne", "12 ppl"
    "mgr": "manager",
    "ppl": "people",
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
# An aside in brackets that is talk, not content: "(can't say who lol)", "(don't ask)", "(!)", "(yes, I know)".
_ASIDE = re.compile(
    r"\s*\((?:(?:finally|yay|ugh|phew|omg|wow|sigh|at last|thank god|fingers crossed|woohoo)[!.]*|"
    r"[^()]*\b(?:lol|haha\w*|jk|lmao|can't|don't|dont|cant|ugh|sigh)\b[^()]*|[^\w()]*|"
    # "(yes, I know)", "(long story)": nothing more than that ("(I know about 500 words)" says something)
    r"(?i:(?:yes|ok|okay|and)[,\s]+)?(?i:i know|long story|i swear|trust me)(?:[,\s]+(?i:i know|lol))?[!.]?)\)"
)


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


# "we're" typed without its apostrophe, first in its clause, of how things are now: "so were on kendamil now" (not
# "were you there", "so were we", "we were on holiday")
_WERE_NOW = re.compile(
    r"(?:^|(?<=[.!?:]\s)|(?<=\bso\s))were(?=\s+"
    r"(?!(?:we|they|you|i|he|she|it|not|there|all|both|the|a|an|my|your|his|her|their|our|those|these)\b)"
    r"(?:(?!\b(?:but|and|then)\b)[a-z' ])*\bnow\b)"  # "were planning to move but now …" is the past
    # ... or of where things go: "ok guys voted, were moving to sleeper this yr" (not "they were moving to Leeds")
    r"|(?:^|(?<=[.!?:,]\s))were(?=\s+(?:moving|switching|changing|going|heading|swapping)\s+(?:to|over)\b)",
)


# A sum of the user's said without its verb, as terse writers do: "budget 8 lakh max", "budget now 42k", "my salary
# 14 lakh", "rent 450 a week" (first in its sentence; not "a budget 5k car", "rent 3 bikes", nor after a comma: "a
# gaming pc, budget 30k" is the pc's)
_TERSE_SUM = re.compile(
    r"(?:^|(?<=[.;:!?]\s)|(?<=\bso\s)|(?<=\band\s)|(?<=\bbut\s))(?P<whose>(?:my|our)\s+)?"
    r"(?P<what>(?:total\s+|monthly\s+|max\s+|new\s+)?(?:budget|rent|salary|income|take[- ]home|savings|"
    r"mortgage|loan|deposit))\s+"
    r"(?P<now>now\s+)?"
    # a sum, and nothing after it but how often or how firm ("2 hours", "2 chairs for the party", "900 for her place"
    # are no sum of the user's)
    r"(?=(?:about|around|approx\.?|roughly|~)?\s*[$€£₹]?\s?\d[\d,.]*\s*(?:k|m|lakhs?|crores?|grand|bucks|euros?|"
    r"dollars?|pounds?|rupees?|eur|usd|gbp|inr|aud|cad)?(?![\w/-])"
    r"(?:\s+(?:a|per|/)\s*(?:week|wk|month|mo|year|yr|night)|\s+(?:max|maximum|min|minimum|total|tops|ish|now|pw|pcm|"
    r"left|owing|outstanding|remaining))?"
    r"\s*(?:[,.;!]|$|\s+(?:split|but|btw|lol)\b))",
    re.I,
)
# Someone else the message speaks of before a sum: theirs, not the user's ("help my sister plan. budget 2k")
_SOMEONE_ELSE = re.compile(
    r"\b(?:his|her|their|he|she|they|for (?:my|a|our) \w+|help(?:ing)? (?:my|a|our) \w+|client|customer|friend|"
    r"son|daughter|brother|sister|boss|"
    r"my (?:sister|brother|son|daughter|mum|mom|dad|parents|friend|client|kid|kids|wife|husband|partner)\b"
    r"(?!\s+and\s+i))",
    re.I,
)


# and another's beside it: "my salary 14 lakh she 9" is hers
_THEIRS_BESIDE = re.compile(
    r"(?<=\d)(?P<unit>\s*(?:k|lakhs?|grand))\s+(?P<who>she|he)\s+(?=\d[\d,.]*\s*(?:k|lakhs?)?$)", re.I
)


def _sum_said(match: re.Match[str]) -> str:
    if not match.group("whose") and _SOMEONE_ELSE.search(match.string, 0, match.start()):
        return match.group(0)
    return f"{match.group('whose') or 'my '}{match.group('what')} is {match.group('now') or ''}"


def _theirs(match: re.Match[str]) -> str:
    return f"{match.group('unit')}, {'hers' if match.group('who').lower() == 'she' else 'his'} is "


# A new name said after the old one is taken back: "the puppy is not Pepper anymore she's Waffles now" is "the puppy
# is Waffles now, not Pepper" (whose "she" is the puppy, not Pepper)
_RENAMED = re.compile(
    r"\b(?P<who>(?:the|my|our)\s+[\w-]+)\s+is\s+not\s+(?P<old>(?-i:[A-Z])[\w'-]+)\s+any\s?more,?\s+"
    r"(?:she|he|it)(?:['’]s|\s+is)\s+(?P<new>(?-i:[A-Z])[\w'-]+)(?:\s+now)?\b",
    re.I,
)


# A word stretched for feeling at its end: "newsss", "heyyy", "sooo" (no English word ends in three of a letter) is
# written with two ("freeee", "fulll"), or one where that is the chatty word ("news", "hey"); Roman numerals stay
_STRETCHED = re.compile(r"(?<=[a-z])(?P<letter>[a-hj-uwyz])(?P=letter){2,}\b", re.I)
_EE = frozenset(word_list("free tree see agree three knee flee glee wee bee fee degree coffee toffee"))
_CHATTY = frozenset(
    word_list("news hey yes so no omg ugh hi oh ok yay wow lol pls plz thanks thx please hello yo ah aw nice cute")
)


def _unstretched(match: re.Match[str]) -> str:
    start = match.string.rfind(" ", 0, match.start()) + 1
    once = match.string[start : match.start()] + match.group("letter")
    twice = once.lower() not in _CHATTY and (match.group("letter").lower() in "lsfz" or f"{once}e".lower() in _EE)
    # "fulll", "classs", "freeee"; "homeee" is home
    return match.group("letter") * (2 if twice else 1)


# "We each have our own fridge shelf", "we both work from home": what "we" do, each of us
_WE_EACH = re.compile(
    r"\b(?P<we>we|they)\s+(?:each|both|all)\s+(?=(?:have|had|work|worked|live|lived|do|did|go|went|like|love|want|need|"
    r"get|got|are|were|run|ran|own|share|speak|play|take|eat|drive)\b)",
    re.I,
)


_ONE_PERSON = PEOPLE - MANY - frozenset(word_list("family friends colleagues team staff"))
# Who someone is, said in brackets after their name, first in a clause: "Karthik (my husband) is travelling", "kenzie
# (gf) says" (not "made pasta (gf)", gluten-free; not "family (my parents)", many)
_KIN_IN_BRACKETS = re.compile(
    r"(?:^|(?<=[.,;:!?]\s)|(?<=\band\s)|(?<=\bwith\s))(?P<name>(?-i:[A-Z])[a-zà-ÿ'’-]+)\s+\((?:my\s+|our\s+)?"
    rf"(?P<kin>{'|'.join(sorted(_ONE_PERSON | {'gf', 'bf', 'hubby', 'missus'}, key=len, reverse=True))})\)",
    re.I,
)
# Who someone is, typed short, as whose: "my gf", "her bf" (not "gf" for gluten-free, nor "22% bf")
_KIN_SHORT = re.compile(
    r"\b(?P<whose>my|our|his|her|their)\s+(?P<kin>(?-i:gf|bf))\b"
    r"(?=\s+(?-i:[A-Z])|\s*[,.;:!?()]|\s*$|['’]s\b|\s+(?:is|was|and|says|said|thinks|wants|loves|hates|has|works|lives|"
    r"doesn't|does|can't|won't|will|reckons)\b)",
    re.I,
)
# After who someone is in brackets, what a person does: "kenzie (gf) says …" (not "Pasta (gf) is what I eat")
_A_PERSON_DOES = re.compile(
    r"\s+(?:says|said|thinks|thought|reckons|wants|wanted|told|asked|loves|hates|works|lives|is coming|came|will)\b",
    re.I,
)
_TITLE_BEFORE = re.compile(r"\b(?:dr|mr|mrs|ms|prof|professor|sir|dame|aunt|uncle|auntie)\.?\s*$", re.I)


def _kin_first(match: re.Match[str]) -> str:
    if _TITLE_BEFORE.search(match.string[: match.start()]) or match.group("name").lower() in PEOPLE:
        return match.group(0)  # "Dr. Okafor (my GP)": the title is theirs; "Grandma (my mum)" is no name
    if match.group("kin").lower() in _SHORT_KIN and not _A_PERSON_DOES.match(match.string, match.end()):
        return match.group(0)  # "Bread (gf)": gluten-free
    return f"my {_SHORT_KIN.get(match.group('kin').lower(), match.group('kin'))} {match.group('name')}"


_SHORT_KIN = {"gf": "girlfriend", "bf": "boyfriend"}


# A name's "'s" that is "is" or "has": "Loretta's taking over as director", "Poppy's been veggie since last year",
# "Kiri's at uni in Dunedin" (not "at Sarah's in Leeds", a home; not "Let's", "It's")
_NAME_IS = re.compile(
    r"(?<![\w'’-])(?P<name>(?-i:[A-Z])[a-z]+)['’]s\s+(?=(?P<next>been|got|gone|at|"
    # doing something (not "Amy's leaving do is on Friday", "Kim's starting salary is £30k": a thing of theirs)
    r"(?:taking|moving|doing|getting|going|coming|starting|leaving|joining|working|staying|playing|visiting|flying|"
    r"travelling|traveling|studying|expecting)\b(?!\s+(?:good|well|great|ok|okay|fine|badly|alright|strong|smoothly)\b)"
    r"(?![\w\s-]{0,25}?\b(?:is|are|was|were)\b)|"
    # a state, said last or before when or where (not "Mum's vegan recipes", "Priya's due date")
    r"(?:away|due|pregnant|engaged|married|retired|allergic|vegetarian|vegan|veggie)\b"
    r"(?=\s*(?:[.,;:!?)]|$|(?:now|again|too|since|for|from|in|on|at|to|with|and|but|so|as|until|till|this|next)\b))))"
)
_NOT_A_NAME_IS = frozenset(
    word_list("it that what there here he she let who where how when this everything nothing everyone mine one today")
)
_OWNER_BEFORE = re.compile(r"\b(?:at|to|from|round|over|has|have|had|got|with|by|of|for|near|in|on|like)\s+$", re.I)


def _name_is(match: re.Match[str]) -> str:
    name = match.group("name")
    if name.lower() in _NOT_A_NAME_IS or _OWNER_BEFORE.search(match.string[: match.start()]):
        return match.group(0)
    has = re.match(r"(?:been|got|gone)\b", match.group("next"))
    return f"{name} {'has' if has else 'is'} "


def written_out(text: str) -> str:
    """`text` with informal spellings written out, chatty asides in brackets left out and asides that are
    sentences said after their sentence."""
    text = _RENAMED.sub(r"\g<who> is \g<new> now, not \g<old>", _STRETCHED.sub(_unstretched, text))
    text = _KIN_SHORT.sub(lambda m: f"{m.group('whose')} {_SHORT_KIN[m.group('kin').lower()]}", text)
    text = _ASIDE.sub("", lifted_asides(_KIN_IN_BRACKETS.sub(_kin_first, _NAME_IS.sub(_name_is, text))))
    text = _WERE_NOW.sub("we're", _BARE_WHEN.sub(_with_s, text))
    text = _TERSE_SUM.sub(_sum_said, _THEIRS_BESIDE.sub(_theirs, _WE_EACH.sub(r"\g<we> ", text)))
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


# A face typed (":)", ";(", ":D", "<3"): where a clause ends before it, it ends the sentence ("Thanks :) I want
# minimum 70k salary", "we are a family of 4 :) kids are 3 and 5"); it is left out where the sentence goes on through
# it ("my wife :) Anna is pregnant", "married :D in June", "… our bunny :("), not after an object ("we had to rehome
# our bunny :( kevin is allergic"); "i <3 Paris" is a verb; "runs <3 miles", "Adobe XD" and "my favourite emoticon is
# :)" stay as written.
_FACE = re.compile(
    r"(?<=\w)(?<!\bis)(?<!\bwas)(?<!\bare)\s+(?P<face>[:;=]-?[()DPpOo/|]+|<3+)(?=\s+(?P<next>[\w'’]+)|\s*(?:\n|$))"
)
_GOES_ON_BEFORE = re.compile(  # the subject, not yet its verb ("my mom ;( passed away"); a word wanting more
    r"(?:(?:^|[,.;!?]\s*|\b(?:and|but|so)\s+)(?:my|our|his|her|their)\s+[\w-]+"
    r"|\b(?:to|at|in|on|for|from|with|of|like|name's|names))$",
    re.I,
)
_GOES_ON_AFTER = frozenset(
    word_list(
        "in at on with to for from and but because cos since until near by of or than as after before when while if "
        "tho though lol haha lmao"
    )
)


def without_faces(text: str) -> str:
    """`text` with its typed faces ending the sentences they end, and left out where a sentence goes on."""

    def read(match: re.Match[str]) -> str:
        before, face, after = text[: match.start()], match.group("face"), match.group("next")
        if face.startswith("<3"):
            if re.search(r"\b(?:i|we)$", before, re.I):
                return " love"  # "i <3 Paris"
            if after is not None and after[0].islower():
                return match.group(0)  # "runs <3 miles": less than three
        if after is None or _GOES_ON_BEFORE.search(before) or after.lower() in _GOES_ON_AFTER:
            return ""
        return "."

    return _FACE.sub(read, text)
