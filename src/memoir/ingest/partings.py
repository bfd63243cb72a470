"""Who leaves the user's life in a role, and what declines them: "Okafor is retiring at the end of term" ends the user's
supervisor Okafor; "Kestrel called. They gave the job to an internal candidate" ends the interview with Kestrel.

`losses` reads the pets lost, the partners broken up with and the associates who left "my" team; this module reads
the people the known facts give a role, named without "my", and the organisations the user dealt with.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memoir.ingest.known import Known
from memoir.ingest.lexicon import PEOPLE, word_list
from memoir.ingest.values import MONTHS

__all__ = ["WORK_ROLES", "declined_by", "named_leaving", "parted_facts", "says_parted"]

# Whom the user works beside or under
WORK_ROLES = "associate|cofounder|co-founder|business partner|boss|manager|team lead|supervisor|advisor|adviser|mentor"

# Whom the user knows in a role that ends when they go, named without "my": "Okafor is retiring at the end of term",
# "Irene is moving out in November", "hebert announced he's retiring in march", "mr delgado went on paternity leave"
_ROLES = (
    rf"{WORK_ROLES}|cto|ceo|teacher|tutor|coach|trainer|flatmate|flat mate|roommate|housemate|lodger|nanny|"
    r"childminder|au pair|doctor|gp|therapist|counsellor|counselor|physio|landlord|landlady|carer|instructor"
)
# Who works for the user, and comes and goes each day ("Chloe has left, the kids are in bed now"): gone for good only
# when the sentence says so ("Vikas has left, he went back to his village", "new boy is Sachin")
_HELPERS = r"helper|assistant|cleaner|babysitter|secretary|receptionist|apprentice|housekeeper"
_WHO_HELPS = r"(?:\s+(?:boy|girl|lady|man))?"  # "the user's helper boy Vikas"
_FOR_GOOD = re.compile(
    r"\b(?:for good(?!\s+reason)|resigned(?!\s+(?:herself|himself|themselves|myself))|"
    r"quit(?=\s*(?:[.,;!]|$|on us|the job))|"
    r"(?:went|gone) back to (?:his|her|their) (?:village|country|home country|hometown)"
    r"(?!.*\b(?:for the|back in|till|until)\b)|"
    rf"new (?:boy|girl|one|{_HELPERS}) (?:is|starts|started|joins|joined|called|named))\b",
    re.I,
)
_TITLE = r"(?:(?:dr|mr|mrs|ms|miss|prof|professor)\.?\s+)"
_MONTHS = "|".join(sorted(MONTHS, key=len, reverse=True))  # the month words the values know
_NAMED_LEAVING = re.compile(
    rf"(?<![\w'’-]){_TITLE}?(?P<name>[\w'’-]+)\s+"
    r"(?:(?:has|is|just|finally|officially|now)\s+|(?:told\s+(?:me|us)|announced|said|says)\s+(?:that\s+)?"
    r"(?:she|he|they)(?:'s|’s|\s+is|\s+was|\s+has|\s+are)\s+)*"
    r"(?:retiring|retired|leaving|left|quit|quitting|resigned|moving out|moved out|"
    r"(?:went|is going|going) on (?:[\w-]+\s+)?leave)"
    # for good, or on a date: not "left early", "is leaving for lunch", "left me a voicemail", "leaving in an hour"
    rf"(?=\s*(?:[.,;:!?)(]|$|(?:at|by) the end of\b|in (?:{_MONTHS})\b|next (?:week|month|term|year|semester)\b|"
    r"this (?:month|term|year|semester|summer|spring|autumn|fall|winter)\b|for good\b|(?:so|and|but)\b|"
    rf"on (?:\d|the \d|(?:{_MONTHS})\b)))",
    re.I,
)
# A departure only talked of: "Okafor might be retiring", "rumour is Irene is moving out", "she may leave"; "may"
# the month ("moving out in May", "on 3 May", "May 14th") is no hedge
_HEDGED = re.compile(
    r"\b(?:maybe|might|perhaps|possibly|probably|rumou?rs?|thinking (?:of|about)|if|whether)\b|"
    r"(?<!\bin )(?<!\bon )(?<!\bby )(?<!\bof )(?<!\d )(?<!\bend )(?<!\bmid )(?<!\bearly )(?<!\blate )"
    r"(?<!\bnext )(?<!\bthis )(?<!\buntil )(?<!\bsince )\bmay\b(?!\s+\d)",
    re.I,
)
# The role the sentence gives someone else: "dr okafor is taking over as my supervisor", "my new manager is Sunita"
_ROLE_TAKEN = re.compile(rf"\b(?:as|is)\s+my\s+(?:new\s+)?(?:{_ROLES})\b|\bmy\s+new\s+(?:{_ROLES})\b", re.I)


def named_leaving(text: str, live: Sequence[Known]) -> set[str]:
    """The names of the user's people in a role ("the user's supervisor is Dr. Okafor") that a sentence says are
    leaving it for good, or of anyone it says is leaving while it gives their role to someone else."""
    if _HEDGED.search(text):
        return set()
    holders = _role_holders(live, _ROLES) | (_role_holders(live, _HELPERS) if _FOR_GOOD.search(text) else set())
    replaced = _ROLE_TAKEN.search(text) is not None
    said = {m.group("name").lower() for m in _NAMED_LEAVING.finditer(text)}
    return {name for name in said if name in holders or (replaced and name not in _NOT_NAMES)}


_NOT_NAMES = frozenset(word_list("i we he she they it who which that this everyone everybody someone somebody one"))


def _role_holders(live: Sequence[Known], roles: str) -> set[str]:
    """The names (first and last) of whom the known facts give one of `roles`, which end when they go."""
    names: set[str] = set()
    for known in live:
        m = re.match(
            rf"^the user's (?:{roles}){_WHO_HELPS}(?:,| is| was)?\s+{_TITLE}?(?P<first>[\w'’-]+)"
            r"(?:\s+(?P<last>(?-i:[A-Z])[\w'’-]+))?"
            rf"|^{_TITLE}?(?P<name>(?-i:[A-Z])[\w'’-]+)(?:\s+(?P<surname>(?-i:[A-Z])[\w'’-]+))?"
            rf" is the user's (?:{roles})\b",
            known.text,
            re.I,
        )
        if m:
            names |= {n.lower() for n in m.group("first", "last", "name", "surname") if n}
    return names - _NOT_NAMES


# An organisation the user dealt with that said no, or can no longer: "Ljusglimt passed", "Brandt sold the car
# already", "Kestrel called. They gave the job to an internal candidate", "Desert Bloom called, … they can't take
# him anymore": the interview, the test drive, the day centre are over
_ORG = r"(?P<org>(?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+)?)"
_THEY_DECLINED = (
    r"(?:they|and they)\s+(?:(?:said|told (?:me|us))\s+(?:that\s+)?(?:they\s+)?)?(?:"
    r"(?:gave|offered)\s+(?:the|it|that)\s+(?:(?:job|role|position|place|spot|contract|flat|apartment|house)\s+)?to\s+"
    r"(?:someone|somebody|another|an?\s+(?:internal|other|external|different|another)\b)"
    r"|(?:can't|cannot|can not|won't|will not|couldn't)\s+(?:take|have|keep|accept)\s+(?:me|us|him|her|them|it)\s+"
    r"(?:any\s*more|any\s+longer)"
    r"|(?:went|are going|have gone)\s+with\s+(?:someone|somebody|another)\b)"
)
_SAID_NO = (
    r"(?:\s*:\s*|\s+)(?:(?:has|have|just|already|finally)\s+)*(?:"  # "Cloudflare: rejected."
    r"passed(?!\s+(?:away|by|out|over|the|my|a|an|his|her|their|its|through|me|us|him|them|on\s+(?:to|from))\b)"
    r"|said no|turned (?:me|us|it|him|her|them) down|rejected (?:me|us|it|my application|the application)"
    r"|rejected(?=\s*(?:[.!;]|$))|ghosted (?:me|us)\b"
    r"|sold (?:the|it|that)\b(?:\s+(?:car|flat|house|one|bike|van))?(?:\s+already)?(?!\s+to\s+me)"
    r"|(?:called|rang|phoned|emailed|wrote|replied|got back(?:\s+to\s+(?:me|us))?)\b"
    rf"[^.!?]{{0,60}}?[.,;!?—-]*\s*{_THEY_DECLINED})"
)
_DECLINED = re.compile(_ORG + _SAID_NO, re.I)
# The same of a name typed in lower case ("nandos ghosted me"), for the organisations the known facts name
_DECLINED_LOWER = re.compile(r"(?<![\w'’-])(?P<org>[a-z][\w'’-]+)" + _SAID_NO, re.I)
_THEY_SAID_NO = re.compile(rf"^{_THEY_DECLINED}", re.I)
# A fact of the organisation as the user's own work is not what it declined: "The user works at Kestrel"
_EMPLOYED = re.compile(r"\b(?:works?|working|worked)\s+(?:at|for)\b|\bemploy|\bclients?\b", re.I)


def _declined(text: str, message: str, live: Sequence[Known]) -> list[Known]:
    """The known facts of the user's dealings with an organisation a sentence says declined them."""
    facts = []
    for m in _declines(message or text, live):
        if not _within(m, text, message or text):
            continue  # another sentence's: each reading takes back what it says
        org = _org_named(m)
        person = rf"^the user's [\w-]+(?: [\w-]+)?,? (?:is )?{re.escape(org)}\b"
        if org.lower() in PEOPLE or any(re.match(person, k.text, re.I) for k in live):
            continue  # "Nana passed last night", "Anna passed" of the user's sister Anna: a death, or an exam
        dealt = rf"\b(?:with|at|for|to|from|through)\s+(?:the\s+)?(?:\w+\s+)?{re.escape(org.split()[0])}\b"
        for known in live:
            relation = re.match(r"^the user's ([\w-]+)", known.text, re.I)
            if known.id is None or _EMPLOYED.search(known.text) or (relation and relation.group(1).lower() in PEOPLE):
                continue  # "The user's brother Kamau …" is no dealing with Kamau
            if re.search(dealt, known.text, re.I) or re.search(rf"\b{re.escape(org)}\b", known.text):
                facts.append(known)
    return facts


