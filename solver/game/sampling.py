"""Uniform random layouts of unseen cards under per-suit constraints, without rejection.

Why exact and rejection-free: a seat's view of a hand constrains the unseen cards suit by
suit (a seat that showed out is void, a user says "West holds 5-6 hearts"), and rejection
sampling hangs or crawls when the constraints are tight. Here the unseen cards go into
*bins* of fixed sizes (the other seats' hands, an unseen widow); a bin may restrict how
many cards of each suit it receives. The number of layouts with per-suit counts
``k[s][b]`` is ``prod_s multinomial(n_s; k[s][0], k[s][1], ...)``, so a dynamic programme
over suits counts every consistent layout exactly (Python integers); a layout is drawn by
choosing the per-suit counts with probability proportional to the layouts they allow, then
dealing each suit's cards at random. Every consistent layout has the same probability,
and constraints that no layout satisfies raise :class:`ImpossibleViewError` at once.

Bins without any constraint are merged into one before the programme and split at random
afterwards (a uniform split of a uniform pile is uniform), so the programme has at most
as many dimensions as there are constrained bins.

Some cards are known to lie in one of a few places only (a card this seat passed in the
exchange is with the receiver, or with the third seat if the receiver traded on, or in the
declarer's discard), and a :class:`Cap` bounds how many of a group of them reached some
places. Those few cards are placed by enumeration: every placement allowed by their places
and the caps is grouped by what it does to the bins (cards per bin and suit), and each
group is weighed by its placements times the layouts of the other cards, which the
programme counts with the bins reduced accordingly. A layout is drawn by picking a group by
weight, a placement in it uniformly, then the other cards: uniform over all layouts again.

>>> from solver.cards import Hand
>>> s = LayoutSampler(Hand.parse("AK.Q.."), [Bin("E", 1, {0: (0, 0)}), Bin("M", 2)])
>>> s.count()
1
>>> [str(h) for h in s.sample(np.random.default_rng(0))]
['.Q..', 'AK...']
>>> LayoutSampler(Hand.parse("AK.Q.."), [Bin("E", 1), Bin("M", 2)], places={Card.parse("SA"): ["M"]}).count()
2
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from math import comb

import numpy as np

from ..cards import Card, Hand
from ..errors import ImpossibleViewError, InternalError, SolverError

__all__ = ["Bin", "Cap", "ImpossibleViewError", "LayoutSampler", "uniform_below"]

#: The most placements of the place-restricted cards enumerated (a guard: real views have a few).
MAX_PLACEMENTS = 200_000


@dataclass(frozen=True)
class Bin:
    """A place unseen cards go to: ``size`` cards, and per suit (0..3) an inclusive
    ``(fewest, most)`` range of how many of that suit it receives (absent = any)."""

    name: str
    size: int
    lengths: Mapping[int, tuple[int, int]] = field(default_factory=dict)

    def range_of(self, suit: int, available: int) -> tuple[int, int]:
        lo, hi = self.lengths.get(suit, (0, available))
        return max(lo, 0), min(hi, available, self.size)


@dataclass(frozen=True)
class Cap:
    """At most ``most`` of ``cards`` lie in the bins named in ``bins`` (``why`` says whence)."""

    cards: frozenset[Card]
    bins: frozenset[str]
    most: int
    why: str = ""


def uniform_below(n: int, rng: np.random.Generator) -> int:
    """A uniform integer in ``[0, n)`` for any size of ``n`` (exact, by rejection on bits)."""
    if n <= 0:
        raise InternalError("uniform_below needs n > 0")
    bits = n.bit_length()
    nbytes = (bits + 7) // 8
    while True:
        value = int.from_bytes(rng.bytes(nbytes), "little") & ((1 << bits) - 1)
        if value < n:
            return value


def _check_sizes(unseen: Hand, bins: Sequence[Bin]) -> None:
    total = sum(b.size for b in bins)
    if any(b.size < 0 for b in bins):
        raise ImpossibleViewError(f"a bin has a negative size: {[(b.name, b.size) for b in bins]}")
    if total != len(unseen):
        raise ImpossibleViewError(
            f"{len(unseen)} unseen cards cannot fill places for {total} "
            f"({', '.join(f'{b.name} {b.size}' for b in bins)})"
        )


class LayoutSampler:
    """Uniform layouts of ``unseen`` cards into ``bins`` (sizes must add up to the cards).

    ``places`` maps some of the cards to the names of the only bins they may go to;
    ``caps`` bound how many of a group of cards go to some bins (see the module docstring).
    """

    def __init__(
        self,
        unseen: Hand,
        bins: Sequence[Bin],
        places: Mapping[Card, Collection[str]] | None = None,
        caps: Sequence[Cap] = (),
    ) -> None:
        self.unseen = Hand(unseen)
        self.bins = list(bins)
        self.places = {c: frozenset(p) for c, p in (places or {}).items()}
        self.caps = tuple(caps)
        _check_sizes(self.unseen, self.bins)
        names = [b.name for b in self.bins]
        for card, where in self.places.items():
            if card not in self.unseen:
                raise SolverError(f"card {card} is given places but is not among the unseen cards")
            if not where or not where <= set(names):
                raise SolverError(f"card {card} may go to {sorted(where)}; the bins are {names}")
        self._restricted = sorted(self.places, key=lambda c: c.bit)
        free = self.unseen - Hand(self._restricted)
        self._groups: list[tuple[int, list[tuple[int, ...]], _SuitLayouts]] = []
        self._total = 0
        for signature, placements in self._placements().items():
            try:
                inner = _SuitLayouts(free, self._reduced(signature))
            except ImpossibleViewError:
                continue
            weight = len(placements) * inner.count()
            self._groups.append((weight, placements, inner))
            self._total += weight
        if not self._total:
            raise ImpossibleViewError(self._why_impossible())

    def _placements(self) -> dict[tuple[tuple[int, ...], ...], list[tuple[int, ...]]]:
        """Every placement of the restricted cards (a bin index each) that keeps the caps and
        the bins' sizes, grouped by its cards per bin and suit."""
        index = {b.name: i for i, b in enumerate(self.bins)}
        options = [sorted(index[n] for n in self.places[c]) for c in self._restricted]
        n_options = math.prod(len(o) for o in options)
        if n_options > MAX_PLACEMENTS:
            raise SolverError(
                f"{len(self._restricted)} cards with several possible places make {n_options:,} "
                f"placements; at most {MAX_PLACEMENTS:,} are enumerated"
            )
        position = {c: j for j, c in enumerate(self._restricted)}
        caps = [
            (
                [position[c] for c in cap.cards if c in position],
                frozenset(index[n] for n in cap.bins if n in index),
                cap.most,
            )
            for cap in self.caps
        ]
        out: dict[tuple[tuple[int, ...], ...], list[tuple[int, ...]]] = {}
        for placement in itertools.product(*options):
            if _within_caps(placement, caps):
                signature = self._signature(placement)
                if signature is not None:
                    out.setdefault(signature, []).append(placement)
        return out

    def _signature(self, placement: tuple[int, ...]) -> tuple[tuple[int, ...], ...] | None:
        """The restricted cards a placement puts in each bin, per suit (None: a bin overflows)."""
        counts = [[0, 0, 0, 0] for _ in self.bins]
        for card, b in zip(self._restricted, placement):
            counts[b][card.suit] += 1
        if any(sum(c) > b.size for c, b in zip(counts, self.bins)):
            return None
        return tuple(tuple(c) for c in counts)

    def _reduced(self, signature: tuple[tuple[int, ...], ...]) -> list[Bin]:
        """The bins less the restricted cards a placement put in them."""
        out = []
        for b, per_suit in zip(self.bins, signature):
            lengths = {s: (lo - per_suit[s], hi - per_suit[s]) for s, (lo, hi) in b.lengths.items()}
            if any(hi < 0 for lo, hi in lengths.values()):
                raise ImpossibleViewError("a placement overfills a suit")
            out.append(Bin(b.name, b.size - sum(per_suit), lengths))
        return out

    def count(self) -> int:
        """The number of layouts consistent with the constraints (bins told apart)."""
        return self._total

    def sample(self, rng: np.random.Generator) -> list[Hand]:
        """One layout: the cards of each bin, in the order of ``bins``."""
        if len(self._groups) == 1 and len(self._groups[0][1]) == 1:
            _, placements, inner = self._groups[0]  # one way to place them: no draw needed
            placement = placements[0]
        else:
            pick = uniform_below(self._total, rng)
            for weight, placements, inner in self._groups:  # noqa: B007 (the pick, used below)
                if pick < weight:
                    break
                pick -= weight
            placement = placements[uniform_below(len(placements), rng)]
        parts = inner.sample(rng)
        for card, b in zip(self._restricted, placement):
            parts[b] = parts[b].add(card)
        return parts

    def admits(self, parts: Sequence[Hand]) -> bool:
        """Whether one layout (the cards of each bin, in the order of ``bins``) keeps every
        constraint: the cards, the sizes, the suit ranges, the places and the caps."""
        if len(parts) != len(self.bins):
            return False
        union = Hand()
        for part, b in zip(parts, self.bins):
            part = Hand(part)
            if part & union or len(part) != b.size:
                return False
            union = union | part
            for suit, (lo, hi) in b.lengths.items():
                if not lo <= len(part.cards_in(suit)) <= hi:
                    return False
        if union != self.unseen:
            return False
        where = {c: b.name for part, b in zip(parts, self.bins) for c in Hand(part)}
        if any(where[c] not in p for c, p in self.places.items()):
            return False
        return all(sum(1 for c in cap.cards if where.get(c) in cap.bins) <= cap.most for cap in self.caps)

    def _why_impossible(self) -> str:
        text = _SuitLayouts.describe(self.unseen, self.bins)
        if self.places:
            text += "; " + ", ".join(
                f"{c} only in {'/'.join(sorted(p))}"
                for c, p in sorted(self.places.items(), key=lambda x: x[0].bit)
            )
        for cap in self.caps:
            text += f"; at most {cap.most} of {' '.join(map(str, sorted(cap.cards, key=lambda c: c.bit)))} in {'/'.join(sorted(cap.bins))}"
            if cap.why:
                text += f" ({cap.why})"
        return text


