"""A sentence and its clauses as the readers take them (`rules`): plain order, nothing in the way.

What people write puts things in many orders; the readers know one. So the user's people go
by their plain names ("the missus" is "my wife"), reported speech is opened ("Physio says my
knee can't handle marathons", "… as doctor has told me my sugar is borderline"), a message to
pass on is read as said ("Tell her my tomatoes are doing well"), what brackets say of someone
is a clause of its own ("Magnus (he's 9)"), a proposal accepted is an engagement, an
apposition goes before its name ("Biscuit, my beagle, joins the runs" -> "my beagle Biscuit
joins the runs"), a name said before its pronoun takes its place ("Yui, she's turning 7"),
openers and emoji go, "me and Jess" is "Jess and I", what someone did to the user's plans is
said of the plans ("they moved my dentist appointment to Thursday" -> "my dentist
appointment got moved to Thursday") and what they did to the user of the user ("they made me
team lead" -> "I became team lead", `done_to`), a bare relation is the user's ("Son Arjun is 8"), and a
fronted time goes last ("On Wednesdays I do the late shift" -> "I do the late shift on
Wednesdays").
"""

from __future__ import annotations

import re

from memoir.ingest.done_to import done_to_me, done_to_plans, prescribed
from memoir.ingest.lexicon import PEOPLE
from memoir.ingest.notes import noted
from memoir.ingest.spelled_out import spelled_out_clause, spelled_out_sentence
from memoir.ingest.unsaid import continued
from memoir.ingest.values import NUMBER_WORDS

__all__ = ["FIRST_PERSON", "plain_clause", "plain_sentence"]

# A preposition fronts a phrase ("Since May, I swim"), never a clause of its own alone ("since my brother
# joined Flipkart he never calls" is not "my brother joined … since")
_FRONTED = re.compile(
    r"^(?P<adv>(?:(?:right now|these days|nowadays|usually|normally)\b(?:(?!\b(?:is|are|was|were)\b)[^,]){0,40}?|"
    r"(?:on|every|each|at|in|since|after|before|during|from|this|next|last|most|some|instead of)\b"
    r"(?:(?!\b(?:is|are|was|were)\b)[^,]){2,40}?"
    # "When I was child in Kanazawa I played koto": when, said after what the user did
    r"|when\s+(?:i|we)\s+(?:was|were)\s+(?:a\s+)?(?:child|kid|little|young|younger|teenager|boy|girl|student|small)\b"
    r"[^,]{0,30}?)),?\s+(?P<rest>(?:i|i'm|i've|i'd|i'll|we|we're|we've|my|our)\b.+)$",
    re.I,
)
# What the user parted with, said first: "The Touran I sold to my neighbour for 5.000 €"
_OBJECT_FIRST = re.compile(
    r"^(?P<x>(?:the|my|our)\s+(?:old\s+)?[\w-]+)\s+(?P<who>i|we)\s+(?P<verb>sold|gave away|scrapped|donated)\b", re.I
)
_REPORTED = re.compile(
    r"^(?:(?:my|the|our)\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:(?:has|have|just)\s+)?(?:says|said|thinks|reckons|told me|"
    r"tells me|confirmed)(?:\s+that)?\s+(?P<said>.+)$",
    re.I,
)
_OPINION = re.compile(r"\b(?:thinks|reckons)\b", re.I)
_KNOWS = re.compile(
    r"\b(?:doctor|dr|gp|physio|physiotherapist|dentist|nurse|consultant|specialist|vet|optician|midwife|"
    r"cardiologist|surgeon|therapist|pharmacist)\b",
    re.I,
)
# The same after what the user asked or did: "help me with a diet chart as doctor has told me my sugar is borderline"
_REPORTED_AFTER = re.compile(
    r",?\s+(?:as|because|since|cause|'cause|coz|and|but|so)\s+(?:(?:my|the|our)\s+)?(?:doctor|dr|gp|physio|"
    r"physiotherapist|dentist|nurse|consultant|specialist|vet|coach|trainer|optician|midwife|cardiologist)\s+"
    r"(?:(?:has|have|just)\s+)*(?:says|said|told me|tells me|thinks|reckons|confirmed)(?:\s+that)?\s+(?P<said>.+)$",
    re.I,
)
_APPOSITION = re.compile(
    r"(?:^|(?<=[.!?:;]\s)|(?<=\bso\s)|(?<=\band\s)|(?<=\bbut\s)|(?<=\bthen\s))(?P<name>(?-i:[A-Z])[\w'’-]+),\s+(?P<rel>(?:my|our)\s+[\w-]+(?:\s+[\w-]+)?),\s+(?P<rest>.+)$",
    re.I,
)
# "Me and Mark we broke up already": the two, said twice, as second-language English says it
_ME_AND_WE = re.compile(r"^(?:(?:also|and|so|but)\s+)?me\s+(?:and|&)\s+(?P<who>(?-i:[A-Z])[\w'-]+),?\s+we\s+", re.I)
FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|im|me|my|mine|we|we're|our|ours|us)\b", re.IGNORECASE)


