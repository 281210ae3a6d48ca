"""Misère search against the plain minimax, on thousands of random small positions.

Why: the misère bounds (``misere.c``) cut the search on static arguments about which
tricks the seat can surely lose; one unsound case gives wrong values silently. Every
position here is misère, cycling through all strains, leaders, seats, must-ruff and
0/1/2 cards already played, and one ``Solver`` serves a whole batch so that a wrongly
generalised table entry shows up on later positions. Each batch also checks that the
bounds did fire on it (a comparison the bounds never reach proves nothing).
"""

from __future__ import annotations

import dataclasses

import pytest

import bruteforce as bf
from positions import positions
from solver.deal import Deal
from solver.engine import Solver

# (seed, count, hand sizes). The default run: 1,200 positions in a few seconds.
DEFAULT_BATCHES = [(3000 + i, 150, (2, 3, 4, 4, 5, 5)) for i in range(8)]
SLOW_BATCHES = [(6000 + i, 250, (4, 5, 5, 6)) for i in range(12)]
MISERE_BOUNDS = ("misere_low_cards", "misere_two_escapes", "misere_escape", "misere_trick_lost")


def check_batch(seed: int, count: int, sizes: tuple[int, ...]) -> None:
    solver = Solver(tt_mb=16)
    failures: list[str] = []
    fired = dict.fromkeys(MISERE_BOUNDS, 0)
    for pos in positions(seed, count, sizes):
        pos = dataclasses.replace(pos, misere=True)
        expected = bf.solve(pos.deal, pos.strain, **pos.kwargs())
        got = solver.solve(pos.deal, pos.strain, **pos.kwargs())
        stats = solver.stats()
        for name in MISERE_BOUNDS:
            fired[name] += stats[name]
        if got != expected:
            failures.append(f"solve {got} != {expected}: {pos}")
            continue
        # both sides of the value through the null-window searches
        if not solver.can_reach(pos.deal, pos.strain, target=expected, **pos.kwargs()):
            failures.append(f"can_reach({expected}) is False at the value: {pos}")
        if expected > 0 and solver.can_reach(pos.deal, pos.strain, target=expected - 1, **pos.kwargs()):
            failures.append(f"can_reach({expected - 1}) is True below the value: {pos}")
    bf.clear_cache()
    assert not failures, f"{len(failures)} mismatch(es), first ones:\n" + "\n".join(failures[:10])
    assert all(fired.values()), f"a misère bound never fired in batch {seed}: {fired}"


@pytest.mark.parametrize("seed, count, sizes", DEFAULT_BATCHES)
def test_misere_matches_bruteforce(seed: int, count: int, sizes: tuple[int, ...]) -> None:
    check_batch(seed, count, sizes)


@pytest.mark.slow
@pytest.mark.parametrize("seed, count, sizes", SLOW_BATCHES)
def test_misere_matches_bruteforce_larger(seed: int, count: int, sizes: tuple[int, ...]) -> None:
    check_batch(seed, count, sizes)


def value_with_root_answer(text: str, leader: str, target: int, bound: str | None) -> int:
    """D's misère value in no trump, by the brute force, once the engine agrees with it;
    and, given a ``bound``, after checking that this bound alone answers "can D stay at
    or under ``target``?" at the root (one node), as it does where its rule applies."""
    deal = Deal.parse(text)
    expected = bf.solve(deal, "N", leader=leader, seat="D", misere=True)
    assert Solver(tt_mb=16).solve(deal, "N", leader=leader, seat="D", misere=True) == expected
    if bound is not None:
        fresh = Solver(tt_mb=16)  # an empty table: the bound, not an entry, answers
        assert fresh.can_reach(deal, "N", leader=leader, seat="D", target=target, misere=True)
        stats = fresh.stats()
        assert (stats["nodes"], stats[bound]) == (1, 1), stats
    return expected


def test_a_card_below_one_coalition_hand_is_a_sure_loss():
    """D's ♠54 lie above M's ♠32 but below all of E's ♠AKQ. Whoever leads spades, E must
    play one above D's card, and E's three spades outlast the three tricks in which D needs
    its two losses (D leads a spade, wins E's heart lead, leads the other): D takes one
    trick, and the low-cards bound says so at once."""
    assert value_with_root_answer("D:54.AK.. AKQ.2.. 32.QJ..", "D", 2, "misere_low_cards") == 1


def test_a_short_suit_counts_only_while_no_void_lets_its_hand_discard_it():
    """E's lone ♠K lies above D's ♠Q. With a card of every suit, E cannot be void before
    the second trick, so whatever M leads, D either ducks or wins and leads the ♠Q under
    the king: D cannot be made to take all three tricks (the bound answers). With two
    clubs in place of E's red cards, M leads a red suit, E throws the king, and D's queen
    wins too: D takes all three. A suit nobody holds any more makes no void to throw on:
    with the clubs gone from every hand, the bound answers as with them."""
    assert value_with_root_answer("D:Q.A.A.A K.2.2.2 2.3.3.3", "M", 3, "misere_low_cards") == 3
    assert value_with_root_answer("D:Q.A.A. K...32 2.2.2.", "M", 2, None) == 3
    assert value_with_root_answer("D:Q.A.A. K.2.2. 2.3.3.", "M", 2, "misere_low_cards") == 2


def test_the_partner_who_must_beat_seat_makes_the_escape():
    """M leads a low spade or heart, below D's queens, but E must follow with its king
    above them: D escapes every lead, so the coalition cannot make it take all three."""
    assert value_with_root_answer("D:Q.Q.A. K.K..2 32.2..", "M", 2, "misere_escape") == 0


def test_two_escapes_below_a_hand_holding_two_of_the_suit():
    """D's jacks and tens lie above M's twos but below E's kings and queens, two of each:
    E must play above D's card in this trick and the next, so D loses both whatever M
    leads, and the coalition cannot make it take three of the four tricks."""
    assert value_with_root_answer("D:JT.JT.. KQ.KQ.. 2.2.2.2", "M", 2, "misere_two_escapes") == 1
