"""The declaration optimiser: the exact best strain and discard for the declarer.

:mod:`.optimiser` runs the search for the optimum, :mod:`.target` the search for a choice
that reaches a target (CP-SAT hands out candidates, the engine proves or
refutes them); :mod:`.classes` groups discard sets that leave equivalent hands;
:mod:`.estimate` and :mod:`.oracle` give the cheap bounds that order and settle
candidates; :mod:`.model` is the CP-SAT model (OR-Tools loads only when it is used).
"""

from .optimiser import Choice, Declaration, DeclarationInterrupted, declare
from .target import TargetAnswer, declare_target

__all__ = ["Choice", "Declaration", "DeclarationInterrupted", "TargetAnswer", "declare", "declare_target"]