def plain_sentence(text: str) -> str:
    """A sentence as the readers take it: the user's people by their plain names ("the missus" is "my wife"),
    reported speech opened, appositions before their names, a name said before its pronoun put in its place."""
    text = _CAME_BACK.sub(r"my \g<q> \g<x> is \g<v>", prescribed(continued(text)))  # "The new A1c came back: 7.2"
    text = _NEW_ONE.sub(_new_one, text)  # "we found our new CTO: Elena, ex-N26"
    text = noted(text)  # "car = Dacia Jogger", "Daily driver: ThinkPad X1 Carbon"
    text = _ME_AND_WE.sub(r"\g<who> and I ", text)  # "Me and Mark we broke up": Mark and I broke up
    text = _OBJECT_FIRST.sub(r"\g<who> \g<verb> \g<x>", text)  # "The Touran I sold to my neighbour"
    text = spelled_out_sentence(text)  # "my own restaurant, it will be called Racines"
    return _named_first(_apposed(_reported(_proposal(_aside_said(_passed_on(_plain_people(_aged(text))))))))


# Someone new to the user in a role, named after it: "we found our new CTO: Elena", "I got a new dentist, Dr. Reyes"
_NEW_ONE = re.compile(
    r"^(?:(?:and|so|also|finally|well)\s+)*(?:i|we)\s+(?:(?:just|finally|also|have|'ve)\s+)*"
    r"(?:found|hired|got|appointed|picked|chose|signed)\s+(?:our|my|a)\s+new\s+(?P<role>[\w-]+(?:\s+[\w-]+)?)"
    r"\s*[:,]\s*(?P<name>(?:Dr\.?\s+)?(?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+)?)(?=\s*(?:[,.;!]|$))",
    re.I,
)


def _new_one(match: re.Match[str]) -> str:
    role = match.group("role").lower().split()[-1]
    if role not in PEOPLE and not re.fullmatch(r"c[a-z]o|chef|head|cook|director|partner|hire|intern", role):
        return match.group()  # "We got a new one: Max", "We picked a new name: Luna": no one in a role
    after = match.string[match.end() :]  # "…, who starts Monday" says more of them; "…, ex-N26, starts" is a list
    return f"my new {match.group('role')} is {match.group('name')}" + ("" if re.match(r",\s+who\b", after) else ";")


# A result told as it came: "The new A1c came back today: 7.2!", "my latest ferritin is in, 45"
_CAME_BACK = re.compile(
    r"^(?:the|my)\s+(?P<q>new|latest|last|recent)\s+(?P<x>[\w-]+(?:\s+[\w-]+)?)\s+(?:came back|is back|is in|arrived)"
    r"(?:\s+(?:today|yesterday|this morning|finally))?\s*[:,-]\s*(?P<v>\d[\d.,]*%?)(?=\s*(?:[!.,;]|$))",
    re.I,
)


# "two children, Chidera who is 9 and Tobe who is 5": each one's age beside their name, as lists are written
_WHO_IS_AGED = re.compile(
    r"\b(?P<name>(?-i:[A-Z])[a-z]+),?\s+(?:who(?:'s|’s|\s+is)|aged)\s+(?P<n>\d{1,2})\b"
    r"(?!\s*(?:kg|cm|%|am|pm|months?|mos?|weeks?|wks?|days?)\b)"  # "baby Rose who's 8 months": no age in years
)


