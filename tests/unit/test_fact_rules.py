"""The fact rules: what people say becomes facts about "the user", and what they say changed replaces what was known.

Read as a spec: each case is a way people say something (issue 25 quotes them), with the
facts memoir keeps. Whole conversations (tests/data/facts/dev.json) hold the rules to the
issue's targets: at least 85% of the stated facts kept, no stale value left live, no noise.
"""

from __future__ import annotations

import json
import re
from itertools import count
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memoir.ingest import extract_by_rules, read, reconcile_by_rules
from memoir.ingest.casing import names_in
from memoir.ingest.gate import is_fact
from memoir.ingest.rules import known_words
from memoir.ingest.values import values

FACTS = Path(__file__).parents[1] / "data" / "facts"


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # asked to remember
        (
            "Please remember that my cat is called Pixel and she is 4 years old.",
            ["The user's cat is called Pixel", "The user's cat Pixel is 4 years old"],
        ),
        (
            "Remember that I work night shifts at the hospital on Fridays.",
            ["The user works night shifts at the hospital on Fridays"],
        ),
        ("Don't forget: I'm allergic to penicillin.", ["The user is allergic to penicillin"]),
        # introductions, roles and workplaces
        (
            "Hi, I'm Priya. I lead the data platform team at Fernwood.",
            ["The user's name is Priya", "The user leads the data platform team at Fernwood"],
        ),
        (
            "hiroshi here. i run a small ramen shop in vancouver",
            ["The user's name is Hiroshi", "The user runs a small ramen shop in vancouver"],
        ),
        (
            "I'm Noor, a graphic designer from Cairo.",
            ["The user's name is Noor", "The user is a graphic designer from Cairo"],
        ),
        # what follows a name is the user's, article or not: a role on something, a year of study
        (
            "Hi, I'm Faisal, first officer on the A380 with Emirates, based in Dubai.",
            [
                "The user's name is Faisal",
                "The user is a first officer on the A380 with Emirates",
                "The user is based in Dubai",
            ],
        ),
        (
            "hey! I'm Chloe, final year architecture at RMIT, living in Brunswick.",
            [
                "The user's name is Chloe",
                "The user is in final year architecture at RMIT",
                "The user is living in Brunswick",
            ],
        ),
        ("I'm Ana, working on a novel.", ["The user's name is Ana", "The user is working on a novel"]),
        (
            "I'm Femke, 29, now running yoga retreats in Ubud.",
            ["The user's name is Femke", "The user is 29 years old", "The user is now running yoga retreats in Ubud"],
        ),
        # a plan typed without its subject is the user's; a plan with no date is no fact yet
        ("planning to visit my mum in May", ["The user is planning to visit their mum in May"]),
        ("Going to the gym now.", []),
        ("My brother finished uni. planning to move to Berlin next year", ["The user's brother finished uni"]),
        # ...and what follows a name only when it lasts: not a passing state, an anniversary, a year ago
        ("I'm Sam, still waiting for the bus", ["The user's name is Sam"]),
        ("I'm Mo, also a nurse", ["The user's name is Mo", "The user is also a nurse"]),
        ("Was going to move to Lisbon but changed my mind", []),
        ("I'm Ravi, 1st year anniversary today", ["The user's name is Ravi"]),
        ("I'm Ravi, last year I was in Goa", ["The user's name is Ravi"]),
        (
            "I'm Tom, 2nd year computer science student at UCL",
            ["The user's name is Tom", "The user is a 2nd year computer science student at UCL"],
        ),
        # diets, habits, preferences
        ("I'm vegetarian, have been for ten years.", ["The user has been vegetarian for ten years"]),
        ("I drink my coffee black, no sugar.", ["The user drinks their coffee black, no sugar"]),
        ("I moved to Madrid last year.", ["The user moved to Madrid last year"]),
        # people and pets, named on the way
        ("We live in Utrecht, my partner Sven and I.", ["The user lives in Utrecht", "The user's partner is Sven"]),
        (
            "My dog is called Biscuit. He's a three-year-old beagle.",
            ["The user's dog is called Biscuit", "The user's dog Biscuit is a three-year-old beagle"],
        ),
        ("Yes, a plan from my coach Dana.", ["The user's coach is Dana"]),
        # never facts: questions, small talk, the assistant's part, hypotheticals
        ("What's a good icebreaker for eight people?", []),
        ("Is my dentist appointment on Monday or Tuesday?", []),
        ("Thanks! That sounds great.", []),
        ("I think that's all for now. I'm glad I asked.", []),
        ("If I won the lottery I'd move to Iceland.", []),
        ("I love your idea!", []),
        # as people type: informal spellings, asides, a diet without a subject, a bare relation
        ("im a nurse in leeds, ive got two cats", ["The user is a nurse in leeds", "The user has two cats"]),
        (
            "I tour with a country artist (can't say who lol) most of the summer.",
            ["The user tours with a country artist most of the summer"],
        ),
        ("Lactose intolerant, so protein shakes have been tricky.", ["The user is lactose intolerant"]),
        (
            "Son Arjun is 8, he is only interested in cricket.",
            ["The user's son Arjun is 8", "The user's son Arjun is only interested in cricket"],
        ),
        (
            "hey. session guitarist here in nashville, name's Luke.",
            ["The user is a session guitarist in nashville", "The user's name is Luke"],
        ),
        # a name typed in lower case, a job after it
        (
            "hey im ravi, nurse in leeds, need help with a rota",
            ["The user's name is Ravi", "The user is a nurse in leeds"],
        ),
        # a diet said before a remark to the assistant, or as a "don't"
        ("Also I'm coeliac so if you're suggesting snacks keep them gluten free please", ["The user is coeliac"]),
        ("I'm vegan btw if you're planning the menu", ["The user is vegan"]),
        ("I don't eat shellfish, never liked it", ["The user doesn't eat shellfish"]),
        ("I don't know, I don't think so", []),
        # what points outside the message says nothing alone, unless the rest says something
        ("My granddaughter set it up for me.", []),
        ("I keep mixing them up, honestly.", []),
        ("I booked one for Thursday.", []),
        ("We are visiting them in September.", []),
        ("Let me know if you need anything!", []),
        ("I made it in pottery class yesterday.", ["The user made it in pottery class yesterday"]),
        ("I sold it for $5000.", ["The user sold it for $5000"]),
        ("I let her know I'm pregnant.", ["The user let her know they're pregnant"]),
        # a move or a start without where or what, a mood, a request for the assistant's help
        ("We have moved!", []),
        ("We're going in September.", []),
        ("I'm starting in June.", []),
        ("I'm moving next month", ["The user is moving next month"]),
        ("My sister is coming in June.", ["The user's sister is coming in June"]),  # who comes is said
        ("I'm off on Fridays.", ["The user is off on Fridays"]),  # a habit, not a day
        ("My rota changed.", []),
        ("Honestly I'm cooked.", []),
        ("I'm properly panicking.", []),
        ("I have news.", []),
        # the user and someone else: the verb as said ("run", not "runs"), talk still talk
        (
            "My sister Ana and I run a bakery in Porto.",
            ["The user's sister is Ana", "The user and their sister Ana run a bakery in Porto"],
        ),
        ("Me and my brother run a garage in Hull.", ["The user and their brother run a garage in Hull"]),
        ("me and my wife love hiking", ["The user and their wife love hiking"]),
        ("My late husband and I ran a pub in Bath.", ["The user and their late husband ran a pub in Bath"]),
        ("My girlfriend and I are over.", ["The user and their girlfriend are over"]),
        ("My parents are very religious.", ["The user's parents are very religious"]),
        ("Me and my brother's wife run a shop.", ["The user's brother's wife run a shop"]),
        ("I kind of run the team now.", ["The user kind of runs the team now"]),  # the verb after a hedge
        # likes said as what is or is not "my thing"
        (
            "My english is ok but writing sales-y stuff is not my thing",
            ["The user does not like writing sales-y stuff"],
        ),
        ("Mornings aren't for me.", ["The user does not like mornings"]),
        ("Baking is my jam!", ["The user likes baking"]),
        ("It's not my thing.", []),
        ("i already hav a 24 inch monitor", ["The user already has a 24 inch monitor"]),
        ("i work at a tea shop weekends so i can save more", ["The user works at a tea shop weekends"]),
        # what a relative clause says of the user's people
        (
            "I have two kids myself, Youssef who is 8 and Laila who is 5, so I see the struggle at home",
            ["The user has two kids themselves, Youssef (8) and Laila (5)"],
        ),
        (  # said of the neighbour between commas: a fact of its own, not a piece of the user's
            "My neighbour Tom, who is a plumber, fixed our boiler.",
            ["The user's neighbour Tom fixed the user's boiler", "Tom is a plumber"],
        ),
        # a relation, then its name between commas; "off to" is going, not called off
        ("Our youngest, Kate, is off to uni next year.", ["The user's youngest Kate is off to uni next year"]),
        ("My sister, Ana, lives in Porto.", ["The user's sister Ana lives in Porto"]),
        ("Shearing kicks off 3 October so we need someone before then.", []),  # "before" what went
        # things of the user's, with a verb as said
        ("My shifts start at 5am, which is brutal.", ["The user's shifts start at 5am"]),
        ("My parents live in Lyon.", ["The user's parents live in Lyon"]),
        # asked to keep, with no verb: kept as said when it says when
        ("Don't forget: dentist on Tuesday the 9th at 3pm.", ["Dentist on Tuesday the 9th at 3pm"]),
        ("Remember: Tuesday.", []),
        # what others did to the user's plans is said of the plans
        (
            "Also the practice called, they moved my dentist appointment to Thursday the 11th, same time.",
            ["The user's dentist appointment got moved to Thursday the 11th"],
        ),
        ("They pushed our wedding back to June.", ["The user's wedding got pushed back to June"]),
        # what the user did next, after what they took back
        (
            "also i quit the milk tea job lol, got a gig doing video edits for a youtuber instead",
            ["The user got a gig doing video edits for a youtuber"],
        ),
        ("I sort out the rota on Mondays.", ["The user sorts out the rota on Mondays"]),
        ("So I've got two extra weeks.", []),  # time a change left over
        ("Another change I made was switching to decaf.", []),  # not an opener: a sentence
        ("Their wedding got pushed to June.", []),  # someone else's
        ("I have an extra day off on Fridays.", ["The user has an extra day off on Fridays"]),
        ("I have 3 extra tickets.", ["The user has 3 extra tickets"]),
        # an event's date, moved by whatever verb
        ("And the race got pushed to March 2.", ["The user's race got pushed to March 2"]),
        ("The launch was rescheduled to 5 September.", ["The user's launch was rescheduled to 5 September"]),
        ("I would like help writing a patient newsletter.", []),
        ("I'd like some help learning Italian.", ["The user would like some help learning Italian"]),
        ("I'd love some help with my garden.", ["The user would love some help with their garden"]),
        # a relation's name after a title
        (
            "I share a clinic with my colleague Dr. Salma Hegazy.",
            ["The user shares a clinic with Dr. Salma Hegazy", "The user's colleague is Dr. Salma Hegazy"],
        ),
        # "store", "save" and "note" are nouns too: a request only before a stop or their object
        ("Store launch is pushed to 5 September.", ["The user's store launch is pushed to 5 September"]),
        ("Note my flight is on 3 May.", ["The user's flight is on 3 May"]),
        ("Save this: my locker code is 4411.", ["The user's locker code is 4411"]),
        ("note down that my son's school starts at 8:15", ["The user's son's school starts at 8:15"]),
        ("save my seat", []),  # a request, not a note
        ("Tell my wife I'll be home late", []),  # "I'll" is no name
        # what the user asked to keep, as said, with a value or without
        ("Remember that the wifi password is on the fridge.", ["The wifi password is on the fridge"]),
        # a remark on what was just said is not part of it
        (
            "And I drive a little pink scooter named Kiki lol, maybe that's a cute detail for the about page",
            ["The user drives a little pink scooter named Kiki"],
        ),
        (
            "my thesis is on adaptive reuse of old wool stores in Geelong if that matters",
            ["The user's thesis is on adaptive reuse of old wool stores in Geelong"],
        ),
        # a statement before the question it leads to
        (
            "my roommate Hana cooks sometimes so maybe recipes for two?",
            ["Hana cooks sometimes", "The user's roommate is Hana"],
        ),
        ("I have a beagle called Biscuit, what should I feed him?", ["The user has a beagle called Biscuit"]),
        (
            "Also the missus, Trish, wants me to ask: what's a decent ute for towing a horse float?",
            ["The user's wife is Trish"],
        ),
        ("Anyway, how are you?", []),
        # what people call their own
        ("hubby works nights at the depot", ["The user's husband works nights at the depot"]),
        ("My other half is a nurse.", ["The user's partner is a nurse"]),
        ("I met the wife of my boss.", ["The user met the wife of their boss"]),
        # "it" is a thing, never a person named before
        ("My boss Tom is strict. It's been a long week.", ["Tom is strict", "The user's boss is Tom"]),
        # a relation that changes is a fact of its own, the name alone in the rest; a possessive is no name
        (
            "My boyfriend Arjun's mum is visiting in May.",
            ["Arjun's mum is visiting in May", "The user's boyfriend is Arjun"],
        ),
        # what someone did to the user
        ("They made me team lead for Atlas.", ["The user became team lead for Atlas"]),
        (
            "Walker Books signed me for a 3-book series, first one due in September.",
            ["The user got signed by Walker Books for a 3-book series, first one due in September"],
        ),
        ("My boss promoted me to senior engineer.", ["The user got promoted by their boss to senior engineer"]),
        ("The film made me cry.", []),
        ("my mum made me dinner", ["The user's mum made the user dinner"]),  # a meal, not a role
        ("they offered me coffee", []),
        # what a doctor said of the user, wherever it is said
        (
            "Kindly help me prepare a diet chart as doctor has told me my sugar levels are borderline.",
            ["The user's sugar levels are borderline"],
        ),
        (
            "I'm cutting sugar because my doctor says my blood pressure is high.",
            ["The user is cutting sugar", "The user's blood pressure is high"],
        ),
        # where the user is from, without a subject
        ("originally from recife.", ["The user is originally from recife"]),
        ("Born and raised in Cork.", ["The user was born and raised in Cork"]),
        ("I was born and raised in Kerala.", ["The user was born and raised in Kerala"]),  # one verb, not two
        ("my dad was born and raised in Kerala", ["The user's dad was born and raised in Kerala"]),
        ("I was fired and moved back home.", ["The user was fired", "The user moved back home"]),
        # whose, with the thing left unsaid: the thing of the clause before; nothing where nothing is said
        (
            "My phone is an iPhone and my wife's is a Pixel.",
            ["The user's phone is an iPhone", "The user's wife's phone is a Pixel"],
        ),
        ("My car is electric, my wife's is not.", ["The user's car is electric"]),
        ("My wife's is a Pixel.", []),
        (
            "My sister's car is red and my brother's is blue.",
            ["The user's sister's car is red", "The user's brother's car is blue"],
        ),
        (
            "My phone is an iPhone. My wife's is a Pixel.",
            ["The user's phone is an iPhone", "The user's wife's phone is a Pixel"],
        ),
        ("My mum is a nurse and my dad's is a teacher.", ["The user's mum is a nurse"]),  # no thing of the mum's
        ("Our flight will be 2 hours late.", []),  # a delay, not an event's size
        ("My meeting will take 2 hours.", []),
        # an event's size is known before it happens; a drink is no event
        ("Our wedding will have about 140 guests.", ["The user's wedding will have about 140 guests"]),
        ("The wedding will have about 140 guests.", ["The user's wedding will have about 140 guests"]),
        ("The hotel will have 20 rooms.", []),  # no event of the user's
        ("I'll have 2 beers.", []),
        # "here in …" is no residence: a visit, a summer's work, a café ("I'm stuck here in Dubai airport")
        (
            "I sing in the church choir here in Bath on Thursday evenings.",
            ["The user sings in the church choir here in Bath on Thursday evenings"],
        ),
        ("I'm here in Paris for a conference.", ["The user is here in Paris for a conference"]),  # no name "I'm"
        # a holiday says when, as a date does
        (
            "We'll visit my parents in Kisumu over Christmas instead.",
            ["The user will visit their parents in Kisumu over Christmas", "The user's parents live in Kisumu"],
        ),
        # a proposal to the user, accepted: engaged to whom; not anyone else's, not a toast, not yet
        ("Marcus proposed on Saturday and obviously I said yes, we're engaged", ["The user is engaged to Marcus"]),
        ("Rahul proposed to Priya and she said yes, I'm so happy for them", []),
        ("Ravi proposed to me but I haven't said yes yet", []),
        ("Sarah proposed we get pizza and I said yes", []),
        ("Dad proposed a toast and we all said yes", []),
        # a person a fact of the message was about stays the user's business in the next sentence
        (
            "We have two boys, Tobi is 10 and Kunle is 6. Kunle's birthday is coming on 22nd of this month",
            ["The user has two boys", "Tobi is 10", "Kunle is 6", "Kunle's birthday is coming on 22nd of this month"],
        ),
        # "my name is Linh" is a clause, not half of a subject
        (
            "also my name is Linh, and I play guitar in a small acoustic club at uni, Thursdays.",
            ["The user's name is Linh", "The user plays guitar in a small acoustic club at uni, Thursdays"],
        ),
        (
            "omg good news my supervisor gave me an extension, thesis now due 13 November!!",
            ["The user's supervisor gave the user an extension, thesis now due 13 November"],
        ),
        # what the user asks to pass on, of their own life; what brackets say of someone
        ("Let Sandra know my holiday is 14 to 21 July.", ["The user's holiday is 14 to 21 July"]),
        (
            "Tell her the tomatoes in my allotment are doing well, and that Magnus (he's 9) helped me plant them.",
            ["Magnus is 9"],
        ),
        ("Tell him I'm sorry I can't make it.", []),
        ("Tell Santa I want a pony", []),  # only what is of the user's: "my", "our"
        # a plan without its subject, where nobody else was named
        (
            "Anhydrous is running me about 900 a ton. Planning on 160 lbs N per acre for the corn.",
            [
                "The user's anhydrous is running the user about 900 a ton",
                "The user is planning on 160 lbs N per acre for the corn",
            ],
        ),
        ("My brother finished uni. Planning to move to Leeds.", ["The user's brother finished uni"]),
        ("Planning on it", []),
        ("Been working on it", []),
        ("originally from a small town, nothing special", []),
        # a note the user asked to keep, in a few words
        (
            "For future reference: coffee black, and I never eat before a morning run.",
            ["Coffee black", "The user never eats before a morning run"],
        ),
        ("For future reference: thanks", []),
        ("Note to self: buy milk", []),  # a to-do, not a fact
        ("Remember that the earth is round", []),  # not where a thing of the user's is
        ("Please remember that the lighthouse keeper is Ada.", ["The lighthouse keeper is Ada"]),  # a value: as said
        ("I'm not tired at all", ["The user is not tired at all"]),  # "not … at all" takes back only "it"
        # what the user has been doing, without a subject
        (
            "Not much is new. Been working on some projects and testing out dairy-free dessert recipes.",
            ["The user has been working on some projects and testing out dairy-free dessert recipes"],
        ),
        ("Been thinking about you.", []),
        # a plan without a date, when it says what it is; not a promise or a passing "I'll be offline"
        (
            "gonna teach guitar lessons out of my apartment in east nashville",
            ["The user is going to teach guitar lessons out of their apartment in east nashville"],
        ),
        ("I'll be offline.", []),
        ("gonna go to the store and get some milk", []),  # an errand
        ("I'm gonna kill my brother if he takes my charger again", []),
        ("I will definitely check out that book you mentioned.", []),
        # a mood or what the user heard is no fact
        ("Bored on a Sunday, so let's chat.", []),
        ("is Valparaíso safe for a woman living alone? heard mixed things", []),
        # "the thing is …" is a way of speaking; "it's been" is "it has been"
        ("The thing is I'm learning French.", ["The user is learning French"]),
        (
            "My car is a Golf. It's been reliable for 10 years.",
            ["The user's car is a Golf", "The user's car has been reliable for 10 years"],
        ),
    ],
)
def test_what_people_say_becomes_facts_about_the_user(said: str, facts: list[str]) -> None:
    assert extract_by_rules(said) == facts


