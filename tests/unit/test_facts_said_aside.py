"""What people say aside, in brackets and in passing, as the `blind8` set's people said it (sixteenth session).

An aside in brackets that is a sentence of its own is read after its sentence ("(32 years in primary - I'm finally
free!)"); ages in brackets are each one's age ("our children Emil (7) and Greta (4)"); who someone is, in brackets
("Karthik (my husband)", "kenzie (gf)"); a name's "'s" that is "is" or "has" ("Kiri's at uni"); a "not" that says the
fact ("I am not VAT registered") is no old value; a sound before a comma is no name ("Ooh, the … idea is clever"); a
span is no age ("he's 2 hours away now" of a father of 84); a disease is no one "he" stands for ("has Alzheimer's, he
moved in"); a past state stays ("I was on £49k"); a role offered by its title; a place of the user's said in passing
("my climbing gym in Lyon"); what "the name is" names; a past told after when; "so now 47" after a birthday; what the
user has not ("dont have a car either"); a choice ("polytunnel it is", "going with Kupp Runneth Over"); a statement
before a short question. And what is no fact: a doubt of the moment, a mood, how "it" feels.

Read as a spec, as tests/unit/test_fact_rules.py is: each case a way of saying it, with the facts kept.
"""

from __future__ import annotations

import pytest

