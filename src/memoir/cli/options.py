"""Options several `memoir` commands share, declared once."""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["AgentOption", "AllAgentsOption"]

# Unified mode: one home, many agents; each command acts as one (the configured agent_id by default).
AgentOption = Annotated[
    str | None, typer.Option("--agent", help="act as this agent (unified mode; default: the agent_id setting)")
]
AllAgentsOption = Annotated[
    bool, typer.Option("--all-agents", help="unified mode: every agent's, not only one agent's (administration)")
]
