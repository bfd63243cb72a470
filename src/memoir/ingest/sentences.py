"""A user's message cut into what the fact rules read: sentences, then clauses, each a statement or not.

People type facts inside chatter: "Hi, I'm Priya.", "Actually we just moved, I live in
Rotterdam now.", "Please remember that my cat is called Pixel and she is 4 years old."
This module takes the chatter off and cuts what is left where a new statement starts:

- sentences end at `.`, `!`, `?` or a line break (not inside "Dr. Ng", "e.g." or "1.5");
- a sentence that ends with `?` is a question and states nothing, unless what comes
  before its last comma is a statement and the question only a tag ("…, do you?");
- the openers of speech go: greetings, "actually", "oh and", "by the way", "update:",
  and requests to remember ("please remember that …", "don't forget: …"), which mark
  what follows as important; openers that announce a change ("change of plan",
  "turns out", "correction") are kept as a flag;
- clauses split at `;`, `:`, dashes, ", but", ", so", and at a comma or "and" that a new
  subject follows ("I'm not doing Berlin, I switched to …", "Ada is 9 and Leo is 6").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memoir.ingest.lexicon import DIETS, PEOPLE, word_list
from memoir.ingest.questions import statement_part
from memoir.ingest.values import MONTHS
from memoir.ingest.workplaces import names_a_job
from memoir.ingest.written import squeezed, without_faces, written_out

__all__ = ["Sentence", "asked_to_remember", "clauses", "every_sentence", "sentences"]


_ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "st",
        "mt",
        "jr",
        "sr",
        "vs",
        "etc",
        "e.g",
        "i.e",
        "approx",
        "no",
        "fig",
        "dept",
        "univ",
        "ave",
        "inc",
        "ltd",
        "co",
    ]
)
# An emoji ends a sentence as a stop does: "mine is 340 😅 my supervisor says …"
_END = re.compile(r"(?<=[.!?…\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F])[\"')\]]*\s+|\n+")

_GREETING = (
    r"hi there|hey there|hello there|hello again|hey again|hi again|good (?:morning|afternoon|evening)|hi|hey|hello|"
    r"hiya|howdy|yo|greetings|morning|evening|dear \w+|hola|servus|howzit|ciao|bonjour|salut|namaste|g'day"
)
_FILLER = (
    r"ok|okay|oh|ah|aha|well|so|and|but|also|plus|then|btw|by the way|anyway|anyways|honestly|basically|sorry|"
    r"(?:please|pls)(?=,)|[a-z]+[ -]?wise|"  # "yes please, food wise Poppy's been veggie …"
    r"(?:the )?(?:thing|point|problem|truth|catch|issue) is(?: that)?"
    r"(?=\s+(?:that\s+)?(?:i|i'm|i've|we|we're|we've)\b)|"
    # what the user wants a letter to say of them is said of them: "I want to say I speak spanish and english"
    r"i\s+(?:want|would like|'d like|wanna|need)\s+to\s+(?:say|mention|add)"
    r"(?:\s+(?:in the letter|in the cv|in my cv|too|also))?(?:\s+that(?=\s+(?:i|i'm|i've|im|my)\b)"
    r"|(?=\s+(?:i|i'm|i've|im)\s))|"
    r"yes|yeah|yep|yup|no(?=\s*[,!.:—–-]|$)|nope|nah|sure|right|alright|all right|great|cool|nice|perfect|"
    r"awesome|thanks|thank you|"
    r"thanks a lot|thx|haha+|hahaha|lol|hmm+|um+|uh+|wow|oops|ps|p\.s\.|fyi|fun fact|side note|heads up|"
    r"for context|(?:some |a bit of |bit of |quick )?(?:context|background)(?=\s*[:,—–-]|\s+(?:i|im|i'm|we|my)\b)|"
    r"(?:currently|at the moment|right now|at present)(?=,?\s+(?:i|i'm|we|we're)\s+(?:have|am|are|has|work|live)\b)|"
    # "Sadly I'm allergic to dogs": how the user feels about what follows, before it
    r"(?:sadly|unfortunately|luckily|fortunately|thankfully|annoyingly|weirdly|funnily enough|surprisingly)"
    r"(?=\s+(?:i|i'm|im|i've|we|we're|my|our)\b)|"
    r"for the record|one more thing|guess what|some news|big news|good news|bad news|news|anyhow|"
    r"omg|omfg|yay|phew|great news|sad news|amazing news|exciting news|"
    r"oh yeah|oh and|ugh|heads up|hmm ok|basic info first|basics first|jaja|ha|hah|okay so|ok so|alright so|"
    r"unrelated,? but|while i think of it|by the by|speaking of which|and also|also worth knowing|i mean|just|"
    r"random(?: thing| q| question| update| but)?(?=\s*[,:!—–-])|unrelated(?=\s*[,:!—–-])|"  # "random thing, Craig …"
    r"quick note|quick one|first|second|third|firstly|secondly|thirdly|lastly|finally|first of all|"
    r"last but not least|next|(?:one |the )?(?:last|other|another|final) (?:thing|q|question)|quick (?:q|question)|"
    r"one more question|tho|though(?=\s*,)|(?:it\s+)?(?:looks|seems|sounds)\s+like(?=\s+(?:i|we)\b)|"
    # a disclosure's opening: "I should mention that I am vegetarian", "forgot to say, …", "I should add that …"
    r"(?:i\s+)?(?:should|must|forgot to|forget to|meant to|wanted to|need to|have to)\s+(?:also\s+)?"
    r"(?:(?:say|mention|tell you|let you know)(?:\s+that)?|add\s+that)"
)
_CHANGE_OPENER = (
    r"actually|(?:small |quick |one |a )?correction|"
    r"quick update|small update|big update|update on \w+|update|change of plans?(?: on [\w ]+)?|"
    r"plan change|new plan|(?:a |some |big |small |a few |one )changes?(?: at \w+| on \w+)?(?: too)?|"
    # "one more change, …", "another update:": only before a stop ("another change I made was …" is a sentence)
    r"(?:one more |another |one last |a last |last |final |more |further )(?:changes?|updates?)(?=\s*[,:!.—–-])|"
    r"turns out(?: that)?|it turns out(?: that)?|as it turns out|wait|scratch that|my mistake|"
    # "Sorry, it's Tuesday" corrects; "Sorry I'm yawning", "sorry for the typo" apologise (`_FILLER`)
    r"sorry(?!\s+(?:i'm|im|i am|i was|i've|we're|we are|for|about|to|if|that|again)\b)|"
    r"i misspoke|sorry,? i misspoke|i stand corrected|i tell a lie|my bad|i was wrong|i got (?:that|it) wrong|"
    r"to correct myself|not anymore|plot twist|big change|"
    r"so much happened|a lot has changed|lots has changed|things changed|news flash"
)
_REMEMBER = (
    r"(?:please |pls |can you |could you |kindly )note|"
    r"(?:please |pls |can you |could you |kindly )?(?:remember|memori[sz]e|make a note|take note|"
    r"remember also|also remember|note also|"
    r"keep in mind|bear in mind|don't forget|do not forget|never forget|remind me(?! to\b)|"
    # a verb that is also a noun ("Store launch is pushed", "Note taking …"): only before a stop or its object
    r"(?:note|write|jot)\s+(?:it\s+|this\s+|that\s+)?down|"  # "note down that my son's school starts at 8:15"
    r"note(?=\s*[,:!—–-]|\s+(?:this|that|it|for|my|our)\b)|(?:save|store)(?=\s*[,:!—–-]|\s+(?:this|that|it|for)\b))"
    r"(?: (?:this|that|it))?(?: for (?:me|later|the future))?(?: that)?"
    r"|i want you to (?:know|remember)(?: that)?|you should know(?: that)?|(?:just )?so you know|"
    r"for (?:future )?reference|note to self|for your (?:info|information)|for your records|"
    r"just to let you know(?: that)?|i'd like you to (?:know|remember)(?: that)?"
)
_OPENER = re.compile(
    rf"^(?:(?P<greeting>{_GREETING})|(?P<change>{_CHANGE_OPENER})|(?P<filler>{_FILLER}))(?:[,:!.\s—–-]+|$)",
    re.IGNORECASE,
)
# "For menu please note I'm allergic to shellfish": what the note is for, then the request.
_REMEMBER_OPENER = re.compile(
    rf"^(?:for (?:the )?[\w-]+,?\s+(?=(?:please |pls |kindly )?(?:note|remember)\b))?(?:{_REMEMBER})"
    r"(?:\s*[,:!—–-]\s*|\s+)(?=\S)",
    re.IGNORECASE,
)
# A new clause starts with its own subject: a pronoun, "my/our X", or a name.
_SUBJECT = (
    r"(?:i|i'm|i've|i'd|i'll|im|we|we're|we've|we'll|my|our|he|she|they|he's|she's|hes|shes|they're|it's|it|"
    r"his|her|their)"
)
_SPLIT = re.compile(
    r"\s*;\s*|\s*:\s+|\s+[—–]\s+|\s+-\s+|,\s+(?:but|so|though|although|yet)\s+|\s+but\s+"
    rf"|(?<!\bme),?\s+(?:and|so|then)\s+(?:(?:now|then|also|later|still)\s+)?(?={_SUBJECT}\b\s*\w)"  # not "Me and my …"
    r"|(?<=^me)\s+and\s+(?=(?:my|our)\s+[\w-]+['’]s\b)"  # but "Me and my brother's wife …": the wife's
    rf"|,\s+(?:also\s+|plus\s+|btw\s+|lol\s+|haha\s+|lmao\s+|tbh\s+)?(?={_SUBJECT}\b\s*\w)"  # ", also my mom is …"
    r"|,?\s+(?:so\s+)?if\s+(?=(?:you|you're|you've|you'll|u)\b)"  # "I'm coeliac so if you're suggesting snacks"
    r"|,\s+anyway\b\s*|,\s+(?=me\s+(?:and|&)\s)"  # ", anyway where do I start", ", me and my cousin …"
    # "…, and on Wednesdays I do the late shift": when, then the subject
    r"|,\s+and\s+(?=(?:on\s+(?:\w+days?|weekends?)|every\s+\w+|(?:in|at|after|before)\s+(?:the\s+)?(?:summer|winter|"
    r"spring|autumn|fall|mornings?|evenings?|afternoons?|night|weekends?|work|school|dinner|lunch))\s+(?:i|we|my|our)\s+\w)"
    r"|,\s+(?=(?:that's|that is|thats)\s+(?:my|our)\s)"  # "a café in Lavapiés, that's my barrio"
    r"|,\s+(?=you\s+(?:can|could|may|might|should)\s)"  # "…, you can put it in the email": to the assistant
    # "daughter zosia is 5 does she go on cv": a question run on
    r"|\s+(?=(?:does|do|did|can|could|should|would|will)\s+(?:she|he|it|i|we|they|you|u)\s)"
    r"|,?\s+(?:because|bc|cuz|coz|bcoz)\s+"
    r"|\s+so\s+(?=(?:dont|don't|do not|no|please|pls|make|add|include|remove|skip|delete|i|we|you|it|that|"
    r"my|our|the|im|ive|thats|that's)\b"
    r"|[\w-]+\s+is\s+(?:my|our)\s|(?-i:[A-Z])[\w'.-]+\s+(?-i:[A-Z])[\w'-]+\s+(?:is|was|has)\s)"
    r"|,\s+(?=(?:my |the )?name's\s)"
    # "No more lido for me, the physio has me on aqua aerobics": a new subject with its verb
    r"|,\s+(?=the\s+[a-z]+\s+(?:has|had|is|was|will|put|got|says|said|wants|told)\s)"
    # "The date is 12th December, venue is Eko Hotel": what an event has, each its own clause
    r"|,\s+(?=(?:the\s+)?(?:date|venue|time|location|theme|budget|dress code)\s+is\b)"
    # "Landlord has sent notice, rent is becoming 31,000 from April": what the user pays, after the news of it
    r"|,\s+(?=(?:the\s+)?(?:rent|salary|pay|fees?|mortgage|deposit)\s+"
    r"(?:is becoming|is going|will|goes|went|has gone)\b)"
    # "Smaller place so guest list is down to 180": a thing of the user's, said of after "so"
    r"|\s+so\s+(?=(?:the\s+)?[a-z]+(?:\s+[a-z]+)?\s+(?:is|are)\s+(?:now|down|up|only|just)\b)"
    r"|,?\s+and\s+(?=(?-i:[A-Z])[\w'-]+\s+(?:is|was|has|had|turned|turns|joined|left|lives|works|will|\w+s)\b)"
    r"|,\s+and\s+(?=(?:the|a|an|this|that|his|her|their)\s)"
    r"|,\s+(?=(?-i:[A-Z])[a-z]+\s+(?:is|was|has|had|will|covers|helps|does|[a-z]+s|[a-z]+ed|went|got|left|came|"
    r"took|found|made|did|quit|became|didn't|didnt|doesn't|doesnt|wasn't|wasnt|isn't|isnt|won't|can't)(?!\w))"
    rf"|,\s+(?=(?:(?:now|so|basically|fully)\s+)?(?:{DIETS})\b)"  # "I eat fish again, pescatarian now"
    rf"|,\s+(?=(?:{'|'.join(sorted(PEOPLE, key=len, reverse=True))})\s+(?:is|was|has|had|[a-z]+s)\b)",  # ", mum cooks"
    re.IGNORECASE,
)
_HALF_SUBJECT = re.compile(
    r"^(?:(?:my|our)\s+[\w-]+(?:\s+(?!(?:is|was|are|were|has|had)\b)[\w-]+)?(?:\s+(?-i:[A-Z])[\w'-]+)?"
    r"|(?!I['’]m\b)(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)$",  # not "I'm Tom and I run a bike shop"
    re.I,
)
_TRAILING = re.compile(
    r"(?:,?\s+(?:by the way|btw|haha+|lol|lmao|lmfao|jk|ngl|tbh|fr|tho|lowkey|smh|though|too|as well|anyway|"
    r"i guess|i think|you know|for now|"
    r"just so you know|fyi|sadly|unfortunately|luckily|thankfully|apparently|though))+\s*$",
    re.IGNORECASE,
)


def without_trailing(text: str) -> str:
    """The text without a trailing "by the way", "lol", "tbh" …, looked for in its last characters (from every
    " lol" of a pasted run the pattern ran to the end: quadratic)."""
    head, tail = text[:-_TAIL], text[-_TAIL:]
    return head + _TRAILING.sub("", tail)


_TAIL = 300
# A remark on what was just said, after it: "…, maybe that's a cute detail for the page", "… if that matters".
_REMARK = re.compile(
    r"(?:,\s*(?:as\s+)?you know (?:how|what|that)\b"  # "…300 guests, you know how Nigerian weddings are"
    r"|,\s*(?:maybe|perhaps|probably|not sure if|idk if|no idea if)\s+(?:that|it|this)(?:'s|’s|\s+\w+)\b"
    r"|,?\s+(?:if|in case)\s+(?:that|it|this)\s+(?:matters|helps|makes sense|counts|is relevant|is useful)\b)[^,]*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Sentence:
    text: str  # the sentence with the openers of speech taken off
    said: str  # the sentence as the user wrote it
    important: bool = False  # the user asked for it to be remembered
    change: bool = False  # an opener announced a change ("actually", "change of plan")


def _pieces(text: str) -> list[str]:
    """`text` cut at sentence ends, gluing back cuts after an abbreviation or inside a number."""
    pieces: list[str] = []
    text = without_faces(text)
    for part in _END.split(text):
        part = part.strip()
        if not part:
            continue
        if pieces and _continues(pieces[-1], part):
            pieces[-1] = f"{pieces[-1]} {part}"
        elif pieces and _names_the_object(pieces[-1], part):  # "hired the mechanic. tomas."
            head, _, rest = part.partition(",")  # what it names; what the sentence goes on to say is its own
            where = _WHERE.match(head)  # "we found a better local! In Vieux Lyon": where it is
            joined = f" {where.group(0).lower()}{head[where.end() :]}" if where else f", {head}"
            pieces[-1] = f"{pieces[-1].rstrip('.!')}{joined.rstrip('.!')}."
            if rest.strip():
                pieces.append(rest.strip())
        else:
            pieces.append(part)
    return pieces


# A sentence ending on what it did something to, by its kind: "hired the mechanic", "We signed a lease!"
_KIND_LAST = re.compile(r"\b(?:the|a|an|our|my|their)\s+(?:[\w-]+\s+){0,2}(?P<kind>[\w-]+)[.!]$", re.I)
_NOT_A_THING = re.compile(
    r"\w(?:ed|ing)$|['’](?:m|re|s|ve|ll|d)$|^(?:i|im|ive|me|we|us|it|he|she|they|them|you|my|our|your|his|her|their|"
    r"this|that|there|is|are|was|were|am|has|have|had|do|does|"
    r"did|will|would|can|could|'s|found|got|put|made|took|went|came|left|sorry|thanks|thank|please|so|just|too|"
    r"also|now|here|lol|haha|says|said|thinks|told|asked|wants|needs|likes|loves|hates|knows)$",
    re.I,
)
# What a place or an institution is called by: "hanbit international school in bundang"
_INSTITUTION = re.compile(
    r"\b(?:school|office|university|uni|college|hospital|clinic|company|firm|studio|shop|store|restaurant|cafe|"
    r"café|bakery|lab|academy|agency|startup|flat|apartment|house)\b",
    re.I,
)


_WHERE = re.compile(r"(?:in|at|on|near|by)\b", re.I)
_REACTIONS = frozenset(
    word_list(
        "awkward great nice cool wow sad weird funny crazy amazing finally whatever anyway ugh yay oops damn lovely "
        "brilliant perfect fine true right sure typical classic rude wild insane mad gutted annoying anyways ok okay "
        "yes no yeah nope lol haha omg wtf congrats thanks cheers done same"
    )
)


def _names_the_object(before: str, after: str) -> bool:
    """Is `after` a few words naming what `before` ended on, and nothing else: who was hired ("hired the
    mechanic." "tomas."), which job or place ("got the job." "hanbit international school in bundang, …"; "We
    signed a lease!" "Small office in Mitte, …")?"""
    kind = _KIND_LAST.search(before)
    words = after.split(",")[0].rstrip(".!").split()
    if kind is None or not words or len(words) > 6 or after.endswith("?"):
        return False
    if any(_NOT_A_THING.search(word) for word in words):
        return False  # "Found a cheaper room in Leith", "doing volleyball now": a clause of its own
    if len(words) == 1:  # a name, after whom it names: "the mechanic. tomas." (not "Awkward.", "Basically, she…")
        role, word = kind.group("kind").lower(), words[0].lower()
        # typed in lower case, as a terse message names someone; "Mistake.", "Monday." say something else
        alone = "," not in after and after[:1].islower() and not word.endswith("ly") and word not in _REACTIONS
        return alone and word.isalpha() and (role in PEOPLE or names_a_job(role))
    named = any(w[:1].isupper() for w in words[1:])
    return named or _INSTITUTION.search(" ".join(words)) is not None


# A month typed in lower case after a day's dot (not "May I ask", "may she date?", "March was hard")
_LOWER_MONTH = re.compile(
    r"(?-i:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\b"
    r"(?!\s+(?:i|he|she|we|you|they|it|be|not|is|was|were|will|would|has|had|god|the|a|an|my|our|his|her|their)\b)"
)


def _continues(before: str, after: str) -> bool:
    """Did `before` end at an abbreviation ("Dr."), or does `after` go on in lower case after one?"""
    if not before.endswith("."):
        return False
    last = before[:-1].rsplit(None, 1)[-1].lower() if before[:-1].split() else ""
    if last.isdigit() and 1 <= int(last) <= 31 and _LOWER_MONTH.match(after):
        return True  # a day written as many Europeans write it: "i start there 1. june", "so 31. july"
    return last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha() and after[:1].islower())


