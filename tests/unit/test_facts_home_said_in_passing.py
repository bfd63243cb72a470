"""Where the user lives, said in passing: "I sing in the church choir here in Bath", "a UX researcher at a fintech
startup here in Montreal" (issue 25: the home was lost when the job or the choir changed, the fact that held it
replaced). A stay is no home: "here in Paris for the week", "here in Rome on holiday".
"""

from __future__ import annotations

import pytest

from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("message", "home"),
    [
        ("I sing in the church choir here in Bath on Thursday evenings.", "The user lives in Bath"),
        ("I'm a UX researcher at a fintech startup called Loonie Labs here in Montreal.", "The user lives in Montreal"),
        ("I work at the hospital here in Cape Town", "The user lives in Cape Town"),
        ("I work at a bank here in New York", "The user lives in New York"),
    ],
)
def test_here_in_a_place_is_where_the_user_lives(message: str, home: str) -> None:
    assert home in settle([message])


def test_the_home_said_in_passing_outlives_the_fact_it_was_said_in() -> None:
    facts = settle(
        [
            "I'm a UX researcher at a fintech startup called Loonie Labs here in Montreal.",
            "Big news: I'm joining Shopify as a senior UX researcher, starting Nov 4.",
        ]
    )
    assert "The user lives in Montreal" in facts, facts


@pytest.mark.parametrize(
    "message",
    [
        "I'm here in Paris for the week",
        "We're here in Rome on holiday",
        "here in Lisbon visiting my aunt",
        # a hostile trial's: a stay said otherwise, a place of two words cut short
        "I'm here in New York visiting family",
        "I'm stuck here in Frankfurt airport",
        "I'm here in Bali for 3 months",
        "I'm at a conference here in Vienna",
        "I teach English here in Chiang Mai until March",
    ],
)
def test_a_stay_is_no_home(message: str) -> None:
    assert not any(f.startswith("The user lives in") for f in settle([message]))


def test_a_stay_leaves_the_home_known() -> None:
    assert "The user lives in Leeds" in settle(["I live in Leeds.", "I'm here in New York visiting family"])
