"""Single-dummy review: each card of a played hand judged from what its player knew then.

The double-dummy review (:mod:`.review`) judges a card against every hand face up; a
player at the table could not see them. Here each card is judged by play advice
(:func:`.advice.advise_play`) from the playing seat's :class:`~solver.game.knowledge.View` at
that moment — its own hand, its own discards, the cards it passed, the play so far and the
voids it showed — and flagged when it lowered the seat's estimated chance of reaching its
target by more than ``threshold`` against the best card by the same estimate. Forced
cards (one legal card) are not judged. Card ``k`` of trick ``t`` uses the seed
``"{seed}:{t}.{k}"``, so any single judgement can be repeated on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..deal import Seat
from ..engine.pool import Interrupted
from ..errors import RecordError, SolverError
from ..game.handfile import HandRecord
from ..game.knowledge import View
from ..tricks import legal_mask
from .advice import Candidate, advise_play
from .review import _hands_of

__all__ = ["CardJudgement", "SingleDummyReview", "played_hand", "single_dummy_review"]


def played_hand(source: Any, hand: int | None = None, *, how: str = "hand=N") -> HandRecord:
    """One played hand to judge from its players' views: a hand file (path or text), or
    hand ``hand`` (1-based) of a match record (path, text or loaded). ``how`` names the
    way to choose a hand in the error for a record given without one."""
    hands, _ = _hands_of(source, hand)
    if len(hands) != 1:
        raise RecordError(f"the match record holds {len(hands)} hands: choose one with {how}")
    return hands[0]


@dataclass(frozen=True)
class CardJudgement:
    """One card: its estimate and the best card's, from the seat's view before it."""

    trick: int
    card_index: int  # 1-based within the trick
    seat: str
    card: str
    best: str
    p_played: float
    p_best: float
    mean_played: float | None
    mean_best: float | None
    samples: int
    flagged: bool

    @property
    def drop(self) -> float:
        return round(self.p_best - self.p_played, 4)

    def to_dict(self) -> dict[str, Any]:
        return {
            "trick": self.trick,
            "card_index": self.card_index,
            "seat": self.seat,
            "card": self.card,
            "best": self.best,
            "p_played": self.p_played,
            "p_best": self.p_best,
            "drop": self.drop,
            "mean_played": self.mean_played,
            "mean_best": self.mean_best,
            "samples": self.samples,
            "flagged": self.flagged,
        }


@dataclass
class SingleDummyReview:
    """The judged cards of one hand; ``flagged`` lists those over the threshold."""

    rules: str
    contract: str
    samples: int
    seed: int | str
    threshold: float
    cards: list[CardJudgement] = field(default_factory=list)
    forced: int = 0
    partial: bool = False

    @property
    def flagged(self) -> list[CardJudgement]:
        return [c for c in self.cards if c.flagged]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "single-dummy-review",
            "rules": self.rules,
            "contract": self.contract,
            "samples": self.samples,
            "seed": self.seed,
            "threshold": self.threshold,
            "judged": len(self.cards),
            "forced": self.forced,
            "partial": self.partial,
            "flagged": [c.to_dict() for c in self.flagged],
            "cards": [c.to_dict() for c in self.cards],
        }


def _p(c: Candidate) -> float:
    return round(c.p_target, 4)


def single_dummy_review(
    record: HandRecord,
    *,
    samples: int = 32,
    seed: int | str = 0,
    threshold: float = 0.1,
    workers: int | None = None,
    scheduler: Any = None,
    progress: Callable[[int, int], None] | None = None,
) -> SingleDummyReview:
    """Judge every unforced card of ``record`` from its player's view (see the module docstring).

    Ctrl-C returns the cards judged so far with ``partial=True``.
    """
    if not isinstance(record, HandRecord):
        raise SolverError(
            f"single_dummy_review needs a HandRecord (solver.load_hand), got {type(record).__name__}"
        )
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold <= 1:
        raise SolverError(f"threshold must be a probability from 0 to 1, got {threshold!r}")
    out = SingleDummyReview(record.ruleset.name, str(record.contract), samples, seed, float(threshold))
    points = [(t, k) for t, trick in enumerate(record.tricks, start=1) for k in range(1, len(trick) + 1)]
    for done, (t, k) in enumerate(points):
        if progress is not None:
            progress(done, len(points))
        view = View.from_hand_record(record, t, k)
        state = view.play_state()
        left = view.hand - state.played_by[view.seat]
        led = state.trick[0].suit if state.trick else -1
        legal = legal_mask(left.mask, int(led), view.trump, view.rules.must_ruff)
        if not legal & (legal - 1):
            out.forced += 1
            continue
        played = record.tricks[t - 1][k - 1]
        try:
            advice = advise_play(
                view, samples=samples, seed=f"{seed}:{t}.{k}", workers=workers, scheduler=scheduler
            )
        except (KeyboardInterrupt, Interrupted):
            out.partial = True
            break
        if advice.partial:
            out.partial = True
            break
        by_card = {c.card: c for c in advice.candidates}
        best = advice.candidates[0]
        mine = by_card[str(played)]
        out.cards.append(
            CardJudgement(
                trick=t,
                card_index=k,
                seat=Seat(view.seat).name,
                card=str(played),
                best=str(best.card),
                p_played=_p(mine),
                p_best=_p(best),
                mean_played=mine.to_dict()["mean_tricks"],
                mean_best=best.to_dict()["mean_tricks"],
                samples=mine.samples,
                flagged=_p(best) - _p(mine) > threshold,
            )
        )
    if progress is not None and not out.partial:
        progress(len(points), len(points))
    return out
