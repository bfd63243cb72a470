"""Think documents: a topic reasoned through in thoughts, closed by a conclusion.

    vault/think/<project scope>/<topic slug>__<id>.md

Markdown with YAML front matter (`role: think`, `topic`, `status: open|concluded`, ...),
beside the memories' `entries/` and never read as memories. The file is the user's:
memoir writes one only as the effect of a command (`create`, `add`, `conclude`), never
deletes one, and keeps what a person changed. Adding a thought appends to the file and
leaves the front matter byte for byte as it is (comments included); concluding rewrites
the front matter with the person's own keys kept. A document is found by the `id` in its
front matter, so it may be renamed. Each change is checked against the file as it was
read just before the write: a person's save in between is kept, and the change re-applied
on top of it. Writes are atomic (`vault.files.atomic_write`); memoir's own processes take
turns through a lock file in the home.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memoir.errors import InvalidInput, StoreError, ThinkNotFound, UserError
from memoir.model.event import format_timestamp, parse_timestamp
from memoir.model.ids import new_ulid, now_ms
from memoir.session_state import file_lock
from memoir.vault.files import (
    MAX_NOTE_BYTES,
    VaultFileError,
    atomic_write,
    dump_front_matter,
    inside,
    read_note,
    safe_name,
)
from memoir.vault.files import split_front_matter as _split_front

__all__ = ["ThinkBook", "ThinkDocument", "ThinkNotFound", "checked_text", "prompt_for"]

_ID = re.compile(r"[A-Za-z0-9]{1,64}")
_WORDS = re.compile(r"[a-z0-9]+")
_HEADING = re.compile(r"^#+ (?:\d{4}-\d\d-\d\d \d\d:\d\d UTC|Conclusion) · ", re.MULTILINE)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
MAX_TOPIC = 200
MAX_THOUGHT = 100_000
_RETRIES = 3  # times a change is re-applied when a person saved the file meanwhile


@dataclass(frozen=True)
class ThinkDocument:
    id: str
    topic: str
    scope: str
    status: str  # open or concluded
    created_at: datetime
    path: Path
    body: str
    front: dict[str, Any] = field(repr=False)

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    def to_dict(self) -> dict[str, Any]:
        extra = {k: v for k, v in self.front.items() if k in ("concluded_at", "promoted_to", "promoted_kind")}
        return {
            "id": self.id,
            "topic": self.topic,
            "scope": self.scope,
            "status": self.status,
            "created_at": format_timestamp(self.created_at),
            "path": str(self.path),
            **{k: str(v) for k, v in extra.items()},
            "body": self.body,
        }


def checked_text(name: str, value: object, limit: int = MAX_THOUGHT, *, one_line: bool = False) -> str:
    """Text from outside as memoir keeps it: stripped, no control characters, not empty, bounded."""
    if not isinstance(value, str):
        raise InvalidInput(name, f"expected text, got {type(value).__name__}")
    text = _CONTROL.sub("", value.replace("\r\n", "\n")).strip()
    if one_line:
        text = " ".join(text.split())
    if not text:
        raise InvalidInput(name, "is empty: say something")
    if len(text) > limit:
        raise InvalidInput(name, f"is {len(text)} characters long; at most {limit}")
    return text.encode("utf-8", "replace").decode("utf-8")  # a lone surrogate cannot be written as UTF-8


def _stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M UTC")


def _now() -> datetime:
    return parse_timestamp(now_ms())


class ThinkBook:
    """The think documents of one scope (a project), in `<vault>/think/<scope>/`."""

    def __init__(self, vault_root: Path, scope: str, lock: Path) -> None:
        self.root = Path(vault_root)
        self.scope = scope
        self.folder = self.root / "think" / safe_name(scope)
        self._lock = lock

    # -- reading ----------------------------------------------------------------------------

    def scan(self) -> tuple[list[ThinkDocument], list[VaultFileError]]:
        """Every document of the scope, oldest first, and the files that could not be read as one."""
        if not self.folder.is_dir():
            return [], []
        found: list[ThinkDocument] = []
        problems: list[VaultFileError] = []
        for path in sorted(self.folder.glob("*.md")):
            if path.name.startswith("."):
                continue  # a temporary file of a write in progress
            try:
                document = self._read(path)
            except VaultFileError as exc:
                problems.append(exc)
            else:
                if document is not None:
                    found.append(document)
        return sorted(found, key=lambda d: (d.created_at, d.id)), problems

    def get(self, doc_id: str) -> ThinkDocument:
        """The document with this id, or the only one whose id starts with it (case ignored)."""
        wanted = _checked_id(doc_id).upper()
        documents, _ = self.scan()
        exact = [d for d in documents if d.id.upper() == wanted]
        matches = exact or [d for d in documents if d.id.upper().startswith(wanted)]
        if not matches:
            raise ThinkNotFound(f"no think document {doc_id!r} in project {self.scope} (see `memoir think list`)")
        if len({d.id for d in matches}) > 1:
            raise InvalidInput("id", f"{doc_id!r} matches {len(matches)} documents: give more of the id")
        if len(matches) > 1:
            paths = ", ".join(str(d.path) for d in matches)
            raise InvalidInput("id", f"{len(matches)} files claim id {matches[0].id} ({paths}): keep one")
        return matches[0]

    def latest_open(self) -> ThinkDocument:
        documents, _ = self.scan()
        opened = [d for d in documents if d.is_open]
        if not opened:
            raise ThinkNotFound(f"no open think document in project {self.scope}: `memoir think create TOPIC` first")
        return opened[-1]

    def _read(self, path: Path) -> ThinkDocument | None:
        data = read_note(path)
        return None if data is None else self._parse(path, data)

    def _parse(self, path: Path, data: bytes) -> ThinkDocument:
        front, body = _split_front(path, _decoded(path, data))
        return _document(path, front, body, self.scope)

    # -- changing ---------------------------------------------------------------------------

    def create(self, topic: str) -> ThinkDocument:
        topic = checked_text("topic", topic, MAX_TOPIC, one_line=True)
        created = _now()
        doc_id = new_ulid(int(created.timestamp() * 1000))
        front: dict[str, Any] = {
            "id": doc_id,
            "role": "think",
            "topic": topic,
            "scope": self.scope,
            "status": "open",
            "created_at": format_timestamp(created),
            "tags": ["think"],
        }
        path = self.folder / f"{_slug(topic)}__{doc_id}.md"
        with self._locked():
            atomic_write(path, _render(front, f"# {topic}\n"))
        return ThinkDocument(doc_id, topic, self.scope, "open", created, path, f"# {topic}\n", front)

    def add(self, doc_id: str, thoughts: list[tuple[str, str]]) -> ThinkDocument:
        """Append thoughts, each `(who, text)`, to an open document; its front matter stays as it is."""
        when = _stamp(_now())
        sections = "".join(f"\n## {when} · {who}\n\n{_unforged(text)}\n" for who, text in thoughts)

        def change(document: ThinkDocument, head: str) -> str:
            check_open(document)
            return head + document.body.rstrip("\n") + "\n" + sections

        return self._change(doc_id, change)

    def conclude(self, doc_id: str, text: str, promoted: tuple[str, str] | None = None) -> ThinkDocument:
        """Close a document with a conclusion; `promoted` is (kind, memory id) when it became a memory."""
        text = checked_text("conclusion", text)
        now = _now()

        def change(document: ThinkDocument, head: str) -> str:
            check_open(document)
            front = {**document.front, "status": "concluded", "concluded_at": format_timestamp(now)}
            if promoted is not None:
                front["promoted_kind"], front["promoted_to"] = promoted
            ending = f"\n\n## Conclusion · {_stamp(now)}\n\n{_unforged(text)}\n"
            return _render(front, document.body.rstrip("\n") + ending)

        return self._change(doc_id, change)

    def _change(self, doc_id: str, change: Callable[[ThinkDocument, str], str]) -> ThinkDocument:
        with self._locked():
            for _ in range(_RETRIES):
                path = self.get(doc_id).path
                before = read_note(path)
                if before is None:
                    continue  # moved meanwhile: look for it again
                document = self._parse(path, before)
                new_text = change(document, _head(_decoded(path, before)))
                if len(new_text.encode("utf-8")) > MAX_NOTE_BYTES:
                    raise InvalidInput("text", f"the document would pass {MAX_NOTE_BYTES // 1024} KiB: conclude it")
                inside(self.root, path.parent)
                if read_note(path) != before:
                    continue  # a person saved it meanwhile: apply the change to their version
                atomic_write(path, new_text)
                return self._parse(path, new_text.encode("utf-8"))
        raise StoreError(f"think document {doc_id} keeps changing while memoir writes it: try again")

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        if self.folder.exists():
            inside(self.root, self.folder)  # a scope folder linked to elsewhere is not written through
        with file_lock(self._lock):
            yield


def check_open(document: ThinkDocument) -> None:
    if not document.is_open:
        when = document.front.get("concluded_at", "earlier")
        raise UserError(f"think document {document.id} was concluded ({when}): create another to go on")


def _checked_id(doc_id: object) -> str:
    if not isinstance(doc_id, str) or not _ID.fullmatch(doc_id):
        raise InvalidInput("id", f"{doc_id!r} is not a think document id (letters and digits, as `list` shows)")
    return doc_id


def _decoded(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise VaultFileError(path, f"not UTF-8 text (byte {exc.start})") from None


def _unforged(text: str) -> str:
    """`text` with lines that read like memoir's own headings escaped: an answer cannot pose as a thought."""
    return _HEADING.sub(lambda found: "\\" + found.group(0), text)


