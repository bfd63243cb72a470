"""Facts said the way the `blind4` set's people said them (a set written by a helper who saw neither the
rules nor the other sets): a title in an introduction, a retirement, a job or a shop said without "I", a
habit with how often, a marriage as a state, an age that is the user's whoever else the message names.

Read as a spec, as tests/unit/test_fact_rules.py is: each case a way of saying it, with the facts kept.
"""

from __future__ import annotations

import pytest

from memoir.ingest import extract_by_rules
from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # A title is a role, kept as written: "CEO", not "cEO"
        (
            "Hi, I'm Priya, co-founder and CEO of Ledgerly.",
            ["The user's name is Priya", "The user is a co-founder and CEO of Ledgerly"],
        ),
        ("I'm Sam, VP of sales at Acme.", ["The user's name is Sam", "The user is a VP of sales at Acme"]),
        ("I'm Dana, the CTO at Fernwood.", ["The user's name is Dana", "The user is the CTO at Fernwood"]),
        # Retired, and from what
        (
            "I'm Harold, 72 years old, retired now after farming corn outside Kearney.",
            [
                "The user's name is Harold",
                "The user is 72 years old",
                "The user is retired now after farming corn outside Kearney",
            ],
        ),
        ("I'm Jo, retired.", ["The user's name is Jo", "The user is retired"]),
        (
            "I'm Ann, a retired geography teacher.",
            ["The user's name is Ann", "The user is a retired geography teacher"],
        ),
        # Said without "I"
        ("own a bike shop in portland, SE division.", ["The user owns a bike shop in portland, SE division"]),
        ("teaching at a hagwon in mapo.", ["The user is teaching at a hagwon in mapo"]),
        ("doin the 16:8 fasting thing now.", ["The user is doin the 16:8 fasting thing now"]),
        (
            "married to a korean citizen (min-ji) since last yr.",
            ["The user is married to a korean citizen (min-ji) since last yr"],
        ),
        ("walk my dog every morning.", ["The user walks their dog every morning"]),
        # Near misses: a request, a name that opens with a past verb, nothing owned, a day at home
        ("send my mum a card every week.", []),
        ("spoke & chain.", []),
        ("own it.", []),
        ("working at home today.", []),
        ("married to the idea of a farm.", []),
    ],
)
def test_what_people_say_tersely_or_in_an_introduction(said: str, facts: list[str]) -> None:
    assert extract_by_rules(said) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # "I'm 73 now" is the user's age: not a number of what Peggy wants, though the message names her
        (
            [
                "I'm Harold, 72 years old. My wife Peggy wants one for the bluebirds.",
                "They threw me a party on Sunday, so I'm 73 now. Peggy says I ate too much of it.",
            ],
            [
                "Peggy wants one for the bluebirds",
                "The user is 73 now",
                "The user's name is Harold",
                "The user's wife is Peggy",
            ],
        ),
        # … and a team's "7 now" is still a count of the team
        (
            ["Our team (four of us) is migrating billing.", "3 new engineers joined so we're 7 now"],
            ["The user's team (7 people) is migrating billing"],
        ),
    ],
)
def test_an_age_said_now_is_whose_it_says(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts
