"""Time in what was said, end to end (issue 28): a turn that says "yesterday" is indexed with the day
it meant, found by a question naming that day, and shown in the context block with it; a fact read
from it says which day it was. The resolution of dates itself: tests/unit/test_dates.py.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memoir import Memoir
from memoir.retrieval import format_context
from memoir.retrieval.stages import Candidate
from memoir.retrieval.when import favour_time_words

MAY_8 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
TURNS = [
    (datetime(2023, 4, 2, 10, 0, tzinfo=UTC), "Melanie", "I signed up for a charity race, so I'm training."),
    (datetime(2023, 4, 2, 10, 1, tzinfo=UTC), "Caroline", "That's great! Which race is it?"),
    (datetime(2023, 4, 20, 18, 0, tzinfo=UTC), "Melanie", "My kids and I painted a sunrise together."),
    (datetime(2023, 4, 20, 18, 1, tzinfo=UTC), "Caroline", "I love that, painting is so calming."),
    (MAY_8, "Melanie", "I ran the charity race yesterday, it was for mental health."),
    (MAY_8 + timedelta(minutes=1), "Caroline", "Wow, how did it go? I went to a support group."),
    (datetime(2023, 5, 25, 9, 0, tzinfo=UTC), "Melanie", "We're going camping in June with the kids."),
    (datetime(2023, 5, 25, 9, 1, tzinfo=UTC), "Caroline", "Camping sounds fun, enjoy the outdoors."),
]
RACE = "I ran the charity race yesterday, it was for mental health."


@pytest.fixture
def conversation(memoir: Memoir) -> Memoir:
    memoir.ingest(
        [
            {
                "session_id": f"s{when:%m%d}",
                "conversation_id": "locomo",
                "event_type": "user_message" if speaker == "Melanie" else "assistant_message",
                "timestamp": when.isoformat(),
                "text": text,
                "metadata": {"speaker": speaker},
            }
            for when, speaker, text in TURNS
        ]
    )
    memoir.flush()
    return memoir


@pytest.mark.parametrize(
    "question",
    [
        "When did she run the charity race? May 7, 2023",
        "What did she do on 7 May 2023?",
        "What did Melanie do on May 7th, 2023?",
    ],
)
def test_a_turn_that_said_yesterday_is_found_by_the_day_it_meant(conversation: Memoir, question: str) -> None:
    hits = conversation.search(question, conversation_id="locomo", k=3, kinds=["turn"])
    assert hits[0].text == RACE  # the stored and shown text is what was said
    assert "keyword" in hits[0].sources


def test_a_when_question_favours_the_turn_that_says_when(conversation: Memoir) -> None:
    hits = conversation.search("When did Melanie run the charity race?", conversation_id="locomo", k=3, kinds=["turn"])
    assert hits[0].text == RACE
    said_when = Candidate(1, fused=0.45, sources=["keyword"])
    other = Candidate(2, fused=0.5, sources=["keyword"])
    texts = {1: "I ran the charity race last Saturday", 2: "The charity race raised a lot for mental health"}
    when = favour_time_words([other, said_when], texts, "When did she run the race?", 0.1)
    assert [c.item_id for c in when] == [1, 2]
    what = favour_time_words([other, said_when], texts, "What did she run the race for?", 0.1)
    assert [c.item_id for c in what] == [2, 1]


def test_the_context_block_tells_the_day_and_what_yesterday_meant(conversation: Memoir) -> None:
    hits = conversation.search("When did Melanie run the charity race?", conversation_id="locomo", kinds=["turn"])
    lines = format_context(hits).text.splitlines()
    assert f'Melanie said: "{RACE}" (8 May 2023; yesterday: 7 May 2023)' in lines
    assert all(re.search(r'said: ".*" \(\d{1,2} (April|May) 2023[;)]', line) for line in lines)  # every turn's day


def test_reindexing_leaves_dated_items_as_they_are(conversation: Memoir) -> None:
    question = "What did she do on 7 May 2023?"
    before = [(h.text, h.score, h.event_ids) for h in conversation.search(question, conversation_id="locomo")]
    conversation.reindex()
    assert [(h.text, h.score, h.event_ids) for h in conversation.search(question, conversation_id="locomo")] == before


def test_a_fact_read_from_yesterday_says_which_day_it_was(tmp_path: Path) -> None:
    with Memoir.open(tmp_path, worker_enabled=False, embedding_provider="hashing") as memoir:
        memoir.ingest(
            [
                {
                    "session_id": "s",
                    "event_type": "user_message",
                    "text": "I ran my first 10k yesterday!",
                    "timestamp": MAY_8,
                }
            ]
        )
        memoir.flush(timeout=60)
        assert [m.content for m in memoir.memories(kind="fact")] == [
            "The user ran their first 10k yesterday (7 May 2023)"
        ]


def _told(memoir: Memoir, *turns: tuple[datetime, str]) -> list[str]:
    memoir.ingest(
        [{"session_id": "s", "event_type": "user_message", "text": text, "timestamp": when} for when, text in turns]
    )
    memoir.flush(timeout=60)
    return sorted(m.content for m in memoir.memories(kind="fact"))


def test_a_fact_changed_later_keeps_the_day_its_words_meant(tmp_path: Path) -> None:
    """ "next year" said in December 2025 is 2026 when January's message moves the wedding, and memoir's own "(2026)"
    is no date the change could move instead of the one the user gave."""
    with Memoir.open(tmp_path, worker_enabled=False, embedding_provider="hashing") as memoir:
        facts = _told(
            memoir,
            (datetime(2025, 12, 20, 9, 0, tzinfo=UTC), "Our wedding is next year on the 14th of June."),
            (datetime(2026, 1, 10, 9, 0, tzinfo=UTC), "We have pushed the wedding to the 11th of October."),
        )
        assert facts == ["The user's wedding is next year (2026) on the 11th of October"]


def test_two_sentences_of_one_message_change_one_fact_in_turn(tmp_path: Path) -> None:
    """The second change is made to the version the first one wrote (a memory updated has a new id)."""
    with Memoir.open(tmp_path, worker_enabled=False, embedding_provider="hashing") as memoir:
        facts = _told(
            memoir,
            (MAY_8, "I lead a backend team of nine at Zalando here in Berlin."),
            (
                MAY_8 + timedelta(days=30),
                "Big change since we last spoke: I started at Contoso last week. Same role, backend team lead, "
                "but the team is smaller, five engineers.",
            ),
        )
        assert facts == ["The user leads a backend team of five at Contoso here in Berlin"]