def _aged(text: str) -> str:
    """Ages said of two or more people of a list by relative clauses, written beside their names."""
    if len(_WHO_IS_AGED.findall(text)) < 2:
        return text  # "my son Tom, who is 8, loves Lego": one person, said as said
    aged = _WHO_IS_AGED.sub(lambda m: f"{m.group('name')} ({m.group('n')})", text)
    return re.sub(r"\((\d{1,2})\),(?=\s+[a-z])", r"(\1)", aged)  # "Tom (8), and Ben (12), love Lego": no commas left


# A message the user asks to pass on, about their own life: "Tell her the tomatoes in my allotment are doing well"
_PASS_ON = re.compile(
    r"^(?:please\s+|can you\s+|could you\s+|and\s+)?(?:tell|let)\s+(?:her|him|them|(?-i:[A-Z])[\w'’-]+)"
    r"(?:\s+know)?\s+(?:that\s+)?(?P<said>\S.+)$",
    re.I,
)


# What the user asks to be written in a letter or card, about their own life: "And mention that my wife Katrin
# also called", "add a line that our colours are emerald and gold"
_TO_WRITE = re.compile(
    r"^(?:and\s+|also\s+|please\s+|pls\s+|abeg\s+|can you\s+|could you\s+)*(?:add|mention|include|say|write|put)"
    r"(?:\s+(?:a line|a sentence|in the \w+|too|also))*\s+(?:that\s+)?(?P<said>\S.+)$",
    re.I,
)


def _passed_on(text: str) -> str:
    written = _TO_WRITE.match(text)
    # of the user's life ("that I trained at Institut Paul Bocuse", "I'm finishing my BEd"), not "add a title"
    said = written.group("said") if written else ""
    # a clause of the user's: "I trained at …", "my wife is a nurse"; not "my sister's email to the thread"
    clause = re.match(r"(?:i|i'm|i’m|i've|i’ve|we|we're)\b", said, re.I) or (
        re.match(r"(?:my|our)\b", said, re.I) and re.search(r"\b(?:is|are|was|were|has|have|had|will)\b", said, re.I)
    )
    if written and clause:
        return said
    if written and re.search(r"\b(?:my|our)\b", written.group("said"), re.I) and " that " in f" {text} ":
        return written.group("said")
    match = _PASS_ON.match(text)
    # of things of the user's ("my tomatoes", "our move"), not "tell her I said hi", "tell Santa I want a pony"
    if match is None or not re.search(r"\b(?:my|our)\b", match.group("said"), re.I):
        return text
    return re.sub(r",?\s+and\s+that\s+", ", and ", match.group("said"))


# "Magnus (he's 9) helped me": what the brackets say of him, a clause of its own at the end as well
_BRACKETED = re.compile(
    r"(?<![\w'’-])(?P<name>(?-i:[A-Z])[\w'’-]+)\s+\((?:he|she)(?:'s|’s|\s+is)\s+(?P<what>[^()]{1,40})\)", re.I
)


def _aside_said(text: str) -> str:
    said = [f"{m.group('name')} is {m.group('what').strip()}" for m in _BRACKETED.finditer(text)]
    if not said:
        return text
    return "; ".join([text, *said])


# "Marcus proposed on Saturday and obviously I said yes, we're engaged": engaged to Marcus
_PROPOSED = re.compile(
    r"^(?:and\s+|also\s+|so\s+)?(?P<name>(?-i:[A-Z])[\w'’-]+) (?:finally |just )?proposed"
    # to the user, nothing else proposed ("proposed a toast", "proposed we get pizza", "proposed to Priya")
    r"(?=(?:\s+to me)?(?:\s+(?:on|last|this|yesterday|at|in|over|during)\b[^,.!]*)?\s*(?:[,.!]|and\b|$))",
    re.I,
)
_ACCEPTED = re.compile(
    r"\b(?:i said yes(?!\s+to\b)|we(?:'re| are) (?:now )?engaged|i(?:'m| am) engaged|we got engaged)\b", re.I
)
_NOT_YET = re.compile(r"\b(?:haven't|have not|hasn't|didn't|not yet)\b", re.I)


