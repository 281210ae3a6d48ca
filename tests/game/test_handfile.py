"""Hand files: parsing, reconstruction from the play, round trips, and precise errors."""

from __future__ import annotations

import dataclasses
import doctest
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Card, Hand
from solver.deal import Deal, Seat
from solver.errors import HandFileError, RecordError
from solver.game import handfile, records
from solver.game.handfile import hand_from_record, load_hand, parse_hand, save_hand
from solver.game.match import Match
from solver.game.records import MatchRecord
from solver.game.rules import get_ruleset
from solver.players import get_player
from solver.tricks import trick_winner

PRESETS4 = ("british", "twelve", "card-return", "hungarian")
#: Options that keep a match of each preset short (hungarian plays its 18 deals).
SHORT: dict[str, dict[str, Any]] = {
    "british": {"match_end": "hands", "hands_limit": 3},
    "twelve": {"hands_limit": 3, "win_tricks": 16},
    "card-return": {"hands_limit": 3},
    "hungarian": {},
}


def play(preset: str, seed: int, **options: Any) -> MatchRecord:
    players = [get_player(k, f"{seed}:{i}") for i, k in enumerate(("heuristic", "random", "heuristic"))]
    return Match(get_ruleset(preset, **options), players, seed, preset=preset, options=options).play()


@pytest.fixture(scope="module")
def matches() -> dict[str, MatchRecord]:
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
    assert again.discard is not None and h.discard is not None
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
    assert d is not None
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


# --- forgiving entry: every problem at once, missing lines, words, BOM, names ----------------
EXAMPLE = (Path(__file__).resolve().parents[2] / "examples" / "hand-twelve.txt").read_text(encoding="utf-8")


def _problems(text: str) -> list[str]:
    with pytest.raises(HandFileError) as info:
        parse_hand(text)
    return list(info.value.problems)


def test_every_problem_is_reported_in_one_reading_in_file_order():
    text = (
        EXAMPLE.replace("D2 DA D4", "D2 DX D4")
        .replace("HK H2 H6", "HK H2 H6 H7")
        .replace('[Contract "S"]', '[Contract "Q"]')
        .replace("DQ D8 D9", "DQ D8 D1")
        .replace('[Leader "E"]', '[Leader "E"]\n[Bogus "x"]')
    )
    found = _problems(text)
    lines = [int(p.split()[1].rstrip(":")) for p in found]
    assert lines == sorted(lines) and len(found) >= 5
    for expected in ("[Contract] 'Q'", "unknown tag [Bogus]", "'DX'", "4 cards", "'D1'"):
        assert sum(expected in p for p in found) == 1, (expected, found)
    assert all(p.startswith("line ") for p in found)


def test_revokes_after_the_first_are_reported_too():
    """A revoke leaves the hands known, so later revokes are found in the same reading."""
    found = _problems(ending("D:A.52.. Q.43.. 3..32.", "SA H3 S3\nH2 SQ D2\nH4 D3 H5"))
    assert found == [
        "line 5 (trick 1): E revokes with H3: S was led and E holds SQ",
        "line 6 (trick 2): E revokes with SQ: H was led and E holds H4",
    ]


def test_typed_trick_numbers_are_checked():
    body = [ln for ln in EXAMPLE.splitlines() if ln and not ln.startswith(("#", "["))]
    head = [ln for ln in EXAMPLE.splitlines() if ln.startswith("[")]
    numbered = [f"{i}. {ln}" for i, ln in enumerate(body, 1)]
    assert parse_hand("\n".join(head + numbered)).complete
    wrong = numbered[:]
    wrong[5] = "7. " + body[5]
    wrong[6] = "6. " + body[6]
    found = _problems("\n".join(head + wrong))
    assert found[0] == f"line {len(head) + 6} says trick 7 but is trick 6 (is the line of trick 6 missing?)"
    assert found[1] == f"line {len(head) + 7} says trick 6 but is trick 7"


def test_a_skipped_trick_line_is_named_missing_not_a_revoke():
    skipped = EXAMPLE.replace("H5 H8 HT\n", "")
    (only,) = _problems(skipped)
    assert "is the line of trick 7 missing? (H5 H8 HT" in only
    assert "revoke" not in only
    body = [ln for ln in EXAMPLE.splitlines() if ln and not ln.startswith(("#", "["))]
    head = [ln for ln in EXAMPLE.splitlines() if ln.startswith("[")]
    numbered = [f"{i}. {ln}" for i, ln in enumerate(body, 1) if i != 9]
    found = _problems("\n".join(head + numbered))
    assert found[0] == f"line {len(head) + 9} says trick 10 but is trick 9 (is the line of trick 9 missing?)"
    assert "CK S3 C5, never played in the file, would fit as trick 9" in found[1]
    assert not any("revoke" in p for p in found)
    without_deal = "\n".join(ln for ln in skipped.splitlines() if not ln.startswith(("[Deal", "[Discard")))
    (only,) = _problems(without_deal)
    assert "45 of 48 cards" in only and "Is a trick line missing?" in only


def test_a_genuine_revoke_in_a_partial_play_stays_a_revoke():
    with pytest.raises(HandFileError, match="E revokes with HQ"):
        parse_hand(ending("D:AK... 2.Q.. .A.3.", "SA HQ HA"))


