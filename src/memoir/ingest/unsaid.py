"""Readers of what the user says without saying "I" (`readers` describes a reader): "Got a tiny studio near
the harbour", "planning to visit my mum in May", "Been working on some projects", "originally from Recife",
"so pescatarian these days".
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memoir.ingest.lexicon import CONSUMED, DIETS, EVENTS, NATIONALITIES, PEOPLE, word_list
from memoir.ingest.person import IRREGULAR_PAST
from memoir.ingest.values import values

if TYPE_CHECKING:
    from memoir.ingest.referents import Context

__all__ = ["NO_MORE_FOR_ME", "continued", "diet", "subjectless"]

# A past verb without its subject ("Got a studio", "Moved here in May"), not a mood ("Bored on a Sunday")
_MOOD_ED = (
    r"bored|tired|stressed|excited|worried|confused|scared|relieved|pleased|annoyed|exhausted|interested|amazed|"
    r"surprised|depressed|overwhelmed|frustrated|thrilled|delighted|obsessed|swamped|knackered|shattered|wrecked|"
    r"fried|drained|wiped|cooked|stuffed|blessed|gutted|chuffed|stoked|pumped|psyched|tired out"
)
# "Let me send it tomorrow" asks leave of the listener: no past. "Put my sister Ngozi" (on the card), "cut the
# intro", "read my draft": a verb whose past is its own base asks the assistant, unless a time says it is past.
_PAST_START = re.compile(
    rf"^(?!(?:{_MOOD_ED})\b|let\s+(?:me|us)\b"
    r"|(?:put|set|read|cut)\b(?!.*\b(?:yesterday|last|ago|earlier|already|this morning|today|before)\b)"
    # "-ed" that is no past: "need an alarm routine" (a present "feed the cat twice a day" reads as meant)
    r"|need\b)"
    r"(?P<verb>[a-z]+ed|"
    + "|".join(sorted(IRREGULAR_PAST))
    + r")\s+(?P<rest>(?!&)\S.*)$",  # not "spoke & chain", a name
    re.I,
)
_EXPERIENCE = re.compile(
    r"^(?:(?:i have|i've got|i've|have|got|with)\s+)?"
    r"(?P<n>\d{1,2}\+?|a few|two|three|four|five|six|seven|eight|nine|ten)"
    r"\s+(?:years?|yrs?)['’]?\s+(?:of\s+)?(?:experience|exp)\b(?P<rest>.*)$",
    re.I,
)
_LONE_PAST = re.compile(r"^(?:[a-z]+ed|done|sent)[,;]\s+(?=\S)", re.I)
# A plan with its verb ("going to teach", "gonna" as typed): not a trip ("going to the shops").
_PLAN_START = re.compile(
    r"^(?:(?:going|planning|hoping) to (?!(?:the|a|an|my|our|his|her|their|be|bed)\b)[a-z]+"
    r"|planning on (?!(?:it|that|this|them|going to bed)\b)\S+"
    # "planning a uni break trip to Tassie in april": an event of the user's
    rf"|planning (?:a|an|our|my) (?:[\w-]+ ){{0,3}}(?:{'|'.join(sorted(EVENTS))})\b"
    # "startin monday w Lone Star Dedicated": a new job, when and where
    r"|starting (?:on )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next week|next month)"
    r" (?:with|w|at) (?=(?-i:[A-Z])))\b(?!.*\b(?:it|that|this|them)$)",
    re.I,
)

# A verb of the user's life without "I", as typed in haste; not one that is also a noun ("work is crazy", "love
# it") nor one that asks something of the assistant ("need help with cv": a request the gate refuses)
_PRESENT_START = re.compile(
    # "want truck driver job", not "want to sleep"; "live in schiedam", not "live in fear"
    r"^(?:(?:want|wanna)\s+(?!to\b|it\b|this\b|that\b|them\b|some\b|more\b)"
    r"|live\s+in\s+(?!fear|hope|denial|peace|the\b|a\b|my\b)(?=[\w-]+(?:\s+[\w-]+)?\s*$)"
    r"|prefer\s+(?!it\b|this\b|that\b|them\b)"
    # "need a new car", "need post-op physio twice a week"; not "need help with…", "need to …" (asked of the
    # assistant, or a to-do)
    r"|need\s+(?!(?:to|it|this|that|them|you|help|some|any|advice|ideas|tips|a hand|a few|more|your)\b)"
    r"|own\s+(?=(?:a|an|two|three|four|\d+)\s)"  # "own a bike shop in portland", not "own the problem"
    r"|run\s+(?=(?:[\w-]+\s+){1,3}out\s+of\s)"  # "run reefer out of el paso", not "run the tests"
    # "do most maintenance myself", not "do it for me"
    r"|(?:do|fix|service|cut|make|cook|clean|build)\s+(?=[^,.;?]*\bmyself\b(?![^,.;?]*\?)))\S",
    re.I,
)

# What the user has not, said without "I": "dont have a car either", "don't own a TV"
_DONT_HAVE = re.compile(
    r"^(?:don't|dont|do not|don’t)\s+(?:have|own)\s+(?:a|an)\s+(?!(?:clue|chance|minute|second|moment|idea|choice|"
    r"problem|lot|life|ton|bit|strong|good|great|bad|real|clear|big|huge|single|proper|spare)\b)\S",
    re.I,
)
# A choice made, as English says it: "polytunnel it is", "Halifax it is then"
# An event of the user's, said as there being one: "there is student recital on 6 July", "there's a gig on Friday"
_THERE_IS_EVENT = re.compile(
    rf"^there(?:['’]s|\s+is|\s+will\s+be)\s+(?!no\b|my\b|our\b)(?P<what>(?:(?:a|an|the)\s+)?(?:[\w-]+\s+){{0,2}}"
    rf"(?:{'|'.join(sorted(EVENTS, key=len, reverse=True))}))\b"
    # (not "a show on BBC on Sunday", "a party on Saturday but I'm not invited")
    r"(?P<rest>\s+(?:on|in|at|this|next)\b(?!\s+(?:tv|telly|bbc|itv|netflix|channel|the radio)\b)(?!.*\bbut\b).*)$",
    re.I,
)
_NOT_GOING = re.compile(r"\b(?:not invited|can't go|cannot go|won't go|not going|can't make it)\b", re.I)
_NOT_A_CHOICE = frozenset(
    word_list("kids flow family boys girls team group lads others rest guys crowd church class school wife husband")
)
_DETERMINED = re.compile(r"(?:a|an|the|my|our)\s", re.I)
# "going with Kupp Runneth Over", "prob going with the XLT": a choice, of a thing named (not "going with my mum")
_GOING_WITH = re.compile(
    r"^(?:(?:so|prob|probably|i think|think)\s+)?going\s+with\s+"
    # two or more capitalised words, or "the" and a thing (not "Dave", a person; not "the kids", "the flow")
    r"(?P<x>(?!(?:aunt|auntie|uncle|mrs|mr|ms|dr|nan|nana|grandma|grandpa|granny|cousin|mum|mom|dad)\b)"
    r"(?-i:[A-Z])[\w'’-]*(?:\s+(?-i:[A-Z])[\w'’-]*){1,4}"
    rf"|the\s+(?!(?:{'|'.join(sorted(PEOPLE | _NOT_A_CHOICE, key=len, reverse=True))})\b)[\w'’-]+(?:\s+[\w'’-]+)?)"
    r"(?:\s+(?:now|then|instead))?[.!]?$",
    re.I,
)
_IT_IS_CHOSEN = re.compile(
    r"^(?P<x>(?:(?:a|an|the)\s+)?[\w'’-]+(?:\s+[\w'’-]+)?)\s+it\s+is(?:\s+then)?(?:,\s+(?!but\b)[^,]{1,40})?$", re.I
)
# Words "… it is" says of how things are, not of a choice: "so be it", "funny how it is", "crazy it is"
_NOT_CHOSEN = frozenset(
    word_list(
        "that this so here there what which how yes no ok okay well as such whatever whoever wherever if but crazy "
        "funny weird strange true sad mad hard easy odd great fine life way of course right damn indeed cold hot warm "
        "wet windy sunny late early good bad"
    )
)

_DOING_NOW = re.compile(
    r"^(?:doing|doin['’]?|playing|working|studying|learning|training|teaching|coaching|living)\s+"
    r"(?!(?:on |at )?(?:it|that|this)\b|nothing\b|ok\b|okay\b|fine\b|well\b|good\b|great\b|better\b|much\b|pretty\b|"
    r"really\b|so\b|way\b|alright\b|(?:the |my )?(?:dishes|laundry|taxes|homework|chores)\b)"  # how, or a chore now
    r"(?!.*\b(?:brb|help|what were)\b)\S.*\bnow\b",
    re.I,
)
# What the user is doing of their own, for someone named: "stage managing my first show for the Bellarine Players"
_DOING_MINE = re.compile(
    # (not a chore of the day: "cleaning my room for Mum", "wrapping our gifts for Sam")
    r"^(?!(?:cleaning|tidying|washing|cooking|packing|fixing|making|buying|ordering|wrapping|waiting|getting|"
    r"bringing|taking|sending|checking|reading|watching|doing|having|leaving|picking|dropping|booking|eating|drinking|"
    r"ruining|spending|enjoying|finishing|losing|wasting|charging|parking|walking|feeding|meeting)\b)"
    r"(?:[a-z]+\s+)?[a-z]{3,}ing\s+(?:my|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+(?:for|at|with)\s+(?:the\s+)?"
    r"(?-i:[A-Z])[\w'’-]+",
    re.I,
)
# "teaching at a hagwon in mapo", "working for a logistics firm": where the user works now; not "working for free",
# "working at 7am tomorrow", "working at my cousin's cafe this weekend", "working for a client who won't pay"
_WORKING_AT = re.compile(
    r"^(?:(?:currently|now|still)\s+)?(?:teaching|working|nursing|coaching|lecturing|interning)\s+(?:at|for)\s+"
    r"(?!(?:it|that|this|home|the moment|all|least|most|once|night|nights|weekends?|free|nothing|fun|the weekend|"
    r"a client|clients|my|our|his|her|their|a different|another|\d)\b)\S"
    r"(?!.*\b(?:today|tonight|tomorrow|this (?:week|weekend|month|morning|evening)|as a volunteer|to help|"
    r"\d{1,2}\s*(?:am|pm))\b)(?!.*\?\s*$)",
    re.I,
)
# "married to a korean citizen (min-ji) since last yr": a state, not a past deed ("married my high school sweetheart")
_STATE_TO = re.compile(
    r"^(?:married|engaged)\s+to\s+(?!(?:it|that|this|the idea|my job|work)\b)\S"
    r"(?!.*\b(?:is|was)\s+(?:my|a|the|our)\s)",  # "Married To The Mob is my fav movie"
    re.I,
)
# "walk my dog every morning": what the user does, with how often; a verb of a life's routine only (not "summarize
# my emails every morning", asked of the assistant, nor "does my cat need a bath every week")
_HABIT = re.compile(
    r"^(?:walk|feed|take|bring|drive|visit|pick|drop|train|ride|bathe|brush|water|cook|meet|phone|ring|call|collect|"
    r"groom|exercise|see|help|teach|coach|babysit|watch)\s+(?:my|our)\s+\S.*\b(?:every|each)\s+"
    r"(?:day|morning|evening|night|week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
    r"(?!.*\b(?:please|pls|for me|how|\?))",
    re.I,
)
_BEEN_DOING = re.compile(
    r"^(?:just\s+|also\s+|still\s+)?been\s+(?!(?:there|here|thinking|wondering|meaning)\b)\w+ing\b"
    r"(?!(?:\s+\w+)?\s+(?:it|that|this|them)$)",
    re.I,
)
_YEARS_IN = re.compile(
    r"^(?:been\s+)?(?P<n>\d{1,2}|a few|two|three|four|five|six|seven|eight|nine|ten)\s+(?:years?|yrs?)\s+in\s+"
    r"(?P<place>(?!the\b|a\b|my\b)[a-zà-ÿ][\w-]+(?: (?!now\b)[a-zà-ÿ][\w-]+)?)(?:\s+now)?(?:,.*)?$",
    re.I,
)
_FIELDS = frozenset(
    word_list(
        "marketing retail sales finance tech it management law medicine nursing teaching education construction "
        "business banking insurance consulting accounting engineering hospitality design hr support ops operations "
        "logistics research academia uni university school college total prison jail hospital bed therapy a the "
        "my our this that industry media advertising pharma government politics the army navy service production"
    )
)
_STUDIED_AT = frozenset(word_list("high uni university college school class classes lessons kindergarten"))
_ABROAD = re.compile(
    r"^(?P<nat>[a-z]+)\s+in\s+(?P<place>(?!the\b|a\b|my\b)[a-zà-ÿ][\w-]+(?: (?!now\b)[a-zà-ÿ][\w-]+)?)"
    # how long: a nationality and a place alone may be a meal ("italian in york, best pasta ever")
    r",?\s+(?P<n>\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:years?|yrs?)(?:\s+now)?$",
    re.I,
)
_STAFF = re.compile(
    r"^(?:(?:so|and|now)\s+)*(?P<n>\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+"
    r"(?:on\s+)?(?P<who>staff|employees|workers|engineers|developers|devs)"
    r"(?P<now>\s+(?:now|rn|atm|at the moment|these days))?(?:\s+(?:plus|besides|not counting|incl\.?)\s+me)?$",
    re.I,
)
_ORIGIN = re.compile(r"^(?P<v>originally from|born (?:and (?:raised|bred) )?in|raised in)\s+[^,]+$", re.I)


def subjectless(clause: str, context: Context) -> list[str] | None:
    """ "Got a tiny studio near the harbour", "Found a teacher near us", "planning to visit my mum in
    May": the user, unsaid. A plan only where it opens the message or nobody else was named: after
    "My brother finished uni." it may be the brother's. A clause no reading fits whole is read part by
    part, between its commas: "on e-2 now, married to a korean citizen (min-ji) since last yr"."""
    found = _subjectless(clause, context)
    if found is not None or ", " not in clause or not _STATE_FIRST.match(clause):
        return found  # "one of my bonsai, a maple, died in summer heat": the bonsai died, not the user
    # a need said beside something else is no fact of its own: "working at 7am tomorrow, need an alarm routine"
    parts = [_subjectless(p, context) for p in re.split(r",\s+", clause)[:_MAX_PARTS] if not _NEED.match(p)]
    return [fact for facts in parts if facts for fact in facts] or None


_STATE_IN = re.compile(
    r"^(?:licensed|certified|qualified|registered|based|trained|located|stationed|fluent|vaccinated|insured)\s+"
    r"(?:in|as|at|for|to|with|out of)\s+\S",
    re.I,
)
# A clause that opens with what the user is on now ("on e-2 now, married to …"), not with whom, what or where it is
# about ("old roommate Ben, works as a pilot now, based in Dubai", "at work, new starter, based in manchester")
_STATE_FIRST = re.compile(
    r"^(?:(?:on|still|currently|back)\s+(?:on\s+)?(?-i:[a-z0-9])[\w-]*(?:\s+[\w-]+)?\s+now"
    r"|(?:ma|ba|bsc|msc|mba|phd|bs|ms|llb|beng|meng)\s+in\s+[\w-]+(?:\s+[\w-]+)?),",  # "ma in tesol, licensed in …"
    re.I,
)
_MAX_PARTS = 8  # a pasted list is no clause the user said of themselves
_NEED = re.compile(r"^(?:(?:and|but|so|just|really)\s+)*need\b", re.I)


def _subjectless(clause: str, context: Context) -> list[str] | None:
    from memoir.ingest.readers import user  # the reader of "I …", which imports this module's readers

    nobody_else = context.opening or not context.person  # whose, where the message named nobody else
    if _PLAN_START.match(clause):
        return user(f"I'm {clause[0].lower()}{clause[1:]}", context) if nobody_else else None
    if _BEEN_DOING.match(clause):  # "Been working on some projects": what the user has been doing
        return user(f"I've {clause[0].lower()}{clause[1:]}", context) if nobody_else else None
    origin = _ORIGIN.match(clause)
    if origin and (context.first_person or context.person is None):  # "originally from recife", as a diet is
        verb = "was" if origin.group("v").lower().startswith(("born", "raised")) else "am"
        return user(f"I {verb} {clause[0].lower()}{clause[1:]}", context)
    abroad = _ABROAD.match(clause)  # "american in seoul, 6 years now", opening a message: who the user is, and where
    if (
        abroad
        and abroad.group("nat").lower() in NATIONALITIES
        and abroad.group("place").split()[0].lower() not in _FIELDS | _STUDIED_AT  # "spanish in school, 5 years"
        and context.opening
        and not context.person
    ):
        place, n = abroad.group("place"), abroad.group("n")
        return [f"The user is {abroad.group('nat').capitalize()}", f"The user has lived in {place} for {n} years"]
    staff = _STAFF.match(clause)  # "3 on staff rn plus me", "so 4 staff now": the user's headcount
    if staff and nobody_else:
        now = " now" if staff.group("now") else ""
        return [f"The user has {staff.group('n')} {staff.group('who').lower()}{now}"]
    lived = _YEARS_IN.match(clause)  # "3 yrs in berlin": where the user has lived, and how long
    if lived and lived.group("place").split()[0].lower() in _FIELDS:
        lived = None  # "5 years in marketing", "3 yrs in total": a field, a sum
    if lived and (context.first_person or context.person is None) and not context.person:
        return [f"The user has lived in {lived.group('place')} for {lived.group('n')} years"]
    experience = _EXPERIENCE.match(clause)  # "5 years experience, mostly Java and Python"
    if experience and (context.first_person or context.person is None):
        return [f"The user has {experience.group('n')} years of experience{experience.group('rest')}"]
    if re.match(r"(?:married|engaged)\s+to\b", clause, re.I):  # a state, never "The user married to …"
        return (
            user(f"I'm {clause[0].lower()}{clause[1:]}", context) if _STATE_TO.match(clause) and nobody_else else None
        )
    if _HABIT.match(clause) and nobody_else:
        return user(f"I {clause[0].lower()}{clause[1:]}", context)
    if (
        _DOING_NOW.match(clause) or _WORKING_AT.match(clause) or _DOING_MINE.match(clause)
    ) and nobody_else:  # "doing volleyball now w my friends": what the user does now
        return user(f"I'm {clause[0].lower()}{clause[1:]}", context)
    if _DONT_HAVE.match(clause) and nobody_else:  # "dont have a car either so its 2 buses": what the user has not
        clause = re.split(r"\s+(?:so|but|and|because|bc|which)\s+", clause)[0]
        return user(f"I {clause[0].lower()}{clause[1:]}", context)
    if _PRESENT_START.match(clause) and nobody_else:  # "want truck driver job", "live in schiedam"
        return user(f"I {clause[0].lower()}{clause[1:]}", context)
    there = _THERE_IS_EVENT.match(clause)  # "Also, there is student recital on 6 July": the user's, and when
    if (
        there
        and nobody_else
        and not _NOT_GOING.search(context.said)  # "there's a party on Saturday but I'm not invited"
        and any(v.kind in ("date", "weekday") for v in values(there.group("rest")))
    ):
        article = "" if _DETERMINED.match(there.group("what")) else "a "
        return [f"The user has {article}{there.group('what')}{there.group('rest')}"]
    chosen = _IT_IS_CHOSEN.match(clause) or _GOING_WITH.match(clause)
    chosen_words = chosen.group("x").lower().split() if chosen else []
    if chosen and nobody_else and not set(chosen_words) & _NOT_CHOSEN and not chosen_words[0].endswith("ly"):
        return [f"The user is going with {chosen.group('x')}"]
    if _STATE_IN.match(clause) and nobody_else:  # "licensed in ohio for k-12 english": what the user is
        return user(f"I'm {clause[0].lower()}{clause[1:]}", context)
    lone = _LONE_PAST.match(clause)  # "submitted, got a distinction!!": what came of it is the fact
    if lone and _PAST_START.match(clause[lone.end() :]):
        clause = clause[lone.end() :]
    if not _PAST_START.match(clause):
        return None
    return user(f"I {clause[0].lower()}{clause[1:]}", context)


def diet(clause: str, context: Context) -> list[str] | None:
    """ "so pescatarian these days", "Lactose intolerant, so…", "Allergic to cats": the user's diet or allergy.

    A diet alone names nobody else: it is the user's unless the sentence is about someone
    the message named ("My sister is visiting. Vegan, so…").
    """
    match = re.fullmatch(
        rf"(?:(?:now|basically|mostly|fully|officially|strictly|also|severely|very|mildly)\s+)*"
        rf"(?P<d>{DIETS}|(?:allergic|intolerant) to [\w ,'-]+)"
        r"(?:\s+(?:now|these days|nowadays|from now on|again|too|since \w+(?: \w+)?))*",
        clause,
        re.I,
    )
    if not match and (given_up := NO_MORE_FOR_ME.match(clause)) and not _FOR_NOW.search(context.said):
        return [f"The user gave up {given_up.group('x')}"]
    if not match or not (context.first_person or context.person is None):
        return None
    return [f"The user is {clause[0].lower()}{clause[1:]}"]


# What makes "no more coffee for me" a refusal for now: "it's 4pm", "I'm driving", "lol, kidding"
_FOR_NOW = re.compile(
    r"\b(?:tonight|today|this (?:week|evening|morning)|\d{1,2}\s*(?:am|pm)|driving|after|lol|kidding|jk|joking|"
    r"right now|for now|thanks|thank you|please|pls)\b",
    re.I,
)
# What the user gives up, said as a rule for themselves: "no more dairy for me", "no more late nights for me"
NO_MORE_FOR_ME = re.compile(rf"^(?:so\s+)?no\s+more\s+(?P<x>{CONSUMED})\s+for\s+me\b(?:\s+(?:now|then))?$", re.I)


# A second verb of the user's after a comma or "and", its subject left out: "I'm 34, live in Brisbane"
_AND_THEN = re.compile(
    # where and how the user lives and works: not "live in 5 mins", "live at 8pm", "work in progress", "work at it"
    r"(?:,|\s+and)\s+(?=(?:live\s+(?:alone|with\s+(?:my|our)|(?:in|at|near|outside)\s+(?!(?:fear|hope|denial|"
    r"the\s+moment|progress|a\s+few)\b)(?=[a-zA-Z]))|"
    r"work\s+(?:from\s+home|nights|shifts|weekends|(?:in|at|as|for)\s+(?!(?:it|that|this|progress|the\s+moment)\b)"
    r"(?=[a-zA-Z]))|teach\s+(?:at|in)|study\s+(?:at|in)|"
    r"own\s+(?:a|an|two|three|\d|my|our)|have\s+(?:a|an|two|three|four|\d)\s+(?:kids?|sons?|daughters?|dogs?|cats?|"
    r"children|grandkids?)|(?:currently\s+)?pay\s+(?:about\s+|around\s+)?[₹$€£]?(?=\d)|"
    r"(?:currently\s+)?(?:run|cycle|swim|walk)\s+(?:about\s+|around\s+)?(?=\d)|run\s+(?:a|an|my|our|the)(?=\s))\b)",
    re.I,
)
_SUPPOSED_BY_ME = re.compile(
    r"^(?:i|we)(?:'d|’d)?\s+(?:(?:really|still|also|kind of|sort of)\s+)*(?:should|would|could|might|may|must|"
    r"used to|hope|hoped|want|wanted|wanna|plan|planned|were going|was going|wish|dream|'d love|would love)\b"
    r"|^(?:i|we)(?:'d|’d)\b",
    re.I,
)
_BY_ME = re.compile(r"^(?:i|i'm|im|i am|i['’]m|i've|i have|we|we're|we are|we['’]re)\b", re.I)
# "I formatted my notebook and installed ubuntu": two deeds of the user's, the second without its "I"
_PAST = r"(?:[a-z]+ed|" + "|".join(sorted(IRREGULAR_PAST)) + r")"
_DID_THEN = re.compile(rf"^i\s+(?:(?:just|also|finally)\s+)?{_PAST}\b(?=.*\s+and\s+{_PAST}\s+\w)", re.I)
_AND_DID = re.compile(
    rf"\s+and\s+(?={_PAST}\s+(?:the|a|an|my|our|some|\d|(?-i:[a-z])\w+\s+\d|\w+\s+(?:to|in|at|on)\b))", re.I
)


def continued(sentence: str) -> str:
    """A sentence of the user's whose second verb left its subject out, with it: "I'm 34, live in Brisbane" ->
    "I'm 34, I live in Brisbane" (only in a sentence the user opens: not "Tom is 34, lives in Leeds")."""
    if not _BY_ME.match(sentence) or _SUPPOSED_BY_ME.match(sentence):
        return sentence  # not "We should live in Leeds and have two dogs": a wish, not where they live
    if _DID_THEN.match(sentence):
        sentence = _AND_DID.sub(" and I ", sentence, count=1)
    return _AND_THEN.sub(lambda m: f"{m.group(0).rstrip()} I ", sentence)
