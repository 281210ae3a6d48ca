"""The engine's module-level functions: each runs on the calling thread's cached Solver.

>>> from solver import Deal
>>> deal = Deal.parse("D:AK... Q2... 3.A..")
>>> solve(deal, "S", leader="D", seat="D")
2
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from .pool import thread_solver
from .solver import Solver

__all__ = ["best_card", "can_reach", "card_values", "principal_variation", "solve"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _on_thread_solver(method: Callable[Concatenate[Solver, _P], _R], doc: str) -> Callable[_P, _R]:
    """``method`` as a module-level function that runs on the calling thread's cached Solver.

    The function takes the method's parameters (mypy sees them through ``_P``, ``help()``
    through ``__signature__``), so the two cannot drift apart; ``doc`` is its docstring.
    """

    def function(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        return method(thread_solver(), *args, **kwargs)

    signature = inspect.signature(method)
    without_self = list(signature.parameters.values())[1:]
    function.__signature__ = signature.replace(parameters=without_self)  # type: ignore[attr-defined]
    function.__name__ = function.__qualname__ = method.__name__
    function.__module__ = "solver.engine"  # where users import it from
    function.__doc__ = doc
    return function


solve = _on_thread_solver(
    Solver.solve,
    """Tricks ``seat`` can guarantee from the current trick to the end against the
    other two seats (misère: the fewest it can hold itself to).

    ``played`` lists the cards already played to the current trick, starting with
    ``leader``; ``deal`` holds the hands as they were when that trick began. Widow
    cards are out of play. Raises IllegalPlayError for an illegal ``played`` card,
    NotationError for an unknown strain or seat.
    """,
)

can_reach = _on_thread_solver(
    Solver.can_reach,
    """Normal play: can ``seat`` guarantee at least ``target`` tricks? Misère: can it
    hold itself to at most ``target``? One null-window search, cheaper than
    :func:`solve`: the question to ask when only the target matters.
    """,
)

card_values = _on_thread_solver(
    Solver.card_values,
    """For every legal card of the player to move: ``seat``'s value if it is played next.

    Keys are :class:`~solver.cards.Card` objects, by suit (S H D C) then rank down;
    equivalent cards each get their own entry (``{str(c): v for c, v in ...items()}``
    gives the JSON form). The mover's best choice among the values equals :func:`solve`.
    """,
)

best_card = _on_thread_solver(
    Solver.best_card,
    """The card the player to move should play, and ``seat``'s value: of the legal cards
    that keep the value (:func:`solve`), the lowest, the suits in the order S H D C among
    equal ranks. One exact value and one null-window search a card, where
    :func:`card_values` solves every card exactly: what a player that only needs its
    best card asks.
    """,
)

principal_variation = _on_thread_solver(
    Solver.principal_variation,
    """One optimal line of play: the cards still to be played, in order, to the end of
    the hand. Playing it out gives ``seat`` exactly :func:`solve` tricks.""",
)
