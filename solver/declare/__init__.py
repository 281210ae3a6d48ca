"""The declaration optimiser: the exact best strain and discard for the declarer.

:mod:`.optimiser` runs the search (CP-SAT hands out candidates, the engine proves or
refutes them); :mod:`.classes` groups discard sets that leave equivalent hands;
:mod:`.estimate` and :mod:`.oracle` give the cheap bounds that order and settle
candidates; :mod:`.model` is the CP-SAT model (OR-Tools loads only when it is used).
"""

from .optimiser import Choice, Declaration, declare

__all__ = ["Choice", "Declaration", "declare"]
