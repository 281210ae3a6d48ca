"""Plots of the toolkit's results (matplotlib), one module per kind of result.

Every function takes a result object and an optional ``ax`` and returns the
``matplotlib.axes.Axes`` it drew on, so plots compose in notebooks and scripts alike.
``import solver`` does not import this package (matplotlib is slow to load).
"""
from .review import review_trajectory

__all__ = ["review_trajectory"]
