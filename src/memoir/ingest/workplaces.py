"""Jobs and where they are held: the topics `topics` reads of a job ("The user is a backend dev at Infosys",
"… leads a backend team of nine at Zalando", "… is joining Shopify as a senior UX researcher"), the workplace a
fact names, and the employer by name, so that a new employer said without a job keeps the job (`settling`)."""

from __future__ import annotations

import re

from memoir.ingest.lexicon import JOB_ENDINGS, NOT_JOBS, word_list

__all__ = [
    "BESIDE",
    "EMPLOYER",
    "GOT_JOB",
    "JOB_NOUN",
    "JOINING",
    "LEADS",
    "POSITION",
    "TOOK_JOB",
    "WORKS_AS",
    "employer",
    "names_a_job",
    "workplace",
]

# A job, for its topic: "detective" too, and a student is not one (studying is a topic of its own).
_JOB_ENDINGS = tuple(e for e in (*JOB_ENDINGS, "ive") if e != "student")
_NOT_JOBS = NOT_JOBS | set(word_list("mom mum dad wife husband student"))

# The job topics read of what the user does ("works as a nurse", "leads the data platform team at Fernwood"),
# and the employer one of where ("works at Infosys", "joined Flipkart", "is now with the Ghana Health Service")
WORKS_AS = re.compile(r"^(?P<s>the user)\s+(?:(?:now|currently)\s+)?(?:works|is working)\s+as\s+(?P<v>.+)$", re.I)
LEADS = re.compile(
    r"^(?P<s>the user)\s+(?:(?:now|currently)\s+)?(?:leads|manages|runs|heads)\s+(?P<v>(?:the\s+)?[\w\s-]*"
    r"\bteam\b.*)$",
    re.I,
)
EMPLOYER = re.compile(
    r"^(?P<s>the user)\s+(?:(?:now|currently)\s+)?(?:(?:works|is working)\s+(?:at|for|with(?=\s+(?-i:[A-Z])))|"
    r"is (?:now\s+)?with(?=\s+(?:the\s+)?(?-i:[A-Z]))|"  # "is now with the Ghana Health Service"
    # "drives HGV for Eddie Stobart", "drives a bus for Wilsons": whom a driver drives for is the employer
    r"(?:drives|is driving)\s+(?:(?:an?|the)\s+)?(?:[\w-]+\s+){0,2}?for(?=\s+(?:the\s+)?(?-i:[A-Z]))|"
    r"is(?=\s+(?:now\s+)?(?:self-employed|freelance|a freelancer)\b)|"  # "From Monday I am self-employed"
    # "has joined a new firm from this month, Varghese & Associates": the firm's name is the value
    # "started at Contoso last week", not "started at Pilates classes" or "at Oakwood Primary as a volunteer"
    r"(?:has\s+|have\s+)?(?:started\s+at|starts\s+at|is\s+starting\s+at)(?=\s+(?:the\s+)?(?-i:[A-Z])[\w&'.-]*"
    r"(?:\s+(?-i:[A-Z])[\w&'.-]*)*(?:\s*$|\s*[,;]|\s+(?:last|this|on|in|from|next|a few|yesterday|today)\b))|"
    r"(?:has\s+)?joined(?:\s+a\s+new\s+(?:firm|company|employer|practice|agency|startup)\b[^,]*,)?"
    r"(?=\s+(?:the\s+)?(?-i:[A-Z])))\s+(?P<v>.+)$",
    re.I,
)
# A job or shift held beside another: no new value of the one the user has
BESIDE = re.compile(r"\b(?:too|also|as well|second job|side (?:job|gig|hustle)|on the side|extra)\b", re.I)

