"""Word lists of the fact rules, written as text: `word_list("a b c")` is `["a", "b", "c"]`."""

from __future__ import annotations

import re

from memoir.index.keyword import terms

__all__ = [
    "CHANGEABLE",
    "DIETS",
    "EVENTS",
    "FEASTS",
    "HEADCOUNT",
    "HOLIDAYS",
    "JOB_ENDINGS",
    "KINDS",
    "NATIONALITIES",
    "NOT_JOBS",
    "ONE_AT_A_TIME",
    "PEOPLE",
    "PETS",
    "kind_terms",
    "word_list",
]


def word_list(text: str) -> list[str]:
    """The space-separated words of `text` (lists read better as prose than as a column of strings)."""
    return text.split()


# A holiday says when as a date does ("we'll visit my parents in Kisumu over Christmas"): alternatives, as DIETS.
# The days of the year known by their feast ("for Christmas", "at Diwali"), and the holidays around them
FEASTS = (
    r"christmas|xmas|easter|new year|thanksgiving|diwali|deepavali|eid|hanukkah|passover|onam|pongal|lunar new year|"
    r"chinese new year|midsummer"
)
HOLIDAYS = FEASTS + r"|ramadan|holi|half[- ]term|(?:the|summer|school|winter) holidays"
# What someone eats, or does not: a regular expression's alternatives (one at a time: a new one replaces the old).
DIETS = (
    r"vegetarian|vegan|pescatarian|pescetarian|keto|paleo|gluten[- ]free|dairy[- ]free|lactose[- ]free|"
    r"lactose[- ]intolerant|plant[- ]based|carnivore|flexitarian|halal|kosher|omnivore|teetotal|sober|jain"
)

# What people eat, drink or smoke, and give up: "stopped the Coca-Cola", "no more dairy for me"
CONSUMED = (
    r"coffee|tea|sugar|alcohol|booze|beer|wine|meat|red meat|pork|dairy|milk|cheese|soda|coke|cigarettes|smoking|"
    r"caffeine|sweets|chocolate|gluten|bread|carbs|vaping|junk food|fast food|fried food|energy drinks|takeaways?"
)

# Medicines people take for years, by their generic or brand names: one replaces another ("switched me to Jardiance"
# of metformin), as a team's tracker does (`restated.KINDS`)
MEDICATIONS = (
    "metformin jardiance ozempic wegovy mounjaro insulin januvia trulicity glipizide gliclazide lisinopril ramipril "
    "amlodipine losartan bisoprolol atorvastatin simvastatin rosuvastatin crestor lipitor levothyroxine synthroid "
    "omeprazole pantoprazole lansoprazole sertraline zoloft fluoxetine prozac citalopram escitalopram lexapro "
    "bupropion wellbutrin venlafaxine mirtazapine prednisone prednisolone humira stelara remicade entyvio "
    "methotrexate adderall ritalin concerta vyvanse elvanse albuterol ventolin salbutamol symbicort warfarin eliquis "
    "apixaban xarelto rivaroxaban gabapentin pregabalin lyrica tramadol lithium lamotrigine quetiapine"
)


PEOPLE = frozenset(
    word_list(
        "wife husband partner spouse fiancé fiancée fiance fiancee boyfriend girlfriend son daughter kid kids "
        "child children baby mother mum mom mommy father dad daddy parents brother sister sibling siblings "
        "grandmother grandma granny nan grandfather grandpa aunt uncle cousin niece nephew friend boss "
        "manager colleague coworker co-worker teammate coach doctor dentist therapist roommate flatmate "
        "housemate neighbour neighbor landlord landlady tutor teacher mentor stepson stepdaughter stepmother "
        "stepfather twin twins bestie bff supervisor advisor adviser lead foreman assistant director editor agent "
        "nanny babysitter "
        "cleaner trainer physio physiotherapist accountant lawyer vet grandson granddaughter grandkids grandchildren "
        "nephew stepdad stepmum stepmom ex son-in-law daughter-in-law brother-in-law sister-in-law mother-in-law "
        "father-in-law husband-to-be wife-to-be gp physician "
        # grandparents as people say them in their own language: "my lola", "my abuela's 80th"
        "lola lolo abuela abuelo nonna nonno oma opa nani nana dadi"
    )
)

PETS = frozenset(
    word_list(
        "cat dog puppy kitten parrot bird rabbit bunny hamster horse pony fish goldfish turtle tortoise snake "
        "lizard pet gecko ferret budgie chicken hen goat"
    )
)

EVENTS = frozenset(
    word_list(
        "wedding exam exams offsite trip party race marathon appointment meeting flight interview surgery "
        "operation birthday holiday holidays vacation honeymoon launch deadline presentation conference "
        "concert gig ceremony graduation shift shifts class lesson lessons course move visit reunion retreat "
        "hike match game tournament recital audition exhibition show release demo sprint review checkup "
        "check-up test dinner lunch booking reservation festival camp camping stay appointment "
        "defense defence viva thesis dissertation "  # a student's: "defense is scheduled april 22", "thesis is on …"
        "mela fete gala premiere rehearsal rehearsals"
    )
)

