"""A transcript's bytes, read as hostile: lines of bounded size, each a JSON object or a reason why not.

Transcripts are written by other programs, may be cut short by a crash or still be
written to, and may hold anything. Each line is read alone, at most `MAX_LINE_BYTES`
of it (a longer one is skipped to its end without being held in memory), decoded as
UTF-8 and parsed as JSON; whatever is wrong is a `RecordError` for that line only.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO, NoReturn

from memoir.importers.records import RecordError

__all__ = ["MAX_FILE_BYTES", "MAX_LINE_BYTES", "numbered_lines", "parse_object"]

MAX_LINE_BYTES = 16_000_000  # a hook payload's limit too (capture.MAX_PAYLOAD_BYTES)
MAX_FILE_BYTES = 64_000_000  # a whole-file JSON transcript (Gemini CLI's older chats)
_CHUNK = 1 << 20


def numbered_lines(handle: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[tuple[int, bytes | None, int]]:
    """(line number, its bytes or None when longer than `limit`, bytes consumed) for each line."""
    number = 0
    while raw := handle.readline(limit + 1):
        number += 1
        size = len(raw)
        if len(raw) > limit and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # the rest of the line, a chunk at a time
                raw = handle.readline(_CHUNK)
                size += len(raw)
            yield number, None, size
            continue
        yield number, raw, size


def parse_object(raw: bytes, *, first: bool = False, whole_file: bool = False) -> dict[str, Any]:
    """The JSON object in `raw`; a RecordError says what is wrong, and that the line was cut short if it was."""
    try:
        return _parse(raw, first or whole_file)
    except RecordError as exc:
        if not whole_file and not raw.endswith(b"\n"):  # the last line, unended: a crash, or still being written
            raise RecordError(f"{exc} (the line has no end: cut short?)") from None
        raise


def _parse(raw: bytes, first: bool) -> dict[str, Any]:
    try:
        text = raw.decode("utf-8-sig" if first else "utf-8")  # a byte order mark may open a file
    except UnicodeDecodeError as exc:
        raise RecordError(f"not UTF-8 (byte {raw[exc.start]:#04x} at column {exc.start + 1})") from None
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(f"malformed JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise RecordError("malformed JSON (nested too deeply)") from None
    except RecordError:
        raise
    except ValueError:  # Python reads no integer past its digit limit (4,300 digits)
        raise RecordError("malformed JSON (a number with too many digits)") from None
    if not isinstance(data, dict):
        raise RecordError(f"expected a JSON object, got {type(data).__name__}")
    return data


def _refuse_constant(name: str) -> NoReturn:
    raise RecordError(f"malformed JSON ({name} is not a JSON value)")
