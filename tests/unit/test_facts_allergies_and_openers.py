"""What an allergy is to, when it was said a little before; and a feeling that opens a sentence.

Issue 25, read as classes: "Should I get a cat now that I live alone? jk, I'm allergic to them" is an
allergy to cats, "No peanuts anywhere though, she is severely allergic" one to peanuts (the allergen
the message named last, in the sentence or the one before); "Sadly I'm allergic to dogs",
"Luckily I live near the sea" say their fact after the feeling, as with a comma.
"""

from __future__ import annotations

import pytest

from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("message", "fact"),
    [
        ("Should I get a cat now that I live alone? jk, I'm allergic to them.", "The user is allergic to cats"),
        ("I'd love a dog. Sadly I'm allergic to them.", "The user is allergic to dogs"),
        (
            "My daughter is 7. No peanuts anywhere though, she is severely allergic, even traces.",
            "The user's daughter is severely allergic to peanuts",
        ),
        ("We ate fish yesterday. Turns out I'm allergic to it!", "The user is allergic to fish"),
    ],
)
def test_an_allergy_is_to_what_was_named_just_before(message: str, fact: str) -> None:
    facts = settle([message])
    assert any(f.startswith(fact) for f in facts), facts


@pytest.mark.parametrize(
    ("message", "fact"),
    [
        ("I'm allergic to cats.", "The user is allergic to cats"),  # said in full: as it was
        ("I had an allergic reaction to the dye.", "The user had an allergic reaction to the dye"),
    ],
)
def test_an_allergy_said_in_full_is_kept_as_said(message: str, fact: str) -> None:
    assert fact in settle([message])


@pytest.mark.parametrize(
    "message",
    [
        "We had peanuts at the party. The kids loved it. The music was loud. My wife is allergic.",
        "We have a dog. We ate sushi and my face swelled up, turns out I'm allergic",  # sushi is no allergen known
        "I have a dog. Mango gives me a rash, I'm allergic",
        "I love cats but pineapple makes my mouth itch, so I'm allergic",
        "My dog is allergic",
        "hot dogs at the BBQ. My son is allergic",
        "I have a dog. Mango gives me a rash, I'm allergic to it",  # "it" is no dog
        "I have allergic asthma",
    ],
)
def test_an_allergy_to_what_was_not_named_just_before_is_left_as_said(message: str) -> None:
    facts = settle([message])
    assert not any("allergic to" in f for f in facts), facts


@pytest.mark.parametrize(
    ("message", "fact"),
    [
        ("Unfortunately I'm allergic to dogs.", "The user is allergic to dogs"),
        ("Luckily I live near the sea.", "The user lives near the sea"),
        ("Thankfully my sister lives nearby.", "The user's sister lives nearby"),
    ],
)
def test_a_feeling_before_the_user_speaks_of_themselves_opens_the_sentence(message: str, fact: str) -> None:
    assert fact in settle([message])
