"""Transcripts imported: each file read, its calls made into the events hooks make, each event stored once.

Every call goes through `memoir.hooks.capture` (`parse_call`, then `events_for` keyed by
the transcript's own id for it), so an imported session is stored as its hooks would
have stored it: same event types, texts, metadata and masking. The ids derive from the
transcript's ids and times, so a second import yields the same events, which the log
keeps once. Each id is looked up before it is stored, to count what was there already,
and to report (rather than fail on) an id stored with other content: the transcript
changed since, or `privacy.secret_patterns` did. A message the hooks captured live has
an id of the hooks' making: it is found by what it is (`captured`) and not stored again.

A file that cannot be read, a line that is not a record and a record that makes no
valid event are reported (file, line, why) and skipped; the rest is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from memoir.errors import EventNotFound, InvalidEvent, InvalidInput
from memoir.hooks.capture import events_for, parse_call
from memoir.importers.captured import WINDOW_MS, captured_already
from memoir.importers.claude import ClaudeReader
from memoir.importers.codex import CodexReader
from memoir.importers.gemini import GeminiReader
from memoir.importers.reading import MAX_FILE_BYTES, MAX_LINE_BYTES, numbered_lines, parse_object
from memoir.importers.records import Call, RecordError, Transcript
from memoir.model import Event
from memoir.model.limits import MAX_PAGE
from memoir.model.secrets import Masker

if TYPE_CHECKING:
    from memoir.facade.engine import Memoir

__all__ = ["ImportReport", "Problem", "import_transcripts"]

BATCH = 500  # events per transaction
MAX_KEPT_PROBLEMS = 1000  # in the report; `on_problem` hears of every one


class Reader(Protocol):
    def feed(self, line: int, record: dict[str, object]) -> None: ...

    def finish(self) -> None: ...


READERS: dict[str, Callable[[Transcript], Reader]] = {
    "claude": ClaudeReader,
    "codex": CodexReader,
    "gemini": GeminiReader,
}


@dataclass(frozen=True)
class Problem:
    """Something skipped: a line (`line` > 0), or a note about a whole file (`line` 0)."""

    file: Path
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}" if self.line else f"{self.file}: {self.reason}"


@dataclass
class ImportReport:
    agent: str
    files: int = 0
    lines: int = 0  # non-blank lines read
    lines_skipped: int = 0
    events_added: int = 0
    events_present: int = 0  # stored before (an earlier import, the agent's hooks, or the same event twice)
    events_changed: int = 0  # stored before with other content: kept as stored, reported
    problems: list[Problem] = field(default_factory=list)  # the first MAX_KEPT_PROBLEMS
    session_ids: set[str] = field(default_factory=set)

    @property
    def sessions(self) -> int:
        return len(self.session_ids)


Progress = Callable[[Path, int], None]  # (file, bytes read since the last call; 0 when a file starts)


def import_transcripts(
    memoir: Memoir,
    agent: str,
    files: Iterable[Path],
    *,
    masker: Masker | None = None,
    progress: Progress | None = None,
    on_problem: Callable[[Problem], None] | None = None,
) -> ImportReport:
    """Import `agent`'s transcript `files` (see `find_transcripts`) into `memoir`; importing again adds nothing."""
    if agent not in READERS:
        raise InvalidInput("agent", f"unknown agent {agent!r}; expected one of {', '.join(READERS)}")
    run = _Run(memoir, agent, masker or Masker(memoir.settings.privacy.secret_patterns), progress, on_problem)
    for path in files:
        run.file(path)
    return run.report


