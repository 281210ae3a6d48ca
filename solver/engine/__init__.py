"""Double-dummy engine: exact paranoid values of Sergeant Major positions.

The search runs in the C core (``solver.engine._core``); :mod:`.position` validates a
position once, :mod:`.solver` holds a transposition table and searches, :mod:`.table`
makes whole double-dummy tables, :mod:`.pool` runs work in parallel (each thread's
Solver, the one worker pool), :mod:`.functions` are the module-level calls.

A value is the number of tricks ``seat`` can guarantee from the current trick to the
end when the other two seats cooperate against it; with ``misere=True`` it is the
fewest tricks ``seat`` can hold itself to while the other two try to give it tricks.

>>> from solver import Deal
>>> deal = Deal.parse("D:AK... Q2... 3.A..")
>>> solve(deal, "S", leader="D", seat="D")
2
>>> solve(Position(deal, "S", leader="D"), seat="D")
2
"""

from __future__ import annotations

from .functions import best_card, can_reach, card_values, principal_variation, solve
from .pool import thread_solver
from .position import Position, _Query
from .solver import DEFAULT_TT_MB, MAX_TT_MB, MISERE_TT_MB, MODULE_TT_MB, Solver
from .table import DDTable, TableInterrupted, dd_table

__all__ = [
    "DEFAULT_TT_MB",
    "MAX_TT_MB",
    "MISERE_TT_MB",
    "MODULE_TT_MB",
    "DDTable",
    "Position",
    "Solver",
    "TableInterrupted",
    "_Query",
    "best_card",
    "can_reach",
    "card_values",
    "dd_table",
    "principal_variation",
    "solve",
    "thread_solver",
]
