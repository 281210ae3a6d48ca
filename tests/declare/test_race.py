"""The race of solver/declare/race.py against known scores, with questions that cost.

A fake oracle holds each class's true score and a cost per question: within a budget
smaller than the cost it answers None, as the engine does when a search runs past its
budget. Whatever the costs, the race must settle every class once, find the strain's
best exactly and the exact score of every class that ties it (where the best can be the
optimum), and never record a wrong score.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.declare import race as race_module
from solver.declare.oracle import ScoreOracle
from solver.declare.race import Entry, StrainRace


class FakeOracle(ScoreOracle):
    """The real oracle's sure bounds in front of a search that knows the score and what
    each question costs."""

    def __init__(
        self, score: int, lowest: int, highest: int, costs: dict[int, int], log: list | None = None
    ) -> None:
        self.score, self.lowest, self.highest, self.costs = score, lowest, highest, costs
        self.k, self._misere, self.used_engine = highest, False, False
        self.asked: list[int] = []
        self.log = [] if log is None else log  # (oracle, target) of every answer, shared

    def _search(self, target: int, max_nodes: int | None) -> bool | None:
        cost = self.costs.get(target, 0)
        if max_nodes is not None and cost > max_nodes:
            return None
        self.asked.append(target)
        self.log.append((self, target))
        self.last_nodes = cost
        return self.score >= target


@st.composite
def classes(draw: st.DrawFn) -> tuple[list[FakeOracle], int]:
    k = draw(st.integers(1, 8))
    out = []
    for _ in range(draw(st.integers(1, 7))):
        score = draw(st.integers(0, k))
        lowest = draw(st.integers(0, score))
        highest = draw(st.integers(score, k))
        costs = {s: draw(st.sampled_from([0, 1 << 15, 1 << 18, 1 << 22, 1 << 26])) for s in range(k + 1)}
        out.append(FakeOracle(score, lowest, highest, costs))
    floor = draw(st.integers(-1, k))
    return out, floor


@settings(max_examples=300, deadline=None)
@given(classes())
def test_the_race_settles_every_class_to_what_the_declaration_needs(case):
    oracles, floor = case
    entries = [Entry((), 1, o, o.lowest, o.highest) for o in oracles]
    race = StrainRace(entries, floor)
    settled: list[Entry] = []
    race.run(settled.append, lambda: None)
    assert sorted(map(id, settled)) == sorted(map(id, entries)), "each class settled exactly once"
    true_best = max(o.score for o in oracles)
    assert race.best == true_best
    for e, o in zip(entries, oracles):
        assert e.lo <= o.score <= e.hi, "an interval that excludes the true score"
        if o.score == true_best and true_best >= floor:
            assert e.exact, "a class that ties the best lacks its exact score"
        assert len(set(o.asked)) == len(o.asked), "a question answered twice"
    assert any(e.exact and e.lo == true_best for e in entries), "the best is reached by an exact class"


def answered_at(log: list, target: int) -> list[FakeOracle]:
    return [o for o, t in log if t == target]


def test_the_dearest_refutation_is_asked_first_one_score_lower():
    """A class whose refutation cost more lies nearer the best: it goes first at the next
    score, whatever the estimate's order."""
    log: list = []
    first = FakeOracle(0, 0, 5, {}, log)  # the estimate's first: its climb stops at once
    near = FakeOracle(1, 0, 5, {5: 10_000, 4: 10_000}, log)  # both under FOLLOW_NODES: no follow-up
    nearer = FakeOracle(3, 0, 5, {5: 1_000_000, 4: 1_000_000}, log)
    entries = [Entry((), 1, o, 0, 5) for o in (first, near, nearer)]
    race = StrainRace(entries, -1)
    race.run(lambda e: None, lambda: None)
    assert answered_at(log, 5) == [near, nearer]  # no refutation yet: the estimate's order
    assert answered_at(log, 4) == [nearer, near]
    assert race.best == 3 and entries[2].exact


def test_a_question_past_its_budget_waits_until_the_cheaper_ones_are_answered(monkeypatch):
    monkeypatch.setattr(race_module, "HEAD", 0)  # no class is pressed to the cap at once
    log: list = []
    first = FakeOracle(0, 0, 5, {}, log)
    costly = FakeOracle(4, 0, 5, {s: 2 * race_module.CAP for s in range(6)}, log)
    cheap = FakeOracle(3, 0, 5, {}, log)
    entries = [Entry((), 1, o, 0, 5) for o in (first, costly, cheap)]
    settled: list[Entry] = []
    StrainRace(entries, -1).run(settled.append, lambda: None)
    assert answered_at(log, 5) == [cheap, costly], "the cheap question did not wait for the costly one"
    assert entries[1].exact and entries[1].lo == 4 and len(settled) == 3


def test_a_dear_refutation_is_followed_at_once_by_the_next_score():
    """A refutation that cost FOLLOW_NODES or more lies next to the class's score: the
    same class is asked the next score before any other class is asked anything."""
    log: list = []
    first = FakeOracle(0, 0, 5, {}, log)
    dear = FakeOracle(4, 0, 5, {5: race_module.FOLLOW_NODES}, log)
    cheap = FakeOracle(2, 0, 5, {}, log)
    entries = [Entry((), 1, o, 0, 5) for o in (first, dear, cheap)]
    race = StrainRace(entries, -1)
    race.run(lambda e: None, lambda: None)
    others = [(o, t) for o, t in log if o is not first]  # the first climbs alone, before
    assert others[:3] == [(dear, 5), (dear, 4), (cheap, 5)]
    assert race.best == 4 and entries[1].exact
