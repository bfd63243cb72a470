"""A new one of a kind replaces the old, and a search ruled out ends.

Issue 25's stale values, read as classes: where people have one of a kind at a time (a computer's system, a graphics
card, a position on a team, the aircraft a pilot flies, a league's app, the tool the books are kept in, a baby's
formula, a truck, a car), a change that names another of its kind replaces the
one known, the user's things being the user's; a place the user was searching in, ruled out by its name ("Kettering
is too expensive now"), is no longer searched; a job lost, a helper gone for good and a role given up end what was
known. Each with the near misses a hostile trial found: what the user feels about a kind, works at or once had, what
is borrowed or someone else's, a babysitter who has left for the night, a search among several places.
"""

from __future__ import annotations

import pytest

from memoir.ingest.lexicon import kind_terms
from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("before", "change", "old", "new"),
    [
        ("i play center back btw", "ok also update i switched to striker", "center back", "striker"),
        ("My laptop runs windows 10", "Change of plan, I switched to ubuntu", "windows", "ubuntu"),
        ("My pc has a gtx 1660", "switched to an rtx 4060, its insane", "gtx", "rtx"),
        ("we've always used yahoo for the league", "ok guys voted, were switching to sleeper", "yahoo", "sleeper"),
        (
            "i do the night bottle with aptamil",
            "health visitor suggested we switch milk so were on kendamil now",
            "aptamil",
            "kendamil",
        ),
    ],
)
def test_a_new_one_of_its_kind_replaces_the_old(before: str, change: str, old: str, new: str) -> None:
    facts = settle([before, change])
    assert any(new.lower() in f.lower() for f in facts), facts
    assert not any(old.lower() in f.lower() and new.lower() not in f.lower() for f in facts), facts


@pytest.mark.parametrize(
    ("before", "change", "kept"),
    [
        # someone else's of the kind: the user's wife's car is hers
        ("My wife drives a Fiat 500", "Change of plan: I went with the octavia estate", "wife drives a Fiat 500"),
        ("My wife has an iphone", "Update: I'm on android now", "wife has an iphone"),
        # no change said: two of a kind side by side
        ("My car is a Fiat 500", "My brother has a Toyota", "Fiat 500"),
        # where the user works, what they feel about a kind, what they once had: no thing of theirs replaced
        ("I work at Toyota as an engineer.", "Change of plan: I drive a honda civic now", "works at Toyota"),
        ("I hate Windows.", "I switched to linux at home", "hates Windows"),
        ("I was a goalkeeper as a kid.", "update: I switched to striker", "goalkeeper as a kid"),
        # "now" beside one of a kind is no change said
        ("I drive a Honda Civic", "got a loaner toyota from the garage now while they fix the clutch", "Honda Civic"),
        ("My laptop runs windows 11", "i'm learning linux now in a course, using a VM", "windows 11"),
        # a kind's word said in passing, not taken up for good
        ("My laptop is a MacBook Air.", "changed the curtains, the windows look so much better now", "MacBook"),
        ("I have an iPhone 14", "Update: upgraded the TV to a samsung oled", "iPhone 14"),
        ("I have an iPhone 14", "Update: never switching to android lol", "iPhone 14"),
        ("I have an iPhone 14", "switched to my old samsung till the repair is done", "iPhone 14"),
        ("I play goalkeeper", "switched cars, got a land rover defender!", "goalkeeper"),
    ],
)
def test_another_ones_thing_of_the_kind_stays(before: str, change: str, kept: str) -> None:
    assert any(kept in f for f in settle([before, change]))


def test_center_back_is_one_position() -> None:
    assert "centerback" in kind_terms("I play center back")
    assert "centreback" in kind_terms("she plays centre-back")
    assert "back" in kind_terms("my back hurts")


def test_a_search_ruled_out_by_its_place_ends() -> None:
    facts = settle(
        [
            "We are saving for house. We look in Kettering because the schools are good.",
            "House: Kettering is too expensive now, prices go up. So we look in Corby again, near Oakley Vale.",
        ]
    )
    assert "The user looks in Corby again, near Oakley Vale" in facts
    assert not any("Kettering" in f for f in facts)  # nor why it ended, as a fact of its own


@pytest.mark.parametrize(
    ("before", "said", "kept"),
    [
        ("I'm looking at flats in Bristol and Bath", "Bath is too expensive now so Bristol only", "Bristol and Bath"),
        (
            "We're considering Tesla or Kia for the new car",
            "Update: Tesla is too expensive now, so Kia",
            "Tesla or Kia",
        ),
        ("I'm looking at the Toyota Corolla.", "Change of plan on the colour: Toyota is out of red", "Toyota Corolla"),
        ("We look at houses in Didsbury", "Didsbury is too far from town, but we love it so still looking", "Didsbury"),
        ("I'm looking at the Toyota Yaris and the Honda Jazz", "Update: Toyota is too slow with delivery", "Jazz"),
    ],
)
def test_a_search_among_several_or_out_of_stock_goes_on(before: str, said: str, kept: str) -> None:
    assert any(kept in f for f in settle([before, said]))


