"""Facts from what people say, by rules: the statements of a user's message, in the third person.

A message is cut into statement sentences and clauses (`sentences`), each clause is put in
a plain order (`plain`: "On Wednesdays I do the late shift" -> "I do the late shift on Wednesdays";
"Biscuit, my beagle, joins the runs" -> "my beagle Biscuit joins the runs"), and the
readers (`readers`) write what it states, standalone and in the third person: who the user
is ("I'm Priya", "hiroshi here", "34, accountant"), who their people are ("my partner
Sven and I", "Son's name is Lwazi"), what the user says of themselves ("I …", "we …",
"my cat …"), of someone named earlier ("she's 4", "her little brother Kenta is 3"), of
someone else when the user's business ("Elena joined our team in June"), or of their
events ("the wedding is in Malaga on 14 June").

Then the gate (`gate`): a fact says something about the world beyond the talk itself, not
small talk, a request, a hedge or a mood. A clause that takes a fact back ("I don't work as
a carpenter anymore") states none either: it is a change, which `changes` applies to what is
known.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Iterable
from dataclasses import replace

from memoir.index.keyword import terms
from memoir.ingest.allergens import allergens_named
from memoir.ingest.cues import CHANGE_NOUN, CHANGE_VERB, NO_MORE, is_retraction
from memoir.ingest.dictation import punctuated
from memoir.ingest.events_named import events_named
from memoir.ingest.fact_words import gives_up
from memoir.ingest.gate import ADDRESSED, content_words, is_fact
from memoir.ingest.in_passing import named_in_passing
from memoir.ingest.lexicon import CHANGEABLE, EVENTS, PEOPLE, PETS
from memoir.ingest.notes import about_the_user
from memoir.ingest.person import others
from memoir.ingest.plain import FIRST_PERSON, plain_clause, plain_sentence
from memoir.ingest.readers import LATE_READERS, READERS
from memoir.ingest.referents import Context, gendered, mentioned, named_at_once, unnamed_in
from memoir.ingest.relations import (
    MAX_WHO,
    aged_in_brackets,
    named_on_the_way,
    naming_facts,
    relative_subject,
    where_they_live,
    who_is,
    without_relations,
)
from memoir.ingest.sentences import Sentence, asked_to_remember, clauses, every_sentence, sentences
from memoir.ingest.spelled_out import thing_said_before
from memoir.ingest.statement import Statement
from memoir.ingest.stemming import stem
from memoir.ingest.tidy import NOT_THEN_SAID, tidy
from memoir.ingest.unsaid import NO_MORE_FOR_ME
from memoir.ingest.values import values
from memoir.ingest.written import squeezed

__all__ = [
    "Statement",
    "content_words",
    "is_fact",
    "known_words",
    "named_in_passing",
    "plain_sentence",
    "read_sentences",
    "statements",
    "within_reach",
]


# "born and raised in Kerala" is one verb of the first subject, not a second clause.
# ("and this is what I do": "this" ends as a verb does, and is none)
_VERB_AFTER_AND = re.compile(
    r"(?<!\bborn)\s+and\s+(?=(?:also\s+|still\s+)?(?!(?:this|his|its|hers|yes|plus|thus|us)\b)"
    r"[a-z]+(?:s|ed)\s+\w)"
)


def known_words(facts: Iterable[str]) -> frozenset[str]:
    """What makes a name the user's business: the names and word stems of the facts known already."""
    found: set[str] = set()
    for fact in facts:
        found.update(w.lower().removesuffix("'s") for w in re.findall(r"\b(?-i:[A-Z])[\w'’-]+", fact))
        found.update(stem(w) for w in terms(fact) if len(w) > 3 and w not in ("user", "user's"))
        if own := _OWN_THING.match(fact):  # "Truck is Scania R450" after "The user's truck is a DAF XF": the user's
            found.update(f"user's {word.lower()}" for word in own.groups() if word)  # "shop rent": the rent too
    return frozenset(found)


_OWN_THING = re.compile(r"the user's ([\w-]+)(?: (?!is\b|are\b|was\b|were\b|has\b|will\b)([\w-]+))?", re.I)

READ_AT_MOST = 8_000  # characters of a message the rules read (`within_reach`)
_TAIL = 2_000  # of which the end of a long message's