def _open(text: str) -> tuple[str, bool, bool]:
    """(text without its openers, asked to remember, a change announced)."""
    important = change = False
    while True:
        remember = _REMEMBER_OPENER.match(text)
        if remember:
            important, text = True, text[remember.end() :]
            continue
        opener = _OPENER.match(text)
        if not opener or opener.end() == 0:
            return text.strip(), important, change
        change = change or opener.group("change") is not None
        text = text[opener.end() :]


def sentences(text: str) -> list[Sentence]:
    """The statements of a message, sentence by sentence (questions left out)."""
    found = []
    for said in _pieces(written_out(squeezed(text))):
        stated = statement_part(said)
        if stated is None:
            continue
        body, important, change = _open(stated)
        body = without_trailing(body).strip(" ,;:-—–")
        if body:
            found.append(Sentence(body, said, important, change))
    return found


def every_sentence(text: str) -> list[str]:
    """Every sentence of a message as written, questions and requests too."""
    return _pieces(written_out(squeezed(text)))


_BIRTHDAY = re.compile(r"\b(?:birthday|bday|b-day|turned)\b", re.I)
# Only beside a birthday: "people think im 40", "ranked up im 12 now", "im 3 years sober" are no age
_AGE_RUN_ON = re.compile(r"(?<=[a-z])\s+(?=(?:im|i'm|i’m)\s+\d{1,3}(?:\s+now)?\s*(?:[!.,]|$))", re.I)


