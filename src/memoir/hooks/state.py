"""Temporary: per-session JSON state (to be replaced by memoir.session_state)."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

_SAFE = re.compile(r"[A-Za-z0-9._-]{1,64}")


def _folder(home: Path, session: str) -> Path:
    name = (
        session
        if _SAFE.fullmatch(session) and session not in (".", "..")
        else hashlib.sha256(session.encode("utf-8", "replace")).hexdigest()[:32]
    )
    return home / "sessions" / name


def read_state(home: Path, session: str, name: str) -> dict[str, Any]:
    try:
        value = json.loads((_folder(home, session) / f"{name}.json").read_bytes())
    except (OSError, ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def write_state(home: Path, session: str, name: str, data: dict[str, Any]) -> None:
    folder = _folder(home, session)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{name}.json.tmp"
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, folder / f"{name}.json")
