"""What memoir knows (issue 25's benchmark): facts kept, changes applied, noise; LoCoMo observations.

Two measures, each for the rules alone and for the model path:

1. Conversations written for the purpose (tests/data/facts/*.json: `dev` written beside the
   rules; `heldout`, `test` and `final` written by others without seeing them): every user and
   assistant turn is ingested as `memoir ingest` would, the worker's jobs run, and the live
   facts are scored against the set's annotations. A fact is kept when a live memory holds
   all of its words (a word matches at a word's start: "peanut" matches "peanuts"); a
   changed fact is stale when a live memory still holds the old value's words and does not
   tell that it ended ("The user quit keto", "… had to put Duke down" are true now); a live
   memory matching no annotation (fact, old value or "also true") is noise. The dates memoir
   adds to a relative one ("yesterday (31 December 2025)") are not the user's words: a
   memory is matched without them.
2. LoCoMo (../shared/data/locomo-dev.json): each speaker's turns are ingested as the user's,
   the other's as the assistant's; an observation (the dataset's per-session facts, each
   with its evidence turns) is matched when a memory learnt from one of its evidence turns
   says it: MiniLM cosine >= 0.6, or at least half of the memory's content words (the
   speaker's name for "the user") in the observation and two or more. Reported: the share
   of observations matched, and the share of memories matching no observation of their
   speaker (what LoCoMo's annotators did not note: chit-chat, or facts they left out).

    python bench/facts.py                       # the rules, every set and LoCoMo
    python bench/facts.py --replay              # and the model path over the recorded answers
    python bench/facts.py --base-url http://127.0.0.1:8081/v1 --model qwen --record out.jsonl
                                                # a real model (its answers written to out.jsonl)

The recorded answers are those of Qwen2.5 Coder 0.5B (Q4_K_M) on llama-cpp-python 0.3.36
(tests/data/llm-replays; shared/data/llm-replays/README.md says how to run it). `--sessions N`
keeps the first N sessions of each LoCoMo conversation (the model path was recorded on 1).
`--record` answers a request the file holds already from it, so a run cut short goes on. A set whose answers were
never recorded in full (`UNRECORDED`, none today) is scored by the rules alone; `--replay` leaves it out of the model
path.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.replays import FACTS_REPLAYS, Recorder, Replayer, load  # noqa: E402
from tests.scripted_server import scripted_server  # noqa: E402

from memoir import Memoir  # noqa: E402
from memoir.index.keyword import terms  # noqa: E402

SETS = ROOT / "tests" / "data" / "facts"
LOCOMO = ROOT.parent / "shared" / "data" / "locomo-dev.json"
COSINE = 0.6  # an observation and a memory that MiniLM finds this close say the same
SHARED = 0.5  # or: this share of the memory's content words are the observation's (and at least two)
START = 1_767_225_600_000  # 2026-01-01: the conversations' turns are 30 s apart from here


# A day or month the annotators wrote short ("wed" for "next Wednesday", as "mon and wed" is typed): its full name too
_DAYS = "monday tuesday wednesday thursday friday saturday sunday"
_MONTHS = "january february march april june july august september october november december"
_CALENDAR = {name[:3]: name[3:] for name in f"{_DAYS} {_MONTHS}".split()}


def has(text: str, phrase: str) -> bool:
    """Does `text` hold `phrase` as words ("peanut" in "peanuts", "5" in "5am", not "4" in "45")?"""
    tail = r"\w*" if len(phrase) >= 4 and not phrase.isdigit() else r"(?:s|es|am|pm|th|st|nd|rd)?(?!\w)"
    if phrase[-1:].isdigit():  # "2.1" in "€2.1M", "1.2" in "1.2m won", "61" in "61kg": a number with its unit
        tail = r"(?:s|es|am|pm|th|st|nd|rd|k|m|bn|kg|kgs|lb|lbs|g|km|cm|mm|ml|h|hrs?|mins?|yo|yrs?)?(?!\w)"
    if phrase in _CALENDAR:
        tail = f"(?:{re.escape(_CALENDAR[phrase])})?s?(?!\\w)"
    return re.search(r"(?<!\w)" + re.escape(phrase) + tail, text.lower()) is not None


def holds(text: str, words: list[str]) -> bool:
    return all(has(text, w) for w in words)


# memoir's own reading of a relative date ("Yesterday (31 December 2025) was Hana's birthday"): no word the user said
_RESOLVED_DATE = re.compile(r"\s*\((?:the week of |the weekend of )?(?:\d{1,2} )?[A-Z][a-z]+ \d{4}\)|\s*\(\d{4}\)")
# A memory that tells the old value ended says what holds now: "The user quit keto", "… had to put Duke down"
_ENDED = re.compile(
    r"\b(?:quit|quits|stopped|gave up|gave \w+ (?:to|away)|put \w+ down|finished|no longer|not \w+ anymore|"
    r"sold|retiring|retired from|moved out|broke up|split up|passed away|died|dropped|left|paid off)\b",
    re.I,
)


def said(memory: str) -> str:
    """A memory as the user's words: without the dates memoir resolved."""
    return _RESOLVED_DATE.sub("", memory)


