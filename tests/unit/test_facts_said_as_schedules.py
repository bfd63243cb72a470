"""A habit said as its schedule, without a verb, and a clause that opens with when.

Issue 25, read as classes: "spin class every Tuesday morning before work" is the user's; "Ollie
swimming Tues 5pm at the leisure centre. Ava ballet Sat 9am." are Ollie's and Ava's once the user
named them; "…, and on Wednesdays I do the late shift at the pharmacy" is a clause of its own.
Nothing is made of a chore or the weather said the same way, nor of a name the user never named.
"""

from __future__ import annotations

import pytest

from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("messages", "facts"),
    [
        (
            ["So: spin class every Tuesday morning before work, and on Wednesdays I do the late shift at the chemist."],
            ["The user has spin class every Tuesday morning before work", "The user does the late shift at the"],
        ),
        (
            ["my kids are Ollie, Ava and Finn.", "Ollie swimming Tues 5pm at the leisure centre. Ava ballet Sat 9am."],
            ["Ollie has swimming Tues 5pm at the leisure centre", "Ava has ballet Sat 9am"],
        ),
        (["I'm a nurse. Spin class every tuesday, choir on thursdays."], ["has spin class every", "has choir on"]),
        (["piano lessons every monday"], ["The user has piano lessons every monday"]),
    ],
)
def test_a_habit_said_as_its_schedule_is_kept(messages: list[str], facts: list[str]) -> None:
    kept = settle(messages)
    for fact in facts:
        assert any(fact in k for k in kept), (fact, kept)


@pytest.mark.parametrize(
    "message",
    [
        "bins every tuesday lol",
        "Rain every day this week",
        "Ava ballet Sat 9am",  # Ava never named
        "meeting at 3 on friday?",
        # what follows the day says it is no habit of now, or not the user's, or asked about (a hostile trial's)
        "yoga every morning would be nice",
        "piano lessons every monday cost £30",
        "football practice every wednesday was great when I was a kid",
        "spin class every Tuesday or Thursday, which is better?",
        "Swimming lessons every saturday: is that too much for a 4yo?",
        "team standup every monday",
        "kids swimming on saturdays",
        "karate classes every monday for both boys",
        # after a label of someone else's, or a timetable (a third trial's)
        "My wife: spin class every Tuesday morning",
        "Mom - choir on thursdays",
        "At the gym: spin class every Tuesday morning",
    ],
)
def test_a_chore_the_weather_or_a_name_never_named_make_no_schedule(message: str) -> None:
    assert not any(" has " in f for f in settle([message]))


@pytest.mark.parametrize(
    "messages",
    [
        ["My wife is so busy. Spin class every Tuesday morning, book club on fridays."],
        ["My wife has a packed week.", "spin class every Tuesday morning"],
    ],
)
def test_a_schedule_said_after_someone_of_the_users_is_theirs(messages: list[str]) -> None:
    assert not any(f.startswith("The user has") for f in settle(messages))


@pytest.mark.parametrize(
    ("message", "facts"),
    [
        ("I love Lisbon, and in summer we go to the beach every day.", ["The user goes to the beach every day"]),
        ("We visited my aunt, and after dinner my uncle played the piano.", ["The user's uncle played the piano"]),
    ],
)
def test_a_clause_that_opens_with_when_is_its_own(message: str, facts: list[str]) -> None:
    kept = settle([message])
    for fact in facts:
        assert any(k.startswith(fact) for k in kept), (fact, kept)


@pytest.mark.parametrize(
    ("messages", "gone", "kept"),
    [
        (
            ["also netball on Tuesday nights, non-negotiable lol.", "so Tuesdays are free now (and I'm on crutches)"],
            "netball",
            None,
        ),
        (["I work at the library on Tuesdays. I have choir on Fridays.", "Tuesdays are free now"], "library", "choir"),
    ],
)
def test_a_day_given_back_ends_what_the_user_did_then(messages: list[str], gone: str, kept: str | None) -> None:
    facts = settle(messages)
    assert not any(gone in f for f in facts), facts
    assert kept is None or any(kept in f for f in facts), facts


def test_a_schedule_moved_to_another_day_replaces_the_old() -> None:
    facts = settle(
        [
            "my kids are Ollie, Ava and Finn.",
            "Ollie swimming Tues 5pm at the leisure centre.",
            "swimming moved to Weds 4.30",
        ]
    )
    assert any("Weds" in f for f in facts) and not any("Tues" in f for f in facts), facts


@pytest.mark.parametrize(
    ("messages", "kept"),
    [
        (["My daughter has ballet on Tuesdays", "Tuesdays are free now"], "ballet"),  # hers
        (["Tuesday is my day off", "Tuesdays are free now"], "day off"),
        (["I work Monday to Friday 9 to 5", "Fridays are free now, I went part time"], "Monday to Friday"),
    ],
)
def test_a_day_given_back_leaves_what_is_not_the_users_alone_on_that_day(messages: list[str], kept: str) -> None:
    facts = settle(messages)
    assert any(kept in f for f in facts), facts