def settle(turns: list[str]) -> list[str]:
    """The live facts after each turn is read and reconciled with what the turns before left."""
    live: dict[str, str] = {}
    ids = count()
    for before, turn in zip(["", *turns], turns, strict=False):
        names = {name for fact in live.values() for name in names_in(fact)}  # as `live.LiveFacts.names` keeps them
        readings = read(turn, known_words(live.values()), before, names, live.values())
        versions: dict[str, str] = {}  # a memory updated has a new id: a later decision on it is on that one
        for decision in reconcile_by_rules(readings, list(live.items())):
            memory_id = versions.get(str(decision.memory_id), str(decision.memory_id))
            if decision.event in ("UPDATE", "DELETE"):
                live.pop(memory_id)
            if decision.event in ("ADD", "UPDATE"):
                live[new := str(next(ids))] = decision.text
                if decision.event == "UPDATE":
                    versions[str(decision.memory_id)] = new
    return sorted(live.values())


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        (
            ["I live in Utrecht.", "Actually we just moved, I live in Rotterdam now."],
            ["The user lives in Rotterdam"],
        ),
        (
            [
                "I'm training for the Berlin half marathon in April.",
                "I'm not doing Berlin, I switched to the Amsterdam half marathon in March.",
            ],
            ["The user is training for the Amsterdam half marathon in March"],
        ),
        (
            ["Our team offsite is in Porto in May.", "Also, we moved the team offsite from Porto to Lisbon."],
            ["The user's team offsite is in Lisbon in May"],
        ),
        (
            ["Our offsite is in May, and Elena is planning it.", "No, Ravi is planning it now, not Elena."],
            ["Ravi is planning the user's offsite", "The user's offsite is in May"],
        ),
        (
            [
                "I work as a carpenter in Leeds.",
                "I don't work as a carpenter anymore, I'm a joiner at a shipyard in Hull now.",
            ],
            ["The user is a joiner at a shipyard in Hull now"],
        ),
        (
            ["We have a red Volvo.", "We sold the Volvo, we only have an electric Kia now."],
            ["The user only has an electric Kia now"],
        ),
        (
            ["My anatomy exam is on 3 March.", "The exam got moved to 10 March, by the way."],
            ["The user's anatomy exam is on 10 March"],
        ),
        # a date pushed, postponed or brought forward is the event's new date, wherever the sentence starts
        (
            ["Our launch is on 20 August.", "And the launch got pushed to 5 September because the gateway is slow."],
            ["The user's launch is on 5 September"],
        ),
        (
            ["The wedding is on 14 June in Malaga.", "So the wedding got pushed back to 21 June."],
            ["The user's wedding is on 21 June in Malaga"],
        ),
        (
            ["Our offsite is in Porto on 3 May.", "The offsite got brought forward to 26 April."],
            ["The user's offsite is in Porto on 26 April"],
        ),
        (  # the old value named again is still the one replaced
            ["My budget is 500 euros.", "My budget is 600 euros now, up from 500 euros."],
            ["The user's budget is 600 euros"],
        ),
        (  # what moved the event is not the user's ("the rain"), and the event's new time holds
            ["My flight is at 7pm on 3 May.", "The rain delayed our flight to 9pm."],
            ["The user's flight is at 9pm on 3 May"],
        ),
        (  # a race is not every marathon: one run in 2019 keeps its year
            ["I ran my first marathon in 2019.", "The race got pushed to May."],
            ["The user ran their first marathon in 2019", "The user's race got pushed to May"],
        ),
        (  # someone's move changes where they live, not who they are
            ["My brother Tom lives in Leeds.", "Tom moved to York."],
            ["The user's brother Tom lives in York"],
        ),
        (  # a name said before its pronoun
            ["My daughter Yui loves dinosaurs.", "Yui, she's turning 7 on the 12th of August."],
            ["The user's daughter Yui loves dinosaurs", "Yui is turning 7 on the 12th of August"],
        ),
        (  # "one more change" announces one, like "change of plans"
            ["My defense date is set, 14 March!", "Ok. One more change, the defense got moved earlier to 28 February."],
            ["The user's defense date is set, 28 February"],
        ),
        (
            ["My anatomy exam is on 3 March.", "The exam was postponed to 10 March."],
            ["The user's anatomy exam is on 10 March"],
        ),
        (
            ["I'm vegetarian.", "Update: I've gone fully vegan since last month."],
            ["The user has gone fully vegan since last month"],
        ),
        (["I smoke 20 cigarettes a day.", "I stopped smoking last month."], ["The user stopped smoking last month"]),
        (
            [
                "I go to the gym on Mondays and Thursdays.",
                "I no longer go on Thursdays, it's Mondays and Saturdays now.",
            ],
            ["The user goes to the gym on Mondays and Saturdays"],
        ),
        (  # what is dropped ends; a date another clause carries is not its new date
            [
                "I'm studying for the JLPT N3 in December.",
                "I got a postdoc offer in Chile, starting in June, so I dropped the JLPT and I'm doing Spanish instead",
            ],
            ["The user got a postdoc offer in Chile", "The user is doing Spanish"],
        ),
        (
            ["I used to live in halls, but now I share a flat with two friends in the West End."],
            ["The user shares a flat with two friends in the West End"],
        ),
        (
            ["We're thinking of getting a puppy in the spring.", "Also, plot twist, no puppy. We got a kitten."],
            ["The user got a kitten"],
        ),
        (
            ["My boyfriend is Callum.", "Callum and I broke up, so I'm single again."],
            ["The user and Callum broke up", "The user is single again"],  # the break-up is news (decision 126)
        ),
        (
            ["My cousin Arjun is handling logistics.", "And Arjun has left us to do his MBA in Pune."],
            [],
        ),
        (  # a handover named in an apposition after "so": the new person keeps their name
            [
                "My cousin Arjun is handling logistics and shipping.",
                "Arjun has left us, so Meera, our accounts person, has taken over shipping and logistics.",
            ],
            ["The user's accounts person Meera has taken over shipping and logistics"],
        ),
        (  # a count said in other words: "people" for "guests", a size compared for a verb of change
            ["We're expecting about 140 guests at the wedding.", "It got smaller, like 90 people."],
            ["The user is expecting about 90 guests at the wedding"],
        ),
        (  # a number counts what follows it: "10 minutes" away is no headcount, "in person" or not
            [
                "We have about 140 guests for the wedding.",
                "Good news too: she moved back for good! She lives 10 minutes from me now so she can help in person.",
            ],
            ["The user has about 140 guests for the wedding"],
        ),
        (  # a word between the number and the people it counts
            ["We're expecting about 140 guests at the wedding.", "It got smaller, like 90 confirmed people."],
            ["The user is expecting about 90 guests at the wedding"],
        ),
        (
            ["I'm vegetarian.", "And I've started eating fish again, pescatarian now, mum cooks a lot of it."],
            ["The user has started eating fish again", "The user is pescatarian now"],
        ),
        (
            ["I live in Brunswick.", "update I've moved!! me and Jess got a flat in Footscray"],
            ["The user and Jess got a flat in Footscray"],
        ),
        # "from Monday" says when a change holds, not a new value
        (
            [
                "I host the breakfast show, 6 to 9 every weekday.",
                "Big change at work too: new schedule from Monday, I'm doing the drive-time show now, 3 to 6pm.",
            ],
            ["The user is doing the drive-time show now, 3 to 6pm"],
        ),
        # what is not a change leaves what is known alone
        (["I have a cat.", "I also have a dog."], ["The user also has a dog", "The user has a cat"]),
        (["My sister is Jo.", "My sister is Ana."], ["The user's sister is Ana", "The user's sister is Jo"]),
        (["My wife is Jane.", "Sorry, I misspoke: my wife is Anne."], ["The user's wife is Anne"]),
        (["I like sailing.", "I like sailing!"], ["The user likes sailing"]),
        # a change to one part of a fact leaves its other parts as they were
        (
            [
                "I'm a staff nurse at the Royal Infirmary in Leeds, on the cardiac ward.",
                "Update: I've moved off the cardiac ward, I'm in the emergency department now.",
            ],
            [
                "The user is a staff nurse at the Royal Infirmary in Leeds",
                "The user is in the emergency department now",
            ],
        ),
        (
            [
                "I'm a pharmacist at St Mary's Hospital in Bristol.",
                "I've left the hospital, I'm now with the Bristol Health Board.",
            ],
            ["The user is a pharmacist", "The user is now with the Bristol Health Board"],
        ),
        (
            ["Our retreats are 5 days, max 8 guests.", "Quick change: max is now 6 guests."],
            ["The user's retreats are 5 days, max 6 guests"],
        ),
        (
            ["Our class is big, 40 students.", "The classes are smaller now, around 25 students each."],
            ["The user's classes are smaller now, around 25 students each"],
        ),
        # a new job told as a role alone replaces the old one
        (
            [
                "need help with a letter. im sam, barista at a coffee place in leith",
                "update: got it!! head barista at brew lab, started monday",
            ],
            ["The user is a head barista at brew lab", "The user's name is Sam"],
        ),
        # a promotion said alone keeps where the job is; a job said without an article is one
        (
            ["I am chef de partie in a restaurant in Lyon.", "Also I am now sous-chef! Promotion last week"],
            ["The user is now sous-chef in a restaurant in Lyon"],
        ),
        # joining somewhere as a new role is the new job
        (
            [
                "I'm a UX researcher at a fintech startup called Loonie Labs, originally from Ohio.",
                "I got laid off, but I'm joining Shopify as a senior UX researcher starting Nov 4.",
            ],
            [
                "The user got laid off",
                "The user is joining Shopify as a senior UX researcher starting Nov 4",
                "The user is originally from Ohio",
            ],
        ),
        # ...but a belief is no job, a club no employer, a name's comma no detail, a new career no promotion
        (
            ["I'm Buddhist.", "I'm a software engineer at Google."],
            ["The user is Buddhist", "The user is a software engineer at Google"],
        ),
        (
            ["I'm a software engineer at Google.", "I'm joining a local football club as a goalkeeper"],
            ["The user is a software engineer at Google", "The user is joining a local football club as a goalkeeper"],
        ),
        (
            ["I'm a software engineer at Hill, Cole & Partners.", "I'm joining Shopify as a senior developer."],
            ["The user is joining Shopify as a senior developer"],
        ),
        (
            ["I'm a teacher at Leeds Grammar.", "I'm now a freelance translator."],
            ["The user is now a freelance translator"],
        ),
        (  # a number inside another ("2" in "12") is not that one
            ["I go to the gym 3 times a week.", "I no longer go 3 times a week, it's 2 now, I have 12 kids."],
            ["The user goes to the gym 2 times a week", "The user has 12 kids"],
        ),
        # a new employer replaces the old one
        (
            ["I work with Baker Partners in Leeds.", "I have joined a new firm, Hill & Cole, better hours."],
            ["The user has joined a new firm, Hill & Cole, better hours"],
        ),
        # a switch to days is from nights (not from a walk every day)
        (
            ["I walk every day.", "I'm on nights, 7pm to 7am.", "Update: I switched to day shifts!"],
            ["The user switched to day shifts", "The user walks every day"],
        ),
        # a diet taken back in the words of what it is about: "not milk at all" of lactose intolerance
        (
            [
                "My doctor thinks I'm lactose intolerant, so no milk.",
                "Turns out it's not milk at all, I have celiac disease.",
            ],
            ["The user has celiac disease"],
        ),
        # engaged to a boyfriend: who he is to the user now
        (
            ["My boyfriend Marcus is a firefighter.", "Marcus proposed on Saturday and I said yes, we're engaged!"],
            ["Marcus is a firefighter", "The user is engaged to Marcus"],
        ),
        # a switch of shifts is the user's own, and of shifts: not a wife's, not "every day"
        (
            ["I work nights.", "my wife switched to day shifts"],
            ["The user works nights", "The user's wife switched to day shifts"],
        ),
        (
            ["I work night shifts at the hospital.", "I switched gyms, now I go every day"],
            ["The user switched gyms, now they go every day", "The user works night shifts at the hospital"],
        ),
        # "not … at all" takes back only what "it" was
        (["I work at Google.", "The work is not hard at all"], ["The user works at Google"]),
    ],
)
def test_a_change_replaces_what_it_changes_and_nothing_else(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


def has(text: str, phrase: str) -> bool:
    tail = r"\w*" if len(phrase) >= 4 and not phrase.isdigit() else r"(?:s|es|am|pm|th|st|nd|rd)?(?!\w)"
    return re.search(r"(?<!\w)" + re.escape(phrase) + tail, text.lower()) is not None


def test_the_rules_keep_what_was_said_and_leave_nothing_stale_or_noisy_in_whole_conversations() -> None:
    """Issue 25's targets for the rules alone on the conversations written with them (bench/facts.py prints
    these and the two sets written by others)."""
    facts = kept = stale = noise = 0
    for conversation in json.loads((FACTS / "dev.json").read_text()):
        live = settle([t["text"] for t in conversation["turns"] if t["role"] == "user"])
        holds = [lambda m, w=f["words"]: all(has(m, x) for x in w) for f in conversation["facts"]]
        facts += len(conversation["facts"])
        kept += sum(any(hold(m) for m in live) for hold in holds)
        stale += sum(any(all(has(m, x) for x in s["words"]) for m in live) for s in conversation["stale"])
        known = [a["words"] for a in conversation["facts"] + conversation["stale"] + conversation["also_true"]]
        noise += sum(not any(all(has(m, x) for x in w) for w in known) for m in live)
    assert kept >= 0.85 * facts and stale == 0 and noise == 0, (kept, facts, stale, noise)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=200), min_size=1, max_size=4))