class _Run:
    def __init__(
        self,
        memoir: Memoir,
        agent: str,
        masker: Masker,
        progress: Progress | None,
        on_problem: Callable[[Problem], None] | None,
    ) -> None:
        self.memoir, self.agent, self.masker = memoir, agent, masker
        self.progress = progress or (lambda path, size: None)
        self.on_problem = on_problem or (lambda problem: None)
        self.report = ImportReport(agent)
        self.pending: list[tuple[Event, int, Callable[[int, str], None]]] = []

    def file(self, path: Path) -> None:
        self.report.files += 1
        skip = _Skips(path)
        transcript = Transcript(path, skip)
        self.progress(path, 0)
        try:
            self._read(transcript, READERS[self.agent](transcript))
        except OSError as exc:
            skip(0, f"cannot be read: {exc.strerror or exc}")
        for call in transcript.calls:
            self._add(call, skip)
        self._flush()  # each file's events stored before the next is read
        self.report.lines_skipped += len(skip.lines)
        for problem in sorted(skip.problems, key=lambda p: p.line):  # in line order, whenever found
            self._problem(problem)

    def _read(self, transcript: Transcript, reader: Reader) -> None:
        with transcript.path.open("rb") as handle:
            if self.agent == "gemini" and transcript.path.suffix == ".json":  # one object: the whole file
                data = handle.read(MAX_FILE_BYTES + 1)
                self.progress(transcript.path, len(data))
                if len(data) > MAX_FILE_BYTES:
                    transcript.skip(0, f"larger than {MAX_FILE_BYTES:,} bytes: not read")
                    return
                self._feed(transcript, reader, 1, data, whole_file=True)
            else:
                for number, raw, size in numbered_lines(handle):
                    self.progress(transcript.path, size)
                    if raw is None:
                        transcript.skip(number, f"longer than {MAX_LINE_BYTES:,} bytes: not read")
                    elif raw.strip():
                        self._feed(transcript, reader, number, raw)
        _guarded(transcript, 0, reader.finish)

    def _feed(self, transcript: Transcript, reader: Reader, number: int, raw: bytes, whole_file: bool = False) -> None:
        self.report.lines += 1
        _guarded(
            transcript, number, lambda: reader.feed(number, parse_object(raw, first=number == 1, whole_file=whole_file))
        )

    def _add(self, call: Call, skip: Callable[[int, str], None]) -> None:
        try:
            hook = parse_call(self.agent, call.payload)
            events = self.memoir.prepare(events_for(hook, self.masker, key=call.key))
        except InvalidInput as exc:
            skip(call.line, f"{exc.field}: {exc.reason}")  # without `event #N`: the line is what the user has
            return
        except OSError as exc:  # finding the project's root: a path the system refuses (too long...)
            skip(call.line, f"cwd: {exc.strerror or exc}")
            return
        except RecursionError:  # rendering a tool's input nested almost as deep as JSON allows
            skip(call.line, "nested too deeply to render")
            return
        self.report.session_ids.add(hook.session_id)
        self.pending.extend((event, call.line, skip) for event in events)

    def _flush(self) -> None:
        """Store a file's events: those not stored yet, under their ids or (by the hooks) as the same message."""
        batch, self.pending = self.pending, []
        fresh: dict[str, Event] = {}
        for event, line, skip in batch:
            known = fresh.get(event.event_id) or self._stored(event.event_id)
            if known is None:
                fresh[event.event_id] = event
            elif known == event:
                self.report.events_present += 1
            else:
                self.report.events_changed += 1
                skip(
                    line,
                    f"event {event.event_id} is already stored with other content (the transcript or"
                    " privacy.secret_patterns changed since it was imported): the stored one stays",
                )
        own = {event.event_id for event, _, _ in batch}
        captured = captured_already(list(fresh.values()), self._logged(list(fresh.values()), own))
        self.report.events_present += len(captured)
        new = [event for event_id, event in fresh.items() if event_id not in captured]
        for start in range(0, len(new), BATCH):
            self._store(new[start : start + BATCH])

    def _logged(self, events: list[Event], own: set[str]) -> list[Event]:
        """The stored events of these events' sessions, around their times, but for this transcript's own."""
        spans: dict[str, tuple[int, int]] = {}
        for event in events:
            low, high = spans.get(event.session_id, (event.timestamp_ms, event.timestamp_ms))
            spans[event.session_id] = (min(low, event.timestamp_ms), max(high, event.timestamp_ms))
        found: list[Event] = []
        for session, (low, high) in spans.items():
            cursor = None
            while True:
                page = self.memoir.events(
                    max(0, low - WINDOW_MS), high + WINDOW_MS + 1, session_id=session, limit=MAX_PAGE, cursor=cursor
                )
                found.extend(event for event in page if event.event_id not in own)
                if page.next_cursor is None:
                    break
                cursor = page.next_cursor
        return found

    def _stored(self, event_id: str) -> Event | None:
        try:
            return self.memoir.get_event(event_id)
        except EventNotFound:
            return None

    def _store(self, events: list[Event]) -> None:
        try:
            self.memoir.ingest(events)
            self.report.events_added += len(events)
        except InvalidEvent:  # another process stored one of these ids meanwhile, with other content
            for event in events:
                try:
                    self.memoir.ingest(event)
                    self.report.events_added += 1
                except InvalidEvent:
                    self.report.events_changed += 1

    def _problem(self, problem: Problem) -> None:
        if len(self.report.problems) < MAX_KEPT_PROBLEMS:
            self.report.problems.append(problem)
        self.on_problem(problem)


class _Skips:
    """What was skipped in one file: each (line, reason) once, the lines counted."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: set[int] = set()
        self.problems: list[Problem] = []
        self.said: set[tuple[int, str]] = set()  # a line's calls often fail alike (a bad cwd)

    def __call__(self, line: int, reason: str) -> None:
        if (line, reason) not in self.said:
            self.said.add((line, reason))
            self.lines.update([line] if line else [])
            self.problems.append(Problem(self.path, line, reason[:500]))


def _guarded(transcript: Transcript, line: int, step: Callable[[], None]) -> None:
    """Run one step of reading; what the record's content trips is reported for its line, never raised."""
    try:
        step()
    except RecordError as exc:
        transcript.skip(line, str(exc))
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
        transcript.skip(line, f"unreadable record ({type(exc).__name__}: {exc})")
