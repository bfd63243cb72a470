"""memoir over the Model Context Protocol: the façade's memory as tools for coding agents and other MCP clients.

`server` builds the server (stdio for `memoir mcp`, streamable HTTP at `/mcp` on
`memoir serve`), `tools` holds the tools, `render` their text, and `install` registers the
stdio server in Claude Code's, Codex's or Gemini CLI's MCP configuration.
"""