def test_any_text_is_read_without_failing_and_every_decision_names_a_known_fact(texts: list[str]) -> None:
    known = {str(n): f"The user likes thing {n}" for n in range(3)}
    for text in texts:
        decisions = reconcile_by_rules(read(text, known_words(known.values())), list(known.items()))
        for decision in decisions:
            assert decision.event in ("ADD", "UPDATE", "DELETE") and decision.text.strip()
            assert (decision.memory_id is None) == (decision.event == "ADD")
            assert decision.memory_id is None or decision.memory_id in known
            assert not decision.text.lower().startswith(("i ", "my ", "i'm ", "we "))  # never the user's own words


@pytest.mark.parametrize("text", ["The user ", "Kiki ", "The user\n", "The curry "])
def test_a_fact_that_is_only_a_subject_is_none_and_no_error(text: str) -> None:
    assert not is_fact(text, text)


@pytest.mark.parametrize(("blanks", "one"), [(" " * 50_000, " "), ("\t " * 20_000, " "), (" \n" * 20_000, "\n\n")])
def test_a_sentence_padded_with_blanks_reads_as_with_one(blanks: str, one: str) -> None:
    """Runs of blanks are one blank to the rules (of lines, one empty line): thousands of them inside a
    sentence cost the patterns quadratic time (4,000 took 7 s; the worker reads every event's text)."""
    from memoir.ingest.rules import statements

    def read(gap: str) -> list[str]:
        return [s.text for s in statements(f"I live in{gap}Leeds. My sister{gap}and I run a shop.")]

    assert read(blanks) == read(one)


