"""The match engine's adapter to the rules modules (exchange, scoring, end of match).

:mod:`solver.exchange` and :mod:`solver.scoring` (the RULES engineer's modules) are
the authority; this module calls them with the match engine's data and converts the
answers. Where one of them is not available yet, a minimal local implementation of
the same rule stands in, so the match loop works and can be tested on its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .cards import Card, Suit
from .deal import Seat
from .errors import RulesError

try:  # the RULES engineer's modules
    from . import exchange as _exchange  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - only while exchange.py is being written
    _exchange = None
try:
    from . import scoring as _scoring  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    _scoring = None

MINIMISING = frozenset({"MT", "miz"})
SEATS = (Seat.D, Seat.E, Seat.M)
LANE_MASK = (1 << 13) - 1


@dataclass(frozen=True)
class Transfer:
    """One card moving in the exchange (same fields as ``solver.exchange.Transfer``)."""

    frm: Seat
    to: Seat
    card: Card


@dataclass
class Decider:
    """The player choices an exchange protocol asks for, bound to the players of a hand.

    ``name_suit(up, down, suits) -> Suit`` and ``give_card(giver, to, allowed_mask, role)
    -> Card``; both check the answer and raise IllegalPlayError on a wrong one.
    """

    name_suit: Callable[[Seat, Seat, tuple], Suit]
    give_card: Callable[[Seat, Seat, int, str], Card]


# --- modes -------------------------------------------------------------------------------
def allowed_modes(ruleset: Any, used_by_declarer: Sequence[str]) -> tuple[str, ...]:
    return tuple(ruleset.allowed_modes(used_by_declarer))


def trump_before_exchange(ruleset: Any) -> bool:
    return bool(ruleset.trump_named_before_exchange)


# --- exchange ------------------------------------------------------------------------------
def run_exchange(hands: list[int], prev_nets_by_seat: tuple[int, int, int], ruleset: Any,
                 trump: int | None, mode: str | None, decider: Decider) -> list:
    """Carry out the exchange on ``hands`` (masks by seat, changed in place); return the transfers."""
    if ruleset.exchange == "none" or not any(prev_nets_by_seat):
        return []
    plan = exchange_plan(prev_nets_by_seat, ruleset)
    if not plan:
        return []
    if ruleset.exchange == "lowest-for-highest":
        transfers = _lowest_for_highest(hands, plan, trump)
    else:
        raise RulesError(f"the {ruleset.exchange} exchange is not available (solver.exchange is missing)")
    return transfers


def exchange_plan(prev_nets_by_seat: tuple[int, int, int], ruleset: Any) -> list[tuple[Seat, Seat, int]]:
    """(up seat, down seat, cards) in the order they are carried out.

    Ups trade with downs in proportion to the deficits; with two ups, the larger surplus
    goes first, ties broken by the higher target of the new hand.
    """
    nets = prev_nets_by_seat
    ups = sorted((s for s in SEATS if nets[s] > 0), key=lambda s: (-nets[s], -ruleset.targets[s], s))
    downs = [s for s in SEATS if nets[s] < 0]
    factor = 2 if getattr(ruleset, "double_payment", False) else 1
    plan: list[tuple[Seat, Seat, int]] = []
    if len(ups) == 1:
        for d in downs:
            plan.append((ups[0], d, -nets[d] * factor))
    else:
        for u in ups:
            for d in downs:
                plan.append((u, d, nets[u] * factor))
    return plan


def _rank_key(pos: int, trump: int | None) -> tuple:
    """Card strength for lowest-for-highest: trump above all when named, then rank, then suit order."""
    suit, rank = pos >> 4, pos & 15
    return (trump is not None and trump < 4 and suit == trump, rank, -suit)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _lowest_for_highest(hands: list[int], plan, trump: int | None) -> list[Transfer]:
    transfers: list[Transfer] = []
    for up, down, n in plan:
        give = sorted(_bits(hands[up]), key=lambda p: _rank_key(p, trump))[:n]
        take = sorted(_bits(hands[down]), key=lambda p: _rank_key(p, trump), reverse=True)[:n]
        for p in give:
            hands[up] &= ~(1 << p)
            hands[down] |= 1 << p
            transfers.append(Transfer(up, down, _card(p)))
        for p in take:
            hands[down] &= ~(1 << p)
            hands[up] |= 1 << p
            transfers.append(Transfer(down, up, _card(p)))
    return transfers


def _card(pos: int) -> Card:
    return Card.from_index((pos >> 4) * 13 + (pos & 15))


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