def test_where_the_user_lives_is_not_ruled_out_by_its_prices() -> None:
    facts = settle(
        ["I live in Leeds with my partner.", "Leeds is too expensive, so we are looking at flats in Bradford"]
    )
    assert "The user lives in Leeds with their partner" in facts


@pytest.mark.parametrize(
    "ended",
    [
        "I quit my job last week",
        "I lost my job last week",
        "I was made redundant",
        "I got laid off in May",
        "put in my notice today",
    ],
)
def test_a_job_ended_takes_the_job_along(ended: str) -> None:
    facts = settle(["I work at Loonie Labs as a designer", ended])
    assert not any("Loonie Labs" in f for f in facts), facts


@pytest.mark.parametrize(
    "said",
    [
        "I'm thinking of quitting my job",  # a plan, not done
        "my wife lost her job",  # hers
        "I left my job at the bank in 2019 and joined Google",  # long ago
        "I gave my landlord notice, we move in May",  # the flat's notice
        "I was fired up after the meeting, great energy",
        "I left my job laptop on the train omg",
        "I left my job early today for the dentist",
        "my colleague said 'I quit my job' in the group chat",
        "last year i got laid off from amazon, thats how i ended up here",
        "put in my notice for the gym membership",
        "I've been let go of the fear of failure",
        "i was let go from my second job at the pub, still at google tho",
        "I just left my job, stuck in traffic now",  # for the day
        "I was let go today, shop was dead so the manager sent us home early",
        "I quit my job but they begged me to stay so I'm staying",
        "When I lost my job, I started baking",
    ],
)
def test_a_job_not_ended_stays(said: str) -> None:
    assert any("Google" in f for f in settle(["I work at Google as an engineer", said]))


def test_whoever_works_for_the_user_leaves_with_their_role() -> None:
    facts = settle(
        [
            "Shop rent is 28,500 per month, and my helper boy Vikas is getting 9,000.",
            "Vikas has left, he went back to his village in Latur.",
        ]
    )
    assert facts == ["The user's shop rent is 28,500 per month"]


@pytest.mark.parametrize(
    ("before", "said"),
    [
        ("My babysitter Chloe comes on Wednesdays.", "Chloe has left, the kids are in bed now"),
        ("Our cleaner Rosa comes on Fridays.", "Rosa has left, the house is spotless!"),
        ("Our cleaner Rosa comes on Fridays.", "Rosa has left, she went back to get her keys lol"),
        ("My babysitter Chloe comes on Wednesdays.", "Chloe has left, she quit smoking btw"),
    ],
)
def test_a_helper_who_left_for_the_day_keeps_their_role(before: str, said: str) -> None:
    assert any(f.startswith("The user's") and ("babysitter" in f or "cleaner" in f) for f in settle([before, said]))


def test_not_the_one_who_does_it_anymore_takes_back_doing_it() -> None:
    facts = settle(["my husband Pawel drives the bus", "Pawel is not a bus driver anymore"])
    assert facts == ["The user's husband is Pawel"]


def test_were_typed_for_were_going_somewhere_is_we_are() -> None:
    facts = settle(["we've always used yahoo for the league", "ok guys voted, were moving to sleeper this yr"])
    assert not any("yahoo" in f for f in facts) and any("sleeper" in f for f in facts), facts
    assert settle(["They were moving to Leeds"]) == []


def test_a_move_from_what_was_never_known_replaces_nothing() -> None:
    facts = settle(
        [
            "I'm building a small web scraper in Python for a client, a chain of bakeries.",
            "one more: I moved from VS Code to Neovim last week, a friend convinced me.",
        ]
    )
    assert "The user is building a small web scraper in Python for a client, a chain of bakeries" in facts


@pytest.mark.parametrize(
    ("said", "read"),
    [
        # what the user has or has not done is no way of working, and neither is what they saw
        ("never volunteered either lol", ["The user has never volunteered either"]),
        ("never been on a sports team", ["The user has never been on a sports team"]),
        ("never saw this coming", []),
        ("Always store UTC in the database", ["The user wants to always store UTC in the database"]),
        ("I almost forgot the actual question", []),  # no "almosts"
        (
            "Sheet cake, yes, I'm not building the Eiffel Tower. And now she's changed her mind on flavor!!",
            ["The user is not building the Eiffel Tower"],  # a building is no "she"
        ),
    ],
)
def test_what_is_said_in_passing_is_read_as_said(said: str, read: list[str]) -> None:
    assert settle([said]) == read
