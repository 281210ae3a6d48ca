"""Every double-dummy-optimal line of the next tricks, as a graph (the teaching picture).

:func:`optimal_tree` answers "which cards are equally good here?": from a position at the
start of a trick it follows, ply by ply, every card that keeps the double-dummy value
(the ``seat`` maximises its tricks, the other two minimise them, as in :func:`solve`),
merging *equivalent* cards — cards of one player and one suit with no live card of that
suit between them, which can never make a difference — into one edge (``♠QJ``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import networkx as nx

from ..cards import Card, Hand
from ..deal import Deal, Seat, Strain
from ..engine import Position, Solver
from ..errors import EngineError
from ..tricks import trick_winner

MAX_NODES = 2000
"""More nodes than a picture can show: ask for fewer tricks or a smaller ending."""


def _as_card(key: object) -> Card:
    """``card_values`` keys are card strings or :class:`Card` objects; accept both."""
    return key if isinstance(key, Card) else Card.parse(str(key))


def equivalence_groups(cards: Sequence[Card], live: int) -> list[list[Card]]:
    """``cards`` (of one player) grouped into runs with no other ``live`` card between them.

    ``live`` is the mask of every card still in play (all hands at the start of the
    trick); cards of the same run win and lose exactly the same tricks.
    """
    groups: list[list[Card]] = []
    for suit in range(4):
        mine = sorted((c for c in cards if c.suit == suit), key=lambda c: -c.rank)
        if not mine:
            continue
        run = [mine[0]]
        for c in mine[1:]:
            between = sum(1 << i for i in range(c.bit.bit_length(), run[-1].bit.bit_length() - 1))
            if live & between & ~sum(x.bit for x in cards):
                groups.append(run)
                run = [c]
            else:
                run.append(c)
        groups.append(run)
    return groups


def _label(group: Sequence[Card]) -> str:
    return group[0].pretty() + "".join(c.pretty()[1:] for c in group[1:])


def _best_cards(values: Mapping[Any, int], wants_most: bool) -> list[Card]:
    """The cards of best value for the seat to play (the most, or the fewest, tricks)."""
    scored = {_as_card(k): v for k, v in values.items()}
    best = max(scored.values()) if wants_most else min(scored.values())
    return [c for c, v in scored.items() if v == best]


def _step(
    position: Deal, lead: Seat, after: list[Card], won: int, me: Seat, st: Strain, done: bool
) -> tuple[Deal, Seat, list[Card], int]:
    """The node after the card that ends ``after``: the position (played cards leave the
    hands once a trick is complete), the leader, the cards on the table, ``me``'s tricks."""
    if len(after) < 3:
        return position, lead, after, won
    winner = Seat((lead + trick_winner([c.bit.bit_length() - 1 for c in after], int(st))) % 3)
    if not done:
        hands = [Hand(h.mask & ~sum(c.bit for c in after)) for h in position.hands]
        position = Deal(hands, position.widow)
    return position, winner, [], won + (winner == me)


def optimal_tree(
    deal: Deal,
    strain: Strain | str,
    *,
    leader: Seat | str,
    seat: Seat | str,
    tricks: int = 3,
    misere: bool = False,
    must_ruff: bool = False,
) -> nx.DiGraph:
    """Every double-dummy-optimal line of the next ``tricks`` tricks as a ``networkx.DiGraph``.

    Nodes carry ``ply`` (cards played since the root), ``mover`` (the seat to play, ``""``
    at the end), ``value`` (``seat``'s tricks from the root to the end of the hand, the
    same on every node since every line is optimal), ``won`` (tricks ``seat`` took so far)
    and ``label``. Edges carry ``cards`` (the equivalent cards, as strings), ``label``
    (``♠QJ``) and ``seat`` (who played). Node 0 is the root.
    """
    if not isinstance(deal, Deal):
        raise EngineError(f"expected a Deal, got {type(deal).__name__}")
    st = Strain.parse(strain)
    me = Seat.parse(seat)
    if isinstance(tricks, bool) or not isinstance(tricks, int) or tricks < 1:
        raise EngineError(f"tricks must be a positive integer, got {tricks!r}")
    solver = Solver()
    graph = nx.DiGraph(strain=st.name, seat=me.name, leader=Seat.parse(leader).name, tricks=tricks)
    root_value = solver.solve(Position(deal, st, Seat.parse(leader), (), misere, must_ruff), seat=me)
    graph.add_node(0, ply=0, mover=Seat.parse(leader).name, value=root_value, won=0, label=f"{root_value}")
    plies = min(tricks, deal.hand_size) * 3
    # (node, hands at the trick's start, leader, cards played to the trick, tricks won by seat)
    stack: list[tuple[int, Deal, Seat, list[Card], int]] = [(0, deal, Seat.parse(leader), [], 0)]
    while stack:
        node, position, lead, played, won = stack.pop()
        ply = graph.nodes[node]["ply"]
        if ply >= plies:
            continue
        mover = Seat((lead + len(played)) % 3)
        values = solver.card_values(Position(position, st, lead, tuple(played), misere, must_ruff), seat=me)
        live = sum(h.mask for h in position.hands)
        for group in equivalence_groups(_best_cards(values, (mover == me) != misere), live):
            after = [*played, group[0]]
            done = ply + 1 >= plies
            child_position, child_lead, child_played, child_won = _step(
                position, lead, after, won, me, st, done
            )
            child = graph.number_of_nodes()
            if child >= MAX_NODES:
                raise EngineError(f"the optimal tree has more than {MAX_NODES} nodes; ask for fewer tricks")
            next_mover = "" if done else Seat((child_lead + len(child_played)) % 3).name
            graph.add_node(
                child,
                ply=ply + 1,
                mover=next_mover,
                value=root_value,
                won=child_won,
                label=f"{child_won}" if len(after) == 3 else "",
            )
            graph.add_edge(node, child, cards=[str(c) for c in group], label=_label(group), seat=mover.name)
            if not done:
                stack.append((child, child_position, child_lead, child_played, child_won))
    return graph


__all__ = ["MAX_NODES", "equivalence_groups", "optimal_tree"]
