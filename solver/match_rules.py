"""The match engine's adapter to the rules modules (exchange, scoring, end of match).

:mod:`solver.exchange` and :mod:`solver.scoring` (the RULES engineer's modules) are
the authority; this module calls them with the match engine's data and converts the
answers. Where one of them is not available yet, a minimal local implementation of
the same rule stands in, so the match loop works and can be tested on its own.
"""
from __future__ import annotations

from typing import Any, Sequence

from .cards import Card, Hand
from .deal import Seat
from .errors import IllegalPlayError

from . import exchange

try:
    from . import scoring as _scoring  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    _scoring = None

MINIMISING = frozenset({"MT", "miz"})
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
    """Net per seat: tricks - target; in MT/miz, maximum - tricks with the targets swapped."""
    targets = [ruleset.target_of(s, mode) for s in SEATS]
    if mode in MINIMISING:
        return tuple(targets[s] - tricks[s] for s in SEATS)  # type: ignore[return-value]
    return tuple(tricks[s] - targets[s] for s in SEATS)  # type: ignore[return-value]


def hand_summary(hand_rec: dict, dealer: int) -> dict:
    """What the end-of-match rules need from a hand, by PLAYER index."""
    by_player = lambda d: [d[Seat((p - dealer) % 3).name] for p in range(3)]  # noqa: E731
    return {"dealer": dealer, "nets": by_player(hand_rec["nets"]), "tricks": by_player(hand_rec["tricks"])}


def leader_by_total(state: Any, ruleset: Any) -> int | None:
    """The player with the highest total, or None on a tie."""
    best = max(state.totals)
    top = [p for p in range(3) if state.totals[p] == best]
    return top[0] if len(top) == 1 else None


def match_over(state: Any, ruleset: Any, first_dealer: int) -> tuple[bool, str, int | None]:
    """(over, reason, winner) after the hands in ``state.history``."""
    end = ruleset.match_end
    h = state.history
    n = len(h)
    last = h[-1]
    if end == "first-to-12":
        big = [p for p in range(3) if last["tricks"][p] >= ruleset.win_tricks]
        if big:
            return True, f"player {big[0]} took {last['tricks'][big[0]]} tricks in hand {n}", big[0]
        if ruleset.hands_limit is not None and n >= ruleset.hands_limit:
            return True, f"hand limit of {ruleset.hands_limit} reached", leader_by_total(state, ruleset)
        return False, "", None
    if end == "round-the-table":
        if n > 3 and last["nets"][last["dealer"]] > 0:
            return True, f"dealer {last['dealer']} was up on his own deal in hand {n}", last["dealer"]
        return False, "", None
    if end == "race":
        hit = [p for p in range(3) if state.totals[p] >= ruleset.race_target]
        if hit:
            return True, f"total of +{ruleset.race_target} reached in hand {n}", max(hit, key=lambda p: state.totals[p])
        return False, "", None
    limit = 18 if end == "hungarian-18" else ruleset.hands_limit
    if n >= limit:
        return True, f"{limit} hands played", leader_by_total(state, ruleset)
    return False, "", None
