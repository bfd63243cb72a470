"""What the chat sends a model, and how it stays within the context window (seed 000's CHECK CONTEXT).

The session keeps every message (`messages`: the system prompt, then each turn), and
sends a view of them: the system prompt, then the compressed form of the messages up to
`summarized_at` (the `prefix`: summaries and the messages compression kept), then every
message after it as it was. Between compressions the prefix does not change, byte for
byte, so a server's prompt cache holds; compression rolls: the next one compresses the
view (prefix included), handing `memoir.history` its previous state back, so summaries
already made are not made again.

When the view reaches `chat.compress_at` of `chat.context_window` tokens (the tools'
definitions counted too), it is compressed with `chat.compression`, summaries asked of
the session's model (extractive when it fails). A saved state (`<home>/chat/<conversation>/state.json`)
keeps `summarizedAt` and the prefix, by event id for logged messages and whole for
summaries (which no event holds), so a resumed conversation sends the same bytes again.
`memoir.history` is imported when first needed: the chat starts without it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memoir.errors import ConfigError, InvalidQuery, StoreError
from memoir.llm.service import LLM
from memoir.model.chat import Message
from memoir.session_state import SessionState, safe_session

if TYPE_CHECKING:
    from memoir.history import HistoryParams, Report, TokenCounter

__all__ = ["ChatHistory", "history_params", "load_state", "save_state"]

log = logging.getLogger("memoir.agent")
STATE_NAME = "state"


def history_params(strategy: str) -> HistoryParams:
    """`chat.compression` as memoir.history's parameters; ConfigError naming the setting when it is wrong."""
    from memoir.history import HistoryParams, parse_strategy

    try:
        parsed = parse_strategy(strategy)
    except (ConfigError, InvalidQuery) as exc:
        raise ConfigError.at("chat.compression", str(exc)) from None
    return HistoryParams(compression_strategy=parsed, max_tokens=None, max_history_size=None, enable_token_caching=True)


class ChatHistory:
    """Every message of a chat, the compressed prefix, and the view sent to the model."""

    def __init__(self, system: Message, turns: Sequence[Message]) -> None:
        self.messages: list[Message] = [system, *turns]
        self.prefix: list[Message] = []  # the compressed form of messages[1:summarized_at]
        self.summarized_at = 1
        self.state: Any = None  # memoir.history's Compressed, passed back for a byte-stable prefix
        self._counter: TokenCounter | None = None

    def append(self, *messages: Message) -> None:
        self.messages.extend(messages)

    def view(self) -> list[Message]:
        return [self.messages[0], *self.prefix, *self.messages[self.summarized_at :]]

    def tokens(self, extra: str = "") -> int:
        """Tokens of the view (each message counted once: the counter keeps them), plus `extra`'s."""
        from memoir.history import TokenCounter, count_tokens

        if self._counter is None:
            self._counter = TokenCounter()
        return self._counter.total(self.view()) + (count_tokens(extra) if extra else 0)

    def compress(self, params: HistoryParams, llm: LLM | None) -> Report:
        """Compress the view now; the new prefix stands for every message so far.

        Forced: the session asks only when it must (near the window, refused as too long,
        `/compress`), so the state's prefix is not reused as it is.
        """
        from memoir.history import manage

        managed = manage(self.view(), params, llm=llm, state=self.state, force=True)
        kept = list(managed.messages)
        if kept and kept[0].role == "system" and kept[0].content == self.messages[0].content:
            kept = kept[1:]  # the session's own prompt stays first, outside the prefix
        self.prefix, self.summarized_at, self.state = kept, len(self.messages), managed.state
        return managed.report

    # -- the saved state ------------------------------------------------------------------

    def saved(self) -> dict[str, Any]:
        """The compression state as JSON: logged messages by event id, summaries whole."""
        covered = self.messages[self.summarized_at - 1] if self.summarized_at > 1 else None
        prefix = [{"event_id": m.event_id} if m.event_id else m.to_openai() for m in self.prefix]
        return {
            "summarizedAt": self.summarized_at,
            "summarizedThrough": covered.event_id if covered else None,
            "prefix": prefix,
        }

    def restore(self, saved: Mapping[str, Any]) -> bool:
        """Take a saved state back if it fits these messages; False (nothing changed) when it does not."""
        through, prefix = saved.get("summarizedThrough"), saved.get("prefix")
        positions = {m.event_id: n for n, m in enumerate(self.messages) if m.event_id}
        if not isinstance(through, str) or through not in positions or not isinstance(prefix, list):
            return False
        restored = []
        for item in prefix:
            if isinstance(item, Mapping) and isinstance(item.get("event_id"), str):
                if item["event_id"] in positions:  # a message the log holds: its current form
                    restored.append(self.messages[positions[item["event_id"]]])
            else:
                try:
                    restored.append(Message.from_openai(item, "prefix"))
                except InvalidQuery:
                    return False  # a hand-edited state: compression starts over, nothing is lost
        self.prefix, self.summarized_at = restored, positions[through] + 1
        return True


def state_file(home: Path, conversation_id: str) -> SessionState:
    """`<home>/chat/<conversation>/state.json`, written atomically, read fail-open (session_state's rules)."""
    files = SessionState(home, conversation_id)
    files.folder = Path(home) / "chat" / safe_session(conversation_id)
    return files


def save_state(home: Path, conversation_id: str, data: Mapping[str, Any]) -> None:
    try:
        state_file(home, conversation_id).write(STATE_NAME, data)
    except StoreError as exc:  # the log holds the conversation: only the compression is lost
        log.warning("chat state of %s not saved: %s", conversation_id, exc)


def load_state(home: Path, conversation_id: str) -> dict[str, Any]:
    return state_file(home, conversation_id).read(STATE_NAME)


def describe(data: Any) -> str:
    """Tool definitions as the text counted against the window."""
    return json.dumps(data, ensure_ascii=False, default=str)
