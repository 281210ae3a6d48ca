"""Hand files: parsing, reconstruction from the play, round trips, and precise errors."""

from __future__ import annotations

import doctest

import pytest

from solver.cards import Card, Hand
from solver.deal import Deal, Seat
from solver.errors import RecordError
from solver.game import handfile, records
from solver.game.handfile import hand_from_record, load_hand, parse_hand, save_hand
from solver.game.match import Match
from solver.game.rules import get_ruleset
from solver.players import get_player
from solver.tricks import trick_winner

PRESETS4 = ("british", "twelve", "card-return", "hungarian")
#: Options that keep a match of each preset short (hungarian plays its 18 deals).
SHORT = {
    "british": {"match_end": "hands", "hands_limit": 3},
    "twelve": {"hands_limit": 3, "win_tricks": 16},
    "card-return": {"hands_limit": 3},
    "hungarian": {},
}


def play(preset: str, seed: int, **options) -> dict:
    players = [get_player(k, f"{seed}:{i}") for i, k in enumerate(("heuristic", "random", "heuristic"))]
    return Match(get_ruleset(preset, **options), players, seed, preset=preset, options=options).play()


@pytest.fixture(scope="module")
def matches() -> dict[str, dict]:
    out = {}
    for preset in PRESETS4:
        out[preset] = play(preset, 5, **SHORT[preset])
    return out


def test_doctests():
    assert doctest.testmod(handfile).failed == 0


def test_every_hand_of_every_preset_round_trips(matches):
    for preset, rec in matches.items():
        records.validate(rec)
        for n in range(1, len(rec["hands"]) + 1):
            h = hand_from_record(rec, n)
            again = load_hand(h.to_text())
            assert again == h, (preset, n)
            assert again.won == tuple(rec["hands"][n - 1]["tricks"][s] for s in "DEM")


def test_reconstruction_from_the_play_alone_matches_the_deal(matches):
    """Without [Deal], [Discard] and [Exchange] the hands come from the play itself."""
    for preset, rec in matches.items():
        for n in range(1, len(rec["hands"]) + 1):
            h = hand_from_record(rec, n)
            lines = [
                ln for ln in h.to_text().splitlines() if not ln.startswith(("[Deal", "[Discard", "[Exchange"))
            ]
            bare = parse_hand("\n".join(lines))
            assert bare.start == h.start, (preset, n)
            assert bare.discard is None and bare.dealt is None


def test_discard_inferred_from_dealt_deal_and_complete_play(matches):
    h = hand_from_record(matches["twelve"], 1)
    text = "\n".join(ln for ln in h.to_text().splitlines() if not ln.startswith("[Discard"))
    again = parse_hand(text)
    assert sorted(again.discard) == sorted(h.discard)
    assert again.start == h.start


def test_positions_follow_the_play(matches):
    h = hand_from_record(matches["card-return"], 2)
    hands = [set(x) for x in h.start.hands]
    won = [0, 0, 0]
    for t, trick in enumerate(h.tricks, 1):
        pos = h.position(t)
        assert [set(x) for x in pos.deal.hands] == hands
        assert pos.won == tuple(won) and pos.leader == h.leaders[t - 1]
        for k, c in enumerate(trick):
            p = h.position(t, k)
            assert p.played == trick[:k] and p.mover == h.seat_of(t, k)
            hands[p.mover].discard(c)
        won[
            (
                h.leaders[t - 1]
                + trick_winner([c.bit.bit_length() - 1 for c in trick], "SHDCN".index(h.strain))
            )
            % 3
        ] += 1
    assert tuple(won) == h.won


def test_save_is_atomic_and_loads_from_a_path(tmp_path, matches):
    h = hand_from_record(matches["british"], 1)
    path = tmp_path / "h.txt"
    save_hand(h, path)
    assert load_hand(path) == h
    assert [p.name for p in tmp_path.iterdir()] == ["h.txt"]