def _proposal(text: str) -> str:
    match = _PROPOSED.match(text)
    if match is None or not _ACCEPTED.search(text) or _NOT_YET.search(text):
        return text
    return f"I'm engaged to {match.group('name')}"


# What people call their own: "the missus", "hubby", "my other half". "The wife" only where it
# can be nobody else's: before a name, a comma, "and I" or a verb.
_FAMILIAR = (
    (re.compile(r"\b(?:the|my) (?:missus|missis)\b", re.I), "my wife"),
    (re.compile(r"\b(?:the |my )?hubby\b", re.I), "my husband"),
    (re.compile(r"\b(?:the|my) (?:other|better) half\b", re.I), "my partner"),
    (
        re.compile(
            r"\bthe (?P<who>wife|husband)(?=,| and (?:i|me)\b| (?-i:[A-Z])| (?:is|was|has|had|wants|says|thinks|works|"
            r"loves|likes|hates|cooks|does|and i)\b)",
            re.I,
        ),
        r"my \g<who>",
    ),
)


def _plain_people(text: str) -> str:
    """ "Also the missus, Trish, wants me to ask" -> "Also my wife, Trish, wants me to ask"."""
    for pattern, plain in _FAMILIAR:
        text = pattern.sub(plain, text)
    return text


_NAMED_FIRST = re.compile(
    r"^(?P<name>(?-i:[A-Z])[\w'’-]+),\s+(?:she|he)(?P<verb>'s|’s|\s+is|\s+was|\s+has|\s+had|\s+will)\s+(?P<rest>.+)$",
    re.I,
)


# "my little sister chloe shes 12": the age said again of the name by its pronoun
_NAMED_THEN_AGED = re.compile(
    # a name from its start only (tried inside a pasted run of "A'A'A'…" at every letter, it took seconds)
    r"(?<![\w'’-])(?P<name>(?-i:[A-Z])[\w'’-]+)\s+(?P<who>(?-i:she|he))(?:'s|’s|s)\s+(?P<n>\d{1,3})\b"
    # an age, not a measure: "hes 35 pounds now", "shes 40 mins away", "hes 9 points behind"
    r"(?!\s*(?:pounds?|lbs?|kgs?|kilos?|stone|inch(?:es)?|feet|foot|ft|cm|floors?|goals?|points?|pts|mins?|minutes?|"
    r"hours?|hrs?|seconds?|secs?|miles?|km|k|days?|weeks?|wks?|months?|times?|percent|%|am|pm|ahead|behind|late|"
    r"early|away|off|down|up|out|in|for)\b)"
    # "… shes 12 wants to play too": what she does next is a clause of its own
    r"(?P<then>\s+(?!(?:years?|yrs?|months?|weeks?|days?|and|but|or|now|too|already|next|this|in|on)\b)"
    r"(?-i:[a-z]+s)\b)?"
)


def _aged_again(match: re.Match[str]) -> str:
    said = f"{match.group('name')} is {match.group('n')}"
    return f"{said}; {match.group('who')}{match.group('then')}" if match.group("then") else said


def _named_first(text: str) -> str:
    """ "Yui, she's turning 7 on the 12th" -> "Yui is turning 7 on the 12th"; "my sister Chloe shes 12" -> "my
    sister Chloe is 12"."""
    text = _NAMED_THEN_AGED.sub(_aged_again, text)
    match = _NAMED_FIRST.match(text)
    if match is None:
        return text
    verb = match.group("verb").strip()
    verb = "is" if verb in ("'s", "\u2019s") else verb
    return f"{match.group('name')} {verb} {match.group('rest')}"


