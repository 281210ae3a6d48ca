"""The Monte-Carlo player ``pimc``: decides from its own view by sampling and solving.

Perfect-information Monte Carlo, as bridge programs play: at each decision it deals the
cards it cannot see at random, consistently with what it knows, asks the double-dummy
engine about every legal card on each layout, and plays the card that reaches its target
on the most layouts (then the most tricks on average, then the lowest card).

What it knows is a :class:`solver.game.knowledge.View`, the same model advice and the
single-dummy review use: its own hand, its own discards, the exchange as it saw it (where
each card it gave may be now), every card played, and the voids the play showed. Layouts
are drawn uniformly among those consistent with that. Unlike ``dd`` it never looks at
other hands.

Declaring (``pimc-full`` only, whose engine runs on full hands): for each allowed mode it
takes the estimate's best discard (:func:`solver.declare.discards.best_discard`) and
counts on ``samples`` layouts how often the engine says the target is reachable; the
most often wins. ``pimc`` uses the engine from 12 cards a hand on in every mode, and the
heuristic rules before that (declaring and exchanges included).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import Card, Hand
from ..deal import SEATS, Deal, Seat, Strain
from ..declare.discards import best_discard
from ..engine import Position, Solver
from ..errors import SolverError
from ..game.knowledge import View
from ..game.views import Announcement, DeclareView, PlayView
from ..modes import Mode
from .heuristic import HeuristicPlayer


class MonteCarloPlayer(HeuristicPlayer):
    """Sees only its own view; ``samples`` layouts per decision; the engine from
    ``engine_cards`` cards a hand on (the heuristic rules before)."""

    def __init__(self, name: str, rng: Any, samples: int = 16, engine_cards: int = 12) -> None:
        super().__init__(name, rng)
        self.samples = samples
        self.engine_cards = engine_cards
        self._engine = Solver(32)
        self._hand_key: Any = None
        self._voids: dict[Seat, frozenset[int]] = {}  # the voids of the last view built
        self._discard = Hand()
        self._mine = Hand()  # the cards this player has played in the hand so far

    def _np_rng(self) -> np.random.Generator:
        return np.random.default_rng(self.rng.getrandbits(64))

    def _new_hand(self, table: Any) -> None:
        key = (table.hand_number, table.dealer)
        if key != self._hand_key:
            self._hand_key = key
            self._voids = {}
            self._discard = Hand()
            self._mine = Hand()

    # --- declaring ----------------------------------------------------------------------
    def declare(self, view: DeclareView) -> Announcement:
        self._new_hand(view.table)
        rs = view.table.ruleset
        held = Hand(view.hand)
        if view.stage == "discard" and view.n_discard:
            mode = Mode(view.mode or view.modes[0])
            drop = best_discard(mode, held, held, rs.deck - held, view.n_discard)
            self._discard = Hand(drop)
            return Announcement(mode, tuple(sorted(drop)))
        if view.stage != "both" or rs.hand_size > self.engine_cards:
            choice = super().declare(view)
            self._discard = Hand(choice.discard)
            return choice
        me = view.table.declarer
        others = [s for s in SEATS if s != me]
        known = self._declaration_knowledge(view)
        rng = self._np_rng()
        layouts = [known.sample(rng).hands for _ in range(self.samples)]
        best: tuple[int, int, Mode, tuple[Card, ...]] | None = None
        for index, mode in enumerate(map(Mode, view.modes)):
            drop = best_discard(mode, held, held, rs.deck - held, view.n_discard) if view.n_discard else ()
            kept = held - Hand(drop)
            target = rs.target_of(me, mode)
            hits = 0
            for layout in layouts:
                hands = {me: kept, others[0]: layout[others[0]], others[1]: layout[others[1]]}
                deal = Deal([hands[s] for s in SEATS])
                position = Position(
                    deal,
                    mode.strain,
                    leader=known.first_leader,
                    misere=mode.minimising,
                    must_ruff=rs.must_ruff,
                )
                hits += self._engine.can_reach(position, seat=me, target=target)
            key = (hits, -index, mode, tuple(sorted(drop)))
            if best is None or key[:2] > best[:2]:
                best = key
        assert best is not None
        self._discard = Hand(best[3])
        return Announcement(best[2], best[3])

    def _declaration_knowledge(self, view: DeclareView) -> View:
        """What the declarer knows when it names the mode with every card it will hold in
        view: which of them were the widow makes no difference to what is hidden."""
        rs = view.table.ruleset
        cards = sorted(Hand(view.hand), key=lambda c: c.bit)
        k = rs.hand_size
        return View.for_declaration(
            Hand(cards[:k]),
            widow=Hand(cards[k:]) if rs.widow_size else None,
            seat=view.table.declarer,
            rules=rs,
            exchange=view.table.moves,
        )

    # --- playing --------------------------------------------------------------------------
    def play(self, view: PlayView) -> Card:
        self._new_hand(view.table)
        card = self._choose(view)
        self._mine = self._mine.add(card)
        return card

    def _choose(self, view: PlayView) -> Card:
        legal = view.legal
        if not legal & (legal - 1) or view.hand.bit_count() > self.engine_cards:
            return super().play(view)
        try:
            layouts = self._layouts(view)
        except SolverError:  # no record of the play to know from, or a contradiction: fall back
            return super().play(view)
        rs = view.table.ruleset
        me = view.table.seat
        mode = Mode(view.mode)
        target = rs.target_of(me, mode)
        won = view.tricks[me]
        scores: dict[Card, list[int]] = {}
        for hands in layouts:
            try:
                position = Position(
                    Deal([hands[s] for s in SEATS]),
                    Strain(view.trump),
                    leader=Seat(view.leader),
                    played=tuple(view.trick),
                    misere=mode.minimising,
                    must_ruff=rs.must_ruff,
                )
                values = self._engine.card_values(position, seat=me)
            except SolverError:  # a belief the play contradicts: fall back
                return super().play(view)
            for card, value in values.items():
                card = card if isinstance(card, Card) else Card.parse(str(card))
                tricks = won + value
                hit = tricks <= target if mode.minimising else tricks >= target
                total = scores.setdefault(card, [0, 0])
                total[0] += hit
                total[1] += -tricks if mode.minimising else tricks
        choices = [(s[0], s[1], -c.rank, str(c), c) for c, s in scores.items() if c.bit & legal]
        return max(choices)[4]

    def knowledge(self, view: PlayView) -> View:
        """What this player knows at ``view``, as the :class:`~solver.game.knowledge.View`."""
        if len(view.history) != view.played.bit_count():
            raise SolverError("the play view lacks the order of the cards played")
        me = view.table.seat
        rs = view.table.ruleset
        return View.for_play(
            Hand(view.hand) | self._mine,
            mode=Mode(view.mode),
            seat=me,
            rules=rs,
            played=list(view.history),
            discard=self._discard if me == view.table.declarer else (),
            exchange=view.table.moves,
        )

    def _layouts(self, view: PlayView) -> list[dict[Seat, Hand]]:
        """Sampled hands of every seat as they were when the current trick began."""
        known = self.knowledge(view)
        self._voids = dict(known.play_state().voids)
        rng = self._np_rng()
        return [known.sample(rng).hands for _ in range(self.samples)]
