"""Facts said offhand, in lower case and in fragments, the way the `blind6` set's people said them (a set a helper
wrote without seeing the rules or the other sets), fourteenth session.

Names typed without capitals after who someone is ("my daughter keisha 🥹", "put my sister magda") and after a title
("dr okafor is taking over"); a sum said without its verb ("budget now 42k", "my salary 14 lakh"); "context" or
"background" before what the user says of themselves; a word stretched for feeling ("newsss"); "were" typed for
"we're" ("so were on kendamil now"); a break-up kept as news, and what the user did with the partner taken back; a
name a state does not replace ("my wife is pregnant" leaves "The user's wife is Sneha"); a pet renamed; a
retraction that takes effect from a date ("no more nights starting March 3rd"); a new job said with its start day
("Starting monday at Lone Star Dedicated"). Each class has its near misses.

Read as a spec, as tests/unit/test_fact_rules.py is: each case a way of saying it, with the facts kept.
"""

from __future__ import annotations

import pytest

from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # a lower-case name after who someone is: before a verb said of them, or last in its clause
        ("sorry if im slow my dog bantay keeps barking at the neighbors cat lol", ["The user's dog is Bantay"]),
        ("home is el paso btw. first grandbaby due in march, my daughter keisha 🥹", ["The user's daughter is Keisha"]),
        ("remove ania from emergency contact we broke up. put my sister magda", ["The user's sister is Magda"]),
        (
            "me and wife sneha both working. my salary 14 lakh she 9",
            ["The user and Sneha both working", "The user's salary is 14 lakh", "The user's wife is Sneha"],
        ),
        # a name after a title, and the surname after it
        (
            "hello, i'm dr. omar farouk, a dentist. i share a clinic with my colleague dr. salma hegazy.",
            [
                "The user is Dr. Omar Farouk, a dentist",
                "The user shares a clinic with Dr. Salma Hegazy",
                "The user's colleague is Dr. Salma Hegazy",
            ],
        ),
        # a sum of the user's without its verb, first in its sentence
        ("update got offered fifo gig up at karratha. taking it. budget now 42k", None),
        ("going for used one. budget 8 lakh max.", ["The user's budget is 8 lakh max"]),
        # what the user says after a label, a stretched word, "were" typed for "we're"
        (
            "ok. context im backend dev at infosys, trying to save for a car.",
            ["The user is backend dev at infosys", "The user is trying to save for a car"],
        ),
        ("Background: I'm a nurse in Leeds", ["The user is a nurse in Leeds"]),
        ("newsss i got a job at a café near campus", ["The user got a job at a café near campus"]),
        ("health visitor suggested we switch milk so were on kendamil now", ["The user is on kendamil now"]),
        # a break-up is news, as a death is, without the relation it ended
        ("I broke up with my girlfriend Kayla last week", ["The user broke up with Kayla last week"]),
        ("Ines and I split up last weekend (it's fine, mostly).", ["The user and Ines split up last weekend"]),
    ],
)
def test_what_is_said_offhand_is_read(said: str, facts: list[str] | None) -> None:
    found = settle([said])
    if facts is None:  # a fact among others the message states
        assert "The user's budget is now 42k" in found
    else:
        assert found == facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # no name after who someone is: a day, a word to the listener, a deed, a verb, what a title names, a thing
        # of theirs said without its "'s" (a hostile review's cases)
        ("i talked to my dad sunday", ["The user talked to their dad sunday"]),
        ("i need to buy my daughter diapers", []),
        ("so happy, my baby girl 🥰", []),
        ("my son asthma got worse", ["The user's son asthma got worse"]),
        ("my cat flap keeps breaking", ["The user's cat flap keeps breaking"]),
        ("my wife sooo likes this place", ["The user's wife so likes this place"]),
        ("i have ms since 2019", ["The user has ms since 2019"]),  # "ms" as an illness, or Microsoft
        ("we use ms teams at work", ["The user uses ms teams at work"]),
        ("we live at 42 maple dr near the park", ["The user lives at 42 maple dr near the park"]),
        ("my dr prescribed me antibiotics", ["The user's dr prescribed the user antibiotics"]),
        ("my gp is dr ahmed", ["The user's gp is Dr Ahmed"]),
        # (a second hostile review's cases)
        ("my son wallet got stolen at the mall", ["The user's son wallet got stolen at the mall"]),
        ("gift ideas for my wife anniversary", []),
        ("dinner with my wife tomorow", []),
        ("my dr recommends yoga", ["The user's dr recommends yoga"]),
        ("my ms neurologist is great", ["The user's ms neurologist is great"]),
        ("saw dr strange last night, great movie", ["The user saw Dr Strange last night, great movie"]),
        ("client wants a logo. budget 300", []),
        ("im homeee", []),
        ("im freeee finally", ["The user is free finally"]),
        ("my dr wont prescribe antibiotics", ["The user's dr won't prescribe antibiotics"]),
        ("my vet is dr kent", ["The user's vet is Dr Kent"]),
        ("i weigh 80kg i counted calories wrong", ["The user weighs 80kg they counted calories wrong"]),
        ("i moved so update my address to leeds", ["The user moved so update their address to leeds"]),
        # a sum that is not one of the user's, or no sum; a word stretched that is written with two of its letter
        ("budget 2 hours for this task", []),
        ("help my sister plan. budget 2k", []),
        ("my son is in class viii now", ["The user's son is in class viii now"]),
        ("i'm fulll time now!!", ["The user is full time now"]),
        ("i got the jobbb", ["The user got the job"]),
        # "were" after another subject, and "so" before what is no request
        (
            "my kids were sick and were only now getting better",
            ["The user's kids were sick and were only now getting better"],
        ),
        ("i'm so put off by dating apps", ["The user is so put off by dating apps"]),
        ("went with my wife though", ["The user went with their wife"]),
        ("oh! also, my mum won, we're at 150 guests now.", ["The user has 150 guests now", "The user's mum won"]),
        ("tuesday is difficult but i find solution, my neighbour help.", []),  # of the moment (fifteenth session)
        ("i love my dog.", ["The user loves their dog"]),
        ("my dr appointment is on monday", ["The user's dr appointment is on monday"]),
        (
            "rn chem again, we got a new teacher, mr delgado went on paternity leave so its ms park now",
            ["The user got a new teacher, Mr Delgado went on paternity leave so its Ms Park now"],
        ),
        # a sum after a comma is what the clause before it names; "context" is a word like any other
        (
            "also im saving for a gaming pc, budget 30k pesos, what parts",
            ["The user is saving for a gaming pc, budget 30k pesos"],
        ),
        ("context is everything", []),
        # "were" with its subject, or asking, or of the past
        ("were you there now?", []),
        ("we were on holiday in may", ["The user was on holiday in may"]),
        # splitting a bill is no break-up; cooking for four asked of the assistant is no job
        ("Kayla and I split the bill", ["The user and Kayla split the bill"]),
        ("I'm tired, and the plan is a game changer, so cook for 4 on weeknights", []),
    ],
)
def test_near_misses_of_what_is_said_offhand_are_read_as_before(said: str, facts: list[str]) -> None:
    assert settle([said]) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # a name is not a state: "my wife is pregnant" leaves who she is
        (
            ["me and my wife Sneha both work", "my wife is pregnant"],
            ["The user and Sneha both work", "The user's wife is Sneha", "The user's wife is pregnant"],
        ),
        (
            ["me and my wife Sneha both work", "btw sneha is 6 months pregnant so add baby category too"],
            ["Sneha is 6 months pregnant", "The user and Sneha both work", "The user's wife is Sneha"],
        ),
        # a new place of home without the old one's length, said without naming the old place
        (
            [
                "My name is Yuki, I live in Toronto since two years.",
                "We live in North York now, our apartment is small.",
            ],
            ["The user lives in North York", "The user's apartment is small", "The user's name is Yuki"],
        ),
        # a break-up takes back what the user did with the partner
        (
            ["I live with my girlfriend Kayla in Perth", "I broke up with my girlfriend Kayla last week"],
            ["The user broke up with Kayla last week"],
        ),
        (
            [
                "rent 450 a week split with my missus kayla",
                "and kayla and me called it quits last week so rent's on me now",
            ],
            ["The user and Kayla called it quits last week so rent's on the user now"],
        ),
        # a pet renamed: the new name in the old one's place
        (
            [
                "we just got a puppy, she's a lab mix and the kids named her Pepper",
                "the puppy is not Pepper anymore she's Waffles now.",
            ],
            ["The user just got a puppy", "The user's puppy is a lab mix and the kids named her Waffles"],
        ),
        # what is taken back from a date on: the date says when, not what
        (
            [
                "I'm an ER nurse working three 12-hour night shifts a week",
                "got the day job!! so no more nights starting March 3rd",
            ],
            ["The user got the day job"],
        ),
        # a new supervisor named after a title typed in lower case
        (
            [
                "my supervisor dr hebert wants the full draft in may",
                "hebert is retiring so dr okafor is taking over as my supervisor",
            ],
            ["Dr Okafor is taking over as the user's supervisor"],
        ),
    ],
)
def test_what_is_known_follows_what_is_said_offhand(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # a start day with someone, or at a gym, changes no employer
        (
            ["I work at Google", "I'm starting monday with Dr. Smith, my new therapist"],
            ["The user is starting monday with Dr. Smith", "The user works at Google"],
        ),
        (
            ["I work at Google", "I am starting monday at Planet Fitness, 3x a week"],
            ["The user is starting monday at Planet Fitness, 3x a week", "The user works at Google"],
        ),
        # quitting for the night is no break-up; a child outlives one; another's notice is not the user's
        (
            ["I live with my girlfriend Kayla in Perth", "we called it quits around midnight, so tired from painting"],
            [
                "The user called it quits around midnight",
                "The user lives with Kayla in Perth",
                "The user's girlfriend is Kayla",
            ],
        ),
        (
            ["I have a daughter with my girlfriend Kayla", "I broke up with my girlfriend Kayla"],
            ["The user broke up with Kayla", "The user has a daughter with Kayla"],
        ),
        (
            ["I work at the bank", "my wife is putting in her notice at the bank"],
            ["The user works at the bank", "The user's wife is putting in her notice at the bank"],
        ),
        # a name after a title is a name whatever else the word may be ("lee")
        (["my gp is dr ahmed", "my gp is dr lee now"], ["The user's gp is Dr Lee now"]),
        # a thing of theirs is no name that replaces theirs
        (
            ["my husband is Dev", "my husband truck needs new tires"],
            ["The user's husband is Dev", "The user's husband truck needs new tires"],
        ),
        # a retraction with its number swapped still swaps it ("no longer 3 times a week, it's 2 now")
        (
            ["I go to the gym 3 times a week.", "I no longer go 3 times a week, it's 2 now."],
            ["The user goes to the gym 2 times a week"],
        ),
    ],
)
def test_near_misses_of_what_is_said_offhand_leave_what_is_known(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts
