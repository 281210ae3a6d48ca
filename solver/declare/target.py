"""Can the declarer reach a target, and with which strain and discard?

Why a question of its own: a player asks "which trump and discard make my 8 tricks?" (in
MT: "which keep me at or under 3?"), and each candidate answers that with one null-window
search, never the exact value, which in misère is the costliest question there is (the
seat's proof at its value). Candidates come as :func:`~solver.declare.optimiser.declare`
takes them, the most promising strain first and in each the best estimate first, and the
first that reaches the target is the answer. If none does, each was refuted, and in misère
a refutation is the cheap side: the coalition's proof that it can make the seat take more.

>>> from solver import Deal
>>> answer = declare_target(Deal.parse("D:AK... Q2... 3.A.. | 4..."), 2, strains="S", leader="D")
>>> answer.reached, answer.choice.strain.name
(True, 'S')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..deal import Deal, Seat, Strain
from ..errors import EngineError
from ..inputs import short_repr
from .optimiser import Candidates, Choice, Progress, card_order


@dataclass(frozen=True)
class TargetAnswer:
    """The answer of :func:`declare_target`: a choice that reaches the target, or None
    when no strain and discard does (every candidate refuted)."""

    declarer: str
    target: int
    misere: bool
    choice: Choice | None
    candidates_asked: int
    candidates_searched: int  # of those, the ones the trump-count bounds did not settle
    classes: int

    @property
    def reached(self) -> bool:
        return self.choice is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "declarer": self.declarer,
            "target": self.target,
            "misere": self.misere,
            "reached": self.reached,
            "choice": None if self.choice is None else self.choice.to_dict(),
            "candidates_asked": self.candidates_asked,
            "candidates_searched": self.candidates_searched,
            "classes": self.classes,
        }


def declare_target(
    deal: Deal,
    target: int,
    *,
    declarer: Seat | str = "D",
    leader: Seat | str = "E",
    strains: str | None = None,
    blind: bool = False,
    misere: bool = False,
    must_ruff: bool = False,
    progress: Progress | None = None,
    tt_mb: int | None = None,
) -> TargetAnswer:
    """A strain and discard with which ``declarer`` takes at least ``target`` tricks
    against any defence (with ``misere``: at most ``target``), double dummy, or the proof
    that none exists. The arguments are :func:`~solver.declare.optimiser.declare`'s;
    ``progress(asked, total)`` is called after each candidate."""
    ask = Candidates(deal, declarer, leader, strains, blind, misere, must_ruff, progress, tt_mb)
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= ask.k:
        raise EngineError(f"target must be a number of tricks from 0 to {ask.k}, got {short_repr(target)}")
    score = ask.k - target if misere else target  # the oracle's "higher is better" score
    asked = searched = 0
    for strain in ask.order():
        ask.engine.clear()  # as declare(): each strain starts from an empty table
        for cls in ask.classes(strain):
            oracle = ask.oracle(cls.discard, strain)
            reached = oracle.at_least(score)
            asked += 1
            searched += oracle.used_engine
            if progress is not None:
                progress(asked, ask.total)
            if reached:
                choice = Choice(Strain.parse(strain), tuple(sorted(cls.discard, key=card_order)), cls.size)
                return TargetAnswer(ask.seat.name, target, misere, choice, asked, searched, ask.total)
    return TargetAnswer(ask.seat.name, target, misere, None, asked, searched, ask.total)


__all__ = ["TargetAnswer", "declare_target"]
