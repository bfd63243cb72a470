"""What the timeline's summaries say: statements of what was said, decided or changed; never questions or small talk.

Issue 25: of a small model's bullets, 5 of 13 were chit-chat or questions, 2 joined a name and a
date said apart ("Elena is planning offsite for March"), 1 was garbled ("Biscuit is called
Biscuit"), the extractive fallback titled a segment with a question, and no summary said that
the user had moved or switched races. Real SQLite, a scripted model on 127.0.0.1.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from memoir import Memoir
from memoir.model.timeline import TocLevel, TocNode
from memoir.timeline.telling import telling
from tests.scripted_server import chat_reply, scripted_server

TALK = [
    ("user_message", "Hi, I'm Priya. I lead the data platform team at Fernwood."),
    ("assistant_message", "Nice to meet you, Priya! How can I help?"),
    ("user_message", "Our team offsite is in Porto in May, and Elena is planning it."),
    ("assistant_message", "Porto in May sounds wonderful."),
    ("user_message", "Thanks! What's a good icebreaker for eight people?"),
    ("assistant_message", "Try two truths and a lie, it works well for groups of that size."),
    ("user_message", "My dog is called Biscuit."),
    ("assistant_message", "Biscuit is a great name!"),
    ("user_message", "Actually we just moved, I live in Rotterdam now."),
    ("assistant_message", "Congratulations on the move to Rotterdam!"),
]


def ingest(memoir: Memoir) -> list[TocNode]:
    memoir.ingest(
        [
            {"session_id": "s1", "conversation_id": "priya", "event_type": kind, "text": text,
             "timestamp": 1_767_225_600_000 + n * 30_000}
            for n, (kind, text) in enumerate(TALK)
        ]
    )  # fmt: skip
    assert memoir.flush(timeout=60)
    memoir.update_timeline(rebuild=True)
    days = list(memoir.toc_root("priya"))
    segments: list[TocNode] = []
    while days:
        node = days.pop()
        if node.level is TocLevel.SEGMENT:
            segments.append(node)
        days += [memoir.toc_node(child, conversation_id="priya") for child in node.child_node_ids]
    return segments


def test_the_extractive_summary_tells_statements_and_the_change_never_a_question(memoir: Memoir) -> None:
    [segment] = ingest(memoir)
    bullets = [b.text for b in segment.bullets]
    assert "Changed: the user lives in Rotterdam now." in bullets
    assert all(telling(b) for b in bullets) and telling(segment.title), (segment.title, bullets)
    assert not any("?" in b for b in [segment.title, *bullets])
    for bullet in segment.bullets:  # the change's grip is the sentence that said it
        grip = memoir.expand_grip(bullet.grip_ids[0], 0, 0).grip
        assert grip.excerpt in " ".join(text for _, text in TALK)


def test_a_models_bad_bullets_cost_themselves_and_a_change_it_left_out_is_added(
    open_memoir: Callable[..., Memoir],
) -> None:
    answer = {
        "title": "What's a good icebreaker?",  # a question: the first good bullet titles the segment instead
        "bullets": [
            "Priya leads the data platform team at Fernwood",  # said, with its names where it is said
            "Elena is planning the offsite for Rotterdam",  # "Rotterdam" is said, but not where Elena is
            "What's a good icebreaker for eight people?",  # a question
            "Biscuit is called Biscuit",  # says nothing
            "Thanks!",  # small talk
        ],
        "keywords": ["offsite"],
    }

    def route(body: dict[str, Any]) -> tuple[int, Any]:
        if "table of contents" in body["messages"][0]["content"]:
            return 200, chat_reply(json.dumps(answer))
        return 200, chat_reply(json.dumps({"summary": "Priya leads a data platform team and moved to Rotterdam."}))

    with scripted_server({"/v1/chat/completions": route}) as server:
        memoir = open_memoir(llm_model="m", llm_base_url=server.url + "/v1", memory_extract=False)
        [segment] = ingest(memoir)
    assert segment.source == "llm"
    assert [b.text for b in segment.bullets] == [
        "Priya leads the data platform team at Fernwood",
        "Changed: the user lives in Rotterdam now.",
    ]
    assert segment.title == "Priya leads the data platform team at Fernwood"
