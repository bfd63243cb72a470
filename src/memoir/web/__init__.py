"""The web view: memoir in a browser, at `/` of `memoir serve` (seed 002's timeline down to the evidence).

One more door over the façade: each page reads through the operations the REST API offers
(`memoir.model.operations`), rendered on the server as plain HTML (Jinja2, every value
escaped) that works without JavaScript; charts are inline SVG. Forms post back here, with a
token against cross-site posting, and change memory only through the façade. Signing in
(when the server has an API key) sets a session cookie that is a MAC, never the key.
"""

from memoir.web.pages import create_web_router

__all__ = ["create_web_router"]
