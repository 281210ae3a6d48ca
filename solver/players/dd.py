"""The double-dummy player: sees every card and lets the engine decide.

Declaring, it tries each allowed mode: the heuristic discards for that mode, then the
engine's value of the resulting deal for the declarer (tricks it can guarantee, or in
MT/miz the fewest it can hold itself to) turned into a net against its target; the
best net wins. Playing, it asks :func:`solver.engine.card_values` for every legal card
and plays the best one (the lowest of equals). Exchange choices use the heuristic
rules — the engine says nothing about hands not yet dealt out in full.

The engine is used only where each hand holds at most ``engine_cards`` cards in the
normal (most-tricks) modes and ``misere_engine_cards`` in the minimising ones (MT,
miz), because a misère search of a full deal still costs hundreds of times a normal
one; the heuristic decides before that. Declaring, a mode beyond its limit is not
searched: the heuristic's announcement is taken when it names such a mode, otherwise
the best of the searched modes. The registry's ``dd`` uses the engine for the whole
hand in normal modes and from ``MISERE_ENGINE_CARDS`` cards in misère (measured with
``bench/dd_player.py``, docs/players.md); ``dd-full`` uses it for everything.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card, Hand
from ..deal import Deal, Seat, Strain
from ..engine import Position, card_values, solve
from ..game.rules import MAX_TRICKS
from ..game.views import Announcement, DeclareView, PlayView
from ..modes import Mode
from .heuristic import HeuristicPlayer, choose_discards
from .random_player import card_at

#: The hand size from which the registry's ``dd`` searches misère (MT, miz) decisions:
#: the largest at which a misère decision's median cost stays within 5 times a normal
#: 16-card decision's (``python bench/dd_player.py``; figures in docs/players.md).
MISERE_ENGINE_CARDS = 13


class DoubleDummyPlayer(HeuristicPlayer):
    """Cheats by definition: ``sees_all`` gives it every hand in its views.

    ``engine_cards`` and ``misere_engine_cards`` (which defaults to ``engine_cards``)
    are the largest hand sizes at which normal and minimising modes use the engine."""

    sees_all = True

    def __init__(
        self,
        name: str,
        rng: Any,
        engine_cards: int = MAX_TRICKS,
        misere_engine_cards: int | None = None,
    ) -> None:
        super().__init__(name, rng)
        self.engine_cards = engine_cards
        self.misere_engine_cards = engine_cards if misere_engine_cards is None else misere_engine_cards

    def engine_limit(self, mode: Mode) -> int:
        """The largest hand size at which decisions in ``mode`` ask the engine."""
        return self.misere_engine_cards if mode.minimising else self.engine_cards

    # --- declaring ----------------------------------------------------------------------
    def declare(self, view: DeclareView) -> Announcement:
        if view.stage == "discard" or view.hands is None:
            return super().declare(view)
        rs = view.table.ruleset
        me = view.table.declarer
        best: tuple[float, Mode, tuple[Card, ...]] | None = None
        unsearched: set[Mode] = set()
        for mode in map(Mode, view.modes):
            minimise = mode.minimising
            discard: tuple[Card, ...] = ()
            hand = view.hand
            if view.stage == "both" and view.n_discard:
                pos = choose_discards(view.hand, view.n_discard, int(mode.strain), minimise)
                discard = tuple(card_at(p) for p in sorted(pos))
                hand &= ~sum(c.bit for c in discard)
            hands = list(view.hands)
            hands[me] = hand
            sizes = {h.bit_count() for h in hands}
            if len(sizes) != 1:
                return super().declare(view)
            if sizes.pop() > self.engine_limit(mode):
                unsearched.add(mode)
                continue
            deal = Deal([Hand(h) for h in hands])
            leader = rs.opening_leader(me)
            position = Position(deal, mode.strain, leader, (), minimise, rs.must_ruff)
            value = solve(position, seat=me)
            target = rs.target_of(me, mode)
            net = (target - value) if minimise else (value - target)
            if best is None or net > best[0]:
                best = (net, mode, discard)
        if unsearched:  # only the heuristic can judge those modes: follow it if it names one
            fallback = super().declare(view)
            if best is None or Mode(fallback.mode) in unsearched:
                return fallback
        assert best is not None
        return Announcement(best[1], best[2] if view.stage == "both" else ())

    # --- playing --------------------------------------------------------------------------
    def play(self, view: PlayView) -> Card:
        legal = view.legal
        if not legal & (legal - 1) or view.hands is None:
            return super().play(view)
        hands = list(view.hands)
        for k, card in enumerate(view.trick):  # the deal as it was when this trick began
            hands[(view.leader + k) % 3] |= card.bit
        mode = Mode(view.mode)
        if hands[0].bit_count() > self.engine_limit(mode):
            return super().play(view)
        minimise = mode.minimising
        rs = view.table.ruleset
        position = Position(
            Deal([Hand(h) for h in hands]),
            Strain(view.trump),
            leader=Seat(view.leader),
            played=tuple(view.trick),
            misere=minimise,
            must_ruff=rs.must_ruff,
        )
        values = card_values(position, seat=view.table.seat)
        sign = -1 if minimise else 1
        choices = [(sign * v, -c.rank, str(c), c) for c, v in values.items() if c.bit & legal]
        return max(choices)[3]
