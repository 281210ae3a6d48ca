"""95% confidence intervals for the estimates of simulations (numpy only).

Why these: a probability from ``n`` samples gets the Wilson score interval, which stays
inside [0, 1] and behaves at 0 and ``n`` successes (where the normal interval collapses
to a point); a mean gets Student's t interval.

>>> wilson(8, 10)
(0.49, 0.943)
>>> mean_interval([8, 9, 10, 9])
(9.0, (7.701, 10.299))
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

Z95 = 1.959963984540054
# Student's t, two-sided 95%, by degrees of freedom (1..30); beyond, a close approximation.
_T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t95(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        return math.inf
    if df <= len(_T95):
        return _T95[df - 1]
    # Cornish-Fisher expansion around the normal quantile (error < 1e-3 for df > 30)
    z = Z95
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a proportion, rounded to 3 decimals."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


def mean_interval(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean and its t 95% interval (NaN bounds for a single value: no spread to judge)."""
    arr = np.asarray(values, dtype=float)
    n = arr.size
    if n == 0:
        return (math.nan, (math.nan, math.nan))
    mean = float(arr.mean())
    if n == 1:
        return (round(mean, 3), (math.nan, math.nan))
    half = t95(n - 1) * float(arr.std(ddof=1)) / math.sqrt(n)
    return (round(mean, 3), (round(mean - half, 3), round(mean + half, 3)))
