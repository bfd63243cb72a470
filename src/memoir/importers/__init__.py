"""Coding agents' own transcripts, imported as the events their hooks would have made (`memoir import`).

Claude Code, Codex and Gemini CLI keep every session on disk in formats of their own.
A reader per agent (`claude`, `codex`, `gemini`) turns a transcript's records into the
hook calls they stand for (a typed prompt, a tool call with its result, an answer, the
session's start), keyed by the transcript's own ids; `ingestion` stores them through the
hooks' own capture, so imported and hooked sessions read alike, and importing twice adds
nothing. Reading is defensive throughout (`reading`): a bad line is reported and
skipped, never fatal.
"""

from memoir.importers.ingestion import ImportReport, Problem, import_transcripts
from memoir.importers.locations import AGENT_NAMES, default_roots, find_transcripts

__all__ = ["AGENT_NAMES", "ImportReport", "Problem", "default_roots", "find_transcripts", "import_transcripts"]
