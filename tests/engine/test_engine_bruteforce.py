"""The C engine against the plain minimax on thousands of random small positions.

Why: the engine's pruning, rank compression, equivalent-card merging and bounds-storing
transposition table must never change an answer. The reference in ``bruteforce.py`` has
none of those, so any disagreement is an engine bug (the reference has its own hand-checked
tests). Positions are seeded; a failure prints each position in full so it can be replayed.

Every batch cycles through all strains (N included), leaders, seats, misère, must-ruff and
0/1/2 cards already played. One ``Solver`` is shared by a whole batch on purpose: stale or
wrongly generalised table entries then show up as wrong answers on later positions.
"""

from __future__ import annotations

import random

import pytest

import bruteforce as bf
from positions import Position, positions, seat_to_move
from solver.cards import Card
from solver.deal import Deal, Seat
from solver.engine import Solver, card_values, solve
from solver.errors import IllegalPlayError

# (seed, count, hand sizes): the default run takes well under a minute on one core.
DEFAULT_BATCHES = [(1000 + i, 100, (1, 2, 3, 3, 4, 4, 4, 5)) for i in range(25)]
SIX_CARD_BATCH = (2000, 30, (6,))
SLOW_BATCHES = [(5000 + i, 200, (3, 4, 5, 5, 6)) for i in range(24)]


def check_batch(seed: int, count: int, sizes: tuple[int, ...]) -> None:
    """Compare solve, card_values (also from the known value), best_card and can_reach on
    every position; report all mismatches."""
    solver = Solver(tt_mb=16)
    failures: list[str] = []
    for pos in positions(seed, count, sizes):
        expected = bf.solve(pos.deal, pos.strain, **pos.kwargs())
        got = solve(pos.deal, pos.strain, **pos.kwargs())
        if got != expected:
            failures.append(f"solve {got} != {expected}: {pos}")
            continue
        if solver.solve(pos.deal, pos.strain, **pos.kwargs()) != expected:
            failures.append(f"Solver.solve differs from {expected}: {pos}")
        exp_cards = bf.card_values(pos.deal, pos.strain, **pos.kwargs())
        got_cards = card_values(pos.deal, pos.strain, **pos.kwargs())
        got_by_name = {str(c): v for c, v in got_cards.items()}
        if got_by_name != exp_cards:
            failures.append(f"card_values {got_by_name} != {exp_cards}: {pos}")
        from_value = solver.card_values(pos.deal, pos.strain, value=expected, **pos.kwargs())
        if {str(c): v for c, v in from_value.items()} != exp_cards:
            failures.append(f"card_values from the value {expected}: {from_value} != {exp_cards}: {pos}")
        failures.extend(check_best_card(solver, pos, exp_cards, expected))
        failures.extend(check_can_reach(solver, pos, expected))
    bf.clear_cache()
    assert not failures, f"{len(failures)} mismatch(es), first ones:\n" + "\n".join(failures[:10])


def check_best_card(solver: Solver, pos: Position, values: dict[str, int], value: int) -> list[str]:
    """best_card: the lowest card (suits S H D C among equal ranks) of those keeping the
    value; cards_keeping: all of them."""
    card, got = solver.best_card(pos.deal, pos.strain, **pos.kwargs())
    keeping = [Card.parse(c) for c, v in values.items() if v == value]
    lowest = min(keeping, key=lambda c: (c.rank, c.suit))
    out = []
    if (card, got) != (lowest, value):
        out.append(f"best_card {card} {got} != {lowest} {value}: {pos}")
    kept = solver.cards_keeping(pos.deal, pos.strain, value=value, **pos.kwargs())
    if set(kept) != set(keeping):
        out.append(f"cards_keeping {kept} != {keeping}: {pos}")
    return out


def check_can_reach(solver: Solver, pos: Position, value: int) -> list[str]:
    """Both sides of the value: reachable at ``value``, not one trick better."""
    out = []
    if not solver.can_reach(pos.deal, pos.strain, target=value, **pos.kwargs()):
        out.append(f"can_reach(target={value}) is False at the value itself: {pos}")
    better = value - 1 if pos.misere else value + 1
    if 0 <= better and solver.can_reach(pos.deal, pos.strain, target=better, **pos.kwargs()):
        out.append(f"can_reach(target={better}) is True beyond the value {value}: {pos}")
    return out


@pytest.mark.parametrize(
    "seed, count, sizes", DEFAULT_BATCHES, ids=lambda v: str(v) if isinstance(v, int) else None
)
def test_engine_matches_bruteforce(seed, count, sizes):
    check_batch(seed, count, sizes)


