"""Plots of the toolkit's results (matplotlib), one module per kind of result.

Every function takes a result object and an optional ``ax`` and returns the
``matplotlib.axes.Axes`` it drew on, so plots compose in notebooks and scripts alike.
``import solver`` does not import this package (matplotlib is slow to load).
"""

from .advice import plot_advice
from .review import review_trajectory
from .simulation import plot_simulation
from .strains import plot_strain_values
from .study import plot_study
from .table import plot_table
from .tree import plot_tree

__all__ = [
    "plot_advice",
    "plot_simulation",
    "plot_strain_values",
    "plot_study",
    "plot_table",
    "plot_tree",
    "review_trajectory",
]
