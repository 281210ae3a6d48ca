"""Confidence intervals for simulation statistics (numpy).

Every estimate here is a ratio of sums over independent *units* (a match, or a group of
matches played on the same deals): a win rate is wins over matches, a mean net per hand
is the sum of nets over the number of hands. Observations inside one unit are correlated
(the hands of one match share the exchange; the seatings of one group share the deals),
so the interval treats the unit, not the hand, as the sample: the ratio estimator with its
delta-method (linearised) variance and a Student t quantile. With the denominator fixed at
1 per unit this is the ordinary t interval of a mean.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

LEVEL = 0.95
_Z975 = 1.959963984540054


def t_quantile_975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom.

    Tabled up to 4 degrees of freedom, a Cornish-Fisher expansion beyond (error below
    0.002 from df = 5 on), so no scipy is needed.
    """
    if df < 1:
        return math.inf
    if df <= 4:
        return (12.706204736174698, 4.302652729749464, 3.182446305284263, 2.776445105197793)[df - 1]
    z = _Z975
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


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

    def to_json(self, digits: int = 4) -> dict:
        def r(x: float) -> float | None:
            return round(x, digits) if math.isfinite(x) else None

        return {"value": r(self.value), "low": r(self.low), "high": r(self.high), "units": self.units}

    def __str__(self) -> str:
        if math.isnan(self.value):
            return "n/a"
        return f"{self.value:.3f} ± {self.half_width:.3f}"


NOTHING = Estimate(math.nan, math.nan, math.nan, 0)


def wilson_interval(successes: float, trials: float) -> tuple[float, float]:
    """Wilson's 95% score interval of a proportion (sound at 0% and 100%, unlike the t)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = _Z975**2
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = _Z975 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials**2)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def ratio_estimate(numerators: Sequence[float] | np.ndarray, denominators: Sequence[float] | np.ndarray,
                   *, bounds: tuple[float, float] | None = None, rate: bool = False) -> Estimate:
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
        t = t_quantile_975(n - 1)
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


def mean_estimate(values: Sequence[float] | np.ndarray, *,
                  bounds: tuple[float, float] | None = None) -> Estimate:
    """The mean of independent values with its t interval."""
    y = np.asarray(values, dtype=float)
    return ratio_estimate(y, np.ones_like(y), bounds=bounds)


__all__ = ["LEVEL", "NOTHING", "Estimate", "mean_estimate", "ratio_estimate", "t_quantile_975", "wilson_interval"]
