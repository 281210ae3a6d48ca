"""Whether a deal spec can be met at all, decided by arithmetic before any drawing.

A spec no deal satisfies would otherwise cost the dealer its whole budget of draws before
saying so, and could only say "nothing matched". Each check here names the clause it
refutes: cards given twice or not in the deck, lengths that cannot make a hand or that
exceed a suit, points or aces and kings beyond what the free cards can give. These are
necessary conditions only; what they cannot see ends in the dealer's bounded draws.

The lengths the exact sampler enforces come out of the same pass
(:func:`sampled_lengths`): a seat's trumps, when it plays with its own hand, are a
length too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..cards import SUIT_CHARS, Card, Hand
from .dealspec import DealSpec, DealSpecError, Range
from .dealspec import range_text as _text

__all__ = [
    "Table",
    "check_counts",
    "check_held",
    "check_sizes",
    "check_widow_trumps",
    "sampled_lengths",
]

_SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


@dataclass(frozen=True)
class Table:
    """What the cards are dealt into: the deck in play, each place's size, and the seat
    (if any) that takes the widow into its hand and counts its trumps with it."""

    deck: Sequence[Card]
    sizes: Mapping[str, int]
    widow_seat: str | None

    def in_deck(self, suit: int) -> int:
        return sum(1 for c in self.deck if c.suit == suit)


def check_sizes(hand_size: object, widow_size: object, deck_size: int) -> None:
    """Hands of 1..17 cards and a widow that, together, the deck can fill."""
    if isinstance(hand_size, bool) or not isinstance(hand_size, int) or not 1 <= hand_size <= 17:
        raise DealSpecError(f"hand size must be 1..17, got {hand_size!r}")
    if isinstance(widow_size, bool) or not isinstance(widow_size, int) or widow_size < 0:
        raise DealSpecError(f"widow size must be 0 or more, got {widow_size!r}")
    if 3 * hand_size + widow_size > deck_size:
        raise DealSpecError(f"{3 * hand_size + widow_size} cards needed but the deck has {deck_size}")


def check_held(spec: DealSpec, table: Table) -> None:
    """Every card held is in the deck, in one place only, and fits the place."""
    deck = Hand(table.deck)
    owner: dict[Card, str] = {}
    for p, hand in spec.held.items():
        if table.sizes[p] == 0 and hand:
            raise DealSpecError(f"holds {p}: the widow has no cards under these rules")
        missing = hand - deck
        if missing:
            raise DealSpecError(
                f"holds {p}: {' '.join(map(str, missing))} not in the {len(deck)}-card deck in play"
            )
        if len(hand) > table.sizes[p]:
            raise DealSpecError(f"holds {p}: {len(hand)} cards for a place of {table.sizes[p]}")
        for c in hand:
            if c in owner:
                raise DealSpecError(f"holds: {c} is given to both {owner[c]} and {p}")
            owner[c] = p


def sampled_lengths(spec: DealSpec, table: Table) -> dict[str, dict[int, tuple[int, int]]]:
    """Per place and suit the length range the sampler enforces (the trumps of a seat that
    plays its own hand folded in), after checking that the ranges can add up."""
    out: dict[str, dict[int, tuple[int, int]]] = {}
    for p, per in spec.lengths.items():
        if table.sizes[p] == 0:
            raise DealSpecError(f"length {p}: the widow has no cards under these rules")
        out[p] = {s: (lo, 13 if hi is None else min(hi, 13)) for s, (lo, hi) in per.items()}
    for p, per in spec.trumps.items():
        if p == table.widow_seat:
            continue  # counted with the widow: tested on each deal instead
        for s, (lo, hi) in per.items():
            old = out.setdefault(p, {}).get(s, (0, 13))
            new = (max(lo, old[0]), min(13 if hi is None else hi, old[1]))
            if new[0] > new[1]:
                raise DealSpecError(
                    f"trumps {p}:{SUIT_CHARS[s]}={_text((lo, hi))} and length "
                    f"{p}:{SUIT_CHARS[s]}={_text(old)} cannot both hold"
                )
            out[p][s] = new
    for p, per in out.items():
        held = spec.held.get(p, Hand())
        for s, (lo, hi) in per.items():
            have = len(held.cards_in(s))
            if have > hi:
                raise DealSpecError(
                    f"length {p}:{SUIT_CHARS[s]}={_text((lo, hi))}: holds {p} gives it {have} {_SUIT_WORDS[s]}"
                )
        low = sum(per.get(s, (0, 13))[0] for s in range(4))
        high = sum(min(per.get(s, (0, 13))[1], table.in_deck(s)) for s in range(4))
        if low > table.sizes[p] or high < table.sizes[p]:
            shape = ", ".join(f"{SUIT_CHARS[s]}={_text(per[s])}" for s in sorted(per))
            raise DealSpecError(f"length {p}: {shape} cannot make a place of {table.sizes[p]} cards")
    for s in range(4):
        low = sum(per.get(s, (0, 13))[0] for per in out.values())
        if low > table.in_deck(s):
            raise DealSpecError(
                f"length: the least {_SUIT_WORDS[s]} asked add up to {low}, the deck has {table.in_deck(s)}"
            )
    return out


def check_counts(
    clause: str, ranges: Mapping[str, Range], spec: DealSpec, table: Table, value: Mapping[int, int]
) -> None:
    """Ranges of points (``value`` by rank) that the held and the free cards can reach."""
    held_all = 0
    for h in spec.held.values():
        held_all |= h.mask
    free = sorted((value.get(c.rank, 0) for c in table.deck if not c.bit & held_all), reverse=True)
    lows = 0
    for p, (lo, hi) in ranges.items():
        held = spec.held.get(p, Hand())
        fixed = sum(value.get(c.rank, 0) for c in held)
        k = table.sizes[p] - len(held)
        most = fixed + sum(free[:k])
        least = fixed + (sum(free[len(free) - k :]) if k else 0)
        if lo > most or (hi is not None and hi < least):
            raise DealSpecError(
                f"{clause} {p}:{_text((lo, hi))}: {p} can hold only {least} to {most} with these cards"
            )
        lows += lo
    total = sum(value.get(c.rank, 0) for c in table.deck)
    if lows > total:
        raise DealSpecError(f"{clause}: the least asked add up to {lows}, the deck holds {total}")


def check_widow_trumps(spec: DealSpec, table: Table, place: str, suit: int, rng: Range) -> None:
    """The widow seat's trumps fit in its hand and the widow, less those held elsewhere."""
    others = sum(len(h.cards_in(suit)) for q, h in spec.held.items() if q not in (place, "W"))
    most = min(table.sizes[place] + table.sizes["W"], table.in_deck(suit) - others)
    if rng[0] > most:
        raise DealSpecError(
            f"trumps {place}:{SUIT_CHARS[suit]}={_text(rng)}: {place} and the widow can hold only {most}"
        )