def _reported(text: str) -> str:
    """ "Physio says my knee can't handle marathons": what was said of the user (a hearsay of their own); said
    after something else, a clause of its own ("…; my sugar levels are borderline")."""
    match = _REPORTED.match(text)
    if match and re.match(r"i\s", text, re.I):
        return text  # "I said I live in Leeds but …": what the user said before, not what they say now
    if (
        match
        and _OPINION.search(match.group(0)[: match.start("said")])
        and not _KNOWS.search(text[: match.start("said")])
    ):
        return text  # "my partner Jess reckons I'm obsessed": her view, no fact of the user's (a doctor's is one)
    if match and FIRST_PERSON.search(match.group("said")):
        return match.group("said")
    after = _REPORTED_AFTER.search(text)
    if after and FIRST_PERSON.search(after.group("said")):
        return f"{text[: after.start()]}; {after.group('said')}"
    return text


# "Our youngest, Kate, is off to uni", "My sister, Ana, lives in Porto": the relation first
_NAME_BETWEEN = re.compile(
    r"^(?P<rel>(?:my|our)\s+[\w-]+(?:\s+[\w-]+)?),\s+(?P<name>(?-i:[A-Z])[\w'’-]+),\s+(?P<rest>\S.*)$", re.I
)


# An apposition between dashes is one between commas: "Bill — my husband — bought", "my sister — Ana — lives"
_DASHED = re.compile(
    r"(?P<first>(?<![\w'’-])(?-i:[A-Z])[\w'’-]{1,30}+|(?:my|our)\s+[\w-]{1,30}+(?:\s+[\w-]{1,30}+)?)\s+[—–-]{1,2}\s+"
    r"(?P<between>(?:my|our)\s+[\w-]{1,30}+(?:\s+[\w-]{1,30}+)?|(?-i:[A-Z])[\w'’-]{1,30}+)\s+[—–-]{1,2}\s+"
    r"(?!(?:and|or|but|so|then)\b)",
    re.I,
)


def _dashed(match: re.Match[str]) -> str:
    named = [part[:1].isupper() and not part.lower().startswith(("my ", "our ")) for part in match.group(0, 1, 2)[1:]]
    if named[0] == named[1]:
        return match.group(0)  # a name and a relation, one of each: "I went to the shop - my usual one - and"
    return f"{match.group('first')}, {match.group('between')}, "


def _apposed(text: str) -> str:
    """ "Biscuit, my beagle, joins the runs" and "My sister, Ana, lives in Porto" -> "my beagle Biscuit joins
    the runs", "My sister Ana lives in Porto"."""
    if re.search(r"\s[—–-]{1,2}\s", text):  # "Bill — my husband — bought me a MacBook"
        text = _DASHED.sub(_dashed, text)
    match = _APPOSITION.search(text)
    if match:
        return f"{text[: match.start()]}{match.group('rel')} {match.group('name')} {match.group('rest')}"
    between = _NAME_BETWEEN.match(text)
    if between:
        return f"{between.group('rel')} {between.group('name')} {between.group('rest')}"
    return text


_BARE_RELATION = re.compile(rf"^(?:{'|'.join(sorted(PEOPLE, key=len, reverse=True))}) (?-i:[A-Z])[\w'-]+\b", re.I)


# A relation's name typed in lower case, known a name by the age said of it: "daughter zosia is 5"
_LOWER_NAMED = re.compile(
    rf"^((?:my |our )?(?:{'|'.join(sorted(PEOPLE, key=len, reverse=True))})) "
    r"((?!(?:age|name|birthday|school|class|team|football|homework|weight|height|size|score|grade|level|bedtime|"
    r"just|now|also|still|finally|already|recently|only|actually|officially|nearly|almost)\b)"  # "mom just turned 70"
    r"(?-i:[a-z]){2,}) "
    r"(?=(?:is|turns|turned|just turned) \d{1,3}(?:\s*(?:years?|yrs?|y/?o)(?:\s+old)?)?(?:\s+now)?"
    r"\s*(?:[,.!?]|$|(?:and|but|so|does|do|is)\b))",
    re.I,
)


