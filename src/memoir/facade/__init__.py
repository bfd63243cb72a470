"""The façade and what assembles it: `Memoir` (`engine`), its timeline and context methods,
the parts a home runs on (`assembly`), what its reads return (`views`), `doctor`, moving a
home between backends (`migration`) and the hooks' spool.

Every door (the CLI, the servers, MCP, the hooks, the agent) sits above this package and
calls `Memoir`; everything below it (store, index, vault, ingest, retrieval, timeline, llm,
model, config) is what it assembles. Nothing is imported here: `memoir hook` reads the spool
module without loading the rest.
"""