def within_reach(text: str) -> str:
    """The part of a message the rules read: its sentences within the first `READ_AT_MOST` - `_TAIL`
    characters and within the last `_TAIL` (a pasted CV, then "I just got the job at Google!"). A pasted
    log or document states no fact of the user's in between, and some of the readers' patterns cost the
    square of a sentence's length: a pasted 70 kB message took 42 s (docs/performance.md)."""
    if len(text) <= READ_AT_MOST or len(text := squeezed(text)) <= READ_AT_MOST:
        return text
    cut = READ_AT_MOST - _TAIL
    end = max(text.rfind(mark, 0, cut) for mark in (". ", "! ", "? ", "\n"))
    start = min(
        (at for mark in (". ", "! ", "? ", "\n") if (at := text.find(mark, len(text) - _TAIL)) >= 0), default=-1
    )
    head = text[: end + 1 if end > 0 else cut]
    return head if start < 0 else f"{head}\n\n{text[start + 1 :].strip()}"


def statements(text: str, known: Collection[str] = ()) -> list[Statement]:
    """The facts a message states, in order (none twice). `known`: names in facts known already, lower case."""
    text = within_reach(text)
    found: dict[str, Statement] = {}
    read = read_sentences(text, known)
    for _, stated in read:
        for statement in stated:
            found.setdefault(statement.text.lower(), statement)
    for statement in named_in_passing(text, read):
        found.setdefault(statement.text.lower(), statement)
    return list(found.values())


def read_sentences(text: str, known: Collection[str] = (), before: str = "") -> list[tuple[Sentence, list[Statement]]]:
    """Each statement sentence of a message with the facts it states (a pronoun may name what an earlier
    sentence did: "My dog is called Biscuit. He's a beagle."; or the user's message `before` this one: "a
    complaint to my landlord" then "His name is Herr Vogel")."""
    text = allergens_named(punctuated(text))  # a dictated message, in the sentences it was said in
    context = Context(known)
    events = {event for event in EVENTS if event in known or stem(event) in known}
    context.event = next(iter(events)) if len(events) == 1 else None  # "we moved it": the one event known
    context.event_known = context.event is not None
    if before:
        context = _after(before, context)
    read = []
    stated, next_one = sentences(text), 0
    listed = about_the_user(text)
    for said in every_sentence(text):
        if next_one < len(stated) and stated[next_one].said == said:
            sentence, next_one = stated[next_one], next_one + 1
            context.opening = context.opening or any(sentence.text in line for line in listed)
            read.append((sentence, _statements_of(sentence, context)))
            context.opening = False
        else:  # a question states nothing (no sign-on after it: "… on my phone? It is Tecno Spark."), but names the
            _pet_asked_about(said, context)  # pet what comes next is of: "How can we bring our cat? His name is …"
            context.opening = context.opening and not said.rstrip().endswith("?")
    for sentence in stated[next_one:]:  # never lost to a sentence written otherwise than `every_sentence` cut it
        read.append((sentence, _statements_of(sentence, context)))
    return read


def _pet_asked_about(question: str, context: Context) -> None:
    """What a question names that a pronoun after it may stand for: only a pet (a person asked about is as often
    not whom "he" or "she" next speaks of)."""
    kept = (context.person, context.thing, context.place, context.group, context.party, context.earlier)
    for clause in clauses(plain_sentence(question.rstrip("?"))):
        mentioned(clause, context)
    context.person, context.thing, context.place, context.group, context.party, context.earlier = kept


def _after(before: str, context: Context) -> Context:
    """A message's context once the message before it was read: whom it named last (`Context.earlier`),
    nothing else (its facts were kept when it came)."""
    said = sentences(before)
    for sentence in said:
        _statements_of(sentence, context)
    fresh = Context(context.known)
    fresh.event, fresh.earlier, fresh.event_known = context.event, context.animate(), context.event is not None
    fresh.of_someone = context.of_someone  # "My wife has a packed week." then "spin class every Tuesday": hers
    fresh.unnamed = unnamed_in(before)
    for sentence in said:  # sentence by sentence, as read: a pasted page is never taken in one piece
        his, hers = gendered(plain_sentence(sentence.text))
        fresh.his, fresh.hers = his or fresh.his, hers or fresh.hers
    return fresh