_THEN = re.compile(r"^(?:when\s+(?:i|we)\s+(?:was|were)|(?:i|we)\s+used\s+to|back\s+(?:then|when|in))\b", re.I)
_AGE_SO_NOW = re.compile(r"(?:,\s*(?:so\s+|and\s+)?|\s+(?:so|and)\s+)now\s+(?P<n>\d{1,3})(?=\s*(?:[!.,]|$))", re.I)
# Whose birthday it was: the user's ("I had birthday last week", "it was my bday"), not someone's they name
_OWN_BIRTHDAY = re.compile(r"\b(?:i\s+(?:just\s+)?had\s+(?:my\s+)?(?:birthday|bday)|my\s+(?:birthday|bday))\b", re.I)
_THEIR_BIRTHDAY = re.compile(
    r"\b(?:his|her|their|[a-z]+['’]s|[a-z]+s['’])\s+(?:birthday|bday)\b|\b(?:he|she|they)(?:['’]s|\s+is|['’]re|\s+are)\s+now\b",
    re.I,
)


def clauses(sentence: str) -> list[str]:
    """A sentence's clauses, in order, each trimmed (and without a trailing "by the way").

    "My wife Keiko and I plan a trip" stays one clause: a name or "my X" with no verb of its
    own before "and I" is the subject's first half, not a clause.
    """
    if _THEN.match(sentence):  # "When I was a student I lived in Leeds, now I live in York": two times, two clauses
        sentence = re.sub(rf",\s+(?=now\s+{_SUBJECT}\b)", "; ", sentence, flags=re.I)
    if _BIRTHDAY.search(sentence):  # "it was my birthday yesterday im 16 now": the age run on is a clause
        sentence = _AGE_RUN_ON.sub("; ", sentence)
        if _OWN_BIRTHDAY.search(sentence) and not _THEIR_BIRTHDAY.search(sentence):  # "I had birthday, so now 47"
            sentence = _AGE_SO_NOW.sub(r"; I'm \g<n> now", sentence)
    merged: list[str] = []
    start, joined_by = 0, ""
    for cut in [*(c for c in _SPLIT.finditer(sentence) if not _in_brackets(sentence, c.start())), None]:
        part = without_trailing(_REMARK.sub("", sentence[start : cut.start() if cut else len(sentence)])).strip(" ,")
        if part:
            half = merged and _HALF_SUBJECT.match(merged[-1]) and re.search(r"\band\s*$", joined_by, re.I)
            if half and re.match(r"^(?:i|me)\s+\w", part, re.I):
                merged[-1] = f"{merged[-1]} and {part}"
            else:
                merged.append(part)
        if cut is not None:
            start, joined_by = cut.end(), cut.group(0)
    return merged


_OWN_SUBJECT = re.compile(r"\s*(?:i|i'm|i've|im|we|we're|he|she|they|my|our)\b", re.I)


def _in_brackets(sentence: str, at: int) -> bool:
    """Is `at` inside brackets that close later: "a peanut allergy (the real kind, we carry an epipen)" is one
    clause, what it says in brackets said of it."""
    before = sentence[:at]
    if before.count("(") <= before.count(")") or ")" not in sentence[at:]:
        return False
    inside = before[before.rfind("(") + 1 :]  # "(I moved here in 2020, I work at the BBC)": statements of their own
    return _OWN_SUBJECT.match(inside) is None


def asked_to_remember(clause: str) -> tuple[str, bool]:
    """A clause without a request to remember it ("…; remind me the token expires on 30 June"), and whether it
    had one."""
    match = _REMEMBER_OPENER.match(clause)
    return (clause[match.end() :], True) if match else (clause, False)
