"""Dictated messages, and changes said of what the user has, where they work and what they planned.

Issue 25's ninth blind set: a message dictated by voice comes without a stop or a comma, and is read in the sentences
it was said in; a new truck, a job accepted, a rent going up, a move to night shifts, a pet put to sleep and flights
cancelled replace what was known; what is said of someone's family beside a change of plan does not.
"""

from __future__ import annotations

import pytest

from memoir.ingest.dictation import punctuated
from tests.unit.test_fact_rules import settle

LORRAINE = (
    "ok hi this is Lorraine I'm dictating this in the car so sorry if it comes out a bit weird we're doing up the "
    "kitchen at our place in Bendigo and I need help working out what order things happen in like do the floors go "
    "down before the cabinets or after"
)


def test_a_dictated_message_is_read_in_the_sentences_it_was_said_in() -> None:
    assert punctuated(LORRAINE).startswith(
        "ok hi this is Lorraine. I'm dictating this in the car so sorry if it comes out a bit weird. we're doing up"
    )
    assert settle([LORRAINE]) == [
        "The user is doing up the kitchen at their place in Bendigo",
        "The user's name is Lorraine",
    ]


@pytest.mark.parametrize(
    "text",
    [
        # short, or punctuated: written, not dictated
        "ok so im 15 and i play valorant every day",
        "We live in East Legon with my mum who helps with Kwame. I'm lactose intolerant by the way if you're asking",
    ],
)
def test_a_message_written_is_read_as_written(text: str) -> None:
    assert punctuated(text) == text


def test_a_thing_named_then_what_a_subject_says_of_it_is_one_sentence() -> None:
    said = (
        "right ok that makes sense and the builder we've got lined up is Tony he did my sister's bathroom and he is "
        "lovely and kind and very good at what he does in every way"
    )
    assert "the builder we've got lined up is Tony" in punctuated(said)