# Jobs said without an article, as people writing in a second language say them: a closed list, since
# "-ist" and "-eer" also end beliefs and roles ("Buddhist", "feminist", "volunteer").
_BARE_JOBS = "|".join(
    word_list(
        "chef cook nurse pilot doctor teacher engineer pharmacist dentist lawyer accountant architect journalist "
        "developer programmer designer manager mechanic electrician plumber driver waiter waitress barista cashier "
        "secretary receptionist physiotherapist therapist scientist researcher professor lecturer farmer baker "
        "butcher carpenter translator photographer midwife surgeon paramedic"
    )
)
JOB_NOUN = re.compile(
    r"^the user (?:is (?:now\s+)?(?:a|an)|is now|has become|became|got promoted to|was promoted to|"
    # without an article ("I am chef de partie", "she is nurse"), only a word that names nothing but a job
    # ("I am pastry chef in hotel downtown": one word before it that says what kind of job, not "terrible cook",
    # "home cook", "designated driver", "former chef")
    rf"is(?=\s+(?:(?:pastry|head|sous|line|junior|senior|lead|chief|staff|software|trainee|night|qualified|"
    rf"registered|certified|school|primary|secondary|civil|mechanical|electrical|dental|truck|bus|taxi|delivery)"
    rf"[- ])?(?:{_BARE_JOBS})\b))\s+"
    r"(?P<v>(?:[\w-]+\s+){0,3}?(?P<head>[\w-]+))(?P<where>\s+(?:at|for|in|with)\s+.+)?$",
    re.I,
)
# "is joining Shopify as a senior UX researcher starting Nov 4": the role, not when it starts
JOINING = re.compile(
    r"^the user\s+(?:is joining|will be joining|will join|has joined|joined|is starting at|starts at)"
    # a named employer ("Shopify", "the Ghana Health Service"), not "a local football club as a goalkeeper"
    r"\s+(?P<where>(?:the\s+)?(?-i:[A-Z]).*?)\s+as\s+(?:an?\s+)?(?P<v>.+?)(?:,|\s+(?:starting|from|on|in|next)\b|$)",
    re.I,
)
# "got the hospital pharmacist position at sunnybrook, start in 2 wks": a job, and where (as typed)
POSITION = re.compile(
    r"^the user\s+(?:(?:just|finally)\s+)?(?:got|landed|accepted|took|has got)\s+"  # an offer is no job yet
    r"(?:the|a|an)\s+(?P<v>[\w-]+(?:\s+[\w-]+){0,3}?)\s+(?:position|job|role|post)\s+"
    r"(?P<where>(?:at|with)\s+[^,]+)",
    re.I,
)

# "accepted an offer from a fintech startup called Paylane, as a senior QA engineer": a new job, where and as what
# (an offer accepted is the job; one only got is not yet)
ACCEPTED = re.compile(
    r"^the user\s+(?:has\s+|have\s+|just\s+|finally\s+)*accepted\s+(?:an?|the)\s+(?:job\s+)?offer\s+(?:from|at|with)\s+"
    r"(?:an?\s+(?:[\w-]+\s+){0,3}?(?:called|named)\s+|the\s+)?"
    r"(?P<where>(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*){0,3})"
    r"(?:,?\s+as\s+(?:an?\s+)?(?P<v>[\w-]+(?:\s+[\w-]+){0,3}))?\s*(?:,|$)",
    re.I,
)

# "I accept Tesco job", "took the job at Tesco", "accepted the Tesco offer": the new employer, said by its name
TOOK_JOB = re.compile(
    r"^the user\s+(?:has\s+|have\s+|just\s+|finally\s+)*(?:accepted|accepts|took|has taken|is taking|takes)\s+"
    r"(?:the\s+|a\s+)?(?:(?:new\s+)?(?:job|offer|position|role)\s+(?:at|with|from)\s+"
    r"(?P<where>(?:the\s+)?(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*){0,3})"
    r"|(?P<named>(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*){0,3})\s+(?:job|offer|position|role))\b",
    re.I,
)

