"""Embedders by name: `embedding.provider` picks one of these factories.

The built-in embedders are registered here exactly as a user's would be:

    from memoir.index.providers import EMBEDDERS
    EMBEDDERS.register("mine", lambda settings: MyEmbedder(settings.embedding.model))
"""

from __future__ import annotations

from memoir.config import Providers, Settings
from memoir.index.embedders import Embedder, HashingEmbedder, MiniLMEmbedder, OpenAIEmbedder

__all__ = ["EMBEDDERS"]

EMBEDDERS: Providers[Embedder] = Providers("embedding.provider")


def _openai(settings: Settings) -> Embedder:
    section = settings.embedding
    return OpenAIEmbedder(base_url=section.base_url or "", model=section.model or "", api_key=section.api_key)


EMBEDDERS.register("local", lambda settings: MiniLMEmbedder(threads=settings.embedding.threads))
EMBEDDERS.register("openai", _openai)
EMBEDDERS.register("hashing", lambda settings: HashingEmbedder())
