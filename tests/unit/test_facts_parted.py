"""Who leaves the user's life in a role, what an organisation declines, and notes written as `key = value`.

Issue 25's ninth blind set and the stale values the earlier sets left: "Okafor is retiring at the end of term" ends
the user's supervisor Okafor, "Kestrel called. They gave the job to an internal candidate" ends the interview with
Kestrel, and a line of notes ("car = Dacia Jogger", "Daily driver: ThinkPad X1 Carbon") says what the user has.
"""

from __future__ import annotations

import pytest

from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # someone in a role of the user's, named without "my", leaving it for good
        (
            [
                "My supervisor, Dr. Okafor, says it's too long.",
                "Ugh, bad news. Okafor is retiring at the end of term, so I'm being moved to Dr. Lindqvist.",
            ],
            ["The user is being moved to Dr. Lindqvist"],
        ),
        (
            [
                "My flatmate Irene loves it.",
                "Bigger news: Irene is moving out in November and my boyfriend Pau is moving in.",
            ],
            ["Pau is moving in", "The user's boyfriend is Pau"],
        ),
        # "May" the month is a date, not a hedge
        (
            ["My flatmate Irene loves it.", "Irene is moving out in May, so I'm looking for someone."],
            [],
        ),
        # whom the sentence gives the role to says whose it was, known or not
        (
            [
                "this is good but my supervisor dr hebert wants full draft 6 weeks before the defense",
                "update: hebert announced he's retiring in march (!!!) so dr okafor is taking over as my supervisor",
            ],
            ["Dr Okafor is taking over as the user's supervisor"],
        ),
        # a replacement said beside the leaving still renames the known fact
        (
            ["My doctor is Dr. Patel.", "Switched doctors too, Patel retired, new guy is Dr. Okafor at Kettering."],
            ["The user's doctor is Dr. Okafor"],
        ),
        # an organisation that declined the user: what the user had with it is over
        (
            [
                "Good news! I have final interview with Kestrel Construction on Thursday, senior QS role.",
                "Kestrel called. They gave the job to an internal candidate 😞 They said it was very close.",
            ],
            [],
        ),
        (
            [
                "the working title is 'Pim and the Long Night'. it's for Ljusglimt Förlag, a publisher in Gothenburg",
                "ok so Ljusglimt passed 😔 but Bokverket in Stockholm wants it!! contract next week",
            ],
            ["The user's working title is 'Pim and the Long Night'"],
        ),
    ],
)
def test_who_leaves_a_role_or_declines_takes_what_was_known_along(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # out for a while, or leaving something else: nothing ends
        (
            ["My boss is Tom.", "Tom left early today, so I finished the report alone."],
            ["The user finished the report alone", "The user's boss is Tom", "Tom left early today"],
        ),
        (
            ["My boss is Tom.", "Tom is leaving for Paris tomorrow."],
            ["The user's boss is Tom", "Tom is leaving for Paris tomorrow"],
        ),
        (["My flatmate is Irene.", "Irene is maybe moving out in November."], ["The user's flatmate is Irene"]),
        (
            ["My coach is Dana.", "Dana left a voicemail about Saturday."],
            ["Dana left a voicemail about Saturday", "The user's coach is Dana"],
        ),
        # an organisation that did something else
        (
            ["I work at Kestrel.", "Kestrel passed the safety audit."],
            ["The user works at Kestrel"],
        ),
        (
            ["I have an interview with Acme on Friday.", "Acme called. They offered me the job!"],
            ["The user got offered the job", "The user has an interview with Acme on Friday"],
        ),
        # a person of the user's "passed": a death or an exam, never a door closed
        (
            ["My sister is Anna.", "I'm driving Anna to Leeds on Friday.", "Anna passed!"],
            ["The user is driving Anna to Leeds on Friday", "The user's sister is Anna"],
        ),
    ],
)
def test_near_misses_of_leaving_and_declining_keep_what_is_known(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turn", "facts"),
    [
        ("car = Dacia Jogger, Dan takes it on his days.", ["The user's car is Dacia Jogger"]),
        ("- physio = Gareth", ["The user's physio is Gareth"]),
        (
            "Daily driver: ThinkPad X1 Carbon, Arch, neovim.",
            ["The user's daily driver is ThinkPad X1 Carbon, Arch, neovim"],
        ),
        (
            "We have a mini tour in May. shows: Puebla May 5, Guadalajara May 10, Monterrey May 12.",
            [
                "The user has a mini tour in May",
                "The user's shows are Puebla May 5, Guadalajara May 10, Monterrey May 12",
            ],
        ),
        # the first line of a list about the user opens the message: it introduces them
        (
            "Need a marathon plan. Context:\n- Priya, 34\n- Sheffield",
            ["The user is 34 years old", "The user's name is Priya"],
        ),
        # headings, someone else's word, and what is no thing of the user's
        ("Problem: York entry never went through??", []),
        ("- Gareth: ITB. foam roller + glute work", []),
        ("Shows: Puebla May 5, Guadalajara May 10, Monterrey May 12.", []),  # a capitalised word alone may be a name
        ("name: Pixel", []),
        ("current = Brooks Ghost 15", []),
        ("Client context:\n- Tom, 45, electrician", []),
    ],
)
def test_a_note_of_the_users_own_is_read_as_said(turn: str, facts: list[str]) -> None:
    assert settle([turn]) == facts
