"""Invariants of the engine on full 16-card deals, where the brute force cannot reach.

Why: the brute-force comparison stops at six-card hands, but the engine's hard cases
(deep searches, a full transposition table, long rank-compressed suits) only occur in
full deals. These checks need no reference answer — each compares the engine with
itself in a way any correct solver must satisfy:

* playing out the principal variation (legally) gives ``seat`` exactly the value;
* the mover's best ``card_values`` entry is the value, and ``best_card`` gives the
  lowest card with that entry; a leader's value is the best of its own first cards;
* the three normal values are guarantees that hold at once, so they sum to at most the
  tricks in play; the three misère values sum to at least that;
* ``dd_table`` agrees with ``solve``; the widow changes nothing;
* relabelling that cannot matter (the seat written first, turning the table one seat,
  swapping suits, renumbering ranks while keeping their order) changes nothing.

"misère value <= normal value" is *not* an invariant; a counterexample is pinned below.
"""

from __future__ import annotations

import random

import pytest

import bruteforce as bf
from solver.cards import ALL_CARDS, Card, Hand
from solver.deal import Deal, Seat, Strain
from solver.engine import best_card, card_values, dd_table, principal_variation, solve

SEATS = "DEM"
# (seed, hand size, misère). Full deals in normal play by default; misère searches are the
# engine's costliest, so by default they run on 12-card hands and on full deals only in the
# slow job. A per-test timeout turns a runaway search into a failure, not a stalled suite.
DEFAULT_CASES = [(11, 16, False), (12, 16, False), (13, 12, True), (14, 12, True)]
SLOW_CASES = (
    [(seed, 16, False) for seed in range(100, 110)]
    + [(100, 16, True), (101, 16, True)]
    + [(seed, 13, True) for seed in range(103, 109)]
)
DEFAULT_TIMEOUT = pytest.mark.timeout(120)


def full_deal(seed: int, size: int = 16) -> Deal:
    return Deal.random(seed=seed, hand_size=size)


def case(seed: int, size: int = 16) -> tuple[Deal, str, str, str]:
    """A deal with a strain, leader and seat chosen from the seed."""
    rng = random.Random(seed)
    return full_deal(seed, size), rng.choice("SHDCN"), rng.choice(SEATS), rng.choice(SEATS)


def mover_best(values: dict[Card, int], mover: str, seat: str, misere: bool) -> int:
    """The value the player to move picks: seat seeks more (misère: fewer); the others the opposite."""
    wants_more = (mover == seat) != misere
    return max(values.values()) if wants_more else min(values.values())


def advance(
    deal: Deal, strain: str, leader: str, cards: list[Card]
) -> tuple[Deal, str, tuple[Card, ...], dict[Seat, int]]:
    """Play ``cards`` from the start of a trick; the position reached and tricks won so far."""
    hands = list(deal.hands)
    lead = Seat.parse(leader)
    trick: list[Card] = []
    won = {s: 0 for s in Seat}
    start = [h for h in hands]
    strain_i = int(Strain.parse(strain))
    for card in cards:
        mover = Seat((lead + len(trick)) % 3)
        hands[mover] = hands[mover].remove(card)
        trick.append(card)
        if len(trick) == 3:
            lead = Seat((lead + bf.trick_winner_index([c.bit for c in trick], strain_i)) % 3)
            won[lead] += 1
            trick = []
            start = list(hands)
    return Deal(start), lead.name, tuple(trick), won


# --- principal variation ----------------------------------------------------------------


def check_principal_variation(seed: int, size: int, misere: bool) -> None:
    deal, strain, leader, seat = case(seed, size)
    value = solve(deal, strain, leader=leader, seat=seat, misere=misere)
    line = principal_variation(deal, strain, leader=leader, seat=seat, misere=misere)
    assert len(line) == 3 * deal.hand_size
    won = bf.play_out(deal, strain, line, leader=leader)  # raises on an illegal card
    assert won[Seat.parse(seat)] == value


@DEFAULT_TIMEOUT
@pytest.mark.parametrize("seed, size, misere", DEFAULT_CASES)
def test_principal_variation_realises_the_value(seed, size, misere):
    check_principal_variation(seed, size, misere)


@pytest.mark.slow
@pytest.mark.parametrize("seed, size, misere", SLOW_CASES)
def test_principal_variation_realises_the_value_slow(seed, size, misere):
    check_principal_variation(seed, size, misere)


@DEFAULT_TIMEOUT
def test_principal_variation_from_mid_trick_with_must_ruff():
    deal, strain, leader, seat = case(21)
    strain = "H"
    played = bf.legal_cards(deal, strain, leader=leader, must_ruff=True)[:1]
    value = solve(deal, strain, leader=leader, seat=seat, must_ruff=True, played=played)
    line = principal_variation(deal, strain, leader=leader, seat=seat, must_ruff=True, played=played)
    won = bf.play_out(deal, strain, line, leader=leader, must_ruff=True, played=played)
    assert won[Seat.parse(seat)] == value