def score(conversation: dict[str, Any], live: list[str]) -> dict[str, Any]:
    words = [said(m) for m in live]
    kept = [f for f in conversation["facts"] if any(holds(m, f["words"]) for m in words)]
    stale = [s for s in conversation["stale"] if any(holds(m, s["words"]) and not _ENDED.search(m) for m in words)]
    known = [a["words"] for a in conversation["facts"] + conversation["stale"] + conversation.get("also_true", [])]
    noise = [m for m, w in zip(live, words, strict=True) if not any(holds(w, k) for k in known)]
    return {
        "facts": len(conversation["facts"]),
        "kept": len(kept),
        "changes": len(conversation["stale"]),
        "stale": len(stale),
        "noise": len(noise),
        "missing": [f["about"] for f in conversation["facts"] if f not in kept],
        "stale_left": [s["about"] for s in stale],
        "noise_kept": noise,
    }


@contextmanager
def opened(options: dict[str, Any]) -> Iterator[Memoir]:
    with tempfile.TemporaryDirectory() as home, Memoir.open(home, worker_enabled=False, **options) as memoir:
        yield memoir


def summaries(memoir: Memoir, name: str, events: int) -> tuple[list[str], list[str], str]:
    """The conversation's segment summaries (titles, bullets) and its conversation summary, written now."""
    memoir.update_timeline(rebuild=True)
    parts = memoir._parts  # the benchmark asks the job directly rather than wait 30 quiet minutes
    [job] = [j for j in parts.registry.periodic_in("llm") if j.name == "conversation_summary"]
    job.refresh(name, None, events)  # type: ignore[attr-defined]
    nodes = list(memoir.toc_root(name))
    seen: list[Any] = []
    while nodes:
        node = nodes.pop()
        seen.append(node)
        nodes += [memoir.toc_node(child, conversation_id=name) for child in node.child_node_ids]
    segments = [n for n in seen if n.level.value == "segment"]
    titles = [n.title for n in segments]
    bullets = [b.text for n in segments for b in n.bullets]
    return titles, bullets, parts.summaries.final_text(name) or ""


def summary_score(conversation: dict[str, Any], titles: list[str], bullets: list[str], whole: str) -> dict[str, Any]:
    """Bullets and titles that are questions or small talk (there should be none), and the changes the
    summaries tell (the new value of each changed fact in a bullet or in the conversation summary)."""
    from memoir.timeline.telling import telling

    chatter = [t for t in [*titles, *bullets] if not telling(t.removeprefix("Changed: "))]
    new = {f["turn"]: f for f in conversation["facts"]}
    changes = [new[s["changed_in"]] for s in conversation["stale"] if s["changed_in"] in new]
    said = " ".join([*bullets, whole])
    return {
        "bullets": len(bullets),
        "chatter": chatter,
        "changes": len(changes),
        "changes_told": sum(holds(said, f["words"]) for f in changes),
    }


