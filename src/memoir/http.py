"""One way to reach a model server over HTTP (chat, embeddings, rerank).

Every client memoir makes for an OpenAI-compatible server has the same shape: a base
URL with a trailing slash (so relative paths such as `embeddings` join under `/v1/`),
a bearer token when an API key is configured, and a timeout. Built here, once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # httpx costs 0.15 s to import: a process that never calls a model server does not pay it
    import httpx

__all__ = ["model_client"]


def model_client(
    base_url: str = "",
    *,
    api_key: str | None = None,
    timeout: float = 30.0,
    transport: httpx.BaseTransport | None = None,
) -> httpx.Client:
    import httpx

    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    base = base_url.rstrip("/") + "/" if base_url else ""
    return httpx.Client(base_url=base, headers=headers, timeout=timeout, transport=transport)