def _declines(message: str, live: Sequence[Known] = ()) -> list[re.Match[str]]:
    """Where a message says an organisation declined the user: named with a capital; else in lower case, as a known
    fact names it, or (without the facts) after words said only of the user ("nandos ghosted me")."""
    found = list(_DECLINED.finditer(message))
    if found:
        return found
    if live:
        known = {w.lower() for k in live for w in re.findall(r"\b(?-i:[A-Z])[\w'’-]+", k.text)}
        return [m for m in _DECLINED_LOWER.finditer(message) if m.group("org").lower() in known]
    return list(_DECLINED_LOWER.finditer(message)) if _TURNED_DOWN.search(message) else []


def declined_by(text: str, message: str) -> str:
    """The organisations a sentence says declined the user ("Kestrel" of "They gave the job to someone else"), for
    finding the facts that name them; in lower case, "nandos" of "nandos ghosted me")."""
    said = message or text
    return " ".join(_org_named(m) for m in _declines(said) if _within(m, text, said))


def _org_named(m: re.Match[str]) -> str:
    """The organisation a match names, without a shouted word before it ("UPDATE Nandos ghosted me")."""
    words = m.group("org").split()
    return words[-1] if len(words) == 2 and words[0].isupper() and not words[1].isupper() else m.group("org")


