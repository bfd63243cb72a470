"""Small bar charts as inline SVG, drawn on the server: no script, nothing to fetch, readable as a table too."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Bar", "Chart", "bars"]

WIDTH, HEIGHT = 720, 120


@dataclass(frozen=True)
class Bar:
    label: str
    value: int
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Chart:
    bars: tuple[Bar, ...]
    unit: str
    top: int
    width: int = WIDTH
    height: int = HEIGHT


def bars(points: list[tuple[str, int]], unit: str) -> Chart:
    """One bar per (label, value), scaled to the largest; the template draws and labels them."""
    top = max((value for _, value in points), default=0)
    step = WIDTH / max(len(points), 1)
    shown = tuple(
        Bar(label, value, i * step, HEIGHT - (h := HEIGHT * value / top if top else 0.0), max(step - 1, 1), h)
        for i, (label, value) in enumerate(points)
    )
    return Chart(shown, unit, top)
