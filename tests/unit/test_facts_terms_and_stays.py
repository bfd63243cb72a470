"""Terms that end and are lengthened, where someone of the user's will live, a home's duration that does not move
with a new place, a holiday trip said again in its place, typed faces, and "we" inside a fact, the way the
`blind3`-`blind5` sets' people spoke (sets written by helpers who saw neither the rules nor the other sets),
thirteenth session.

A contract, a lease or a visa has one end at a time: "my contract finish in end of March" (as many write English),
then "they extended my contract until end of June", leaves June. "Dubu will stay with my parents in Busan" is where
the cat lives from now on. "Living in Berlin since two years", then a move to Hamburg, is not two years in Hamburg.
Each class has its near misses, from two hostile reviews (helpers given each commit: about 1,700 written messages
and conversations, 320 from templates, 12,000 generated; 167, then 227, wrong readings, each class narrowed).

Read as a spec, as tests/unit/test_fact_rules.py is: each case a way of saying it, with the facts kept.
"""

from __future__ import annotations

import pytest

from memoir.ingest import extract_by_rules
from memoir.ingest.person import about_the_user
from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # a term lengthened by someone else: when it runs until now is the fact, whoever did it
        (
            "the startup found investor and extended my contract until end of June, so I have more time.",
            ["The user's contract now runs until end of June"],
        ),
        ("They extended my lease until March 2027.", ["The user's lease now runs until March 2027"]),
        ("they renewed my visa until 2028", ["The user's visa now runs until 2028"]),
        # a verb of when typed without its "-s" after one thing of the user's
        ("My contract finish in end of March.", ["The user's contract finishes in end of March"]),
        ("my visa expire in June", ["The user's visa expires in June"]),
        # where someone of the user's will live from now on is a plan of their life, with or without a date
        (
            "So Dubu will stay with my parents in Busan for now.",
            ["Dubu will stay with the user's parents in Busan", "The user's parents live in Busan"],
        ),
        (
            "Our dog Bram will stay with my parents in Amersfoort, so we do not need anything pet-friendly.",
            [
                "The user's dog Bram will stay with the user's parents in Amersfoort",
                "The user's parents live in Amersfoort",
            ],
        ),
        # a face typed ends a sentence as an emoji does
        ("Thanks :) I want minimum 70k salary.", ["The user wants minimum 70k salary"]),
        ("I live in Leeds ;)", ["The user lives in Leeds"]),
        ("meeting at 10:30 in Leeds", []),  # a time's colon is no face
        # an adverb in "-ly" is no verb to put in the third person
        ("I nearly came off my bicycle last week.", ["The user nearly came off their bicycle last week"]),
        ("I rely on my sister for childcare.", ["The user relies on their sister for childcare"]),
    ],
)
def test_terms_stays_and_plans_are_read_as_meant(said: str, facts: list[str]) -> None:
    assert extract_by_rules(said) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # one end per term: the new end replaces the old
        (
            [
                "My contract finish in end of March, they cannot extend because of money problems.",
                "One thing changed: the startup found investor and extended my contract until end of June.",
            ],
            ["The user's contract now runs until end of June"],
        ),
        (
            ["My lease runs until March 2026.", "They extended my lease until March 2027."],
            ["The user's lease now runs until March 2027"],
        ),
        # how long the user had been in the old place is not how long they have been in the new one
        (
            [
                "I am from Valencia but I am living in Berlin since two years.",
                "But now I search job in Hamburg, not Berlin.",
            ],
            ["The user is from Valencia", "The user is living in Hamburg", "The user searches job in Hamburg"],
        ),
        # a holiday trip said again in its place; not a gift, a birthday, a habit or another holiday's trip
        (
            [
                "We're flying home to Ohio for Christmas.",
                "Flights are insane, so we're spending Christmas in Jeju with Min-ji's family instead.",
            ],
            ["The user is spending Christmas in Jeju with Min-ji's family"],
        ),
        (
            ["I'm buying my dad a watch for Christmas", "we're spending Christmas in Jeju instead"],
            ["The user is buying their dad a watch for Christmas", "The user is spending Christmas in Jeju"],
        ),
        (
            ["My daughter was born on Christmas Day", "we're spending Christmas in Jeju instead"],
            ["The user is spending Christmas in Jeju", "The user's daughter was born on Christmas Day"],
        ),
        (
            ["we go to Cornwall every Easter", "this Easter we're going to Devon instead"],
            ["The user goes to Cornwall every Easter", "The user is going to Devon this Easter"],
        ),
        # a stay's length goes with the home it was of, not with a trip or a marriage
        (
            ["I'm travelling to Japan for 3 weeks in May", "actually Korea instead of Japan"],
            ["The user is travelling to Korea for 3 weeks in May"],
        ),
        (
            ["I live in Berlin, married for 3 years", "I live in Hamburg now, not Berlin"],
            ["The user lives in Hamburg, married for 3 years"],
        ),
    ],
)
def test_what_is_known_follows_terms_stays_and_plans(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # not a term of the user's, no end said, or not lengthened after all
        ("we extended our stay until Friday", ["The user extended their stay until Friday"]),
        ("they never extended my contract until March, so I'm leaving", []),
        ("they haven't extended my contract until June", []),
        ("I wish they extended my contract until June", []),
        (
            "I just renewed my subscription to Spotify Premium",
            ["The user just renewed their subscription to Spotify Premium"],
        ),
        ("they extended my probation to 6 months", []),
        ("apparently they extended my contract until june", []),
        ("back in 2019 they extended my lease until 2021", []),
        ("landlord renewed my lease to 1950 a month", []),
        ("they renewed my visa to March Madness lol", []),
        ("the company extended my secondment to London", []),
        (
            "extended my contract to the point of no return",
            ["The user extended their contract to the point of no return"],
        ),
        ("My son start school in September.", []),
        ("I keep my shop open on Sundays", ["The user keeps their shop open on Sundays"]),
        ("my children start in May", []),
        ("my best finish at Boston was 3:10", ["The user's best finish at Boston was 3:10"]),
        ("my semester start in feb was rough", ["The user's semester start in feb was rough"]),
        # a stay of the moment, or with the assistant
        ("I'll stay with my sister tonight.", []),
        ("I will stay with you.", []),
        ("I'll stay with the old plan.", []),
        ("I'm going to stay with the default settings", []),
        ("I will stay with my boyfriend in Madrid for a week", []),
        ("I'll stay with my parents for four days", []),
        ("Rex will stay with my parents when we travel", []),
        ("I'll stay with my parents' insurance plan", []),
        # a face inside a sentence is left out, and one that is what was said stays
        ("my mom ;( passed away last year", ["The user's mom passed away last year"]),
        ("I'm getting married :D in June", ["The user is getting married in June"]),
        ("I use XD for design and Figma for prototyping", ["The user uses XD for design and Figma for prototyping"]),
        ("I run <3 miles a day", ["The user runs <3 miles a day"]),
        ("my wife :) Anna is pregnant", ["Anna is pregnant", "The user's wife is Anna"]),
        ("i <3 Paris and I live in Lyon", ["The user loves Paris", "The user lives in Lyon"]),
        (
            "sad update: we had to rehome our bunny :( kevin is allergic, took us 2 yrs to figure out lol.",
            ["The user had to rehome their bunny", "The user's kevin is allergic, took the user 2 yrs to figure out"],
        ),
        (
            "my sister is a nurse :) brother is a doctor",
            ["The user's sister is a nurse", "The user's brother is a doctor"],
        ),
    ],
)
def test_near_misses_are_read_as_before(said: str, facts: list[str]) -> None:
    assert extract_by_rules(said) == facts


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        # "we" inside a fact of someone else's, or of a model's in the first person, with its verb in the third person
        (
            "Flights to Hobart got crazy so we're doing Byron Bay instead",
            "Flights to Hobart got crazy so the user is doing Byron Bay instead",
        ),
        ("summer is when we actually have time to plan", "summer is when the user actually has time to plan"),
        ("Mum says we were lucky", "Mum says the user was lucky"),
        ("My sister says we love it", "The user's sister says the user loves it"),
        ("Jen says we can eat it", "Jen says the user can eat it"),
        ("He says I was right", "He says the user was right"),
        ("My boss thinks I have potential", "The user's boss thinks the user has potential"),
        ("Mum says we don't visit enough", "Mum says the user doesn't visit enough"),
        ("Mum says we kids were spoiled", "Mum says the user kids were spoiled"),
        ("My boss says I reply too slowly", "The user's boss says the user replies too slowly"),
        ("I weekly visit my gran", "The user weekly visits their gran"),
        ("I reapply sunscreen every two hours", "The user reapplies sunscreen every two hours"),
    ],
)
def test_we_in_a_fact_becomes_the_user_with_its_verb(said: str, fact: str) -> None:
    assert about_the_user(said) == fact
