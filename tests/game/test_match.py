"""The match loop: accounting, legality, exchange counts, rotation, reproducibility."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from match_audit import SEATS, audit_hand
from solver.cards import Card, Suit
from solver.errors import IllegalPlayError, InternalError
from solver.game.match import HandState, Match
from solver.game.records import MatchRecord
from solver.game.rules import PRESETS, get_ruleset
from solver.game.scoring import hand_points
from solver.game.views import Announcement
from solver.players import HeuristicPlayer, get_player

PRESET_NAMES = sorted(PRESETS)


def play(preset: str, seed, kinds=("random", "heuristic", "random")) -> MatchRecord:
    players = [get_player(k, f"{seed}:{i}") for i, k in enumerate(kinds)]
    return Match(get_ruleset(preset), players, seed, preset=preset).play()


def check_record(record: Mapping[str, Any], preset: str) -> None:
    """Every property a finished match must have, checked independently of the engine."""
    rs = get_ruleset(preset)
    hands = record["hands"]
    first = hands[0]["dealer"]
    totals = [0, 0, 0]
    prev_nets = None
    for k, h in enumerate(hands):
        number = k + 1
        assert h["dealer"] == (first + k) % 3, f"hand {number}: the deal did not pass to the left"
        facts = audit_hand(h, rs, number)
        assert facts["tricks"] == h["tricks"], f"hand {number}: trick counts"
        nets = [h["nets"][s] for s in SEATS]
        assert sum(nets) == 0, f"hand {number}: nets {nets} do not sum to zero"
        assert sum(h["tricks"].values()) == rs.hand_size
        points = hand_points(nets, rs)
        for s in range(3):
            totals[(h["dealer"] + s) % 3] += points[s]
        # the exchange moves as many cards from down to up players as there were overtricks
        if prev_nets is not None and rs.exchange_in_mode(facts["mode"]):
            by_seat = {s: prev_nets[(h["dealer"] + i) % 3] for i, s in enumerate(SEATS)}
            paid = sum(1 for t in h["exchange"] if by_seat[t["from"]] < 0 < by_seat[t["to"]])
            owed = sum(v for v in by_seat.values() if v > 0) * (2 if rs.double_payment else 1)
            if rs.exchange == "hungarian":
                assert paid <= owed  # a trade stops early when the up player holds only trumps
            else:
                assert paid == owed, f"hand {number}: {paid} cards paid for {owed} overtricks"
        elif prev_nets is None or rs.exchange == "none":
            assert h["exchange"] == []
        prev_nets = [h["nets"][SEATS[(p - h["dealer"]) % 3]] for p in range(3)]
        decl = h["declaration"]
        assert decl["declarer"] == rs.declarer.name
        assert decl["mode"] in rs.modes
        assert len(decl["discard"]) == (rs.widow_size if rs.widow != "none" else 0)
    assert record["result"]["totals"] == totals
    assert record["result"]["winner"] in (None, 0, 1, 2)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_each_preset_plays_a_legal_match(preset):
    check_record(play(preset, 7, ("heuristic", "random", "heuristic")), preset)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), preset=st.sampled_from(PRESET_NAMES))
def test_random_matches_keep_every_invariant(seed, preset):
    check_record(play(preset, seed), preset)


def test_same_seed_same_match_and_different_seed_differs():
    a = play("twelve", 11, ("heuristic", "heuristic", "random"))
    b = play("twelve", 11, ("heuristic", "heuristic", "random"))
    c = play("twelve", 12, ("heuristic", "heuristic", "random"))
    assert a == b
    assert a["hands"][0]["dealt"] != c["hands"][0]["dealt"]


def test_first_lead_follows_the_ruleset():
    for preset, expected in (("twelve", "E"), ("card-return", "D"), ("hungarian", "E")):
        rec = play(preset, 3)
        rs = get_ruleset(preset)
        for k, h in enumerate(rec["hands"], 1):
            assert audit_hand(h, rs, k)["first_leader"] == expected


def test_hungarian_schedule_uses_each_mode_once_per_game_leader():
    rec = play("hungarian", 5, ("heuristic", "heuristic", "random"))
    rs = get_ruleset("hungarian")
    assert len(rec["hands"]) == 18
    used: dict[int, list[str]] = {0: [], 1: [], 2: []}
    for h in rec["hands"]:
        used[(h["dealer"] + rs.declarer) % 3].append(h["declaration"]["mode"])
    for modes in used.values():
        assert sorted(modes) == sorted(rs.modes)


def test_accounting_check_catches_a_lost_card():
    st_ = HandState(deck=0b111, hands=[0b1, 0b10, 0], widow=0, number=4)
    with pytest.raises(InternalError, match="hand 4, trick 2: card accounting broken"):
        st_.check("trick 2")
    st_ = HandState(deck=0b111, hands=[0b1, 0b11, 0b100], widow=0, number=1)
    with pytest.raises(InternalError, match="accounting"):
        st_.check("deal")  # a card in two places


# --- players that break the rules ----------------------------------------------------------
class Revoker(HeuristicPlayer):
    def play(self, view):
        off = view.hand & ~view.legal
        if off:
            return Card.from_bit(off & -off)
        return super().play(view)


class BadDeclarer(HeuristicPlayer):
    def __init__(self, name, rng, mode=None, short=False):
        super().__init__(name, rng)
        self.mode, self.short = mode, short

    def declare(self, view):
        d = super().declare(view)
        if self.mode:
            return Announcement(self.mode, d.discard)
        if self.short and d.discard:
            return Announcement(d.mode, d.discard[:-1])
        return d


def heur(i):
    return get_player("heuristic", i)


def test_revoke_is_rejected_with_hand_trick_and_card():
    import random

    players = [Revoker("cheat", random.Random(1)), heur(1), heur(2)]
    with pytest.raises(IllegalPlayError, match=r"hand \d+, trick \d+: cheat \(\w\) played \w\w: revoke"):
        Match(get_ruleset("twelve"), players, 1).play()


def test_card_not_in_hand_is_rejected():
    import random

    class Outsider(HeuristicPlayer):
        def play(self, view):
            outside = ~(view.hand | view.played) & ((1 << 64) - 1)
            for s in range(4):
                for r in range(13):
                    bit = 1 << (16 * s + r)
                    if outside & bit:
                        return Card(Suit(s), r + 2)
            raise AssertionError

    players = [heur(0), Outsider("ghost", random.Random(1)), heur(2)]
    with pytest.raises(
        IllegalPlayError, match=r"trick \d+: ghost \(\w\) played \w\w, which is not in the hand"
    ):
        Match(get_ruleset("twelve"), players, 1).play()


def test_declaring_a_mode_the_rules_do_not_allow_is_rejected():
    import random

    players = [BadDeclarer("bad", random.Random(1), mode="N"), heur(1), heur(2)]
    with pytest.raises(
        IllegalPlayError, match=r"hand 1: declarer bad .* named mode 'N'; allowed: S, H, D, C"
    ):
        Match(get_ruleset("twelve"), players, 1, first_dealer=0).play()


def test_wrong_number_of_discards_is_rejected():
    import random

    players = [BadDeclarer("bad", random.Random(1), short=True), heur(1), heur(2)]
    with pytest.raises(IllegalPlayError, match="must discard 4"):
        Match(get_ruleset("british"), players, 1, first_dealer=0).play()


def test_illegal_exchange_choice_is_rejected():
    import random

    class Greedy(HeuristicPlayer):
        def give_card(self, view):  # tries to give a card it may not give
            forbidden = view.hand & ~view.allowed
            if forbidden:
                return Card.from_bit(forbidden & -forbidden)
            outside = next(c for s in range(4) for c in [Card(Suit(s), 14)] if not view.hand & c.bit)
            return outside

    players = [Greedy(f"g{i}", random.Random(i)) for i in range(3)]
    with pytest.raises(IllegalPlayError, match=r"hand \d+, exchange: "):
        Match(get_ruleset("twelve"), players, 2).play()


# --- what players are told -----------------------------------------------------------------
class Spy(HeuristicPlayer):
    def __init__(self, name, rng, sees_all=False):
        super().__init__(name, rng)
        self.sees_all = sees_all
        self.views = []

    def declare(self, view):
        self.views.append(view)
        return super().declare(view)

    def give_card(self, view):
        self.views.append(view)
        return super().give_card(view)

    def name_suit(self, view):
        self.views.append(view)
        return super().name_suit(view)

    def play(self, view):
        self.views.append(view)
        assert view.legal and view.legal & ~view.hand == 0
        return super().play(view)


def test_views_show_only_what_a_player_may_know():
    import random

    spies = [
        Spy("a", random.Random(0)),
        Spy("b", random.Random(1), sees_all=True),
        Spy("c", random.Random(2)),
    ]
    rec = Match(get_ruleset("twelve"), spies, 4).play()
    assert all(v.hands is None for v in spies[0].views + spies[2].views)
    assert all(v.hands is not None for v in spies[1].views)
    # received exchange cards are known to the receiver in its later views
    received = 0
    for spy in spies:
        for v in spy.views:
            if type(v).__name__ == "PlayView":
                for t in v.table.exchange:
                    assert spy is spies[v.table.me]
                    assert v.table.seat in (t.frm, t.to)
                    received += 1
    assert received > 0 or all(not h["exchange"] for h in rec["hands"])


def test_players_rotate_seats_clockwise():
    import random

    spies = [Spy(n, random.Random(i)) for i, n in enumerate("abc")]
    rec = Match(get_ruleset("casual"), spies, 9, first_dealer=1).play()
    for p, spy in enumerate(spies):
        for v in spy.views:
            number = v.table.hand_number
            dealer = rec["hands"][number - 1]["dealer"]
            assert dealer == (1 + number - 1) % 3
            assert v.table.seat == (p - dealer) % 3


def test_must_ruff_is_enforced():
    import random

    class NoRuff(HeuristicPlayer):
        def play(self, view):
            if view.trick and view.trump != 4 and not view.hand & (0x1FFF << (16 * view.trick[0].suit)):
                other = view.hand & ~(0x1FFF << (16 * view.trump))
                if other and view.hand & (0x1FFF << (16 * view.trump)):
                    return Card.from_bit(other & -other)
            return super().play(view)

    players = [NoRuff("lazy", random.Random(1)), heur(1), heur(2)]
    with pytest.raises(IllegalPlayError, match=r"trick \d+: lazy \(\w\) played \w\w: must ruff"):
        Match(get_ruleset("hungarian"), players, 1).play()
    # the same player is legal when the rules do not force a ruff
    players = [NoRuff("lazy", random.Random(1)), heur(1), heur(2)]
    Match(get_ruleset("hungarian", must_ruff=False), players, 1).play()


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_many_matches_keep_every_invariant(preset):
    for seed in range(60):
        kinds = ("random", "heuristic", "random") if seed % 2 else ("heuristic", "random", "heuristic")
        check_record(play(preset, f"slow:{seed}", kinds), preset)
