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

    def __init__(self, score: int, lowest: int, highest: int, costs: dict[int, int]) -> None:
        self.score, self.lowest, self.highest, self.costs = score, lowest, highest, costs
        self.k, self._misere, self.used_engine = highest, False, False
        self.asked: list[int] = []

    def _search(self, target: int, max_nodes: int | None) -> bool | None:
        if max_nodes is not None and self.costs.get(target, 0) > max_nodes:
            return None
        self.asked.append(target)
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


def test_a_question_past_its_budget_waits_for_a_later_round(monkeypatch):
    monkeypatch.setattr(race_module, "FIRST_BUDGET", 10)
    cheap = FakeOracle(3, 0, 5, {})
    # dearer than the first round gives even the leading class
    costly = FakeOracle(4, 0, 5, {s: 20 * race_module.LEAD_SHARE for s in range(6)})
    entries = [Entry((), 1, o, 0, 5) for o in (costly, cheap)]
    order: list[ScoreOracle] = []
    StrainRace(entries, -1).run(lambda e: order.append(e.oracle), lambda: None)
    assert order == [cheap, costly], "the cheap class settles in the first round, the costly one later"
    assert entries[0].exact and entries[0].lo == 4
