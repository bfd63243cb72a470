"""The live facts a user's message is compared with: held between messages, found by word, kept in step.

The rules (`rule_decisions`) can change or find again only a fact that shares a word or a topic
with what a message says (`rule_decisions.naming`). Reading every live fact of the conversation
for each message, and reading each one's words again, took most of a second a message at
10,000 facts (bench/proxy.py), all of it holding the interpreter in the server's process,
whose requests waited on it. So each scope's live facts are held here as the rules read
them (`rule_decisions.Known`, and `rules.known_words` of each, counted), with an index from each
word and topic (`keys`) to the facts that have it; a message is compared with the facts
sharing a key with it (`LiveFacts.near`), and `read` asks whether a name is known
(`LiveFacts.words`) without a set of every word being built.

The copy follows the store as the vector index does (`memoir.index.vectors`): every live,
readable memory is an item of the search index, written in the same transaction as the
memory; new facts are the scope's items past the last item id seen, removed or replaced
ones come from the store's removal log, and a new index generation (a cleared index, a
cut log) drops every scope, to be read again when next asked for. Another process's
changes are seen as this process's are.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from memoir.index.keyword import terms
from memoir.index.spoken_dates import undated
from memoir.ingest.casing import names_in
from memoir.ingest.changes import Reading
from memoir.ingest.named_kin import relation_named
from memoir.ingest.rule_decisions import Known, Names, naming, naming_again
from memoir.ingest.rules import known_words
from memoir.ingest.stemming import stem, stems
from memoir.ingest.topics import topics
from memoir.store import IndexItem, SearchIndex

__all__ = ["Fact", "FactCache", "KnownWords", "LiveFacts", "keys"]

MAX_SCOPES = 64  # scopes held at once; the one asked for least recently goes first
YIELD_EVERY = 200  # facts read between two pauses that let other threads run (a scope's first read)
_NO_KEY = ""  # the key of a text with no word and no topic (found only by another such text)
_NO_STEM = "#"  # the key of a fact with no stem (`stemming.stems`): only a statement with none is like it
_DIGIT = re.compile(r"\b\d\b")
_COUNTED = re.compile(r"(?<![\d.,])\d++(?:[.,]\d++)*+\s*+([a-z]+)", re.I)  # once per number: "1,1,1,…" is linear
_EVERYWHERE = frozenset(("user", "users"))  # "The user …": nearly every fact, and no rule matches on it

Scope = tuple[str, str | None]  # a conversation and, in unified mode, its agent


def keys(text: str) -> frozenset[str]:
    """What finds a fact for a message: each word's stem cut to five letters (the rules match stems, or
    their first five letters: `fact_words.alike_stems`), each word's first five letters but a plural's "s" (how
    `answers` matches words), single digits, what a number counts ("%k" of "30k", `new_values`), and the
    single-valued topics the text speaks to."""
    found: set[str] = set()
    for word in terms(text):
        if word not in _EVERYWHERE:
            found.add(stem(word)[:5])
            found.add("~" + (word[:-1] if word.endswith("s") and len(word) > 3 else word)[:5])
    found.update(_DIGIT.findall(text))
    found.update("%" + stem(unit.lower()) for unit in _COUNTED.findall(text))  # "30k pesos": what is counted
    found.update(_topic_keys(text))
    return frozenset(found or (_NO_KEY,))


def _topic_keys(text: str) -> set[str]:
    """Each single-valued topic's key, and a count's also as one of the subject's counts ("So only 22 now")."""
    said = topics(text)
    named = relation_named(text)  # "The user's dad Paddy is 84" is found by what "The user's dad turned 85" says
    also = {f"@user's {named[0]}|{t.attribute}" for t in said if t.subject == named[1].lower()} if named else set()
    return (
        also
        | {f"@{t.subject}|{t.attribute}" for t in said}
        | {f"@{t.subject}|count" for t in said if t.attribute.startswith("count of ")}
    )


def _stem_keys(found: frozenset[str]) -> frozenset[str]:
    """The keys of stems (`stemming.stems`): each one's first five letters, among the keys of its word."""
    return frozenset(s[:5] for s in found)


