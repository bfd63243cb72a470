"""Think documents, other AIs' command-line tools, and auto-selection of who answers (seed 001).

`documents` keeps a project's think documents in the vault; `providers` asks claude,
codex or gemini for a thought; `selection` picks an agent, style and model for claude.
The `memoir think` commands (`memoir.cli.think`) wire them together.
"""

from memoir.think.documents import ThinkBook, ThinkDocument, ThinkNotFound
from memoir.think.providers import PROVIDERS, ProviderAnswer, ProviderUnavailable, invoke
from memoir.think.selection import AutoSelection, Discovered, auto_select, discover

__all__ = [
    "PROVIDERS",
    "AutoSelection",
    "Discovered",
    "ProviderAnswer",
    "ProviderUnavailable",
    "ThinkBook",
    "ThinkDocument",
    "ThinkNotFound",
    "auto_select",
    "discover",
    "invoke",
]
