"""What a model's answer may add: its facts, read as they are meant, kept only where the message states them.

Small local models (the recordings in ../shared/data/llm-replays: Qwen2.5 Coder 0.5B)
copy the example of a prompt (`"..."`, or an example's own fact), repeat the user's
sentence in the first person, state as fact what the user only asked, and write facts
without a subject ("Lives in Utrecht"). Where a mistake's meaning is plain, it is read as
meant: a first-person fact is the user's, in the third person; a fact without a subject
is the user's. Everything else is dropped item by item, so one bad fact costs itself,
never the answer's good ones:

- placeholders and facts that say nothing ("Jane is Jane");
- facts the message's statements do not support: every name and number of the fact must
  be in them, and two thirds of its content words (questions are not statements, so
  "Is my backend language Go?" supports nothing);
- facts the rules' gate refuses (small talk, requests, hedges: `gate.is_fact`);
- facts a rule's fact already says (most of their words in one of it, or the same topic
  and value), so the model adds only what the rules missed;
- facts that restate what the message says no longer holds ("The user moved to halls"
  from "I used to live in halls, but now I share a flat"): the rules read the change, and
  a small model mixes up the old value and the new;
- facts whose subject is a pronoun ("It tastes like soap", "She's hiding under the bed",
  "There are 14 people"): alone in the vault, nobody knows who or what they are about;
- facts about neither the user nor someone or something of theirs already known ("The curry
  sounds great", "Iceland is so beautiful in winter"): the rules keep a named person only
  when the user's business, and so does the model;
- facts read from a sentence the gate refuses as a whole ("The user won the lottery" from "If
  I won the lottery I'd move to Iceland"): a hypothetical or a request stays one, whoever
  rewrites it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

from memoir.index.keyword import terms
from memoir.ingest.deeds import someone_elses
from memoir.ingest.gate import is_fact
from memoir.ingest.person import about_the_user
from memoir.ingest.rules import Statement
from memoir.ingest.sentences import sentences
from memoir.ingest.stemming import stem, stems
from memoir.ingest.topics import topics
from memoir.ingest.values import values
from memoir.model.memory import normalise_content

__all__ = ["SPECIFIC", "covered", "is_placeholder", "supported_by", "usable_facts"]

_NOT_CONTENT = {"user", "users", "the", "named", "called", "name"}
# What happened, which a model must not add to what was said: a move, a marriage, a new or lost job, a sale
_EVENT_VERB = re.compile(
    r"\b(?:moved|moves|relocated|married|divorced|quit|resigned|retired|graduated|adopted|bought|sold|"
    r"joined|left|fired|hired|promoted|engaged|pregnant|born|died|passed away|"
    r"moving|relocating)\b",  # "thinking about moving to Vancouver" of "thinking 2nd location, vancouver wa"
    re.I,
)
SPECIFIC = re.compile(r"\b(?:[A-Z][\w-]*|\d[\d.,:]*)")  # words with a capital (names), numbers
_TAUTOLOGY = re.compile(r"^(?P<x>.+?) (?:is|are|was|were) (?:named |called )?(?P=x)[.!]?$", re.IGNORECASE)
_PLACEHOLDERS = {"", "...", "…", "n/a", "na", "none", "null", "text", "fact", "new", "tbd", "todo"}
_SUBJECTLESS = re.compile(
    r"^(?P<verb>is|was|has|had|lives|lived|works|worked|likes|loves|hates|prefers|enjoys|owns|speaks|studies|"
    r"plays|drinks|eats|goes|runs|teaches|leads|manages|wants|needs|uses|drives|moved|switched|started|joined)\b",
    re.IGNORECASE,
)
_PRONOUN_SUBJECT = re.compile(
    r"^(?:it|it's|its|she|she's|he|he's|they|they're|this|that|these|those|there|there's|his|her|their)\b", re.I
)
# A clause of its own about someone or something the fact does not name ("The user's practice called,
# they moved", "The user's blood test came back and it's not milk at all"): who or what is lost.
_PRONOUN_CLAUSE = re.compile(r"(?:,|\band\b|\bbut\b)\s+(?:it|it's|they|they're|she|she's|he|he's)\s+\w")  # not "IT"
# A name that is no name: "The user's hospital name is the user's knee operation".
_NOT_A_NAME = re.compile(r"\bname is (?:the|a|an|my|his|her|their)\s+(?-i:[a-z])", re.I)  # not "The Long Run"
_NAME_FIELD = re.compile(r"^(?:user's |the user's )?(?P<what>name|age|job|occupation|home|city)\s*(?:is|:)\s*", re.I)
COVERED = 0.6  # share of a model's fact's words that a rule's fact must hold for the model's to add nothing


def is_placeholder(text: str) -> bool:
    """Text that says nothing: dots, "none", a word from a prompt's template."""
    return normalise_content(text).strip(" .…\"'") in _PLACEHOLDERS


