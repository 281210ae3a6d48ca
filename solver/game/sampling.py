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

>>> from solver.cards import Hand
>>> s = LayoutSampler(Hand.parse("AK.Q.."), [Bin("E", 1, {0: (0, 0)}), Bin("M", 2)])
>>> s.count()
1
>>> [str(h) for h in s.sample(np.random.default_rng(0))]
['.Q..', 'AK...']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from math import comb

import numpy as np

from ..cards import Card, Hand
from ..errors import ImpossibleViewError, InternalError

__all__ = ["Bin", "ImpossibleViewError", "LayoutSampler", "uniform_below"]


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


class LayoutSampler:
    """Uniform layouts of ``unseen`` cards into ``bins`` (sizes must add up to the cards)."""

    def __init__(self, unseen: Hand, bins: Sequence[Bin]) -> None:
        self.unseen = Hand(unseen)
        self.bins = list(bins)
        total = sum(b.size for b in self.bins)
        if any(b.size < 0 for b in self.bins):
            raise ImpossibleViewError(f"a bin has a negative size: {[(b.name, b.size) for b in self.bins]}")
        if total != len(self.unseen):
            raise ImpossibleViewError(
                f"{len(self.unseen)} unseen cards cannot fill places for {total} "
                f"({', '.join(f'{b.name} {b.size}' for b in self.bins)})"
            )
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
        if suit == 4:
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
        parts = []
        for b in self.bins:
            if b.lengths:
                rs = ", ".join(f"{'SHDC'[s]} {lo}-{hi}" for s, (lo, hi) in sorted(b.lengths.items()))
                parts.append(f"{b.name} needs {b.size} ({rs})")
            else:
                parts.append(f"{b.name} needs {b.size}")
        have = ", ".join(f"{'SHDC'[s]} {len(c)}" for s, c in enumerate(self._suits))
        return f"no layout of the unseen cards ({have}) fits: {'; '.join(parts)}"
