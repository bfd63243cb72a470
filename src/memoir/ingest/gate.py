"""The gate every fact passes, the rules' and a model's: does it say something about the world beyond the talk?

Questions never reach it; clauses addressed to the assistant ("I love your idea"), hypotheticals
("if I won the lottery"), hedges ("I think"), feelings of the moment ("I'm so glad", "I'm
drowning in admin"), promises to the assistant ("I'll check it out"), requests ("I need some
tips", "I'd like to write to …"), a future without a date that plans nothing of a life ("I'll be
offline", "gonna go to the store") and clauses with no content word beyond their verb ("I love
it", "we just moved") are not facts.
"""

from __future__ import annotations

import re

from memoir.index.keyword import terms
from memoir.ingest.alone import says_nothing_alone, someone_unnamed
from memoir.ingest.lexicon import EVENTS, HEADCOUNT, HOLIDAYS, word_list
from memoir.ingest.person import ADVERBS, IRREGULAR_PAST
from memoir.ingest.referents import WHICH_ONE
from memoir.ingest.talk import of_the_talk
from memoir.ingest.values import values

__all__ = ["ADDRESSED", "MAX_WORDS", "content_words", "is_fact"]

MAX_WORDS = 45

ADDRESSED = re.compile(r"\b(?:you|your|yours|yourself|u|ya|y'all)\b", re.I)
_HYPOTHETICAL = re.compile(
    r"^(?:if|when|whenever|unless|once|what if|imagine|suppose|hopefully)\b|\b(?:maybe|perhaps|probably|might|"
    r"possibly|could|gonna try|wanna|should|ought to|has to be|have to be|must|needs to be|need to be|hypothetically|"
    r"would love to|would like to|was going to|were going to)\b",  # the last two: a plan given up
    re.I,
)
_MOOD = (
    r"glad|happy|sorry|sure|excited|thrilled|proud|curious|confused|grateful|thankful|impressed|jealous|"
    r"kidding|joking|listening|all ears|on it|lucky|blessed|honou?red|touched|relieved|stoked|pumped|psyched|amazed|"
    r"speechless|looking forward|wondering|interested in hearing|trying to (?:decide|figure|understand|find|work out|"
    r"think|sort)|looking for|going to try|about to|heading out|doing (?:well|good|great|fine|ok|okay)|feeling|"
    r"all set|up for it|a fan of (?:it|that|this)|not sure|unsure|so so|hanging in there|hoping|planning to try|"
    r"going to check|drowning in|swamped|buried in|snowed under|dying to|obsessed with (?:it|this|that)|"
    r"staying in|staying home|bored|in love with (?:it|this|that)|"
    r"thinking(?=\s*$|\s+(?-i:[A-Z]))"  # "I'm thinking Kyoto, Nara"; not "thinking of selling the car"
)
# A state of the moment, when it is all the clause says ("I'm back", "I'm so tired", "I'm in").
_IDLE = re.compile(
    r"^(?:is|was|'s|has been|have been)\s+"
    r"(?:(?:so|very|really|just|pretty|super|a bit|a little|little bit|kinda|now|still|all|quite|too|rather|feeling|"
    r"properly|totally|completely|absolutely|honestly|literally|lowkey|kind of)\s+)*"
    r"(?:here|back|done|fine|good|great|ok|okay|ready|serious|in|out|off|set|game|down|well|tired|exhausted|bored|"
    r"hungry|sleepy|stressed|sick|busy|free|home|awake|up|afraid|scared|worried|leaving|cooked|knackered|shattered|"
    r"wrecked|fried|drained|wiped|dead|panicking|freaking out|stressing|losing it|struggling|dying|melting)"
    r"(?:\s+(?:now|today|tonight|too|again|though|then|already|anyway|lol|haha|lately))*$"
    # "has been a bit sluggish", "is so sleepy lately": a degree and one word is a mood, whatever the word
    r"|^(?:is|was|'s|has been|have been)\s+"
    r"(?:so|very|really|pretty|super|a bit|a little|kinda|quite|too|rather)\s+"
    r"\w+(?:\s+(?:now|today|tonight|too|again|though|then|already|anyway|lol|haha|lately))*$"
    # a consequence with nothing of its own ("so I can save more")
    r"|^(?:can|could|will|would|'ll)\s+(?:\w+\s+)?more(?:\s+(?:now|then|money|time|lol|haha))?$"
    # time to spare, what a change left over ("so I've got two extra weeks"): no fact of its own
    r"|^(?:has|have|has got|got|gets|will have)\s+(?:(?:a few|a couple of|an?|one|two|three|four|\d+|some|a bit|"
    r"a little|lots of|plenty of)\s+)?(?:extra|more|spare)\s+(?:days?|weeks?|hours?|minutes?|months?|time)"
    r"(?:\s+(?:to \w+(?: \w+)?|now|then|lol|haha))?$"
    # a thought not had, an idea not there: "I did not think (about visa)", "I have zero ideas", "did not finish"
    r"|^(?:did not|didn't|didnt)\s+(?:think|know|realise|realize|notice|expect|mean|finish|check)"
    r"(?:\s+(?:about|of)\s+[\w-]+)?(?:\s+(?:yet|either|lol|haha))?$"
    r"|^(?:has|have)\s+(?:zero|no|0)\s+(?:ideas?|clue|idea what)\b.*$"
    # what the message shows next ("I get this error: …"), what cannot be done with something just said
    r"|^(?:gets?|got|has|have|sees?|is getting)\s+(?:this|these|the following)\s+(?:errors?|problems?|issues?|"
    r"messages?|warnings?|bugs?|exceptions?|output)$"
    r"|^(?:is|are|'s)\s+(?:all\s+over\s+the\s+place|a\s+mess|a\s+nightmare|chaos)$"
    # "I'm on my way to work now": where the user is this minute (not "on my way to becoming a nurse")
    r"|^(?:is|are|'s)\s+(?:just\s+)?on\s+(?:their|my|the|his|her)\s+way(?:\s+(?:home|back|out|over|in))?"
    r"(?:\s+(?:to|from)\s+(?:work|school|the office|the gym|the shop|the store|uni|class|a meeting|the airport|"
    r"the hospital))?(?:\s+(?:now|rn|right now))?$"
    r"|^(?:cannot|can't|can not|couldn't)\s+\w+\s+(?:it|that|this|them|those\s+\w+)"
    r"(?:\s+(?:up|off|out|down|completely|anyway|now))*$",
    re.IGNORECASE,
)
# "is good, tiring": a state of the moment and a word or two more of it
# (each item atomic: ", and x" reads two ways, and a failing end tried 2^k of them: 86 s for 144 characters)
_MOODS_AFTER = re.compile(r"(?:,\s*(?>(?:and\s+)?[a-z]+(?:\s+[a-z]+)?))+$", re.I)
_CHITCHAT = re.compile(
    rf"^(?:is|was|will be|would be|has been|'s)\s+"
    rf"(?:(?:so|very|really|just|also|not|pretty|super|totally|quite|truly|absolutely|a little|a bit|kinda|now|"
    rf"still|already|always|genuinely)\s+)*(?:{_MOOD})\b"
    r"|^(?:thinks|thought|guesses|supposes|believes|hopes|wishes|wonders|wondered|means|meant|sees|knows|knew|"
    r"understands|agrees|disagrees|bets|assumes|suspects|reckons|doubts|imagines|appreciates|feels like|feels|"
    r"can't wait|cannot wait|can imagine|can't believe|can't imagine|must say|would say|can never remember|"
    r"never remembers|can't remember|would love to \w+|would like to \w+|would never|'d never|"
    r"(?:would like|would love|wants|needs) (?:some |a little |more )?"
    r"(?:help|advice|tips|ideas|suggestions|feedback|a hand)"
    # "help learning Italian", "help with my garden": the user learns it, the garden is theirs
    r"(?! (?:with |for |on )?(?:learning|studying|practi[sc]ing|improving|my|our|the user's|their)\b)|"
    r"wants (?:the user |them )?to (?:know|ask|"
    r"hear|see|try|check|learn more|share|sort out|figure out|get better|do better)|is trying to (?:sort|figure|get)|"
    r"needs (?:help|advice|tips|ideas|suggestions|some|a hand|to know|to ask|to figure|to decide|to find|to go|to run|"
    r"to survive|to get through|to sort|to vent|to talk|to rant|to think)|"
    r"(?:changes|changed|change) (?:jobs?|plans?|my mind|their mind)$|"
    r"has (?:a question|no idea|an idea|to go|got to go|been thinking|to switch|had to)|had to \w+$|had no idea|"
    r"has (?:some |big |great )?(?:sad |bad |good |great |exciting |big )?news$|"  # what the news is says it
    # ("will do", not "will do the 10k in December": a race, and when)
    r"has no clue|will (?:check|try|do(?!\s+(?!the\s+(?:same|rest|dishes|shopping|washing|laundry)\b)(?:the|a|an|my)\s+"
    r"[\w-]+\s+(?:in|on|this|next)\b)|let|think|see|look|keep|"
    r"get back|come back to (?:this|it|that|you)|talk|ask|tell|send|give|be back|remember|"
    r"definitely|make sure|have to|def|totally|for sure)|is going to (?:check|try|do|think|look|lose)|forgot|"
    r"remembers|(?:loves|likes|hates|enjoyed|loved|liked) (?:it|that|this|them|the idea|hearing|seeing)\b|"
    r"had (?:a |such a |an )?(?:great|good|nice|fun|lovely|wonderful|amazing|fantastic|awesome|blast)|"
    r"is (?:asking|wondering|curious)|"
    r"heard (?:mixed|good|bad|great|amazing|terrible|conflicting|a lot of|lots of|some|so many) "
    r"(?:things|stuff|reviews|stories)|"
    r"lets? (?:them|the user|us) (?:know|ask|see|try)(?:$| (?:if|how|when|what|whether)\b)|"  # "Let me know if…"
    r"was (?:asking|wondering|just wondering)|hears you|gets it|get it|"
    r"totally agrees|agree|say|mean|know|see|think|guess|hope|wish|bet)\b"
    # what the user asks the assistant to make ("Need a meal plan that isn't rabbit food", "I need an
    # itinerary …", "need a vegetarian dinner idea for tonight"): a request, not a fact of their life
    # typed without the article, only what the assistant makes: "need cheap cpap cleaning tips", not "needs speech
    # therapy", "need post-op physio", "want name change"
    r"|^(?:needs|wants)\s+(?:[\w-]+\s+){0,3}(?:tips|ideas|suggestions|advice|recipes|itinerary|outline|template|"
    r"checklist|captions?)\b|^(?:needs|wants) to (?:write|draft|send) (?:an? )?(?:email|e-mail|letter|message)\b"
    r"|^(?:needs|wants|would like|'d like|is looking for|is after)\s+(?:a|an|some|the|one|a few|a couple of)\s+"
    r"(?:[\w-]+\s+){0,3}(?:plan|ideas?|itinerary|list|recipes?|outline|letter|email|e-mail|summary|draft|template|"
    r"suggestions?|tips|advice|poem|message|caption|post|script|schedule|checklist|name|names|quote|"
    r"explanation|example|toast|speech|bio)\b"
    # "I'm biased", "my commute is killing me", "I'll lose the plot": how the user feels about it
    r"|^(?:is|am)\s+(?:a bit\s+|so\s+|very\s+|totally\s+)?(?:biased|yawning|cooking|typing|writing|reading|"
    r"rambling|babbling|waffling|procrastinating|multitasking|killing it)$"
    # "I'm dictating this in the car", "typing this on my phone": how the message is written
    r"|^(?:is|am)\s+(?:dictating|typing|writing|voice[- ]typing|recording)\s+(?:this|these|it)\b"
    r"|^(?:is|am)\s+typing\s+(?:too\s+|so\s+|very\s+)?(?:fast|quickly|slowly)\b"  # "I am typing too fast"
    r"|^(?:is|are)\s+killing\s+(?:the user|them|me)\b"
    # "I'm not planning to": an answer with nothing of its own; "realised I typed the wrong name": the talk
    r"|^(?:is|are)\s+not\s+(?:planning|going|trying)\s+to$"
    # "getting a KeyError in my python dict code": a problem of the moment, brought for help
    r"|^(?:is|are)\s+(?:getting|having|seeing|hitting)\s+(?:a|an|this|the|some|weird)\s+(?:[\w-]+\s+){0,2}"
    r"(?:\w*error|exception|bug|warning|crash|stack trace|traceback)\b"
    r"|^(?:has\s+)?(?:just\s+)?reali[sz]ed\s+(?:that\s+)?(?:the user|they|i)\s+(?:typed|wrote|said|put|spelled)\b"
    # "my granddaughter set this up for me on the tablet": the chat itself, how the user came to it
    r"|^(?:set|sets|has set|helped the user set)\s+(?:this|it)(?:\s+(?:thing|app|chat|up))?\s+(?:up\b|for\b|on\b)"
    # "we pushed the trip back": a change without what it is now (the change itself is read apart)
    r"|^(?:pushed|moved|postponed|rescheduled|brought|put)\s+(?:the|their|our)\s+[\w-]+(?:\s+[\w-]+)?\s+"
    r"(?:back|forward|up|off)$",
    re.IGNORECASE,
)
_FUTURE = re.compile(
    r"^(?:will|'ll|(?:is|are)(?:\s+(?:literally|probably|definitely|totally|so|just|actually))?"
    r"\s+(?:going to|gonna))\b",
    re.I,
)
_EVENT_COUNT = re.compile(
    rf"^the user's (?:\w+ )?(?:{'|'.join(sorted(EVENTS))}) will have\s+"
    r"(?:about |around |roughly |maybe |over |under |nearly |almost |at least |just )?\d[\d,]*\s+"
    rf"(?:[a-z]+\s+)?(?:{'|'.join(sorted(HEADCOUNT))})\b(?!.*\b(?:today|late|sorry)\b)",
    re.I,
)
# A holiday says when as a date does: "we'll visit my parents in Kisumu over Christmas"
_HOLIDAY = re.compile(rf"\b(?:{HOLIDAYS})\b", re.I)
# A move, a start or a change without where, what or to what ("we have moved", "I'm going in
# September", "starting in June", "my rota changed"): the rest of the message says it, or nothing
# does; alone it is no fact.
_WHEN = (  # one day, month or season (a weekday in the plural is a habit: "I'm off on Fridays")
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday|summer|winter|spring|autumn|(?:week|weekend|month|year)s?|"
    r"\d+(?:st|nd|rd|th)?(?= (?:weeks?|months?|years?|days?)\b)|\d+(?:st|nd|rd|th))"
)
_TIME_WORD = re.compile(rf"{_WHEN}|days?|weeks?|months?|years?", re.I)  # "for 3 years": when; "for 5000": what
_NOWHERE = re.compile(  # said of the user: "my sister is coming in June" says who comes
    r"^(?:is|are|was|were|has|have|had|will be|will)?\s*(?:(?:going|coming|starting|heading|leaving)"
    rf"(?:\s+(?:soon|tomorrow|later|again|finally|now|(?:in|on|at|by|this|next|early|late)\s+(?:the\s+)?{_WHEN}))*"
    r"|(?:moved|moving|changed)(?:\s+(?:again|finally|now))?)$",  # "moving next month" is a plan of its own
    re.I,
)
_TRANSIENT = re.compile(r"\b(?:today|tonight|this (?:morning|afternoon|evening)|right now|at the moment)\b", re.I)
# Ending on a word that points outside the fact ("it"), or on a preposition whose object went
# ("so we need someone before then", with "then" taken as a filler: "… needs someone before").
# Its preposition's object said before it: "Lisbon is where the user is from", "a cat that the user cares for"
_CLEFT = re.compile(
    r"\b(?:where|what|who|whom|which|that|someone|something|somebody|anyone|everyone|one)\b[^,]*\b(?:for|to|with|"
    r"about|of|from|into|at)$",
    re.I,
)
_DANGLING = re.compile(
    r"\b(?:it|them|that|this|those|these|him|her|one|ones|before|after|until|till|than)$"
    # "The user has applied there": where, the message said before (not "lives out there", "is there now")
    r"|^the user (?:has |have )?(?:applied|works|worked|studies|studied|enrolled|registered|signed up) there$"
    r"|^the user (?:also )?(?:has|have) (?:family|friends|relatives|cousins|people) there$"  # where, said before
    # "The user wants to plan for", "keeps forgetting to say": cut before what it is about
    r"|\b(?:for|to|with|about|of|from|into|at)$|\bforgetting to (?:say|mention|tell)$"
    # "The user hired two more": more of what, the message said before
    r"|\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple|several|some)\s+more$",
    re.I,
)
# What the verb acts on is a word pointing outside the fact ("set it up for the user", "keeps mixing
# them up", "booked one for Thursday"): without the other message, it says nothing.
_POINTING_OBJECT = re.compile(
    r"^(?:(?:[\w'-]+\s+){1,2}(?:it|them|(?:this|that)(?=\s+(?:up|out|down|off|for|with)\b)"
    r"|one(?=\s+(?:for|on|in|at|to|from|with|last|next|this|of them)\b))"
    # or after a verb's "to": "needs to cut it down", "has to transport it in the car"
    # (not a move: "had to move it to Sunday the 22nd" says which day)
    r"|(?:[\w'-]+\s+){0,2}to\s+(?!(?:move|push|postpone|change|bring|shift|reschedule|cancel)\b)[\w'-]+\s+"
    r"(?:it|them)(?=\s*(?:$|(?:down|up|out|off|again|back)\s*$)))\b"
    r"(?!\s+(?:is|was|are|were|has|had)\b)",
    re.I,
)
# Words that carry nothing on their own: a clause with no content word but these is small talk.
_GENERIC = frozenset(
    word_list(
        "it that this things stuff something anything everything nothing lot lots bit much really so very too "
        "just time great good nice fun amazing awesome cool fine okay ok well sure glad happy day today "
        "tonight now here there yet again always never totally definitely absolutely super pretty quite kind "
        "sort actually literally honestly love loved loving lovely wonderful fantastic incredible beautiful "
        "best better worse worst sounds sound looks look seems seem feel feels felt moment bunch couple wow "
        "yeah yes haha lol idea brutal slow annoying chaos mess hard tough crazy insane awful terrible horrible "
        "boring exhausting nicer easier harder worse tbh honestly ngl though anyway thank thanks god disaster "
        "nightmare relief blast us me him them you news genius perfect brilliant excellent"
    )
)
_PLAN_WORDS = 4  # a plan without a date says what it is: "gonna teach guitar lessons out of my apartment"
# what a plan of one's life is about, not an errand ("gonna go to the store") nor a threat ("gonna kill my brother")
_LIFE_PLAN = re.compile(
    r"\b(?:teach\w*|lessons?|class(?:es)?|course|degree|study\w*|job|business|company|shop|studio|open\w*|"
    r"launch\w*|start\w*|build\w*|adopt\w*|apply\w*|train\w*|volunteer\w*|retir\w*|move|moving|relocat\w*|"
    # "Dubu will stay with my parents in Busan": where someone of the user's will live, with family, not for a while
    r"learn\w*|(?:stay|live|move in|moving in) with (?:my|our|his|her|their|the user's) (?:grand)?(?:parents|mum|mom|"
    r"mother|dad|father|sister|brother|aunt|uncle|gran|nan|family|in-laws)(?!['’]s)"  # all it says: whom, and where
    r"(?:\s+in\s+(?-i:[A-Z])[\w-]*(?:\s+(?-i:[A-Z])[\w-]*)?)?(?:\s+(?:for now|from now on|for good|permanently))?$"
    r"|chat with|meet with|run for|campaign\w*|write|writing|"
    # a new shift: "I will change to night shift from next month"
    r"(?:switch|change|go|move) to (?:(?:the|a)\s+)?(?:day|night|early|late|part[- ]time|full[- ]time)\b|"
    r"publish\w*|record\w*|tour\w*)\b",
    re.I,
)