@pytest.mark.parametrize(
    "pasted",
    [
        "im destiny, 24, " + ", ".join(str(i) for i in range(4_000)),
        "P" * 20_000 + " (she's 9)",  # a pasted token of capitals
        "1." * 10_000 + " smaller",  # numbers and a size compared
        "My sister, " + "Ana, " * 5_000 + "lives in Porto",
        "I have kids, " + "Ann who is 8 and " * 3_000 + "Bo who is 5",
        "I met " + "Tom who " * 5_000 + "is 8",
        "I love " + "tea, " * 20_000 + "and cake",
        "Our youngest, Kate" + "," * 10_000 + " is off",
        "A'" * 10_000 + " died",  # a run a name may not cross ("O'Brien", "Jean-Luc"), tried once
        "Ab-" * 6_667 + " passed away",
        "since joining " + "Ab " * 5_000 + "3 weeks back",
        "sold my old " + "bass " * 5_000,
        # found by a scan of every pattern (tenth session): ", and x" read two ways tried 2^k ways (86 s at 24),
        # a trailing "lol" from every "lol", a name or an auxiliary, "so … can" from every "so"
        "I love tea" + ",and x" * 40 + " 5",
        "I live in Leeds " + "lol " * 5_000 + "x",
        "Has " * 5_000,
        "I can walk to work now" + " so" * 5_000 + ".",
    ],
)
def test_a_pasted_list_of_thousands_is_read_without_reading_it_thousands_of_times(pasted: str) -> None:
    """A list of thousands of names or commas is a hostile message, not thousands of facts: the rules read
    the first few parts (a name's place was looked for over the whole text before it, and a fact grew and
    was read again with each comma: minutes for such a message, in the worker)."""
    from memoir.ingest.gate import MAX_WORDS
    from memoir.ingest.rules import statements

    read = statements(pasted)
    assert len(read) <= 10
    assert all(len(s.text.split()) <= MAX_WORDS for s in read)


