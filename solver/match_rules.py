"""The match engine's adapter to the rules modules (exchange, scoring, end of match).

:mod:`solver.exchange` and :mod:`solver.scoring` (the RULES engineer's modules) are
the authority; this module calls them with the match engine's data and converts the
answers; keeping every call in one place keeps the match loop readable.
"""
from __future__ import annotations

from typing import Any, Sequence

from . import exchange, scoring
from .cards import Hand
from .deal import Seat
from .errors import IllegalPlayError
from .rules import MINIMISING_MODES as MINIMISING

SEATS = (Seat.D, Seat.E, Seat.M)


# --- modes -------------------------------------------------------------------------------
def allowed_modes(ruleset: Any, used_by_declarer: Sequence[str]) -> tuple[str, ...]:
    return tuple(ruleset.allowed_modes(used_by_declarer))


def trump_before_exchange(ruleset: Any) -> bool:
    return bool(ruleset.trump_named_before_exchange)


# --- exchange ------------------------------------------------------------------------------
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


# --- scoring and the end of the match -------------------------------------------------
def hand_nets(tricks: tuple[int, int, int], ruleset: Any, mode: str) -> tuple[int, int, int]:
    """Net per seat (MT/miz inverted), by :func:`solver.scoring.hand_nets`."""
    return scoring.hand_nets(tricks, ruleset, mode)


def hand_result(dealer: int, mode: str, tricks: tuple[int, int, int],
                trick_winners: Sequence[int]) -> scoring.HandResult:
    return scoring.HandResult(dealer, mode, tricks, tuple(Seat(s) for s in trick_winners))


def points_by_player(result: scoring.HandResult, ruleset: Any) -> tuple[int, int, int]:
    """What each player scores for a hand: nets, or chips under the chips option."""
    return result.points_by_player(ruleset)


def leader_by_total(totals: Sequence[int]) -> int | None:
    """The player with the highest total, or None on a tie."""
    best = max(totals)
    top = [p for p in range(3) if totals[p] == best]
    return top[0] if len(top) == 1 else None


def match_over(history: Sequence[scoring.HandResult], ruleset: Any) -> scoring.MatchEnd:
    """The verdict of :func:`solver.scoring.match_over` after the hands played so far."""
    return scoring.match_over(history, ruleset)