def run_conversation(conversation: dict[str, Any], options: dict[str, Any], summarize: bool = True) -> dict[str, Any]:
    name = conversation["name"]
    events = [
        {
            "session_id": name,
            "conversation_id": name,
            "timestamp": START + n * 30_000,
            "event_type": "user_message" if turn["role"] == "user" else "assistant_message",
            "text": turn["text"],
        }
        for n, turn in enumerate(conversation["turns"])
    ]
    with opened(options) as memoir:
        started = time.monotonic()
        memoir.ingest(events)  # the job settles each turn before reading the next, as a chat goes
        memoir.flush(timeout=36_000)
        seconds = time.monotonic() - started
        memories = memoir.memories(name, kind="fact")
        live = [m.content for m in memories]
        by_model = sum(m.source == "llm" for m in memories), sum(m.reconciled_by == "llm" for m in memories)
        calls = memoir.status().llm_usage.get("extract_facts", {})
        told = summaries(memoir, name, len(events)) if summarize else None
    result = score(conversation, live)
    if told is not None:
        result["summary"] = summary_score(conversation, *told)
    result.update(name=name, live=live, seconds=seconds, turns=sum(t["role"] == "user" for t in conversation["turns"]))
    result["calls"] = calls.get("calls", 0)
    result["rejected"] = calls.get("rejected", 0)
    result["model_facts"], result["model_changes"] = by_model  # live facts the model read, or decided
    return result


def conversations_report(title: str, results: list[dict[str, Any]], verbose: bool) -> dict[str, Any]:
    facts, kept = sum(r["facts"] for r in results), sum(r["kept"] for r in results)
    changes, stale = sum(r["changes"] for r in results), sum(r["stale"] for r in results)
    noise, turns = sum(r["noise"] for r in results), sum(r["turns"] for r in results)
    seconds = sum(r["seconds"] for r in results)
    calls = sum(r["calls"] for r in results)
    print(
        f"  {title:<22} kept {kept:>3}/{facts:<3} ({kept / max(1, facts):.0%})  stale {stale:>2}/{changes:<2}"
        f"  noise {noise:>2}  {len(results)} conversations, {turns} user turns, {seconds:.1f} s"
        + (f", {calls / max(1, turns):.2f} model calls per turn" if calls else "")
    )
    if calls:
        from_model = sum(r["model_facts"] for r in results), sum(r["model_changes"] for r in results)
        print(f"  {'':<22} live facts the model read: {from_model[0]}, that its reconciliation placed: {from_model[1]}")
    told = [r["summary"] for r in results if "summary" in r]
    if told:
        bullets, chatter = sum(t["bullets"] for t in told), sum(len(t["chatter"]) for t in told)
        said, asked = sum(t["changes_told"] for t in told), sum(t["changes"] for t in told)
        print(
            f"  {'':<22} summaries: {bullets} bullets, {chatter} questions or small talk; {said}/{asked} changes told"
        )
    if verbose:
        for r in results:
            if r["missing"] or r["stale_left"] or r["noise_kept"]:
                print(f"    {r['name']}: missing {r['missing']} stale {r['stale_left']} noise {r['noise_kept']}")
            if r.get("summary", {}).get("chatter"):
                print(f"    {r['name']}: summary chatter {r['summary']['chatter']}")
    return {
        "facts": facts,
        "kept": kept,
        "changes": changes,
        "stale": stale,
        "noise": noise,
        "turns": turns,
        "calls": calls,
        "model_facts": sum(r["model_facts"] for r in results),
        "model_changes": sum(r["model_changes"] for r in results),
    }


# -- LoCoMo ---------------------------------------------------------------------------------------


