"""Named factories for pluggable parts (embedders, rerankers), chosen by a setting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from memoir.config import Settings
from memoir.errors import ConfigError

__all__ = ["Providers"]

T = TypeVar("T")


class Providers(Generic[T]):
    """Named factories for a pluggable part (embedders, rerankers), chosen by a setting.

    Built-in parts register here exactly as a user's would (`register`), so choosing one
    is a lookup, not a string switch, and an unknown name lists the known ones.
    """

    def __init__(self, setting: str) -> None:
        self.setting = setting
        self._factories: dict[str, Callable[[Settings], T]] = {}

    def register(self, name: str, factory: Callable[[Settings], T]) -> None:
        self._factories[name.strip().lower()] = factory

    @property
    def names(self) -> list[str]:
        return sorted(self._factories)

    def create(self, name: str, settings: Settings) -> T:
        factory = self._factories.get(name.strip().lower())
        if factory is None:
            raise ConfigError(f"{self.setting}: unknown provider {name!r}; known: {', '.join(self.names)}")
        return factory(settings)
