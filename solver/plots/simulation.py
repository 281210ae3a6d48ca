"""Simulation statistics with their 95% intervals as error bars."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..analysis.simulation import Summary
from ..errors import SolverError
from ._common import axes, plain_text

STATISTICS = {
    "win_rate": ("win rate (share of matches)", "player"),
    "win_rate_by_start_seat": ("win rate (share of matches)", "starting seat"),
    "mean_net_by_player": ("mean net per hand (tricks)", "player"),
    "mean_net_by_seat": ("mean net per hand (tricks)", "seat"),
    "mean_total_by_player": ("mean total per match (points)", "player"),
    "exchange_value": ("mean net of the hand (tricks)", "cards taken in the exchange (negative: given up)"),
    "mode_share": ("share of hands", "mode"),
    "mode_made": ("declarer makes his target (share of hands)", "mode"),
    "declarer_made_target": ("declarer makes his target (share of hands)", ""),
    "match_length": ("hands per match", ""),
}


def plot_simulation(
    summary: Summary | Mapping[str, Summary], statistic: str = "win_rate", ax: Any = None
) -> Any:
    """One statistic of a simulation (or of several, side by side) with 95% error bars.

    ``summary`` is a :class:`~solver.analysis.simulation.Summary`, or a mapping of labels
    (e.g. presets) to summaries; ``statistic`` is one of :data:`STATISTICS`.
    """
    if statistic not in STATISTICS:
        raise SolverError(f"unknown statistic {statistic!r}; choose from {', '.join(STATISTICS)}")
    runs = dict(summary) if isinstance(summary, Mapping) else {"": summary}
    ax = axes(ax)
    frames = {label: s.to_frame() for label, s in runs.items()}
    keys: list[str] = []
    for f in frames.values():
        for k in f[f.statistic == statistic]["key"]:
            if k not in keys:
                keys.append(k)
    if statistic == "exchange_value":
        keys.sort(key=int)
    width = 0.8 / len(runs)
    x = np.arange(len(keys))
    for n, (label, f) in enumerate(frames.items()):
        rows = f[f.statistic == statistic].set_index("key").reindex(keys)
        value = rows["value"].to_numpy(dtype=float)
        low = np.nan_to_num(value - rows["low"].to_numpy(dtype=float), nan=0.0, posinf=0.0)
        high = np.nan_to_num(rows["high"].to_numpy(dtype=float) - value, nan=0.0, posinf=0.0)
        ax.bar(
            x + (n - (len(runs) - 1) / 2) * width,
            value,
            width,
            yerr=[low, high],
            capsize=3,
            label=plain_text(label) if label else None,
        )
    ax.set_xticks(x, [plain_text(k) if k else statistic.replace("_", " ") for k in keys])
    ylabel, xlabel = STATISTICS[statistic]
    ax.set_ylabel(ylabel)
    ax.set_xlabel(xlabel)
    if statistic.startswith("mean_net") or statistic == "exchange_value":
        ax.axhline(0, color="grey", linewidth=0.8)
    if len(runs) > 1:
        ax.legend()
    ax.set_title(f"{statistic.replace('_', ' ')} (95% intervals)")
    return ax


__all__ = ["STATISTICS", "plot_simulation"]
