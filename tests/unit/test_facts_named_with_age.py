"""Who someone is and their age, said together, are one fact: "Son's name is Lwazi, he's 12" is "The user's son
Lwazi is 12" (issue 25: the age alone said nobody's, and who he is said no age), as an age in brackets already was.
"""

from __future__ import annotations

import pytest

from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("message", "fact"),
    [
        (
            "Mornings are chaos. Son's name is Lwazi, he's 12 and plays cricket for his school.",
            "The user's son Lwazi is 12",
        ),
        ("My daughter is Mia. Mia is 5.", "The user's daughter Mia is 5"),
        ("our kids Emil (7) and Greta (4)", "The user's child Emil is 7"),  # as in brackets
    ],
)
def test_who_and_how_old_said_together_are_one_fact(message: str, fact: str) -> None:
    facts = settle([message])
    assert any(f.startswith(fact) for f in facts), facts
    assert not any(f.endswith(" is 12") and not f.startswith("The user's") for f in facts), facts


def test_a_pets_age_and_one_said_in_another_message_stay_as_they_were() -> None:
    assert settle(["My dog is Rex, he is 4"]) == ["Rex is 4", "The user's dog is Rex"]
    assert "Mia is 6" in settle(["My daughter is Mia.", "Mia is 6 now!"]) or any(
        "Mia" in f and "6" in f for f in settle(["My daughter is Mia.", "Mia is 6 now!"])
    )
