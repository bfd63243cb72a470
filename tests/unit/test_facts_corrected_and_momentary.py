"""A number corrected with its unit, whom the user just named, and what is only of the moment.

Issue 25, read as classes: "it's 16h not 15h" corrects the fact that said 15h (the number
written with its unit, as the fact has it); someone the user has just named ("my wife Funmi")
is the user's business in the next sentence of the same message ("Funmi is a social worker"),
as in a later message; and what holds only for the moment or for a "we" is no fact of the
user's: "I'm on my way to work now", "I'm thinking Kyoto, Nara", "I'll come back to this
Friday", "Mine now starts 19th" (no one called Mine), "Luis and I looked at each other", "we
decided together". Each beside its near misses, kept as before.
"""

from __future__ import annotations

import pytest

from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("before", "correction", "now", "old"),
    [
        ("The party is on Saturday at 15h at our flat.", "Very good! Only one thing, it's 16h not 15h.", "16h", "15h"),
        ("I run 5km every day", "it's 8km not 5km, sorry", "8km", "5km"),
        (
            "I have 6 yrs experience as a forklift driver",
            "make it shorter one page. and its 7 yrs not 6 i started 2018",
            "7 yrs",
            "6 yrs",
        ),
        ("We surveyed 24 parks in Madrid for my thesis", "btw it's 32 parks not 24", "32 parks", "24 parks"),
    ],
)
def test_a_number_corrected_with_its_unit_replaces_the_one_said(
    before: str, correction: str, now: str, old: str
) -> None:
    facts = settle([before, correction])
    assert any(now in f for f in facts), facts
    assert not any(old in f for f in facts), facts


@pytest.mark.parametrize(
    ("before", "message", "kept"),
    [
        # another number of the fact, not the one corrected: nothing changes
        ("The party is on Saturday at 15h at our flat.", "Only one thing, it's 20 kids not 15.", "15h"),
        # no unit said, and nothing else shared: no fact of the user's is "15"
        ("I have 15 chickens on the farm.", "It's 16h not 15h.", "15 chickens"),
    ],
)
def test_a_number_corrected_leaves_facts_that_measure_something_else(before: str, message: str, kept: str) -> None:
    facts = settle([before, message])
    assert any(kept in f for f in facts), facts


@pytest.mark.parametrize(
    ("message", "fact"),
    [
        ("I live with my wife Funmi. Funmi is a social worker with the county council.", "Funmi is a social worker"),
        ("My sister is Ana. Ana lives in Porto.", "Ana lives in Porto"),
        ("I'm Seun and I live in Oadby with my wife Funmi. Funmi is a social worker.", "Funmi is a social worker"),
    ],
)
def test_someone_the_user_just_named_is_their_business_in_the_next_sentence(message: str, fact: str) -> None:
    facts = settle([message])
    assert any(f.startswith(fact) for f in facts), facts


def test_a_name_never_named_by_the_user_stays_no_business_of_theirs() -> None:
    assert not any("Funmi" in f for f in settle(["Funmi is a social worker with the county council."]))


@pytest.mark.parametrize(
    "message",
    [
        "I am on my way to work now",
        "I'm thinking Kyoto, Nara",
        "I'll come back to this Friday thanks love",
        "Swapped on-call w/ Lena (teammate). Mine now starts 19th.",
        "Luis and I looked at each other and just knew.",
        "we decided together to keep him home",
    ],
)
def test_what_holds_for_the_moment_or_for_a_we_is_no_fact_of_the_users(message: str) -> None:
    facts = settle([message])
    assert not any(f.startswith(("The user is on", "The user is thinking", "Mine", "The user will")) for f in facts)
    assert not any("each other" in f or "together" in f for f in facts if not f.startswith("The user and")), facts


@pytest.mark.parametrize(
    ("message", "fact"),
    [
        ("We live together in Leeds", "The user lives together in Leeds"),
        ("I work together with Sam at Acme", "The user works together with Sam at Acme"),
        ("I'm thinking of selling the car", "The user is thinking of selling the car"),
        ("I'm on my way to becoming a nurse", "The user is on their way to becoming a nurse"),
        ("Luis and I looked at each other and just knew.", "The user and Luis looked at each other and just knew"),
    ],
)
def test_near_misses_are_kept_as_before(message: str, fact: str) -> None:
    assert fact in settle([message])

