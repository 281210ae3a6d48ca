"""The Monte-Carlo player ``pimc``: decides from its own view by sampling and solving.

Perfect-information Monte Carlo, as bridge programs play: at each decision it deals the
cards it cannot see at random, consistently with what it knows, asks the double-dummy
engine about every legal card on each layout, and plays the card that reaches its target
on the most layouts (then the most tricks on average, then the lowest card).

What it knows: its own hand, its own discards, the cards it gave in the exchange (the
receiver holds them until they are played), every card played, and the voids it saw
(a seat that did not follow suit in a trick it watched; under must-ruff, one that did not
trump either). Layouts are drawn uniformly among those consistent with that
(:class:`solver.game.sampling.LayoutSampler`). Unlike ``dd`` it never looks at other hands.

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
from ..deal import Deal, Seat, Strain
from ..declare.discards import best_discard
from ..errors import SolverError
from ..game.modes import Mode
from ..game.sampling import Bin, ImpossibleViewError, LayoutSampler
from ..game.views import Announcement, DeclareView, PlayView
from .heuristic import HeuristicPlayer

try:
    from ..engine import Solver
except ImportError as exc:  # pragma: no cover - the engine is built separately
    raise ImportError(f"the pimc player needs the double-dummy engine (solver.engine): {exc}") from exc

SEATS = tuple(Seat)


class MonteCarloPlayer(HeuristicPlayer):
    """Sees only its own view; ``samples`` layouts per decision; the engine from
    ``engine_cards`` cards a hand on (the heuristic rules before)."""

    def __init__(self, name: str, rng: Any, samples: int = 16, engine_cards: int = 12) -> None:
        super().__init__(name, rng)
        self.samples = samples
        self.engine_cards = engine_cards
        self._engine = Solver(32)
        self._hand_key: Any = None
        self._voids: dict[Seat, set[int]] = {}
        self._discard = Hand()

    def _np_rng(self) -> np.random.Generator:
        return np.random.default_rng(self.rng.getrandbits(64))

    def _new_hand(self, table: Any) -> None:
        key = (table.hand_number, table.dealer)
        if key != self._hand_key:
            self._hand_key = key
            self._voids = {s: set() for s in SEATS}
            self._discard = Hand()

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
        leader = Seat.E if rs.first_leader == "eldest" else me
        others = [s for s in SEATS if s != me]
        sampler = LayoutSampler(rs.deck - held, [Bin(s.name, rs.hand_size) for s in others])
        rng = self._np_rng()
        layouts = [sampler.sample(rng) for _ in range(self.samples)]
        best: tuple[int, int, Mode, tuple[Card, ...]] | None = None
        for index, mode in enumerate(map(Mode, view.modes)):
            drop = best_discard(mode, held, held, rs.deck - held, view.n_discard) if view.n_discard else ()
            kept = held - Hand(drop)
            target = rs.target_of(me, mode)
            hits = 0
            for parts in layouts:
                hands = {me: kept, others[0]: parts[0], others[1]: parts[1]}
                deal = Deal([hands[s] for s in SEATS])
                hits += self._engine.can_reach(
                    deal,
                    mode.strain,
                    leader=leader,
                    seat=me,
                    target=target,
                    misere=mode.minimising,
                    must_ruff=rs.must_ruff,
                )
            key = (hits, -index, mode, tuple(sorted(drop)))
            if best is None or key[:2] > best[:2]:
                best = key
        assert best is not None
        self._discard = Hand(best[3])
        return Announcement(best[2], best[3])

    # --- playing --------------------------------------------------------------------------
    def play(self, view: PlayView) -> Card:
        self._new_hand(view.table)
        self._note_voids(view)
        legal = view.legal
        if not legal & (legal - 1) or view.hand.bit_count() > self.engine_cards:
            return super().play(view)
        try:
            layouts = self._layouts(view)
        except ImpossibleViewError:  # what it believes contradicts the play: fall back
            return super().play(view)
        rs = view.table.ruleset
        me = view.table.seat
        mode = Mode(view.mode)
        target = rs.target_of(me, mode)
        won = view.tricks[me]
        scores: dict[Card, list[int]] = {}
        for hands in layouts:
            try:
                values = self._engine.card_values(
                    Deal([hands[s] for s in SEATS]),
                    Strain(view.trump),
                    leader=view.leader,
                    seat=me,
                    played=list(view.trick),
                    misere=mode.minimising,
                    must_ruff=rs.must_ruff,
                )
            except SolverError:  # a belief the play contradicts (a card moved unseen): fall back
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

    def _note_voids(self, view: PlayView) -> None:
        if not view.trick:
            return
        led = view.trick[0].suit
        must_ruff = view.table.ruleset.must_ruff
        for k, card in enumerate(view.trick[1:], start=1):
            if card.suit != led:
                who = SEATS[(view.leader + k) % 3]
                self._voids[who].add(int(led))
                if must_ruff and view.trump != 4 and card.suit != view.trump:
                    self._voids[who].add(int(view.trump))

    def _layouts(self, view: PlayView) -> list[dict[Seat, Hand]]:
        """Sampled hands of every seat as they were when the current trick began."""
        rs = view.table.ruleset
        me = view.table.seat
        mine = Hand(view.hand)
        played = Hand(view.played)
        trick = {SEATS[(view.leader + k) % 3]: card for k, card in enumerate(view.trick)}
        # Where the exchange left the cards this seat saw move, in order; a card it gave
        # that came back, was played, or sits in a suit its holder has shown out of, is no
        # longer known to be there (it may have moved on in a transfer this seat did not see).
        where: dict[Card, Seat] = {}
        for transfer in view.table.exchange:
            where[transfer.card] = Seat(int(transfer.to))
        gave: dict[Seat, Hand] = {s: Hand() for s in SEATS}
        for card, holder in where.items():
            if (
                holder != me
                and card not in played
                and card not in mine
                and int(card.suit) not in self._voids.get(holder, set())
            ):
                gave[holder] = gave[holder].add(card)
        out_known = self._discard if me == view.table.declarer else Hand()
        others = [s for s in SEATS if s != me]
        unseen = rs.deck - mine - played - out_known
        bins = []
        for s in others:
            unseen = unseen - gave[s]
            left = len(mine) - (1 if s in trick else 0)
            voids = self._voids.get(s, set())
            bins.append(Bin(s.name, left - len(gave[s]), {suit: (0, 0) for suit in voids}))
        bins.append(Bin("out", len(unseen) - sum(b.size for b in bins)))
        sampler = LayoutSampler(unseen, bins)
        rng = self._np_rng()
        layouts = []
        for _ in range(self.samples):
            parts = sampler.sample(rng)
            hands = {me: mine | (Hand([trick[me]]) if me in trick else Hand())}
            for s, part in zip(others, parts):
                hands[s] = part | gave[s] | (Hand([trick[s]]) if s in trick else Hand())
            layouts.append(hands)
        return layouts