def locomo_turns(sample: dict[str, Any], sessions: int | None) -> list[tuple[str, str, str]]:
    """(dia_id, speaker, text) of every turn, sessions in order."""
    conversation = sample["conversation"]
    numbers = sorted(int(m.group(1)) for key in conversation if (m := re.fullmatch(r"session_(\d+)", key)))
    found = []
    for number in numbers[:sessions]:
        for turn in conversation[f"session_{number}"]:
            text = turn["text"] + (f" [shares a photo: {turn['blip_caption']}]" if turn.get("blip_caption") else "")
            found.append((turn["dia_id"], turn["speaker"], text))
    return found


def observations(sample: dict[str, Any], sessions: int | None) -> dict[str, list[tuple[str, set[str]]]]:
    """speaker -> (observation, its evidence dia_ids), of the sessions kept."""
    found: dict[str, list[tuple[str, set[str]]]] = {}
    for key, per_speaker in sample["observation"].items():
        number = int(re.search(r"\d+", key).group())  # type: ignore[union-attr]
        if sessions is not None and number > sessions:
            continue
        for speaker, items in per_speaker.items():
            for item in items if isinstance(items, list) else []:
                text, evidence = item[0], item[1]
                ids = {e.strip() for e in (evidence if isinstance(evidence, list) else re.split(r"[;,]", evidence))}
                found.setdefault(speaker, []).append((text, {i for i in ids if re.fullmatch(r"D\d+:\d+", i)}))
    return found


def run_locomo(options: dict[str, Any], sessions: int | None) -> dict[str, Any]:
    data = json.loads(LOCOMO.read_text())
    matched = observed = memories = unmatched = turns = 0
    seconds = 0.0
    with opened({**options, "embedding_provider": "local"}) as scorer:
        embed = scorer._parts.embedder.inner.embed  # MiniLM, as memoir searches with it
    for sample in data:
        said = locomo_turns(sample, sessions)
        noted = observations(sample, sessions)
        for speaker in dict.fromkeys(s for _, s, _ in said):
            conversation = f"{sample['sample_id']}-{speaker.lower()}"
            events = [
                {
                    "session_id": conversation,
                    "conversation_id": conversation,
                    "timestamp": START + n * 30_000,
                    "event_type": "user_message" if who == speaker else "assistant_message",
                    "text": text,
                    "metadata": {"dia_id": dia_id, "speaker": who},
                }
                for n, (dia_id, who, text) in enumerate(said)
            ]
            with opened(options) as memoir:
                started = time.monotonic()
                ids = memoir.ingest(events)
                memoir.flush(timeout=36_000)
                seconds += time.monotonic() - started
                dia = dict(zip(ids, (e["metadata"]["dia_id"] for e in events), strict=True))
                learnt = [
                    (m.content.replace("The user's", f"{speaker}'s").replace("The user", speaker), m.event_ids)
                    for m in memoir.memories(conversation, kind="fact", include_deleted=True)
                ]
            turns += sum(e["event_type"] == "user_message" for e in events)
            notes = noted.get(speaker, [])
            found = _matches([text for text, _ in learnt], [text for text, _ in notes], embed)
            for n, (_, evidence) in enumerate(notes):
                observed += 1
                matched += any(
                    found[m][n] and {dia[e] for e in learnt[m][1] if e in dia} & evidence for m in range(len(learnt))
                )
            memories += len(learnt)
            unmatched += sum(1 for m in range(len(learnt)) if not any(found[m]))
    return {
        "observations": observed,
        "matched": matched,
        "memories": memories,
        "unmatched": unmatched,
        "turns": turns,
        "seconds": seconds,
    }


