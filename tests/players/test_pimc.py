"""The pimc player: legal play from its own view, sampled layouts that agree with what it saw."""

from __future__ import annotations

from solver.cards import Hand
from solver.deal import Seat
from solver.game.match import Match
from solver.game.rules import get_ruleset
from solver.players import get_player
from solver.players.pimc import MonteCarloPlayer

SEATS = (Seat.D, Seat.E, Seat.M)


class CheckedPimc(MonteCarloPlayer):
    """pimc that checks every set of layouts it samples against its own view."""

    checked = 0

    def _layouts(self, view):
        layouts = super()._layouts(view)
        mine = Hand(view.hand)
        played = Hand(view.played)
        trick = Hand(view.trick)
        for hands in layouts:
            sizes = {len(h) for h in hands.values()}
            assert len(sizes) == 1  # every hand as the trick began
            everyone = Hand()
            for h in hands.values():
                assert not (everyone & h)
                everyone = everyone | h
                assert not ((h - trick) & played)  # no card played before this trick is still held
            assert hands[view.table.seat] == mine
            for s, suits in self._voids.items():
                if s != view.table.seat:
                    for suit in suits:
                        assert not (hands[s] - trick).cards_in(suit)
        CheckedPimc.checked += 1
        return layouts


def test_pimc_never_sees_other_hands():
    player = get_player("pimc")
    assert isinstance(player, MonteCarloPlayer)
    assert player.sees_all is False


def test_pimc_plays_whole_matches_legally_from_sampled_layouts():
    import random

    rules = get_ruleset("twelve").with_options(hands_limit=2)
    players = [
        CheckedPimc("pimc", random.Random(1), samples=4, engine_cards=6),
        get_player("heuristic", 1, "h1"),
        get_player("heuristic", 2, "h2"),
    ]
    record = Match(rules, players, "pimc-test").play()  # the match engine rejects illegal cards
    assert record["hands"] and CheckedPimc.checked > 0


def test_pimc_full_declares_by_sampling():
    import random

    rules = get_ruleset("twelve").with_options(hands_limit=1)
    player = MonteCarloPlayer("pimc", random.Random(3), samples=2, engine_cards=17)
    players = [player, get_player("heuristic", 1, "h1"), get_player("heuristic", 2, "h2")]
    record = Match(rules, players, "pimc-declare").play()
    assert record["hands"][0]["dealer"] == 0  # player 0, the pimc player, declares
    decl = record["hands"][0]["declaration"]
    assert decl["mode"] in "SHDC" and len(decl["discard"]) == 4


class TruthCheckedPimc(MonteCarloPlayer):
    """pimc that is shown every hand (``sees_all``) only to check that what it knows
    admits the true layout at each decision; it decides from its own view as usual."""

    sees_all = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.views = 0
        self.fell_back = 0

    def _layouts(self, view):
        from solver.game.knowledge import Layout

        known = self.knowledge(view)
        trick = {SEATS[(view.leader + k) % 3]: c for k, c in enumerate(view.trick)}
        hands = {s: Hand(view.hands[s]) | (Hand([trick[s]]) if s in trick else Hand()) for s in SEATS}
        everyone = Hand()
        for h in view.hands:
            everyone = everyone | Hand(h)
        out = view.table.ruleset.deck - everyone - Hand(view.played)
        assert known.admits(Layout(hands, out, tuple(view.trick), view.leader))
        self.views += 1
        return super()._layouts(view)

    def _choose(self, view):
        legal = view.legal
        if legal & (legal - 1) and view.hand.bit_count() <= self.engine_cards:
            try:
                self.knowledge(view)
            except Exception:
                self.fell_back += 1
                raise
        return super()._choose(view)


def test_pimc_knows_where_the_cards_it_gave_went():
    """Under card-return and hungarian the exchange returns, passes on and feeds the
    declarer's discard; pimc's view admits the true layout at every decision it samples."""
    import random

    for preset in ("card-return", "hungarian"):
        rules = get_ruleset(preset).with_options(hands_limit=6, match_end="hands")
        players = [TruthCheckedPimc(f"p{i}", random.Random(i), samples=1, engine_cards=4) for i in range(3)]
        record = Match(rules, players, f"pimc-{preset}").play()
        assert any(h["exchange"] for h in record["hands"])
        assert sum(p.views for p in players) > 0 and not any(p.fell_back for p in players)


class DeclarationCheckedPimc(MonteCarloPlayer):
    """pimc-full shown every hand only to check its declaration view against the truth;
    it plays by the heuristic rules to keep the test short."""

    sees_all = True
    checked = 0

    def _declaration_knowledge(self, view):
        from solver.game.knowledge import Layout

        known = super()._declaration_knowledge(view)
        if view.hands is not None:
            me = view.table.declarer
            hands = {s: Hand(view.hands[s]) for s in SEATS}
            hands[me] = known.hand
            assert known.admits(Layout(hands, Hand(view.hand) - known.hand))
            DeclarationCheckedPimc.checked += 1
        return known

    def _choose(self, view):
        return super(MonteCarloPlayer, self).play(view)


def test_pimc_full_declares_from_what_the_exchange_showed():
    import random

    rules = get_ruleset("twelve").with_options(hands_limit=4)
    players = [
        DeclarationCheckedPimc(f"p{i}", random.Random(i), samples=1, engine_cards=17) for i in range(3)
    ]
    record = Match(rules, players, "pimc-full-exchange").play()
    assert any(h["exchange"] for h in record["hands"][1:]) and DeclarationCheckedPimc.checked >= 2
