"""A player that follows the strategy tips of the rule write-ups (docs/sources.md).

- Declaring: name the longest strong suit as trump (no trump with many quick tricks
  and no long suit, a minimising mode with a hand that has almost no winners);
  discard the low cards of short side suits to make voids (but keep aces); in a
  minimising mode throw the high cards instead.
- Exchanging: name the suit where the down player most likely holds the top card
  (trump first; the longest suit when about to name trump); in card-return offer a low card of the suit where our own top card
  is lowest (the partner must return anything higher); give back low cards of short
  side suits.
- Playing: cash master cards, draw trumps with the master trump, otherwise lead low
  from the longest side suit; second hand plays a winner only when it cannot be
  beaten, last hand wins as cheaply as possible, and a player who cannot win ducks
  with the lowest card of its shortest side suit. In MT/miz every rule is reversed:
  play the highest card that still loses.

Everything works on hand masks (bit ``16*suit + rank - 2``) because this player is
the one used for large simulations.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import FULL_DECK_MASK, LANE, LANE_MASK, LANE_SHIFT, NO_TRUMP, Card, Suit
from ..game.views import Announcement, DeclareView, ExchangeView, PlayView
from ..modes import Mode
from ..tricks import trick_winner
from .base import BasePlayer
from .random_player import card_at

ACE, KING, QUEEN, JACK = 1 << 12, 1 << 11, 1 << 10, 1 << 9


def _lane(mask: int, suit: int) -> int:
    return (mask >> (LANE * suit)) & LANE_MASK


def _top(lane: int) -> int:
    return lane.bit_length() - 1


def _bottom(lane: int) -> int:
    return (lane & -lane).bit_length() - 1


def quick_tricks(lane: int, length: int) -> float:
    """Rough count of tricks an honour holding takes on its own."""
    qt = 0.0
    if lane & ACE:
        qt += 1
        if lane & KING:
            qt += 1
            if lane & QUEEN and length >= 3:
                qt += 1
    elif lane & KING and length >= 2:
        qt += 0.5 + (0.5 if lane & QUEEN else 0)
    return qt


def estimate_tricks(hand: int, trump: int) -> float:
    """Tricks the hand might take playing with ``trump`` (a suit, or ``NO_TRUMP``)."""
    est = 0.0
    trumps = _lane(hand, trump).bit_count() if trump != NO_TRUMP else 0
    for s in range(4):
        lane = _lane(hand, s)
        n = lane.bit_count()
        if s == trump:
            est += quick_tricks(lane, n) + max(0, n - 3) * 0.9 + (0.4 if lane & JACK else 0)
        else:
            est += quick_tricks(lane, n)
            if trump == NO_TRUMP and lane & ACE and n >= 5:
                est += (n - 4) * 0.6
            if trump != NO_TRUMP and trumps >= 4:
                est += {0: 1.5, 1: 0.8, 2: 0.3}.get(n, 0.0)
    return est


def high_card_points(hand: int) -> int:
    return sum(
        4 * bool(lane & ACE) + 3 * bool(lane & KING) + 2 * bool(lane & QUEEN) + bool(lane & JACK)
        for lane in (_lane(hand, s) for s in range(4))
    )


def choose_mode(hand: int, modes: Sequence[Mode | str], target: int, hand_size: int = 16) -> Mode:
    """The allowed mode with the best prospects for this hand.

    ``hand`` may be only part of the hand (the first six cards under the ``first-six``
    widow rule); the estimates are then scaled up to ``hand_size`` cards.
    """
    scale = hand_size / max(hand.bit_count(), 1) if hand.bit_count() < hand_size else 1.0
    best_max, best_val = None, -1.0
    allowed = [Mode(m) for m in modes]
    for m in allowed:
        if m.minimising:
            continue
        val = (estimate_tricks(hand, int(m.strain)) - (0.3 if m is Mode.N else 0.0)) * scale
        if val > best_val:
            best_max, best_val = m, val
    minimising = [m for m in allowed if m.minimising]
    if minimising and (best_max is None or (best_val < 0.5 * target and high_card_points(hand) * scale < 8)):
        return minimising[0]
    return best_max if best_max is not None else allowed[0]


def choose_discards(hand: int, n: int, trump: int, minimise: bool) -> list[int]:
    """Bit positions of ``n`` cards to throw: low cards of short side suits (keep aces),
    or the highest cards when the aim is to lose tricks."""
    chosen: list[int] = []
    rest = hand
    for _ in range(n):
        best_key: tuple[int, ...] | None = None
        best_pos = -1
        for s in range(4):
            lane = _lane(rest, s)
            if not lane:
                continue
            length = lane.bit_count()
            key: tuple[int, ...]
            if minimise:
                r = _top(lane)
                key = (0, -r, length)
            else:
                r = _bottom(lane)
                key = (int(s == trump), int(r == 12), length, r)
            if best_key is None or key < best_key:
                best_key, best_pos = key, LANE * s + r
        chosen.append(best_pos)
        rest &= ~(1 << best_pos)
    return chosen


def lowest_card(mask: int, trump: int, avoid_trump: bool = True) -> int:
    """Position of the card to throw away: the lowest of the shortest side suit."""
    best_key, best_pos = None, -1
    for s in range(4):
        lane = _lane(mask, s)
        if not lane:
            continue
        r = _bottom(lane)
        key = (avoid_trump and s == trump, r >= 11, lane.bit_count(), r)
        if best_key is None or key < best_key:
            best_key, best_pos = key, LANE * s + r
    return best_pos


def highest_card(mask: int, trump: int) -> int:
    """Position of the highest-ranked card (side suits first): the one to shed in MT."""
    best_key, best_pos = None, -1
    for s in range(4):
        lane = _lane(mask, s)
        if lane:
            r = _top(lane)
            key = (-r, s == trump)
            if best_key is None or key < best_key:
                best_key, best_pos = key, LANE * s + r
    return best_pos


def beaters(legal: int, best: int, led: int, trump: int) -> int:
    """The cards of ``legal`` that beat the card at position ``best``."""
    bsuit, brank = best >> LANE_SHIFT, best & (LANE - 1)
    out = 0
    if bsuit == trump:
        lane = _lane(legal, trump) >> (brank + 1) << (brank + 1)
        out |= lane << (LANE * trump)
    else:
        if trump != NO_TRUMP:
            out |= _lane(legal, trump) << (LANE * trump)
        if bsuit == led:
            lane = _lane(legal, led) >> (brank + 1) << (brank + 1)
            out |= lane << (LANE * led)
    return out


class HeuristicPlayer(BasePlayer):
    """Rules of thumb from the rule sources' strategy tips; deterministic except for its
    RNG-free choices."""

    def declare(self, view: DeclareView) -> Announcement:
        target = view.table.targets[view.table.declarer]
        if view.stage == "discard":
            mode = Mode(view.mode or view.modes[0])
        else:
            mode = choose_mode(view.visible, view.modes, target, view.table.ruleset.hand_size)
        discard: tuple[Card, ...] = ()
        if view.stage != "mode" and view.n_discard:
            pos = choose_discards(view.hand, view.n_discard, int(mode.strain), mode.minimising)
            discard = tuple(card_at(p) for p in sorted(pos))
        return Announcement(mode, discard)

    def name_suit(self, view: ExchangeView) -> Suit:
        if view.table.seat == view.table.declarer and view.trump == NO_TRUMP:
            # about to name trump: strengthen the suit most likely to become trump
            return max(view.suits, key=lambda s: (_lane(view.hand, s).bit_count(), _top(_lane(view.hand, s))))

        def key(s: Suit) -> tuple:
            lane = _lane(view.hand, s)
            return (int(s) != view.trump, _top(lane) if lane else -1, -lane.bit_count())

        return min(view.suits, key=key)

    def give_card(self, view: ExchangeView) -> Card:
        if view.role == "give":
            # card-return: the partner must hand back his highest card of the suit if it is
            # higher, so offer a low card of the suit where our own top card is lowest
            best_key, best_pos = None, -1
            for s in range(4):
                lane = _lane(view.allowed, s)
                if lane:
                    key = (_top(_lane(view.hand, s)), _bottom(lane))
                    if best_key is None or key < best_key:
                        best_key, best_pos = key, LANE * s + _bottom(lane)
            return card_at(best_pos)
        return card_at(lowest_card(view.allowed, view.trump))

    def play(self, view: PlayView) -> Card:
        legal = view.legal
        if not legal & (legal - 1):
            return card_at(legal.bit_length() - 1)
        trump = view.trump
        minimise = Mode(view.mode).minimising
        if not view.trick:
            return card_at(self._lead(view, minimise))
        positions = [c.bit.bit_length() - 1 for c in view.trick]
        led = positions[0] >> LANE_SHIFT
        best = positions[trick_winner(positions, trump)]
        win = beaters(legal, best, led, trump)
        last = len(positions) == 2
        if minimise:
            lose = legal & ~win
            if lose:
                return card_at(highest_card(lose, trump))
            return card_at(highest_card(win, trump) if last else lowest_card(win, trump, False))
        if win:
            follow = win & (LANE_MASK << (LANE * led))
            if last:
                return card_at(lowest_card(follow or win, trump, False))
            unseen = FULL_DECK_MASK & ~view.played & ~view.hand
            safe = 0
            if follow and led != trump:
                top = _top(_lane(follow, led))
                if not _lane(unseen, led) >> top:
                    safe = 1 << (LANE * led + top)
            elif not follow:
                safe = win  # ruff: trumping a side suit wins unless over-ruffed
            if safe:
                return card_at(lowest_card(safe, trump, False))
        return card_at(lowest_card(legal, trump))

    def _lead(self, view: PlayView, minimise: bool) -> int:
        hand, trump = view.hand, view.trump
        if minimise:
            best_key, best_pos = None, -1
            for s in range(4):
                lane = _lane(hand, s)
                if lane:
                    r = _bottom(lane)
                    key = (r, lane.bit_count())
                    if best_key is None or key < best_key:
                        best_key, best_pos = key, LANE * s + r
            return best_pos
        unseen = FULL_DECK_MASK & ~view.played & ~hand
        if trump != NO_TRUMP:
            mine, theirs = _lane(hand, trump), _lane(unseen, trump)
            if mine and theirs and not theirs >> _top(mine):
                return LANE * trump + _top(mine)  # draw trumps with the master
        longest, longest_len = -1, 0
        for s in range(4):
            if s == trump:
                continue
            lane = _lane(hand, s)
            if not lane:
                continue
            top = _top(lane)
            if not _lane(unseen, s) >> top:
                return LANE * s + top  # cash a master card
            if lane.bit_count() > longest_len:
                longest, longest_len = s, lane.bit_count()
        if longest >= 0:
            return LANE * longest + _bottom(_lane(hand, longest))
        return LANE * trump + _bottom(_lane(hand, trump))
