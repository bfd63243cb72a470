"""Who may call a memoir server: the API key every interface (HTTP, gRPC) checks the same way.

A server bound to loopback serves the machine's own users and needs no key; bound to any
other address it refuses to start without one (`MEMOIR_API_KEY`). Keys are compared in
constant time, and nothing here ever puts a key in a message or a log line.
"""

from __future__ import annotations

import hmac
import ipaddress

from memoir.errors import ConfigError

__all__ = [
    "WEB_SESSION_COOKIE",
    "WEB_SESSION_S",
    "bearer_token",
    "check_serving",
    "is_loopback",
    "key_matches",
    "web_session",
    "web_session_valid",
]

MIN_KEY_LENGTH = 16  # a guessable key is no key: 16 characters of a random token at least
WEB_SESSION_S = 12 * 3600  # how long a browser's sign-in lasts
WEB_SESSION_COOKIE = "memoir_session"


def is_loopback(host: str) -> bool:
    """Whether `host` (an address or `localhost`) is reachable from this machine only."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_serving(host: str, api_key: str | None) -> None:
    """Refuse to serve off loopback without a key, or with a key too short to protect anything."""
    if api_key is not None and len(api_key) < MIN_KEY_LENGTH:
        raise ConfigError(f"api_key: at least {MIN_KEY_LENGTH} characters (try `openssl rand -hex 24`)")
    if api_key is None and not is_loopback(host):
        raise ConfigError(
            f"--host {host}: serving beyond this machine needs an API key; set MEMOIR_API_KEY "
            "(clients send it as `Authorization: Bearer <key>`)"
        )


def bearer_token(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None when there is none."""
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def key_matches(given: str | None, expected: str) -> bool:
    """Constant-time comparison, so response times tell nothing about how much of a guess was right."""
    if given is None:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass"))


def web_session(key: str, now_s: float) -> str:
    """A browser's session token after it signed in with `key`: when it was issued and a MAC
    of that under the key. The key itself never goes to the browser, into a URL or a log."""
    issued = str(int(now_s))
    return f"{issued}.{_mac(key, issued)}"


def web_session_valid(token: str | None, key: str, now_s: float) -> bool:
    """Whether a session token was issued under `key` within the last `WEB_SESSION_S` seconds."""
    issued, _, mac = (token or "").partition(".")
    if not (issued.isascii() and issued.isdigit() and len(issued) < 12):
        return False
    fresh = 0 <= now_s - int(issued) < WEB_SESSION_S
    return fresh and hmac.compare_digest(mac.encode("ascii", "replace"), _mac(key, issued).encode())


def _mac(key: str, message: str) -> str:
    digest = hmac.new(key.encode("utf-8", "surrogatepass"), b"memoir-web-session:" + message.encode(), "sha256")
    return digest.hexdigest()
