"""The ``dd`` player's engine limits, per mode: whole hands in the normal modes, misère
(MT, miz) only from ``MISERE_ENGINE_CARDS`` cards a hand; ``dd-full`` everywhere.

A stub stands in for the engine so that a 16-card misère decision costs nothing and
each call is counted; the stub's answers differ from the heuristic's, so the card or
mode chosen also shows who decided.
"""

from __future__ import annotations

import random

import pytest

from solver.cards import Card, Hand
from solver.deal import Deal, Seat
from solver.engine import Position
from solver.engine import solve as solver_solve
from solver.game.match import Match
from solver.game.rules import get_ruleset
from solver.game.views import DeclareView, PlayView, Table
from solver.modes import Mode
from solver.players import dd, get_player
from solver.players.heuristic import HeuristicPlayer, choose_mode

MISERE_ENGINE_CARDS = dd.MISERE_ENGINE_CARDS
MIZ = get_ruleset("miz")  # S H D C N and miz


class StubEngine:
    """Counts the player's engine calls, by hand size and misère flag."""

    def __init__(self, favourite: Card | Mode | None = None) -> None:
        self.favourite = favourite
        self.misere_value = 0  # every misère mode's value
        self.calls: list[tuple[str, int, bool]] = []

    def best_card(self, position: Position, *, seat) -> tuple[Card, int]:
        self.calls.append(("best_card", len(position.deal.hands[0]), position.misere))
        card = self.favourite
        assert isinstance(card, Card) and card in position.deal.hands[position.mover]
        return card, 0 if position.misere else 5

    def solve(self, position: Position, *, seat) -> int:
        self.calls.append(("solve", len(position.deal.hands[0]), position.misere))
        if position.misere:
            return self.misere_value
        return 8 if Mode(position.strain.name) == self.favourite else 0

    def can_reach(self, position: Position, *, seat, target: int) -> bool:
        self.calls.append(("can_reach", len(position.deal.hands[0]), position.misere))
        assert position.misere  # only misère modes are asked the cheap question
        return self.misere_value <= target

    def searched(self, misere: bool) -> int:
        return sum(m == misere for _, _, m in self.calls)


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> StubEngine:
    engine = StubEngine()
    monkeypatch.setattr(dd, "best_card", engine.best_card)
    monkeypatch.setattr(dd, "solve", engine.solve)
    monkeypatch.setattr(dd, "can_reach", engine.can_reach)
    return engine


def lead_view(mode: Mode, cards: int, seed: int = 1) -> PlayView:
    """Eldest's lead to the first trick of a seeded deal of ``cards`` cards a hand."""
    deal = Deal.random(seed=seed, hand_size=cards)
    hands = (deal.hands[0].mask, deal.hands[1].mask, deal.hands[2].mask)
    table = Table(MIZ, 1, 0, int(Seat.E), Seat.E, MIZ.targets, MIZ.declarer, (0, 0, 0))
    trump = 4 if mode.trump is None else int(mode.trump)
    return PlayView(table, hands[1], hands[1], (), Seat.E, trump, mode, (0, 0, 0), 0, 1, hands)


def not_the_heuristics_card(view: PlayView) -> Card:
    heuristic = HeuristicPlayer("h", random.Random(0)).play(view)
    return next(c for c in Hand(view.hand) if c != heuristic)


@pytest.mark.parametrize(
    "kind, mode, cards, searched",
    [
        ("dd", Mode.S, 16, True),  # normal modes: the whole hand
        ("dd", Mode.N, 16, True),
        ("dd", Mode.miz, 16, False),  # misère: only from MISERE_ENGINE_CARDS on
        ("dd", Mode.MT, 16, False),
        ("dd", Mode.miz, MISERE_ENGINE_CARDS + 1, False),
        ("dd", Mode.miz, MISERE_ENGINE_CARDS, True),
        ("dd", Mode.MT, MISERE_ENGINE_CARDS, True),
        ("dd-full", Mode.miz, 16, True),
    ],
)
def test_play_asks_the_engine_by_mode_and_hand_size(stub, kind, mode, cards, searched):
    view = lead_view(mode, cards)
    stub.favourite = not_the_heuristics_card(view)
    chosen = get_player(kind, 0).play(view)
    assert stub.calls == ([("best_card", cards, mode.minimising)] if searched else [])
    heuristic = HeuristicPlayer("h", random.Random(0)).play(view)
    assert chosen == (stub.favourite if searched else heuristic)