def content_words(text: str) -> list[str]:
    """The words of `text` that say something (not small talk, not "it", "great", "today")."""
    return [w for w in terms(text) if w not in _GENERIC]


# What someone asked of the user's work, passed on: "Marcus wants this in a dashboard by EOD", "Dr. Ortega says cut
# the methods part" (not "Ana says she is moving to Leeds", "The user's supervisor wants the user to do maternal health
# access": what the user is to work on)
_RELAYED = re.compile(
    r"^(?:the user's [\w-]+(?:\s+(?-i:[A-Z])[\w.'-]*)*,?\s+|(?:(?-i:[A-Z])[\w.'-]*\s+){1,3})"
    r"(?:(?-i:[A-Z])[\w.'-]*(?:\s+(?-i:[A-Z])[\w.'-]*)*,\s+)?"
    r"(?:wants|says|said|needs|asked|asks|told the user)\s+"
    r"(?:(?<=wants\s)(?:it|this|that|them)\b|"
    r"(?:cut|add|remove|change|make|send|write|fix|do|move|keep|drop|finish|shorten)\b)",
    re.I,
)


_ALONE_TOGETHER = re.compile(
    # "The user looked at each other", "The user decided together": the verb's other half, lost (not "teaches kids
    # to respect each other", "decided together to move to Berlin")
    r"^the user (?!and\b)(?:(?:just|finally|really|have|has|had|been|always)\s+)*[\w'-]+(?:\s+(?:at|to|with|for))?"
    r"\s+(?:each other|one another)\b"
    r"|^the user (?:decided|agreed|chose|talked|discussed|laughed|cried|voted) together$",
    re.I,
)


