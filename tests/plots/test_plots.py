"""solver.plots draws every kind of result; result types give DataFrames and coloured HTML."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import pytest

import solver
from solver.analysis.simulation import simulate
from solver.game.rules import get_ruleset
from solver.plots import plot_simulation, plot_study, plot_table, plot_tree

ENDING = solver.Deal.parse("D:Q8.JT8.. T...JT98 .K9.A.AQ")


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_dd_table_frame_and_heatmap():
    table = solver.dd_table(ENDING, leader="D")
    frame = table.to_frame()
    assert list(frame.columns) == ["D", "E", "M"] and list(frame.index) == ["♠", "♥", "♦", "♣", "NT"]
    assert frame.loc["♠", "D"] == table["S"]["D"]
    assert 'color:#c00">♥' in table._repr_html_()
    ax = plot_table(table)
    assert len(ax.texts) == 15 and ax.get_title().startswith("Double-dummy")
    _, given = plt.subplots()
    assert plot_table(table, ax=given) is given


def test_declaration_frame():
    deal = solver.Deal.random(seed=11, hand_size=6, widow_size=2)
    result = solver.declare(deal)
    frame = result.to_frame()
    assert list(frame.columns) == ["strain", "tricks", "optimal", "discards", "sets"]
    assert frame["tricks"].max() == result.tricks
    assert frame[frame.optimal]["sets"].sum() == sum(c.count for c in result.optimal)
    assert "<span" in result._repr_html_()


def test_simulation_plot_single_and_side_by_side():
    runs = {
        p: simulate(get_ruleset(p), ["heuristic", "random", "random"], 3, 1) for p in ("twelve", "british")
    }
    ax = plot_simulation(runs["twelve"], "win_rate")
    assert len(ax.patches) == 3
    ax = plot_simulation(runs, "mean_net_by_seat")
    assert len(ax.patches) == 6 and ax.get_legend() is not None
    with pytest.raises(ValueError, match="unknown statistic"):
        plot_simulation(runs["twelve"], "luck")


def test_study_plot():
    frame = pd.DataFrame({"dd_S_D": [3, 4, 4, 5], "dd_S_E": [5, 5, 6, 4]})
    ax = plot_study(frame, ["dd_S_D", "dd_S_E"])
    heights = [p.get_height() for p in ax.patches]
    assert sum(heights) == pytest.approx(2.0)  # two series of shares
    with pytest.raises(ValueError, match="no column"):
        plot_study(frame, "nope")


def test_tree_plot():
    graph = solver.optimal_tree(ENDING, "S", leader="D", seat="D", tricks=2)
    ax = plot_tree(graph)
    assert "Optimal lines" in ax.get_title()


def test_strain_bars_label_each_suit_with_its_own_values():
    """Every bar container carries its own suit's label and values, and the legend names the
    artists it shows (a bare list of legend names once slid by one onto the target line)."""
    from solver.plots import plot_strain_values

    frame = pd.DataFrame({"S": [9, 2], "H": [4, 11], "D": [7, 3], "C": [1, 6]}, index=["widow A", "widow B"])
    ax = plot_strain_values(frame, target=8, title="t")
    bars = {c.get_label(): [int(p.get_height()) for p in c.patches] for c in ax.containers}
    assert bars == {"♠": [9, 2], "♥": [4, 11], "♦": [7, 3], "♣": [1, 6]}
    legend = ax.get_legend()
    shown = [t.get_text() for t in legend.get_texts()]
    assert shown == ["♠", "♥", "♦", "♣", "target 8"]
    containers = {c.get_label(): c for c in ax.containers}
    for handle, text in zip(legend.legend_handles, shown[:4]):  # each key's colour is its suit's bars'
        assert handle.get_facecolor() == containers[text].patches[0].get_facecolor()
    target = next(line for line in ax.get_lines() if line.get_label() == "target 8")
    assert list(target.get_ydata()) == [8, 8]
    # each group's bars sit over its own tick
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks == ["widow A", "widow B"]
    for c in ax.containers:
        centres = [p.get_x() + p.get_width() / 2 for p in c.patches]
        assert [round(x) for x in centres] == [0, 1]
