"""What every plot module shares: an Axes to draw on and the suits' colours."""

from __future__ import annotations

from typing import Any

RED_SUITS = "♥♦"


def axes(ax: Any = None, figsize: tuple[float, float] = (6.0, 3.5)) -> Any:
    """``ax`` itself, or the Axes of a new figure."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize)
    return ax


def colour_suit_labels(labels: Any) -> None:
    """Tick labels naming a red suit (hearts, diamonds) drawn in red."""
    for label in labels:
        if any(sym in label.get_text() for sym in RED_SUITS):
            label.set_color("#c00")