def supported_by(fact: str, message: str) -> bool:
    """Does the message say what `fact` claims: most of its content words, and every name and number of it?

    Names and numbers are what a model invents ("The user's backend language is Python"
    from "Is my backend language Go?"): each must appear in the message. A real 0.5B model
    also embroiders ("The app uses advanced machine learning algorithms" from "a
    tide-prediction app", "The user moved to halls" from "moved to rotterdam zuid"): at least
    two thirds of the fact's content words must be the message's, compared by their first
    five letters (a plural's "s" aside), so "prefers" matches "prefer" and "keeps" "keep".
    """
    said = message.lower()
    specifics = [w for w in SPECIFIC.findall(fact)[1:] if w.lower() not in _NOT_CONTENT]  # [0]: the sentence start
    if any(w.lower() not in said for w in specifics):
        return False
    event = _EVENT_VERB.search(fact)  # "The user moved to Bonanza" of "head barista at bonanza": no move was said
    if event and not _said_happened(event.group(0).split()[0].lower(), message):
        return False
    claimed = [w for w in terms(_AGED.sub(r"\1", fact)) if w not in _NOT_CONTENT]
    # "The user lives in Utrecht" of "Utrecht is home for me now": the verb as a model says it claims nothing
    verb = _PLAIN_VERB.match(fact)
    if verb is not None and verb.group("verb").lower() in claimed:
        claimed.remove(verb.group("verb").lower())
    found_stems = {_stem(w) for w in terms(message)}
    found = [w for w in claimed if _stem(w) in found_stems]
    # A word besides its numbers, where it claims one: "The user has 10 guests" of "she lives 10 minutes
    # from me" has one word of two in the message, and that word is the number ("The user is 34" has none).
    words = [w for w in claimed if not w[0].isdigit()]
    return bool(found) and 3 * len(found) >= 2 * len(claimed) and (not words or any(w in found for w in words))


_PLAIN_VERB = re.compile(r"^the user (?P<verb>lives|works|has|likes|loves|uses|enjoys|prefers)\b", re.I)
# What a fact adds to a number without adding a claim: "They're 15 and 12" is "Laddoo is 15 years old".
_AGED = re.compile(r"\b(\d+)[\s-]+years?[\s-]+old\b", re.I)


def _said_happened(verb: str, message: str) -> bool:
    """Does the message tell the event `verb` names, and not only as a plan: "The user moved to Berlin" of
    "I'm moving to Berlin in May" tells a plan as done ("since retiring", "the move to Leeds" are done)."""
    words = set(terms(message))
    if not (verb.endswith("ed") or verb in _PAST_IRREGULAR):
        return stem(verb) in {stem(w) for w in words}
    if verb in words:
        return True
    root = _PAST_IRREGULAR.get(verb) or verb[:-2].rstrip("i")
    planned = re.compile(
        rf"\b(?:am|'m|are|'re|is|'s|will|'ll|going to|gonna|planning to|plan to|about to|hope to|want to|"
        rf"decided? to|deciding to|need to|have to|has to)\s+"  # "we decide to move closer to new job": not moved yet
        rf"(?:\w+\s+)?{root}\w*|^\W*{root}\w*ing\b",
        re.I,
    )
    return stem(verb) in {stem(w) for w in words} and not any(planned.search(s.text) for s in sentences(message))


_PAST_IRREGULAR = {"bought": "buy", "sold": "sell", "left": "leav"}


