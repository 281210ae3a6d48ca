"""What every plot module shares: an Axes to draw on and the suits' colours."""

from __future__ import annotations

from typing import Any

RED_SUITS = "♥♦"


def plain_text(text: object) -> str:
    """``text`` drawn by matplotlib as itself, never as mathtext.

    A name such as ``$\\undefinedmacro$`` from a hand file would otherwise end the drawing
    in a parse error (and deeply nested ``\\sqrt{`` in a RecursionError). Every ``$``
    is escaped, so no span of the text is mathematics; matplotlib shows ``\\$`` as ``$``.
    Every text from a file or a user that a plot draws goes through here.
    """
    return str(text).replace("$", r"\$")


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