def _matches(memories: list[str], notes: list[str], embed: Any) -> list[list[bool]]:
    """[m][n]: does memory m say observation n (cosine, or shared content words)?"""
    if not memories or not notes:
        return [[False] * len(notes) for _ in memories]
    import numpy as np

    a, b = np.asarray(embed(memories)), np.asarray(embed(notes))
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    cosine = a @ b.T
    note_words = [set(terms(n)) for n in notes]
    found = []
    for m, memory in enumerate(memories):
        words = set(terms(memory))
        row = []
        for n, noted in enumerate(note_words):
            shared = len(words & noted)
            row.append(bool(cosine[m, n] >= COSINE or (shared >= 2 and shared >= SHARED * len(words))))
        found.append(row)
    return found


def locomo_report(title: str, r: dict[str, Any]) -> None:
    recall = r["matched"] / max(1, r["observations"])
    unmatched = r["unmatched"] / max(1, r["memories"])
    print(
        f"  {title:<22} observations matched {r['matched']}/{r['observations']} ({recall:.1%});"
        f" memories {r['memories']}, matching no observation {r['unmatched']} ({unmatched:.1%});"
        f" {r['turns']} turns in {r['seconds']:.1f} s"
    )


# -- chat -----------------------------------------------------------------------------------------


def run_chats(options: dict[str, Any], conversations: list[dict[str, Any]], turns: int) -> dict[str, Any]:
    """`memoir chat` over the first user turns of some conversations: what the model answers, which tools it
    calls, and which of the conversation's facts memoir keeps afterwards (whether or not it called `remember`)."""
    from memoir.agent import ChatSession
    from memoir.retrieval.injection import MEMORY_PREAMBLE

    empty = tools = echoes = asked = kept = facts = 0
    took: list[float] = []
    for conversation in conversations:
        said = [t["text"] for t in conversation["turns"] if t["role"] == "user"][:turns]
        with opened(options) as memoir, ChatSession(memoir) as session:
            for text in said:
                started = time.monotonic()
                try:
                    reply = session.send(text)
                except Exception as exc:  # a turn that fails is counted, the next goes on  # noqa: BLE001
                    print(f"    turn failed: {exc}")
                    continue
                took.append(time.monotonic() - started)
                asked += 1
                empty += reply.empty
                tools += len(reply.tool_calls)
                echoes += MEMORY_PREAMBLE[:30].lower() in reply.text.lower() or "not instructions" in reply.text.lower()
            memoir.flush(timeout=36_000)
            live = [m.content for m in memoir.memories(session.conversation_id, kind="fact")]
            live += [m.content for m in memoir.memories("global", kind="fact")]
        stated = [f for f in conversation["facts"] if f["turn"] < 2 * turns]
        facts += len(stated)
        kept += sum(any(holds(m, f["words"]) for m in live) for f in stated)
    return {
        "turns": asked,
        "empty": empty,
        "tool_calls": tools,
        "echoes": echoes,
        "facts": facts,
        "kept": kept,
        "seconds": statistics.median(took) if took else 0.0,
    }


def chats_report(r: dict[str, Any]) -> None:
    print(
        f"  {'memoir chat':<22} {r['turns']} turns: {r['empty']} empty answers, {r['tool_calls']} tool calls,"
        f" {r['echoes']} echoes of the memory block; facts kept {r['kept']}/{r['facts']};"
        f" median {r['seconds']:.1f} s a turn"
    )


# -- main -----------------------------------------------------------------------------------------


# Every set of conversations written for the purpose, in the order they were written (tests sample the same sets)
SET_NAMES = (
    "dev",
    "heldout",
    "test",
    "final",
    "blind",
    "blind2",
    "blind3",
    "blind4",
    "blind5",
    "blind6",
    "blind7",
    "blind8",
    "blind9",
)
# Sets whose model answers were not recorded: the model path over replays would answer them with answers to other
# requests ("of their kind"), which measures nothing; they are scored by the rules alone.
UNRECORDED: frozenset[str] = frozenset()