def _stem(word: str) -> str:
    """Enough of a word to match its forms: "prefers"/"prefer", "keeps"/"keep", "tides"/"tide"."""
    return (word[:-1] if word.endswith("s") and len(word) > 3 else word)[:5]


def usable_facts(
    items: Iterable[object],
    message: str,
    ruled: Sequence[Statement] = (),
    taken_back: Sequence[str] = (),
    known: Collection[str] = (),
) -> list[str]:
    """The facts of a model's answer worth keeping, in the third person (see the module's docstring).

    `taken_back`: what the rules read as no longer holding, the clauses ("I used to live in
    halls") and the old values ("Porto"). `known`: the names and word stems of the facts known
    already (`rules.known_words`), which make a named subject the user's business.
    """
    said = sentences(message)
    stated = " ".join(s.text for s in said)
    business = {*known, *(w.lower() for s in ruled for w in SPECIFIC.findall(s.text)[1:])}
    kept: list[str] = []
    for item in items:
        fact = as_fact(item)
        if fact is None or not supported_by(fact, stated) or not _the_users_business(fact, business):
            continue
        supporting = [s for s in said if supported_by(fact, s.text)]
        sources = [s.said for s in supporting] or [stated]
        if not any(is_fact(fact, source) and not _passing(fact, source, ruled) for source in sources):
            continue
        if supporting and not any(is_fact(fact, s.text) for s in supporting):
            continue  # "other thing, if I got a postdoc in Vienna": a hypothetical once its opener is gone
        if restates_any(fact, taken_back):
            continue
        if any(
            someone_elses(fact, source) or _invented_whose(fact, source) or _not_theirs(fact, source, known)
            for source in sources
        ):
            continue
        if _unsaid_of_self(fact, [message, *sources]) or _garbled(fact, message):
            continue
        if not covered(fact, [*(s.text for s in ruled), *kept]):
            kept.append(fact)
    return kept


def _garbled(fact: str, message: str) -> bool:
    """Is a model's fact a story or a sentence put together wrong: a thing of the message's made the subject of the
    user ("Fees for eating the user are on square now" of "on square now, fees eating us"), or what someone was doing
    at the time ("Starling was closing the user's account", said as why the user moved their account)?"""
    if re.match(r"^(?!the user\b)(?-i:[A-Z])[\w'’-]*(?:\s+[\w'’-]+){0,4}\s+(?:was|were)\s+[a-z]+ing\b", fact, re.I):
        return True
    first = re.match(r"^(?-i:[A-Z])([a-z]+)\b", fact)
    if first is None or first.group(0) in message or first.group(0).lower() not in message.lower():
        return False  # a name as said, or no word of the message's
    return first.group(0).lower() != "the" and re.search(r"\bthe user\b(?!['’]s)", fact, re.I) is not None


def _passing(fact: str, source: str, ruled: Sequence[Statement]) -> bool:
    """Does the sentence tell what the user is doing today ("so we're staying in and building IKEA
    furniture" on an awful day), where the rules read no fact? A model's rewrite drops the "today"
    and the "-ing" that told it ("The user stays in and building IKEA furniture")."""
    verb = re.match(r"^the user (?:\w+ly )?(?P<verb>[a-z]+)", fact, re.I)
    if verb is None or _TODAY.search(source) is None or any(r.clause and r.clause in source for r in ruled):
        return False
    root = verb.group("verb").removesuffix("es") if verb.group("verb").endswith("ies") else verb.group("verb")
    root = root.removesuffix("s").removesuffix("ed").removesuffix("e")
    return len(root) > 2 and re.search(rf"\b(?:am|is|are|'m|'re|'s)\s+{root}\w*ing\b", source, re.I) is not None