@given(st.integers(0, 4), st.sampled_from(["I saw Dr.", "my sister Ana{} ", "1. ", "😀", "lol "]))
@settings(max_examples=10, deadline=None)
def test_the_rules_read_a_message_as_far_as_a_chat_message_goes(start: int, pasted: str) -> None:
    """A fact said in a long message's first 6,000 characters or its last 2,000 is read ("Here is my CV: … I just
    got the job at Google!"); what a pasted document or log says in between is not (some readers' patterns cost
    the square of a sentence's length: a 70 kB paste naming thousands of people took 42 s, now about a second)."""
    from memoir.ingest.changes import read
    from memoir.ingest.rules import READ_AT_MOST

    filler = "".join(pasted.format(i) for i in range(READ_AT_MOST // len(pasted) * 2))
    head = "I work as a welder in Leeds. " * start
    message = f"{head}I live in Porto. {filler}. I drive a red Volvo. {filler}. Big news: I got the job at Google!"
    said = [s.text for r in read(message) for s in r.statements]
    assert "The user lives in Porto" in said
    assert "The user got the job at Google" in said
    assert not any("Volvo" in text for text in said)


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # who the user's people are, named in a question, a request, or what someone else says
        (
            "planning a trip to Tassie in april with my boyfriend Liam, 5 days, what should we not miss",
            ["The user is planning a trip to Tassie in april with Liam, 5 days", "The user's boyfriend is Liam"],
        ),
        ("Yes please, something my son-in-law Mark could knock together.", ["The user's son-in-law is Mark"]),
        ("Hmm, my husband-to-be Sipho says I should sound more confident lol.", ["The user's husband-to-be is Sipho"]),
        ("Can my sister Dana come too?", ["The user's sister is Dana"]),
        ("I broke up with my boyfriend Tom", ["The user broke up with Tom"]),  # news; no boyfriend the user has
        # a question or request typed without its mark, after what the user says
        ("my birthday is in march, can u suggest a theme for the party", ["The user's birthday is in march"]),
        (
            "I'm on metformin 500 mg twice a day, does that matter for meals",
            ["The user is on metformin 500 mg twice a day"],
        ),
        ("we are vegetarian, what is a fast warm dinner lol", ["The user is vegetarian"]),
        # sign-ons and introductions with an age, a job and a place
        (
            "63 yr old retired firefighter here, Dayton Ohio.",
            ["The user is 63 years old", "The user is a retired firefighter", "The user lives in Dayton Ohio"],
        ),
        (
            "I am Arjun, backend dev at Infosys, Bangalore.",
            ["The user's name is Arjun", "The user is a backend dev at Infosys", "The user lives in Bangalore"],
        ),
        ("Just me here", []),
        ("5 years experience, mostly Java and Python.", ["The user has 5 years of experience, mostly Java and Python"]),
        # what came of it, said without a subject after a word alone
        ("submitted, got a distinction!!", ["The user got a distinction"]),
        # a request to note after what it is for
        ("For menu please note I'm allergic to shellfish.", ["The user is allergic to shellfish"]),
        # a new holder of a role the user has
        ("new manager here is Sunita", ["The user's manager is Sunita"]),
        # the fact before a guess
        (
            "I work at Bosch as engineer, the company maybe offers me 2 years in Lisbon.",
            ["The user works at Bosch as engineer"],
        ),
        # an event moved: "it" is the event named before; an event typed without its article
        (
            "December is too busy with other weddings so we have moved it to 20th February.",
            ["The user has moved the wedding to 20th February"],
        ),
        ("UWC postponed the graduation to September", ["The user's graduation got postponed to September"]),
        ("the vet moved the cat to a cage", []),
        ("I moved it to the shed", ["The user moved it to the shed"]),
        ("Party is Saturday 17 now, not the 14.", ["The user's party is Saturday 17 now"]),
        # requests, the moment's problems and moods, and the talk itself are no facts
        ("Need a meal plan that isn't rabbit food.", []),
        ("need a vegetarian dinner idea for tonight", []),
        ("I need an itinerary that's not too much walking", []),
        ("I need a new car", []),  # what the user needs, told an assistant, is asked of it
        (
            "I need speech therapy after my stroke, twice a week",
            ["The user needs speech therapy after their stroke, twice a week"],
        ),
        ("getting a KeyError in my python dict code, can you check?", []),
        ("my commute is killing me", []),
        ("I need one day off or I'll lose the plot", []),
        ("Sorry I'm yawning", []),
        ("I'm cooking for six on Friday", ["The user is cooking for six on Friday"]),
        ("Just wondering, I'm not planning to.", []),
        ("Sorry, I've just realised I typed the wrong name", []),
        ("Let me send the final version to Ngozi tomorrow.", []),
        # whom the user called, the message before said: alone, the fact tells nothing of anyone
        ("I called him 3 times, nothing happened.", []),
        ("My team lead Rakesh will be happy", ["The user's team lead is Rakesh"]),  # who Rakesh is, at least
        # whose name "his name is …" gives: the person named by relation alone before it
        (
            "I need to write a complaint to my landlord. His name is Herr Vogel.",
            ["The user's landlord's name is Herr Vogel"],
        ),
        ("Her number I will add myself.", []),  # the user's doing, told object first
        ("Yes put my sister Ngozi.", ["The user's sister is Ngozi"]),  # asks the assistant: no past
        ("cut my hair yesterday", ["The user cut their hair yesterday"]),
        (
            "my sister Ngozi handles RSVPs. She lives in Houston.",
            ["The user's sister Ngozi handles RSVPs", "The user's sister Ngozi lives in Houston"],
        ),  # an acronym is no one "she" stands for
        (
            "We are expecting about 300 guests, you know how Nigerian weddings are",
            ["The user is expecting about 300 guests"],
        ),
        ("Smaller place so guest list is down to 180.", ["The user's guest list is down to 180"]),
        ("A1C came down from 8.1 to 7.2.", ["The user's A1C came down from 8.1 to 7.2"]),
        ("Correction, it's 6 grandkids now", ["The user has 6 grandkids now"]),
        ("it's 3 weeks now", []),
        # an emoji ends a sentence; a nationality in a sign-on; ", also my …" a clause of its own
        (
            "mine is 340 😅 my supervisor Dr. Marisa Ortega wants it shorter",
            ["The user's supervisor is Dr. Marisa Ortega"],  # what she wants of the draft is today's
        ),
        (
            "hola! I'm Diego, Mexican, doing a PhD in urban ecology.",
            ["The user's name is Diego", "The user is Mexican", "The user is doing a PhD in urban ecology"],
        ),
        ("that might be a lot, also my mom is celiac so the food thing worries me", ["The user's mom is celiac"]),
        # "they": the user's people named as many
        (
            "my parents are finally coming to visit, they arrive October 3rd",
            ["The user's parents are finally coming to visit", "The user's parents arrive October 3rd"],
        ),
        ("They said no.", []),
        ("perfect. I'm Gemma by the way, sign it Mrs Holroyd", ["The user's name is Gemma"]),
        ("Please help me with my essay", []),
        (
            "our team (four of us) is migrating the billing service",
            ["The user's team (four people) is migrating the billing service"],
        ),
        # a relation named beside what else the sentence states
        (
            "My wife Priya says I should add a kids' menu — we have twins, Arjun and Diya",
            ["The user has twins, Arjun and Diya", "The user's wife is Priya"],
        ),
        ("Tunde doesn't eat pork.", []),  # who Tunde is, the known facts say (below)
        # terse typing: a name in lower case, a change without "I"
        ("k. two batches. name's dev btw.", ["The user's name is Dev"]),
        (
            "update: not on early shift anymore, swapped to closing, 2pm-10pm. better for sleep",
            ["The user swapped to closing, 2pm-10pm"],
        ),
        ("My kids love Lego.", ["The user's kids love Lego"]),  # a verb, not a relation's second word
        (  # a job near a place
            "Gidday. Graeme here, sheep and beef farmer near Gore in Southland.",
            ["The user's name is Graeme", "The user is a sheep and beef farmer near Gore in Southland"],
        ),
        # "it'll be me" names no thing; "me and my mum" is one subject; ", anyway …" another matter
        (
            "our house is not that big so it'll mostly be me and my mum on Saturday, anyway where to start",
            ["The user's house is not that big"],
        ),
        (
            "im not gonna do valorant much anymore, me and my cousin Paolo switched to playing dota 2",
            ["The user's cousin is Paolo", "The user and their cousin Paolo switched to playing dota 2"],
        ),
        (  # "btw" after a name typed in lower case, a school year
            "im migs btw, 16, grade 10 at marikina science high.",
            ["The user's name is Migs", "The user is 16 years old", "The user is in grade 10 at marikina science high"],
        ),
        (  # a name typed in lower case, an age and what the user has been doing since
            "im destiny, 24, been doing nails 5 yrs at a salon in decatur.",
            [
                "The user's name is Destiny",
                "The user is 24 years old",
                "The user has been doing nails 5 yrs at a salon in decatur",
            ],
        ),
        (  # "tho" after an opener, "bc" for because
            "GOOD news tho landlord came down to 1500 bc i signed for 3 years",
            ["The user's landlord came down to 1500", "The user signed for 3 years"],
        ),
        # near misses of the classes above (a hostile review's): nothing of the user's life
        ("live in fear of my landlord tbh", []),
        ("want to sleep", []),
        ("teach me how to cook rice", []),
        ("5 years in marketing, now switching to UX", []),
        ("The deadline is non-negotiable", []),
        ("Her gym time is sacred", []),
        ("son age is 7", []),
        ("I was wrong, it's 12 dollars", []),
        (
            "I have a cat. Our baby arrived, we named her Rose",
            ["The user has a cat", "The user's baby arrived", "The user's baby is named Rose"],
        ),
        (
            "Dinner's on 1 November in the Al Noor ballroom.",
            ["The user's dinner is on 1 November in the Al Noor ballroom"],
        ),
        (  # where the user's home is, said in a request; "there are" names no thing of theirs
            "I am hoping you can help me write a letter about the road outside my house on Culduthel Road in "
            "Inverness. There are three potholes now.",
            ["The user's house is on Culduthel Road in Inverness"],
        ),
        ("doing volleyball now w my friends", ["The user is doing volleyball now with their friends"]),
        ("working on it now", []),
        (  # what the assistant may do with it is another clause, to the assistant
            "Perfect. Also I forget to say, my sister is Ana, you can put her in the email",
            ["The user's sister is Ana"],
        ),
        # typed in haste: a verb of the user's life without "I", a relation's name in lower case, a question run on
        ("live in schiedam", ["The user lives in schiedam"]),
        ("need help with cv", []),
        ("hate it", []),
        ("daughter zosia is 5 does she go on cv", ["The user's daughter Zosia is 5"]),
        ("daughter school is 5 minutes away", []),
        # how long the user has lived somewhere, typed tersely; "5 years in the army" is no place
        ("3 yrs in berlin, before that 2 in são paulo.", ["The user has lived in berlin for 3 years"]),
        ("5 years in the army", []),
        # a habit the user keeps to; what they ask to have written, of their own life
        (
            "ok. also beach volleyball every Thursday with my lab mates is non-negotiable haha",
            ["The user never misses beach volleyball every Thursday with their lab mates"],
        ),
        ("This price is non-negotiable", []),
        (
            "Also add a line that our colours are emerald green and gold.",
            ["The user's colours are emerald green and gold"],
        ),
        ("Please say that you loved it", []),
        # an apposition between dashes, "is moved" not read as a thing's name, "this menu" no time said first
        (
            "Well, Bill — my husband — bought me a MacBook!",
            ["Bill bought the user a MacBook", "The user's husband is Bill"],
        ),
        ("We went to Tesco - my usual one - and bought bread.", ["The user went to Tesco", "The user bought bread"]),
        (
            "The interview is moved to next Tuesday, and it's online on Teams now",
            ["The user's interview is moved to next Tuesday", "The user's interview is online on Teams now"],
        ),
        ("I got promoted to head chef, so this menu is my first big test!", ["The user got promoted to head chef"]),
        # what an event has, said of the event the message named: "the date is", "venue is"
        (
            "We're planning our wedding. The date is 12th December, venue is Eko Hotel.",
            [
                "The user is planning their wedding",
                "The user's wedding date is 12th December",
                "The user's wedding venue is Eko Hotel",
            ],
        ),
        # a religion's diet is no name, and what it rules out no description; someone else's role in a change;
        # what a sentence cut before its object, or the words around a correction, say nothing
        ("Team lunch Friday. I'm Jain: no onion, garlic, root veg.", ["The user is Jain"]),
        (
            "and the promoter for the last show bailed, so we swapped it for a gig in Queretaro",
            ["The user swapped it for a gig in Queretaro"],
        ),
        (
            "Another thing I want to plan for: I am registering for the BSc nursing top-up at UNILAG.",
            ["The user is registering for the BSc nursing top-up at UNILAG"],
        ),
        ("Tobe is 6 now, I keep forgetting to say.", ["Tobe is 6 now"]),
        ("I am little bit scared because I don't know battery well.", []),
        # a role in the words of a kitchen or a lab; a workplace's name after it; a department is no job
        (
            "Bonjour! I am Margaux, chef de cuisine in a bouchon in Lyon, Le Petit Machon, since 9 years.",
            ["The user's name is Margaux", "The user is a chef de cuisine in a bouchon in Lyon, Le Petit Machon"],
        ),
        (
            "I am Ji-won, PhD student 2nd year at Seoul National University, materials science department.",
            ["The user's name is Ji-won", "The user is a PhD student 2nd year at Seoul National University"],
        ),
        (  # what the user did, said after their name; a state is no deed, nor is needing a hand
            "Hello there. I'm Harold, 71 years old, farmed corn and beans outside of Ames, Iowa for 44 years.",
            ["The user's name is Harold", "The user is 71 years old", "The user farmed corn and beans outside of Ames"],
        ),
        (
            "I'm Ana, 34, married, two kids.",
            ["The user's name is Ana", "The user is 34 years old", "The user is married", "The user has two kids"],
        ),
        # what the user asks a letter to say of their own life, with "that" or without
        ("Parfait. Also add that I trained at Institut Paul Bocuse.", ["The user trained at Institut Paul Bocuse"]),
        (
            "Please also mention I'm finishing my BEd Honours at UWC.",
            ["The user is finishing their BEd Honours at UWC"],
        ),
        ("Can you add my phone number?", []),
        ("But smaller, so I correct the capacity: 28 couverts maximum.", []),  # that it is corrected is no fact
        ("I updated the budget to 40k.", ["The user updated the budget to 40k"]),
        # typed tersely: a relation without "my", the user's team once the user spoke of themselves
        ("Daughter starts school in June.", ["The user's daughter starts school in June"]),
        (
            "I live in Tallaght with wife Agnieszka, wife works in pharmacy in The Square shopping centre.",
            [
                "The user lives in Tallaght with wife Agnieszka",
                "The user's wife works in pharmacy in The Square shopping centre",
            ],
        ),
        ("I teach maths, boss is strict, kids are fine.", ["The user teaches maths"]),
        (
            "I'm CTO at Kiranaflow. Eng team is 12.",
            ["The user is CTO at Kiranaflow", "The user's eng team is 12"],
        ),
        ("Correction: team is 14.", ["The user's team is 14"]),
        ("I'm tired. Traffic is awful on Monday.", []),
    ],
)
def test_what_people_say_in_passing_in_conversations_not_seen_before(said: str, facts: list[str]) -> None:
    """Classes of what the `blind` set (written without seeing the rules) showed the rules missing or misreading."""
    assert extract_by_rules(said) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # a new manager replaces the team lead, a new doctor the GP: one role
        (["my boss is Rakesh", "new manager here is Sunita"], ["The user's manager is Sunita"]),
        (["My doctor is Dr. Patel", "my new GP is Dr. Okafor"], ["The user's GP is Dr. Okafor"]),
        # what the user and someone else are now is the user's too
        (
            ["we are vegetarian", "Katrin and me are now vegan since January"],
            ["The user and Katrin are now vegan since January"],
        ),
        # an event moved by "it"
        (
            ["Our wedding is on 12th December.", "so we have moved it to 20th February."],
            ["The user's wedding is on 20th February"],
        ),
        # his name, given in the message after the one that named him
        (
            ["I need to write a complaint to my landlord, the heating is broken.", "His name is Herr Vogel."],
            ["The user's landlord's name is Herr Vogel"],
        ),
        # "he" opening a message: the man the message before named last, never a woman
        (
            [
                "My boy Liam turns 21 in March and the missus Sharon has roped me into a speech.",
                "He's an apprentice electrician.",
            ],
            [
                "Sharon has roped the user into a speech",
                "The user's boy Liam is an apprentice electrician",
                "The user's boy Liam turns 21 in March",
                "The user's wife is Sharon",
            ],
        ),
        (  # a grandmother as people say it in their own language; "shes" typed without its apostrophe
            ["im writing abt my lola", "ok so shes 78 and she raised me bc my parents work in dubai."],
            [  # and what the user is writing stays: "she raised me" names the lola, it does not restate the essay
                "The user is writing abt their lola",
                "The user's lola is 78",
                "The user's lola raised the user",
                "The user's parents work in dubai",
            ],
        ),
        (  # a woman named by relation alone, for the rest of the message
            [
                "Other thing: my mother arrives from Guadalajara on 10 of December, she stays 3 weeks.",
                "She don't like the cold at all jaja. Also she is diabetic, so careful with the food ideas",
            ],
            [
                "The user's mother arrives from Guadalajara on 10 of December",
                "The user's mother is diabetic",
                "The user's mother stays 3 weeks",
            ],
        ),
        (
            ["My boy Liam turns 21 in March.", "She's an apprentice electrician."],
            ["The user's boy Liam turns 21 in March"],
        ),
        # a name given at once, of the one the message before left unnamed: where "she" or "he" fits them
        (
            ["i need help planning my daughter's birthday", "Yui, she's turning 7 on the 12th of August."],
            ["The user's daughter Yui is turning 7 on the 12th of August"],
        ),
        (["i need help planning my son's birthday", "Yui, she's turning 7."], []),
        # the date and venue of the event the message before named
        (
            ["I need help with the wording for our wedding invitation card.", "The date is 12th December."],
            ["The user's wedding date is 12th December"],
        ),
        # what the user ended up choosing replaces what it replaces
        (
            ["Our wedding venue is Eko Hotel.", "We ended up going with a garden venue in Ikoyi, The Lagoon Garden."],
            ["The user ended up going with a garden venue in Ikoyi, The Lagoon Garden"],
        ),
        # someone leaving for a place moves them, not what the user runs with them
        (
            [
                "I run a little café in Galway with my business partner Declan.",
                "Declan's bought out, he's off to Australia.",
            ],
            ["Declan is off to Australia", "The user runs a little café in Galway with their business partner Declan"],
        ),
        # an apology is no announced change; night shifts are not replaced by "every day"
        (
            ["I walk every day at seven.", "Sorry I'm yawning, I just came off night shift, 3 nights in a row."],
            ["The user just came off night shift, 3 nights in a row", "The user walks every day at seven"],
        ),
        (["I'm on nights, 7pm to 7am", "I switched to day shifts"], ["The user switched to day shifts"]),
        (["All 5 grandkids are coming.", "Correction, it's 6 grandkids now"], ["The user has 6 grandkids now"]),
        # a pet typed without its article, named in the message after
        (
            ["other q. dog ate a bit of raisin bread. worry?", "called. vet says watch him. his name's moose"],
            ["The user's dog's name is Moose"],
        ),
        (
            ["i run the early shift, 4am start", "not on early shift anymore, swapped to closing, 2pm-10pm"],
            ["The user swapped to closing, 2pm-10pm"],
        ),
        # a new job is not instead of studying, whatever words they share; quitting the café ends the barista shifts
        (
            [
                "g'day, Jess here! 2nd year vet sci student at Melbourne uni, essay due thurs",
                "on my break at the cafe, I do barista shifts in Fitzroy weekends",
                "update lol: quit the cafe, I'm now a vet nurse assistant at a clinic in Brunswick",
            ],
            [
                "The user is a 2nd year vet sci student at Melbourne uni",
                "The user is now a vet nurse assistant at a clinic in Brunswick",
                "The user's name is Jess",
            ],
        ),
        # "X's been …" of someone known, after "yes please, food wise"
        (
            ["my daughter Poppy is turning 10 next month", "yes please, food wise Poppy's been veggie since last year"],
            ["Poppy has been veggie since last year", "The user's daughter Poppy is turning 10 next month"],
        ),
        # what someone known does not eat
        (
            ["Myself and my fiance Tunde.", "Tunde doesn't eat pork but that's all."],
            ["The user's fiance is Tunde", "Tunde doesn't eat pork"],
        ),
        # "switched doctors", "switched hotels": the known one's name replaced by the new one's
        (
            ["My doctor is Dr. Patel.", "Switched doctors too, Patel retired, new guy is Dr. Okafor at Kettering."],
            ["The user's doctor is Dr. Okafor"],
        ),
        (
            [
                "my parents are staying at the Hotel Granvia in Kyoto",
                "actually we switched hotels too because the Granvia had no rooms so it's the Hotel Keihan Kyoto now",
            ],
            ["The user's parents are staying at the Hotel Keihan Kyoto in Kyoto"],
        ),
        # "i quit soccer" is a fact, and ends what was said of soccer
        (
            ["I am the goalie", "so i quit soccer, joined the theater club instead"],
            ["The user quit soccer, joined the theater club"],
        ),
        # "400 dirhams a head" is no head chef, "a five-star hotel" no count
        (
            [
                "Hi, I'm Ravi, sous chef at a five-star hotel in Dubai.",
                "By the way I got promoted to head chef yesterday.",
                "Oh and the client called: budget is up to 400 dirhams a head, and they moved the dinner to 2 Nov.",
            ],
            [
                "The user got promoted to head chef yesterday at a five-star hotel in Dubai",
                "The user's dinner budget is up to 400 dirhams a head",
                "The user's dinner got moved to 2 Nov",
                "The user's name is Ravi",
            ],
        ),
        # how many the user has of something, said again with another number; a family's count is its own
        (
            ["I have six staff.", "Hired two more so we're eight staff."],
            ["The user's team is eight staff"],
        ),
        (["I have 3 weeks left.", "I have 2 weeks left."], ["The user has 2 weeks left", "The user has 3 weeks left"]),
        (
            ["Our team is five people.", "Our family is four people."],
            ["The user's family is four people", "The user's team is five people"],
        ),
        # "on 14 of may" is a day: 20 kids change the kids, never the son's 6 years
        (
            [
                "I have 12 kids from his school.",
                "My son Theo do 6 years on 14 of may",
                "Change of plans!! The weather for 14 May say rain, and now Theo invite the whole class, 20 kids",
            ],
            ["The user has 20 kids from his school", "The user's son Theo do 6 years on 14 of may"],
        ),
        # a date, then the one it replaces
        (
            ["my parents arrive October 3rd", "the flights got rescheduled so now they land October 10th not the 3rd"],
            ["The user's parents arrive October 10th"],
        ),
        # people named in passing are kept from a message as from a sentence, and taken back by a split
        (["Yes please, something my son-in-law Mark could knock together."], ["The user's son-in-law is Mark"]),
        (
            ["my girlfriend Kayla thinks I should go to Belmont. thoughts?", "also Kayla and I split up."],
            ["The user and Kayla split up"],  # the break-up is news; what was said of her as the partner goes
        ),
        # how many "we" are now: the user's team
        (
            ["our team (four of us) is migrating the billing service", "3 new engineers joined so we're 7 now"],
            ["The user's team (7 people) is migrating the billing service"],
        ),
        (
            ["I'm a retired railway engineer, 67 years old.", "3 new engineers joined so we're 7 now"],
            ["The user is a retired railway engineer, 67 years old", "The user's team is 7 now"],
        ),  # a count is no age
        # "the old one" shares no topic with "68 years old"
        (
            ["I'm Margaret, 68.", "the committee has swapped me to plot 22 because the old one had knotweed"],
            ["The user is 68 years old", "The user's name is Margaret"],
        ),
        # what the doctor or physio has the user on
        (
            ["I swim at the lido.", "No more lido for me, the physio has me on aqua aerobics twice a week instead."],
            ["The user is on aqua aerobics twice a week"],
        ),
        (["We are expecting about 300 guests.", "guest list is down to 180"], ["The user's guest list is down to 180"]),
        # a count corrected or revised by what it counts, whatever else the sentence says ("blind2")
        (
            ["I have 3 grandchildren, all grown now.", "Sorry, I tell a lie — it is 4 grandchildren."],
            ["The user has 4 grandchildren"],  # "all grown now" was said of three
        ),
        (
            [
                "also im saving for a gaming pc, budget 30k pesos, what parts",
                "my tita sent me money so i can go up to 45k now",
            ],
            ["The user is saving for a gaming pc, budget 45k pesos", "The user's tita sent the user money"],
        ),
        (
            [
                "We have 40 thousand dollars for the kitchen renovation.",
                "Bad news, we need to reduce to 30 thousand total.",
            ],
            ["The user has 30 thousand dollars for the kitchen renovation"],
        ),
        (
            ["I have been married 5 years now.", "I am 34 years old."],
            ["The user has been married 5 years now", "The user is 34 years old"],
        ),
        # a name corrected: the one known name of that family, not another of it said without a correction
        (
            ["My great-grandfather Olaf Haugen came from Bergen in 1902.", "Correction, his name was Ole Haugen."],
            ["The user's great-grandfather Ole Haugen came from Bergen in 1902"],
        ),
        (
            ["My cousin Olaf Haugen lives in Bergen.", "My uncle Ole Haugen is visiting next week."],
            ["The user's cousin Olaf Haugen lives in Bergen", "The user's uncle Ole Haugen is visiting next week"],
        ),
        # "the race" is the marathon the user trains for (one already run keeps its year: above)
        (
            ["I am training for the Austin half marathon on February 16.", "The race got pushed to March 2."],
            ["The user is training for the Austin half marathon on March 2"],
        ),
        # a habit dropped, done by the time it is told; how long ago is no new count of it
        (
            ["I smoke too much, 20 cigarettes a day.", "also i stop smoking, 3 weeks no cigarette!! patches help."],
            ["The user stopped smoking"],
        ),
        # the event's new date; why it moved is another matter
        (
            [
                "Also note: we are launching our own online store on 1 August.",
                "Some changes. Store launch is pushed to 5 September, payment gateway approval is delayed.",
            ],
            ["The user is launching their own online store on 5 September"],
        ),
        # how many guests, said alone, of the event known; then a smaller count
        (
            [
                "My fiancé Diego and I are getting married on 20 June.",
                "About 140 guests.",
                "Smaller too, like 90 people.",
            ],
            [
                "The user and Diego are getting married on 20 June",
                "The user's fiancé is Diego",
                "The user's wedding will have about 90 guests",
            ],
        ),
        # one of two things the user does taken back: the other holds
        (["I play tennis and squash.", "I quit squash."], ["The user plays tennis", "The user quit squash"]),
        (["I play tennis and squash.", "I no longer play tennis."], ["The user plays squash"]),
        (
            [
                "I am doing intermittent fasting 16:8 and gym 4 times a week in the building.",
                "So the fasting thing is out the window, I am eating whenever I am awake haha",
            ],
            ["The user is doing gym 4 times a week in the building", "The user is eating whenever they are awake"],
        ),
        # a tool of the kind the user had: "switched to Asana" of Trello; not of another kind
        (
            ["We track everything in Trello at the moment.", "Heads up, a few changes. We've switched to Asana."],
            ["The user has switched to Asana"],
        ),
        (
            ["We track everything in Trello at the moment.", "Heads up, a few changes. We've switched to Slack."],
            ["The user has switched to Slack", "The user tracks everything in Trello at the moment"],
        ),
        # that the order changed is said by the order as it is now
        (
            [
                "I am catering my cousin's quinceañera on 9 July, 150 conchas.",
                "Oh and my cousin upped the order, it's 200 conchas now. Same date.",
            ],
            ["The user is catering their cousin's quinceañera on 9 July, 200 conchas"],
        ),
        # the start of what the message before named is no exam's (an event the known facts or the message
        # before named has only a date, a venue, a theme of its own)
        (
            [
                "Big news!! I passed the B1 exam yesterday",
                "I will work in the Hamburg office. And the start is now 1 november because of visa delay",
            ],
            ["The user passed the B1 exam yesterday", "The user's start is now 1 november"],
        ),
        # near misses: another of the family named, someone else's change, another language, a gift
        (["My boss is Tom Smith.", "My bad, I forgot to call Jane Smith back."], ["The user's boss is Tom Smith"]),
        (
            [
                "My great-grandfather Olaf Haugen came from Bergen in 1902.",
                "correction: it was 1903, and his brother Nils Haugen came too.",
            ],
            ["The user's great-grandfather Olaf Haugen came from Bergen in 1902"],
        ),
        (
            ["I am training for the Chicago marathon on October 12.", "My brother's race got moved to November 3."],
            [
                "The user is training for the Chicago marathon on October 12",
                "The user's brother's race got moved to November 3",
            ],
        ),
        (
            [
                "We have 40 thousand dollars for the kitchen.",
                "My neighbour had to reduce to 30 thousand for his bathroom.",
            ],
            [
                "The user has 40 thousand dollars for the kitchen",
                "The user's neighbour had to reduce to 30 thousand for his bathroom",
            ],
        ),
        (
            ["I am using a Windows laptop for work.", "I bought a Mac for my son."],
            ["The user bought a Mac for their son", "The user is using a Windows laptop for work"],
        ),
        (
            ["My Spanish level is B1.", "My German is A2."],
            ["The user's German is A2", "The user's Spanish level is B1"],
        ),
        (
            ["We track everything in Trello at the moment.", "My sister's team switched to Asana."],
            ["The user tracks everything in Trello at the moment", "The user's sister's team switched to Asana"],
        ),
        (
            ["My son Liam turns 21 in March.", "He is the best teacher I ever had, Mr Jones."],
            ["The user's son Liam turns 21 in March"],
        ),
        (
            [
                "My fiancé Diego and I are getting married on 20 June.",
                "Went to a concert last night. About 20000 people.",
            ],
            [
                "The user and Diego are getting married on 20 June",
                "The user went to a concert last night",
                "The user's fiancé is Diego",
            ],
        ),
        (
            ["I play tennis and squash on Mondays.", "I quit squash."],
            ["The user plays tennis on Mondays", "The user quit squash"],
        ),
        (
            ["I am visiting Rome and Florence in June.", "Dropped Florence, not enough time."],
            ["The user is visiting Rome in June"],
        ),
        # a count said without what it counts, of the one count the user has; not where there are two
        (
            [
                "I grow bonsai since retirement, I have 23 trees now.",
                "One of my bonsai died in the heat. So only 22 now.",
            ],
            ["The user grows bonsai since retirement", "The user has 22 trees now"],
        ),
        (
            ["I have 23 trees and 4 cats.", "I have 3 kids.", "So only 22 now."],
            ["The user has 23 trees and 4 cats", "The user has 3 kids"],
        ),
        # what a change rules out by its reason; a deadline is when something is due
        (
            [
                "The party is in our woolshed, about 80 people.",
                "Change of plan, Sharon reckons the woolshed's too rough so we've booked the Gore rugby clubrooms",
            ],
            ["The user has booked the Gore rugby clubrooms"],
        ),
        (
            [
                "My essay is due friday, 800 words.",
                "update: teacher moved the deadline to monday bc of the typhoon lol",
            ],
            ["The user's teacher moved the deadline to monday"],
        ),
        # one computer, one language level at a time
        (
            ["I'm using a Windows laptop, an old Dell.", "So I'm on a Mac now."],
            ["The user is on a Mac now"],
        ),
        (
            ["My level is A2 now.", "Big news!! I passed the B1 exam yesterday"],
            ["The user passed the B1 exam yesterday"],
        ),
        # a place cut from a plan
        (
            ["We are visiting Kyoto and Hiroshima in May.", "no we cut Hiroshima, too much for dad's hip."],
            ["The user is visiting Kyoto in May"],
        ),
        # "finally" takes nothing back
        (
            [
                "I drive my kids to school in my old Honda Civic.",
                "I sold my Honda finally! I bought a Subaru Forester.",
            ],
            ["The user bought a Subaru Forester"],
        ),
        # a new employer said in passing keeps the job; one said with a job, or a job somewhere unnamed, as said
        (
            [
                "hi, I am Arjun, backend dev at Infosys, Bangalore.",
                "good news, I got the offer, since joining Flipkart 3 weeks back life is much better.",
            ],
            [
                "The user got the offer, since joining Flipkart 3 weeks back life is much better",
                "The user is a backend dev at Flipkart",
                "The user lives in Bangalore",
                "The user's name is Arjun",
            ],
        ),
        (
            ["I'm a nurse at St Mary's.", "I work at the Ghana Health Service now."],
            ["The user is a nurse at the Ghana Health Service"],
        ),
        (
            ["I work at Infosys.", "I'm a backend dev at Flipkart these days."],
            ["The user is a backend dev at Flipkart these days"],
        ),
        (
            ["I'm a chef in a restaurant in Lyon.", "since joining Bocuse 2 months ago life is calmer."],
            ["The user is a chef in a restaurant in Lyon", "The user joined Bocuse 2 months ago"],
        ),
        (  # someone else's new job is theirs
            ["I'm a backend dev at Infosys.", "since my brother joined Flipkart he never calls."],
            ["The user is a backend dev at Infosys"],
        ),
        # why the old value went, said with the change, is the old value's story: not kept
        (
            ["My team lead is Marcus.", "fyi Marcus left for Amazon, my new lead is Hannah"],
            ["The user's team lead is Hannah"],
        ),
        (
            [
                "Our wedding is on 12th December at Eko Hotel.",
                "big change, his family said December is too choked with other weddings so we have moved it to "
                "20th February.",
            ],
            ["The user's wedding is on 20th February at Eko Hotel"],
        ),
        (  # what a fact taken back was of stays: Lwazi trains still
            [
                "Son's name is Lwazi, he plays cricket for his school.",
                "Lwazi's new obsession is water polo, he trains Tuesdays and Thursdays and he's dropped cricket "
                "completely",
            ],
            ["Lwazi trains Tuesdays and Thursdays", "Lwazi's new obsession is water polo", "The user's son is Lwazi"],
        ),
        (  # a pet renamed: its new name is its name
            [
                "oh also me and my housemates just adopted a kitten, we named her Pickles",
                "and the kitten is Mango now, Pickles didnt suit her at all, shes bright orange",
            ],
            ["The user and their housemates just adopted a kitten", "The user's kitten is Mango now"],
        ),
        # a pet lost or rehomed, a partner after a break-up, an associate gone: what was known of them goes
        (
            [
                "We'll have Buster with us too, he's our border collie, 13 years old and he don't like being left.",
                "Bad news I'm afraid. We lost our old dog on Tuesday.",
            ],
            ["The user lost their old dog on Tuesday"],
        ),
        (
            [
                "oh and we have a bunny, mochi, who is NOT invited lol. shes 2",
                "sad update: we had to rehome our bunny :(",
            ],
            ["The user had to rehome their bunny"],
        ),
        # a death is news, kept (decision 122), as the sentence tells it
        (
            ["My cat Miso is 3.", "Miso died last night, I am heartbroken."],
            ["Miso died last night", "The user is heartbroken"],
        ),
        (
            ["My girlfriend Valeria usually comes to sell merch.", "also... I'm single now, we broke up last week"],
            ["The user is single now"],
        ),
        (
            ["My associate is Julien, he puts 30% of the money.", "My associate leaves the project, sadly."],
            ["The user's associate leaves the project"],
        ),
        # a new advisor; a new employer for a team the user leads; a race withdrawn from, a club quit at school;
        # a move into a place; an age corrected in a list (and the correction's own words no fact)
        (
            [
                "My advisor is Professor Kim Dong-hyun.",
                "Sad news, I must change lab. My new advisor will be Professor Lee Su-jin.",
            ],
            ["The user's advisor is Professor Lee Su-jin"],
        ),
        (
            [
                "Hi! I lead a backend team of nine at Zalando here in Berlin.",
                "Big change since we last spoke: I started at Contoso last week.",
            ],
            ["The user leads a backend team of nine at Contoso here in Berlin"],
        ),
        (
            [
                "I'm training for the Berlin Marathon in September.",
                "Bad news: my physio diagnosed tendinopathy, so I've withdrawn from the September race.",
            ],
            ["The user's physio diagnosed tendinopathy"],
        ),
        (
            ["I'm training for the Berlin Marathon in September.", "Efua pulled out of the marathon."],
            ["The user is training for the Berlin Marathon in September"],
        ),
        (["I have chess club on wednesdays.", "oh and i quit the wednesday club thing at school"], []),
        (
            ["I live in goshiwon near Sillim station.", "Good news: I moved into graduate dormitory on campus!"],
            ["The user moved into graduate dormitory on campus"],
        ),
        (
            [
                "I have three kids, Alfie (11), Isla (8) and Freddie (4).",
                "Sorry, just realised I got Isla's age wrong, she's 9!",
            ],
            ["The user has three kids, Alfie (11), Isla (9) and Freddie (4)"],
        ),
        # one shift at a time; self-employed after an employer; a position somewhere new; the old thing sold;
        # whom the user lives with stays after a move; a place in a sentence stating nothing moves no plan
        (
            [
                "I am on night shifts, four nights a week at the moment.",
                "Update on the roster: From the 1st of next month I am on day duty, 8am to 4pm, Monday to Friday.",
            ],
            ["The user is on day duty, 8am to 4pm, Monday to Friday from the 1st of next month"],
        ),
        (
            ["I work for Kelly Electrical.", "Big news. I quit my boss. From Monday I am self-employed."],
            ["The user is self-employed from Monday"],
        ),
        (
            [
                "hi! im mei, pharmacist at Shoppers in Scarborough.",
                "got the hospital pharmacist position at sunnybrook",
            ],
            ["The user got the hospital pharmacist position at sunnybrook", "The user's name is Mei"],
        ),
        (
            [
                "My bass is a Fender Jazz Bass. I teach bass lessons on weekdays.",
                "sold my old bass to help pay for the tour lol, got a used Music Man StingRay.",
            ],
            ["The user got a used Music Man StingRay", "The user teaches bass lessons on weekdays"],
        ),
        (
            [
                "I live in Tallaght with wife Agnieszka and daughter Zosia.",
                "Also we go to Krakow for Christmas, Zosia meets her great-grandmother.",
                "And we moved! Last weekend we moved to Swords, house to rent.",
                "Now Zosia need new school in Swords. How school enrolment work?",
            ],
            [
                "The user goes to Krakow for Christmas",
                "The user lives with wife Agnieszka and daughter Zosia",
                "The user moved to Swords, house to rent last weekend",
            ],
        ),
        # leaving is heading out; the days the user works, changed
        (
            [
                "We are driving down to Tucson. We are leaving January 10th, in our Ford F-150.",
                "So we pushed the trip back. Now we are heading out February 3rd.",
            ],
            [
                "The user is driving down to Tucson",
                "The user is leaving February 3rd, in their Ford F-150",
            ],
        ),
        (
            [
                "I work part-time in HR at the Co-op, Mondays to Wednesdays.",
                "Also work have asked me to change my days, so from next week I am Tuesday to Thursday.",
            ],
            ["The user works part-time in HR at the Co-op, Tuesday to Thursday"],
        ),
        (  # one nursery at a time, and the son is still the user's son
            [
                "My son Freddie goes to Little Acorns nursery.",
                "AND Freddie's nursery is closing down in September, so he's starting at Bright Horizons.",
            ],
            [
                "Freddie's nursery is closing down in September",
                "The user's son Freddie is starting at Bright Horizons",
            ],
        ),
        (  # ages said by relative clauses, written beside the names, and one of them corrected in place
            [
                "I have two children, Chidera who is 9 and Tobe who is 5.",
                "Small correction from earlier: Tobe is 6 now, his birthday was last Sunday.",
            ],
            ["The user has two children, Chidera (9) and Tobe (6)", "Tobe's birthday was last Sunday"],
        ),
        # the band's new name is the band's; a name given whole is the user's new one; a road is no "I"
        (
            [
                "I am Tomas, bass player in a band called Los Faros.",
                "ok news: we are changing the band name!! We are Marea Alta now.",
            ],
            [
                "The user is a bass player in a band called Marea Alta",
                "The user is changing the band name",
                "The user's name is Tomas",
            ],
        ),
        (["im an otr trucker, run I-10 mostly"], ["The user is an otr trucker, run I-10 mostly"]),
        (
            [
                "Hi! I am Thandi Nkosi, I teach Grade 4.",
                "Sipho and I got married in March! So I am Thandi Dlamini now, please change the name on the letter.",
            ],
            [
                "The user and Sipho got married in March",
                "The user is Thandi Dlamini now, please change the name on the letter",
                "The user teaches Grade 4",
            ],
        ),
        (
            ["I'm the Grade 4 phase head.", "I'm Team Lead now."],
            ["The user is Team Lead now", "The user is the Grade 4 phase head"],
        ),
        (  # a thing renamed is renamed where a fact names it; that a name changes is no fact's new value
            [
                "hola! I am Tomas, bass player in a band called Los Faros here in CDMX.",
                "ok news: we are changing the band name!! We are Marea Alta now.",
            ],
            [
                "The user is a bass player in a band called Marea Alta in CDMX",  # "here": where the user is
                "The user is changing the band name",
                "The user's name is Tomas",
            ],
        ),
        (  # the old one given on once a new one came, known by its make
            [
                "I have a GTX 1660 super and a Ryzen 5 3600.",
                "GOT IT!!! rtx 4060 came today. old card is going to my cousin",
            ],
            [],
        ),
        # near misses: someone else's pet or break-up, a pet's things, a boss out for the afternoon
        (
            ["My dog is called Rex.", "I lost my dog's lead at the park."],
            ["The user lost their dog's lead at the park", "The user's dog is called Rex"],
        ),
        (
            ["My dog is called Rex.", "My friend lost her dog last year."],
            ["The user's dog is called Rex", "The user's friend lost her dog last year"],
        ),
        (["My boyfriend is Liam.", "My sister broke up with her boyfriend."], ["The user's boyfriend is Liam"]),
        (
            ["My boss is Tom.", "my boss left early today so I finished the report."],
            ["The user finished the report", "The user's boss is Tom", "The user's boss left early today"],
        ),
        (
            ["My cat Miso is 3. My friend Miso is a chef.", "Our dog died last night."],
            ["The user's cat Miso is 3", "The user's dog died last night", "The user's friend Miso is a chef"],
        ),
        # "his name" after a woman is not hers; a pet asked about is whom it names
        (
            [
                "My wife Larissa is coming with me, she is nurse.",
                "How we can bring our cat to Germany? His name is Paçoca, he is 4 years",
            ],
            [
                "Larissa is coming with the user",
                "Larissa is nurse",
                "Paçoca is 4 years",
                "The user's cat's name is Paçoca",
                "The user's wife is Larissa",
            ],
        ),
        (
            ["My wife Larissa is coming with me.", "His name is Paçoca."],
            ["Larissa is coming with the user", "The user's wife is Larissa"],
        ),
    ],
)
def test_a_change_said_as_people_say_it_replaces_the_old_value(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("My son Theo turns 6 on 14 of may", [("name", "Theo"), ("number", "6"), ("date", "14 of may")]),
        ("the show is january 10 now", [("date", "january 10")]),
        ("a five-star hotel, a 10-year-old car", []),  # what a compound says of a thing is no count
        ("twenty-one guests for 2-3 days", [("number", "twenty-one"), ("number", "2"), ("number", "3")]),
    ],
)
def test_a_value_is_read_as_its_kind(text: str, found: list[tuple[str, str]]) -> None:
    assert [(v.kind, v.text) for v in values(text)] == found


