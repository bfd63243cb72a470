"""Who may call a memoir server: the API key every interface (HTTP, gRPC) checks the same way.

A server bound to loopback serves the machine's own users and needs no key; bound to any
other address it refuses to start without one (`MEMOIR_API_KEY`). Keys are compared in
constant time, and nothing here ever puts a key in a message or a log line.
"""

from __future__ import annotations

import hmac
import ipaddress

from memoir.errors import ConfigError

__all__ = ["bearer_token", "check_serving", "is_loopback", "key_matches"]

MIN_KEY_LENGTH = 16  # a guessable key is no key: 16 characters of a random token at least


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