_MONEY_OF_MINE = re.compile(
    r"^the user's (?:[\w-]+\s+)?(?:take-home|salary|pay|income|rent|mortgage|budget|bonus|stipend|allowance)\s+"
    r"will be\s+(?:about\s+|around\s+)?(?:[₹$€£]\s?\d|\d[\d,.]*\s?(?:k|euros?|dollars?|pounds?|rupees?|lakh)\b)",
    re.I,
)


# Praise said with an eye-roll, or "/s": not meant ("i LOVE waking up at 6 on a saturday 🙄"; but "they moved the
# deadline to Friday 🙄" is true, and annoying)
_SARCASM = re.compile(
    r"\b(?:love|loving|adore|great|fantastic|perfect|brilliant|amazing|can't wait|cannot wait|fun)\b[^.!?]*🙄"
    r"|(?:^|\s)/s\s*$",
    re.I,
)


def is_fact(text: str, clause: str, sentence: str = "") -> bool:
    """Does `text` (made from `clause`, of `sentence`) say something worth keeping? (The gate: see the module's
    docstring.)"""
    if not text or ADDRESSED.search(clause) or _HYPOTHETICAL.search(clause) or len(text.split()) > MAX_WORDS:
        return False
    if _SARCASM.search(sentence):
        return False  # "i LOVE waking up at 6 on a saturday 🙄": said to mean the opposite
    if _ALONE_TOGETHER.match(text):
        return False  # "The user looked at each other": whom with, lost; what "we" did together is not the user's alone
    if _RELAYED.match(text):
        return False  # "Marcus wants this in a dashboard by EOD": a request passed on, done with today
    predicate = _predicate(text)
    if _CHITCHAT.match(predicate) or _IDLE.match(predicate) or _IDLE.match(_MOODS_AFTER.sub("", predicate)):
        return False
    if of_the_talk(text, predicate, clause, sentence):
        return False
    if _NOWHERE.match(predicate) and (text.lower().startswith("the user ") or "changed" in predicate):
        return False
    if _DANGLING.search(text) and not _CLEFT.search(text):
        return False
    if re.fullmatch(r"the user's [\w'-]+(?: (?-i:[A-Z])[\w'-]+)?", text.strip(" ."), re.I):
        return False  # "The user's boss": whom, and nothing said of them
    if (pointing := _POINTING_OBJECT.match(predicate)) and not _says_more(predicate[pointing.end() :]):
        return False
    if someone_unnamed(text, predicate, sentence) or says_nothing_alone(text, predicate):
        return False
    with_other = _WITH_OTHER_SUBJECT.match(text) is not None
    plural = with_other or _PLURAL_OWN.match(text)  # a verb as said: "run", "start"
    if not _VERB.search(predicate) and not _NAMED_SUBJECT.match(text) and not plural:
        return False  # "The user's late husband": no verb, no statement
    if values(predicate) and not _FUTURE.match(predicate):
        return True  # "Ada is 9", "the exam is on 3 March"
    if _FUTURE.match(predicate) and _EVENT_COUNT.match(text):
        return True  # "Our wedding will have about 140 guests": an event's size, known before it happens
    if _FUTURE.match(predicate) and _MONEY_OF_MINE.match(text):
        return True  # "The user's take-home will be ₹98,000": what the user will earn or pay, known before it comes
    if (
        _FUTURE.match(predicate)
        and not any(v.kind in ("date", "weekday", "time") for v in values(predicate))
        and not _HOLIDAY.search(predicate)
        and (len(content_words(predicate)) < _PLAN_WORDS or not _LIFE_PLAN.search(predicate) or " if " in clause)
    ):
        return False  # "I'll be offline", "Yui is going to lose her mind": no date, nothing of a plan, no fact
    if re.match(r"^(?:is|are)\s+\w+ing\b", predicate) and _TRANSIENT.search(clause):
        return False  # "we're staying in today"
    if with_other:
        return True  # what the user and someone else are or do together ("… are over", "… run a shop")
    words = content_words(predicate)
    if text.lower().startswith("the user ") and words and predicate.lower().startswith(words[0]):
        words = words[1:]  # the verb ("teaches piano"): the object must say something
    return bool(words)


