"""What a seat knows after the card exchange, against an independent enumeration.

Seeded matches of the four source presets are played; in every hand with an exchange, the
view of the seat to move admits the true layout at every point of the play, and late in the
play (few hidden cards) the layouts it admits are exactly those an enumeration of the
exchange's possible histories allows: every card each unseen transfer may have carried,
every discard the declarer may have made of the cards it was given, and a legal play.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import numpy as np
import pytest

from solver.cards import Card, Hand
from solver.deal import Deal, Seat
from solver.game.handfile import HandRecord, hand_from_record
from solver.game.knowledge import Layout, View
from solver.game.match import Match
from solver.game.rules import get_ruleset
from solver.modes import Mode
from solver.players import get_player
from solver.tricks import legal_mask

SEATS = (Seat.D, Seat.E, Seat.M)
PRESETS = ("british", "twelve", "card-return", "hungarian")


@cache
def exchange_hands(preset: str, matches: int = 3) -> tuple[HandRecord, ...]:
    """Every hand with an exchange in ``matches`` seeded heuristic matches of ``preset``."""
    out = []
    for seed in range(matches):
        players = [get_player("heuristic", f"{seed}:{i}") for i in range(3)]
        record = Match(get_ruleset(preset), players, seed=seed, preset=preset).play()
        for n, hand in enumerate(record["hands"], 1):
            if hand["exchange"]:
                out.append(hand_from_record(record, n))
    return tuple(out)


def points(rec: HandRecord, first_trick: int = 1, every: bool = True):
    """Points of the play: every card from ``first_trick`` on, or one card a trick."""
    for t in range(first_trick, len(rec.tricks) + 1):
        for k in range(1, 4) if every else (t % 3 + 1,):
            yield t, k


def true_layout(rec: HandRecord, view: View) -> Layout:
    """The real hands when the current trick began and the real out-of-play cards."""
    pos = rec.position(*_cut(view))
    hands = {s: pos.deal.hands[s] for s in SEATS}
    return Layout(hands, Hand(rec.discard or ()), pos.played, pos.leader)


def _cut(view: View) -> tuple[int, int]:
    n = len(view.played)
    return n // 3 + 1, n % 3


# --- the independent enumeration -------------------------------------------------------------
def tracked_outcomes(rec: HandRecord, seat: Seat) -> set[frozenset[tuple[Card, str]]]:
    """Every final whereabouts (card, seat name or "out") of the cards ``seat`` last saw go to
    another seat, over all histories: each transfer ``seat`` was not part of carried any card
    its giver held then (one of those cards or another one), and a declarer that discards
    after the exchange may have discarded any of them."""
    histories: list[dict[Card, Seat]] = [{}]
    for frm, to, card in rec.exchange:
        if seat in (frm, to):
            for h in histories:
                if to == seat:
                    h.pop(card, None)
                else:
                    h[card] = to
            continue
        grown = []
        for h in histories:
            grown.append(dict(h))  # it carried some other card
            for c, at in h.items():
                if at == frm:
                    g = dict(h)
                    g[c] = to
                    grown.append(g)
        histories = grown
    seq = rec.ruleset.sequence
    discards_after = "discard" in seq and seq.index("discard") > seq.index("exchange")
    out = set()
    for h in histories:
        at_declarer = [c for c, s in h.items() if s == rec.declarer]
        options: list[tuple[Card, ...]] = [()]
        if discards_after and seat != rec.declarer:
            options = [
                combo
                for r in range(min(len(at_declarer), rec.ruleset.widow_size) + 1)
                for combo in itertools.combinations(at_declarer, r)
            ]
        for gone in options:
            out.add(frozenset((c, "out" if c in gone else s.name) for c, s in h.items()))
    return out


def legal_play(start: dict[Seat, Hand], rec: HandRecord, played: list[Card]) -> bool:
    trump = int(Mode.parse(rec.contract).strain)
    left = {s: start[s].mask for s in SEATS}
    for i, card in enumerate(played):
        t, k = divmod(i, 3)
        who = Seat((rec.leaders[t] + k) % 3)
        led = played[3 * t].suit if k else -1
        if not legal_mask(left[who], led, trump, rec.must_ruff) & card.bit:
            return False
        left[who] &= ~card.bit
    return True


def enumerate_admitted(rec: HandRecord, view: View) -> list[tuple[dict[Seat, Hand], Hand]]:
    """Every (start-of-play hands, out-of-play cards) consistent with what ``view.seat`` saw."""
    seat = view.seat
    played = list(view.played)
    by_seat = {s: Hand() for s in SEATS}
    for i, card in enumerate(played):
        t, k = divmod(i, 3)
        by_seat[Seat((rec.leaders[t] + k) % 3)] = by_seat[Seat((rec.leaders[t] + k) % 3)].add(card)
    others = [s for s in SEATS if s != seat]
    mine = rec.start.hands[seat]
    known_out = Hand(rec.discard or ()) if seat == rec.declarer else Hand()
    hidden = list(rec.ruleset.deck - mine - Hand(played) - known_out)
    sizes = [rec.hand_size - len(by_seat[s]) for s in others]
    outcomes = tracked_outcomes(rec, seat)
    tracked = {c for o in outcomes for c, _ in o}
    found = []
    for a in itertools.combinations(hidden, sizes[0]):
        rest = [c for c in hidden if c not in a]
        for b in itertools.combinations(rest, sizes[1]):
            out = Hand([c for c in rest if c not in b]) | known_out
            start = {
                seat: mine,
                others[0]: Hand(a) | by_seat[others[0]],
                others[1]: Hand(b) | by_seat[others[1]],
            }
            place = {c: s.name for s in others for c in start[s]} | {c: "out" for c in out}
            final = frozenset((c, place.get(c, seat.name)) for c in tracked)
            if final in outcomes and legal_play(start, rec, played):
                found.append((start, out))
    return found


def as_layout(view: View, start: dict[Seat, Hand], out: Hand) -> Layout:
    state = view.play_state()
    done = Hand(view.played[: len(view.played) - len(state.trick)])
    return Layout({s: start[s] - done for s in SEATS}, out, state.trick, state.leader)


# --- the tests -------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_the_true_layout_is_admitted_at_every_point(preset):
    hands = exchange_hands(preset)
    assert hands, f"no hand with an exchange in the {preset} matches"
    for rec in hands:
        for t, k in points(rec, every=False):
            view = View.from_hand_record(rec, t, k)
            assert view.admits(true_layout(rec, view)), (preset, rec.number, t, k)


@pytest.mark.parametrize("preset", PRESETS)
def test_late_views_admit_exactly_the_enumerated_layouts(preset):
    rng = np.random.default_rng(7)
    for rec in exchange_hands(preset):
        for t, k in points(rec, first_trick=rec.hand_size - 1, every=False):
            view = View.from_hand_record(rec, t, k)
            admitted = enumerate_admitted(rec, view)
            assert view.sampler().count() == len(admitted), (preset, rec.number, t, k)
            for _ in range(5):
                lay = view.sample(rng)
                assert any(as_layout(view, s, o) == lay for s, o in admitted)


def test_the_matches_cover_returned_passed_on_and_discarded_cards():
    """The checks above see every way a passed card leaves its receiver."""
    seen: Counter[str] = Counter()
    for preset in PRESETS:
        for rec in exchange_hands(preset):
            for seat in SEATS:
                gave = {c: to for frm, to, c in rec.exchange if frm == seat}
                for card, to in gave.items():
                    if card in rec.start.hands[seat]:
                        seen["returned"] += 1
                    elif rec.discard and card in rec.discard:
                        seen["discarded"] += 1
                    elif card not in rec.start.hands[to]:
                        seen["passed on"] += 1
    assert seen["returned"] and seen["discarded"] and seen["passed on"], seen


def test_the_issue_hand_gives_advice():
    """Hand 2 of match 1 of ``simulate --rules twelve --players heuristic x3 --seed 11``: the
    declarer discarded a card M had given it ('a bin has a negative size' before)."""
    from solver.analysis.simulation import simulate

    records = []
    simulate(get_ruleset("twelve"), ["heuristic"] * 3, 1, 11, on_record=lambda i, k, r: records.append(r))
    rec = hand_from_record(records[0], 2)
    assert rec.discard is not None
    assert rec.exchange and set(rec.discard) & {c for frm, _, c in rec.exchange if frm != rec.declarer}
    view = View.from_hand_record(rec, 16, 2)
    assert view.admits(true_layout(rec, view))


@pytest.mark.parametrize("seed", range(4))
def test_cards_passed_on_are_capped_by_the_transfers_made(seed):
    """E gave D two cards, D gave M one card afterwards (unseen by E): at most one of the two
    is with M. A synthetic hand late in the play, so the enumeration is exact."""
    from advice_helpers import random_play

    deal = Deal.random(100 + seed)
    start = {s: deal.hands[s] for s in SEATS}
    full = random_play(start, "S", Seat.E, 45, seed)
    played = next(full[:n] for n in range(39, 45) if _mover(full[:n], start) == Seat.E)
    left = {s: start[s] - Hand(played) for s in SEATS}
    c1, c2 = sorted(left[Seat.D], key=lambda c: c.bit)[:2]
    m1 = sorted(left[Seat.M], key=lambda c: c.bit)[0]
    exchange = ((Seat.E, Seat.D, c1), (Seat.E, Seat.D, c2), (Seat.D, Seat.M, m1))
    tricks = tuple(tuple(played[i : i + 3]) for i in range(0, len(played), 3))
    rec = HandRecord(
        ruleset=get_ruleset("british"),
        declarer=Seat.D,
        contract=Mode.S,
        leader=Seat.E,
        start=Deal([start[s] for s in SEATS]),
        tricks=tricks,
        discard=tuple(deal.widow),
        exchange=exchange,
    )
    t, k = _cut_of(len(played))
    view = View.from_hand_record(rec, t, k)
    places, caps = view.whereabouts()
    assert places[c1] == places[c2] == frozenset({"D", "M", "out"})
    assert [cap.most for cap in caps] == [1]
    admitted = enumerate_admitted(rec, view)
    assert view.sampler().count() == len(admitted)
    assert view.admits(true_layout(rec, view))


def _mover(played: list[Card], start: dict[Seat, Hand]) -> Seat:
    rec = HandRecord(
        ruleset=get_ruleset("british"),
        declarer=Seat.D,
        contract=Mode.S,
        leader=Seat.E,
        start=Deal([start[s] for s in SEATS]),
        tricks=tuple(tuple(played[i : i + 3]) for i in range(0, len(played), 3)),
    )
    return rec.position(len(played) // 3 + 1, len(played) % 3).mover


def _cut_of(n_played: int) -> tuple[int, int]:
    return n_played // 3 + 1, n_played % 3 + 1
