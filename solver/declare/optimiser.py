"""The declaration optimiser: the exact best strain and discard, and every choice that reaches it.

The declarer (default the dealer) holds ``k`` cards, takes the ``w``-card widow and throws
``w`` cards away (``blind=True``: the ``w`` cards come from his own ``k`` before the widow
joins his hand). The thrown cards and any card in nobody's hand are out of play. For every
strain asked for we want the declarer's best double-dummy value over all discard sets, the
best over all strains, and every (strain, discard set) reaching that best.

How (CP-SAT does the combinatorics, the engine is the oracle):

1. Discard sets are grouped into equivalence classes that leave the same position after
   relative-rank compression (:mod:`solver.declare.classes`); one representative per class.
2. :class:`~solver.declare.model.CandidateModel` hands out, strain by strain, every class not
   yet tested, best cheap estimate first, and excludes it with a no-good once handed out.
3. Each candidate is asked one question at a time with a null-window search,
   ``Solver.can_reach``, on a score that is "higher is better" for the declarer (tricks; in
   misère, ``k`` minus tricks). Let ``best[T]`` be the best exact score found in strain ``T``
   and ``G`` the best over all strains so far. A candidate of ``T`` is asked
   "score >= best[T]+1?" while ``best[T] < G``, else "score >= G?". A *no* ends the
   candidate; a *yes* is followed by "score >= v+1?" until a *no*, which gives its exact
   score ``v``. The first candidate of a strain is solved exactly. Trump-count bounds
   (:func:`~solver.declare.estimate.sure_trick_bounds`) answer a question without the engine
   when they can; both are proven, never guessed.

Why the result is the true optimum and the optimal list is complete:

* Every class of every strain is handed out exactly once: the model's solutions are exactly
  the class representatives (exactly ``w`` discards; within a run only the lowest throwable
  cards), and the loop only stops when CP-SAT proves no untested class is left. Equivalent
  discard sets give identical compressed positions, hence equal values, so one search per
  class speaks for all its sets; ``count`` multiplies out the binomials per run.
* Each candidate ends with either an exact score or a proof "score < t", where ``t`` was
  ``best[T]+1`` (asked while ``best[T] < G``) or ``G`` (asked while ``best[T] = G``), with
  the values of that moment. Both only grow, and ``best[T] <= G`` always, so ``t`` is at
  most the final ``G`` and at most the final ``best[T]+1``. Hence a candidate without an
  exact score is below the final ``G`` and not above the final ``best[T]``: every class
  scoring ``>= G`` has its exact score, and ``by_strain[T]`` (the largest exact score of
  ``T``) is the true maximum of strain ``T``.
* Hence ``tricks`` = the final ``G`` is the optimum, and ``optimal`` = all classes whose exact
  score is ``G`` is the complete list; their counts add up to the number of optimal
  (strain, discard set) pairs because the classes partition the discard sets.
* Sharing the engine's table between candidates changes no answer: its entries are exact
  bounds of rank-compressed positions, kept per (strain, seat, misère, must-ruff).

>>> from solver import Deal
>>> d = declare(Deal.parse("D:AK... Q2... 3.A.. | 4..."), strains="S", leader="D")
>>> d.tricks, d.by_strain
(2, {<Strain.S: 0>: 2})
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..cards import SUIT_CHARS, Card, Hand, suit_html
from ..deal import Deal, Seat, Strain, parse_strains
from ..engine.interval import Interval
from ..errors import EngineError, InternalError, InvalidDealError
from ..inputs import check_flag, check_progress
from ..interrupts import import_holding_sigint
from .classes import DiscardClass, count_classes, discard_runs, make_class
from .estimate import card_weights, void_bonuses
from .oracle import ScoreOracle
from .race import Entry, StrainRace

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..engine.solver import Solver

Progress = Callable[[int, int], None]


def card_order(card: Card) -> tuple[int, int]:
    """Clubs, diamonds, hearts, spades, each low to high (the order of the JSON example)."""
    return (3 - int(card.suit), card.rank)


@dataclass(frozen=True)
class Choice:
    """One optimal class: the strain, a representative discard, and how many sets it stands for."""

    strain: Strain
    discard: tuple[Card, ...]
    count: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON form; the strain as its letter, the discard as card strings (``["C2", "HK"]``)."""
        return {"strain": self.strain.name, "discard": [str(c) for c in self.discard], "count": self.count}