def test_comments_trick_numbers_symbols_and_partial_play():
    rec = parse_hand("""
        # an ending of five cards, spades trump
        [Rules "twelve"]   # the ruleset
        [Contract "♠"]
        [Deal "D:Q8.JT8.. T...JT98 .K9.A.AQ"]
        [Leader "D"]
        1. ♠Q S10 HK
        2) S8
    """)
    assert rec.contract == "S" and not rec.complete
    assert rec.tricks == ((Card.parse("SQ"), Card.parse("ST"), Card.parse("HK")), (Card.parse("S8"),))
    pos = rec.position(2, 1)
    assert pos.leader == Seat.D and pos.mover == Seat.E and pos.won == (1, 0, 0)
    assert pos.deal == Deal.parse("D:8.JT8.. ...JT98 .9.A.AQ")


ENDING = '[Rules "twelve"]\n[Contract "{c}"]\n[Deal "{d}"]\n[Leader "{l}"]\n'


def ending(deal: str, play: str, contract: str = "S", leader: str = "D", rules: str = "twelve") -> str:
    return ENDING.replace("twelve", rules).format(c=contract, d=deal, l=leader) + play


@pytest.mark.parametrize(
    "text, message",
    [
        # a revoke names the card that should have followed
        (
            ending("D:AK... 2.Q.. .A.3.", "SA HQ HA"),
            r"line 5 \(trick 1\): E revokes with HQ: S was led and E holds S2",
        ),
        (
            ending("D:AK... 2.Q.. .A.3.", "SA S2 HA\nSK HQ DK"),
            r"line 6 \(trick 2\): card DK is not in M's hand",
        ),
        (
            ending("D:AK... 2.Q.. .A.3.", "SA S2 HA\nSA HQ D3"),
            r"trick 2\): card SA played twice \(already played at trick 1\)",
        ),
        (
            ending("D:AK... 2.Q.. .A.3.", "SA S2 HA\nHQ SK D3"),
            r"trick 2\): wrong seat leading: HQ is E's card, but D won",
        ),
        (ending("D:AK... 2.Q.. .A.3.", "SA S2 HA\nSK HQ"), None),
        (
            ending("D:A.K.. 2..3. .A.4.", "HK D3 D4", rules="hungarian"),
            r"trick 1\): E plays D3 without ruffing: void in H, E must play a trump \(holds S2\)",
        ),
        (ending("D:AK... 2.Q.. .A.3.", "SA S2 HA\nSK HQ D3\nSQ"), r"trick 3\): the hand has only 2 tricks"),
        (ending("D:AK... 2.Q.. .A.3.", "SA S2\nSK HQ D3"), r"line 5 \(trick 1\): 2 card\(s\); only the last"),
        (
            ending("D:AK... 2.Q.. .A.3.", "SA S2 HA", leader="E"),
            r"trick 1\): wrong seat leading: SA is D's card",
        ),
        (
            ending("D:AK... 2.Q.. .A.3.", "SA S2 HX"),
            r"line 5 \(trick 1\): cannot read card .HX.: unknown rank",
        ),
        (
            ending("D:AK... 2.Q.. .A.3.", "SA S2 HA", contract="MT"),
            r"\[Contract\] 'MT' is not a mode of twelve",
        ),
    ],
)
def test_illegal_records_name_the_trick_and_the_card(text, message):
    if message is None:
        assert not parse_hand(text).complete
        return
    with pytest.raises(RecordError, match=message):
        parse_hand(text)


def test_wrong_first_leader_of_a_full_hand(matches):
    h = hand_from_record(matches["twelve"], 1)
    text = h.to_text().replace('[Leader "E"]', '[Leader "D"]')
    with pytest.raises(
        RecordError, match=r"\(trick 1\): wrong seat leading: \[Leader\] is D, but under twelve\S* E"
    ):
        parse_hand(text)


