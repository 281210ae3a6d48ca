"""The declaration optimiser against plain exhaustive enumeration (tests/support/declare_reference.py)."""

from __future__ import annotations

import random

import pytest

from declare_reference import all_values, optimum, small_deal
from solver.cards import Hand, Suit
from solver.deal import Deal, Seat, Strain
from solver.declare import Choice, declare
from solver.declare.classes import class_counts_of, discard_runs
from solver.engine import solve
from solver.engine.interval import Interval
from solver.errors import EngineError, InvalidDealError, NotationError


def check_against_exhaustive(deal: Deal, **opts) -> None:
    """Same optimum and per-strain bests; every choice optimal; every optimal pair covered once."""
    misere = opts.get("misere", False)
    declarer = opts.get("declarer", "D")
    strains = opts.get("strains", "SHDC")
    values = all_values(deal, **opts)
    result = declare(deal, **opts)
    best = optimum(values, misere)
    assert result.tricks == best
    for strain in strains:
        mine = {v for (t, _), v in values.items() if t == strain}
        assert result.by_strain[Strain.parse(strain)] == (min(mine) if misere else max(mine))
    seat = Seat.parse(declarer)
    held = deal.hands[seat] | deal.widow
    throwable = deal.hands[seat] if opts.get("blind") else held
    opponents = Hand(deal.hands[(seat + 1) % 3].mask | deal.hands[(seat + 2) % 3].mask)
    runs = discard_runs(held, throwable, opponents)
    reported = {}
    for choice in result.optimal:
        discard = frozenset(choice.discard)
        assert len(discard) == len(deal.widow)
        assert values[(choice.strain.name, discard)] == best, "a reported choice is not optimal"
        key = (choice.strain.name, class_counts_of(runs, discard))
        assert key not in reported, "a class is reported twice"
        reported[key] = choice.count
    optimal_pairs = [(t, d) for (t, d), v in values.items() if v == best]
    assert sum(reported.values()) == len(optimal_pairs)
    covered: dict = {}
    for strain, discard in optimal_pairs:
        key = (strain, class_counts_of(runs, discard))
        assert key in reported, f"optimal {strain} discard {sorted(map(str, discard))} not covered"
        covered[key] = covered.get(key, 0) + 1
    assert covered == reported, "a class count differs from the sets it stands for"


@pytest.mark.parametrize("seed", range(40))
def test_random_small_deals_match_exhaustive(seed):
    rng = random.Random(seed)
    deal = small_deal(rng, k=rng.randint(3, 5), w=rng.randint(1, 2), suits=rng.choice([2, 3, 4]))
    strains = rng.choice(["SHDC", "SHDCN", "SN", "H"])
    leader = rng.choice("DEM")
    check_against_exhaustive(deal, strains=strains, leader=leader)


@pytest.mark.parametrize("seed", range(15))
def test_misere_matches_exhaustive(seed):
    rng = random.Random(1000 + seed)
    deal = small_deal(rng, k=rng.randint(3, 5), w=rng.randint(1, 2), suits=rng.choice([2, 4]))
    check_against_exhaustive(
        deal, strains=rng.choice(["SHDC", "SHDCN", "N"]), misere=True, leader=rng.choice("DEM")
    )


@pytest.mark.parametrize("seed", range(15))
def test_blind_matches_exhaustive(seed):
    rng = random.Random(2000 + seed)
    deal = small_deal(rng, k=rng.randint(3, 5), w=rng.randint(1, 2), suits=rng.choice([2, 4]))
    check_against_exhaustive(
        deal, strains="SHDCN", blind=True, misere=seed % 3 == 0, leader=rng.choice("DEM")
    )


@pytest.mark.parametrize("seed", range(10))
def test_other_declarers_and_must_ruff_match_exhaustive(seed):
    rng = random.Random(3000 + seed)
    deal = small_deal(rng, k=rng.randint(3, 4), w=rng.randint(1, 2), suits=rng.choice([2, 3]))
    check_against_exhaustive(
        deal, strains="SHDC", declarer=rng.choice("EM"), must_ruff=True, leader=rng.choice("DEM")
    )


def test_runs_group_discards():
    # Runs SAKQ and H32: a class throws one card from either, standing for 3 or 2 sets.
    deal = Deal.parse("D:AK.32.. ..AK.AK ..QJ.QJ | Q...")
    result = declare(deal, strains="SH", leader="D")
    assert result.classes == 2 * 2
    for choice in result.optimal:
        assert choice.count == (3 if choice.discard[0].suit == Suit.S else 2)
    check_against_exhaustive(deal, strains="SH", leader="D")