from tests.unit.test_fact_rules import settle


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # an aside that is a sentence of its own is read after the sentence that held it
        (
            [
                "Hello! I'm Gwen, recently retired headteacher (32 years in primary - I'm finally free!) and I've "
                "taken up beekeeping."
            ],
            [
                "The user has taken up beekeeping",
                "The user is a recently retired headteacher",
                "The user is finally free",
                "The user's name is Gwen",
            ],
        ),
        (["we went to Rome (I know, I know!) for a week in May"], ["The user went to Rome for a week in May"]),
        # an aside of someone just named stays where it is said: "she" is Irene, not Pau
        (
            [
                "Bigger news: Irene is moving out in November (she got a job in Madrid) and my boyfriend Pau is "
                "moving in."
            ],
            [
                "Irene is moving out in November (she got a job in Madrid)",
                "Pau is moving in",
                "The user's boyfriend is Pau",
            ],
        ),
        (
            ["my grandson Alfie (he's 9) is desperate to come along"],
            ["Alfie is 9", "The user's grandson Alfie (he's 9) is desperate to come along"],
        ),
    ],
)
def test_an_aside_in_brackets_is_read_where_it_belongs(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        (
            ["We are family of four, my wife Nadine and our children Emil (7) and Greta (4)."],
            [
                "The user is family of four",
                "The user's child Emil is 7",
                "The user's child Greta is 4",
                "The user's wife is Nadine",
            ],
        ),
        (
            ["I live in Oadby with my wife Funmi and our two boys, Tobi (10) and Dami (7)."],
            [
                "The user lives in Oadby with Funmi",
                "The user's son Dami is 7",
                "The user's son Tobi is 10",
                "The user's two boys, Tobi and Dami",
                "The user's wife is Funmi",
            ],
        ),
        # the age first, what follows it read after the sentence
        (
            [
                "my son Sota (14, he plays violin in school orchestra, much better than me lol) needs help with "
                "homework."
            ],
            [
                "The user's son Sota is 14",
                "The user's son Sota needs help with homework",
                "The user's son Sota plays violin in school orchestra, much better than the user",
            ],
        ),
        (["Tom (34) from accounts is leaving"], []),  # someone, of nobody the user names
    ],
)
def test_ages_in_brackets_are_each_ones_age(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        (
            ["Karthik (my husband) is travelling to Hyderabad every week for work these days"],
            ["Karthik is travelling to Hyderabad every week for work these days", "The user's husband is Karthik"],
        ),
        (
            ["trophy. found a place here in omaha. kenzie (gf) says its the dumbest thing ive ever spent money on."],
            ["The user found a place here in omaha", "The user's girlfriend is Kenzie"],
        ),
        (["Grandma (my mum) can do Thursdays."], []),  # who she is, no name
        (["Dr. Okafor (my GP) says my A1C is fine"], []),  # the title stays with its name
        # a name's "'s" that is "has" or "is"
        (
            ["my daughter Poppy is 9", "food wise Poppy's been veggie since last year"],
            ["Poppy has been veggie since last year", "The user's daughter Poppy is 9"],
        ),
        (
            ["my daughter Kiri is 19", "Kiri's at uni in Dunedin now"],
            ["Kiri is at uni in Dunedin now", "The user's daughter Kiri is 19"],
        ),
        # not a home ("at Sarah's"), not "Let's", not a thing ("Store's going good")
        (
            ["Let's go. It's been a long day. I'm staying at Sarah's in Leeds"],
            ["The user is staying at Sarah's in Leeds"],
        ),
        (["Store's going good, been busy"], []),
    ],
)
def test_who_someone_is_and_a_names_s(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # the verb's "not" says the fact; a value after "not" is the old one
        (["I am not VAT registered."], ["The user is not VAT registered"]),
        (["I'm not Spanish, I'm Catalan"], ["The user is Catalan", "The user is not Spanish"]),
        (
            ["the deposit was 1800 euro", "sorry, deposit was not 1800, it was 2100 euro"],
            ["The user's deposit was 2100 euro"],
        ),
        (["The party is at Jump Zone, not Flip Out"], ["The user's party is at Jump Zone"]),
        # a sound before a comma is no name, and what follows it a clause of its own
        (["Ooh, the one-frame-at-a-time idea is clever."], []),
        (["Woah, that's a nice pic, John!"], []),
        (
            ["Gwen, retired headteacher, Ludlow"],
            ["The user is a retired headteacher", "The user lives in Ludlow", "The user's name is Gwen"],
        ),
        # a name and how it is said is no thing of the user's; a thing and how it is said is
        (["Craig actually moved to Phoenix"], []),
        (
            ["Upgrade course also got pushed, now it's January next year because of the fleet change."],
            ["The user's upgrade course also got pushed, now it's January next year"],
        ),
    ],
)
def test_a_not_a_sound_and_a_name_as_said(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # a span is no age, nor is how often
        (
            [
                "my dad Raymond is 84 and has Alzheimer's",
                "so he's 2 hours away now and he offered to take dad one weekend a month",
            ],
            [
                "The user's dad Raymond has Alzheimer's",
                "The user's dad Raymond is 2 hours away now",
                "The user's dad Raymond is 84",
                "The user's dad Raymond offered to take dad one weekend a month",
            ],
        ),
        (
            ["my dad Raymond is 84 and has Alzheimer's", "sorry, Raymond is 85 years old actually"],
            ["The user's dad Raymond has Alzheimer's", "The user's dad Raymond is 85 years old actually"],
        ),
        # a disease is no one "he" stands for
        (
            ["my dad Raymond is 84 and has Alzheimer's, he moved in with us in March"],
            [
                "The user's dad Raymond has Alzheimer's",
                "The user's dad Raymond is 84",
                "The user's dad Raymond moved in with the user in March",
            ],
        ),
        # what was stays what it was
        (["For salary, I was on £49k.", "I will accept £48k now if the role is good"], ["The user was on £49k"]),
        # a birthday, "so now 47"; what the user wrote before is no fact
        (
            [
                "My name is Michiko, I am 46 years old.",
                "Small correction: I wrote I am 46 but I had birthday last week, so now 47.",
            ],
            ["The user had birthday last week", "The user is 47 now", "The user's name is Michiko"],
        ),
        (
            [
                "I am Seun, 41 years, I came to UK from Ibadan in 2012. Funmi is a social worker with the county "
                "council."
            ],
            ["The user came to UK from Ibadan in 2012", "The user is 41 years old", "The user's name is Seun"],
        ),
        (
            ["my doctor put me on lisinopril last month which she thinks is stress, lol I'm 52 not 80"],
            ["The user is 52", "The user is on lisinopril now"],
        ),
    ],
)
def test_ages_spans_and_what_was(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        (
            ["Morrow & Pike in Nottingham offered me Senior QS, £50k, hybrid 3 days in office."],
            ["The user got offered Senior QS by Morrow & Pike in Nottingham, £50k, hybrid 3 days in office"],
        ),
        (["they offered me coffee"], []),
        # a place of the user's, in passing; not a time, nor a place that was theirs
        (
            ["Last thing: I'll practise it at my climbing gym in Lyon with my friends."],
            ["The user's climbing gym is in Lyon"],
        ),
        (
            ["they stay at the Hotel Granvia in Kyoto, then with us in our apartment in Tenma"],
            ["The user's apartment is in Tenma"],
        ),
        (["we sell my flat in May"], ["The user sells their flat in May"]),
        (["I grew up near my old flat in Leeds"], ["The user grew up near their old flat in Leeds"]),
        # what "the name is" names
        (
            [
                "I have small landscaping company in Wokingham, the name is Zielony Garden Services (zielony mean "
                "green in polish)."
            ],
            [
                "The user has small landscaping company in Wokingham",
                "The user's company is called Zielony Garden Services",
            ],
        ),
        (["School name is Little Banyan Public School."], ["The user's school is called Little Banyan Public School"]),
        (
            ["When I was child in Kanazawa I played koto, so I can read some music."],
            ["The user played koto when they were child in Kanazawa"],
        ),
    ],
)
def test_roles_places_and_names_in_passing(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        (["dont have a car either so its 2 buses lol ironic"], ["The user doesn't have a car either"]),
        (
            ["scrap that, no glass allowed on site. polytunnel it is, 10x6 ish. any recs"],
            ["The user is going with polytunnel"],
        ),
        (
            ["fyi the team name makes zero sense now. going with Kupp Runneth Over."],
            ["The user is going with Kupp Runneth Over"],
        ),
        (["going with my mum to the shops"], []),
        (["so be it. that it is"], []),
        (["im 29 and this is what i do w my brain"], ["The user is 29"]),
        # a statement before a short question; not one asked of the assistant
        (
            ["I'm physics teacher in a high school, so explaining rules is ok for me, but improvising voices?? no way"],
            ["The user is physics teacher in a high school"],
        ),
        (["I'm new here, but can you help me?"], []),
    ],
)
def test_what_the_user_has_not_and_chooses(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        (["I'm not even sure what I'm asking exactly but my dad Raymond is 84"], ["The user's dad Raymond is 84"]),
        (["I am disappointed but moving on."], []),
        (["I'm terrified of flying"], ["The user is terrified of flying"]),  # a fear, not a mood
        (
            ["My main experience is commercial fit-outs. It is not easy o, but God is in control."],
            ["The user's main experience is commercial fit-outs"],
        ),
        (["my car is a Zoe, it is cheap"], ["The user's car is a Zoe", "The user's car is cheap"]),
        # "it" is never "the user's favourite at"
        (
            ["My favourite at the moment is the Renault Zoe, because it is cheap."],
            ["The user's favourite at the moment is the Renault Zoe"],
        ),
        (
            ["my trip to Rome is in May, it is booked"],
            ["The user's trip to Rome is booked", "The user's trip to Rome is in May"],
        ),
    ],
)
def test_doubts_moods_and_how_it_feels_are_no_facts(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # a statement said in surprise is no question; one asked is
        (
            [
                "my brother Craig lives in Denver and he calls like once a month",
                "will do. random thing, Craig actually moved to Phoenix for work this month?? so he's 2 hours away now",
            ],
            [
                "Craig is 2 hours away now",
                "Craig moved to Phoenix for work this month",
                "The user's brother Craig calls like once a month",
            ],
        ),
        (["is it normal that my cat sleeps 20 hours??"], []),
        (["you moved to Leeds??"], []),
        # an event there is, with its day
        (
            ["Also, there is student recital on 6 July, she suggested I play The Swan."],
            ["The user has a student recital on 6 July"],
        ),
        (["there is a concert in the park"], []),
        # what the user is doing of their own, for someone named; not a chore of the day
        (
            ["hey. stage managing my first show for the Bellarine Players - Arsenic and Old Lace, opening 8 Nov."],
            ["The user is stage managing their first show for the Bellarine Players"],
        ),
        (["cleaning my room for Mum"], []),
        # a race "I'll do" with its month is a plan; "will do" is a reply
        (
            [
                "I am training for the Nairobi half marathon in October",
                "I'm no longer doing the half marathon, physio said no racing for six weeks. I'll do the 10k in "
                "December instead",
            ],
            ["The user will do the 10k in December"],
        ),
        (["will do, thanks"], []),
        # an event's size said in a request, which a later count replaces; not a friend's
        (
            [
                "Hi, I'm Ravi, sous chef in Dubai. I need help designing a Diwali dinner menu for 200 guests.",
                "Numbers update: 150 guests now, the corporate client cancelled their block.",
            ],
            [
                "The user is a sous chef in Dubai",
                "The user's dinner is for 150 guests",
                "The user's name is Ravi",
            ],
        ),
        (["can you plan a party for 30 kids for my friend's son?"], []),
        # a sign-on later in the conversation
        (["sorry been flat out at work. Bec again btw. news: gary is out."], ["The user's name is Bec"]),
        (["Tom again. he is late"], []),
        # a rental given back takes back the renting
        (
            [
                "Now I rent the cello from Musikhaus Kessler, 4/4 size, 35 euro per month.",
                "I did it, I bought a cello! I returned the rental yesterday.",
            ],
            ["The user bought a cello"],
        ),
        (
            [
                "Now I rent the cello from Musikhaus Kessler, 4/4 size, 35 euro per month.",
                "I haven't returned the rental yet",
            ],
            [
                "The user hasn't returned the rental yet",
                "The user rents the cello from Musikhaus Kessler, 4/4 size, 35 euro per month",
            ],
        ),
    ],
)
def test_surprise_events_doings_and_returns(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # someone else's birthday is no age of the user's
        (["I'm 42", "it was my husband's birthday last week, he's now 50"], ["The user is 42"]),
        (["I'm 47", "my husband had birthday too, so now 50."], ["The user is 47", "The user's husband had birthday"]),
        (["For my daughter's birthday party we invited 12, now 15."], []),
        # years after a job are experience, not age
        (["I'm Marek, welder, 15 years"], ["The user is a welder", "The user's name is Marek"]),
        # what the user said before is no fact only where the sentence corrects it
        (["I said I live in Leeds but I actually live in Bradford"], ["The user actually lives in Bradford"]),
        (["I wrote I'm allergic to nuts, that's why I ask"], ["The user wrote they're allergic to nuts"]),
        # gf and bf as whose someone is, not gluten-free or body fat
        (["made pasta (gf) for the kids tonight"], ["The user made pasta (gf) for the kids tonight"]),
        (
            ["spent christmas with family (my parents) in cork"],
            ["The user spent christmas with family (their parents) in cork"],
        ),
        # plural relations, and names that are not theirs
        (
            ["my sisters Ana (30) and Bea (27) are visiting"],
            [
                "The user's sister Ana is 30",
                "The user's sister Bea is 27",
                "The user's sisters Ana and Bea are visiting",
            ],
        ),
        (["my kids go to school with Tom (8) and Ben (6)"], ["The user's kids go to school with Tom (8) and Ben (6)"]),
        (
            ["my son Tom (14) and a friend Max (15) are coming"],
            ["The user's son Tom and a friend Max (15) are coming", "The user's son Tom is 14"],
        ),
        (["my brother's kids Sam (7) and Tia (5)"], ["The user's brother's kids Sam (7) and Tia (5)"]),
        # an age first only after a name; what follows it only when of them
        (
            ["our new place (14, Elm Street) has a big garden"],
            ["The user's new place (14, Elm Street) has a big garden"],
        ),
        (
            ["my son Sota (15, birthday was Friday!) wants a bike"],
            ["The user's son Sota is 15", "The user's son Sota wants a bike"],
        ),
        (
            ["I start my new job (finally!) at St. Thomas' hospital in May"],
            ["The user starts their new job at St. Thomas' hospital in May"],
        ),
        # an aside of someone named, a sentence of its own, said of them
        (
            ["my husband (he's a chef - long hours!) works in Soho"],
            ["The user's husband is a chef", "The user's husband works in Soho"],
        ),
        (["The kids (I have 3 - all under 6!) are driving me mad."], []),
        (
            ["I'm Tom (we spoke last week!) and I run a bike shop in Hull."],
            ["The user runs a bike shop in Hull", "The user's name is Tom"],
        ),
        # a name's "'s" before a thing of theirs, or the next word's "'s"
        (["Dad's back pain is worse"], ["The user's dad's back pain is worse"]),
        (["Anna's living room is painted"], []),
        (["Dad's got Parkinson's now"], ["The user's dad has got Parkinson's now"]),
        (["Apple's just released a new iPhone"], []),
    ],
)
def test_near_misses_a_hostile_review_found_of_asides_ages_and_names(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # a fact said the other way replaces it
        (["I am not VAT registered.", "I am VAT registered now"], ["The user is VAT registered now"]),
        (["I am not VAT registered.", "I registered for VAT last month"], ["The user registered for VAT last month"]),
        (["dont have a car either", "I have a car now"], ["The user has a car now"]),
        (["I don't drink", "I drink tea"], ["The user doesn't drink", "The user drinks tea"]),
        # a sound, then a sign-on; a name, then a description with its own clause
        (
            ["Cheers, Nadia here, 33, accountant in Leeds"],
            ["The user is 33 years old", "The user is an accountant in Leeds", "The user's name is Nadia"],
        ),
        (
            ["Tom, that's me, 45, electrician from Leeds"],
            ["The user is 45 years old", "The user is an electrician from Leeds", "The user's name is Tom"],
        ),
        (
            ["Dang, 40, chef in Hue"],
            ["The user is 40 years old", "The user is a chef in Hue", "The user's name is Dang"],
        ),
        # a value the user would take replaces none they had; one they have does
        (["my salary was 40k", "got a raise to 45k"], ["The user's salary was 45k"]),
        # no role offered, a role offered
        (["Spotify offered me Premium for free"], []),
        (["Google offered me Team Lead, in Zurich"], ["The user got offered Team Lead by Google, in Zurich"]),
        # not the user's place, not a place, not theirs now
        (["is my airbnb apartment in Lisbon nice?"], []),
        (["can you find my dads house in Cork on the map"], []),
        (["the heating in my office on Tuesdays is off"], []),
        (["we sold our house in Leeds and moved to Harrogate"], []),
        # "the name is" of the user, where nothing else was named or "by the way" says so
        (
            ["hi there, the name is Dave, 52, retired plumber"],
            ["The user is 52 years old", "The user is a retired plumber", "The user's name is Dave"],
        ),
        (
            ["I run a plumbing business in Leeds, the name is Dave by the way"],
            ["The user runs a plumbing business in Leeds", "The user's name is Dave"],
        ),
        (
            ["School name is Little Banyan Public School.", "School name is Greenwood Academy now"],
            ["The user's school is called Greenwood Academy"],
        ),
        # when goes with its own clause
        (
            ["When I was a student I lived in Leeds, now I live in York"],
            ["The user lived in Leeds when they were a student", "The user lives in York"],
        ),
        (
            ["When I was a student I lived in Leeds, now I live in York", "I live in Manchester now"],
            ["The user lived in Leeds when they were a student", "The user lives in Manchester"],
        ),
        # not a thing the user has not, nor a choice
        (["dont have a clue what to cook"], []),
        (["doctor said: dont drink any alcohol for a week"], []),
        (["funny how it is"], []),
        (["Crazy it is, but true"], []),
        (["going with Dave"], []),
        (["so going with the flow"], []),
        (["prob going with the XLT"], ["The user is going with the XLT"]),
        # a doubt of the statement, asked after it
        (["I'm quitting my job, but should I??"], []),
        # a rental swapped for another is still rented
        (
            ["I rent a car from Hertz for work", "I returned the rental car, they gave me a new one"],
            ["The user rents a car from Hertz for work"],
        ),
        (
            ["I moved to Leeds and that is where I met my wife"],
            ["The user moved to Leeds and that is where they met their wife"],
        ),
    ],
)
def test_near_misses_a_hostile_review_found_of_changes_places_and_choices(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # a tool switched to, the old one ruled out after "because … so slow"
        (
            [
                "We play online by Discord and Roll20, every Friday night 20h.",
                "Other news, we moved to Foundry VTT, I bought the license because Roll20 was so slow with my maps",
            ],
            [
                "The user bought the license",
                "The user moved to Foundry VTT",
                "The user plays online by Discord and Foundry VTT, every Friday night 20h",
            ],
        ),
        # what the user parted with, said first
        (["I drive a VW Touran", "The Touran I sold to my neighbour for 5.000 €, he is happy."], []),
        (["the car I sold was red"], []),
        # someone named gives up their part (not "stepped back from the kerb", "pulled out of the race")
        (
            [
                "Mrs. Fernandes from class 2 is co-organising with me, she is handling the sponsors.",
                "One more thing, Mrs. Fernandes is unwell and stepped back, Mr. Qureshi has taken over the sponsors.",
            ],
            [],
        ),
        (
            [
                "director is Gary, been doing am-dram since the 80s",
                "news: gary's pulled out, health stuff, he cant commit.",
            ],
            ["Gary can't commit"],
        ),
        (
            ["my son Tom plays in the band", "the car pulled out in front of me and Tom stepped back from the kerb"],
            ["The user's son Tom plays in the band"],
        ),
        (["my son Tom plays in the band", "Tom pulled out of the race"], ["The user's son Tom plays in the band"]),
        # one of a list taken back, the rest kept
        (
            ["we are visiting Kyoto, Hiroshima and Osaka in May", "we cut Hiroshima, too much for dad's hip"],
            ["The user is visiting Kyoto and Osaka in May"],
        ),
    ],
)
def test_what_a_switch_a_sale_or_a_step_back_takes_back(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # a value corrected in the same sentence is not denied: "not in May, it is in June"
        (["our wedding is in May", "our wedding is not in May, it's in June"], ["The user's wedding is in June"]),
        (
            ["my interview is on the 3rd", "my interview is not on the 3rd, it's on the 5th"],
            ["The user's interview is on the 5th"],
        ),
        # a name's 's before a thing of theirs that "is"
        (["Amy's leaving do is on Friday"], []),
        (["Kim's starting salary is £30k"], []),
        (["Mum's vegan recipes are amazing"], ["The user's mum's vegan recipes are amazing"]),
        (["my sister Jo is 30", "Jo's due in May"], ["Jo is due in May", "The user's sister Jo is 30"]),
        # gluten-free is no one
        (["Pasta (gf) is what I eat most days"], []),
        (["my gf bread keeps crumbling"], ["The user's gf bread keeps crumbling"]),
        (
            ["im cooking dinner for my gf's parents next saturday"],
            ["The user is cooking dinner for their girlfriend's parents next saturday"],
        ),
        (
            ["omg yes. also my bf marcus is doing the website for free bc hes a web dev"],
            ["Marcus is a web dev", "Marcus is doing the website for free", "The user's boyfriend is Marcus"],
        ),
        # an age first, then what is said of them, of them
        (
            ["my daughter Ava (9, she's obsessed with horses) wants a pony"],
            [
                "The user's daughter Ava is 9",
                "The user's daughter Ava is obsessed with horses",
                "The user's daughter Ava wants a pony",
            ],
        ),
        (["I got a new job (at Google!)"], ["The user got a new job (at Google!)"]),
        # a value the user earns now replaces the old; one they look for does not
        (["I earn 30k", "I earn 35k now, looking for 40k next year"], ["The user earns 35k"]),
        # signs-on and events, narrowly
        (["Covid again btw, so the trip is off"], []),
        (["there's no class on Monday"], []),
        (["there is a show on BBC on Sunday"], []),
        (["there's a party on Saturday but I'm not invited"], ["The user is not invited"]),
        # asked, to be told it is not so
        (["So I'm fired??"], []),
        (["I'm a bad mum, but is it normal to lose my temper??"], []),
        # a place hoped for, left, or a quarter
        (["if I open my own cafe in Brighton, what licence do I need?"], []),
        (["I quit my gym in Leeds"], []),
        (["we'll move into our office in Q3"], []),
        # a rental swapped, a past home beside the present one
        (
            ["I rent a van for the business", "I returned the rental van and got a bigger one"],
            ["The user rents a van for the business"],
        ),
        # choices and offers that are none
        (["Of course it is"], []),
        (["going with Aunt Sue"], []),
        (["going with the wife"], []),
        (["dont have a strong opinion"], []),
        (["The hotel offered me Junior Suite"], []),
        (["Acme offered me CTO"], ["The user got offered CTO by Acme"]),
        (["eating my lunch at Pret rn"], []),
        (["I'll do the same on Monday"], []),
        (["a wedding for 100 guests costs how much on average?"], []),
        # another's mood is theirs
        (
            ["My son is anxious, he has been since covid"],
            ["The user's son has been since covid", "The user's son is anxious"],
        ),
        (["We're all still sad about it"], []),
    ],
)
def test_near_misses_a_second_hostile_review_found(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts


@pytest.mark.parametrize(
    ("turns", "facts"),
    [
        # an event's size, its date and its budget, each changed by what changes it
        (
            [
                "Hi, I'm Ravi, sous chef in Dubai. I need help designing a Diwali dinner menu for 200 guests.",
                "Numbers update: 150 guests now, the corporate client cancelled their block.",
                "Dinner's on 1 November in the Al Noor ballroom.",
                "the client called: budget is up to 400 dirhams a head, and they moved the dinner to 2 November.",
            ],
            [
                "The user is a sous chef in Dubai",
                "The user's dinner budget is up to 400 dirhams a head",
                "The user's dinner is for 150 guests",
                "The user's dinner is on 2 November in the Al Noor ballroom",
                "The user's name is Ravi",
            ],
        ),
        (
            ["our budget is 350 dirhams per head", "budget is up to 400 dirhams a head now"],
            ["The user's budget is 400 dirhams per head"],
        ),
    ],
)
def test_an_events_size_date_and_budget_change_apart(turns: list[str], facts: list[str]) -> None:
    assert settle(turns) == facts
