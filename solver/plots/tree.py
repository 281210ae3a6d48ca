"""Drawing :func:`solver.optimal_tree`: plies left to right, equivalent cards on one edge."""

from __future__ import annotations

from typing import Any

import networkx as nx

from ._common import axes

SEAT_COLOURS = {"D": "#4c72b0", "E": "#dd8452", "M": "#55a868", "": "#999999"}


def tree_layout(graph: nx.DiGraph) -> dict[Any, tuple[int, float]]:
    """Positions: x by ply, y spreading the leaves of each subtree (a tidy tree)."""
    pos: dict[Any, tuple[int, float]] = {}
    next_y = [0.0]

    def place(node: Any) -> float:
        children = list(graph.successors(node))
        if not children:
            y = next_y[0]
            next_y[0] += 1
        else:
            y = sum(place(c) for c in children) / len(children)
        pos[node] = (graph.nodes[node]["ply"], -y)
        return y

    roots = [n for n in graph.nodes if graph.in_degree(n) == 0]
    for r in roots:
        place(r)
    return pos


def plot_tree(graph: nx.DiGraph, ax: Any = None, *, font_size: int = 8) -> Any:
    """Draw an optimal tree; nodes coloured by the seat to move, edges labelled by cards."""
    leaves = sum(1 for n in graph.nodes if graph.out_degree(n) == 0)
    depth = max((d["ply"] for _, d in graph.nodes(data=True)), default=0)
    ax = axes(ax, (max(6.0, 0.9 * depth), max(3.0, 0.35 * leaves)))
    pos = tree_layout(graph)
    colours = [SEAT_COLOURS.get(graph.nodes[n]["mover"], "#999999") for n in graph.nodes]
    nx.draw_networkx_edges(graph, pos, ax=ax, arrows=False, edge_color="#888888")
    nx.draw_networkx_nodes(graph, pos, ax=ax, node_size=60, node_color=colours)
    labels = {e: graph.edges[e]["label"] for e in graph.edges}
    texts = nx.draw_networkx_edge_labels(
        graph, pos, edge_labels=labels, ax=ax, font_size=font_size, rotate=False, bbox={"alpha": 0.0}
    )
    for text in texts.values():
        if any(sym in text.get_text() for sym in "♥♦"):
            text.set_color("#c00")
    ax.set_axis_off()
    ax.set_title(
        f"Optimal lines for {graph.graph.get('seat', '?')} "
        f"({graph.graph.get('strain', '?')}, {graph.graph.get('tricks', '?')} tricks); "
        "\nnode colour = seat to play: D blue, E orange, M green"
    )
    return ax


__all__ = ["plot_tree", "tree_layout"]