@pytest.mark.parametrize(
    "rules, contract, strain",
    [
        ("Twelve", "hearts", "H"),
        ("TWELVE", "Spades", "S"),
        ("no-trump", "no trump", "N"),
        ("No-Trump", "No-Trump", "N"),
        ("MIZ", "misère", "miz"),
        ("twelve", "clubs", "C"),
        ("british", "diamond", "D"),
    ],
)
def test_rules_in_any_case_and_contracts_as_words(rules, contract, strain):
    rec = parse_hand(
        ending("D:AK... Q2... 3.A..", "SA S2 S3", contract=contract, rules=rules).replace("twelve", rules)
    )
    assert rec.contract == strain and rec.ruleset.name == rules.lower()


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.encode("utf-8"))
    assert load_hand(path) == parse_hand(EXAMPLE)
    assert parse_hand("\ufeff" + EXAMPLE).complete


def test_a_card_outside_a_51_card_deck_is_refused():
    rec = hand_from_record(play("no-widow", 3, hands_limit=1), 1)
    text = rec.to_text()
    assert load_hand(text) == rec
    # the same play with the removed club two in place of another club
    clubs = [c for c in rec.cards if str(c).startswith("C")]
    forged = "\n".join(" ".join("C2" if c == clubs[0] else str(c) for c in t) for t in rec.tricks)
    head = "\n".join(
        ln for ln in text.splitlines() if ln.startswith("[") and not ln.startswith(("[Deal", "[Discard"))
    )
    found = _problems(head + "\n" + forged)
    assert any(
        "card C2 is not in the deck of no-widow+custom (51 cards: the C2 is taken out)" in p for p in found
    )


def test_reconstructed_hands_are_marked_and_shown_by_the_cli(capsys, tmp_path):
    from cli.main import main

    path = tmp_path / "nodeal.txt"
    path.write_text(
        "\n".join(ln for ln in EXAMPLE.splitlines() if not ln.startswith(("[Deal", "[Discard"))),
        encoding="utf-8",
    )
    assert load_hand(path).reconstructed and not load_hand(EXAMPLE).reconstructed
    assert main(["review", str(path), "--no-declaration", "--json"]) == 0
    err = capsys.readouterr().err
    assert "reconstructed from the play" in err
    assert "D ♠AQ87532 ♥KJ753 ♦T964 ♣—" in err
    assert main(["advise", str(path), "--at", "15.1", "--samples", "2", "--json"]) == 0
    assert "sm358 advise: note: the file gives no [Deal]" in capsys.readouterr().err
    example = str(Path(__file__).resolve().parents[2] / "examples" / "hand-twelve.txt")
    assert main(["review", example, "--no-declaration", "--json"]) == 0
    assert "reconstructed" not in capsys.readouterr().err


def test_the_cli_prints_one_line_a_problem(capsys, tmp_path):
    from cli.main import main

    path = tmp_path / "typos.txt"
    path.write_text(EXAMPLE.replace("D2 DA D4", "D2 DX D4").replace("DQ D8 D9", "DQ D8 D1"), encoding="utf-8")
    assert main(["review", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"sm358 review: error: {path}: 2 problems:"
    assert err[1].startswith("  line 12 (trick 2): cannot read card 'DX'")
    assert err[2].startswith("  line 21 (trick 11): cannot read card 'D1'")


#: Any name a record may hold: commas, quotes, backslashes, newlines, controls, spaces.
names = st.text(
    st.characters(blacklist_categories=("Cs",)),  # type: ignore[arg-type]  # hypothesis types it as Literal names
    min_size=1,
    max_size=12,
) | st.sampled_from(
    ["Smith, J.", 'say "hi"', "a\nb", " lead", "trail ", "\\", '"', "\u2028", "x\x1b]0;t\x07"]
)


@settings(max_examples=150, deadline=None)
@given(st.tuples(names, names, names))
def test_player_names_round_trip_through_a_hand_file(players):
    rec = parse_hand(EXAMPLE)
    named = dataclasses.replace(rec, players=players)
    text = named.to_text()
    assert all(ch.isprintable() or ch == "\n" for ch in text)
    again = parse_hand(text)
    assert again.players == players and again == named


def test_a_play_without_a_deal_is_checked_despite_a_bad_tag():
    text = "\n".join(ln for ln in EXAMPLE.splitlines() if not ln.startswith(("[Deal", "[Discard")))
    text = text.replace("HA H4 H3", "HA D8 H3").replace("DQ D8 D9", "DQ H4 D9")
    text = text.replace('[Leader "E"]', '[Leader "E"]\n[Bogus "1"]')
    found = _problems(text)
    assert len(found) == 3 and "unknown tag [Bogus]" in found[0]
    assert "M revokes with D8: H was led and M holds" in found[1] and found[1].endswith("(played later)")
    assert "M revokes with D5: H was led and M holds H4 (played later)" in found[2]  # H4 moved to trick 11


def test_a_name_with_a_comma_is_typed_in_quotes():
    typed = EXAMPLE.replace('[Rules "twelve"]', '[Rules "twelve"]\n[Players "Smith, J., Ann, Bob"]')
    (found,) = _problems(typed)
    assert "got 4; a name holding a comma goes in quotes" in found
    quoted = typed.replace('"Smith, J., Ann, Bob"', '""Smith, J.", Ann, Bob"')
    assert parse_hand(quoted).players == ("Smith, J.", "Ann", "Bob")