_TODAY = re.compile(r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", re.I)


def as_fact(item: object) -> str | None:
    """A model's fact as memoir writes facts (about "the user", third person), or None when it says nothing."""
    if not isinstance(item, str):
        return None
    text = " ".join(item.split()).strip(" .;")
    if is_placeholder(text) or _TAUTOLOGY.match(text) or _PRONOUN_SUBJECT.match(text) or len(text) > 300:
        return None
    if _PRONOUN_CLAUSE.search(text) or _NOT_A_NAME.search(text):
        return None
    field = _NAME_FIELD.match(text)
    if field:  # "Name: Priya", "name is Priya"
        text = f"The user's {field.group('what').lower()} is {text[field.end() :]}"
    elif _SUBJECTLESS.match(text):  # "Lives in Utrecht"
        text = f"The user {text[0].lower()}{text[1:]}"
    elif re.match(r"^user\b", text, re.I):
        text = "The user" + text[4:]
    text = about_the_user(text)
    text = _REASON.split(text, maxsplit=1)[0]  # why is no fact: "… switched hotels because the Granvia …"
    if (age := _AGE_IS.match(text)) and not _AN_AGE.fullmatch(age.group("age")):
        return None  # "The user's age is 2000 words": a number of something else, put in the age's field
    return text[:1].upper() + text[1:] if text else None


_AGE_IS = re.compile(r"^(?:the user's|[\w'’-]+'s) age is (?P<age>.+)$", re.I)
_AN_AGE = re.compile(r"\d{1,3}(?:\s*(?:years?|yrs?|y/?o|months?|weeks?)(?:\s+old)?)?|\w+(?:-\w+)?|\w+ years? old", re.I)


_REASON = re.compile(r",?\s+because\b", re.I)


def _invented_whose(fact: str, source: str) -> bool:
    """Does "The user's school is Sea Point Primary" name what the message never said ("It's at Sea Point
    Primary", of a post applied for)? The user's name, age and the like need no such word."""
    whose = re.match(r"^the user's (?P<what>[a-z]+)\s+(?:is|are)\s", fact, re.I)
    if whose is None or whose.group("what").lower() in _SAID_WITHOUT_ITS_WORD:
        return False
    return _stem(whose.group("what").lower()) not in {_stem(w) for w in terms(source)}


_SAID_WITHOUT_ITS_WORD = frozenset(("name", "age", "birthday", "job", "home", "nationality", "surname"))


# Who the user is, as only the user says it: "The user's name is Tobe" of "Tobe is 6 now", "The user's age is 9" of
# "she's 9" are someone else's
_NAMED_AS = re.compile(r"^the user's name is (?P<x>.+)$|^the user is (?:called|named) (?P<y>.+)$", re.I)
_AGED_AS = re.compile(r"^the user(?:'s age is| is) (?P<n>\d{1,3})(?:\s+years?(?:\s+old)?)?$", re.I)


def _unsaid_of_self(fact: str, sources: Sequence[str]) -> bool:
    """Does a model's fact give the user a name or an age no source says of the user ("I'm …", "my name is …",
    "… here", "call me …"; "I'm 34", "turned 40", "34 years old")?"""
    named = _NAMED_AS.match(fact.rstrip("."))
    if named:
        first = re.escape((named.group("x") or named.group("y")).split()[0])
        said = (
            rf"\b(?:i'?m|i am|my name(?:'s| is)|call me|this is|it'?s)\s+{first}\b|(?:^|[.!?]\s*){first}\s+here\b|"
            rf"^(?:hi|hey|hello)?[,!\s]*{first}\b"
        )
        return not any(re.search(said, source, re.I) for source in sources)
    aged = _AGED_AS.match(fact.rstrip("."))
    if aged:
        age = aged.group("n")
        said = (
            rf"\b(?:i'?m|i am|i turned|i turn|i'll be|i will be|turned|turning)\W+(?:\w+\W+){{0,3}}?{age}\b|"
            rf"\b{age}\s*(?:years?\s*old|yrs?\s*old|y/?o)\b|^\W*(?:\w+\W+){{1,3}}{age}\b"
        )
        return not any(re.search(said, source, re.I) for source in sources)
    return False


def _not_theirs(fact: str, source: str, known: Collection[str]) -> bool:
    """Is "The user's hall" what the sentence calls "the hall" (the venue's), never "my hall", and no known fact
    has? ("the thesis" is the user's where their facts speak of one.)"""
    owned = re.match(r"^the user's (?P<what>[a-z-]+)\b", fact, re.I)
    if owned is None or stem(owned.group("what").lower()) in known or owned.group("what").lower() in known:
        return False
    what = re.escape(owned.group("what"))
    the = re.search(rf"\bthe\s+{what}\b", source, re.I)
    return the is not None and re.search(rf"\b(?:my|our)\s+(?:[\w-]+\s+){{0,2}}{what}\b", source, re.I) is None


def _the_users_business(fact: str, business: Collection[str]) -> bool:
    """Is the fact about the user, or about someone or something the user's facts name ("Jalebi is 12")?"""
    if "the user" in fact.lower():
        return True
    subject = re.match(r"^[\w'’-]+", fact)
    return subject is not None and subject.group(0).lower().removesuffix("'s").removesuffix("’s") in business


def _restates(fact: str, old: str) -> bool:
    """Does the fact say again what `old` (a clause taken back, or an old value) says?"""
    size = len(old.split())
    if size <= 3 and re.search(rf"(?<!\w){re.escape(old.lower())}(?!\w)", fact.lower()):
        return True  # a value: "Porto", "the night shift"
    names = [m.group(0) for m in SPECIFIC.finditer(old) if m.start() > 0 and not m.group(0)[0].isdigit()]
    names = [n for n in names if n not in ("I", "I'm", "I've")]
    if any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", fact) for n in names):
        return True  # what the clause took back by name: "The user cut Hiroshima, too much for dad's hip"
    return size > 1 and supported_by(fact, old)  # a clause, however short: "we cancelled Hokkaido"


def restates_any(fact: str, taken_back: Iterable[str]) -> bool:
    """Does the fact say again one of the things a message took back (a clause or an old value)?"""
    return any(_restates(fact, old) for old in taken_back)


def said_again(fact: str, replaced: str, replacement: str | None, taken_back: Iterable[str] = ()) -> bool:
    """Does `fact` (a model's, kept earlier) say what a change just took away?

    Either a value the change took away (in `replaced`, the fact the rules superseded, and
    not in its `replacement`) and another word of `replaced` ("The user's wedding will have
    140 guests" when "...about 140 guests" became "...about 90 guests"), or what the message
    took back in so many words (`taken_back`: "Hokkaido", "I used to work nights").
    """
    if restates_any(fact, taken_back) or _names_only_the_replaced(fact, replaced, replacement):
        return True
    kinds = ("number", "date", "time", "name", "place")
    kept = {v.key for v in values(replacement)} if replacement else set()
    gone = {v.key for v in values(replaced) if v.kind in kinds} - kept
    shared = gone & {v.key for v in values(fact)}
    return bool(shared) and bool((stems(fact) & stems(replaced)) - stems(" ".join(shared)))


def _names_only_the_replaced(fact: str, replaced: str, replacement: str | None) -> bool:
    """Does a model's fact say nothing but a name the replaced fact held, however written ("The user uses Yahoo"
    beside the rules' "The user has always used yahoo", replaced by a switch to Sleeper)? Only of a fact replaced
    by another: one taken back ("I don't walk Rex anymore") leaves what else is said of the name ("loves Rex")."""
    if replacement is None:
        return False
    names = [w for w in SPECIFIC.findall(fact)[1:] if not w[0].isdigit() and w.lower() not in _NOT_CONTENT]
    gone = [n for n in names if _has_word(replaced, n) and not (replacement and _has_word(replacement, n))]
    verb = _PLAIN_VERB.match(fact)
    said = [w for w in terms(fact) if w not in _NOT_CONTENT and not (verb and w == verb.group("verb").lower())]
    return bool(gone) and all(any(w == n.lower() for n in gone) for w in said)


def _has_word(text: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.I) is not None


def covered(fact: str, others: Iterable[str]) -> bool:
    """Does another fact say this one already: most of its words, or the same value on the same topic?"""
    own, mine = stems(fact), {(t.key, t.value) for t in topics(fact)}
    specific = {v.key for v in values(fact) if v.kind in ("number", "date", "time", "name", "place")}
    for other in others:
        theirs = stems(other)
        if own and len(own & theirs) >= COVERED * len(own):
            return True
        shared = specific & {v.key for v in values(other)}
        if shared and (own & theirs) - stems(" ".join(shared)):
            return True  # "The user's team has 14 crew members" beside "The user's crew is 14"
        if mine & {(t.key, t.value) for t in topics(other)}:
            return True
    return False
