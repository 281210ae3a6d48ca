"""solver.optimal_tree against brute force: every line optimal, every optimal card present."""

from __future__ import annotations

import itertools

import networkx as nx
import pytest

import bruteforce
import solver
from solver.cards import Card, Hand
from solver.deal import Deal, Seat
from solver.errors import EngineError


def position_after(deal: Deal, strain: str, leader: Seat, line: list[str]) -> tuple[Deal, Seat, list[str]]:
    """The hands at the start of the current trick, its leader and the cards played to it."""
    cards = [Card.parse(c) for c in line]
    full = len(cards) // 3 * 3
    for start in range(0, full, 3):
        trick = cards[start : start + 3]
        winner = Seat(
            (leader + bruteforce.trick_winner_index([c.bit for c in trick], "SHDCN".index(strain))) % 3
        )
        deal = Deal([Hand(h.mask & ~sum(c.bit for c in trick)) for h in deal.hands], deal.widow)
        leader = winner
    return deal, leader, [str(c) for c in cards[full:]]


def check_tree(deal: Deal, strain: str, leader: str, seat: str) -> nx.DiGraph:
    graph = solver.optimal_tree(deal, strain, leader=leader, seat=seat, tricks=deal.hand_size)
    value = bruteforce.solve(deal, strain, leader=leader, seat=seat)
    assert graph.nodes[0]["value"] == value
    for node in graph.nodes:
        path = nx.shortest_path(graph, 0, node)
        # an edge's subtree goes on with its first card (the others are equivalent to it)
        line = [graph.edges[a, b]["cards"][0] for a, b in itertools.pairwise(path)]
        if graph.out_degree(node) == 0:
            won = bruteforce.play_out(deal, strain, line, leader=leader)
            assert won[Seat.parse(seat)] == value, line
            continue
        here, lead, played = position_after(deal, strain, Seat.parse(leader), line)
        values = bruteforce.card_values(here, strain, leader=lead, seat=seat, played=played)
        mover = Seat((lead + len(played)) % 3)
        best = max(values.values()) if mover == Seat.parse(seat) else min(values.values())
        optimal = {c for c, v in values.items() if v == best}
        offered = [c for b in graph.successors(node) for c in graph.edges[node, b]["cards"]]
        assert sorted(offered) == sorted(optimal), (line, offered, optimal)
    return graph


@pytest.mark.parametrize("seed", range(6))
def test_every_line_is_optimal_and_every_optimal_card_is_there(seed):
    deal = Deal.random(seed=seed, hand_size=3, widow_size=2)
    strain = "SHDCN"[seed % 5]
    check_tree(deal, strain, "EDM"[seed % 3], "DEM"[seed % 3])


def test_the_bundled_ending_merges_equivalent_cards():
    deal = Deal.parse("D:Q8.JT8.. T...JT98 .K9.A.AQ")
    graph = check_tree(deal, "S", "D", "D")
    labels = {graph.edges[e]["label"] for e in graph.edges}
    assert "♣JT98" in labels  # Eldest's clubs are all alike
    assert [graph.edges[0, b]["label"] for b in graph.successors(0)] == ["♠Q"]  # the only lead keeping 4


def test_tricks_limits_the_depth_and_bad_input_is_an_error():
    deal = Deal.random(seed=3, hand_size=5, widow_size=2)
    graph = solver.optimal_tree(deal, "H", leader="E", seat="D", tricks=1)
    assert max(d["ply"] for _, d in graph.nodes(data=True)) == 3
    with pytest.raises(EngineError, match="tricks must be a positive integer"):
        solver.optimal_tree(deal, "H", leader="E", seat="D", tricks=0)


def test_the_ending_of_a_bundled_hand_file():
    from pathlib import Path

    hand = solver.load_hand(Path(__file__).resolve().parents[2] / "examples" / "hand-twelve.txt")
    pos = hand.position(hand.hand_size - 2)  # three tricks to go
    graph = solver.optimal_tree(pos.deal, pos.strain, leader=pos.leader, seat="D", tricks=3)
    assert graph.nodes[0]["value"] == bruteforce.solve(pos.deal, pos.strain, leader=pos.leader, seat="D")
    played = [c for t in hand.tricks[-3:] for c in t]
    bruteforce.play_out(pos.deal, pos.strain, played, leader=pos.leader)  # the position holds those cards
