"""What the match loop needs from the rules modules beyond a plain call: the exchange
carried out on hand masks, and the leader by total when a match is cut short.

:mod:`solver.exchange` and :mod:`solver.scoring` are the authority; the match loop
calls the rest of them directly.
"""
from __future__ import annotations

from typing import Any, Sequence

from . import exchange
from .cards import Hand
from .deal import Seat
from .errors import IllegalPlayError

SEATS = (Seat.D, Seat.E, Seat.M)


def run_exchange(hands: list[int], prev_nets_by_seat: tuple[int, int, int], ruleset: Any,
                 trump: int | None, decider: Any, where: str) -> list:
    """Carry out the exchange on ``hands`` (masks by seat, changed in place) with
    :mod:`solver.exchange`; return its transfers. ``decider`` answers the players'
    choices (``name_suit(request)``, ``give_card(request)``); an illegal choice raises
    IllegalPlayError prefixed with ``where`` (the hand number)."""
    if ruleset.exchange == "none" or not any(prev_nets_by_seat):
        return []
    plan = exchange.exchange_plan(prev_nets_by_seat, ruleset)
    if not plan:
        return []
    try:
        new_hands, transfers = exchange.apply_exchange(
            [Hand(m) for m in hands], plan, ruleset, decider, trump)
    except IllegalPlayError as exc:
        raise IllegalPlayError(f"{where}, exchange: {exc}") from None
    for s in SEATS:
        hands[s] = new_hands[s].mask
    return transfers


def leader_by_total(totals: Sequence[int]) -> int | None:
    """The player with the highest total, or None on a tie."""
    best = max(totals)
    top = [p for p in range(3) if totals[p] == best]
    return top[0] if len(top) == 1 else None