# Near misses of the classes the `blind3` set brought (a hostile review's, 2026-12-06): someone out for lunch, a
# bill split up, a dog tag lost, a second job, a club on Mondays, a move into management, golf clubs sold, a
# niece who shares a child's name, a captaincy in capitals, a question about a person: none takes back, replaces
# or garbles what is known.
@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        (["My boss is Tom.", "my boss left the company party early"], ["The user's boss is Tom"]),
        (
            ["My boss is Tom.", "My boss left for Paris this morning, back Monday"],
            ["The user's boss is Tom", "The user's boss left for Paris this morning, back Monday"],
        ),
        (
            ["My boss is Tom.", "My boss quit sugar for Lent"],
            ["The user's boss is Tom", "The user's boss quit sugar for Lent"],
        ),
        (
            ["My boss is Tom.", "My boss retired the old reporting system"],
            ["The user's boss is Tom", "The user's boss retired the old reporting system"],
        ),
        (["My boss is Tom.", "My boss Tom retired."], []),
        (
            ["My manager is Priya.", "My manager is retiring next year, maybe"],
            ["The user's manager is Priya", "The user's manager is retiring next year"],  # still Priya
        ),
        (
            ["My manager is Priya.", "My manager Priya left to join Stripe, my new lead is Hannah"],
            ["The user's lead is Hannah"],
        ),
        (["My girlfriend is Anna.", "We split up the bill for dinner"], ["The user's girlfriend is Anna"]),
        (["My girlfriend is Anna.", "I broke up the fight between my kids"], ["The user's girlfriend is Anna"]),
        (
            ["My girlfriend is Anna.", "I'm single-handedly running the bakery"],
            ["The user is single-handedly running the bakery", "The user's girlfriend is Anna"],
        ),
        (
            ["My dog is called Rex.", "Our dog passed his obedience test today!"],
            ["The user's dog is called Rex", "The user's dog passed his obedience test today"],
        ),
        (
            ["My dog is called Rex.", "We lost our dog for two hours at the park but found him again"],
            ["The user lost their dog for two hours at the park", "The user's dog is called Rex"],
        ),
        (
            ["My dog is called Rex.", "I lost my dog tag at the gym"],
            ["The user lost their dog tag at the gym", "The user's dog is called Rex"],
        ),
        (
            ["My dog is called Rex.", "We lost our puppy class booking"],
            ["The user lost their puppy class booking", "The user's dog is called Rex"],
        ),
        (
            ["My cat Luna is 10.", "My old cat Bella died years ago, Luna helped me through it"],
            [
                "Luna helped the user through the user's old cat Bella",
                "The user's cat Luna is 10",
                "The user's old cat Bella died years ago",
            ],
        ),
        (
            ["I have a dog named Pepper and a cat named Salt.", "our dog passed away"],
            ["The user has a dog named Pepper and a cat named Salt", "The user's dog passed away"],
        ),
        (
            ["My dog Max is 5.", "My grandpa Max passed away last night"],
            ["The user's dog Max is 5", "The user's grandpa Max passed away last night"],
        ),
        (
            ["My lead is Marcus.", "My new lead is Hannah, Marcus is still my mentor though"],
            ["Marcus is still the user's mentor", "The user's lead is Hannah"],
        ),
        (
            ["I'm a nurse at St James Hospital.", "I work at Tesco on weekends too, second job"],
            ["The user is a nurse at St James Hospital", "The user works at Tesco on weekends too, second job"],
        ),
        (
            ["I'm a nurse at St James Hospital.", "I started at Pilates classes last week"],
            ["The user is a nurse at St James Hospital", "The user started at Pilates classes last week"],
        ),
        (
            ["I'm a nurse at St James Hospital.", "I was offered the charge nurse post at Mater but I turned it down"],
            ["The user is a nurse at St James Hospital", "The user was offered the charge nurse post at Mater"],
        ),
        (
            ["I'm a backend dev at Infosys.", "Since joining Twitter in 2010 I've posted 5000 tweets"],
            ["The user has posted 5000 tweets since joining Twitter in 2010", "The user is a backend dev at Infosys"],
        ),
        (
            ["I'm a software engineer at Google.", "I am self-employed on the side, doing consulting"],
            [
                "The user is a software engineer at Google",
                "The user is doing consulting",
                "The user is self-employed on the side",
            ],
        ),
        (
            ["I work at Infosys as a backend developer.", "since joining Flipkart 3 weeks back life is much better"],
            ["The user works at Flipkart as a backend developer"],
        ),
        (
            ["My son Freddie goes to Little Acorns nursery.", "Freddie goes to Scouts on Mondays"],
            ["Freddie goes to Scouts on Mondays", "The user's son Freddie goes to Little Acorns nursery"],
        ),
        (
            ["I'm on night shifts at the hospital.", "I'm on weekend shifts too, Saturday and Sunday"],
            ["The user is on night shifts at the hospital", "The user is on weekend shifts too, Saturday and Sunday"],
        ),
        (
            ["I'm on night shifts at the hospital.", "I'm on the day shift rota committee now"],
            ["The user is on night shifts at the hospital", "The user is on the day shift rota committee now"],
        ),
        (
            ["I live in Leeds.", "I moved into management last year"],
            ["The user lives in Leeds", "The user moved into management last year"],
        ),
        (["I drive an old Golf.", "Sold my old golf clubs on eBay"], ["The user drives an old Golf"]),
        (
            ["I have 2000 in savings.", "I withdrew from my savings to pay the deposit"],
            ["The user has 2000 in savings", "The user withdrew from their savings to pay the deposit"],
        ),
        (
            ["I work Monday to Wednesday.", "Switched my hours, bins still Thursday though"],
            ["The user switched their hours, bins still Thursday", "The user works Monday to Wednesday"],
        ),
        (
            ["I have three kids, Alfie (11), Isla (8) and Freddie (4).", "My niece Isla is 3"],
            ["The user has three kids, Alfie (11), Isla (8) and Freddie (4)", "The user's niece Isla is 3"],
        ),
        (
            ["I have three kids, Alfie (11), Isla (8) and Freddie (4).", "Freddie's teddy is 10 years old lol"],
            ["Freddie's teddy is 10 years old", "The user has three kids, Alfie (11), Isla (8) and Freddie (4)"],
        ),
        (
            ["Hi! I am Thandi Nkosi, I teach Grade 4.", "I'm Team Captain now"],
            ["The user is Team Captain now", "The user teaches Grade 4", "The user's name is Thandi Nkosi"],
        ),
        (["We're Catholic now."], ["The user is Catholic now"]),
        (["Lisbon is where I'm from"], ["Lisbon is where the user is from"]),
        (["Is my daughter Mia allowed to come? He is the organiser, Tom."], ["The user's daughter is Mia"]),
        (
            ["I'm Harold, 71, visited Paris with my wife last year"],
            [
                "The user is 71 years old",
                "The user visited Paris with their wife last year",
                "The user's name is Harold",
            ],
        ),
        (["Please add my sister's email to the thread"], []),
        # each one's age a fact of its own (sixteenth session)
        (
            ["My sons Tom, who is 8, and Ben, who's 12, love Lego"],
            ["The user's son Ben is 12", "The user's son Tom is 8", "The user's sons Tom and Ben love Lego"],
        ),
    ],
)
def test_near_misses_of_what_is_gone_or_changed_leave_what_is_known(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize("known", ["The user is a cook at McDonald’s", "The user is a cook at  McDonald's in Leeds"])
def test_a_new_employer_keeps_the_job_of_a_fact_written_with_curly_quotes_or_double_spaces(known: str) -> None:
    """Facts from a model or an API are written as they come: the job is found in them all the same."""
    decisions = reconcile_by_rules(read("I started at Nandos last week.", known_words([known])), [("1", known)])
    assert [(d.event, d.text, d.memory_id) for d in decisions] == [("UPDATE", "The user is a cook at Nandos", "1")]