def _statements_of(sentence: Sentence, context: Context) -> list[Statement]:
    context.spoke_of_self = context.spoke_of_self or context.first_person
    context.first_person = bool(FIRST_PERSON.search(sentence.text))
    context.after_someone, context.of_someone = context.of_someone, _OF_SOMEONE.match(sentence.text) is not None
    context.important = sentence.important
    context.sentence, context.said = sentence.text, sentence.said
    context.changing = sentence.change or bool(CHANGE_VERB.search(sentence.text) or CHANGE_NOUN.search(sentence.text))
    found: list[Statement] = []
    text = named_at_once(sentence.text, context.unnamed) if context.opening else sentence.text
    for clause in clauses(plain_sentence(events_named(text, context))):
        clause = thing_said_before(clause, context.clause)
        if not clause:
            continue
        context.clause = clause
        clause, asked = asked_to_remember(plain_clause(clause))
        context.important = sentence.important or asked
        said = _not_taken_back(clause, context.changing)
        if said:
            found += _read_clause(said, context)
        mentioned(clause, context)
    for statement in found:  # "my wife Funmi … Funmi is a social worker": whom the user named is their business
        context.named.update(m.group("name").lower() for m in _THEIR_NAMED.finditer(statement.text))
    return found


# What the user did next, without a subject: the clause after one that took something back.
_DID_NEXT = re.compile(
    r"^(?:(?:now|then|and|so|just|also)\s+)*(?:got|started|joined|found|took|moved|switched|became|went|"
    r"signed|landed|picked|bought|swapped|changed|transferred|shifted|returned)\s+\w",
    re.I,
)


# A break-up with someone named: "Kayla and I broke up", "I split up with Ines last week" (not "we split up the bill")
_BROKE_UP_WITH = re.compile(
    r"^(?:(?:and|so|but|also)\s+)*(?:(?-i:[A-Z])[\w'-]+\s+and\s+(?:i|me)\s+(?:have\s+|just\s+|finally\s+)?"
    r"(?:broke up|split up|split|called it quits|separated|parted ways|divorced)|"
    r"(?:i|i've|i have)\s+(?:just\s+|finally\s+)?(?:broke up|split up|split)\s+with\s+(?:my\s+\w+\s+)?"
    r"(?-i:[A-Z])[\w'-]+)(?=\s|$)(?!\s+(?:the|a|an|our|my|into|in|over|between)\b)",
    re.I,
)


def _not_taken_back(clause: str, changing: bool) -> str:
    """The clause without its parts that take something back ("…, till now we sold only through Etsy" keeps
    all; "I'm not doing Berlin" keeps nothing); in a changing sentence "no puppy" takes the puppy back."""
    parts = re.split(r",\s+", clause)
    if len(parts) == 1 and (NO_MORE_FOR_ME.match(clause) or gives_up(clause)):
        return clause  # "no more dairy for me", "I gave up alcohol in January": taken back, and a fact of its own
    if broke_up := next((p for p in parts if _BROKE_UP_WITH.match(p)), None):
        # news, as a death is; what it ended goes (`losses`), and so does who they were: "with my girlfriend Kayla"
        return re.sub(r"\s*\([^)]*$", "", re.sub(r"\bwith\s+my\s+\w+\s+(?=(?-i:[A-Z]))", "with ", broke_up))
    kept = [p for p in parts if not is_retraction(p) and not (changing and NO_MORE.match(p))]
    if len(kept) == len(parts) or (kept and not is_retraction(parts[0])):
        return ", ".join(kept)
    if kept and _DID_NEXT.match(kept[0]):  # "I quit the tea shop, got a gig doing video edits instead"
        return "I " + (joined := ", ".join(kept))[0].lower() + joined[1:]
    return ""


# "Dad's also starting at a day centre", "Mum is moving to Galway": a parent named as people name their own,
# without "my" (not "Dad jokes", "Mom and pop shops": a verb must follow; not "Dom", "Maddy", "Dad's Pizza", "Mum's
# the word", "Mom is what my kids call me")
_OWN_PARENT = re.compile(
    r"^(?P<who>(?-i:Dad|Daddy|Mum|Mom|Mam|Mummy|Mommy|Mammy|Grandma|Grandpa|Granny))"
    # "Dad turned 85 on Saturday", not "turned 180 on the whole brexit thing"
    r"(?=(?:'s|’s)\s+(?!the word\b)(?-i:[a-z0-9])|\s+(?:(?:just\s+)?turned|turns)\s+\d{1,3}\b(?!\s+on\s+the\b)"
    r"|\s+(?:passed away|died)\b"  # "Dad passed away in March"
    r"|\s+(?:is|was|has|had|will)\s+(?!what\b|a\s+(?:\w+\s+)?"
    r"(?:word|song|show|film|movie|book|name|character)\b))",
)
# "My dad's also starting", "Mum's moving to", "Mum's 80 this year": is, not his or hers ("My mum's cooking is the
# best", "My dad's wedding ring" are hers and his)
_IS_NOT_HIS = re.compile(
    r"^(?P<s>My \w+)['’]s(?=\s+(?:(?:also|now|just|still)\s+\w+ing\b|\w+ing\s+(?:to|at|in|on|into|a|an|the|for|with|"
    r"from|up|back|home|over|out|off|down|his|her|their|our|my|some|again|soon|next|this|tomorrow|today)\b|"
    r"\d{1,3}\b(?!\s*(?:th|st|nd|rd)\b)))"
)