def _slug(topic: str) -> str:
    return "-".join(_WORDS.findall(topic.lower()))[:40].strip("-") or "think"


def _render(front: dict[str, Any], body: str) -> str:
    header = dump_front_matter(front)
    return f"---\n{header}---\n{body}"


def _head(text: str) -> str:
    """The front matter exactly as written, closing `---` line included (the file was parsed before)."""
    first, rest = text.split("\n---", 1)
    line, _, _ = rest.partition("\n")
    return f"{first}\n---{line}\n"


def _document(path: Path, front: dict[Any, Any], body: str, scope: str) -> ThinkDocument:
    if front.get("role") != "think":
        raise VaultFileError(path, "not a think document (no `role: think` in its front matter): left alone")
    doc_id, topic, status = front.get("id"), front.get("topic"), front.get("status", "open")
    if not isinstance(doc_id, str) or not _ID.fullmatch(doc_id):
        raise VaultFileError(path, "its front matter has no usable id (letters and digits)")
    if status not in ("open", "concluded"):
        raise VaultFileError(path, f"status must be open or concluded, not {status!r}")
    try:
        created = parse_timestamp(front.get("created_at"), "created_at")
    except UserError:  # a person's own file, or a mangled time: ordered as the oldest, not refused
        created = datetime.fromtimestamp(0, UTC)
    topic_text = str(topic) if isinstance(topic, str | int | float) and str(topic).strip() else path.stem
    doc_scope = front.get("scope")
    return ThinkDocument(
        doc_id,
        topic_text,
        doc_scope if isinstance(doc_scope, str) else scope,
        str(status),
        created,
        path,
        body,
        {str(k): v for k, v in front.items()},
    )


MAX_CONTEXT = 20_000  # characters of the document sent along with a question: its latest part


def prompt_for(document: ThinkDocument, text: str) -> str:
    """What another AI is asked: the document so far (its latest part), then the new thought."""
    so_far = document.body.strip()
    if len(so_far) > MAX_CONTEXT:
        so_far = "[earlier thoughts left out]\n" + so_far[-MAX_CONTEXT:]
    return (
        f"We are thinking through a topic of a software project: {document.topic}\n\n"
        f"The think document so far:\n\n{so_far}\n\n"
        f"The new thought, to answer with your own perspective (concise, concrete):\n\n{text}\n"
    )