@pytest.mark.parametrize(
    ("spoken", "written"),
    [
        (
            "Colin wants spotted gum for the benchtop because his dad was a timber cutter and it will look gorgeous "
            "with the white cupboards full stop how do you keep timber benchtops from going manky around the sink",
            "with the white cupboards. how do you keep",
        ),
        (
            "if we won Tattslotto I'd just knock the whole place down and start again but we won't so anyway I play "
            "bowls Thursday arvos so I'll come back to this Friday thanks love",
            "so anyway. I play bowls",
        ),
    ],
)
def test_punctuation_said_aloud_and_new_subjects_end_a_sentence(spoken: str, written: str) -> None:
    assert written in punctuated(spoken)
    assert "Tattslotto." not in punctuated(spoken)  # "if …": what would follow is not said to be so


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # a thing's make or model replaced: "a Golf", "DAF XF" are values of the user's car or truck
        (["My car is a Golf.", "My car is a Polo now."], ["The user's car is a Polo now"]),
        (
            [
                "My truck now is DAF XF, is ok but the seat is killing my back.",
                "First week at Tesco finish. Truck is Scania R450, much better seat than old DAF.",
            ],
            ["The user's truck is Scania R450"],  # the comparison with the old one names it: no part of the fact
        ),
        # a job accepted by the employer's name replaces the employer known
        (
            ["I drive HGV for Eddie Stobart.", "Ok I decide. I accept Tesco job, I start 1st of June."],
            ["The user accepts Tesco job", "The user starts 1st of June"],
        ),
        (["I work at Deloitte.", "I might take the KPMG offer."], ["The user works at Deloitte"]),
        # what the rent will be, said after the news of it
        (
            ["Rent is 620 euro.", "Bad news, landlord send letter, the rent will be 700 from September. Haay."],
            ["The user's rent will be 700 from September"],
        ),
        # a move to another shift, from the user's schedule
        (
            ["My schedule is day shift.", "I will change to night shift from next month."],
            ["The user will change to night shift from next month"],
        ),
        # a pet put to sleep takes what was known of it along; the news of it is no fact
        (
            [
                "I take my springer spaniel, Bramble, along it to the Stray at seven o'clock each morning.",
                "I have some sad news. Bramble was put to sleep on Friday; he was fourteen.",
            ],
            ["Bramble was put to sleep on Friday"],
        ),
        # the shop's rent, its first word known as the shop's, and what it is becoming
        (
            [
                "I am having one kirana shop in Kothrud, Pune.",
                "One more thing. Shop rent is 28,500 per month, and my helper boy Vikas is getting 9,000.",
                "Haha, pickle is difficult. Landlord has sent notice, rent is becoming 31,000 from April.",
            ],
            [
                "The user is having one kirana shop in Kothrud, Pune",
                "The user's helper boy Vikas is getting 9,000",
                "The user's rent is becoming 31,000 from April",
            ],
        ),
        # what declined the user, said tersely or in lower case, ends what the user had with it
        (["I have a final round w/ Cloudflare Thurs.", "Cloudflare: rejected. Fine."], []),
        (
            ["I applied for a saturday job at Nandos.", "UPDATE nandos ghosted me but greggs said yes!!!"],
            [],
        ),
        # flights cancelled end the trip booked to fly; someone else's do not
        (["I have provisionally booked to fly out in September.", "I have cancelled the flights."], []),
        (
            ["I'm flying to Lisbon on 3 May.", "My brother cancelled his flights."],
            ["The user is flying to Lisbon on 3 May"],
        ),
        # "the Toronto journey" names no one "he" is; what is said of Nigel's wife is not where Nigel lives
        (
            [
                "My son Nigel lives in Toronto.",
                "Nigel and I have agreed that the Toronto journey is too much for me this year, so I have cancelled "
                "the flights. He and his wife will come to me here for Christmas instead.",
            ],
            [
                "Nigel's wife will come to the user here for Christmas",
                "The user and Nigel have agreed that the Toronto journey is too much for the user this year",
                "The user's son Nigel lives in Toronto",
            ],
        ),
    ],
)
def test_a_change_of_what_the_user_has_or_planned_replaces_the_old_value(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # names and ages said alone, three of them or a baby's in months: the user's children
        (
            ["Nat here. 3 kids, 1 car, zero time. Ollie 9, Ava 7, Finn 14 months."],
            [
                "The user has 3 kids",
                "The user's child Ava is 7",
                "The user's child Finn is 14 months",
                "The user's child Ollie is 9",
                "The user's name is Nat",
            ],
        ),
        (["our children Emil (7) and Greta (4)"], ["The user's child Emil is 7", "The user's child Greta is 4"]),
        # two names with numbers are a score as often as ages
        (["Arsenal 2, Chelsea 1."], []),
    ],
)
def test_names_listed_with_ages_are_the_users_children(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # one thing said of a person between commas, and what the sentence goes on to say
        (
            ["My son Nigel, who lives in Toronto, has been pressing me to visit."],
            ["Nigel lives in Toronto", "The user's son Nigel has been pressing the user to visit"],
        ),
        (
            ["My daughter, Carol, who lives in Charlotte, has offered to type up whatever I write by hand."],
            ["Carol lives in Charlotte", "The user's daughter is Carol"],
        ),
        (
            ["My granddaughter, who is reading law at Durham, would be appalled at the lapse."],
            [
                "The user's granddaughter is reading law at Durham",
                "The user's granddaughter would be appalled at the lapse",
            ],
        ),
        # more than one thing said: as before, who she is
        (
            ["Her mom is my sister Dot, who lives in Broken Arrow too and has opinions about everything."],
            ["The user's sister is Dot"],
        ),
        # a job said alone with where it is held, and its hours; an engineer as engineers write it
        (
            ["Constraints:\n- pharmacist @ Northern General, 8-4 Mon-Fri\n- daughter Meera, 9, football Sat am"],
            [
                "The user is a pharmacist at Northern General",
                "The user's daughter Meera is 9",
                "The user's daughter Meera, football Sat am",
            ],
        ),
        (
            ["Backend eng at N26, Berlin. Golang mostly."],
            ["The user is a Backend eng at N26", "The user lives in Berlin"],
        ),
        (["Eng, not sales."], []),
        # "it is …" after a question names what was asked about, no sign-on that renames the user
        (
            [
                "My name is Joseph Kamau.",
                "Can you show me simple way to record contributions on my phone? It is Tecno Spark.",
            ],
            ["The user's name is Joseph Kamau"],
        ),
        (["Hi! Can you help? It's Sam, by the way."], ["The user's name is Sam"]),
        # a break-up said as second-language English says it: news, and the plan with him over
        (
            [
                "Also me and my boyfriend Mark, we are planning to go to Iceland in December.",
                "Me and Mark we broke up already last week. So no more Iceland.",
            ],
            ["The user and Mark broke up already last week"],
        ),
        # where in the hospital, after where: part of the job
        (
            ["I am Rowena, staff nurse here in Galway University Hospital, in ICU."],
            ["The user is a staff nurse in Galway University Hospital, in ICU", "The user's name is Rowena"],
        ),
        # a move of someone the user named earlier moves them, not the user
        (
            [
                "I am a retired schoolteacher living in Asheville, North Carolina.",
                "My daughter, Carol, who lives in Charlotte, has offered to type up whatever I write by hand.",
                "Carol has had a change of circumstance: she accepted a position in Atlanta and moved there last week.",
            ],
            [
                "Carol accepted a position in Atlanta and moved there last week",
                "Carol has had a change of circumstance",
                "The user is a retired schoolteacher living in Asheville, North Carolina",
                "The user's daughter is Carol",
            ],
        ),
        # praise with an eye-roll is not meant; an eye-roll at a fact is annoyance, and the fact stands
        (["i LOVE waking up at 6 on a saturday 🙄"], []),
        (["my boss moved the deadline to Friday 🙄"], ["The user's boss moved the deadline to Friday"]),
        # how fast the message was typed is talk about the message
        (
            ["Sorry, mistake — Thursday is our weekly off, not Tuesday. I am typing too fast."],
            ["Thursday is the user's weekly off"],
        ),
        # what is said of his wife beside a change of plan is not where he lives
        (
            [
                "My son Nigel, who lives in Toronto, has been pressing me to visit.",
                "Nigel and I agreed the journey is too much. He and his wife will come here for Christmas instead.",
            ],
            [
                "Nigel lives in Toronto",
                "Nigel's wife will come here for Christmas",
                "The user and Nigel agreed the journey is too much",
                "The user's son Nigel has been pressing the user to visit",
            ],
        ),
    ],
)
def test_what_is_said_between_commas_and_in_notes_is_read(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts
