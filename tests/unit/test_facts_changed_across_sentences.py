"""Changes told over several sentences of a message, or of what a fact says besides (the eleventh session's
classes, from the blind sets): a fact changed twice in one message ("pushed the wedding to October … it's the
11th of October now"), a thing ruled out by what it cannot do ("the barn only seats 130 so that's out"), a value
ruled out that leaves the rest of its fact ("windows was too slow" of "python 3.9 on windows 10, with VS Code"),
a medicine stopped by a word for its kind ("took me off the old pill"), a job ending on its last day, someone of
the user's leaving as they told it, a rent said bare ("Rent is ₹21,000 here"), someone new named after their role
("we found our new CTO: Elena"), and a place said in passing that changes nothing ("… graduation in Lagos").

Read as a spec, as tests/unit/test_fact_rules.py is: each case a way of saying it, with the facts kept.
"""

from __future__ import annotations

import pytest

from memoir.ingest import extract_by_rules
from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # a fact changed by one sentence and again by the next; a place in passing is no new value of anything
        (
            [
                "I am getting married to my fiancé Tunde, and the wedding is meant to be next year on the 14th of "
                "June.",
                "Okay so, big news, sort of. We have pushed the wedding to October. The 14th of June clashes with "
                "Tunde's brother's graduation in Lagos, and honestly October in the Peaks is lovely, so it is the 11th "
                "of October now.",
            ],
            [
                "The user is getting married to Tunde",
                "The user's fiancé is Tunde",
                "The user's wedding is meant to be next year on the 11th of October",
            ],
        ),
        (
            [
                "I lead a backend team of nine at Zalando here in Berlin.",
                "Big change since we last spoke: I started at Contoso last week. Same role, backend team lead, but "
                "the team is smaller, five engineers.",
            ],
            ["The user leads a backend team of five at Contoso here in Berlin"],
        ),
        # a thing ruled out by what it cannot do; not one closed for the day
        (
            [
                "The venue we love is this converted barn in the Peak District.",
                "Ugh, the barn only seats 130 so that's out. We've booked Hazelwood Hall in Cheshire instead.",
            ],
            ["The user has booked Hazelwood Hall in Cheshire"],
        ),
        (
            ["I go to the gym on Mondays.", "The gym is closed today so that's out."],
            ["The user goes to the gym on Mondays"],
        ),
        # a value ruled out leaves the rest of its fact, which later changes change in turn
        (
            [
                "I use python 3.9 on windows 10, with VS Code.",
                "ok I formatted my notebook yesterday and installed ubuntu 22.04, windows was too slow. now I am on "
                "linux",
                "and I upgraded to python 3.12 too, because of the new setup",
                "one more: I moved from VS Code to Neovim last week, a friend convinced me.",
            ],
            [
                "The user formatted their notebook yesterday",
                "The user installed ubuntu 22.04",
                "The user is on linux",
                "The user moved to Neovim last week",
                "The user uses python 3.12, with Neovim",
            ],
        ),
        # a medicine stopped by a word for its kind, and the one named after it; not when two are known
        (
            [
                "I've got type 2 diabetes, been on metformin about six years now.",
                "Speaking of the sugar, the doctor took me off the old pill. He says the Jardiance works better for "
                "the kidneys.",
            ],
            ["The user has type 2 diabetes", "The user takes Jardiance"],
        ),
        (
            ["I take metformin and sertraline every morning.", "The doctor took me off the old pill."],
            ["The user takes metformin and sertraline every morning"],
        ),
        (
            ["I take metformin every morning.", "The doctor took me off metformin. He put me on Jardiance instead."],
            ["The user is on Jardiance now"],
        ),
        # a job ends on its last day; someone leaves as they told it, and what follows of them is their story
        (
            [
                "american in seoul, 6 years now. teaching at a hagwon in mapo.",
                "and got the job. hanbit international school in bundang, starting aug. last day at the hagwon is "
                "july 31",
            ],
            ["The user got the job, hanbit international school in bundang"],
        ),
        (
            [
                "My co-founder Marcus, our CTO, thinks updates should be dry and factual.",
                "Big week. Marcus told me he's leaving. He wants to go back to research.",
            ],
            [],
        ),
        # "one" standing for a thing said before is no count of anything
        (
            [
                "also our fiat 500 is a joke with a pram we literally cant fit anything in the boot",
                "went with the octavia estate, 2019 one, the boot is massive. picked it up today",
            ],
            ["The user's fiat 500 is a joke with a pram the user literally can't fit anything in the boot"],
        ),
        # a plan called off takes none of its people with it
        (
            [
                "Peggy and I were planning to take the bus tour down to Branson in October with our church group.",
                "Thank you. The Branson trip is off too. Peggy needs her knee replaced and the surgery is set for "
                "October 9, so we'll be staying home this fall.",
            ],
            ["Peggy needs her knee replaced and the surgery is set for October 9"],
        ),
        # someone replaced in a role only is still there: what the message says of them is kept
        (
            [
                "Our offsite is in May, and Elena is planning it.",
                "No, Ravi is planning it now, not Elena. She's on parental leave until October.",
            ],
            [
                "Elena is on parental leave until October",
                "Ravi is planning the user's offsite",
                "The user's offsite is in May",
            ],
        ),
        # a rent said as paid, then bare after a move
        (
            [
                "We live in Pune and currently pay ₹24,000 rent for a 2BHK in Baner.",
                "Also, we had to move. The landlord in Baner is selling the flat, so since last week we are in a 2BHK "
                "in Hinjewadi, closer to my new office. Rent is ₹21,000 here.",
            ],
            [
                "The user is in a 2BHK in Hinjewadi, closer to their new office since last week",
                "The user lives in Pune",
                "The user's rent is ₹21,000 here",
            ],
        ),
    ],
)
def test_a_change_told_over_sentences_replaces_what_it_changes(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("And we found our new CTO: Elena, ex-N26, starts in two weeks.", ["The user's new CTO is Elena"]),
        ("We finally hired our new head chef, Tomás, who starts Monday.", ["The user's new head chef is Tomás"]),
        ("I got a new dentist: Dr. Reyes.", ["The user's dentist is Dr. Reyes"]),
        ("We live in Leeds and have two dogs.", ["The user lives in Leeds", "The user has two dogs"]),
        ("I live in Pune and pay 24,000 rent.", ["The user lives in Pune", "The user pays 24,000 rent"]),
        ("Now Zosia need new school in Swords.", []),
    ],
)
def test_what_a_sentence_says_of_the_user(said: str, facts: list[str]) -> None:
    assert extract_by_rules(said) == facts
