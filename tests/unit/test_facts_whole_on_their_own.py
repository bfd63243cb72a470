"""Facts that say what they say on their own, the way the `blind3`-`blind5` sets' people spoke (sets written by
helpers who saw neither the rules nor the other sets), twelfth session.

A kept fact is read later, alone, by a model or a person who never saw the message: "The user buried him under
the apple tree", "The user has six left now" and "The user needs a window sign" tell them nothing (whom? six of
what? asked of the assistant, done once answered). What a terse or non-native message leaves unsaid is read as
meant where that is plain: a count's thing from the one count known, a pet said without its article, a verb
typed without its "g", a name said after a comma, a clause without its "I" split at its commas.

Read as a spec, as tests/unit/test_fact_rules.py is: each case a way of saying it, with the facts kept.
"""

from __future__ import annotations

import pytest

from memoir.ingest import extract_by_rules
from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # whom the verb acts on, the message before said: alone, the fact tells nothing of anyone
        ("I buried him under the apple tree where he liked to sit.", []),
        ("I asked her last week.", []),
        ("I told her we're too old to be raising a pup.", []),
        ("I call her mum every day.", ["The user calls her mum every day"]),  # hers, not whom
        # what a pointing word stands for, said before, and nothing more said
        ("I make it myself of course.", []),
        ("I have pulled out the two outside ones.", []),
        # a need told to an assistant is what the user asks of it; a need of their health stays
        ("I need a new car", []),
        ("So we need motels that take dogs.", []),
        ("need a window sign: tune-up special $89 thru may. make it punchy", []),
        ("We don't need anything pet-friendly.", []),
        ("I need speech therapy after my stroke.", ["The user needs speech therapy after their stroke"]),
        ("Also I need register with Safe Electric.", ["The user needs register with Safe Electric"]),
        # a comparison with what the message before said, or the moment's constraint
        ("Room is bigger.", []),
        ("My flat is more expensive now.", []),
        ("I am Javier, I am from Valencia.", ["The user's name is Javier", "The user is from Valencia"]),  # no "-er"
        ("My name is Peter", ["The user's name is Peter"]),
        ("My son is older than my daughter.", ["The user's son is older than the user's daughter"]),
        ("I can't swap.", []),
        ("I can't leave before friday.", []),
        ("I cannot kneel for long.", ["The user cannot kneel for long"]),
        ("I can't eat gluten.", ["The user can't eat gluten"]),
        # what someone says "it" is, the message before said; a plan of the moment, however emphatic
        ("My dad says it's a loan.", []),
        ("My landlord said it's going up to 1500 a month.", ["The user's landlord said it's going up to 1500 a month"]),
        ("I'm literally going to fail.", []),
        ("I'm literally going to move to Berlin in May.", ["The user is literally going to move to Berlin in May"]),
        # "-eed" is no past tense
        ("need an alarm routine", []),
    ],
)
def test_a_fact_kept_says_what_it_says_without_the_message(said: str, facts: list[str]) -> None:
    assert extract_by_rules(said) == facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # a clause without its "I", read part by part between its commas where no reading fits it whole
        (
            "also visa stuff. on e-2 now, married to a korean citizen (min-ji) since last yr.",
            ["The user is married to a korean citizen (min-ji) since last yr"],
        ),
        ("working at 7am tomorrow, need an alarm routine", []),  # a need beside is no fact of its own
        ("one of my bonsai, a maple, died in summer heat.", []),  # the bonsai died, not the user
        ("originally from a small town, nothing special", []),
        # who the user is, and where, opening a message
        (
            "american in seoul, 6 years now. teaching at a hagwon in mapo.",
            [
                "The user is American",
                "The user has lived in seoul for 6 years",
                "The user is teaching at a hagwon in mapo",
            ],
        ),
        ("we had italian in boston", ["The user had italian in boston"]),
        # a state said by its participle
        ("ma in tesol, licensed in ohio for k-12 english. 38", ["The user is licensed in ohio for k-12 english"]),
        # how many work for the user, however tersely
        ("3 on staff rn plus me.", ["The user has 3 staff now"]),
        (
            "hired the mechanic. tomas. starts mon. so 4 staff now",
            ["The user hired the mechanic, tomas", "The user has 4 staff now"],
        ),
        # verbs typed without their "g"; "w" before a name
        (
            "well i did it. startin monday w Lone Star Dedicated, el paso to dallas and back, home every weekend",
            ["The user is starting monday with Lone Star Dedicated, el paso to dallas and back, home every weekend"],
        ),
        (
            "I live in Dublin and my cousin lives in Berlin",
            ["The user lives in Dublin", "The user's cousin lives in Berlin"],
        ),
        # after "so": a clause of its own, typed without its apostrophe
        ("its my older brothers old pc lol, im 15 so cant exactly afford a new one", ["The user is 15"]),
        # what the clause before went to, said to be the user's; a thing's name said after it
        (
            "all my friends moved to cs2 so thats my main game now, uninstalled the other one lol.",
            ["The user's main game is cs2 now"],
        ),
        ("Valorant is my main game", ["The user's main game is Valorant"]),
        ("Baking is my jam!", ["The user likes baking"]),
        ("Sarah is my sister", ["Sarah is the user's sister"]),
        (
            "Now I prepare to open my own restaurant, it will be called Racines.",
            ["The user prepares to open their own restaurant called Racines"],
        ),
        ("I started a podcast, it's called Deep Cuts", ["The user started a podcast called Deep Cuts"]),
        # a pet said without its article, not a food
        ("Oh, I have cat, her name is Dubu.", ["The user has a cat", "The user's cat's name is Dubu"]),
        ("I have dog food", ["The user has dog food"]),
        # the band's size, and a fragment that points elsewhere left out
        ("we are 4 in the band", ["The user's band is 4 people"]),
        (
            "bring my corgi noodle to the shop every day, customers love him lol.",
            ["The user brings their corgi noodle to the shop every day"],
        ),
    ],
)
def test_what_a_terse_or_non_native_message_leaves_unsaid_is_read_as_meant(said: str, facts: list[str]) -> None:
    assert extract_by_rules(said) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # a count said without what it counts is of the one count known, and keeps what was said of them
        (
            [
                "I have eight plants, all Moneymaker, in the glasshouse, except two that are outside by the fence.",
                "I have pulled out the two outside ones. So I have six left now, all in the glasshouse.",
            ],
            ["The user has six plants left now, all in the glasshouse, all Moneymaker"],
        ),
        # two counts known: the one the message names, or none
        (
            ["I have eight plants.", "I keep four hens.", "Six left now."],
            ["The user has eight plants", "The user keeps four hens"],
        ),
        # the age of one the message says is gone is part of the loss, not a fact of the living
        (
            ["Our old border collie Duke follows me out every morning.", "Had to put Duke down yesterday. He was 14."],
            ["The user had to put Duke down yesterday"],
        ),
        # a band's size changes as a name does, the rest of the fact kept
        (
            [
                "I play with a trio called Low Tide (piano, bass, drums).",
                "And the band is a quartet now: we added Simone.",
            ],
            ["The user added Simone", "The user plays with a quartet called Low Tide (piano, bass, drums)"],
        ),
        # a habit of taking something somewhere is no change ("bring" moves a date only: "brought forward")
        (
            ["own a bike shop in portland, SE division.", "bring my corgi noodle to the shop every day"],
            [
                "The user brings their corgi noodle to the shop every day",
                "The user owns a bike shop in portland, SE division",
            ],
        ),
        (
            ["Our offsite is in Porto on 3 May.", "The offsite got brought forward to 26 April."],
            ["The user's offsite is in Porto on 26 April"],
        ),
        # a code of letters and digits is one word: "got the f-6" is new beside "6 years"
        (
            ["american in seoul, 6 years now.", "got the f-6!! approved today."],
            ["The user got the f-6", "The user has lived in seoul for 6 years", "The user is American"],
        ),
        # whom the verb acts on, named in the fact
        (
            ["My husband Yaw works in Accra.", "And Yaw's company has posted him to Kumasi for six months."],
            [
                "The user's husband is Yaw",
                "Yaw works in Accra",
                "Yaw's company has posted him to Kumasi for six months",
            ],
        ),
        # a lower-case word after "my dog" and before "w me" is its name (not a state: "my dog busy w me")
        (["i got my dog peanut w me, shes a chihuahua"], ["Peanut is a chihuahua", "The user's dog is Peanut"]),
        # "cs2 is my main game now" replaces what was the main game
        (
            ["valorant is my main game", "ngl all my friends moved to cs2 so thats my main game now"],
            ["The user's main game is cs2 now"],
        ),
    ],
)
def test_what_is_known_says_what_a_short_message_meant(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


# Near misses of these classes, from a hostile review of the first version (a helper given the commit: about
# 1,100 written messages and conversations, 3,300 generated; 128 wrong readings, by class, each narrowed).
@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # a job or a name ending in "-er" is no comparison; the comparatives are a list
        ("I am engineer", ["The user is engineer"]),
        ("my husband is peter", ["The user's husband is peter"]),
        ("I'm a pensioner", ["The user is a pensioner"]),
        # a need of health, diet, faith or papers stays, however named
        ("I need chemotherapy every three weeks", ["The user needs chemotherapy every three weeks"]),
        ("I need blood thinners", ["The user needs blood thinners"]),
        ("I need halal food", ["The user needs halal food"]),
        # an apology beside a fact is cut from it, not the fact; a name with "Sorry" in it stays
        ("I'm dyslexic, sorry for the typos", ["The user is dyslexic"]),
        ("I own Sorry Not Sorry Bakery", ["The user owns Sorry Not Sorry Bakery"]),
        # a lasting constraint with a time in it stays
        ("I can't leave work before 5", ["The user can't leave work before 5"]),
        ("I can't go near nuts, this allergy is serious", ["The user can't go near nuts, this allergy is serious"]),
        ("I need to pray 5 times a day", ["The user needs to pray 5 times a day"]),
        # whom the user cares for or has been with says who the user is, named or not
        ("I care for him full time since his stroke.", ["The user cares for him full time since his stroke"]),
        ("I've been with him for 12 years.", ["The user has been with him for 12 years"]),
        # "her" or "him" in a sentence that names someone is kept as said (whom, the reader of the sentence knows)
        (
            "My mum has dementia so I visit her every day",
            ["The user's mum has dementia", "The user visits her every day"],
        ),
        ("dad's ill so I visit him daily", ["The user visits him daily"]),
        # what follows "so" stays the first clause's, however typed
        ("I'm on blood thinners so cant take ibuprofen", ["The user is on blood thinners so can't take ibuprofen"]),
        ("I'm Muslim so cant eat pork", ["The user is Muslim so can't eat pork"]),
        # clauses of someone else's, a meal, a client's headcount: not the user's
        ("Sister's wedding yesterday, married to a dutch guy now", []),
        ("new neighbour, retired teacher, lives alone with 3 cats", []),
        ("italian in york, best pasta ever", []),
        ("chinese in soho tonight", []),
        ("born in the uk", ["The user was born in the uk"]),
        ("raised in a small town in ohio", ["The user was raised in a small town in ohio"]),
        ("feed the cat twice a day", ["The user feeds the cat twice a day"]),
        # a "bout" is a bout; a capitalised "Makin" or "Goin Road" is a name; "W" is a letter of an address
        ("I'm recovering from a bout of pneumonia.", ["The user is recovering from a bout of pneumonia"]),
        ("My manager is Rachel Makin", ["The user's manager is Rachel Makin"]),
        ("I live on Goin Road", ["The user lives on Goin Road"]),
        ("I live at 120 W Broadway.", ["The user lives at 120 W Broadway"]),
        ("I have no cap on my overtime", ["The user has no cap on their overtime"]),
        # a name said after a comma names what the user made or has, not whatever "my X" came last
        (
            "I'm reading a book by my favourite author, it's called Dune.",
            ["The user is reading a book by their favourite author"],
        ),
        (
            "I live in a small town near my parents, it's called Hebden Bridge",
            ["The user lives in a small town near their parents"],
        ),
        # "so that's my X" of a person, or of an evening, is no identity
        ("I was talking to my boss so that's my evening ruined", ["The user was talking to their boss"]),
        ("I moved in with my boyfriend so that's my home now", ["The user moved in with their boyfriend"]),
        ("Cleaning is my job.", []),
        # someone else's band, a band seen, food: not the user's
        ("I saw Nirvana live, the band is a trio", ["The user saw Nirvana live"]),
        ("We got fish and chips tonight.", ["The user got fish and chips tonight"]),
        ("I have cat and dog allergy", ["The user has cat and dog allergy"]),
    ],
)
def test_near_misses_of_these_classes_are_read_as_before(said: str, facts: list[str]) -> None:
    assert extract_by_rules(said) == facts