def test_a_deal_that_disagrees_with_the_play(matches):
    h = hand_from_record(matches["twelve"], 1)
    d = h.dealt
    e, m = d[Seat.E], d[Seat.M]
    ce, cm = next(iter(e)), next(c for c in m if c.suit != next(iter(e)).suit)
    swapped = Deal([d[Seat.D], e.remove(ce).add(cm), m.remove(cm).add(ce)], d.widow)
    text = h.to_text().replace(str(d), str(swapped))
    with pytest.raises(
        RecordError, match=r"trick \d+\): card .. is not in .'s hand \(it is .'s\).*\[Exchange\]"
    ):
        parse_hand(text)


def test_missing_pieces_are_named():
    with pytest.raises(RecordError, match=r"missing tag \[Contract"):
        parse_hand('[Rules "twelve"]\nSA S2 S3')
    with pytest.raises(RecordError, match=r"missing tag \[Rules"):
        parse_hand('[Contract "S"]\nSA S2 S3')
    with pytest.raises(RecordError, match=r"lists 3 of 48 cards: a partial play needs \[Deal\]"):
        parse_hand('[Rules "twelve"]\n[Contract "S"]\nSA S2 S3')
    with pytest.raises(RecordError, match=r"line 2: unknown tag \[Dealer\]"):
        parse_hand('[Rules "twelve"]\n[Dealer "x"]\n')
    with pytest.raises(RecordError, match=r"line 3: tag \[Contract\] after the play"):
        parse_hand('[Rules "twelve"]\nSA S2 S3\n[Contract "S"]\n')


def _swap_to_revoke(h):
    """A follower's card swapped with a later off-suit card of the same seat, winners unchanged."""
    trump = "SHDCN".index(h.strain)
    tricks = [list(t) for t in h.tricks]
    for t, trick in enumerate(tricks):
        for k in (1, 2):
            x = trick[k]
            if x.suit != trick[0].suit:
                continue
            seat = h.seat_of(t + 1, k)
            for u in range(t + 1, len(tricks)):
                j = (seat - h.leaders[u]) % 3
                y = tricks[u][j]
                if y.suit == trick[0].suit or (j == 0):
                    continue
                new_t, new_u = list(trick), list(tricks[u])
                new_t[k], new_u[j] = y, x
                if new_u[0].suit != tricks[u][0].suit:
                    continue
                bits = lambda cs: [c.bit.bit_length() - 1 for c in cs]
                if trick_winner(bits(new_t), trump) != trick_winner(bits(trick), trump) or trick_winner(
                    bits(new_u), trump
                ) != trick_winner(bits(tricks[u]), trump):
                    continue
                out = [list(z) for z in tricks]
                out[t], out[u] = new_t, new_u
                return out, t + 1, seat, y, x
    return None


def test_revoke_found_from_the_play_alone(matches):
    for rec in matches.values():
        h = hand_from_record(rec, 1)
        found = _swap_to_revoke(h)
        if found is None:
            continue
        tricks, t, seat, y, x = found
        head = [
            ln
            for ln in h.to_text().splitlines()
            if ln.startswith("[") and not ln.startswith(("[Deal", "[Discard", "[Exchange"))
        ]
        text = "\n".join(head + [" ".join(str(c) for c in tr) for tr in tricks])
        with pytest.raises(
            RecordError, match=rf"\(trick {t}\): {seat.name} revokes with {y}: .* holds .*{x}.*played later"
        ):
            parse_hand(text)
        return
    pytest.fail("no hand offered a revoke to plant")


def test_hand_from_record_number_out_of_range(matches):
    with pytest.raises(RecordError, match="hand 99: the record has hands 1..3"):
        hand_from_record(matches["twelve"], 99)


def test_hand_of_hand_file_is_a_hand_object(matches):
    h = hand_from_record(matches["twelve"], 2)
    assert all(isinstance(x, Hand) for x in h.start.hands) and h.start.hand_size == 16