def _within(m: re.Match[str], text: str, message: str) -> bool:
    """Does the sentence `text` of `message` hold the end of what `m` found in the message?"""
    start = message.find(text)
    return start >= 0 and start < m.end() <= start + len(text)


def parted_facts(text: str, message: str, live: Sequence[Known]) -> list[Known]:
    """The known facts of the user's people in a role a sentence says are leaving it ("Okafor is retiring at the
    end of term"), and of their dealings with an organisation it says declined them (`message`: the sentence's
    message, where "they" of "they gave the job to someone else" is named)."""
    leaving = named_leaving(text, live)
    found = _of_names(leaving, live) if leaving else []
    return found + [k for k in _declined(text, message, live) if k not in found]


def _of_names(names: set[str], live: Sequence[Known]) -> list[Known]:
    """The known facts whose subject is one of `names`, or that give one of them a role of the user's."""
    found = []
    for known in live:
        lower = known.text.lower()
        subject = re.sub(rf"^{_TITLE}", "", lower, flags=re.I).split()[0].removesuffix("'s").removesuffix("’s")
        # "The user's supervisor is Dr. Okafor", "The user's supervisor, Dr. Okafor, says it's too long"
        role = re.match(rf"^the user's (?:{_ROLES}|{_HELPERS})\b", lower) is not None
        if known.id is not None and (
            subject in names or (role and any(re.search(rf"\b{re.escape(name)}\b", lower) for name in names))
        ):
            found.append(known)
    return found


def says_parted(text: str) -> bool:
    """Does a sentence say someone leaves a role for good, or an organisation declined the user?"""
    leaving = _NAMED_LEAVING.search(text) is not None and _HEDGED.search(text) is None
    said_no = _DECLINED.search(text) or _THEY_SAID_NO.match(text) or _TURNED_DOWN.search(text)
    return leaving or said_no is not None


# Said of the user whatever the case a name is typed in: "nandos ghosted me", "turned me down"
_TURNED_DOWN = re.compile(r"\b(?:ghosted|rejected|turned down)\s+(?:me|us)\b|\bturned (?:me|us) down\b", re.I)
