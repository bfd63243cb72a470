"""A new one of a kind replaces the old, and a search ruled out ends.

Issue 25's stale values, read as classes: where people have one of a kind at a time (a computer's system, a graphics
card, a position on a team, the aircraft a pilot flies, a league's app, the tool the books are kept in, a baby's
formula, a truck, a car), a change that names another of its kind replaces the
one known, the user's things being the user's, and said to hold "now" is enough ("now I am on linux"); "Small
changes:" announces each sentence after it; a place the user was searching in, ruled out by its name ("Kettering is
too expensive now"), is no longer searched.
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
        ("Now I make invoices in Excel, very simple.", "Change: I signed up for QuickBooks", "Excel", "QuickBooks"),
        (
            "i do the night bottle with aptamil",
            "health visitor suggested we switch milk so were on kendamil now",
            "aptamil",
            "kendamil",
        ),
        ("My car is a Fiat 500", "went with the octavia estate, 2019 one", "Fiat", "octavia"),
        (
            "I use python 3.9 on windows 10",
            "ok I formatted my notebook yesterday. now I am on linux",
            "windows",
            "linux",
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
    ],
)
def test_another_ones_thing_of_the_kind_stays(before: str, change: str, kept: str) -> None:
    assert any(kept in f for f in settle([before, change]))


def test_center_back_is_one_position() -> None:
    assert "centerback" in kind_terms("I play center back")
    assert "centreback" in kind_terms("she plays centre-back")
    assert "back" in kind_terms("my back hurts")


def test_changes_listed_after_an_opener_each_replace_what_they_change() -> None:
    facts = settle(
        [
            "Now I make in Excel, very simple.",
            "Ok, this is for later. Small changes: I moved business account to Tide last week. "
            "So I signed up for QuickBooks and I do invoices myself now.",
        ]
    )
    assert "The user signed up for QuickBooks" in facts
    assert not any("Excel" in f for f in facts)


def test_a_search_ruled_out_by_its_place_ends() -> None:
    facts = settle(
        [
            "We are saving for house. We look in Kettering because the schools are good.",
            "House: Kettering is too expensive now, prices go up. So we look in Corby again, near Oakley Vale.",
        ]
    )
    assert "The user looks in Corby again, near Oakley Vale" in facts
    assert not any("Kettering" in f for f in facts)  # nor why it ended, as a fact of its own


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
        "I'm unemployed now",
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
        ("never volunteered either lol", []),  # what the user has not done is no way of working
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
