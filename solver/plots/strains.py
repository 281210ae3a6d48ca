"""Tricks per trump suit for several cases side by side (widows, deals, declarations).

Each bar container is labelled with its own suit, and the legend is built from the
labelled artists, in the order drawn, so a label can never slide onto a neighbour's bars (a legend given
as a bare list of names labels the artists in matplotlib's order, lines first).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..deal import Strain
from ._common import axes

#: one colour per suit, the red suits told apart by shade
SUIT_COLOURS = {"S": "#222222", "H": "#c00000", "D": "#f08080", "C": "#6b6b6b", "N": "#1f77b4"}


def plot_strain_values(
    frame: Any,
    strains: Sequence[str] = ("S", "H", "D", "C"),
    *,
    target: int | None = None,
    ax: Any = None,
    ylabel: str = "tricks",
    title: str = "Tricks per strain",
) -> Any:
    """Grouped bars: one group per row of ``frame`` (its index names the group), one bar per
    strain column (``S H D C N``), and an optional target line; returns the Axes."""
    rows = list(frame.index)
    ax = axes(ax, (max(6.0, 1.6 * len(rows) + 2), 3.5))
    x = np.arange(len(rows))
    width = 0.8 / len(strains)
    handles = []
    for k, strain in enumerate(strains):
        symbol = Strain.parse(strain).symbol
        bars = ax.bar(
            x + (k - (len(strains) - 1) / 2) * width,
            [int(v) for v in frame[strain]],
            width,
            color=SUIT_COLOURS.get(strain, None),
            label=symbol,
        )
        handles.append(bars)
    if target is not None:
        handles.append(ax.axhline(target, color="red", linewidth=1, linestyle="--", label=f"target {target}"))
    ax.set_xticks(x, [str(r) for r in rows])
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(handles=handles, title="strain", fontsize=9, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return ax


__all__ = ["SUIT_COLOURS", "plot_strain_values"]
