"""What the web view's forms send, read strictly: urlencoded UTF-8, each field named once.

A form is outside input like any other: bytes that are not UTF-8, a field sent twice or
one that is missing are refused with an error that names the field, and nothing changes.
"""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import parse_qs

from memoir.errors import InvalidQuery

__all__ = ["csrf_token", "read_form"]


def read_form(body: bytes, fields: tuple[str, ...]) -> dict[str, str]:
    """The named fields of an urlencoded body; `csrf` is always one of them."""
    try:
        text = body.decode("utf-8")
        values = parse_qs(text, keep_blank_values=True, strict_parsing=bool(text), errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise InvalidQuery("form", "the form's body is not urlencoded UTF-8") from None
    found: dict[str, str] = {}
    for name in ("csrf", *fields):
        given = values.get(name, [])
        if len(given) != 1:
            raise InvalidQuery(name, "missing from the form" if not given else "sent more than once")
        found[name] = given[0]
    return found


def csrf_token(secret: bytes, session: str | None) -> str:
    """The token a page's forms carry: a MAC of the browser's session under this server's secret.

    A page of another site cannot read it, so cannot post a form that carries it; the
    secret is made when the server starts, so a restart asks forms to be loaded again.
    """
    return hmac.new(secret, b"csrf:" + (session or "-").encode(), hashlib.sha256).hexdigest()
