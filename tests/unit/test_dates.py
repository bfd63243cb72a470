"""Time in what was said and in what is asked (issue 28): relative dates resolved from the turn's
own timestamp, indexed as calendar terms beside its words, asked for by the dates a question
names, and shown in the context block.

The spec: a turn dated 8 May 2023 that says "I ran the charity race yesterday" is about 7 May
2023. Searching "When did she run the charity race? May 7, 2023" or asking "What did she do on
7 May 2023?" finds it; the context block says "(8 May 2023; yesterday: 7 May 2023)"; the
stored and shown text is what was said, word for word.
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memoir.index.dates import (
    WEEKDAYS,
    calendar_terms,
    dated_text,
    day_term,
    has_time_words,
    month_term,
    resolve,
    week_term,
    year_term,
)
from memoir.index.spoken_dates import spoken, undated, with_dates
from memoir.retrieval.when import asks_when, question_terms, told_when

DAYS = st.dates(min_value=date(1990, 1, 1), max_value=date(2090, 12, 31))
NUMBER_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTH_NAMES = list(calendar.month_name)[1:]


def _months(day: date, offset: int) -> tuple[int, int]:
    index = day.year * 12 + day.month - 1 + offset
    return index // 12, index % 12 + 1


def only(text: str, anchor: date) -> tuple[date, date, str]:
    spans = resolve(text, anchor)
    assert len(spans) == 1, (text, spans)
    return spans[0].start, spans[0].end, spans[0].grain


# -- relative time, resolved from the anchor -------------------------------------------------


@given(anchor=DAYS, phrase=st.sampled_from(["yesterday", "last night", "today", "tonight", "tomorrow"]))
def test_day_words_resolve_to_the_right_calendar_day(anchor: date, phrase: str) -> None:
    offset = {"yesterday": -1, "last night": -1, "today": 0, "tonight": 0, "tomorrow": 1}[phrase]
    expected = anchor + timedelta(days=offset)
    assert only(f"I ran the charity race {phrase}, it was great", anchor) == (expected, expected, "day")


@given(anchor=DAYS, count=st.integers(1, 12), as_word=st.booleans())
def test_n_days_ago_is_n_calendar_days_before(anchor: date, count: int, as_word: bool) -> None:
    number = NUMBER_WORDS[count - 1] if as_word else str(count)
    expected = anchor - timedelta(days=count)
    assert only(f"We met {number} days ago.", anchor) == (expected, expected, "day")


@given(anchor=DAYS, weekday=st.integers(0, 6), short=st.booleans())
def test_last_and_next_weekday_are_the_nearest_such_day_before_and_after(
    anchor: date, weekday: int, short: bool
) -> None:
    name = WEEKDAY_NAMES[weekday][:3] if short else WEEKDAY_NAMES[weekday]
    start, end, grain = only(f"Last {name} I went to a pottery workshop", anchor)
    assert start == end and grain == "day" and start.weekday() == weekday
    assert 1 <= (anchor - start).days <= 7
    start, _, _ = only(f"see you next {name}", anchor)
    assert start.weekday() == weekday and 1 <= (start - anchor).days <= 7


@given(anchor=DAYS, count=st.integers(1, 12))
def test_weeks_months_and_years_ago_are_whole_calendar_periods(anchor: date, count: int) -> None:
    start, end, grain = only(f"{count} weeks ago", anchor)
    assert grain == "week" and start.weekday() == 0 and end - start == timedelta(days=6)
    assert start <= anchor - timedelta(weeks=count) <= end
    start, end, grain = only(f"{NUMBER_WORDS[count - 1]} months ago", anchor)
    assert grain == "month" and (start.year, start.month) == _months(anchor, -count) and start.day == 1
    assert (end + timedelta(days=1)).day == 1 and (end.year, end.month) == (start.year, start.month)
    assert only(f"{count} years ago", anchor) == (
        date(anchor.year - count, 1, 1),
        date(anchor.year - count, 12, 31),
        "year",
    )


@given(anchor=DAYS, which=st.sampled_from(["last", "this", "next"]))
def test_last_this_and_next_week_month_and_year(anchor: date, which: str) -> None:
    offset = {"last": -1, "this": 0, "next": 1}[which]
    monday = anchor - timedelta(days=anchor.weekday()) + timedelta(weeks=offset)
    assert only(f"{which} week", anchor) == (monday, monday + timedelta(days=6), "week")
    start, _, grain = only(f"{which} month", anchor)
    assert grain == "month" and (start.year, start.month) == _months(anchor, offset)
    start, _, grain = only(f"{which} year", anchor)
    assert grain == "year" and start.year == anchor.year + offset


@given(anchor=DAYS)
def test_last_weekend_is_the_saturday_and_sunday_before(anchor: date) -> None:
    start, end, grain = only("We went camping last weekend", anchor)
    assert grain == "weekend" and start.weekday() == 5 and end == start + timedelta(days=1)
    assert end < anchor + timedelta(days=-anchor.weekday() + 5)  # before this week's Saturday


@given(day=st.dates(min_value=date(1990, 1, 1), max_value=date(2090, 12, 31)), anchor=DAYS)
def test_calendar_dates_resolve_whatever_the_anchor(day: date, anchor: date) -> None:
    month = MONTH_NAMES[day.month - 1]
    for text in (f"{month} {day.day}, {day.year}", f"{day.day} {month} {day.year}", day.isoformat()):
        assert only(f"It happened on {text}.", anchor) == (day, day, "day")
    start, end, grain = only(f"back in {month} {day.year}", anchor)
    assert grain == "month" and start == day.replace(day=1) and end.month == day.month


# -- text without time words -------------------------------------------------------------------

PLAIN_WORDS = st.sampled_from(
    [
        "I",
        "she",
        "ran",
        "the",
        "charity",
        "race",
        "for",
        "mental",
        "health",
        "pottery",
        "class",
        "went",
        "to",
        "a",
        "museum",
        "with",
        "my",
        "kids",
        "loved",
        "it",
        "great",
        "painting",
        "sunrise",
        "friends",
        "family",
        "support",
        "group",
        "adoption",
        "council",
        "meeting",
        "beach",
        "camping",
        "hike",
        "photo",
        "book",
        "read",
        "cool",
        "so",
        "much",
        "fun",
    ]
)
TIME_WORDS = st.sampled_from(
    [
        "yesterday",
        "today",
        "tonight",
        "tomorrow",
        "last",
        "next",
        "this",
        "past",
        "week",
        "weekend",
        "month",
        "year",
        "day",
        "days",
        "weeks",
        "ago",
        "in",
        "of",
        "on",
        "the",
        "Friday",
        "Fri",
        "Sat",
        "sun",
        "May",
        "may",
        "March",
        "mar",
        "Jan",
        "dec",
        "June",
        "3rd",
        "15th",
        "2019",
        "2023",
        "7",
        "a",
        "couple",
        "few",
        "early",
        "late",
        "mid",
        "beginning",
        "end",
        "morning",
        "afternoon",
        "since",
        "Jan",
        "Sept",
        "coming",
        "Tues",
        "1st",
        "4th",
        "of",
    ]
)


@given(words=st.lists(PLAIN_WORDS, max_size=30), when=DAYS)
def test_text_with_no_time_words_keeps_its_words_and_gets_only_its_own_day(words: list[str], when: date) -> None:
    text = " ".join(words)
    assert not has_time_words(text)
    assert resolve(text, when) == []
    assert dated_text(text, when) == f"{text}\n{day_term(when)} {week_term(when)} {month_term(when)} {year_term(when)}"


@given(words=st.lists(st.one_of(PLAIN_WORDS, TIME_WORDS), max_size=14), when=DAYS)
def test_whatever_resolves_is_a_time_word_and_the_text_is_kept(words: list[str], when: date) -> None:
    text = " ".join(words)
    spans = resolve(text, when)
    assert not spans or has_time_words(text)
    assert all(span.start <= span.end and span.phrase in text for span in spans)
    assert dated_text(text, when).split("\n")[0] == text
    assert set(calendar_terms(text, when)) >= {day_term(when), month_term(when)}


def test_words_that_only_look_like_months_are_not_dates() -> None:
    anchor = date(2023, 5, 8)
    assert resolve("you may 3 times try, to march on, the 18th birthday", anchor) == []
    assert resolve("it may be", anchor) == [] and not has_time_words("it may be")


# -- questions ---------------------------------------------------------------------------------


@given(day=st.dates(min_value=date(1990, 1, 1), max_value=date(2090, 12, 31)), today=DAYS)
def test_a_question_naming_a_day_asks_for_that_day(day: date, today: date) -> None:
    month = MONTH_NAMES[day.month - 1]
    assert question_terms(f"What did she do on {day.day} {month}, {day.year}?", today) == [day_term(day)]
    assert question_terms(f"What happened in {month} {day.year}?", today) == [month_term(day)]


def test_a_question_without_a_year_asks_for_that_date_in_every_recent_year() -> None:
    terms = question_terms("Which outdoor spot did Joanna visit in May?", date(2026, 11, 27))
    assert {"m202205", "m202305", "m202605"} <= set(terms) and len(terms) <= 12


def test_periods_in_questions() -> None:
    today = date(2026, 11, 27)
    between = question_terms("Where was John between August 11 and August 15 2023?", today)
    assert between == [day_term(date(2023, 8, day)) for day in range(11, 16)]
    before = question_terms("Where was Tim in the week before 16 November 2023?", today)
    assert before == [day_term(date(2023, 11, day)) for day in range(9, 16)]
    early = question_terms("Which tournament did Nate win in the beginning of November 2022?", today)
    assert early == [week_term(date(2022, 11, 1)), week_term(date(2022, 11, 10))]
    assert question_terms("When did Caroline go to the LGBTQ support group?", today) == []


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("When did Caroline go to the LGBTQ support group?", True),
        ("How long has Nate had his first two turtles?", True),
        ("What year did John start surfing?", True),
        ("How many weeks ago did she start?", True),
        ("What did Caroline research?", False),
        ("Where did Joanna travel to in July 2022?", False),
    ],
)
def test_which_questions_ask_when(question: str, asks: bool) -> None:
    assert asks_when(question) is asks


@given(anchor=DAYS)
def test_the_context_says_the_day_and_what_yesterday_was(anchor: date) -> None:
    said = datetime(anchor.year, anchor.month, anchor.day, 13, 56, tzinfo=UTC)
    before = anchor - timedelta(days=1)
    told = told_when("I ran the charity race yesterday", said)
    assert told == (
        f"{anchor.day} {MONTH_NAMES[anchor.month - 1]} {anchor.year}; "
        f"yesterday: {before.day} {MONTH_NAMES[before.month - 1]} {before.year}"
    )
    assert told_when("It was on May 7, 2023", said) == told.split(";")[0]  # a date said is not repeated


PHRASES = st.sampled_from(["yesterday", "last Saturday", "next month", "two weeks ago", "tomorrow", "last year"])


@given(anchor=DAYS, phrase=PHRASES, before=st.text(max_size=40), after=st.text(max_size=40))
def test_a_fact_keeps_the_day_its_relative_words_meant_and_dating_it_again_changes_nothing(
    anchor: date, phrase: str, before: str, after: str
) -> None:
    said = datetime(anchor.year, anchor.month, anchor.day, 9, 30, tzinfo=UTC)
    text = f"The user ran a 10k {phrase}. {before}"[:200] + after
    dated = with_dates(text, said)
    assert with_dates(dated, said) == dated
    assert re.sub(r" \([^()]*\d{4}\)", "", dated) == re.sub(r" \([^()]*\d{4}\)", "", text)  # only dates added
    [span] = list(resolve(f"The user ran a 10k {phrase}.", anchor))
    assert f"{phrase} ({spoken(span)})" in dated


@given(anchor=DAYS, later=st.integers(1, 400), phrase=PHRASES)
def test_a_fact_rewritten_later_keeps_the_days_its_words_meant_then(anchor: date, later: int, phrase: str) -> None:
    """The rules rewrite a fact in the user's words (`undated`); written again, the phrases it kept keep the day
    they meant when they were said, whatever day the change came."""
    said = datetime(anchor.year, anchor.month, anchor.day, 9, 30, tzinfo=UTC)
    dated = with_dates(f"The user is going to Lisbon {phrase}", said)
    assert undated(dated) == f"The user is going to Lisbon {phrase}"
    rewritten = undated(dated).replace("Lisbon", "Porto")
    assert with_dates(rewritten, said + timedelta(days=later), dated) == dated.replace("Lisbon", "Porto")


def test_a_phrase_the_change_says_again_is_dated_anew_and_a_users_own_year_stays() -> None:
    may, september = datetime(2023, 5, 2, tzinfo=UTC), datetime(2023, 9, 2, tzinfo=UTC)
    dated = with_dates("The user's trip to Lisbon is next month", may)
    assert dated == "The user's trip to Lisbon is next month (June 2023)"
    moved = with_dates(undated(dated), september, dated, "we moved the trip to next month.")
    assert moved == "The user's trip to Lisbon is next month (October 2023)"
    assert undated("The user's last trip (2019) was to Rome") == "The user's last trip (2019) was to Rome"


def test_only_words_that_point_from_the_moment_are_dated() -> None:
    said = datetime(2026, 1, 8, 9, 30, tzinfo=UTC)
    habit = "The user eats vegetarian on the 1st and 15th of the lunar month"
    assert with_dates(habit, said) == habit  # a habit, not a day
    assert with_dates("The user met Jo last Saturday", said) == "The user met Jo last Saturday (3 January 2026)"


def test_weekday_names_cover_every_abbreviation() -> None:
    assert {WEEKDAYS[name] for name in ("mon", "tue", "tues", "wed", "thu", "thurs", "fri", "sat", "sun")} == set(
        range(7)
    )