@pytest.mark.slow
@pytest.mark.parametrize("seed, size, misere", SLOW_CASES)
def test_value_is_constant_along_the_principal_variation(seed, size, misere):
    """Tricks already won plus the value of what remains never changes along an optimal line."""
    deal, strain, leader, seat = case(seed, size)
    value = solve(deal, strain, leader=leader, seat=seat, misere=misere)
    line = principal_variation(deal, strain, leader=leader, seat=seat, misere=misere)
    for k in range(0, len(line), 2):  # every trick boundary and every mid-trick point in between
        start, lead, played, won = advance(deal, strain, leader, line[:k])
        rest = solve(start, strain, leader=lead, seat=seat, misere=misere, played=played)
        assert won[Seat.parse(seat)] + rest == value, f"after {k} cards of {line}"


# --- card values ------------------------------------------------------------------------


def check_best_card_value(seed: int, size: int, misere: bool) -> None:
    deal, strain, leader, seat = case(seed, size)
    values = card_values(deal, strain, leader=leader, seat=seat, misere=misere)
    assert set(values) == set(deal[leader])  # the leader may lead anything
    best = mover_best(values, leader, seat, misere)
    assert best == solve(deal, strain, leader=leader, seat=seat, misere=misere)
    lowest = min((c for c, v in values.items() if v == best), key=lambda c: (c.rank, c.suit))
    assert best_card(deal, strain, leader=leader, seat=seat, misere=misere) == (lowest, best)


@DEFAULT_TIMEOUT
@pytest.mark.parametrize("seed, size, misere", DEFAULT_CASES)
def test_best_card_value_equals_solve(seed, size, misere):
    check_best_card_value(seed, size, misere)


@pytest.mark.slow
@pytest.mark.parametrize("seed, size, misere", SLOW_CASES)
def test_best_card_value_equals_solve_slow(seed, size, misere):
    check_best_card_value(seed, size, misere)