def test_engine_matches_bruteforce_six_cards():
    check_batch(*SIX_CARD_BATCH)


@pytest.mark.slow
@pytest.mark.parametrize(
    "seed, count, sizes", SLOW_BATCHES, ids=lambda v: str(v) if isinstance(v, int) else None
)
def test_engine_matches_bruteforce_slow_sweep(seed, count, sizes):
    check_batch(seed, count, sizes)


def test_every_option_combination_is_covered():
    """The default batches really do visit each strain/leader/seat/flag/played combination."""
    seen = set()
    for seed, count, sizes in DEFAULT_BATCHES:
        for pos in positions(seed, count, sizes):
            seen.add((pos.strain, pos.leader, pos.seat, pos.misere, pos.must_ruff, len(pos.played)))
    assert len(seen) == 5 * 3 * 3 * 2 * 2 * 3


def illegal_variants(pos: Position, rng: random.Random) -> list[tuple[Card, ...]]:
    """Played sequences the rules forbid: a card the mover lacks, a revoke, a missed ruff."""
    mover = seat_to_move(pos)
    hand = pos.deal[mover]
    out = []
    others = [c for s in Seat if s != mover for c in pos.deal[s] if c not in pos.played]
    if others:
        out.append(pos.played + (rng.choice(others),))
    legal = set(
        bf.legal_cards(pos.deal, pos.strain, leader=pos.leader, must_ruff=pos.must_ruff, played=pos.played)
    )
    illegal = [c for c in hand if c not in legal]
    if illegal:
        out.append(pos.played + (rng.choice(illegal),))
    return [p for p in out if len(p) <= 2]


def test_illegal_played_raises():
    rng = random.Random(77)
    checked = 0
    for pos in positions(3000, 600, (2, 3, 4)):
        for played in illegal_variants(pos, rng):
            kwargs = dict(pos.kwargs(), played=played)
            with pytest.raises(IllegalPlayError):
                bf.solve(pos.deal, pos.strain, **kwargs)  # the reference agrees it is illegal
            with pytest.raises(IllegalPlayError):
                solve(pos.deal, pos.strain, **kwargs)
            with pytest.raises(IllegalPlayError):
                card_values(pos.deal, pos.strain, **kwargs)
            checked += 1
    bf.clear_cache()
    assert checked > 300


def test_played_given_as_strings():
    pos = positions(4000, 1, (3,))[0]
    d = pos.deal
    played = [str(c) for c in d["E"]][:1]
    assert solve(d, "N", leader="E", seat="D", played=played) == bf.solve(
        d, "N", leader="E", seat="D", played=played
    )


def test_void_made_by_a_discard_ruffs_the_seats_top_card():
    """The seat needing one trick may hold the top card of a suit that neither coalition
    hand can ruff *now* and still take nothing: here M leads ♥8, E (void in hearts)
    discards its only diamond, and from then on E ruffs every diamond M leads, so the
    seat's ♦J falls too. A need-one bound that looked only at current voids called this
    a sure trick for the seat (docs/history.md)."""
    from solver.deal import Deal

    deal = Deal.parse("D:J.43.J4.9 T8..T.T53 6.8.862.K")
    for must_ruff in (False, True):
        expected = bf.solve(deal, "C", leader="M", seat="D", must_ruff=must_ruff)
        assert solve(deal, "C", leader="M", seat="D", must_ruff=must_ruff) == expected
        assert Solver(tt_mb=1).solve(deal, "C", leader="M", seat="D", must_ruff=must_ruff) == expected
    assert bf.solve(deal, "C", leader="M", seat="D") == 0


def _hand_text(cards: list[tuple[int, int]]) -> str:
    """A hand in the notation from (suit, rank index 0 = two) pairs."""
    ranks = "23456789TJQKA"
    return ".".join(
        "".join(ranks[r] for r in sorted((r for t, r in cards if t == s), reverse=True)) for s in range(4)
    )


def trump_fight_positions(seed: int, count: int) -> list[Position]:
    """Small positions rich in trumps, at a trick boundary, normal play.

    Why: many nodes of a full search are the seat needing one or two tricks in a fight
    over trump length, where bounds.c's right_hand_trumps and forcing_lead_bound decide;
    random deals reach such fights too rarely to test them hard. Leaving the left-hand
    opponent's higher trumps out of right_hand_trumps' count, dropping the small trumps
    it keeps for further tricks, or leaving out one of forcing_lead_bound's coalition
    answers makes this test fail.
    """
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randint(2, 5)
        trump = rng.randrange(4)
        pool = [(trump, r) for r in rng.sample(range(13), rng.randint(3, 13))]
        pool += rng.sample([(s, r) for s in range(4) if s != trump for r in range(13)], 3 * n)
        cards = rng.sample(pool, 3 * n)
        hands = [_hand_text(cards[i * n : (i + 1) * n]) for i in range(3)]
        deal = Deal.parse("D:" + " ".join(hands))
        out.append(
            Position(deal, "SHDC"[trump], rng.choice("DEM"), rng.choice("DEM"), False, rng.random() < 0.5)
        )
    return out