def declare_view(cards: int, weak: bool, ruleset=MIZ) -> DeclareView:
    """The dealer names a mode on a seeded deal whose dealer hand the heuristic would
    play in misère (``weak``) or in a trump suit."""
    for seed in range(500):
        deal = Deal.random(seed=seed, hand_size=cards)
        hands = (deal.hands[0].mask, deal.hands[1].mask, deal.hands[2].mask)
        modes = ruleset.allowed_modes()
        picked = choose_mode(hands[0], modes, ruleset.targets[0], cards)
        if picked.minimising == weak:
            table = Table(ruleset, 1, 0, 0, Seat.D, ruleset.targets, Seat.D, (0, 0, 0))
            return DeclareView(table, "mode", hands[0], hands[0], modes, 0, None, hands)
    raise AssertionError("no seeded deal fits")  # pragma: no cover


def test_declaring_on_full_hands_searches_the_normal_modes_only(stub):
    stub.favourite = Mode.H
    view = declare_view(16, weak=False)
    assert get_player("dd", 0).declare(view).mode == Mode.H  # the engine's best, not the heuristic's guess
    assert stub.searched(misere=False) == 5 and stub.searched(misere=True) == 0


def test_declaring_follows_the_heuristic_into_an_unsearched_misere(stub):
    stub.favourite = Mode.H
    view = declare_view(16, weak=True)
    assert get_player("dd", 0).declare(view).mode == Mode.miz
    assert stub.searched(misere=True) == 0


@pytest.mark.parametrize("kind, cards", [("dd", MISERE_ENGINE_CARDS), ("dd-full", 16)])
def test_declaring_searches_misere_within_the_limit(stub, kind, cards):
    stub.favourite = Mode.H  # misère value 0: no trick against a maximum of 3, a net of +3
    view = declare_view(cards, weak=False)
    assert get_player(kind, 0).declare(view).mode == Mode.miz
    assert stub.searched(misere=False) == 5
    # asked whether it beats the best normal mode, then solved: it does
    assert [c for c, _, m in stub.calls if m] == ["can_reach", "solve"]


def test_a_misere_mode_that_cannot_win_is_never_solved(stub):
    stub.favourite = Mode.H
    stub.misere_value = 3  # miz nets 0 against the maximum of 3: the hearts' net is higher
    view = declare_view(MISERE_ENGINE_CARDS, weak=False)
    assert get_player("dd", 0).declare(view).mode == Mode.H
    assert [c for c, _, m in stub.calls if m] == ["can_reach"]


def test_a_whole_match_with_the_real_engine_on_full_hands():
    """Every decision of a normal-mode hand goes to the engine: legal and finished."""
    players = [get_player("dd", 1), get_player("heuristic", 2), get_player("dd", 3)]
    record = Match(get_ruleset("twelve", hands_limit=1, win_tricks=16), players, 5).play()
    assert len(record["hands"]) == 1


@pytest.mark.parametrize("cards, weak", [(6, True), (6, False), (8, True), (8, False)])
def test_declaring_picks_the_best_net_as_if_every_mode_were_solved(cards, weak):
    """The cheap question for the misère modes changes no choice (the real engine)."""
    view = declare_view(cards, weak=weak)
    assert view.hands is not None
    me = view.table.declarer
    rs = view.table.ruleset
    nets = []
    for mode in map(Mode, view.modes):
        position = Position(
            Deal([Hand(h) for h in view.hands]),
            mode.strain,
            rs.opening_leader(me),
            (),
            mode.minimising,
            rs.must_ruff,
        )
        value = solver_solve(position, seat=me)
        nets.append(rs.target_of(me, mode) - value if mode.minimising else value - rs.target_of(me, mode))
    expected = Mode(view.modes[nets.index(max(nets))])
    assert get_player("dd-full", 0).declare(view).mode == expected
