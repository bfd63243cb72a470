"""Structured output that survives local models.

Small local models wrap JSON in Markdown fences, think aloud in `<think>` blocks first
(Qwen3, DeepSeek-R1), or add a sentence before or after. `extract_json` finds the JSON
value in such text; anything else is a `ModelOutputError` whose message quotes what came
back, so the caller can ask once more with the error spelled out.
"""

from __future__ import annotations

import json
import re
from typing import Any

from memoir.errors import ModelOutputError

__all__ = ["extract_json"]

_THINK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_decoder = json.JSONDecoder()


def extract_json(text: str) -> Any:
    """The JSON object or array in a model's answer, however it was wrapped."""
    if not isinstance(text, str) or not text.strip():
        raise ModelOutputError("the model returned nothing")
    cleaned = _THINK.sub("", text).strip()
    candidates = [m.group(1).strip() for m in _FENCE.finditer(cleaned)] + [cleaned]
    for candidate in candidates:
        for start, char in enumerate(candidate):
            if char not in "{[":
                continue
            try:
                value, _ = _decoder.raw_decode(candidate, start)
            except json.JSONDecodeError:
                continue
            return value
    raise ModelOutputError(f"the model's answer holds no JSON: {text.strip()[:200]!r}")
