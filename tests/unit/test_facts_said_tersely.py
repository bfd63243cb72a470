"""Facts said, and changed, the way the `blind4` set's people said them (a set written by a helper who saw neither the
rules nor the other sets): a title in an introduction, a retirement, a job or a shop said without "I", a
habit with how often, a marriage as a state, an age that is the user's whoever else the message names.

Read as a spec, as tests/unit/test_fact_rules.py is: each case a way of saying it, with the facts kept.
"""

from __future__ import annotations

import pytest

from memoir.ingest import extract_by_rules
from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # A title is a role, kept as written: "CEO", not "cEO"
        (
            "Hi, I'm Priya, co-founder and CEO of Ledgerly.",
            ["The user's name is Priya", "The user is a co-founder and CEO of Ledgerly"],
        ),
        ("I'm Sam, VP of sales at Acme.", ["The user's name is Sam", "The user is a VP of sales at Acme"]),
        ("I'm Dana, the CTO at Fernwood.", ["The user's name is Dana", "The user is the CTO at Fernwood"]),
        # Retired, and from what
        (
            "I'm Harold, 72 years old, retired now after farming corn outside Kearney.",
            [
                "The user's name is Harold",
                "The user is 72 years old",
                "The user is retired now after farming corn outside Kearney",
            ],
        ),
        ("I'm Jo, retired.", ["The user's name is Jo", "The user is retired"]),
        (
            "I'm Ann, a retired geography teacher.",
            ["The user's name is Ann", "The user is a retired geography teacher"],
        ),
        # Said without "I"
        ("own a bike shop in portland, SE division.", ["The user owns a bike shop in portland, SE division"]),
        ("teaching at a hagwon in mapo.", ["The user is teaching at a hagwon in mapo"]),
        ("doin the 16:8 fasting thing now.", ["The user is doing the 16:8 fasting thing now"]),
        (
            "married to a korean citizen (min-ji) since last yr.",
            ["The user is married to a korean citizen (min-ji) since last yr"],
        ),
        ("walk my dog every morning.", ["The user walks their dog every morning"]),
        # A parent named as people name their own, without "my"
        (
            "Dad's also starting at a day centre in Ballincollig on Tuesdays.",
            ["The user's dad is also starting at a day centre in Ballincollig on Tuesdays"],
        ),
        ("Mum's moving to Galway in June.", ["The user's mum is moving to Galway in June"]),
        ("Mom and pop shops are closing.", []),
        ("Dad jokes are the best.", []),
        # "he" is no woman of the user's, "she" no man
        ("gave taco to my mom. he hated the new truck.", ["The user gave taco to their mom"]),
        ("My sister came over. He hated the new truck.", ["The user's sister came over"]),
        (
            "My sister came over. She hated the new truck.",
            ["The user's sister came over", "The user's sister hated the new truck"],
        ),
        # "hes" and "shes" as typed open a clause of their own, whom they stand for named before
        (
            "how do i keep our dog off the moses basket, hes a staffie called bruno and hes obsessed with the baby",
            ["The user's dog is a staffie called bruno", "The user's dog is obsessed with the baby"],
        ),
        # A request typed without its article asks the assistant; a choice is no job ("went" is no "-ent" role)
        ("need cheap cpap cleaning tips.", []),
        ("need a new car", []),
        ("Went with the LandCruiser in the end.", ["The user went with the LandCruiser in the end"]),
        # Near misses: a request, a name that opens with a past verb, nothing owned, a day at home
        ("send my mum a card every week.", []),
        ("spoke & chain.", []),
        ("own it.", []),
        ("working at home today.", []),
        ("married to the idea of a farm.", []),
    ],
)
def test_what_people_say_tersely_or_in_an_introduction(said: str, facts: list[str]) -> None:
    assert extract_by_rules(said) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # "I'm 73 now" is the user's age: not a number of what Peggy wants, though the message names her
        (
            [
                "I'm Harold, 72 years old. My wife Peggy wants one for the bluebirds.",
                "They threw me a party on Sunday, so I'm 73 now. Peggy says I ate too much of it.",
            ],
            [
                "Peggy wants one for the bluebirds",
                "The user is 73 now",
                "The user's name is Harold",
                "The user's wife is Peggy",
            ],
        ),
        # … and a team's "7 now" is still a count of the team
        (
            ["Our team (four of us) is migrating billing.", "3 new engineers joined so we're 7 now"],
            ["The user's team (7 people) is migrating billing"],
        ),
    ],
)
def test_an_age_said_now_is_whose_it_says(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # A pet put down by name takes what was known of it along, however the fact that named it began
        (
            ["our old border collie Duke follows me out there every morning.", "Had to put Duke down yesterday."],
            ["The user had to put Duke down yesterday"],
        ),
        (
            ["My dog walker Sam comes at 9.", "Had to put Sam down for the early slot."],
            ["The user had to put Sam down for the early slot", "The user's dog walker Sam comes at 9"],
        ),
        # What is cancelled "in the end" is cancelled; a trip is no "he"
        (
            [
                "I have a holiday to Lanzarote booked for the midterm.",
                "We cancelled Lanzarote in the end. He had a fall last week, nothing broken thank God.",
            ],
            [],
        ),
        # A pet given away by the name it was typed with
        (["my chihuahua Taco rides with me.", "gave taco to my mom."], ["The user gave Taco to their mom"]),
        (
            ["my chihuahua Taco rides with me.", "gave my mom a hug."],
            ["The user gave their mom a hug", "The user's chihuahua Taco rides with the user"],
        ),
        # An age run on in a message typed without stops
        (["I'm 15.", "it was my birthday yesterday im 16 now!!"], ["The user is 16 now"]),
        (["I think im 3 days late"], []),
        # A count kept is the count now
        (
            ["I have 12 students right now.", "I'm cutting down teaching before the move. I'm keeping 5 students."],
            ["The user is cutting down teaching before the move", "The user is keeping 5 students"],
        ),
        # A new job, said as got, replaces the job said without its article; moving closer to it is no new job
        (
            [
                "I am pastry chef in hotel downtown, the Fairmont.",
                "Big news! I got job at bakery in Leslieville, head baker position.",
                "Also we decide to move closer to new job.",
            ],
            [
                "The user decides to move closer to new job",
                "The user got job at bakery in Leslieville, head baker position",
            ],
        ),
        # An apartment found, typed without its article, is where the user will live
        (
            ["We live in North York now.", "We found apartment in Riverdale, it is bigger."],
            ["The user found apartment in Riverdale"],
        ),
    ],
)
def test_a_change_said_as_the_blind4_set_said_it_replaces_the_old_value(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


# Near misses of this file's classes (a hostile review's, 2026-12-06, eighth session): a possessive before a noun in
# -ing, a name that starts like "Dad", an age that is no birthday's, a request asked of the assistant, a pet put down
# for a nap or given to the vet, a count kept for a day, a cook who is no chef, a job got for someone else, a hotel
# room, a shift tomorrow, a chore now, a title of nothing: none replaces, takes back or garbles what is known.
@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        (["I'm 30.", "apparently im 40 years too early for retirement"], ["The user is 30"]),
        (["I'm 15.", "bruh im 100"], ["The user is 15"]),
        (["I'm 15.", "if im 16 now can i get a job"], ["The user is 15"]),
        (["I'm 15.", "feels like im 80 now with this back pain"], ["The user is 15"]),
        (["My son Leo is 7.", "my son is 8 now"], ["The user's son Leo is 8"]),
        (["My mom Carol is 70.", "my mom is 71 now"], ["The user's mom Carol is 71"]),
        (
            ["I have 4 kids.", "I'm keeping 2 kids home today, they're sick"],
            ["The user has 4 kids", "The user is keeping 2 kids home today"],
        ),
        (
            ["My team has 8 people.", "I'm keeping 5 people on the project"],
            ["The user is keeping 5 people on the project", "The user's team has 8 people"],
        ),
        (["doin much better now thanks"], []),
        (["doin pretty good now"], []),
        (["doin the dishes now, what were we talking about"], []),
        (["doin laundry now brb"], []),
        (
            ["I live in Leeds.", "I got a room at the Hilton in London for the conference"],
            ["The user got a room at the Hilton in London for the conference", "The user lives in Leeds"],
        ),
        (
            ["We live in North York now.", "We rented a studio in Paris for the week"],
            ["The user lives in North York now", "The user rented a studio in Paris for the week"],
        ),
        (
            ["We live in North York now.", "got a bigger room in the same flat"],
            ["The user got a bigger room in the same flat", "The user lives in North York now"],
        ),
        (["My dog Biscuit is a lab.", "rehomed Biscuit."], ["The user rehomed Biscuit"]),
        (
            ["I'm a nurse at St Mary's.", "got job at Kaiser, night shift nurse position"],
            ["The user got job at Kaiser, night shift nurse position"],
        ),
        (
            ["I'm a software engineer at Google.", "got job at amazon, senior engineer"],
            ["The user got job at amazon, senior engineer"],
        ),
        (["does my cat need a bath every week"], []),
        (["why my cat throws up every morning"], []),
        (["how my son can study every evening without phone"], []),
        (["where my keys go every morning is a mystery"], []),
        (
            [
                "I have a holiday to Lanzarote booked for the midterm. I also have a trip to Rome booked for Easter.",
                "We cancelled in the end the Lanzarote holiday",
            ],
            ["The user also has a trip to Rome booked for Easter"],
        ),
        (["I'm Ann, spent 20 years as a nurse."], ["The user spent 20 years as a nurse", "The user's name is Ann"]),
        (["own the problem, don't blame others - is that good leadership advice?"], []),
        (
            ["I own a café in Leeds.", "own the problem, don't blame others - is that good leadership advice?"],
            ["The user owns a café in Leeds"],
        ),
        (["own the libs lol"], []),
        (["My dad's wedding ring is lost."], ["The user's dad's wedding ring is lost"]),
        (["My mum's cooking is the best."], ["The user's mum's cooking is the best"]),
        (["My sister's building is on fire!"], ["The user's sister's building is on fire"]),
        (["My husband's evening shift ends at 11."], ["The user's husband's evening shift ends at 11"]),
        (["My cat Rose is 5.", "put Rose down for her nap"], ["The user's cat Rose is 5"]),
        (
            ["My dog Max is 12.", "put Max down for the 3pm slot at the vet, just a checkup"],
            ["The user's dog Max is 12"],
        ),
        (["My dog Max is 12.", "can't put Max down, he's so cuddly lol"], ["The user's dog Max is 12"]),
        (["My dog Max is 12.", "I will never put Max down, no matter what the vet says"], ["The user's dog Max is 12"]),
        (["My son needs speech therapy."], ["The user's son needs speech therapy"]),
        (["I need speech therapy after my stroke."], ["The user needs speech therapy after their stroke"]),
        (
            ["need post-op physio twice a week after my ACL surgery"],
            ["The user needs post-op physio twice a week after their ACL surgery"],
        ),
        (["need plan b"], []),
        (
            ["booked Dr Patel for Tuesday. He is a cardiologist."],
            ["Dr Patel is a cardiologist", "The user booked Dr Patel for Tuesday"],
        ),
        (["booked Marco for the gig. He is a DJ."], ["Marco is a DJ", "The user booked Marco for the gig"]),
        (["booked Sarah a table at Nobu. She is vegan."], ["Sarah is vegan", "The user booked Sarah a table at Nobu"]),
        (["cancelled Sarah's party. She has covid."], ["Sarah has covid"]),
        (["I'm Gus, BTW the CEO of our company is a jerk."], ["The user's name is Gus"]),
        (["I'm Max, the guy who emailed the CEO."], ["The user's name is Max"]),
        (["I'm Ally, gm"], ["The user's name is Ally"]),
        (["I'm Mo, CEO of my own life lol"], ["The user's name is Mo"]),
        (["working for free is not ok, right?"], []),
        (["I'm a nurse at St Mary's.", "working for free is not ok, right?"], ["The user is a nurse at St Mary's"]),
        (
            ["I'm a nurse at St Mary's.", "working at 7am tomorrow, need an alarm routine"],
            ["The user is a nurse at St Mary's"],
        ),
        (["I'm a nurse at St Mary's.", "working for the weekend lol"], ["The user is a nurse at St Mary's"]),
    ],
)
def test_near_misses_of_the_blind4_classes_leave_what_is_known(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


# A message typed all in lower case names the people and pets the facts know by their capitals ("freddie" is the
# son Freddie), and someone new right after who they are ("wife jen", "sister chloe shes 12"); an age said by a
# birthday ("Dad's 85th was Saturday", "Dad turned 85") is the age of the one a known fact names ("dad Paddy").
@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        (
            ["My son Freddie is 6 weeks old.", "freddie is 2 months today!! jabs next week"],
            ["The user's son Freddie is 2 months today"],
        ),
        (["wife jen does our books, she says we can eat it"], ["Jen does the user's books", "The user's wife is Jen"]),
        (
            ["my little sister chloe shes 12 wants to play too but shes so bad lol"],
            ["Chloe wants to play", "The user's little sister Chloe is 12"],
        ),
        (["my son tom hes 8 and loves lego"], ["The user's son Tom is 8", "The user's son Tom loves lego"]),
        (["my cat is called pixel and shes 4"], ["The user's cat Pixel is 4", "The user's cat is called Pixel"]),
        (["My dad Paddy is 84.", "Dad turned 85 on Saturday."], ["The user's dad Paddy turned 85 on Saturday"]),
        (["My dad Paddy is 84.", "Dad's 85th was Saturday."], ["The user's dad Paddy's 85th was Saturday"]),
        (["Mom just turned 70."], ["The user's mom just turned 70"]),
    ],
)
def test_names_typed_in_lower_case_and_ages_said_by_a_birthday(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


# Near misses: a message with capitals is as its writer typed it; a word that is also a name ("may", "mark") or a
# verb after who someone is ("my mom called") gets no capital; a birthday to come is no age yet; another relation's
# age is not the named dad's.
@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        (["My friend Mark is 30.", "i will mark it in the calendar"], ["The user's friend Mark is 30"]),
        (["my mom called me"], ["The user's mom called the user"]),
        (["my dad working late again"], []),
        (["my dog really loves the beach"], ["The user's dog really loves the beach"]),
        (["i got called out by my boss"], ["The user got called out by their boss"]),
        (["My daughter Mia is 6.", "Mia's 7th birthday is on Sunday."], ["The user's daughter Mia is 6"]),
        (
            ["My dad Paddy is 84.", "My uncle turned 85 on Saturday."],
            ["The user's dad Paddy is 84", "The user's uncle turned 85 on Saturday"],
        ),
        (["My dad Paddy is 84.", "Dad turned the corner after the surgery."], ["The user's dad Paddy is 84"]),
        (
            ["My son Freddie is 6 weeks old.", "Freddie's nursery is called little acorns"],
            ["Freddie's nursery is called little acorns", "The user's son Freddie is 6 weeks old"],
        ),
    ],
)
def test_near_misses_of_lower_case_names_and_birthdays_leave_what_is_known(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


# Changes as people type them: a plan given up by name ("killing the second shop idea"), a thing ruled out by its name
# alone beside a switch ("switched to sova, jett is too hard"), a coffee quit of its kind,
# a team's size however said ("we're a team of 9", "headcount is 14 now"), part-time in place of full-time (the
# job left as it was), and fillers before and after ("bro", "ngl").
@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        (["I want to open a second shop.", "killing the second shop idea. numbers dont work"], []),
        (["We plan to move to Lisbon next year.", "we ditched the Lisbon idea"], []),
        (
            ["I main Jett but im hardstuck gold 2", "bro i switched to sova, jett is too hard for me ngl."],
            ["The user is hardstuck gold 2", "The user switched to sova"],
        ),
        (
            ["I use Trello for everything.", "switched to notion, trello is too clunky for me"],
            ["The user switched to notion"],
        ),
        (
            ["I drink 5 americanos a day.", "I quit coffee! Now I drink only barley tea."],
            ["The user drinks only barley tea", "The user quit coffee"],
        ),
        (
            ["We are a team of 9.", "Also just closed five hires, so headcount is 14 now."],
            ["The user closed five hires", "The user's team is 14 people"],
        ),
        (
            [
                "I work full-time as a paralegal, Monday to Friday.",
                "Work has agreed to let me go part-time, Tuesday, Wednesday, Thursday.",
            ],
            ["The user is going part-time, Tuesday, Wednesday, Thursday", "The user works as a paralegal"],
        ),
        (["I work full-time.", "I am going part-time in March."], ["The user is going part-time in March"]),
    ],
)
def test_changes_typed_tersely_replace_what_they_change(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


# Near misses: killing time or a workout is no plan given up; "it is too hard" rules nothing out; a wedding's
# headcount is no team; someone else's part-time job leaves the user's full-time one.
@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        (["We plan to move to Lisbon next year."], ["The user plans to move to Lisbon next year"]),
        (
            ["We plan to move to Lisbon next year.", "I killed it at the gym today"],
            ["The user killed it at the gym today", "The user plans to move to Lisbon next year"],
        ),
        (["I main Jett.", "changed my mind, it is too hard for me"], ["The user mains Jett"]),
        (["Our team is 9 people.", "the headcount for the wedding is 80"], ["The user's team is 9 people"]),
        (
            ["I work full-time as a paralegal.", "My wife works part-time."],
            ["The user works full-time as a paralegal", "The user's wife works part-time"],
        ),
    ],
)
def test_near_misses_of_terse_changes_leave_what_is_known(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


# What a sentence did something to, named by the next one without a verb ("hired the mechanic. tomas.", "We signed
# a lease! Small office in Mitte, …"), is part of its fact; what a change lets the user do ("so now I can walk to
# lab") is no fact of its own, though what someone else can do for them is.
@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("hired the mechanic. tomas. starts mon.", ["The user hired the mechanic, tomas"]),
        (
            "and got the job. hanbit international school in bundang, starting aug.",
            ["The user got the job, hanbit international school in bundang"],
        ),
        (
            "We signed a lease! Small office in Mitte, moving in on the 1st.",
            ["The user signed a lease, Small office in Mitte"],
        ),
        (
            "And we found a better local! In Vieux Lyon, rue Saint-Jean.",
            ["The user found a better local in Vieux Lyon"],
        ),
        ("I moved closer to the lab, so now I can walk to lab.", ["The user moved closer to the lab"]),
        # how the user came to the chat, and a change without what it is now, are no facts
        ("My granddaughter set this up for me on the tablet, so bear with me.", []),
        ("We pushed the trip back.", []),
        ("So I have applied there instead.", []),  # where, the message before said
        ("My brother lives out there now.", ["The user's brother lives out there now"]),
        ("We pushed the trip back to May.", ["The user's trip got pushed back to May"]),
        ("My son set up my new phone.", ["The user's son set up the user's new phone"]),
    ],
)
def test_an_object_named_after_its_sentence_and_what_a_change_lets_the_user_do(said: str, facts: list[str]) -> None:
    assert extract_by_rules(said) == facts


# Near misses: a sentence after the object with a verb, a subject or a feeling of its own stays its own
@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("I went to the doctor. Nothing serious.", ["The user went to the doctor"]),
        (
            "I'm leaving the flat. Found a cheaper room in Leith, £520 a month.",
            ["The user is leaving the flat", "The user found a cheaper room in Leith, £520 a month"],
        ),
        (
            "Need a hiring plan. I'm CTO at Kiranaflow, B2B grocery SaaS.",
            ["The user is CTO at Kiranaflow, B2B grocery SaaS"],
        ),
        ("I live in Krakow with my son. Sorry for my English.", ["The user lives in Krakow with their son"]),
        ("I hired a new mechanic. Great guy.", ["The user hired a new mechanic"]),
    ],
)
def test_near_misses_of_an_object_named_after_its_sentence(said: str, facts: list[str]) -> None:
    assert extract_by_rules(said) == facts


def test_what_someone_else_can_do_for_the_user_is_kept() -> None:
    assert settle(["My brother Sam is a carpenter.", "Sam can do the cabinets himself."]) == [
        "Sam can do the cabinets himself",
        "The user's brother Sam is a carpenter",
    ]


# Near misses from a hostile review of these classes (2026-12-07, ninth session; 115 findings, each narrowed by
# class): a relation word before a thing or a time ("my dentist appointment got", "my wife tonight"), a known name
# that is a word where a name does not stand ("reading a book", "my target is"), a measure said after "hes" or
# "shes", an age of a story ("turned 65 in 2005"), a plan kept ("not scrapping"), doing well ("killing my meal
# plan"), a headcount that is no team's, a part-time refused or someone else's, a reaction after a sentence
# ("Awkward.", "Basically, she's …"), what the user can do at all ("I can drive").
@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        (["My dentist is Dr Lee.", "my dentist appointment got cancelled"], ["The user's dentist is Dr Lee"]),
        (
            ["My partner is Sam.", "my partner visa got approved finally"],
            ["The user's partner is Sam", "The user's partner visa got approved finally"],
        ),
        (["My wife is Jen.", "my wife nowadays works from home"], ["The user's wife nowadays works from home"]),
        (
            ["I live in Reading.", "i'm reading a great book rn"],
            ["The user is reading a great book rn", "The user lives in Reading"],
        ),
        (
            ["I work at Target.", "my target is to lose 5kg"],
            ["The user works at Target", "The user's target is to lose 5kg"],
        ),
        (["My dog Max is 3.", "max 3 people per table"], ["The user's dog Max is 3"]),
        (["Nina shes 8 hours ahead of us"], []),
        (["My son Leo is 5.", "Tom hes 9 points behind"], ["The user's son Leo is 5"]),
        (["My dad Paddy is 84.", "my dad's 2nd was ok"], ["The user's dad Paddy is 84", "The user's dad's 2nd was ok"]),
        (
            ["My dad Paddy is 84.", "dad turned 65 in 2005 and retired"],
            ["The user's dad Paddy is 84", "The user's dad turned 65 in 2005 and retired"],
        ),
        (
            ["My mom Linda is 60.", "mom turned 30 when i was born"],
            ["The user's mom Linda is 60", "The user's mom turned 30 when the user was born"],
        ),
        (
            ["I plan to move to Lisbon next year.", "I'm not scrapping the Lisbon plan."],
            ["The user is not scrapping the Lisbon plan", "The user plans to move to Lisbon next year"],
        ),
        (
            ["I follow a 12 week workout plan.", "killing the workout plan so far"],
            ["The user follows a 12 week workout plan"],
        ),
        (["Our team is 9 people.", "headcount is 3 at the party so far lol"], ["The user's team is 9 people"]),
        (
            ["Our team is 9 people.", "were a team of 6 in my old job"],
            ["The user was a team of 6 in their old job", "The user's team is 9 people"],
        ),
        (
            ["I work full-time as a nurse.", "I never want to go part-time"],
            ["The user never wants to go part-time", "The user works full-time as a nurse"],
        ),
        (
            ["I work full-time as a paralegal.", "my boss wont let me go part-time"],
            ["The user works full-time as a paralegal", "The user's boss won't let the user go part-time"],
        ),
        (
            ["I work full-time as a paralegal.", "my wife is going part-time in may"],
            ["The user works full-time as a paralegal", "The user's wife is going part-time in may"],
        ),
        (
            ["I'm a full-time student.", "I'm going part-time at the cafe too"],
            ["The user is a full-time student", "The user is going part-time at the cafe"],
        ),
        (
            ["My dog Max is 3.", "Max sleeps in a crate.", "max is too big for his crate now, we switched to a bed"],
            ["Max is too big for his crate now", "The user switched to a bed", "The user's dog Max is 3"],
        ),
        (["I called my boss. Awkward."], ["The user called their boss"]),
        (
            ["i talked to my sister. Basically, she's moving out."],
            ["The user talked to their sister", "The user's sister is moving out"],
        ),
        (["Texted my ex. Mistake."], ["The user texted their ex"]),
        (["I can only eat halal food."], ["The user can only eat halal food"]),
        (["i can speak spanish fluently"], ["The user can speak spanish fluently"]),
        (["I can drive"], ["The user can drive"]),
        # found beside them, older: a pet's food switched is no new pet
        (
            ["I have a cat named Luna.", "We switched cat food."],
            ["The user has a cat named Luna", "The user switched cat food"],
        ),
    ],
)
def test_near_misses_of_the_ninth_session_classes_leave_what_is_known(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts
