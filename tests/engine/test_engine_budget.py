"""Solver.can_reach_within: a null-window search with a node budget.

A search past its budget answers None; asked again with a larger budget it goes on from
what the table kept and gives can_reach's answer, for about the nodes of one search."""

from __future__ import annotations

import pytest

from solver.deal import Deal
from solver.engine import Solver
from solver.errors import EngineError

POLL = 65536  # the core checks the budget at its polls, every POLL nodes


@pytest.mark.parametrize("seed", [0, 4])  # searches of 0.2M-0.8M nodes
def test_a_search_past_its_budget_goes_on_to_can_reachs_answer(seed):
    deal = Deal.random(seed=seed, hand_size=13, widow_size=0)
    solver = Solver(tt_mb=16)
    value = solver.solve(deal, "N", leader="E", seat="D", misere=True)
    stopped = 0
    for target in (value, value - 1):  # the seat's proof, then the coalition's
        solver.clear()
        want = solver.can_reach(deal, "N", leader="E", seat="D", target=target, misere=True)
        plain = solver.nodes
        assert want == (target >= value)
        if plain <= 2 * POLL:
            continue  # too small a search to stop part-way
        solver.clear()
        budget, total, answers = 1, 0, []
        while True:
            answer = solver.can_reach_within(
                deal, "N", leader="E", seat="D", target=target, misere=True, max_nodes=budget
            )
            total += solver.nodes
            answers.append(answer)
            if answer is not None:
                break
            assert solver.nodes <= budget + POLL, "the search ran on past its budget"
            budget *= 4
        assert answers[0] is None and answers[-1] == want
        assert total <= 1.5 * plain + POLL * len(answers), "a search asked again started over"
        stopped += 1
    assert stopped, "no search was large enough to stop part-way: pick larger deals"


def test_max_nodes_must_be_a_positive_whole_number():
    solver = Solver(tt_mb=1)
    deal = Deal.random(seed=0, hand_size=4, widow_size=0)
    for bad in (0, -1, True, 1.5, "9"):
        with pytest.raises(EngineError, match="max_nodes"):
            solver.can_reach_within(deal, "N", seat="D", target=1, max_nodes=bad)  # type: ignore[arg-type]
    assert solver.can_reach_within(deal, "N", seat="D", target=0, max_nodes=1) is True