# "Jamie's 29, I'm 33": a name's age, said with "'s" for "is" (not "Tom's 3 kids", "Ana's 40th")
_NAMED_AGE = re.compile(
    r"^(?P<s>(?-i:[A-Z])[a-z]+)['’]s(?=\s+\d{1,3}(?:\s*(?:[,.;!?]|$)|\s+(?:now|this|next|and|but|so|years?|yrs?|in|on|"
    r"today|already)\b))"
)


def _read_clause(clause: str, context: Context) -> list[Statement]:
    clause = _NAMED_AGE.sub(r"\g<s> is", clause)
    clause = _IS_NOT_HIS.sub(r"\g<s> is", _OWN_PARENT.sub(lambda m: f"My {m.group('who').lower()}", clause))
    first, *more = _VERB_AFTER_AND.split(clause) if re.search(r"\b(?:is|are|was)\b|'s\b|'re\b", clause) else [clause]
    written = _made(first, context)
    for part in more:  # "… is a nurse and works nights": the second verb's subject is the first's
        whose = relative_subject(first)  # "… our cat, Poutine, who is a menace and knocks …": Poutine's
        if whose is not None:
            written += [f"{whose} {others(part)}"] if whose else []  # lower case: whoever it is, not the user's
            continue
        subject = re.match(r"^([^,]+?)\s+(?:is|are|was|were|has|had|'s)\b", written[0]) if written else None
        if subject and len(subject.group(1).split()) <= 5:
            written.append(f"{subject.group(1)} {others(part)}")
    found = [s for text in written if (s := _gated(text, clause, context)) is not None]
    relative = " who " in clause and {s.text for s in found} <= set(who_is(clause, written))
    if not found or relative:  # "a plan from my coach Dana": at least who Dana is ("My daughter, Carol, who lives in
        # Charlotte, has offered …": where she lives, and who she is); each named once, and a few: a pasted "my sister
        # Ana my sister Bea …" was gated thousands of times
        named = itertools.islice(dict.fromkeys(naming_facts(clause)), MAX_WHO)
        found += [s for text in named if (s := _gated(text, clause, context)) is not None]
    return _with_ages(found, clause, context)


def _with_ages(found: list[Statement], clause: str, context: Context) -> list[Statement]:
    """The facts of a clause, and each one's age said in brackets ("our children Emil (7) and Greta (4)"), a fact of
    its own that says who they are."""
    said = {s.text for s in found}
    aged = [s for text in aged_in_brackets(clause) if text not in said and (s := _gated(text, clause, context))]
    if not aged:
        return found
    ages_of = {s.text.split()[3] for s in aged}
    kept = [s for s in found if not ((who := _WHO_IS_NAMED.fullmatch(s.text)) and who.group(2) in ages_of)]
    aged_names = "|".join(re.escape(name) for name in ages_of)
    # their ages ("Emil (7)", "Finn (14 months)"), now facts of their own
    bracketed = re.compile(rf"\b(?P<name>{aged_names})\s*\(\d{{1,2}}[^()]{{0,12}}\)")
    rest = [replace(s, text=bracketed.sub(r"\g<name>", s.text)) for s in kept]
    return [*(s for s in rest if not _NAMES_ONLY.fullmatch(s.text)), *aged]


_WHO_IS_NAMED = re.compile(r"The user's ([\w-]+) is ([\w'’-]+)")
# A sentence about one of the user's people: "My wife is so busy", "She has a packed week"
_OF_SOMEONE = re.compile(rf"^(?:(?:my|our)\s+(?:[\w-]+\s+)?(?:{'|'.join(sorted(PEOPLE))})\b|(?:he|she|they)\b)", re.I)
# One of the user's people or pets, named: "The user's husband is called Dave", "… has a son, Jake", "… dog is Rex"
_THEIR_NAMED = re.compile(
    rf"\b(?:the user's|their|an?)\s+(?:[\w-]+\s+)?(?:{'|'.join(sorted(PEOPLE | PETS))})(?:['’]s\s+name)?\b,?\s+"
    r"(?:is\s+)?(?:called\s+|named\s+)?(?P<name>(?-i:[A-Z])[\w'’-]+)",
    re.I,
)
# "The user's children Ollie, Ava, Finn": whom, once each one's age is a fact of its own, and nothing more
_NAMES_ONLY = re.compile(r"the user's [\w-]+(?:,?\s+(?:and\s+)?(?-i:[A-Z])[\w'’-]+)+", re.I)


