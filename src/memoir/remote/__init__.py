"""`MemoirClient` (the façade's methods over a server's REST API) and `wire`, the JSON form of
what the façade takes and returns, which the server writes and the client reads."""
