"""Distributions over a deal study (one row per deal, see :mod:`solver.analysis.study`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import SolverError
from ._common import axes, plain_text


def plot_study(
    frame: Any,
    columns: str | Sequence[str],
    ax: Any = None,
    *,
    labels: Sequence[str] | None = None,
    normalize: bool = True,
) -> Any:
    """The distribution of integer ``columns`` of a study frame, as grouped bars.

    Each column is one series (e.g. ``dd_S_D``, ``dd_S_E``, ``dd_S_M``: each seat's
    guaranteed tricks with spades trump); ``normalize`` shows shares instead of counts.
    """
    cols = [columns] if isinstance(columns, str) else list(columns)
    missing = [c for c in cols if c not in frame.columns]
    if missing:
        raise SolverError(f"the study has no column {missing[0]!r}")
    ax = axes(ax)
    data = {c: frame[c].dropna().astype(int).to_numpy() for c in cols}
    values = np.unique(np.concatenate([v for v in data.values()] or [np.array([], dtype=int)]))
    if len(values) == 0:
        return ax
    xs = np.arange(values.min(), values.max() + 1)
    width = 0.8 / len(cols)
    for n, (c, v) in enumerate(data.items()):
        counts = np.array([(v == x).sum() for x in xs], dtype=float)
        if normalize and counts.sum():
            counts /= counts.sum()
        label = labels[n] if labels is not None else c
        ax.bar(xs + (n - (len(cols) - 1) / 2) * width, counts, width, label=plain_text(label))
    ax.set_xticks(xs)
    ax.set_xlabel(plain_text(cols[0]) if len(cols) == 1 else "value")
    ax.set_ylabel("share of deals" if normalize else "deals")
    if len(cols) > 1:
        ax.legend()
    return ax


__all__ = ["plot_study"]