def check_targeted(positions: list[Position]) -> None:
    """Solve and can_reach against the brute force on positions made to reach one bound."""
    solver = Solver(tt_mb=4)
    failures = []
    for pos in positions:
        expected = bf.solve(pos.deal, pos.strain, **pos.kwargs())
        if solver.solve(pos.deal, pos.strain, **pos.kwargs()) != expected:
            failures.append(f"solve != {expected}: {pos}")
        failures.extend(check_can_reach(solver, pos, expected))
    bf.clear_cache()
    assert not failures, "\n".join(failures[:10])


def test_trump_fights_match_bruteforce():
    check_targeted(trump_fight_positions(3100, 400))


def agreed_value(text: str, strain: str, leader: str, seat: str, must_ruff: bool = False) -> int:
    """The brute force's value of a hand-made position, once the engine has given the same."""
    deal = Deal.parse(text)
    expected = bf.solve(deal, strain, leader=leader, seat=seat, must_ruff=must_ruff)
    assert solve(deal, strain, leader=leader, seat=seat, must_ruff=must_ruff) == expected
    return expected


def test_top_trump_behind_the_seat_is_no_sure_trick():
    """E's ♥J has only the ♥K above it and E holds the ♥2 besides, but the king sits in M,
    E's left, who plays after E when D leads: D leads trumps through E, M covers, and E
    takes nothing. The rule that gives E a trick needs the higher trumps on E's right."""
    assert agreed_value("D:Q.83.. .J2..J .K7..K", "H", leader="D", seat="E") == 0
    # the same cards with the king on E's right (in D's hand): E's jack makes a trick
    assert agreed_value("D:.K7..K .J2..J Q.83..", "H", leader="M", seat="E") >= 1


def test_side_cards_the_coalition_can_draw_do_not_save_small_trumps():
    """Clubs: D's ♣JT beat everything but M's ♣A, and D's ♣4 can play under the ace. D
    must not also have to lead a trump from a hand of trumps, where M behind it wins
    cheaply and then leads the ace: a side card to lead saves that small trump only if M
    cannot draw it first. With ♥J against M's ♥Q, M leads the queen, D is left with trumps
    alone, and takes one trick; with ♥J9 against the queen D keeps a heart and takes two;
    against ♥Q3 M draws both and D takes one again."""
    assert agreed_value("D:.J..JT4 8..82.5 .Q..A87", "C", leader="M", seat="D") == 1
    assert agreed_value("D:.J9..JT4 87..82.5 .Q.3.A87", "C", leader="M", seat="D") == 2
    assert agreed_value("D:.J9..JT4 87..82.5 .Q3..A87", "C", leader="M", seat="D") == 1


def test_a_top_trump_beats_one_right_hand_trump_only():
    """D's ♠K beats either of M's ♠Q and ♠J, but not both: M (D's right) leads, D's 9 and 7
    lose to them once the K is gone, and E's A and T take the rest, so D takes nothing.
    A rule that counted only M's trumps above the K as unbeaten gave D a trick."""
    assert agreed_value("D:K97... AT2... QJ3...", "S", leader="M", seat="D") == 0
    # a small trump more for D (to play under the second honour) and D makes tricks
    assert agreed_value("D:K972... AT.54.. QJ3.6..", "S", leader="M", seat="D") >= 1


def test_a_duck_does_not_also_use_up_a_left_hand_trump():
    """It is tempting to think that when the seat's right-hand opponent R forces a duck, its
    partner L must throw one of its own high trumps into the same trick, so that the duck
    costs the seat nothing extra (right_hand_trumps would then need fewer small trumps).
    The coalition keeps the two apart, though. M's ♦65 against E's ♦K (M's right) and D's
    ♦J: D leads a heart, E ruffs with the king and M, holding only trumps, ducks; E leads a
    club, M ruffs and D overruffs, so M takes nothing. With E holding a heart to follow
    with, M ruffs D's heart lead and takes a trick. The same happens with trumps led: E's
    ♠A draws D's ♠4 while M plays its small ♠3, then M's ♠9 draws D's ♠7 after E has run
    out of trumps; without the ♠3, M has to play its 9 under the ace and D's 7 is a trick."""
    assert agreed_value("D:.2.J. ..K.5 ..65.", "D", leader="D", seat="M") == 0
    assert agreed_value("D:.2.J. .3.K. ..65.", "D", leader="D", seat="M") == 1
    assert agreed_value("D:74.QJ.. A.AT3.. 93.K6..", "S", leader="E", seat="D") == 0
    assert agreed_value("D:74.QJ.. A.AT3.. 9.K65..", "S", leader="E", seat="D") == 1