# How many work with the user, however said: "we're a team of 9", "headcount is 14 now" (not a wedding's: "the
# headcount for Saturday is 80")
_TEAM_SIZE = re.compile(
    r"^(?:(?:we're|we are|were|we’re)\s+a\s+team\s+of|(?:our\s+|the\s+)?(?:team\s+)?head\s?count\s+"
    r"(?:is|'s|’s|is now|now|at)(?!\s+for\b))\s+(?:now\s+)?(?P<n>\d{1,4}|"
    + "|".join(NUMBER_WORDS)
    # the user's team now: not "80 for the wedding", "6 in my old job", "4 for the relay"
    + r")\b(?!\s*(?:%|percent|k\b))"
    r"(?!.*\b(?:for|at the|in the|old|former|previous|used to|back then|before|last year|ago|so far)\b)",
    re.I,
)


# The user's age, told by a birthday: "it was my birthday Thursday, 35 now", "had my bday yesterday, officially 40"
_MY_BIRTHDAY = re.compile(
    r"^(?:it was|it's|its|today is|today's|yesterday was|(?:i\s+)?(?:just\s+)?had|(?:i\s+)?celebrated)"
    r"\s+(?:my\s+)?(?:birthday|bday)\b"  # "I had birthday last week, so now 47", as many write it
    r"[^,;]{0,30}[,;]\s*(?:so\s+)?(?:(?:i'm|im|i am|i['’]m|officially|now|finally)\s+)*"
    r"(?P<n>\d{1,3})(?:\s+(?:now|today))?[\s!.]*$",
    re.I,
)


def plain_clause(clause: str) -> str:
    """The clause without openers, in plain order: fronted time last ("On Wednesdays I …")."""
    clause = re.sub(
        r"^(?:(?:and|also|plus|so|but|then|oh|now|actually|ok|okay|yo|lol|lmao|omg|ngl|tbh|btw|honestly|"
        # "bro i switched", not "bro got married" (the user's brother)
        r"yeah|yea|welp|ugh|anyway|anyways|not that it matters|"
        r"bruh(?=[,\s]+(?:our|my|the)\b)|(?:bro|dude)(?=[,\s]+(?:i|im|i'm|we|my|it|its|this)\b))\b[,\s]*)+",
        "",
        clause,
        flags=re.I,
    )
    clause = re.sub(r"[\U0001F000-\U0001FAFF\u2600-\u27BF]+", "", clause).strip()
    # "me and Jess got a flat", "me and my brother Tom run a garage"
    clause = re.sub(
        r"^(?:me and|me &) ((?:(?:my|our)\s+)?[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?)\b(?![\w'’-])",
        r"\1 and I",
        clause,
        flags=re.I,
    )
    clause = re.sub(r"^([\w'-]+) and me\b", r"\1 and I", clause, flags=re.I)
    clause = done_to_me(done_to_plans(clause))
    clause = re.sub(r"^(she|he)s\b", r"\1's", clause, flags=re.I)  # "shes 78", typed without its apostrophe
    # "w my friends", "startin monday w Lone Star"
    clause = re.sub(
        r"\b(?-i:w)/?\s+(?=(?:my|our|the|a|an|his|her|their)\b|(?-i:[A-Z][a-z]))", "with ", clause, flags=re.I
    )
    clause = spelled_out_clause(clause)  # "I have cat", "cs2 is my main game now", "the band is a quartet now"
    clause = _MY_BIRTHDAY.sub(lambda m: f"I am {m.group('n')} now", clause)  # "it was my birthday Thursday, 35 now"
    clause = _TEAM_SIZE.sub(lambda m: f"our team is {m.group('n')} people", clause)  # "we're a team of 9"
    clause = _LOWER_NAMED.sub(lambda m: f"{m.group(1)} {m.group(2).capitalize()} ", clause)  # "daughter zosia is 5"
    if _BARE_RELATION.match(clause):  # "Son Arjun is 8": the user's son
        clause = "my " + clause[0].lower() + clause[1:]
    fronted = _FRONTED.match(clause)
    if fronted:
        adverb, rest = fronted.group("adv"), fronted.group("rest")
        # "When I was a student I lived in Leeds, now I live in York": when goes with its own clause
        head, comma, tail = rest.partition(",") if adverb.lower().startswith("when") else (rest, "", "")
        clause = f"{head} {adverb[0].lower()}{adverb[1:]}{comma}{tail}"
    return clause.strip()
