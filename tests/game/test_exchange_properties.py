"""Property tests: every protocol conserves cards, moves exactly the overtricks, replays."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Hand
from solver.deal import Deal
from solver.game.exchange import apply_exchange, cards_moved, check_exchange, exchange_plan
from solver.game.rules import get_ruleset

PRESETS = ["british", "twelve", "card-return", "hungarian", "double-payment", "no-widow", "6-3-8"]


class RandomDecider:
    """Uniformly random legal answers (a seeded stand-in for the random player)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def name_suit(self, req):
        return self.rng.choice(req.suits)

    def give_card(self, req):
        return self.rng.choice(list(req.allowed))


@st.composite
def scenarios(draw):
    preset = draw(st.sampled_from(PRESETS))
    r = get_ruleset(preset)
    n = r.tricks_per_hand
    a = draw(st.integers(0, n))
    b = draw(st.integers(0, n - a))
    tricks = (a, b, n - a - b)
    nets = tuple(tricks[s] - r.targets[s] for s in range(3))
    seed = draw(st.integers(0, 2**32 - 1))
    trump = draw(st.sampled_from("SHDC")) if r.trump_named_before_exchange else None
    return r, nets, seed, trump


@settings(max_examples=150, deadline=None)
@given(scenarios())
def test_exchange_conserves_cards_moves_the_overtricks_and_replays(scenario):
    r, nets, seed, trump = scenario
    deal = Deal.random(seed, hand_size=r.hand_size, widow_size=r.widow_size, deck=list(r.deck))
    plan = exchange_plan(nets, r)
    surplus = sum(x for x in nets if x > 0)
    assert sum(n for _, _, n in plan) == surplus * (2 if r.double_payment else 1)
    new_hands, log = apply_exchange(deal.hands, plan, r, RandomDecider(seed), trump)
    # Conservation: the same cards overall, every hand keeps its size, nothing duplicated.
    before = Hand()
    for h in deal.hands:
        before = before | h
    after = Hand()
    for h in new_hands:
        assert not (after & h)
        after = after | h
    assert after == before
    assert [len(h) for h in new_hands] == [len(h) for h in deal.hands]
    # Exactly the overtricks (x2 with double payment) pass from the down to the up players,
    # and as many cards go back.
    assert cards_moved(log, plan) == sum(n for _, _, n in plan)
    assert len(log) == 2 * cards_moved(log, plan)
    assert all(nets[t.to] > 0 for t in log if nets[t.frm] < 0)
    # A record of the exchange replays to the same hands.
    assert check_exchange(deal.hands, plan, r, log, trump) == new_hands
