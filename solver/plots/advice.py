"""Bars of single-dummy advice: each candidate's chance of reaching the target, with its
95% interval, so a reader sees at once whether the leaders are told apart."""

from __future__ import annotations

from typing import Any

from ..analysis.advice_text import choice_cell, target_mark
from ._common import plain_text

__all__ = ["plot_advice"]


def plot_advice(advice: Any, ax: Any = None, *, top: int = 12) -> Any:
    """Horizontal bars of ``p_target`` for the best ``top`` candidates of an
    :class:`~solver.analysis.advice.Advice`, with Wilson 95% error bars; returns the Axes."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    if ax is None:
        _fig, ax = plt.subplots(figsize=(8, 0.45 * min(top, max(1, len(advice.candidates))) + 1.5))
    rows = [c for c in advice.candidates if c.samples][:top]
    labels, values, low, high, colours = [], [], [], [], []
    rec = advice.recommended
    for c in rows:
        d = c.to_dict()
        labels.append(
            plain_text(f"{choice_cell(c)}  target {target_mark(c.target, c.minimising)}  (n={c.samples})")
        )
        values.append(d["p_target"])
        low.append(d["p_target"] - d["p_ci"][0])
        high.append(d["p_ci"][1] - d["p_target"])
        colours.append("tab:green" if c is rec else ("tab:orange" if c.user else "tab:blue"))
    y = list(range(len(rows)))
    ax.barh(y, values, xerr=[low, high], color=colours, capsize=3)
    ax.set_yticks(y)
    ax.set_yticklabels(labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("P(target): share of layouts reaching the target (95% interval)")
    title = f"{advice.kind.capitalize()} advice for {advice.seat} ({plain_text(advice.rules)}, {advice.samples} layouts)"
    ax.set_title(title + (" - partial" if advice.partial else ""))
    return ax
