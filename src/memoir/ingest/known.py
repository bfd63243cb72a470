"""A known fact while a message is reconciled, and the decisions reconciliation makes about it
(`rule_decisions` for the changes a message names, `settling` for the statements it adds)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from memoir.ingest.stemming import stems
from memoir.ingest.topics import Topic, topics
from memoir.ingest.values import Value, values
from memoir.model.memory import normalise_content

__all__ = ["Decision", "Known", "replace_known"]


@dataclass(frozen=True)
class Decision:
    event: str  # ADD, UPDATE, DELETE or NONE
    text: str
    memory_id: str | None = None  # the existing memory concerned (UPDATE, DELETE, NONE)
    important: bool = False  # the user asked for it to be remembered (tagged `important`)
    source: str = "heuristics"  # who read the fact in the message: the rules, or the model (llm)
    reconciled_by: str = "heuristics"  # who decided what it does to the known facts


@dataclass
class Known:
    """A live fact while a message is reconciled (`id` None: added by this reconciliation).

    What the rules read of its text is worked out once: a fact kept between messages
    (`live.LiveFacts`) is not read again for each one.
    """

    id: str | None
    text: str
    stems: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        self.stems = stems(self.text)

    @cached_property
    def normalised(self) -> str:
        return normalise_content(self.text)

    @cached_property
    def topics(self) -> tuple[Topic, ...]:
        return topics(self.text)

    @cached_property
    def values(self) -> tuple[Value, ...]:
        return tuple(values(self.text))


def replace_known(
    known: Known, text: str, rest: str | None, important: bool, source: str, live: list[Known]
) -> list[Decision]:
    """`known` becomes `text`; with a `rest` (the parts of it the change left as they were), `known`
    becomes the rest and `text` is added beside it. `live` follows the decisions."""
    if rest is None:  # still that memory: a later sentence of the message may change it again ("We've pushed the
        live[live.index(known)] = Known(known.id, text)  # wedding to October. … so it's the 11th of October now")
        return [Decision("UPDATE", text, known.id, important, source)]
    live[live.index(known)] = Known(None, rest)
    live.append(Known(None, text))
    return [Decision("UPDATE", rest, known.id), Decision("ADD", text, None, important, source)]
