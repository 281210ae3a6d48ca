"""The double-dummy player: sees every card and lets the engine decide.

Declaring, it tries each allowed mode: the heuristic discards for that mode, then the
engine's value of the resulting deal for the declarer (tricks it can guarantee, or in
MT/miz the fewest it can hold itself to) turned into a net against its target; the
best net wins. Playing, it asks :func:`solver.engine.best_card` for the lowest of the
cards that keep its value (one exact value and a null-window search a card, not an
exact value for every card, as :func:`~solver.engine.card_values` would). Exchange choices use the heuristic
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
from ..engine import Position, best_card, can_reach, solve
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
        searched: list[tuple[Mode, tuple[Card, ...], Position]] = []
        unsearched: set[Mode] = set()
        for mode in map(Mode, view.modes):
            discard: tuple[Card, ...] = ()
            hand = view.hand
            if view.stage == "both" and view.n_discard:
                pos = choose_discards(view.hand, view.n_discard, int(mode.strain), mode.minimising)
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
            leader = rs.opening_leader(me)
            deal = Deal([Hand(h) for h in hands])
            searched.append(
                (mode, discard, Position(deal, mode.strain, leader, (), mode.minimising, rs.must_ruff))
            )
        nets = self._nets(searched, me, rs)
        best = max(nets, key=lambda i: (nets[i], -i), default=None)  # the first of equal nets
        if unsearched:  # only the heuristic can judge those modes: follow it if it names one
            fallback = super().declare(view)
            if best is None or Mode(fallback.mode) in unsearched:
                return fallback
        assert best is not None
        mode, discard, _ = searched[best]
        return Announcement(mode, discard if view.stage == "both" else ())

    @staticmethod
    def _nets(searched: list[tuple[Mode, tuple[Card, ...], Position]], me: Seat, rs: Any) -> dict[int, int]:
        """Each searched mode's net (tricks against its target), by index in ``searched``,
        for the modes that can be the best. The normal modes are solved exactly first;
        a minimising mode is then asked only whether it beats them (one null-window
        search, cheap when it does not: the coalition's proof), and solved exactly only
        if it does. A mode left out is beaten, so the choice is the same as with every
        net exact."""
        nets: dict[int, int] = {}
        for i, (mode, _, position) in enumerate(searched):
            if not mode.minimising:
                nets[i] = solve(position, seat=me) - rs.target_of(me, mode)
        for i, (mode, _, position) in enumerate(searched):
            if not mode.minimising:
                continue
            target = rs.target_of(me, mode)
            earlier = [n + 1 for j, n in nets.items() if j < i]  # an earlier mode wins ties
            later = [n for j, n in nets.items() if j > i]
            if earlier or later:
                need = max(earlier + later)  # the net that beats every mode known so far
                if not can_reach(position, seat=me, target=target - need):
                    continue
            nets[i] = target - solve(position, seat=me)
        return nets

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
        card, _ = best_card(position, seat=view.table.seat)
        return card
