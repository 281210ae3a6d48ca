"""95% confidence intervals for the estimates of simulations (numpy only).

Why these: a probability from ``n`` independent samples gets the Wilson score interval,
which stays inside [0, 1] and behaves at 0 and ``n`` successes (where the normal interval
collapses to a point); a mean gets Student's t interval.

Simulated matches need one more step (:func:`ratio_estimate`): every figure there is a
ratio of sums over independent *units* (a match, or a group of matches played on the same
deals): a win rate is wins over matches, a mean net per hand the sum of nets over the
number of hands. Observations inside one unit are correlated (the hands of one match
share the exchange; the seatings of one group share the deals), so the interval treats the
unit, not the hand, as the sample: the ratio estimator with its delta-method (linearised)
variance and a t quantile. With the denominator fixed at 1 per unit this is the ordinary
t interval of a mean.

>>> wilson(8, 10)
(0.49, 0.943)
>>> mean_interval([8, 9, 10, 9])
(9.0, (7.701, 10.299))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
# Student's t, two-sided 95%, by degrees of freedom (1..30); beyond, a close approximation.
_T95 = [
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
]


def t95(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        return math.inf
    if df <= len(_T95):
        return _T95[df - 1]
    # Cornish-Fisher expansion around the normal quantile (error < 1e-3 for df > 30)
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def wilson_interval(successes: float, n: float) -> tuple[float, float]:
    """The Wilson score 95% interval of a proportion, unrounded."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a proportion, rounded to 3 decimals."""
    low, high = wilson_interval(successes, n)
    return (round(low, 3), round(high, 3))


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


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95% confidence interval and the number of units behind it."""

    value: float
    low: float
    high: float
    units: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def covers(self, x: float) -> bool:
        return self.low <= x <= self.high

    def to_json(self, digits: int = 4) -> dict[str, float | str | None]:
        def r(x: float) -> float | None:
            return round(x, digits) if math.isfinite(x) else None

        return {"value": r(self.value), "low": r(self.low), "high": r(self.high), "units": self.units}

    def __str__(self) -> str:
        if math.isnan(self.value):
            return "n/a"
        return f"{self.value:.3f} ± {self.half_width:.3f}"


NOTHING = Estimate(math.nan, math.nan, math.nan, 0)


def ratio_estimate(
    numerators: Sequence[float] | np.ndarray,
    denominators: Sequence[float] | np.ndarray,
    *,
    bounds: tuple[float, float] | None = None,
    rate: bool = False,
) -> Estimate:
    """sum(numerators) / sum(denominators) with a 95% interval, one pair per independent unit.

    Units whose denominator is 0 contribute nothing to the value but are part of the
    sample; ``units`` in the result counts those that contributed. ``bounds`` clips the
    interval to the possible range (a rate stays within [0, 1]). The interval is only as
    wide as the data justify: unbounded below two contributing units, a point when every
    unit has the same ratio — except for a ``rate`` (a proportion of 0/1 outcomes), whose
    interval also covers Wilson's score interval on the pooled counts.
    """
    y = np.asarray(numerators, dtype=float)
    x = np.asarray(denominators, dtype=float)
    n = len(y)
    total = x.sum()
    seen = int(np.count_nonzero(x))
    if n == 0 or total <= 0:
        return Estimate(math.nan, math.nan, math.nan, seen)
    r = y.sum() / total
    if seen < 2:
        low, high = -math.inf, math.inf
    else:
        residual = y - r * x
        se = math.sqrt(residual.var(ddof=1) / n) / (total / n)
        t = t95(n - 1)
        low, high = r - t * se, r + t * se
    if rate:
        # The linearised interval collapses to a point when every unit shows 0% (or 100%);
        # Wilson's interval on the pooled counts does not. Their union keeps both virtues.
        w_low, w_high = wilson_interval(float(y.sum()), float(total))
        low, high = min(low, w_low), max(high, w_high)
        bounds = (0.0, 1.0)
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return Estimate(float(r), float(low), float(high), seen)


def mean_estimate(
    values: Sequence[float] | np.ndarray, *, bounds: tuple[float, float] | None = None
) -> Estimate:
    """The mean of independent values with its t interval."""
    y = np.asarray(values, dtype=float)
    return ratio_estimate(y, np.ones_like(y), bounds=bounds)


__all__ = [
    "NOTHING",
    "Z95",
    "Estimate",
    "mean_estimate",
    "mean_interval",
    "ratio_estimate",
    "t95",
    "wilson",
    "wilson_interval",
]
