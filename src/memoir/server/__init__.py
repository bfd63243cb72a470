"""`memoir serve`: HTTP interfaces over the façade (the OpenAI-compatible memory proxy first)."""

from memoir.server.app import create_app

__all__ = ["create_app"]
