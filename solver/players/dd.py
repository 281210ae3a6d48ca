"""The double-dummy player: sees every card and lets the engine decide.

Declaring, it tries each allowed mode: the heuristic discards for that mode, then the
engine's value of the resulting deal for the declarer (tricks it can guarantee, or in
MT/miz the fewest it can hold itself to) turned into a net against its target; the
best net wins. Playing, it asks :func:`solver.engine.card_values` for every legal card
and plays the best one (the lowest of equals). Exchange choices use the heuristic
rules — the engine says nothing about hands not yet dealt out in full.

``engine_cards`` limits the engine to positions where each hand holds at most that
many cards, falling back to the heuristic before that (declaring included): a full
16-card search can take seconds to a minute, so the registry's ``dd`` player uses the
engine from 12 cards a hand on and ``dd-full`` (``engine_cards=17``) for everything.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card, Hand
from ..deal import Deal, Seat, Strain
from ..game.modes import Mode
from ..game.views import Announcement, DeclareView, PlayView
from .heuristic import HeuristicPlayer, choose_discards
from .random_player import card_at

try:
    from ..engine import card_values, solve
except ImportError as exc:  # pragma: no cover - the engine is built separately
    raise ImportError(f"the dd player needs the double-dummy engine (solver.engine): {exc}") from exc


class DoubleDummyPlayer(HeuristicPlayer):
    """Cheats by definition: ``sees_all`` gives it every hand in its views."""

    sees_all = True

    def __init__(self, name: str, rng: Any, engine_cards: int = 17) -> None:
        super().__init__(name, rng)
        self.engine_cards = engine_cards

    # --- declaring ----------------------------------------------------------------------
    def declare(self, view: DeclareView) -> Announcement:
        if view.stage == "discard" or view.hands is None:
            return super().declare(view)
        rs = view.table.ruleset
        me = view.table.declarer
        best: tuple[float, Mode, tuple[Card, ...]] | None = None
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
            if len(sizes) != 1 or sizes.pop() > self.engine_cards:
                return super().declare(view)
            deal = Deal([Hand(h) for h in hands])
            leader = Seat.E if rs.first_leader == "eldest" else me
            value = solve(deal, mode.strain, leader=leader, seat=me, misere=minimise, must_ruff=rs.must_ruff)
            target = rs.target_of(me, mode)
            net = (target - value) if minimise else (value - target)
            if best is None or net > best[0]:
                best = (net, mode, discard)
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
        if hands[0].bit_count() > self.engine_cards:
            return super().play(view)
        minimise = Mode(view.mode).minimising
        rs = view.table.ruleset
        values = card_values(
            Deal([Hand(h) for h in hands]),
            Strain(view.trump),
            leader=view.leader,
            seat=view.table.seat,
            played=[str(c) for c in view.trick],
            misere=minimise,
            must_ruff=rs.must_ruff,
        )
        sign = -1 if minimise else 1
        choices = [(sign * v, -c.rank, str(c), c) for c, v in values.items() if c.bit & legal]
        return max(choices)[3]
