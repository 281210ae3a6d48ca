"""Settling the discard classes of one strain in misère: the ceilings come down together.

Why: in misère one null-window question can take a thousand times as long on one discard
class as on a near relative (``examples/deal-16.txt``: 0.03 s against more than 600 s),
and a question is cheap far from a class's score, on either side, and dear near it. So
the classes are never asked one after the other to the end.

What each class needs is what :func:`~solver.declare.optimiser.declare` promises: the
strain's best score exactly, and the exact score of every class that can tie it where it
can be the optimum. ``best`` is the highest score some class is proven to reach; each
answer narrows one class's interval ``lo..hi``, so nothing is asked twice. Scores are
"higher is better" (in misère, the hand size less the tricks).

* First the class the estimate ranks first climbs from below while each question fits
  ``FIRST_BUDGET``: far above its tricks every *yes* is cheap, so the optimum's interval
  gets its upper end (in tricks) early.
* Then the ceilings come down together, one score at a time from the top: every class
  whose ceiling is the highest is asked whether it reaches it. Far above a class's score
  the *no* is cheap; the first *yes* proves the best, since every class was refuted one
  score higher. The classes that may tie the best are asked last, unless the caller
  wants the best alone.
* A refutation that took ``FOLLOW_NODES`` or more lies next to the class's score, so the
  class is asked about the next score at once, while the positions of that proof are
  still in the table: it is the question the class will need anyway if the best turns out
  to be that score (to tie it, or a new best that ends the descent early).
* At each score the classes go in order of their *resistance*, the nodes their last
  refutation took: a refutation costs more the nearer the class's score, so the dearest
  ones lie nearest the best. (The estimate orders classes badly in misère: on seed 2 it
  put the optimal classes 516th to 587th of 587, and this order put one 5th.)
* The first ``HEAD`` classes of that order are asked within budgets growing to ``CAP``
  (a stopped search goes on from what it left in the table); the others first within
  ``FIRST_BUDGET``, and those left over one at a time up to ``CAP``, then again with the
  cap four times as large, so that every question is answered and one that costs a
  thousand times the others comes last.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..cards import Card
from .oracle import ScoreOracle

FIRST_BUDGET = 1 << 20  # nodes: some 0.1-0.3 s, past the cost of most questions
HEAD = 8  # classes a score asked at once with budgets up to CAP
CAP = 1 << 26  # nodes: the budget a question grows to before the next class is asked
GROWTH = 4
FOLLOW_NODES = 1 << 20  # a refutation this dear lies next to the class's score


@dataclass
class Entry:
    """One discard class in the race; its score is proven to lie in ``lo..hi``."""

    discard: tuple[Card, ...]
    size: int
    oracle: ScoreOracle
    lo: int
    hi: int
    resistance: int = 0  # nodes its last refutation took: the dearer, the nearer its score

    @property
    def exact(self) -> bool:
        return self.lo == self.hi


class StrainRace:
    """The classes of one strain; ``floor`` is the best exact score of the strains settled
    before it (-1 if none): a class that can only tie a best below it needs no exact score.
    ``ties=False`` ends the race once the strain's best is proven, the classes that may tie
    it left unsettled (they can take many times as long as the best)."""

    def __init__(self, entries: list[Entry], floor: int, ties: bool = True) -> None:
        self.entries = entries
        self.floor = floor
        self.ties = ties
        self.best = max(e.lo for e in entries)

    def settled(self, e: Entry) -> bool:
        if e.hi > self.best:
            return False  # it may still beat the best
        return e.exact or e.hi < self.best or self.best < self.floor

    def ceiling(self) -> int:
        """The highest score any class of the strain may still have."""
        return max(e.hi for e in self.entries)

    def _answer(self, e: Entry, score: int, budget: int) -> bool:
        """Ask whether ``e`` reaches ``score`` and narrow its interval; False if the
        budget ran out first."""
        answer = e.oracle.at_least_within(score, budget)
        if answer is None:
            return False
        if answer:
            e.lo = score
            self.best = max(self.best, score)
        else:
            e.hi = score - 1
            e.resistance = e.oracle.last_nodes
        return True

    def _climb(self, e: Entry, budget: int) -> None:
        """Raise ``best`` with ``e`` from below while the questions fit the budget."""
        while e.lo < e.hi and self._answer(e, e.lo + 1, budget):
            pass

    def _within(self, e: Entry, score: int, tried: dict[int, int], cap: int) -> bool:
        """Ask whether ``e`` reaches ``score`` within budgets growing from the last one
        tried (``tried``, by entry) up to ``cap``; False if even ``cap`` ran out."""
        budget = tried.get(id(e), FIRST_BUDGET // GROWTH) * GROWTH
        while budget <= cap:
            tried[id(e)] = budget
            if self._answer(e, score, budget):
                return True
            budget *= GROWTH
        return False

    def _ask(self, group: list[Entry], score: int, narrowed: Callable[[], None], until_yes: bool) -> None:
        """Ask every class of ``group`` whether it reaches ``score``, the most resistant
        first (``until_yes``: stop at the first that does)."""
        order = sorted(group, key=lambda e: -e.resistance)  # stable: the estimate's order next
        tried: dict[int, int] = {}

        def asked(e: Entry, cap: int) -> bool:
            if not self._within(e, score, tried, cap):
                return False
            if until_yes and e.hi == score - 1 and e.lo < e.hi and e.resistance >= FOLLOW_NODES:
                self._within(e, e.hi, {}, cap)  # the next score at once, its positions still in the table
            return True

        def one_pass(entries: list[Entry], cap: int) -> list[Entry] | None:
            """Ask each within ``cap``; those left unanswered, or None once a yes ended it."""
            left = []
            for e in entries:
                if until_yes and self.best >= score:
                    return None
                if not asked(e, cap):
                    left.append(e)
                narrowed()
            return left

        left = one_pass(order[:HEAD], CAP)
        if left is None:
            return
        left, cap = order[HEAD:] + left, FIRST_BUDGET
        while left:
            left, cap = one_pass(left, cap), max(CAP, cap * GROWTH)

    def run(self, settle: Callable[[Entry], None], narrowed: Callable[[], None]) -> None:
        """Settle every class, then ``settle(e)`` once for each; ``narrowed()`` after every
        question (the best or a ceiling may have moved)."""
        if self.entries:
            self._climb(self.entries[0], FIRST_BUDGET)
            narrowed()
        while (level := self.ceiling()) > self.best:
            self._ask([e for e in self.entries if e.hi == level], level, narrowed, until_yes=True)
        if self.ties and self.best >= self.floor:  # the ties: each needs its exact score
            self._ask([e for e in self.entries if not self.settled(e)], self.best, narrowed, until_yes=False)
        for e in self.entries:
            settle(e)