@dataclass(frozen=True, eq=False)
class Fact:
    """A live fact, read once: its text as the rules compare it, what makes a name known, its keys."""

    id: str
    text: str  # as the rules read it: without the days memoir told after its relative phrases
    source: str  # who read it in a message: "heuristics", "llm", "user", ...
    created_ms: int
    item_id: int  # its item in the search index
    known: Known
    words: frozenset[str]  # `rules.known_words` of it alone
    names: frozenset[str]  # `casing.names_in` it
    keys: frozenset[str]
    stem_keys: frozenset[str]  # of its stems alone (`known.stems`)

    @classmethod
    def of(cls, item: IndexItem) -> Fact:
        assert item.item_id is not None
        text = undated(item.text)  # the user's words: memoir's own "(7 May 2023)" is no value of theirs
        known = Known(item.ref, text)
        stem_keys = _stem_keys(known.stems)
        return cls(
            id=item.ref,
            text=text,
            source=item.metadata.get("source", ""),
            created_ms=item.created_ms,
            item_id=item.item_id,
            known=known,
            words=known_words([text]),
            names=frozenset(names_in(text)),
            keys=keys(text) | (stem_keys or {_NO_STEM}),
            stem_keys=stem_keys,
        )


class KnownWords(Collection[str]):
    """Words of a scope's live facts (`rules.known_words`, or their names), answered from counts kept as facts
    come and go."""

    def __init__(self, counts: dict[str, int]) -> None:
        self._counts = counts

    def __contains__(self, word: object) -> bool:
        return word in self._counts

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._counts))

    def __len__(self) -> int:
        return len(self._counts)


class LiveFacts:
    """One scope's live facts (a conversation's; in unified mode, one agent's in it), found by key."""

    def __init__(self) -> None:
        self._facts: dict[str, Fact] = {}
        self._by_key: dict[str, set[str]] = {}
        self._by_first_stem: dict[str, set[str]] = {}  # the first of a fact's stem keys, in sorted order
        self._counts: dict[str, int] = {}
        self.words = KnownWords(self._counts)
        self._name_counts: dict[str, int] = {}
        self.names = KnownWords(self._name_counts)  # the facts' names, lower-cased (`casing.cased`)
        self.last_item_id = 0  # the scope's items up to this one are read

    def __len__(self) -> int:
        return len(self._facts)

    def __iter__(self) -> Iterator[Fact]:
        """Every fact, in the store's order (oldest first)."""
        return iter(sorted(self._facts.values(), key=_order))

    def get(self, memory_id: str) -> Fact | None:
        return self._facts.get(memory_id)

    def named_by(self, readings: Sequence[Reading]) -> list[Known]:
        """The known facts a message's readings may change or find again (`naming`), and those only the facts
        found can name (`naming_again`: the rest of what is known of a pet gone, by its name)."""
        names = naming(readings)
        near = [fact.known for fact in self.near(names)]
        if (again := naming_again(readings, near)).words:
            near = [fact.known for fact in self.near(replace(names, words=names.words + again.words))]
        return near

    def near(self, names: Names) -> list[Fact]:
        """The facts the names name (`rule_decisions.naming`), in the store's order (oldest first)."""
        found: set[str] = set()
        found |= self._with_any(names.keys)
        for text in names.words:
            found |= self._with_any(keys(text))
        for text in names.sharing:
            found |= self._with_any(_stem_keys(stems(text)) | _topic_keys(text))
        for text in names.alike:
            found |= self._with_any(_topic_keys(text))
            own = _stem_keys(stems(text))
            if not own:
                found |= self._with_any({_NO_STEM})
                continue
            found |= set.intersection(*(self._by_key.get(key, set()) for key in own))  # holding all its stems
            for key in own:  # held all by it: then its first stem key is one of the statement's
                found.update(i for i in self._by_first_stem.get(key, ()) if self._facts[i].stem_keys <= own)
        return sorted((self._facts[memory_id] for memory_id in found), key=_order)

    def _with_any(self, wanted: Iterable[str]) -> set[str]:
        """The facts with one of these keys."""
        return set().union(*(self._by_key.get(key, ()) for key in wanted))

    def add(self, fact: Fact) -> int | None:
        """Hold `fact` (in place of an older copy of it: that one's item id is returned)."""
        older = self._facts.get(fact.id)
        if older is not None:
            self.remove(older.id, older.item_id)
        self._facts[fact.id] = fact
        for key in fact.keys:
            self._by_key.setdefault(key, set()).add(fact.id)
        if fact.stem_keys:
            self._by_first_stem.setdefault(min(fact.stem_keys), set()).add(fact.id)
        for counts, words in ((self._counts, fact.words), (self._name_counts, fact.names)):
            for word in words:
                counts[word] = counts.get(word, 0) + 1
        return older.item_id if older is not None else None

    def remove(self, memory_id: str, item_id: int) -> None:
        """Let go of a fact, if it is still the one of that search index item."""
        fact = self._facts.get(memory_id)
        if fact is None or fact.item_id != item_id:
            return
        del self._facts[memory_id]
        for key in fact.keys:
            ids = self._by_key[key]
            ids.discard(memory_id)
            if not ids:
                del self._by_key[key]
        if fact.stem_keys:
            first = min(fact.stem_keys)
            self._by_first_stem[first].discard(memory_id)
            if not self._by_first_stem[first]:
                del self._by_first_stem[first]
        for counts, words in ((self._counts, fact.words), (self._name_counts, fact.names)):
            for word in words:
                left = counts[word] - 1
                if left:
                    counts[word] = left
                else:
                    del counts[word]


