"""Node counts of a fixed set of searches, pinned: the engine's bench signature.

Why: a change meant to be a pure refactoring of the search must not change how many
nodes it visits, and a change meant to prune must show by how much. Values are checked
by the brute-force and invariant tests; this one checks the search's *shape*.

A change to the search that changes these numbers must update the pinned numbers in the
same commit, with the reason (and the counts before and after) in the commit body.

Each search starts from an empty table of a fixed size, so the counts do not depend on
the order the cases run in. Regenerate with ``python tests/engine/test_engine_pins.py``.
"""

from __future__ import annotations

import pytest

from solver.deal import Deal
from solver.engine import Solver

TT_MB = 16

# (seed, hand size, strain, leader, seat, misère, must-ruff, played): the hands are
# Deal.random(seed=seed, hand_size=size); `played` are cards already on the table.
CASES: list[tuple[int, int, str, str, str, bool, bool, tuple[str, ...]]] = [
    (0, 16, "S", "E", "D", False, False, ()),
    (0, 16, "N", "M", "E", False, False, ()),
    (1, 16, "S", "E", "D", False, False, ()),
    (1, 16, "H", "D", "M", False, False, ()),
    (2, 16, "H", "D", "M", False, False, ()),
    (3, 16, "C", "E", "M", False, True, ()),
    (4, 16, "D", "M", "E", False, False, ()),
    (5, 16, "N", "D", "D", False, False, ()),
    (0, 8, "N", "M", "E", True, False, ()),
    (0, 10, "S", "E", "D", True, False, ()),
    (1, 10, "N", "M", "E", True, False, ()),
    (2, 9, "S", "E", "D", True, False, ()),
    (3, 10, "C", "D", "M", True, True, ()),
    (4, 10, "H", "E", "E", True, False, ()),
    (5, 9, "C", "D", "M", True, False, ()),
    (5, 10, "D", "M", "D", True, True, ()),
    (2, 12, "S", "E", "D", True, False, ()),
    (3, 12, "N", "E", "D", True, True, ()),
    (6, 16, "N", "E", "D", False, False, ("SK", "S2")),
    (7, 10, "D", "M", "E", True, False, ("HT", "H3")),
    (8, 9, "H", "D", "M", True, True, ("C7", "H8")),
]

# One entry per case: (value, nodes), measured on the engine of the commit that set them.
PINNED: list[tuple[int, int]] = [
    (6, 91260),
    (4, 108685),
    (7, 239037),
    (1, 1301),
    (3, 358925),
    (7, 225623),
    (1, 191844),
    (9, 133959),
    (4, 2944),
    (5, 8039),
    (0, 10389),
    (3, 6739),
    (7, 1255),
    (5, 7290),
    (1, 22309),
    (7, 4338),
    (7, 59315),
    (7, 63121),
    (4, 508758),
    (7, 16205),
    (1, 8483),
]


def measure(case: tuple) -> tuple[int, int]:
    seed, size, strain, leader, seat, misere, must_ruff, played = case
    solver = Solver(TT_MB)
    deal = Deal.random(seed=seed, hand_size=size)
    value = solver.solve(
        deal, strain, leader=leader, seat=seat, misere=misere, must_ruff=must_ruff, played=played
    )
    return value, solver.nodes


@pytest.mark.parametrize("case, pinned", list(zip(CASES, PINNED)), ids=[str(c[:7]) for c in CASES])
def test_node_count_is_pinned(case: tuple, pinned: tuple[int, int]) -> None:
    assert measure(case) == pinned


def test_every_case_is_pinned() -> None:
    assert len(PINNED) == len(CASES)


if __name__ == "__main__":
    for c in CASES:
        print(f"    {measure(c)!r},")


def test_stats_describe_the_last_call() -> None:
    """stats() counts the last call only, and its counters are consistent with it."""
    solver = Solver(TT_MB)
    deal = Deal.random(seed=1)
    solver.solve(deal, "S", leader="E", seat="D")
    first = solver.stats()
    assert first["nodes"] == solver.nodes == PINNED[CASES.index((1, 16, "S", "E", "D", False, False, ()))][1]
    assert 0 < first["table_hits"] <= first["table_probes"] < first["nodes"]
    assert first["table_hits"] <= first["table_chunks"]  # a hit reads at least one chunk
    assert first["first_move_cutoffs"] <= first["cutoffs"]
    assert first["misere_escape"] == first["misere_trick_lost"] == 0
    solver.solve(Deal.random(seed=2, hand_size=8), "N", leader="E", seat="D", misere=True)
    second = solver.stats()
    assert second.keys() == first.keys()
    assert second["nodes"] == solver.nodes < first["nodes"]
    assert second["right_hand_trumps"] == second["trump_game"] == 0  # normal-play bounds only