@DEFAULT_TIMEOUT
def test_best_card_value_equals_solve_mid_trick():
    deal, strain, leader, seat = case(31)
    first = bf.legal_cards(deal, strain, leader=leader)
    played = [first[len(first) // 2]]
    mover = Seat((Seat.parse(leader) + 1) % 3).name
    values = card_values(deal, strain, leader=leader, seat=seat, played=played)
    legal = bf.legal_cards(deal, strain, leader=leader, played=played)
    assert set(values) == set(legal)
    assert mover_best(values, mover, seat, False) == solve(
        deal, strain, leader=leader, seat=seat, played=played
    )


@DEFAULT_TIMEOUT
def test_each_leader_value_is_its_best_first_card():
    deal, strain, _, _ = case(15, 12)
    for seat in SEATS:
        values = card_values(deal, strain, leader=seat, seat=seat)
        assert max(values.values()) == solve(deal, strain, leader=seat, seat=seat)


# --- sums over seats and the table -------------------------------------------------------


@DEFAULT_TIMEOUT
@pytest.mark.parametrize("seed", [16, 17])
def test_table_sums_and_agreement_with_solve(seed):
    deal = full_deal(seed, 12)
    tricks = deal.hand_size
    normal = dd_table(deal, leader="E")
    misere = dd_table(deal, leader="E", misere=True)
    assert normal.leader == Seat.E and misere.misere and not normal.misere
    for strain in "SHDCN":
        assert sum(normal[strain][s] for s in SEATS) <= tricks
        assert sum(misere[strain][s] for s in SEATS) >= tricks
        for s in SEATS:
            assert 0 <= misere[strain][s] <= tricks
    rng = random.Random(seed)
    for _ in range(3):  # spot checks against single solves
        strain, s = rng.choice("SHDCN"), rng.choice(SEATS)
        assert normal[strain][s] == solve(deal, strain, leader="E", seat=s)
        assert misere[strain][s] == solve(deal, strain, leader="E", seat=s, misere=True)
        assert normal.to_dict()[strain][s] == normal[Strain.parse(strain)][Seat.parse(s)]


@pytest.mark.slow
@pytest.mark.parametrize(
    "seed, size, misere", [(100, 16, False), (101, 16, False), (102, 13, True), (103, 13, True)]
)
def test_table_sums_and_agreement_slow(seed, size, misere):
    deal = full_deal(seed, size)
    for must_ruff in (False, True):
        table = dd_table(deal, leader=SEATS[seed % 3], misere=misere, must_ruff=must_ruff)
        for strain in "SHDCN":
            total = sum(table[strain][s] for s in SEATS)
            assert total >= size if misere else total <= size
            for s in SEATS:
                assert table[strain][s] == solve(
                    deal, strain, leader=SEATS[seed % 3], seat=s, misere=misere, must_ruff=must_ruff
                )


# --- things that must not matter --------------------------------------------------------


@DEFAULT_TIMEOUT
@pytest.mark.parametrize("size, misere", [(16, False), (12, True)])
def test_widow_changes_nothing(size, misere):
    deal, strain, leader, seat = case(41, size)
    assert len(deal.widow) == 4
    bare = deal.without_widow()
    assert solve(deal, strain, leader=leader, seat=seat, misere=misere) == solve(
        bare, strain, leader=leader, seat=seat, misere=misere
    )


@DEFAULT_TIMEOUT
def test_notation_starting_seat_changes_nothing():
    deal, strain, leader, seat = case(42)
    for first in SEATS:
        again = Deal.parse(deal.to_string(first))
        assert solve(again, strain, leader=leader, seat=seat) == solve(deal, strain, leader=leader, seat=seat)


def rotate(deal: Deal) -> Deal:
    """The same cards one seat further clockwise: D's hand goes to E, E's to M, M's to D."""
    return Deal({Seat.E: deal["D"], Seat.M: deal["E"], Seat.D: deal["M"]}, deal.widow)


@DEFAULT_TIMEOUT
@pytest.mark.parametrize("size, misere", [(16, False), (12, True)])
def test_turning_the_table_changes_nothing(size, misere):
    deal, strain, leader, seat = case(43, size)
    turned = rotate(deal)
    nxt = {"D": "E", "E": "M", "M": "D"}
    assert solve(turned, strain, leader=nxt[leader], seat=nxt[seat], misere=misere) == solve(
        deal, strain, leader=leader, seat=seat, misere=misere
    )


def map_cards(deal: Deal, mapping: dict[Card, Card]) -> Deal:
    return Deal([Hand([mapping[c] for c in h]) for h in deal.hands], Hand([mapping[c] for c in deal.widow]))


@DEFAULT_TIMEOUT
def test_swapping_suits_changes_nothing():
    deal, strain, leader, seat = case(44)
    perm = [2, 0, 3, 1]  # S->D, H->S, D->C, C->H
    swapped = map_cards(deal, {c: Card(perm[c.suit], c.rank) for c in ALL_CARDS})
    for st in ("S", "N"):
        new_strain = "SHDC"[perm["SHDC".index(st)]] if st != "N" else "N"
        assert solve(swapped, new_strain, leader=leader, seat=seat, must_ruff=True) == solve(
            deal, st, leader=leader, seat=seat, must_ruff=True
        )


@DEFAULT_TIMEOUT
def test_renumbering_ranks_in_play_changes_nothing():
    """Only the order of the cards in play matters: squeeze a smaller deal's ranks upwards.

    With 12-card hands, 16 cards are out of play; moving every in-play card of a suit to the
    top ranks of that suit, keeping their order, must keep every value. This is exactly what
    rank compression in the engine's table key assumes.
    """
    rng = random.Random(45)
    deal = Deal.random(seed=45, hand_size=12, widow_size=0)
    mapping: dict[Card, Card] = {}
    for suit in range(4):
        in_play = sorted((c for h in deal.hands for c in h if c.suit == suit), key=lambda c: c.rank)
        for i, c in enumerate(in_play):
            mapping[c] = Card(suit, 14 - len(in_play) + 1 + i)
    squeezed = map_cards(deal, mapping)
    for _ in range(2):
        strain, leader, seat = rng.choice("SHDCN"), rng.choice(SEATS), rng.choice(SEATS)
        misere = rng.random() < 0.5
        assert solve(squeezed, strain, leader=leader, seat=seat, misere=misere) == solve(
            deal, strain, leader=leader, seat=seat, misere=misere
        )


# --- a documented non-invariant ---------------------------------------------------------


def test_misere_value_can_exceed_normal_value():
    """Why "misère <= normal" is not asserted anywhere: the opponents play differently.

    D: ♥A ♥9, E: ♠T ♥J, M: ♠A ♠K; no trump, E leads.  Trying to win, M gets nothing: E leads
    ♥J, D takes ♥A and leads ♥9, and M has to discard both spades.  Trying to lose, M takes
    both: E leads ♠T and M must win it with a spade, then lead its other spade.
    """
    deal = Deal.parse("D:.A9.. T.J.. AK...")
    for solver in (bf.solve, solve):
        assert solver(deal, "N", leader="E", seat="M") == 0
        assert solver(deal, "N", leader="E", seat="M", misere=True) == 2


def test_normal_value_can_exceed_misere_value():
    """Nor "normal <= misère": the seat sheds in misère the winners it cashes in normal play.

    D: ♠J ♣Q, E: ♥J ♦K, M: ♠4 ♦A; clubs are trumps, E leads.  Trying to win, D ruffs the
    first trick with ♣Q and cashes ♠J.  Trying to lose, D discards ♠J on the first trick and
    takes only the trick its lone trump must win.
    """
    deal = Deal.parse("D:J...Q .J.K. 4..A.")
    for solver in (bf.solve, solve):
        assert solver(deal, "C", leader="E", seat="D") == 2
        assert solver(deal, "C", leader="E", seat="D", misere=True) == 1