def _order(fact: Fact) -> tuple[int, str]:
    return fact.created_ms, fact.id  # as `Store.memory_list` orders memories


class FactCache:
    """The `LiveFacts` of every scope asked for lately, brought up to date with the store when asked for."""

    def __init__(self, store: SearchIndex, *, unified: bool, max_scopes: int = MAX_SCOPES) -> None:
        self.store = store
        self.unified = unified
        self.max_scopes = max_scopes
        self._lock = threading.Lock()
        self._scopes: OrderedDict[Scope, LiveFacts] = OrderedDict()
        self._items: dict[int, tuple[Scope, str]] = {}  # search index item id -> (scope, memory id)
        self._generation: int | None = None
        self._removal_seq = 0

    def live(self, conversation_id: str, agent_id: str | None = None) -> LiveFacts:
        """The live facts of a conversation (in unified mode, of its agent `agent_id`) as the store has them now.

        The same object is brought up to date by the next call: use it before asking again.
        """
        scope = (conversation_id, agent_id if self.unified else None)
        with self._lock:
            self._follow()
            facts = self._scopes.get(scope)
            if facts is None:
                facts = self._scopes[scope] = LiveFacts()
                while len(self._scopes) > self.max_scopes:
                    self._drop(next(iter(self._scopes)))
            else:
                self._scopes.move_to_end(scope)
            self._catch_up(scope, facts)
            return facts

    def _follow(self) -> None:
        """Apply the removals logged since the last call; a new generation drops every scope."""
        generation = self.store.index_generation()
        if generation != self._generation:
            # The log's position is read before any item: a removal in between is applied next time.
            self._scopes.clear()
            self._items.clear()
            self._generation = generation
            self._removal_seq = self.store.index_removals(None)[1]
            return
        removed, self._removal_seq = self.store.index_removals(self._removal_seq)
        for item_id in removed:
            where = self._items.pop(item_id, None)
            if where is not None and (facts := self._scopes.get(where[0])) is not None:
                facts.remove(where[1], item_id)

    def _catch_up(self, scope: Scope, facts: LiveFacts) -> None:
        conversation_id, agent_id = scope
        for number, item in enumerate(self.store.index_items_of_kind("fact", conversation_id, facts.last_item_id)):
            assert item.item_id is not None
            if number and number % YIELD_EVERY == 0:
                # The first read of a large scope is seconds of Python (10,000 facts): without a pause the
                # server's requests, in this process, would wait for the interpreter all along.
                time.sleep(0)
            facts.last_item_id = item.item_id
            if self.unified and item.agent_id != agent_id:
                continue
            older = facts.add(Fact.of(item))
            if older is not None:
                self._items.pop(older, None)
            self._items[item.item_id] = (scope, item.ref)

    def _drop(self, scope: Scope) -> None:
        for fact in self._scopes.pop(scope):
            self._items.pop(fact.item_id, None)
