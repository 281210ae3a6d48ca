"""The constrained dealer: exact uniformity against enumeration, seeding, errors."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver
from solver.cards import Hand, parse_cards
from solver.deal import Deal
from solver.game.dealer import Dealer, NoMatchingDealError, deal_matching
from solver.game.dealspec import DealSpec, DealSpecError, aces_kings, high_card_points

DECK = parse_cards("SA SK SQ S2 HA HK D2")


def layouts(deck, hand, widow):
    """Every deal of ``deck`` into three hands of ``hand`` cards and a widow (rest out)."""
    for d in itertools.combinations(deck, hand):
        rest = [c for c in deck if c not in d]
        for e in itertools.combinations(rest, hand):
            rest2 = [c for c in rest if c not in e]
            for m in itertools.combinations(rest2, hand):
                rest3 = [c for c in rest2 if c not in m]
                for w in itertools.combinations(rest3, widow):
                    yield Deal([Hand(d), Hand(e), Hand(m)], Hand(w))


def chi_square_p(observed: list[int]) -> float:
    """Upper tail of the chi-square statistic against equal expected counts
    (Wilson-Hilferty cube-root normal approximation, as in test_sampling)."""
    n, k = sum(observed), len(observed)
    stat = sum((o - n / k) ** 2 / (n / k) for o in observed)
    df = k - 1
    z = ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def spades(hand):
    return len(hand.cards_in(0))


# (spec, a direct test of the same constraints, hand size, widow size)
CASES = {
    "shuffle": ("", lambda d: True, 2, 1),
    "held+lengths": (
        "holds M:HA; length D:S=1-2; length E:S=0-1; length M:S=0",
        lambda d: (
            Card_in("HA", d["M"]) and 1 <= spades(d["D"]) <= 2 and spades(d["E"]) <= 1 and spades(d["M"]) == 0
        ),
        2,
        1,
    ),
    "rejection": (
        "length E:S=1+; points D:4+; trumps D:H=1; aces-kings M:0-1",
        lambda d: (
            spades(d["E"]) >= 1
            and high_card_points(d["D"]) >= 4
            and len((d["D"] | d.widow).cards_in(1)) >= 1
            and aces_kings(d["M"]) <= 1
        ),
        2,
        1,
    ),
    "cards out": ("length D:S=1", lambda d: spades(d["D"]) == 1, 2, 0),
}


def Card_in(card, hand):
    return parse_cards(card)[0] in hand


def draw_counts(spec, hand, widow, n, seed=7):
    stream = Dealer(spec, hand_size=hand, widow_size=widow, deck=DECK).deals(seed)
    return Counter(next(stream) for _ in range(n))


@pytest.mark.parametrize("name", list(CASES))
def test_uniform_over_exactly_the_matching_deals(name):
    spec, accept, hand, widow = CASES[name]
    allowed = [d for d in layouts(DECK, hand, widow) if accept(d)]
    assert 10 <= len(allowed) <= 700
    counts = draw_counts(spec, hand, widow, 12 * len(allowed))
    assert set(counts) <= set(allowed), "a deal outside the spec was dealt"
    observed = [counts[d] for d in allowed]
    assert min(observed) > 0
    assert chi_square_p(observed) > 1e-3


def test_the_uniformity_check_rejects_a_biased_dealer():
    """The chi-square above has the power to see a sampler favouring some deals."""
    allowed = list(layouts(DECK, 2, 1))
    counts = draw_counts("", 2, 1, 12 * len(allowed))
    biased = [counts[d] * (2 if i % 3 == 0 else 1) for i, d in enumerate(allowed)]
    assert chi_square_p(biased) < 1e-6


def test_sampler_count_matches_enumeration():
    spec, accept, hand, widow = CASES["held+lengths"]
    n = sum(1 for d in layouts(DECK, hand, widow) if accept(d))
    assert Dealer(spec, hand_size=hand, widow_size=widow, deck=DECK).count_layouts() == n
    assert Dealer("", hand_size=2, widow_size=1, deck=DECK).count_layouts() == sum(
        1 for _ in layouts(DECK, 2, 1)
    )


def test_full_deal_constraints_hold_and_seed_repeats():
    spec = "holds D:SA,SK; length E:S=5-8; length M:H=0-2; points D:14+; trumps D:S=6"
    deals = deal_matching(spec, count=5, seed=11)
    for d in deals:
        assert {"SA", "SK"} <= {str(c) for c in d["D"]}
        assert 5 <= spades(d["E"]) <= 8
        assert len(d["M"].cards_in(1)) <= 2
        assert high_card_points(d["D"]) >= 14
        assert len((d["D"] | d.widow).cards_in(0)) >= 6
    assert deal_matching(spec, count=5, seed=11) == deals
    assert deal_matching(spec, count=2, seed=11) == deals[:2]
    assert deal_matching(spec, count=5, seed=12) != deals


def test_empty_spec_deals_as_deal_random():
    assert deal_matching(seed=358) == [Deal.random(358)]
    rs = solver.get_ruleset("no-widow")
    d = deal_matching(seed=5, rules="no-widow")[0]
    assert d.hand_size == 17 and len(d.widow) == 0
    assert "C2" not in {str(c) for h in d.hands for c in h}
    assert rs.hand_size == 17


def test_accept_function_and_keywords():
    deals = deal_matching(
        count=3, seed=1, lengths={"D": {"S": (6, None)}}, accept=lambda d: d["E"].cards_in(0) == []
    )
    for d in deals:
        assert spades(d["D"]) >= 6 and spades(d["E"]) == 0
    assert solver.deal_matching is deal_matching


def test_whole_hand_fixed():
    hand = "AKQJT98765432.AKQ.."
    d = deal_matching(f"holds D:{hand}", seed=2)[0]
    assert d["D"] == Hand.parse(hand)


@pytest.mark.parametrize(
    ("spec", "named"),
    [
        ("holds D:SA; holds E:SA", "SA is given to both D and E"),
        ("holds D:C2", "holds D: C2 not in the 51-card deck"),
        ("length D:S=5; length D:H=5; length D:D=5; length D:C=5", "length D"),
        ("length D:S=5+; length E:S=5+; length M:S=4+", "length: the least spades"),
        ("holds D:SA,SK,SQ; length D:S=0-2", "length D:S=0-2: holds D gives it 3 spades"),
        ("points D:41+", "points D:41+: D can hold only 0 to 40"),
        ("points D:20+; points E:21+", "points: the least asked add up to 41"),
        ("aces-kings E:9", "aces-kings E:9"),
        ("trumps E:S=6; length E:S=0-3", "trumps E:S=6+ and length E:S=0-3"),
        ("trumps D:N=6", "no trump has no trumps"),
        ("trumps W:S=2", "'W' is not one of D E M"),
        ("holds W:SA", "the widow has no cards"),
        ("colour D:red", "unknown clause 'colour'"),
        ("length E:S=8-5", "length 'E:S=8-5'"),
        ("points Q:10", "'Q' is not one of D E M W"),
    ],
)
def test_impossible_or_malformed_specs_name_the_clause(spec, named):
    rules = "no-widow" if "C2" in spec or "W:SA" in spec else "twelve"
    with pytest.raises(DealSpecError) as info:
        Dealer(spec, rules=rules)
    assert named in str(info.value)


def test_unmet_tested_constraint_is_named_after_bounded_tries():
    with pytest.raises(NoMatchingDealError, match=r"no deal in 200 draws has points D:30\+"):
        deal_matching("points D:30+; points E:0+", seed=1, tries=200)
    with pytest.raises(NoMatchingDealError, match="together"):
        deal_matching("aces-kings D:4+; aces-kings W:2+", seed=1, tries=50)


def test_spec_notation_round_trips():
    spec = DealSpec.parse("trumps D:H=6; points D:12-20;holds D:AK..Q.; length E:S=5-8\naces-kings M:0")
    assert DealSpec.parse(spec.to_string()) == spec
    assert (
        spec.to_string() == "holds D:SA,SK,DQ; length E:S=5-8; points D:12-20; aces-kings M:0; trumps D:H=6+"
    )
    assert DealSpec.build(points={"D": "12-20"}, trumps={"D": ("H", 6)}) == DealSpec.parse(
        "points D:12-20; trumps D:H=6"
    )


def test_the_python_block_of_docs_dealing_runs():
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "dealing.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    namespace: dict = {}
    exec(compile(block, "docs/dealing.md", "exec"), namespace)
    deals = namespace["solver"].deal_matching("length E:S=5-8; points D:14+", count=3, seed=1)
    assert len(deals) == 3 and next(namespace["stream"]) == namespace["dealer"].deal(seed=1)


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"lengths": {"E": {7: (5, 8)}}}, "'7' is not a suit"),
        ({"lengths": {"E": 5}}, "lengths E: expected suits mapped to ranges"),
        ({"points": {"D": (5, "a")}}, "points D: expected a range"),
        ({"held": {"D": 5}}, "holds D: cards must be"),
        ({"trumps": {"D": 5}}, "trumps D: expected"),
        ({"accept": 5}, "accept must be a function"),
        ({"count": "3"}, "count must be a non-negative integer"),
        ({"tries": 0}, "tries must be a positive integer"),
        ({"seed": 1.5}, "a seed must be an integer or a string"),
        ({"seed": 2**300}, "too large"),
    ],
)
def test_python_api_type_errors_are_named(kwargs, named):
    with pytest.raises(DealSpecError, match=named):
        deal_matching(**{"seed": 1, **kwargs})


def satisfies(deal: Deal, spec: DealSpec, declarer: str = "D") -> bool:
    """The spec checked on a deal directly, clause by clause (independent of the dealer)."""

    def place(p):
        return deal.widow if p == "W" else deal[p]

    def within(v, rng):
        return rng[0] <= v and (rng[1] is None or v <= rng[1])

    return (
        all(h.mask & ~place(p).mask == 0 for p, h in spec.held.items())
        and all(
            within(len(place(p).cards_in(s)), r) for p, per in spec.lengths.items() for s, r in per.items()
        )
        and all(within(high_card_points(place(p)), r) for p, r in spec.points.items())
        and all(within(aces_kings(place(p)), r) for p, r in spec.aces_kings.items())
        and all(
            within(len((place(p) | (deal.widow if p == declarer else Hand())).cards_in(s)), r)
            for p, per in spec.trumps.items()
            for s, r in per.items()
        )
    )


@st.composite
def specs_met_by_a_deal(draw):
    """A spec that a random deal meets: some of its cards, its lengths and points widened."""
    deal = Deal.random(draw(st.integers(0, 2**32)))
    places = draw(st.lists(st.sampled_from("DEMW"), max_size=3, unique=True))
    clauses = []
    for p in places:
        hand = deal.widow if p == "W" else deal[p]
        kind = draw(st.sampled_from(["holds", "length", "points", "aces-kings", "trumps"]))
        if kind == "holds":
            cards = draw(st.lists(st.sampled_from(list(hand)), min_size=1, max_size=4, unique=True))
            clauses.append(f"holds {p}:{','.join(map(str, cards))}")
        elif kind == "length" and p in "DE":  # two seats at most: the sampler's set-up stays quick
            s = draw(st.integers(0, 3))
            n = len(hand.cards_in(s))
            clauses.append(f"length {p}:{'SHDC'[s]}={max(0, n - 1)}-{n + 1}")
        elif kind == "points":
            v = high_card_points(hand)
            clauses.append(f"points {p}:{max(0, v - 3)}-{v + 3}")
        elif kind == "aces-kings":
            clauses.append(f"aces-kings {p}:{aces_kings(hand)}+")
        elif kind == "trumps" and p != "W":
            s = draw(st.integers(0, 3))
            n = len((hand | (deal.widow if p == "D" else Hand())).cards_in(s))
            clauses.append(f"trumps {p}:{'SHDC'[s]}={max(0, n - 1)}")
    return DealSpec.parse("; ".join(clauses))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=specs_met_by_a_deal(), seed=st.integers(0, 1000))
def test_every_deal_meets_its_spec(spec, seed):
    deal = Dealer(spec, tries=1_000_000).deal(seed)
    assert deal.hand_size == 16 and len(deal.widow) == 4
    assert satisfies(deal, spec)
    assert not satisfies(deal, DealSpec.parse("points D:41+"))  # the check can fail
    assert not satisfies(deal, DealSpec.parse(f"holds E:{next(iter(deal['D']))}"))


@settings(max_examples=50, deadline=None)
@given(spec=specs_met_by_a_deal())
def test_notation_round_trips_on_random_specs(spec):
    text = spec.to_string()
    assert DealSpec.parse(text) == spec
    assert DealSpec.parse(text).to_string() == text
