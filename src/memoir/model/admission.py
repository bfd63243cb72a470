"""Admission: what `ingest` takes, turned into validated events with the home's defaults applied.

And the one rule that needs the store's answer: an id names one event forever. Sending
the same event again is a harmless retry; sending other content under a stored id is
a mistake `refuse_conflicts` reports, since the stored event stands and the new one is lost.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from memoir.errors import InvalidEvent, InvalidInput
from memoir.model.checks import brief
from memoir.model.event import Event
from memoir.model.notes import strip_notes
from memoir.model.secrets import Masker

__all__ = ["NOTES_ONLY", "admit", "cleaned", "refuse_conflicts"]

NOTES_ONLY = "(memoir's own notes, not kept)"


def admit(
    event_or_events: object,
    *,
    now_ms: int,
    allowance_ms: int,
    agent_id: str | None,
    agent_required: bool,
    masker: Masker | None = None,
) -> list[Event]:
    """Events as ingest takes them: one or many `Event`s or mappings, validated, given the default agent.

    One bad event rejects them all: the error names its position in the batch, its field
    and the reason. `agent_required` is unified mode, where every event needs an agent.
    This is the one way in for text from outside, whichever door it came by: memoir's own
    injected notes are taken out of the text (`strip_notes`), and with a `masker` secrets
    in the text and metadata are masked.
    """
    single = isinstance(event_or_events, Event | Mapping)
    items: Iterable[Any]
    if single:
        items = [event_or_events]
    elif isinstance(event_or_events, str | bytes) or not isinstance(event_or_events, Iterable):
        raise InvalidEvent("event", f"expected an Event, a mapping or a list of them, got {brief(event_or_events)}")
    else:
        items = event_or_events
    admitted = []
    for index, item in enumerate(items):
        try:
            event = _admit_one(item, now_ms, allowance_ms, agent_id, agent_required)
            admitted.append(cleaned(event, masker))
        except InvalidInput as exc:
            if single:
                raise
            raise exc.at(index) from None
    return admitted


def _admit_one(item: object, now_ms: int, allowance_ms: int, agent_id: str | None, agent_required: bool) -> Event:
    event = item if isinstance(item, Event) else Event.from_dict(item)  # type: ignore[arg-type]  # checked there
    event.check_not_future(now_ms, allowance_ms)
    if event.agent_id is None and agent_id is not None:
        event = dataclasses.replace(event, agent_id=agent_id)
    if event.agent_id is None and agent_required:
        raise InvalidEvent("agent_id", "required in unified mode: set it on the event, or configure agent_id")
    return event


def cleaned(event: Event, masker: Masker | None) -> Event:
    """The event without memoir's own notes in its text and with secrets masked (the same object if it held neither)."""
    text = strip_notes(event.text)
    if not text.strip() and event.text.strip():  # nothing but memoir's notes: nothing of the speaker's to keep
        text = NOTES_ONLY
    metadata = dict(event.metadata)
    if masker is not None:
        text = masker.mask(text)
        metadata = {key: masker.mask(value) for key, value in metadata.items()}
    if text == event.text and metadata == dict(event.metadata):
        return event
    return dataclasses.replace(event, text=text, metadata=metadata)


def refuse_conflicts(sent: Sequence[Event], stored: Sequence[Event], *, batch: bool) -> None:
    """Raise when an event of `sent` met a stored event of the same id but other content.

    `stored` is what the store kept for each sent event, in order (the very same object
    when it was new). The first conflict is raised, at its position in a `batch`; the
    events around it were stored all the same.
    """
    clashes = [i for i, (mine, kept) in enumerate(zip(sent, stored, strict=True)) if mine is not kept and mine != kept]
    if not clashes:
        return
    first = clashes[0]
    others = f"; {len(clashes) - 1} more like it" if len(clashes) > 1 else ""
    error = InvalidEvent(
        "event_id",
        f"{sent[first].event_id} is already stored with different content: give the new event its own id{others}",
    )
    raise error.at(first) if batch else error
