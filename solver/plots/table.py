"""The double-dummy table as a heatmap: strains down, seats across, tricks in each cell."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine import DDTable
from ._common import axes, colour_suit_labels


def plot_table(table: DDTable, ax: Any = None, *, cmap: str = "viridis") -> Any:
    """Draw ``table`` as an annotated heatmap; return the Axes."""
    ax = axes(ax, (4.0, 3.5))
    frame = table.to_frame()
    values = frame.to_numpy(dtype=float)
    image = ax.imshow(values, cmap=cmap, aspect="auto", vmin=0, vmax=max(1.0, float(np.nanmax(values))))
    ax.set_xticks(range(values.shape[1]), list(frame.columns))
    ax.set_yticks(range(values.shape[0]), list(frame.index))
    colour_suit_labels(ax.get_yticklabels())
    middle = (image.norm.vmin + image.norm.vmax) / 2
    for (i, j), v in np.ndenumerate(values):
        ax.text(j, i, f"{int(v)}", ha="center", va="center", color="white" if v < middle else "black")
    ax.set_xlabel("seat")
    ax.set_ylabel("strain")
    ax.set_title(f"Double-dummy tricks (leader {table.leader.name}{', misère' if table.misere else ''})")
    return ax


__all__ = ["plot_table"]
