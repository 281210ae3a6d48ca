"""Discard equivalence classes: which discard sets leave the same position.

Why: the declarer of a 16-card deal chooses 4 of 20 cards to throw away (4,845 sets),
but the play only depends on the *relative* order of the cards still in play. Walk a
suit from the ace down and write who holds each card that is still in play; the
declarer's cards form *runs* — maximal stretches of his cards with no opponent card
between them (cards in nobody's hand, and his own discards, are not in play and so
never split a run). After the discard, the position after relative-rank compression is
fixed by how many cards each run keeps: the opponents' cards are the same in every
case and each run sits in its own gap between two opponent cards. Hence

* two discard sets are equivalent exactly when they take the same number of cards from
  every run (different counts give a different owner sequence in some gap);
* a class is a vector ``(d_r)`` with ``0 <= d_r <= discardable cards of run r`` and
  ``sum d_r = w``; it stands for ``prod C(discardable_r, d_r)`` concrete sets;
* its representative discards the lowest ``d_r`` discardable cards of each run.

With ``blind=True`` only the declarer's own cards may be thrown (the widow cards are
kept), so a run may hold cards that cannot be discarded; the rule above still holds
with "discardable" counted per run.

>>> from solver.cards import Hand
>>> mine = Hand.parse("AQ54...")
>>> runs = discard_runs(mine, mine, Hand.parse("K3..."))
>>> [r.label() for r in runs]
['SA', 'SQ54']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from math import comb

from ..cards import Card, Hand, Suit
from ..errors import InternalError


@dataclass(frozen=True)
class Run:
    """A maximal stretch of the declarer's cards in one suit with no opponent card between.

    ``cards`` are highest first; ``discardable`` are the run's cards that may be thrown,
    lowest first (the order the representative of a class takes them in).
    """

    suit: int
    cards: tuple[Card, ...]
    discardable: tuple[Card, ...]

    def label(self) -> str:
        return Suit(self.suit).name + "".join(str(c)[1] for c in self.cards)


def discard_runs(held: Hand, discardable: Hand, opponents: Hand) -> list[Run]:
    """Split the declarer's ``held`` cards into runs, given the ``opponents``' cards.

    ``discardable`` must be a subset of ``held``. Cards in neither set are out of play
    and do not separate runs.
    """
    runs: list[Run] = []

    def close(suit: int, current: list[Card]) -> None:
        if current:
            disc = tuple(c for c in reversed(current) if c in discardable)
            runs.append(Run(suit, tuple(current), disc))
            current.clear()

    for suit in range(4):
        current: list[Card] = []
        for rank in range(14, 1, -1):
            card = Card(suit, rank)
            if card in held:
                current.append(card)
            elif card in opponents:
                close(suit, current)
        close(suit, current)
    return runs


@dataclass(frozen=True)
class DiscardClass:
    """One equivalence class: how many cards each run gives up."""

    counts: tuple[int, ...]
    discard: tuple[Card, ...]  # the representative: lowest discardable cards of each run
    size: int  # concrete discard sets in the class


def make_class(runs: Sequence[Run], counts: Sequence[int]) -> DiscardClass:
    """The class of per-run discard ``counts`` (checked against the runs)."""
    if len(counts) != len(runs):
        raise InternalError(f"{len(counts)} counts for {len(runs)} runs")
    discard: list[Card] = []
    size = 1
    for run, d in zip(runs, counts):
        if not 0 <= d <= len(run.discardable):
            raise InternalError(f"run {run.label()} cannot give up {d} cards")
        discard.extend(run.discardable[:d])
        size *= comb(len(run.discardable), d)
    return DiscardClass(tuple(counts), tuple(sorted(discard)), size)


def class_counts_of(runs: Sequence[Run], discard: Hand | Iterable[Card]) -> tuple[int, ...]:
    """The per-run counts of a concrete discard set (which class it belongs to)."""
    cards = set(discard)
    return tuple(sum(1 for c in run.discardable if c in cards) for run in runs)


def all_classes(runs: Sequence[Run], w: int) -> Iterator[DiscardClass]:
    """Every class, by plain recursion (the reference the CP-SAT model is tested against)."""
    caps = [len(r.discardable) for r in runs]
    suffix = [0] * (len(caps) + 1)
    for i in range(len(caps) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + caps[i]

    def rec(i: int, left: int, acc: list[int]) -> Iterator[tuple[int, ...]]:
        if i == len(caps):
            if left == 0:
                yield tuple(acc)
            return
        for d in range(min(caps[i], left), -1, -1):
            if left - d <= suffix[i + 1]:
                acc.append(d)
                yield from rec(i + 1, left - d, acc)
                acc.pop()

    for counts in rec(0, w, []):
        yield make_class(runs, counts)


def count_classes(runs: Sequence[Run], w: int) -> int:
    """How many classes there are (a small dynamic programme, for progress totals)."""
    ways = [1] + [0] * w
    for run in runs:
        cap = len(run.discardable)
        ways = [sum(ways[t - d] for d in range(0, min(cap, t) + 1)) for t in range(w + 1)]
    return ways[w]
