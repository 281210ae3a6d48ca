"""The CP-SAT model of the declarer's choice: which strain, which cards to throw.

Why CP-SAT: it hands out the untested (strain, discard class) candidates best-estimate
first, in batches, and knows by itself when none is left — the search loop in
:mod:`solver.declare` only asks the engine about what this model produces.

The model:

* a one-hot over the strains (``strain[T]``) and a boolean ``discard[c]`` per card the
  declarer may throw, with exactly ``w`` of them true;
* symmetry breaking — inside a run (see :mod:`solver.declare.classes`) a card may be
  thrown only if every lower throwable card of the run is thrown too, so each
  equivalence class has exactly one solution (its representative);
* ``void[T][s]`` is true exactly when every card of suit ``s`` is thrown, so that the
  estimate is a function of the discards (no duplicate solutions);
* ``estimate`` equals the linear score of the chosen strain (enforced under
  ``strain[T]``): the sum of the weights of the kept cards plus void bonuses;
* a no-good clause per tested class: ``not (strain[T] and all of its discards)`` — with
  exactly ``w`` discards this removes that one class and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ortools.sat.python import cp_model

from ..cards import Card
from ..errors import InternalError
from .classes import Run


class _Collector(cp_model.CpSolverSolutionCallback):
    """Collects every solution of an enumeration as (per-run counts, estimate)."""

    def __init__(self, model: CandidateModel) -> None:
        super().__init__()
        self._m = model
        self.found: list[tuple[tuple[int, ...], int]] = []

    def on_solution_callback(self) -> None:
        # one evaluation in OR-Tools' C++ per run: reading card by card from Python
        # cost more than the enumeration itself
        counts = tuple(self.Value(expr) for expr in self._m.run_sums)
        self.found.append((counts, self.Value(self._m.estimate)))


def _cp_solver() -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    # CP-SAT would install its own SIGINT handler for each solve and leave the default
    # action (kill the process) behind; Python's own handler raises KeyboardInterrupt.
    solver.parameters.catch_sigint_signal = False
    # The model is small and solved ~30 times with a growing set of no-goods; presolve
    # would redo its work on every call and costs more than it saves (measured: about
    # 3x less CP-SAT time per deal without it).
    solver.parameters.cp_model_presolve = False
    return solver


class CandidateModel:
    """Untested (strain, class) candidates, best estimate first, in growing batches."""

    def __init__(
        self,
        runs: Sequence[Run],
        w: int,
        strains: Sequence[str],
        weights: Mapping[str, Mapping[Card, int]],
        void_bonus: Mapping[str, Mapping[int, int]],
    ) -> None:
        self.runs = list(runs)
        self.strains = list(strains)
        self.model = cp_model.CpModel()
        self._add_discards(w)
        terms = {t: self._estimate_of(t, w, weights[t], void_bonus[t]) for t in self.strains}
        lo = min(0, *(t_lo for _, t_lo, _ in terms.values()))
        hi = max(0, *(t_hi for _, _, t_hi in terms.values()))
        self.estimate = self.model.new_int_var(lo, hi, "estimate")
        for t in self.strains:
            self.model.add(self.estimate == terms[t][0]).only_enforce_if(self.strain[t])
        self._solver = _cp_solver()

    def _add_discards(self, w: int) -> None:
        """One variable per throwable card and per strain: exactly ``w`` discards, one strain,
        and within a run only the lowest throwable cards (one representative per class)."""
        m = self.model
        cards = [c for run in self.runs for c in run.discardable]
        self.discard = {c: m.new_bool_var(f"discard_{c}") for c in cards}
        self.strain = {t: m.new_bool_var(f"strain_{t}") for t in self.strains}
        m.add_exactly_one(self.strain.values())
        m.add(sum(self.discard.values()) == w)
        for run in self.runs:  # lowest throwable cards of a run go first
            for lower, higher in zip(run.discardable, run.discardable[1:]):
                m.add_implication(self.discard[higher], self.discard[lower])
        self.run_sums = [sum(self.discard[c] for c in run.discardable) for run in self.runs]

    def _estimate_of(
        self, t: str, w: int, weights: Mapping[Card, int], void_bonus: Mapping[int, int]
    ) -> tuple[Any, int, int]:
        """Strain ``t``'s linear estimate of the kept cards, with a bonus per suit emptied
        by the discard, and the estimate's bounds."""
        m = self.model
        cards = list(self.discard)
        all_held = [c for run in self.runs for c in run.cards]
        kept_all = sum(weights[c] for c in all_held)
        expr = kept_all - sum(weights[c] * self.discard[c] for c in cards)
        lo = kept_all - sum(max(0, weights[c]) for c in cards)
        hi = kept_all - sum(min(0, weights[c]) for c in cards)
        for suit, bonus in void_bonus.items():
            in_suit = [c for c in all_held if int(c.suit) == suit]
            if not bonus or not in_suit or len(in_suit) > w or any(c not in self.discard for c in in_suit):
                continue
            v = m.new_bool_var(f"void_{t}_{suit}")
            for c in in_suit:
                m.add_implication(v, self.discard[c])
            m.add_bool_or([v] + [self.discard[c].Not() for c in in_suit])
            expr = expr + bonus * v
            lo += min(0, bonus)
            hi += max(0, bonus)
        return expr, lo, hi

    def _run(self, strain: str, enumerate_all: bool, callback=None, extra=()) -> cp_model.CpSolverStatus:
        m = self.model
        m.clear_assumptions()
        m.add_assumptions([self.strain[strain], *extra])
        self._solver.parameters.enumerate_all_solutions = enumerate_all
        return self._solver.solve(m, callback) if callback else self._solver.solve(m)

    def best_estimate(self, strain: str) -> int | None:
        """The highest estimate among untested classes of ``strain``; None if none is left."""
        self.model.maximize(self.estimate)
        status = self._run(strain, False)
        self.model.clear_objective()
        if status == cp_model.INFEASIBLE:
            return None
        if status != cp_model.OPTIMAL:
            raise InternalError(
                f"CP-SAT could not settle the candidate model: {self._solver.status_name(status)}"
            )
        return int(self._solver.value(self.estimate))

    def batch(self, strain: str, floor: int) -> list[tuple[tuple[int, ...], int]]:
        """Every untested class of ``strain`` whose estimate is >= ``floor``, best first."""
        active = self.model.new_bool_var(f"floor_{floor}")
        self.model.add(self.estimate >= floor).only_enforce_if(active)
        collector = _Collector(self)
        status = self._run(strain, True, collector, extra=[active])
        if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):  # OPTIMAL: enumeration complete
            raise InternalError(f"CP-SAT enumeration incomplete: {self._solver.status_name(status)}")
        self.model.add_bool_or([active.Not()])  # the floor is off for good (no free literal left)
        return sorted(collector.found, key=lambda item: (-item[1], item[0]))

    def exclude(self, strain: str, discard: Sequence[Card]) -> None:
        """A no-good: never hand out this (strain, class) again."""
        self.model.add_bool_or([self.strain[strain].Not()] + [self.discard[c].Not() for c in discard])

    def candidates(self, strain: str, first_step: int = 128):
        """Yield (counts, estimate) of every class of ``strain``, best estimate first.

        Each batch widens the estimate window (doubling); every class handed out is
        excluded by a no-good before the next batch, so none comes twice.
        """
        top = self.best_estimate(strain)
        step = first_step
        while top is not None:
            items = self.batch(strain, top - step)
            for counts, est in items:
                yield counts, est
                discard = [c for run, d in zip(self.runs, counts) for c in run.discardable[:d]]
                self.exclude(strain, discard)
            top = self.best_estimate(strain)
            step *= 2
