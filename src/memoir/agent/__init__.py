"""The chat agent (seed 000): a model with memoir's memory and tools, in a session that logs every turn.

    from memoir.agent import ChatSession
    with ChatSession(memoir) as session:          # INITIALIZING -> READY
        reply = session.send("hello", on_text=print)

`ChatSession` (session.py) is the state machine; `ToolRegistry` and `Tool` (tools.py) check
and run tools; `builtin_tools` (builtins.py) are memoir's own; key facts and their
correction rule are in facts.py, the log of messages in transcript.py, the context
window's management in context.py, the tool-call loop in turn.py.
"""

from memoir.agent.builtins import ToolScope, builtin_tools
from memoir.agent.session import ChatSession, Reply, SessionState
from memoir.agent.tools import Tool, ToolRegistry

__all__ = ["ChatSession", "Reply", "SessionState", "Tool", "ToolRegistry", "ToolScope", "builtin_tools"]
