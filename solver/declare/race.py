"""Settling the discard classes of one strain in rounds of growing node budgets.

Why: in misère one null-window question can take a thousand times as long on one discard
class as on a near relative (``examples/deal-16.txt``: 0.03 s against more than 600 s),
so asking the classes one after the other can sit for hours on one question while
cheap ones elsewhere would already narrow the answer. Each round asks the open
questions within a node budget, and those left go to the next round with a budget four
times as large. What a stopped search proved stays in the engine's table, but
the other classes' searches in between overwrite much of it, so a question left costs
about its budget again: the first budget (2^20 nodes) lies past most questions, and only
the costly few wait.

What each class needs is what :func:`~solver.declare.optimiser.declare` promises: the
strain's best score exactly, and the exact score of every class that can tie it where it
can be the optimum. ``best`` is the highest score some class is proven to reach; each
answer narrows one class's interval ``lo..hi``, so nothing is asked twice.

* Each round the class holding the best goes first: it climbs from below ("score >= best
  + 1?") within the round's budget, so that a choice proven to reach a score is known
  early, then seeks its exact score with ``LEAD_SHARE`` times that budget.
* Once the best is exact, every other class is asked whether it beats it: one question,
  the cheap side (in misère, the coalition's proof) when the class does worse. A class
  that beats it climbs on at once with the leader's budget, as far as it goes, so that
  the others are asked about the new best and not the old; and in each pass the first
  question that runs out of the round's budget goes on with the leader's (while the best
  lies far below the optimum, every class's question is a costly *yes*, and one of them
  answered lifts the best for all). A class
  that can only tie waits until no class can beat the best: a tie costs the declarer's
  proof at its value, the dearest question, and is wasted if the best rises.
* Before that, a class is asked about its ceiling, "score >= hi?" (after a run of *no*,
  further below it: ``Entry.stride``), where a *no* is cheap, so the ceilings of all
  classes come down together, and with them the lower end of the optimum's interval.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..cards import Card
from .oracle import ScoreOracle

FIRST_BUDGET = 1 << 20  # nodes: some 0.2-0.3 s, past the cost of most questions
LEAD_SHARE = 64  # the leading class's budget, in budgets of the round
GROWTH = 4


def budgets() -> Iterator[int]:
    """The node budget of each round: growing without end, so every question is answered."""
    budget = FIRST_BUDGET
    while True:
        yield budget
        budget *= GROWTH


@dataclass
class Entry:
    """One discard class in the race; its score is proven to lie in ``lo..hi``."""

    discard: tuple[Card, ...]
    size: int
    oracle: ScoreOracle
    lo: int
    hi: int
    stride: int = 1  # how far below the ceiling the next question lies, plus one

    @property
    def exact(self) -> bool:
        return self.lo == self.hi


class StrainRace:
    """The classes of one strain; ``floor`` is the best exact score of the strains settled
    before it (-1 if none): a class that can only tie a best below it needs no exact score."""

    def __init__(self, entries: list[Entry], floor: int) -> None:
        self.entries = entries
        self.floor = floor
        self.best = max(e.lo for e in entries)
        self.best_exact = any(e.exact and e.lo == self.best for e in entries)

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
            if score > self.best:
                self.best, self.best_exact = score, False
        else:
            e.hi = score - 1
        if e.exact and e.lo == self.best:
            self.best_exact = True
        return True

    def _step(self, e: Entry, budget: int) -> bool:
        """Ask ``e`` one question; False if the budget ran out first.

        Once a class is exact at the best, the question is the one the class needs,
        "score >= best + 1?" (or, to tie, ">= best?"). Before, it is about the class's
        ceiling, and after each *no* twice as far below it: far above a class's score
        every *no* is cheap, so the ceiling comes down in a few questions rather than
        one a trick. After a *yes* the steps go back to one."""
        need = self.best + 1 if e.hi > self.best else self.best
        score = need if self.best_exact else max(e.hi - e.stride + 1, need, e.lo + 1)
        if not self._answer(e, score, budget):
            return False
        e.stride = 1 if e.lo == score else 2 * e.stride
        return True

    def _climb(self, e: Entry, budget: int) -> None:
        """Raise ``best`` with ``e`` from below while the questions fit the budget."""
        while e.lo < e.hi and self._answer(e, e.lo + 1, budget):
            pass

    def _lead(self, e: Entry, budget: int, narrowed: Callable[[], None]) -> None:
        """The class holding the best goes first: it climbs from below within the round's
        budget (the interval's other end), then looks for its exact score within
        LEAD_SHARE times that (an exact best lets every other class be settled by one
        question at best + 1, as in normal play)."""
        self._climb(e, budget)
        narrowed()
        while not self.settled(e) and self._step(e, LEAD_SHARE * budget):
            narrowed()

    def run(self, settle: Callable[[Entry], None], narrowed: Callable[[], None]) -> None:
        """Rounds until every class is settled; ``settle(e)`` once for each, as it is, and
        ``narrowed()`` after every question (the best or a ceiling may have moved).

        Within a round the classes take turns, one question each and the highest ceilings
        first, until each is settled or has run out of the round's budget: the ceilings
        come down together, so the lower end of the optimum's interval rises as soon as
        the cheap questions allow. A class that can only tie the best waits while another
        may still beat it: a tie costs the declarer's proof at its value, the dearest
        question, and is wasted if the best rises."""
        open_ = list(self.entries)
        for budget in budgets():
            if open_:
                self._lead(max(open_, key=lambda e: e.lo), budget, narrowed)
            turn, out_of_budget = open_, list[Entry]()
            while turn:
                again: list[Entry] = []
                turn.sort(key=lambda e: -e.hi)  # the highest ceilings hold the interval's end
                can_beat = any(e.hi > self.best for e in turn + out_of_budget)
                promoted = False
                for e in turn:
                    if self.settled(e):
                        settle(e)
                    elif can_beat and e.hi <= self.best:
                        out_of_budget.append(e)  # a tie is proven only for the final best
                    else:
                        best = self.best
                        answered = self._step(e, budget)
                        if not answered and not promoted and e.hi > self.best:
                            promoted = True  # one costly question a pass goes on, as the lead's
                            answered = self._step(e, LEAD_SHARE * budget)
                        if self.best > best:  # a new best: find how far it goes, as the lead
                            self._climb(e, LEAD_SHARE * budget)
                        (again if answered else out_of_budget).append(e)
                        narrowed()
                turn = again
            open_ = []
            for e in out_of_budget:  # a higher best may have settled some of them
                if self.settled(e):
                    settle(e)
                else:
                    open_.append(e)
            if not open_:
                return