def _made(clause: str, context: Context) -> list[str]:
    for reader in (*READERS, *LATE_READERS):
        made = reader(clause, context)
        if made is not None:
            return [*made, *named_on_the_way(made), *who_is(clause, made), *where_they_live(made)]
    verb = re.search(r"\b(?:is|are|was|has|have|will|expires|starts|opens|closes)\b", clause)
    if context.important and (
        verb or values(clause) or _short_note(clause)
    ):  # "remember that the wifi password is on the fridge",
        return [clause[0].upper() + clause[1:]]  # "don't forget: dentist on Tuesday the 9th at 3pm": as said
    return []


_NOTE_WORDS = 6  # a note to keep, said without a verb: a few words


def _gated(text: str, clause: str, context: Context) -> Statement | None:
    if any(w in text.lower() for w in CHANGEABLE) and not re.match(r"^the user's [\w-]+ is ", text, re.I):
        text = without_relations(text)
    text = tidy(text, context.changing or NOT_THEN_SAID.search(context.said) is not None)
    if _LETS_DO.match(text) and _LETS_NOW.search(context.said) and not values(text):
        return None  # "so now I can walk to lab", "I can manage": what a change lets the user do, no fact of its own
    if is_fact(text, clause, context.said) or (context.important and _noted(text)) or _instead(text, clause, context):
        return Statement(text, context.important, clause)
    for after in (_HEDGED_AFTER, _SO_AFTER):  # the fact before a guess, or before what follows from it
        said, hedge = after.search(text), after.search(clause)
        if said and hedge and is_fact(text[: said.start()], clause[: hedge.start()]):
            return Statement(text[: said.start()], context.important, clause[: hedge.start()])
    return None


def _instead(text: str, clause: str, context: Context) -> bool:
    """A plan without a date, said in place of one given up ("so we will go to Porto instead"): what holds now."""
    return (
        context.changing
        and re.search(r"\binstead\b", clause, re.I) is not None
        and text.lower().startswith("the user ")
        and any(v.kind in ("name", "place") for v in values(text))
        and is_fact(f"{text} on 1 May", f"{clause} on 1 May")  # what a date would make a fact
    )


# What the user can do, said as a change's consequence ("so now I can walk to lab", "finally I can sleep", "I can
# manage"); not what the user can do at all ("I can drive", "I can only eat halal food"), nor what others can
_LETS_DO = re.compile(r"^the user (?:can|could)\s+(?!not\b|only\b)", re.I)
_LETS_NOW = re.compile(
    r"\b(?:so|now|finally|at last|then|means)\b(?:(?!\b(?:so|now|finally|then|means|at last)\b).)*\bcan\b"
    r"|\bcan\s+(?:manage|cope|survive|breathe|relax)\b",
    re.I,
)
# "I work at Bosch as engineer, the company maybe offers me 2 years in Lisbon": the fact before the guess.
_HEDGED_AFTER = re.compile(r",\s+[^,]*\b(?:maybe|perhaps|probably|might|possibly)\b.*$", re.I)
# "im 15 so cant exactly afford a new one": the fact before what follows from it, where that says nothing alone
_SO_AFTER = re.compile(r",?\s+so\s+.*$", re.I)


def _noted(text: str) -> bool:
    """What the user asked to keep without a verb: something, and when ("dentist on Tuesday the 9th at 3pm"),
    or a note of a few words ("For future reference: coffee black")."""
    if ADDRESSED.search(text):
        return False
    when = [v for v in values(text) if v.kind in ("date", "weekday", "time")]
    rest = text
    for value in reversed(when):
        rest = rest[: value.start] + rest[value.end :]
    return (bool(when) and bool(content_words(rest))) or _short_note(text)


def _short_note(text: str) -> bool:
    """A note of a few words ("coffee black", "gate code 1234"), not a to-do ("buy milk")."""
    return len(text.split()) <= _NOTE_WORDS and len(content_words(text)) >= 2 and not _TO_DO.match(text)


_TO_DO = re.compile(
    r"^(?:buy|call|get|pick|send|email|text|book|pay|check|ask|remind|bring|take|make|clean|fix|finish|order|"
    r"cancel|renew|submit|print|write|reply|return|collect|drop|post|ring|phone)\b",
    re.I,
)
