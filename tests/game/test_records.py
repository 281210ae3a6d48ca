"""Game records: round trips for every preset, tampered records rejected precisely, atomic save."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from match_audit import SEATS, winner_index
from solver.cards import Card, Hand
from solver.errors import RecordError
from solver.game import records
from solver.game.match import Match
from solver.game.records import MatchRecord
from solver.game.rules import PRESETS, get_ruleset
from solver.players import get_player


def play(preset: str, seed=1, kinds=("heuristic", "random", "heuristic")) -> MatchRecord:
    players = [get_player(k, f"{seed}:{i}") for i, k in enumerate(kinds)]
    return Match(get_ruleset(preset), players, seed, preset=preset).play()


@pytest.fixture(scope="module")
def twelve() -> MatchRecord:
    return play("twelve", 1)


@pytest.fixture(scope="module")
def british() -> MatchRecord:
    return play("british", 2)


def rejected(record: Mapping[str, object], pattern: str) -> None:
    with pytest.raises(RecordError, match=pattern):
        records.validate(record)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_round_trips(preset, tmp_path):
    rec = play(preset, 3)
    path = tmp_path / "m.json"
    records.save(rec, path)
    loaded = records.load(path)
    assert loaded == json.loads(json.dumps(rec))
    assert records.replay(loaded, records.ruleset_of(loaded)) == json.loads(json.dumps(rec))


def test_options_are_recorded_and_replayed(tmp_path):
    rs = get_ruleset("twelve", hands_limit=3, win_tricks=16)
    players = [get_player("random", i) for i in range(3)]
    rec = Match(rs, players, 8, preset="twelve", options={"hands_limit": 3, "win_tricks": 16}).play()
    assert len(rec["hands"]) == 3
    records.save(rec, tmp_path / "o.json")
    assert records.load(tmp_path / "o.json")["rules"]["options"] == {"hands_limit": 3, "win_tricks": 16}
    bad = copy.deepcopy(rec)
    bad["rules"]["options"] = {"hands_limit": 2, "win_tricks": 16}
    rejected(bad, "hand 3: the match was already over after hand 2")
    bad["rules"]["options"] = {"hands_limit": 4, "win_tricks": 16}
    rejected(bad, "the record ends after hand 3, but the match is not over")


def seats_in_play(h: dict, rs) -> list[tuple[int, str, Card]]:
    """(trick number, seat, card) for every card of a recorded hand."""
    mode = h["declaration"]["mode"]
    trump = "SHDC".index(mode) if mode in "SHDC" else None
    leader = 1 if rs.first_leader == "eldest" else SEATS.index(h["declaration"]["declarer"])
    out = []
    cards = [Card.parse(c) for c in h["play"]]
    for t in range(len(cards) // 3):
        trick = cards[3 * t : 3 * t + 3]
        out += [(t + 1, SEATS[(leader + k) % 3], c) for k, c in enumerate(trick)]
        leader = (leader + winner_index(trick, trump)) % 3
    return out


def test_revoke_is_rejected_naming_hand_trick_and_card(twelve):
    rs = get_ruleset("twelve")
    for number, h in enumerate(twelve["hands"], 1):
        plays = seats_in_play(h, rs)
        for i, (t, seat, card) in enumerate(plays):
            if i % 3 == 0:
                continue
            led = plays[i - i % 3][2].suit
            later = [
                j
                for j in range(i + 1, len(plays))
                if plays[j][1] == seat and plays[j][2].suit != led and plays[j][0] > t
            ]
            if card.suit == led and later:
                j = later[0]
                bad = copy.deepcopy(twelve)
                p = bad["hands"][number - 1]["play"]
                p[i], p[j] = p[j], p[i]
                rejected(bad, rf"hand {number}, trick {t}: .* \({seat}\) played {plays[j][2]}: revoke")
                return
    pytest.fail("no trick to build a revoke from")


def test_card_not_in_hand_is_rejected(twelve):
    bad = copy.deepcopy(twelve)
    h = bad["hands"][0]
    # give the first card of the play to the wrong player: the leader plays the second player's card
    h["play"][0] = h["play"][1]
    rejected(bad, rf"hand 1, trick 1: .* played {h['play'][1]}, which is not in the hand")


def test_wrong_exchange_is_rejected(british):
    number = next(i for i, h in enumerate(british["hands"], 1) if h["exchange"])
    bad = copy.deepcopy(british)
    t = bad["hands"][number - 1]["exchange"][0]
    holder = t["from"]
    # swap in a different card of the giver's hand: the rules give the lowest/highest only
    dealt = bad["hands"][number - 1]["dealt"][holder]
    alt = next(str(c) for c in Hand.parse(dealt) if str(c) != t["card"])
    t["card"] = alt
    rejected(bad, rf"hand {number}: wrong exchange at card 1: the record has {alt} from {holder}")


def test_named_suit_give_back_of_a_card_not_held_is_rejected(twelve):
    number = next((i for i, h in enumerate(twelve["hands"], 1) if h["exchange"]), None)
    assert number is not None
    bad = copy.deepcopy(twelve)
    h = bad["hands"][number - 1]
    give_back = h["exchange"][1]  # named-suit: taken card first, then the card given back
    taker_cards = h["dealt"][give_back["to"]]
    give_back["card"] = str(next(iter(Hand.parse(taker_cards))))
    rejected(bad, rf"hand {number}, exchange: ")


def test_wrong_discard_is_rejected(british):
    bad = copy.deepcopy(british)
    h = bad["hands"][0]
    elsewhere = str(next(iter(Hand.parse(h["dealt"]["E"]))))
    h["declaration"]["discard"][0] = elsewhere
    rejected(bad, rf"hand 1: declarer .* discarded {elsewhere}, which is not in the cards to discard from")


def test_wrong_counts_and_totals_are_rejected(twelve):
    bad = copy.deepcopy(twelve)
    bad["hands"][0]["tricks"]["D"] += 1
    bad["hands"][0]["tricks"]["E"] -= 1
    rejected(bad, "hand 1: tricks recorded as D")
    bad = copy.deepcopy(twelve)
    bad["result"]["totals"][1] += 2
    rejected(bad, r"result: totals recorded as")
    bad = copy.deepcopy(twelve)
    bad["result"]["winner"] = (twelve["result"]["winner"] + 1) % 3
    rejected(bad, "result: winner recorded as")
    bad = copy.deepcopy(twelve)
    bad["hands"][0]["nets"]["D"] += 1
    rejected(bad, "hand 1: nets recorded as")


def test_play_list_too_short_or_too_long(twelve):
    bad = copy.deepcopy(twelve)
    bad["hands"][0]["play"].pop()
    rejected(bad, r"hand 1, trick 16: the play list ends after 47 cards; 48 are needed")
    bad = copy.deepcopy(twelve)
    bad["hands"][0]["play"].append("SA")
    rejected(bad, r"hand 1: the play list has 1 card\(s\) too many, starting with SA")


def test_dealer_order_and_match_length(twelve):
    bad = copy.deepcopy(twelve)
    if len(bad["hands"]) > 1:
        bad["hands"][1]["dealer"] = bad["hands"][0]["dealer"]
        rejected(bad, "hand 2: dealer is player")
    bad = copy.deepcopy(twelve)
    bad["hands"].append(copy.deepcopy(bad["hands"][-1]))
    rejected(bad, rf"hand {len(bad['hands'])}: the match was already over")
    if len(twelve["hands"]) > 1:
        bad = copy.deepcopy(twelve)
        bad["hands"].pop()
        rejected(bad, "but the match is not over")


def test_bad_deal_is_rejected(twelve):
    bad = copy.deepcopy(twelve)
    h = bad["hands"][0]
    h["dealt"]["E"], h["dealt"]["M"] = h["dealt"]["E"], h["dealt"]["E"]
    rejected(bad, "hand 1: card .* dealt twice")


def test_shape_errors(tmp_path, twelve):
    for mutate, pattern in (
        (lambda r: r.update(format="other"), '"format" must be "sm358-match"'),
        (lambda r: r.update(version=2), "unsupported record version 2"),
        (lambda r: r.update(players=["a", "b"]), "three player names"),
        (lambda r: r["hands"][0].pop("play"), "hand 1: 'play' is missing"),
        (lambda r: r.update(rules={"preset": "nope"}), "rules: unknown ruleset 'nope'"),
    ):
        bad = copy.deepcopy(twelve)
        mutate(bad)
        rejected(bad, pattern)
    p = tmp_path / "broken.json"
    p.write_text("{not json")
    with pytest.raises(RecordError, match=r"broken.json: not valid JSON"):
        records.load(p)


def test_save_is_atomic(tmp_path, twelve):
    path = tmp_path / "m.json"
    records.save(twelve, path)
    before = path.read_text()
    bad = copy.deepcopy(twelve)
    bad["players"] = {1, 2, 3}  # not JSON-serialisable: save must fail without touching the file
    with pytest.raises(RecordError, match="cannot be written as JSON"):
        records.save(bad, path)
    assert path.read_text() == before
    assert sorted(os.listdir(tmp_path)) == ["m.json"]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.sampled_from(["SA", "H2", "D", "x", "", "AKQ..."]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["D", "E", "M", "card"]), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node[:6]):
            yield from _paths(v, prefix + (i,))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_corruption_is_a_record_error_never_a_crash(twelve, data):
    bad = copy.deepcopy(twelve)
    paths = [p for p in _paths(bad) if p]
    path = data.draw(st.sampled_from(paths))
    node = bad
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = data.draw(JSON_VALUES)
    try:
        records.validate(bad)
    except RecordError:
        pass


def test_a_declaration_written_with_strain_and_misere_only_is_read(tmp_path):
    rec = play("miz", 6, ("random", "random", "random"))
    for h in rec["hands"]:
        del h["declaration"]["mode"]  # type: ignore[misc]  # a record without the required key is the point
    records.validate(rec)
    assert any(h["declaration"]["misere"] for h in rec["hands"])  # the miz path was exercised


def test_a_match_stopped_by_the_hand_cap_replays():
    players = [get_player("random", i) for i in range(3)]
    rec = Match(get_ruleset("british"), players, 4, preset="british", max_hands=2).play()
    assert rec["result"] is not None
    assert rec["result"]["reason"] == "hand-cap" and len(rec["hands"]) == 2
    assert rec["truncated"] is True  # a cap other than the standard 200 marks the record
    records.validate(rec)
    bad = copy.deepcopy(rec)
    del bad["truncated"]
    assert bad["result"] is not None
    bad["result"]["reason"] = "round-the-table"
    rejected(bad, "the record ends after hand 2, but the match is not over")
    forged = copy.deepcopy(rec)
    del forged["truncated"]  # hand-cap without the mark: only the 200-hand cap gives it
    rejected(forged, 'reason "hand-cap" after 2 hands')
    wrong_reason = copy.deepcopy(rec)
    assert wrong_reason["result"] is not None
    wrong_reason["result"]["reason"] = "round-the-table"
    rejected(wrong_reason, 'marked "truncated" ends with reason "hand-cap"')


# --- the typed shape matches what a match writes and what the docs describe ---------------


def _keys(kind) -> tuple[frozenset, frozenset]:
    return frozenset(kind.__required_keys__), frozenset(kind.__optional_keys__)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_records_have_exactly_the_typed_fields(preset):
    record = play(preset, 3)
    required, optional = _keys(records.MatchRecord)
    assert required <= set(record) <= required | optional  # `truncated` only on a capped match
    assert set(record["rules"]) == set(records.RulesRecord.__required_keys__)
    assert record["result"] is not None
    assert set(record["result"]) == set(records.ResultRecord.__required_keys__)
    required, optional = _keys(records.MatchHandRecord)
    for h in record["hands"]:
        assert required <= set(h) <= required | optional
        assert set(h["declaration"]) == set(records.DeclarationRecord.__required_keys__)
        for t in h["exchange"]:
            assert set(t) == set(records.ExchangeRecord.__required_keys__)


def test_docs_describe_every_typed_field():
    text = open(
        os.path.join(os.path.dirname(__file__), "..", "..", "docs", "records.md"), encoding="utf-8"
    ).read()
    for kind, prefix in (
        (records.MatchRecord, ""),
        (records.MatchHandRecord, ""),
        (records.RulesRecord, "rules."),
        (records.ResultRecord, "result."),
        (records.DeclarationRecord, "declaration."),
    ):
        for key in kind.__required_keys__ | kind.__optional_keys__:
            forms = (f"`{prefix}{key}`", f"`.{key}`", f"`{prefix}{key}.")
            assert any(form in text for form in forms), f"docs/records.md does not describe {prefix}{key}"