def _says_more(rest: str) -> bool:
    """Does what follows a word pointing outside the fact say something of its own ("made it in pottery
    class", "doing it at a hacienda near Tequila"), not only when ("booked one for Thursday")?"""
    return any(not _TIME_WORD.fullmatch(word) and word not in _NOTHING_MORE for word in content_words(rest))


# After a word pointing outside the fact, words that say nothing of their own ("makes it themselves of course",
# "learning it in the evenings")
_NOTHING_MORE = frozenset(
    word_list(
        "user up back themselves himself herself myself ourselves course evening evenings morning mornings night "
        "nights afternoon afternoons weekend weekends anyway now too also again still already myself"
    )
)


_VERB = re.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|do|does|did|will|would|can|can't|cannot|won't|'s|'re|"
    r"[a-z]+(?:s|ed)|(?:doesn't|does not|don't|do not|never)\s+(?:eat|drink|smoke|touch)|"  # "doesn't eat pork"
    + "|".join(sorted(IRREGULAR_PAST))
    + r")\b",
    re.I,
)
_NAMED_SUBJECT = re.compile(r"^(?-i:[A-Z])\w+ (?:is|was|has)\b")
# "The user's shifts start at 5am": things of the user's, and a verb without -s
_PLURAL_OWN = re.compile(r"^the user's\s+(?:[\w-]+\s+)?[\w-]*[^s\W]s\s+(?!is\b|was\b|has\b)[a-z]+\b", re.I)
# "The user and their late husband …", "The user and Tom …" (`readers.compound`): a plural subject,
# whose verb is as said ("run a bakery").
_WITH_OTHER = (
    rf"the user and (?:their\s+{WHICH_ONE}[\w-]+"
    r"(?:\s+(?-i:[A-Z])[\w'’-]+)*|(?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+)*)"
)
_WITH_OTHER_SUBJECT = re.compile(rf"^{_WITH_OTHER}\s+\S", re.I)
_SUBJECT = re.compile(
    rf"^(?:{_WITH_OTHER}\s+(?P<rest3>.*)"
    # "The curry sounds great", "The fossil dig is genius" (a model writes such subjects): up to the verb
    r"|(?:the|a|an|this|that|these|those)\s+(?!user\b)(?:[\w'’-]+\s+){1,3}?"
    r"(?=(?:is|are|was|were|has|have|had|will|would|can|[a-z-]+(?:s|ed))\b)(?P<rest2>.*)"
    # "The user's team lead Rakesh will be happy": a relation of one or two words, and its name
    r"|(?:the user(?:'s (?:(?:team|tech|line|best|little|big|older|younger|elder|new|old|current)\s+)?"
    r"(?!(?:is|are|was|were|has|had|will)\b)[\w-]+"  # "The user's team is 14": the team, not "team is"
    r"(?:\s+(?-i:[A-Z])[\w’-]+)*)?|(?-i:[A-Z])[\w’-]+(?: (?-i:[A-Z])[\w’-]+)*"
    r"(?:['’]s(?: (?!is\b|was\b|are\b)[a-z-]+){1,2})?)\s+(?P<rest>.*))$",
    re.I,
)


def _predicate(text: str) -> str:
    """What a fact says of its subject, without adverbs ("The user just moved" -> "moved")."""
    match = _SUBJECT.match(text)
    rest = None if match is None else next((r for r in match.group("rest3", "rest", "rest2") if r is not None), None)
    words = (text if rest is None else rest).split()
    while words and words[0].lower() in ADVERBS:
        words.pop(0)
    return " ".join(words)