def test_all_discard_sets_equivalent():
    # The declarer's cards are one run (no opponent card splits them): one class per strain.
    deal = Deal.parse("D:AKQ... .AKQ.. ..AKQ. | J...")
    result = declare(deal, strains="SH", leader="E")
    assert result.classes == 2
    assert [c.count for c in result.optimal] == [4] * len(result.optimal)
    check_against_exhaustive(deal, strains="SH", leader="E")


def test_ties_across_strains_are_all_reported():
    # Spades and hearts are mirror images for the declarer: both strains must appear.
    deal = Deal.parse("D:AK.AK.. QJ.QJ.. ..AKQJ. | 2.2..")
    values = all_values(deal, strains="SH", leader="D")
    assert max(v for (t, _), v in values.items() if t == "S") == max(
        v for (t, _), v in values.items() if t == "H"
    )
    result = declare(deal, strains="SH", leader="D")
    assert {c.strain for c in result.optimal} == {Strain.S, Strain.H}
    check_against_exhaustive(deal, strains="SH", leader="D")


def test_representative_discards_reach_the_reported_value():
    deal = small_deal(random.Random(77), k=5, w=2)
    result = declare(deal, strains="SHDCN", leader="E")
    for choice in result.optimal:
        kept = (deal.hands[0] | deal.widow) - Hand(choice.discard)
        pos = Deal([kept, deal.hands[1], deal.hands[2]])
        assert solve(pos, choice.strain, leader="E", seat="D") == result.tricks


