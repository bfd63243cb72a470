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
        # at its unit where the fact holds the number twice; with its currency
        ("I have 15 chickens and the party is at 15h", "It's 16h not 15h.", "party is at 16h", "at 15h"),
        ("The wedding is at 15h and the dinner at 19h", "dinner is 20h not 19h", "wedding is at 15h", "20h and"),
        ("I earn $50k a year", "it's $55k not $50k", "$55k", "$50k"),
        ("I have 6 yrs experience", "its 7 years not 6", "7 yrs", "6 yrs"),
        # a bare number and why: the one fact holding it
        ("I'm 34 years old", "35 not 34, birthday was last week", "35", "34"),
        ("I have 3 kids", "4 not 3, I forgot the baby", "4 kids", "3 kids"),
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
        # another unit, glued or apart, or none: no fact of the user's measures it
        ("I have 15 chickens on the farm.", "It's 16h not 15h.", "15 chickens"),
        ("I have 2 kids", "I prefer 30 min workouts not 2 hour ones", "2 kids"),
        ("I'm 30", "it's 35 minutes not 30", "The user is 30"),
        ("I have 6 cats", "its 7 years not 6", "6 cats"),
        ("I have 50 employees", "It's 60 miles not 50 miles", "50 employees"),
        # someone else's number, or another thing the sentence names
        ("My shift starts at 7h", "my wife's shift is 9h not 7h", "shift starts at 7h"),
        ("My son is 7", "He sleeps 10 hours not 7", "son is 7"),
        ("I run 5km every day", "the race on sunday is 10km not 5km", "runs 5km every day"),
        ("I run 5km every day", "I did 10km yesterday, not 5km", "runs 5km every day"),
        ("I work 15h a week at the cafe. The party is at 15h.", "the party is 16h not 15h", "15h a week"),
        # someone else's, named or not with "my" (a hostile trial's); the user's own correction leaves the son's
        ("I sleep 7 hours a night", "the baby sleeps 10 hours not 7", "sleeps 7 hours"),
        ("I work 7h shifts at the warehouse", "Ana's shift is 9h not 7h", "7h shifts"),
        ("I have 40 students this year", "Mrs Patel has 45 students not 40", "has 40 students"),
        ("My son sleeps 9 hours.", "I sleep 8 hours not 9", "son sleeps 9 hours"),
        # said of nobody: the user's, who is speaking, not the daughter's or the sister's (a third trial's)
        ("I swim 20 laps every morning. My daughter swims 20 laps too.", "25 laps not 20", "daughter swims 20"),
        ("I have 2 kids. My sister has 2 kids.", "3 kids not 2", "sister has 2 kids"),
        ("My wife works 15h a week. I work 20h a week.", "it's 16h not 15h", "wife works 15h"),
        # no number put in its place: the fact stays
        ("I run 5km every day", "it's 5 miles not 5km", "runs 5km every day"),
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
        ("My husband is called Dave. Dave works as a plumber.", "Dave works as a plumber"),
        ("My mom's name is Rosa. Rosa lives in Lima.", "Rosa lives in Lima"),
        ("My daughter Lily just turned 7. Lily goes to St Mary's.", "Lily goes to St Mary's"),
        ("I have a son, Jake. Jake plays football on Saturdays.", "Jake plays football on Saturdays"),
        ("My dog is Rex. Rex is a labrador.", "Rex is a labrador"),
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
        "we decided together",
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
        ("I'm on my way to Paris for a conference next week", "The user is on their way to Paris for a conference"),
        ("I'm thinking seriously about retiring next year", "The user is thinking seriously about retiring next year"),
        ("I'll come back to Japan next April", "The user will come back to Japan next April"),
        ("We decided together to move to Berlin", "The user decided together to move to Berlin"),
        ("I teach kids to respect each other", "The user teaches kids to respect each other"),
        ("Luis and I looked at each other and just knew.", "The user and Luis looked at each other and just knew"),
    ],
)
def test_near_misses_are_kept_as_before(message: str, fact: str) -> None:
    facts = settle([message])
    assert any(f.startswith(fact) for f in facts), facts