Narrowing = Callable[[Interval, Choice | None], None]
"""``narrowing(interval, best)``: the optimum's tricks proven to lie in ``interval``, and a
choice proven to reach its lower end (misère; None before any)."""


@dataclass(frozen=True)
class Declaration:
    """The result of :func:`declare` (tricks are the declarer's; in misère, fewest is best)."""

    declarer: str
    tricks: int
    by_strain: dict[Strain, int]
    optimal: list[Choice]
    candidates_searched: int
    held: Hand = field(repr=False)
    misere: bool = False
    blind: bool = False
    classes: int = 0
    #: False when asked without the ties (misère): ``optimal`` then holds the choices
    #: proven to reach the optimum, and others may tie it
    complete: bool = True

    @property
    def recommended(self) -> Choice | None:
        """One optimal choice to play: the first in strain order S H D C N, then the class
        whose discard is lowest (clubs, diamonds, hearts, spades, low to high) — the same
        tie-break as single-dummy advice (``docs/advice.md``)."""
        return self.optimal[0] if self.optimal else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: declarer, tricks, by_strain, optimal, recommended."""
        rec = self.recommended
        return {
            "declarer": self.declarer,
            "tricks": self.tricks,
            "by_strain": {t.name: v for t, v in self.by_strain.items()},
            "optimal": [c.to_dict() for c in self.optimal],
            "complete": self.complete,
            "recommended": rec.to_dict() if rec is not None else None,
        }

    def _goal(self) -> str:
        return "fewest tricks (misère)" if self.misere else "tricks"

    def _counted(self) -> str:
        if self.complete:
            return f"{len(self.optimal)} optimal choice(s)"
        return f"{len(self.optimal)} choice(s) proven optimal, others may tie"

    def __str__(self) -> str:
        lines = [f"Declarer {self.declarer} holds {self.held.pretty()}"]
        lines.append("Best per strain: " + "  ".join(f"{s.symbol} {v}" for s, v in self.by_strain.items()))
        lines.append(f"Optimum: {self.tricks} {self._goal()}; {self._counted()}:")
        for c in self.optimal:
            cards = " ".join(x.pretty() for x in c.discard)
            lines.append(f"  {c.strain.symbol}  discard {cards}  ({c.count} set(s))")
        return "\n".join(lines)

    def to_frame(self) -> pd.DataFrame:
        """One row per strain: its best value, whether it is optimal, the optimal discards.

        ``discards`` lists one representative discard per optimal class (``sets`` counts
        the discards they stand for); empty for a strain that is not optimal.
        """
        import pandas as pd

        rows = []
        for strain, value in self.by_strain.items():
            mine = [c for c in self.optimal if c.strain == strain]
            rows.append(
                {
                    "strain": strain.symbol,
                    "tricks": value,
                    "optimal": bool(mine),
                    "discards": [" ".join(x.pretty() for x in c.discard) for c in mine],
                    "sets": sum(c.count for c in mine),
                }
            )
        return pd.DataFrame(rows, columns=["strain", "tricks", "optimal", "discards", "sets"])

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{suit_html(c.strain.symbol)}</td>"
            f"<td>{suit_html(' '.join(x.pretty() for x in c.discard))}</td>"
            f"<td>{c.count}</td></tr>"
            for c in self.optimal
        )
        strains = "".join(f"<th>{suit_html(s.symbol)}</th>" for s in self.by_strain)
        values = "".join(f"<td>{v}</td>" for v in self.by_strain.values())
        return (
            f"<div><p>Declarer {self.declarer}: {suit_html(self.held.pretty())}</p>"
            f"<table><tr>{strains}</tr><tr>{values}</tr></table>"
            f"<p>Optimum: {self.tricks} {html.escape(self._goal())}; {html.escape(self._counted())}</p>"
            f"<table><tr><th>strain</th><th>discard</th><th>sets</th></tr>{rows}</table></div>"
        )


def _thread_solver(tt_mb: int | None, misere: bool) -> Solver:
    """This thread's engine for declarations, kept between calls (the engine's pool);
    ``tt_mb`` None: the default table, the misère one in misère.

    Why: a fresh table costs the kernel ~0.15 s of page zeroing on first touch (64 MiB),
    3% of a declaration; a caller declaring many deals (a bench, a match) pays it once.
    The table is cleared before each strain, so nothing carries over between calls.
    """
    # imported here so that the rest of the package loads without the C core
    from ..engine.pool import thread_solver
    from ..engine.solver import DEFAULT_TT_MB, MISERE_TT_MB

    if tt_mb is None:
        tt_mb = MISERE_TT_MB if misere else DEFAULT_TT_MB
    return thread_solver(tt_mb)


class Candidates:
    """What every question about a declaration starts from: the request, every argument
    checked (bad ones raise as :func:`declare` says), the
    discard classes CP-SAT hands out strain by strain (best estimate first), and a
    :class:`ScoreOracle` for each candidate, all on this thread's engine."""

    def __init__(
        self,
        deal: Deal,
        declarer: Seat | str,
        leader: Seat | str,
        strains: str | None,
        blind: bool,
        misere: bool,
        must_ruff: bool,
        progress: Progress | None,
        tt_mb: int | None,
    ) -> None:
        if not isinstance(deal, Deal):
            raise InvalidDealError(f"expected a Deal, got {type(deal).__name__}")
        self.seat, self.lead = Seat.parse(declarer), Seat.parse(leader)
        for name, flag in (("blind", blind), ("misere", misere), ("must_ruff", must_ruff)):
            check_flag(flag, name, EngineError)
        if strains is None:
            strains = "N" if misere else SUIT_CHARS
        self.strains = [s.name for s in parse_strains(strains)]
        check_progress(progress, EngineError)
        _check_widow(deal, blind)
        self.deal, self.misere, self.must_ruff, self.progress = deal, misere, must_ruff, progress
        self.k, w = deal.hand_size, len(deal.widow)
        own = deal.hands[self.seat]
        self.held = own | deal.widow
        opponents = [deal.hands[s] for s in Seat if s != self.seat]
        opp_all = opponents[0] | opponents[1]
        self.runs = discard_runs(self.held, own if blind else self.held, opp_all)
        weights = {t: card_weights(t, self.held, opp_all, misere) for t in self.strains}
        voids = {t: void_bonuses(t) for t in self.strains}
        # OR-Tools loads here, not at `import solver`, and a Ctrl-C cannot cut its import short
        model = import_holding_sigint("solver.declare.model")
        self.model = model.CandidateModel(self.runs, w, self.strains, weights, voids)
        self.total = count_classes(self.runs, w) * len(self.strains)
        self.engine = _thread_solver(tt_mb, misere)

    def order(self) -> list[str]:
        """The strains, the most promising top candidate first (so the best rises early)."""
        return sorted(self.strains, key=lambda t: -(self.model.best_estimate(t) or 0))

    def classes(self, strain: str) -> Iterator[DiscardClass]:
        """Every discard class of ``strain``, best estimate first."""
        for counts, _estimate in self.model.candidates(strain):
            yield make_class(self.runs, counts)

    def oracle(self, discard: tuple[Card, ...], strain: str) -> ScoreOracle:
        hands = list(self.deal.hands)
        hands[self.seat] = self.held - Hand(discard)
        return ScoreOracle(
            self.engine,
            Deal(hands),
            strain,
            seat=self.seat,
            leader=self.lead,
            misere=self.misere,
            must_ruff=self.must_ruff,
        )


class DeclarationInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`declare`: how far it got and the best choice settled so far.

    Why: a misère declaration can run for hours; what it proved before the Ctrl-C is worth
    saying. ``best`` (a :class:`Choice`, or None before any was proven) reaches
    ``tricks``, so the optimum is at least that good; that it is the optimum is not
    proven. In misère ``interval`` holds the optimum's tricks as far as they were proven.
    """

    def __init__(
        self,
        done: int,
        total: int,
        best: Choice | None,
        tricks: int | None,
        misere: bool,
        interval: Interval | None = None,
    ) -> None:
        super().__init__(f"interrupted after {done} of {total} candidates")
        self.done, self.total, self.best, self.tricks, self.misere = done, total, best, tricks, misere
        self.interval = interval  # the optimum's tricks, proven to lie in it (misère), or None


def declare(
    deal: Deal,
    *,
    declarer: Seat | str = "D",
    leader: Seat | str = "E",
    strains: str | None = None,
    blind: bool = False,
    misere: bool = False,
    must_ruff: bool = False,
    progress: Progress | None = None,
    narrowing: Narrowing | None = None,
    tt_mb: int | None = None,
    ties: bool = True,
) -> Declaration:
    """The exact best declaration for ``declarer`` and every choice that reaches it.

    ``strains`` defaults to the four trump suits, and with ``misere`` to no trump, the one
    strain every ruleset's fewest-tricks mode (MT, miz) is played in.
    ``progress(done, total)`` is called as candidates are settled (for a progress bar).
    In misère the classes of a strain are raced (:mod:`solver.declare.race`) and
    ``narrowing(interval, best)`` is called each time the optimum's proven interval of
    tricks narrows, ``best`` the choice proven to reach its lower end (None before any):
    once the interval is exact, an optimal choice is known while the ties are still
    being settled; ``ties=False`` stops there, with ``optimal`` the choices proven to
    reach the optimum so far (``complete`` False; in normal play every tie is settled
    anyway, cheaply). ``tt_mb`` is the engine's table (default 64 MiB, in misère 256: misère
    searches fill a small one). Raises :class:`~solver.errors.InvalidDealError` for a deal without a widow
    (or, when ``blind``, a widow larger than the hand) and a ``NotationError`` for bad
    strains/seats.
    """
    ask = Candidates(deal, declarer, leader, strains, blind, misere, must_ruff, progress, tt_mb)
    check_flag(ties, "ties", EngineError)
    k, strain_list = ask.k, ask.strains
    search = _Search(ties=ties or not misere)
    try:
        order = ask.order()
        for i, t in enumerate(order):
            ask.engine.clear()  # entries of a finished strain are never asked for again
            if misere:  # one question can take a thousand times another: race the classes
                search.race(t, ask, raced_last=i == len(order) - 1, narrowing=narrowing)
                continue
            for cls in ask.classes(t):
                search.settle(t, cls.discard, cls.size, ask.oracle(cls.discard, t))
                if progress is not None:
                    progress(search.done, ask.total)
    except KeyboardInterrupt:
        best, score = search.best_proven()
        tricks = None if score is None else (k - score if misere else score)
        raise DeclarationInterrupted(
            search.done, ask.total, best, tricks, misere, search.interval(k) if misere else None
        ) from None
    if search.done != ask.total:  # every class of every strain must have been settled
        raise InternalError(f"declaration search settled {search.done} of {ask.total} candidates")

    def tricks_of(score: int) -> int:
        return k - score if misere else score

    return Declaration(
        declarer=ask.seat.name,
        tricks=tricks_of(search.top),
        by_strain={Strain.parse(t): tricks_of(search.best[t]) for t in strain_list},
        optimal=search.optimal(),
        candidates_searched=search.searched,
        held=ask.held,
        misere=misere,
        blind=blind,
        classes=ask.total,
        complete=search.ties,
    )


def _check_widow(deal: Deal, blind: bool) -> None:
    k, w = deal.hand_size, len(deal.widow)
    if w == 0:
        raise InvalidDealError("the deal has no widow: a declaration needs widow cards to take and discard")
    if blind and w > k:
        raise InvalidDealError(f"blind discard of {w} cards from a hand of {k} is impossible")


@dataclass
class _Search:
    """Step 3 of the module docstring: the best exact score per strain so far (``best[T]``),
    the best over all strains (``top``, the docstring's ``G``), and every exact score found."""

    best: dict[str, int] = field(default_factory=dict)
    top: int = -1
    exact: list[tuple[str, tuple[Card, ...], int, int]] = field(
        default_factory=list
    )  # strain, discard, size, score
    searched: int = 0  # candidates that needed the engine
    done: int = 0  # candidates settled
    racing: StrainRace | None = None  # the strain being raced (misère)
    reached: tuple[Choice, int] | None = None  # the best choice a race proved, with its score
    unraced: bool = True  # strains not yet raced may hold any score
    shown: Interval | None = None  # the optimum's interval last reported
    ties: bool = True  # settle every class that may tie the optimum (misère: False stops at it)

    def settle(self, strain: str, discard: tuple[Card, ...], size: int, ask: ScoreOracle) -> None:
        """Settle one candidate class: its exact score, or a proof that it is below the best."""
        self._record(strain, discard, size, self._score(strain, ask), ask.used_engine)

    def _record(
        self, strain: str, discard: tuple[Card, ...], size: int, score: int | None, used: bool
    ) -> None:
        if score is not None:
            self.exact.append((strain, discard, size, score))
            self.best[strain] = max(self.best.get(strain, score), score)
            self.top = max(self.top, self.best[strain])
        self.searched += used
        self.done += 1

    def race(self, strain: str, ask: Candidates, raced_last: bool, narrowing: Narrowing | None) -> None:
        """Settle every class of ``strain``, their ceilings brought down together (:mod:`.race`)."""
        entries = []
        for cls in ask.classes(strain):
            oracle = ask.oracle(cls.discard, strain)
            entries.append(Entry(cls.discard, cls.size, oracle, oracle.lowest, oracle.highest))
        race = self.racing = StrainRace(entries, self.top, self.ties)
        self.unraced = not raced_last

        def settle(e: Entry) -> None:
            self._record(strain, e.discard, e.size, e.lo if e.exact else None, e.oracle.used_engine)
            if ask.progress is not None:
                ask.progress(self.done, ask.total)

        def narrowed() -> None:
            if self.reached is None or race.best > self.reached[1]:
                e = next(e for e in entries if e.lo == race.best)
                self.reached = (_choice(strain, e.discard, e.size), race.best)
            if narrowing is not None:
                now = self.interval(ask.k)
                if now != self.shown:
                    self.shown = now
                    narrowing(now, self.best_proven()[0])

        race.run(settle, narrowed)
        self.racing = None

    def interval(self, k: int) -> Interval:
        """The optimum's tricks in misère as proven so far: a race knows the ceilings of its
        classes; a strain not yet raced may hold any score."""
        lo = max(self.top, self.racing.best if self.racing else -1, 0)
        hi = k if self.unraced else max(self.top, self.racing.ceiling() if self.racing else -1)
        return Interval(k - hi, k - lo)

    def best_proven(self) -> tuple[Choice | None, int | None]:
        """The best choice proven so far and its score (None, None before any)."""
        optimal = self.optimal()
        if self.reached is not None and (not optimal or self.reached[1] > self.top):
            return self.reached
        return (optimal[0], self.top) if optimal else (None, None)

    def _score(self, strain: str, ask: ScoreOracle) -> int | None:
        if strain not in self.best:  # the first candidate of a strain is solved exactly
            return ask.exact(ask.trump_guess())
        best = self.best[strain]
        threshold = best + 1 if best < self.top else self.top
        if not ask.at_least(threshold):
            return None
        score = threshold
        while ask.at_least(score + 1):
            score += 1
        return score

    def optimal(self) -> list[Choice]:
        """Every class whose exact score is the optimum, in strain order, lowest discard first."""
        optimal = [_choice(t, disc, size) for t, disc, size, score in self.exact if score == self.top]
        optimal.sort(key=lambda c: (c.strain, [card_order(x) for x in c.discard]))
        return optimal


def _choice(strain: str, discard: tuple[Card, ...], size: int) -> Choice:
    return Choice(Strain.parse(strain), tuple(sorted(discard, key=card_order)), size)