def test_progress_reports_every_candidate():
    deal = small_deal(random.Random(5), k=4, w=2)
    seen = []
    result = declare(deal, strains="SH", progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (result.classes, result.classes)
    assert [d for d, _ in seen] == list(range(1, result.classes + 1))


def test_to_dict_has_exactly_the_documented_keys():
    deal = small_deal(random.Random(9), k=4, w=1)
    data = declare(deal).to_dict()
    assert list(data) == ["declarer", "tricks", "by_strain", "optimal", "complete", "recommended"]
    assert data["complete"] is True
    assert all(set(c) == {"strain", "discard", "count"} for c in data["optimal"])
    assert list(data["by_strain"]) == list("SHDC")


def test_str_and_html_show_the_cards():
    deal = Deal.parse("D:AK... Q2... 3.A.. | 4...")
    result = declare(deal, strains="S", leader="D")
    assert "♠AK4" in str(result) and "♠4" in str(result)
    assert "<table>" in result._repr_html_()


def test_errors_name_the_problem():
    with pytest.raises(InvalidDealError, match="no widow"):
        declare(Deal.parse("D:A... K... Q..."))
    with pytest.raises(NotationError, match="strain"):
        declare(Deal.parse("D:A... K... Q... | J..."), strains="SX")
    with pytest.raises(NotationError, match="seat"):
        declare(Deal.parse("D:A... K... Q... | J..."), declarer="Z")
    with pytest.raises(InvalidDealError, match="blind"):
        declare(Deal.parse("D:A... K... Q... | JT..."), blind=True)


@pytest.mark.parametrize("seed", range(4))
def test_medium_deals_match_exhaustive(seed):
    rng = random.Random(4000 + seed)
    deal = small_deal(rng, k=rng.randint(7, 8), w=rng.randint(3, 4))
    check_against_exhaustive(deal, strains="SHDC", leader=rng.choice("DE"), misere=seed == 3)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_large_deals_match_exhaustive(seed):
    rng = random.Random(5000 + seed)
    deal = small_deal(rng, k=rng.randint(12, 14), w=4)
    check_against_exhaustive(deal, strains="SHDC", leader="E")


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_full_deals_optimum_is_reached_and_not_beaten_by_sampled_discards(seed):
    """Full 16 + 4 deals: exhaustive enumeration is out of reach, so check what can fail.

    Every reported choice reaches the optimum (independent ``solve``), every strain's best
    is reached by some class, and random discard sets never beat their strain's best.
    """
    deal = Deal.random(seed=seed)
    result = declare(deal, strains="SHDC")
    held = deal.hands[0] | deal.widow

    def value(strain, discard):
        pos = Deal([held - Hand(discard), deal.hands[1], deal.hands[2]])
        return solve(pos, strain, leader="E", seat="D")

    assert result.optimal and result.tricks == max(result.by_strain.values())
    for choice in result.optimal:
        assert value(choice.strain, list(choice.discard)) == result.tricks
    rng = random.Random(seed)
    for strain in "SHDC":
        for _ in range(6):
            discard = rng.sample(list(held), 4)
            assert value(strain, discard) <= result.by_strain[Strain.parse(strain)]


def test_misere_declares_in_no_trump_unless_strains_are_given():
    # MT and miz are played in no trump under every ruleset, so that is what --misere asks
    deal = Deal.parse("D:AK.2.. Q2.3.. 3.A4.. | 4.5..")
    assert list(declare(deal, misere=True).by_strain) == [Strain.N]
    assert list(declare(deal).by_strain) == [Strain.S, Strain.H, Strain.D, Strain.C]
    assert list(declare(deal, misere=True, strains="SH").by_strain) == [Strain.S, Strain.H]
    with pytest.raises(NotationError):
        declare(deal, misere=True, strains="")


@pytest.mark.parametrize("misere", [False, True])
def test_a_ctrl_c_reports_the_best_choice_settled_so_far(misere):
    from solver.declare.optimiser import DeclarationInterrupted

    deal = Deal.random(seed=3, hand_size=7, widow_size=2)
    full = declare(deal, misere=misere, strains="SHDCN")

    def stop_after(k: int):
        def progress(done: int, total: int) -> None:
            if done == k:
                raise KeyboardInterrupt

        return progress

    for k in (1, 5):
        with pytest.raises(DeclarationInterrupted) as stop:
            declare(deal, misere=misere, strains="SHDCN", progress=stop_after(k))
        assert stop.value.done == k and stop.value.total == full.classes
        assert stop.value.best is not None and stop.value.tricks is not None
        # what was settled is reached exactly, so the optimum can only be better
        assert stop.value.tricks >= full.tricks if misere else stop.value.tricks <= full.tricks
        # and the choice reported does reach it
        hands = list(deal.hands)
        hands[0] = (deal.hands[0] | deal.widow) - Hand(stop.value.best.discard)
        value = solve(Deal(hands), stop.value.best.strain, leader="E", seat="D", misere=misere)
        assert value == stop.value.tricks
        if misere:  # and the optimum lies in the interval proven so far
            interval = stop.value.interval
            assert interval is not None
            assert interval.lo <= full.tricks <= interval.hi
        else:
            assert stop.value.interval is None


@pytest.mark.parametrize("seed", range(6))
def test_misere_intervals_narrow_to_the_optimum(seed):
    rng = random.Random(6000 + seed)
    deal = small_deal(rng, k=rng.randint(5, 7), w=rng.randint(2, 3))
    shown: list[Interval] = []
    best: list[Choice | None] = []

    def narrowed(interval: Interval, choice: Choice | None) -> None:
        shown.append(interval)
        best.append(choice)

    result = declare(deal, misere=True, strains=rng.choice(["N", "SN"]), narrowing=narrowed)
    assert shown, "no interval reported"
    for before, after in zip(shown, shown[1:]):
        assert before.lo <= after.lo <= after.hi <= before.hi and before != after
    assert all(iv.lo <= result.tricks <= iv.hi for iv in shown)
    assert shown[-1].lo == shown[-1].hi == result.tricks
    assert best[-1] in result.optimal  # the choice named once the optimum is proven is optimal


def test_misere_without_the_ties_proves_the_optimum_and_names_only_optimal_choices():
    shortened = 0
    for seed in range(15):
        rng = random.Random(7000 + seed)
        deal = small_deal(rng, k=rng.randint(4, 6), w=rng.randint(1, 2), suits=rng.choice([2, 4]))
        strains, leader = rng.choice(["N", "SN", "SHDCN"]), rng.choice("DEM")
        values = all_values(deal, strains=strains, misere=True, leader=leader)
        full = declare(deal, strains=strains, misere=True, leader=leader)
        fast = declare(deal, strains=strains, misere=True, leader=leader, ties=False)
        assert fast.tricks == full.tricks == optimum(values, True)
        assert fast.by_strain == full.by_strain
        assert fast.optimal and set(fast.optimal) <= set(full.optimal)
        assert full.complete and not fast.complete
        assert fast.to_dict()["complete"] is False
        shortened += len(fast.optimal) < len(full.optimal)
    assert shortened >= 5  # the ties left unsettled are the point


def test_normal_play_settles_every_tie_even_when_asked_without():
    deal = small_deal(random.Random(11), k=5, w=2)
    full, fast = declare(deal, strains="SHDCN"), declare(deal, strains="SHDCN", ties=False)
    assert fast.complete and fast.optimal == full.optimal and fast.tricks == full.tricks


def test_a_declaration_without_the_ties_says_so():
    deal = small_deal(random.Random(7006), k=6, w=2)
    fast = declare(deal, misere=True, ties=False)
    assert "others may tie" in str(fast) and "others may tie" in fast._repr_html_()
    with pytest.raises(EngineError, match="ties"):
        declare(deal, misere=True, ties="no")  # type: ignore[arg-type]
