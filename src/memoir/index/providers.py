"""Embedders by name: `embedding.provider` picks one of these factories.

The built-in embedders are registered here exactly as a user's would be:

    from memoir.index.providers import EMBEDDERS
    EMBEDDERS.register("mine", lambda settings: MyEmbedder(settings.embedding.model))
"""

from __future__ import annotations

from memoir.config import Settings
from memoir.index.embedders import Embedder, HashingEmbedder, MiniLMEmbedder, OpenAIEmbedder
from memoir.registry import Providers

__all__ = ["EMBEDDERS"]

EMBEDDERS: Providers[Embedder] = Providers("embedding.provider")


def _openai(settings: Settings) -> Embedder:
    section = settings.embedding
    return OpenAIEmbedder(base_url=section.base_url or "", model=section.model or "", api_key=section.api_key)


def _local(settings: Settings) -> Embedder:
    folder = settings.embedding.model_dir or settings.home / "models"
    return MiniLMEmbedder(threads=settings.embedding.threads, int8_dir=folder)


EMBEDDERS.register("local", _local)  # int8 arithmetic, 2.4x faster (docs/decisions.md 33)
EMBEDDERS.register("local-exact", lambda settings: MiniLMEmbedder(threads=settings.embedding.threads))
EMBEDDERS.register("openai", _openai)
EMBEDDERS.register("hashing", lambda settings: HashingEmbedder())