# Words that count people: "like 90 people" changes "about 140 guests" (one count, said in other words).
HEADCOUNT = frozenset(
    word_list(
        "people person persons guest guests attendee attendees head heads participant participants visitor "
        "visitors member members folks"
    )
)

NATIONALITIES = frozenset(
    word_list(
        "american british english scottish welsh irish french german dutch belgian spanish portuguese italian "
        "greek swiss austrian swedish norwegian danish finnish polish czech russian ukrainian turkish indian "
        "pakistani chinese japanese korean vietnamese thai filipino indonesian australian canadian mexican "
        "brazilian argentinian chilean colombian peruvian nigerian kenyan egyptian moroccan israeli iranian "
        "lebanese jewish muslim christian catholic hindu buddhist atheist vegan vegetarian jain sikh catalan basque "
        "galician hungarian romanian bulgarian croatian serbian slovak slovenian lithuanian latvian estonian "
        "ghanaian ethiopian somali zimbabwean ugandan tanzanian algerian tunisian saudi emirati "
        "bangladeshi nepali malaysian singaporean taiwanese venezuelan cuban dominican jamaican"
    )
)

# Relations that change (a boyfriend becomes a husband, a tech lead is replaced): kept as a fact of their own.
CHANGEABLE = frozenset(
    word_list(
        "boyfriend girlfriend partner fiancé fiancée fiance fiancee husband-to-be wife-to-be husband wife spouse "
        "ex boss manager supervisor advisor adviser colleague coworker co-worker teammate coach doctor gp dentist "
        "therapist tutor "
        "teacher mentor roommate flatmate housemate landlord landlady lead foreman assistant director editor agent "
        "nanny babysitter cleaner trainer physio physiotherapist accountant lawyer vet"
    )
)
# Relations a person has one of at a time: "my wife is Anne" after "my wife is Jane" is a correction.
ONE_AT_A_TIME = frozenset(
    word_list(
        "wife husband partner spouse boyfriend girlfriend fiancé fiancée fiance fiancee ex boss manager supervisor "
        "advisor adviser lead coach doctor gp physician dentist therapist landlord landlady foreman director editor "
        "agent nanny trainer physio physiotherapist accountant lawyer vet mentor"
    )
)
# What a word naming a job ends with ("designer", "pharmacist", "librarian", "engineer")...
JOB_ENDINGS = (
    "er",
    "or",
    "ist",
    "ista",
    "ian",
    "eer",
    "ant",
    "ent",
    "ect",
    "ic",
    "nurse",
    "chef",
    "cook",
    "pilot",
    "student",
    "dev",
)
# ...and words ending so that name no job.
NOT_JOBS = frozenset(
    word_list(
        "fan lover member user beginner owner reader follower believer player runner swimmer cyclist walker talker "
        "sleeper eater drinker smoker dreamer thinker worrier introvert extrovert parent mother father brother sister "
        "daughter son partner person people after other never ever weather water summer winter number corner dinner "
        "order letter paper center centre matter better later either neither rather together over under power "
        "another whatever however wonder answer ever her whether butter computer printer finger shoulder "
        # where one works or studies, not what one is: "materials science department"
        "department apartment basement government tournament garlic "
        # verbs and words that end like a job ("went with the octavia estate", "spent the day at the zoo")
        "went sent spent meant bent rent lent want can't won't don't isn't ant event moment comment present"
    )
)


# Names of one kind, where a team or a person uses one at a time: "We've switched to Asana" of "We track everything
# in Trello", "I'm on Android now" of "I have an iPhone" (`restated`)
KINDS = tuple(
    frozenset(word_list(kind))
    for kind in (
        "trello asana jira notion clickup basecamp wrike airtable",
        "slack discord whatsapp telegram",
        "iphone android pixel samsung galaxy",
        MEDICATIONS,
        "windows macos macbook linux ubuntu fedora debian chromebook chromeos",
        "gtx rtx radeon",
        "striker goalkeeper goalie defender midfielder winger fullback centreback centerback",
        "a380 a350 a340 a330 a321 a320 a319 a220 777 787 737 747 767 757 e190 e175",
        "yahoo sleeper espn fleaflicker",
        "excel quickbooks xero freeagent",
        "aptamil kendamil hipp similac enfamil nutramigen",
        "cascadia freightliner peterbilt kenworth scania daf",
        "fiat skoda octavia toyota corolla honda hyundai renault tesla fiesta kia nissan volkswagen vw audi bmw "
        "mercedes peugeot citroen vauxhall corsa mazda subaru prius yaris",
    )
)


def kind_terms(text: str) -> set[str]:
    """A text's words as `KINDS` holds them: "center back" is one ("centerback")."""
    return set(terms(_TWO_WORD_KINDS.sub(r"\1back", text)))


_TWO_WORD_KINDS = re.compile(r"\b(cent(?:er|re))[\s-]+back\b", re.I)