# "got job at bakery in Leslieville, head baker position", "landed a new job at Stripe": a job, its role if said
GOT_JOB = re.compile(
    r"^the user\s+(?:(?:just|finally)\s+)?(?:got|landed|has got|has landed)\s+(?:a\s+|the\s+)?(?:new\s+)?job\s+"
    r"(?P<where>(?:at|with)\s+(?![^,]*\bfor\s+(?:my|our|his|her|their)\b)[^,]+?)"  # not "for my son"
    r"(?:,\s*(?:as\s+(?:an?\s+)?)?(?P<v>[\w-]+(?:\s+[\w-]+){0,3}?)"
    r"(?:\s+(?:position|role|post))?)?$",
    re.I,
)


def workplace(fact: str) -> str | None:
    """Where a fact says the user holds their job ("in a restaurant in Lyon" of "The user is chef de partie in
    a restaurant in Lyon", "Shopify" of "The user is joining Shopify as …"), or None."""
    text = " ".join(fact.replace("’", "'").split()).rstrip(".!")
    if (joining := JOINING.match(text)) and names_a_job(joining.group("v")):
        return f"at {joining.group('where').strip()}"  # "joining Shopify as …": at Shopify
    if (position := POSITION.match(text)) and names_a_job(position.group("v")):
        return position.group("where").strip()
    if accepted := ACCEPTED.match(text):  # "accepted an offer from … Paylane, as …": at Paylane
        return f"at {accepted.group('where')}"
    if took := TOOK_JOB.match(text):  # "accepts Tesco job": at Tesco
        return f"at {took.group('where') or took.group('named')}"
    if got := GOT_JOB.match(text):  # "got job at Kaiser, night shift nurse position": at Kaiser
        return got.group("where").strip()
    job = JOB_NOUN.match(text)
    if job is None or job.group("where") is None or not names_a_job(job.group("v")):
        return _led_at(text)
    return job.group("where").strip()


# The employer a workplace names: "at Infosys", "at the Ghana Health Service", "at Hill, Cole & Partners";
# not "at a fintech startup called Loonie Labs" or "in a restaurant in Lyon" (nothing to compare by name)
_NAMED_EMPLOYER = re.compile(
    r"^at\s+(?P<name>(?:the\s+)?(?-i:[A-Z])[\w&'.-]*(?:\s+(?:&\s+|of\s+)?(?-i:[A-Z])[\w&'.-]*)*)", re.I
)


def employer(fact: str) -> str | None:
    """The employer by name where a fact says the user holds a job there ("Infosys" of "The user is a backend
    dev at Infosys", "Shopify" of "The user is joining Shopify as …"), or None."""
    text = " ".join(fact.replace("’", "'").split()).rstrip(".!")
    if BESIDE.search(text):
        return None  # "works at Tesco on weekends too": a job beside the one known
    said = m.group("v") if (m := EMPLOYER.match(text)) else None
    where = f"at {said}" if said else workplace(text)
    named = _NAMED_EMPLOYER.match(where) if where else None
    return named.group("name") if named else None


def _led_at(text: str) -> str | None:
    """Where a team the user leads is: "at Zalando" of "The user leads a backend team of nine at Zalando"."""
    led = next((m for p in (WORKS_AS, LEADS) if (m := p.match(text)) and "team" in m.group("v")), None)
    at = re.search(r"\bat\s+(?=(?:the\s+)?(?-i:[A-Z]))(?P<rest>.+)$", led.group("v")) if led else None
    return f"at {at.group('rest')}" if at else None


def names_a_job(phrase: str) -> bool:
    """ "chef de partie", "senior UX researcher"; not "2nd year vet sci student" (a vet student studies)."""
    words = phrase.split()
    return bool(words) and words[-1].lower() not in _STUDYING and any(_is_job(word) for word in words)


_STUDYING = frozenset(word_list("student students undergrad undergraduate postgrad fresher freshman sophomore"))


def _is_job(head: str) -> bool:
    lower = head.lower()
    return lower not in _NOT_JOBS and lower.endswith(_JOB_ENDINGS)