def test_top_cards_count_with_a_trump_for_entry_only_if_nobody_can_ruff():
    """Seat's side-suit top cards and its trumps all make tricks when the coalition holds
    no trump and seat holds one to get on lead (bounds.c, sole_trumps_bound). Each half of
    that condition matters: without a trump, E leads a club, D throws one of its two top
    cards and takes one trick; with E holding a lower trump than D's ♠A, M leads a
    diamond, E throws its only heart and ruffs D's ♥Q later: one trick again."""
    assert agreed_value("D:.Q.A. ..3.7 ..K.4", "S", leader="E", seat="D") == 1
    assert agreed_value("D:2.Q.A. .3.3.7 ..K.43", "S", leader="E", seat="D") == 3
    assert agreed_value("D:A.Q.. 5.5.. ..2.4", "S", leader="M", seat="D") == 1
    # with hearts for M instead, E has nothing to throw its heart on: D takes both
    assert agreed_value("D:A.Q.. 5.5.. .32..", "S", leader="M", seat="D") == 2


def entry_positions(seed: int, count: int) -> list[Position]:
    """Small positions, the coalition on lead, seat holding trumps and the coalition
    few or none (normal play, both must-ruff settings).

    Why: with every trump in seat's hand, one of them is its entry to cash its side-suit
    top cards (bounds.c, sole_trumps_bound); random deals reach that too rarely to test it
    hard. Counting the top cards when seat holds only the top trumps, or when it holds no
    trump, makes this test fail.
    """
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randint(2, 5)
        trump = rng.randrange(4)
        trumps = [(trump, r) for r in rng.sample(range(13), rng.randint(1, 4))]
        seat = rng.randrange(3)
        mine = trumps[: rng.randint(0, len(trumps))]
        theirs = trumps[len(mine) :]
        side = rng.sample([(s, r) for s in range(4) if s != trump for r in range(13)], 3 * n)
        hands: list[list[tuple[int, int]]] = [[], [], []]
        hands[seat] = mine[:n]
        rest = theirs + side
        for x in (seat + 1) % 3, (seat + 2) % 3:
            while len(hands[x]) < n:
                hands[x].append(rest.pop(0))
        hands[seat] += rest[: n - len(hands[seat])]
        deal = Deal.parse("D:" + " ".join(_hand_text(h) for h in hands))
        leader = "DEM"[(seat + rng.randint(1, 2)) % 3]
        out.append(Position(deal, "SHDC"[trump], leader, "DEM"[seat], False, rng.random() < 0.5))
    return out


def test_trump_entries_match_bruteforce():
    check_targeted(entry_positions(3300, 400))


def test_trump_game_keeps_what_the_side_suits_allow():
    """trump_game.c bounds the seat's value by a smaller game: trumps exact, side cards
    only by suit, and a trick without a trump goes to whichever player who followed suit
    the coalition picks. Each of these near versions of that game was wrong, on hands of
    two cards:

    - the seat winning its side-suit lead when nobody trumps: M leads the heart nine, D
      covers with the jack, and M's spade seven loses to both spades: nothing;
    - a hand's trumps taken as alike when only the card on the table lies between them:
      all cards are clubs, E leads the six and D covers whatever M plays (the queen over
      the eight, the seven over the five); D's queen and seven are next to each other in
      the hands, but the eight on the table separates them: M takes nothing;
    - the seat discarding under must-ruff: M leads the diamond king, D has to trump with
      its five and E overtrumps with the nine; D's spade king is then thrown on the heart
      ace: nothing (a seat free to throw the king at once keeps its five for that ace);
    - the seat trumping while it holds the led suit: D leads the spade king, E trumps
      with the four and M has to follow with the spade queen; E's club queen then beats
      M's nine: nothing.
    """
    assert agreed_value("D:9.J.. K.T.. 7.9..", "S", leader="M", seat="M") == 0
    assert agreed_value("D:...Q7 ...64 ...85", "C", leader="E", seat="M", must_ruff=True) == 0
    assert agreed_value("D:K...5 .Q..9 .A.K.", "C", leader="M", seat="D", must_ruff=True) == 0
    assert agreed_value("D:K.9.. ...Q4 Q...9", "C", leader="D", seat="M") == 0
