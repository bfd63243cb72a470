"""What a message says in passing, beside its statements: who the user's people are, named in a question or a
request ("… trip with my boyfriend Liam, what should we not miss?"), where their home is, a new employer ("since
joining Flipkart 3 weeks back")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memoir.ingest.gate import is_fact
from memoir.ingest.lexicon import EVENTS, FEASTS, word_list
from memoir.ingest.plain import FIRST_PERSON
from memoir.ingest.relations import naming_facts
from memoir.ingest.sentences import Sentence, every_sentence
from memoir.ingest.statement import Statement
from memoir.ingest.values import MONTHS, WEEKDAYS

__all__ = ["joined_in_passing", "named_in_passing"]


# A sentence that ends a relation ("I broke up with my boyfriend Tom") names no one the user has now.
_ENDED = re.compile(
    r"\b(?:ex|former|late|broke up|split up|divorc\w*|separated|passed away|died|left (?:me|us)|dumped|used to|"
    r"anymore|no longer)\b",
    re.I,
)


def named_in_passing(text: str, read: Sequence[tuple[Sentence, list[Statement]]]) -> list[Statement]:
    """Who the user's people are, named in a sentence that states nothing else: a question ("… trip with my
    boyfriend Liam, what should we not miss?"), a request ("something my son-in-law Mark could build"),
    what someone else says ("my husband-to-be Sipho says I should …"); and where their home is ("a letter
    about the road outside my house on Culduthel Road in Inverness"). `read`: the message's sentences as
    `read_sentences` read them."""
    stated: dict[str, str] = {}
    for sentence, statements in read:
        stated[sentence.said] = stated.get(sentence.said, "") + " ".join(s.text for s in statements)
    found = []
    for said in every_sentence(text):
        if _ENDED.search(said):
            continue
        facts = [fact for fact in naming_facts(said) if is_fact(fact, fact)]
        # "My wife Priya says …, we have twins": the wife too, where no statement of the sentence names her
        found += [Statement(f, clause=said) for f in facts if f.split()[-1] not in stated.get(said, "")]
        home = _HOME_AT.search(said)  # "… the road outside my house on Culduthel Road in Inverness"
        if home and home.group("where") not in stated.get(said, "") and not _NOT_THEIRS_NOW.search(said):
            found.append(Statement(f"The user's {home.group('home').lower()} is {home.group('where')}", clause=said))
        sized = _EVENT_FOR.search(said)  # "help designing a Diwali dinner menu for 200 guests"
        ours = FIRST_PERSON.search(said) and not _SOMEONE_ELSES.search(said)  # not "a wedding for 100 costs how much?"
        if sized and sized.group("n") not in stated.get(said, "") and ours:
            # "a Diwali dinner": the dinner (a feast in it would be a date a later "moved to 2 November" replaces)
            words = [w for w in sized.group("event").split() if not re.fullmatch(FEASTS, w, re.I)]
            event = " ".join(w if w[:1].isupper() else w.lower() for w in words)
            n, who = sized.group("n"), sized.group("who").lower()
            found.append(Statement(f"The user's {event} is for {n} {who}", clause=said))
    return found


# A sentence that says a home was or will be left: "we sold our house in Leeds", "moved out of my flat in Hackney"
_NOT_THEIRS_NOW = re.compile(
    r"\b(?:sold|selling|sell|moved out|moving out|left|leaving|used to|lost|gave up|renting out|rented out|quit|"
    r"cancell?ed|closed|closing)\b"
    # nor one hoped for: "if I open my own cafe in Brighton", "one day I want my own studio in Berlin"
    r"|\b(?:if|want|wanna|wish|dream|one day|someday|should i|would|could|might|hop(?:e|ing) to|plan|planning|thinking|"
    r"considering)\b",
    re.I,
)
_NOT_SIZED = frozenset({"test", "review", "game", "match", "class", "course", "lesson", "lessons"})
# An event of the user's and its size, said in a request: "a Diwali dinner menu for 200 guests" (not a friend's)
_EVENT_FOR = re.compile(
    r"\b(?:a|an|the|our|my)\s+(?P<event>(?:(?-i:[A-Z])[\w'’-]*\s+|[a-z]+\s+){0,2}?"
    rf"(?:{'|'.join(sorted(EVENTS - _NOT_SIZED, key=len, reverse=True))}))"
    r"\s+(?:menu\s+|invitations?\s+|invites?\s+|playlist\s+|budget\s+)?for\s+(?:about\s+|around\s+|roughly\s+|~)?"
    r"(?P<n>\d{2,4})\s+(?P<who>guests|people|kids|children|adults|attendees|pax)\b",
    re.I,
)
_SOMEONE_ELSES = re.compile(
    r"\b(?:friend|client|customer|colleague|boss|sister|brother|cousin)['’]s\b|\b(?:clients?|customers?|caterer|catering)\b",
    re.I,
)


def joined_in_passing(text: str) -> list[Statement]:
    """A new employer said in passing ("I got the offer, since joining Flipkart 3 weeks back life is much
    better"): read before the sentence that holds it, which would otherwise say it first, and in more words
    than any known job's fact."""
    found = []
    for said in every_sentence(text):
        if (joined := _SINCE_JOINING.search(said)) is not None:
            found.append(Statement(f"The user joined {joined.group('where')}{joined.group('when')}", clause=said))
    return found


# Where the user's home, or a place of theirs, is, said in passing: on or in a named place ("I'll practise it at my
# climbing gym in Lyon"); not a time ("my flat in May"), nor a place that was or may be theirs ("my old flat in Leeds")
_NOT_A_PLACE = "|".join(
    [
        *MONTHS,
        *WEEKDAYS,
        *word_list(
            "christmas easter summer winter spring autumn ramadan lent advent diwali eid hanukkah black friday "
            "english french spanish german italian portuguese dutch polish arabic instagram facebook etsy tiktok "
            "youtube google amazon ebay twitter whatsapp zoom teams linkedin saturdays sundays mondays tuesdays "
            "wednesdays thursdays fridays weekends tripadvisor yelp rightmove zoopla airbnb booking sims minecraft "
            "stardew roblox fortnite"
        ),
    ]
)
# What may stand before the place's word, as the user's own kind of it ("my climbing gym", "our local", "my home
# office"); not whose else it is ("my dads house"), nor one that is not theirs now ("my old flat", "my airbnb")
_OF_A_KIND = (
    "climbing local new little own home dental family small tiny coffee yoga boxing dance music art pottery bike "
    "flower book tattoo nail hair beauty vet pet corner village"
)
_HOME_AT = re.compile(
    rf"\b(?:my|our)\s+(?P<home>(?:(?:{'|'.join(word_list(_OF_A_KIND))})\s+)?"
    r"(?:house|home|flat|apartment|gym|office|studio|shop|cafe|café|bakery|salon|clinic|practice|farm|allotment|"
    r"cottage|cabin|workshop|restaurant|garage|yard|church|mosque|synagogue|temple|local))\s+"
    rf"(?P<where>(?:on|in)\s+(?!(?:{_NOT_A_PLACE})\b)(?![A-Z]\d)(?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+){{0,3}}"
    r"(?:,?\s+in\s+(?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+)?)?)",
    re.I,
)


# A new employer said in passing, by the user ("since joining Flipkart", "since I started at Mercedes")
_SINCE_JOINING = re.compile(
    r"\bsince\s+(?:I\s+)?(?:joining|joined|starting at|started at)\s+"
    r"(?P<where>(?:the\s+)?(?-i:[A-Z])[\w&'.-]*(?:\s+(?:&\s+)?(?!I\b|I['’])(?-i:[A-Z])[\w&'.-]*){0,3})"
    # lately: "3 weeks back" (not "since joining Twitter in 2010 I've posted 5000 tweets")
    r"(?P<when>\s+(?:\d{1,2}|a|an|one|two|three|four|five|six|few)\s+(?:days?|weeks?|months?)\s+(?:ago|back))",
    re.I,
)