# Near misses from a second hostile pass over the narrowed rules (about 570 fresh messages; 80 wrong readings).
@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # a lasting need, however named, stays; only what one asks an assistant for goes
        ("I need a guide dog.", ["The user needs a guide dog"]),
        ("I need my tablets every morning", ["The user needs their tablets every morning"]),
        ("I need to fast during Ramadan", ["The user needs to fast during Ramadan"]),
        ("I need Sundays off for church", ["The user needs Sundays off for church"]),
        ("I need a green card", ["The user needs a green card"]),
        ("I need a gift for keisha under 100 bucks", []),
        ("I need saner hours", []),
        # a change of health is no comparison with what was said before
        ("My eyesight is getting worse.", ["The user's eyesight is getting worse"]),
        ("My dad is less mobile now", ["The user's dad is less mobile now"]),
        ("My tinnitus is louder now.", ["The user's tinnitus is louder now"]),
        # "sorry" that is content stays
        ("I've been sober 3 years, not sorry", ["The user has been sober 3 years, not sorry"]),
        ("my cat is called sorry", ["The user's cat is called sorry"]),
        ("I hate saying sorry", ["The user hates saying sorry"]),
        # a weekday is a habit, not the moment's constraint
        ("I can't attend church on sunday because I work.", ["The user can't attend church on sunday"]),
        # what no one is, or everyone: no value of the user's
        ("Neither is my main focus", []),
        ("Nobody is my usual type", []),
        ("I got a headache, it's called Monday", ["The user got a headache"]),
        ("my boss is called Hes", ["The user's boss is called Hes"]),
        # a colleague's, a match's or a class's: not the user's
        ("at school, new teacher, married to a vicar", []),
        ("on holiday, met a couple, retired teachers, based in Spain", []),
        ("spanish in school, 5 years", []),
    ],
)
def test_near_misses_of_the_narrowed_rules_are_read_as_before(said: str, facts: list[str]) -> None:
    assert extract_by_rules(said) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # a bare count is fewer of one thing known, not of people, not money till payday, not of a mixed count
        (["I have 2 kids", "I get 25 days of annual leave", "I have 5 left"], None),
        (["I have 2 kids", "I only have 20 left till payday"], None),
        (["I have 3 cats and 2 dogs", "2 left now, sadly"], None),
        (["I have 12 hens", "a fox got two, I have 10 left"], ["The user has 10 hens left"]),
        (["I have 3 cats.", "My prescription ran out, I only have 2 left, need a refill."], None),
        (["I have 12 hens.", "Took 2 days off, I have 10 left"], None),
        (["I have 14 tomato plants.", "I lost 2 kilos, I have 12 left"], None),
        (["I have 3 horses.", "I sold one saddle, I have 2 left"], None),
        (["I have 4 rental properties.", "I sold one, so I have 3 left."], ["The user has 3 rental properties left"]),
        # what all of them were holds of fewer, not of more
        (
            ["I have 3 grandchildren, all grown now.", "Sorry, I tell a lie — it is 4 grandchildren."],
            ["The user has 4 grandchildren"],
        ),
        # someone else's band, or one booked, leaves the user's band's size
        (["I play in a trio called Low Tide", "My sister plays in a quintet"], None),
        (["I play with a trio called Low Tide", "We booked a duo for the wedding"], None),
        (["I play in a duo with my wife.", "I also play with a quartet on Sundays."], None),
        (["I sing in a trio called The Larks.", "I also play in a quintet at church."], None),
        (["I play with a trio called Low Tide.", "I play with a duo at the park sometimes."], None),
        (["I live in Leeds.", "at work, new starter, based in manchester"], ["The user lives in Leeds"]),
        # a date brought to a month, a weekday or earlier is a change
        (
            ["My surgery is on March 20.", "The hospital brought my surgery to March 5."],
            ["The user's surgery is on March 5"],
        ),
        (["Our meeting is on Tuesday.", "They brought the meeting to Monday."], ["The user's meeting is on Monday"]),
        # the age of the one gone, not of the one beside them
        (
            ["Max and Bella are my dogs.", "We had to put Max down and Bella was 9."],
            ["Bella was 9", "The user had to put Max down"],
        ),
        # a word after "my son" or "my dog" that is no name stays a word
        (["we moved to leeds last year. he got a job at tesco, my son wow."], ["The user moved to leeds last year"]),
        (["first grandbaby due in march, my daughter yep"], []),
        (["i got my dog busy w me, shes a chihuahua"], ["The user's dog is a chihuahua"]),
        (["it's just my dog and me. my dog sleeps w me"], ["The user's dog sleeps w the user"]),
        (
            ["my husband along with his brother owns a garage"],
            ["The user's husband along with his brother owns a garage"],
        ),
        (["i got my dog asleep w me, shes a chihuahua"], ["The user's dog is a chihuahua"]),
        # someone else's clause after a comma moves no one
        (["I live in London.", "old roommate Ben, works as a pilot now, based in Dubai"], ["The user lives in London"]),
        (["I have 5 employees.", "client is acme corp, 30 employees"], ["The user has 5 employees"]),
    ],
)
def test_near_misses_leave_what_is_known(turns: list[str], facts: list[str] | None) -> None:
    """(None: what the first messages said stays, whatever else the last adds.)"""
    if facts is None:
        assert set(settle(turns[:-1])) <= set(settle(turns))
    else:
        assert settle(turns) == facts