def _within_caps(placement: tuple[int, ...], caps: Sequence[tuple[list[int], frozenset[int], int]]) -> bool:
    """Whether a placement puts at most ``most`` of each cap's cards in its bins."""
    return all(sum(1 for j in members if placement[j] in where) <= most for members, where, most in caps)


class _SuitLayouts:
    """Uniform layouts of ``unseen`` into ``bins`` under per-suit ranges only (the programme)."""

    def __init__(self, unseen: Hand, bins: Sequence[Bin]) -> None:
        self.unseen = Hand(unseen)
        self.bins = list(bins)
        _check_sizes(self.unseen, self.bins)
        self._suits = [self.unseen.cards_in(s) for s in range(4)]
        # Constrained bins keep their own dimension; the free ones share the last.
        self._constrained = [i for i, b in enumerate(self.bins) if b.lengths]
        self._free = [i for i, b in enumerate(self.bins) if not b.lengths]
        self._free_size = sum(self.bins[i].size for i in self._free)
        if not self._free:
            # The last constrained bin takes what is left of each suit: it needs no dimension.
            self._dims = self._constrained[:-1]
            self._rest: int | None = self._constrained[-1] if self._constrained else None
        else:
            self._dims = self._constrained
            self._rest = None
        self._options = [self._suit_options(s) for s in range(4)]
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        if self.count() == 0:
            raise ImpossibleViewError(self._why_impossible())

    def _suit_options(self, suit: int) -> list[tuple[tuple[int, ...], int]]:
        """Every per-dimension count vector for ``suit`` allowed by the ranges, with its ways."""
        n = len(self._suits[suit])
        ranges = [self.bins[i].range_of(suit, n) for i in self._dims]
        rest_range = self.bins[self._rest].range_of(suit, n) if self._rest is not None else (0, n)
        out: list[tuple[tuple[int, ...], int]] = []

        def rec(i: int, left: int, acc: list[int], ways: int) -> None:
            if i == len(ranges):
                if self._rest is not None and not rest_range[0] <= left <= rest_range[1]:
                    return
                out.append((tuple(acc), ways))
                return
            lo, hi = ranges[i]
            for k in range(lo, min(hi, left) + 1):
                acc.append(k)
                rec(i + 1, left - k, acc, ways * comb(left, k))
                acc.pop()

        rec(0, n, [], 1)
        return out

    def _ways(self, suit: int, filled: tuple[int, ...]) -> int:
        """Layouts of suits ``suit``.. given the counts already ``filled`` per dimension."""
        if suit == len(self._suits):
            sizes = tuple(self.bins[i].size for i in self._dims)
            return 1 if filled == sizes else 0
        key = (suit, filled)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        total = 0
        for counts, ways in self._options[suit]:
            nxt = tuple(f + k for f, k in zip(filled, counts))
            if any(v > self.bins[i].size for v, i in zip(nxt, self._dims)):
                continue
            rest = self._ways(suit + 1, nxt)
            if rest:
                total += ways * rest
        self._memo[key] = total
        return total

    def count(self) -> int:
        """The number of layouts consistent with the constraints (free bins told apart)."""
        base = self._ways(0, tuple(0 for _ in self._dims))
        # The free pile's cards split among the free bins in a multinomial number of ways.
        left = self._free_size
        for i in self._free:
            base *= comb(left, self.bins[i].size)
            left -= self.bins[i].size
        return base

    def sample(self, rng: np.random.Generator) -> list[Hand]:
        """One layout: the cards of each bin, in the order of ``bins``."""
        filled = tuple(0 for _ in self._dims)
        out: list[list[Card]] = [[] for _ in self.bins]
        pile: list[Card] = []
        for suit in range(4):
            # choose this suit's counts with probability proportional to the layouts left
            weights = []
            for counts, ways in self._options[suit]:
                nxt = tuple(f + k for f, k in zip(filled, counts))
                if any(v > self.bins[i].size for v, i in zip(nxt, self._dims)):
                    weights.append(0)
                    continue
                weights.append(ways * self._ways(suit + 1, nxt))
            pick = uniform_below(sum(weights), rng)
            for (counts, _), weight in zip(self._options[suit], weights):  # noqa: B007 (counts: the pick, used below)
                if pick < weight:
                    break
                pick -= weight
            filled = tuple(f + k for f, k in zip(filled, counts))
            cards = self._suits[suit]
            order = [cards[j] for j in rng.permutation(len(cards))]
            at = 0
            for i, k in zip(self._dims, counts):
                out[i].extend(order[at : at + k])
                at += k
            if self._rest is not None:
                out[self._rest].extend(order[at:])
            else:
                pile.extend(order[at:])
        if self._free:
            pile = [pile[j] for j in rng.permutation(len(pile))]
            at = 0
            for i in self._free:
                out[i] = pile[at : at + self.bins[i].size]
                at += self.bins[i].size
        return [Hand(cards) for cards in out]

    def _why_impossible(self) -> str:
        return self.describe(self.unseen, self.bins)

    @staticmethod
    def describe(unseen: Hand, bins: Sequence[Bin]) -> str:
        parts = []
        for b in bins:
            if b.lengths:
                rs = ", ".join(f"{'SHDC'[s]} {lo}-{hi}" for s, (lo, hi) in sorted(b.lengths.items()))
                parts.append(f"{b.name} needs {b.size} ({rs})")
            else:
                parts.append(f"{b.name} needs {b.size}")
        have = ", ".join(f"{'SHDC'[s]} {len(unseen.cards_in(s))}" for s in range(4))
        return f"no layout of the unseen cards ({have}) fits: {'; '.join(parts)}"