def run(label: str, options: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    print(label)
    summary: dict[str, Any] = {}
    replayed = "llm_base_url" in options and args.base_url is None
    for name in args.sets:
        if replayed and name in UNRECORDED:
            print(f"  {name:<22} (no recorded answers: rules alone only)")
            continue
        data = json.loads((SETS / f"{name}.json").read_text())
        results = [run_conversation(c, options) for c in data]
        summary[name] = conversations_report(name, results, args.verbose)
        summary[f"{name}_seconds"] = statistics.fmean(r["seconds"] / max(1, r["turns"]) for r in results)
    if args.locomo:
        summary["locomo"] = run_locomo(options, args.sessions)
        locomo_report(f"LoCoMo ({args.sessions or 'all'} sessions)", summary["locomo"])
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sets = ",".join(SET_NAMES)
    parser.add_argument("--sets", default=sets, help="conversation sets, comma-separated")
    parser.add_argument("--no-locomo", dest="locomo", action="store_false", help="leave LoCoMo out")
    parser.add_argument("--sessions", type=int, default=None, help="LoCoMo: only the first N sessions")
    parser.add_argument("--replay", action="store_true", help="the model path too, over the recorded answers")
    parser.add_argument("--base-url", help="a real model's OpenAI-compatible endpoint")
    parser.add_argument("--model", default="qwen2.5-coder-0.5b", help="its model name")
    parser.add_argument("--record", type=Path, help="with --base-url: append its answers here")
    parser.add_argument("--verbose", "-v", action="store_true", help="what each conversation missed or kept wrongly")
    parser.add_argument("--chat", type=int, default=0, help="with a model: memoir chat over N dev conversations")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    args.sets = [s for s in args.sets.split(",") if s]
    base = {"embedding_provider": "local"}
    figures = {"rules": run("rules alone", base, args)}
    if args.replay:
        replayer = Replayer(load(FACTS_REPLAYS))
        with scripted_server({"/v1/chat/completions": replayer, "/v1/models": lambda _: (200, {"data": []})}) as up:
            model = {**base, "llm_base_url": up.url + "/v1", "llm_model": args.model, "llm_retries": 0}
            figures["replayed"] = run("model path, recorded answers", model, args)
        print(f"  ({replayer.hits} answers replayed for their very request, {replayer.misses} of their kind)")
    if args.base_url:
        route = Recorder(args.base_url, args.record) if args.record else None
        if route is None:
            model = {**base, "llm_base_url": args.base_url, "llm_model": args.model}
            figures["model"] = run(f"model path, {args.model} at {args.base_url}", model, args)
        else:
            with scripted_server({"/v1/chat/completions": route, "/v1/models": route.models}) as up:
                model = {
                    **base,
                    "llm_base_url": up.url + "/v1",
                    "llm_model": args.model,
                    "llm_timeout": 600,
                    "llm_budget": 900,
                }
                figures["model"] = run(f"model path, {args.model} (recorded to {args.record})", model, args)
                if args.chat:
                    dev = json.loads((SETS / "dev.json").read_text())[: args.chat]
                    figures["chat"] = run_chats(model, dev, 4)
                    chats_report(figures["chat"])
            figures["calls"] = calls_report(route.seconds)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


def calls_report(seconds: list[tuple[str, float]]) -> dict[str, Any]:
    """Seconds per model call, all and by kind (extraction, reconciliation, summaries, chat): median and p95."""
    by_kind: dict[str, list[float]] = {"all": [s for _, s in seconds]}
    for kind, took in seconds:
        by_kind.setdefault(kind, []).append(took)
    figures = {}
    for kind, took in by_kind.items():
        took = sorted(took)
        if took:
            p95 = took[math.ceil(0.95 * len(took)) - 1]  # nearest rank: of two answers, the slower
            figures[kind] = {"calls": len(took), "median": statistics.median(took), "p95": p95}
            print(f"  {kind:<20} {len(took):>4} model calls, median {statistics.median(took):6.2f} s, p95 {p95:6.2f} s")
    return figures


if __name__ == "__main__":
    main()
