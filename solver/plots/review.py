"""The review of a hand as a picture: each seat's value card by card, mistakes marked."""

from __future__ import annotations

from typing import Any

from ..analysis.review import HandReview, Review
from ..analysis.review_text import contract_words, seat_result
from ..deal import SEAT_NAMES
from ..errors import SolverError
from ._common import plain_text

SEAT_COLOURS = {"D": "#1f77b4", "E": "#2ca02c", "M": "#9467bd"}


def _hand(review: Review | HandReview, hand: int | None) -> HandReview:
    if isinstance(review, HandReview):
        return review
    if hand is None:
        return review.hands[0]
    for h in review.hands:
        if h.hand == hand:
            return h
    raise SolverError(
        f"hand {hand} is not in this review (it has {', '.join(str(h.hand) for h in review.hands)})"
    )


def review_trajectory(review: Review | HandReview, hand: int | None = None, ax: Any = None) -> Any:
    """Each seat's total (tricks won + double-dummy value) before every card and after the
    last; a seat's mistakes are red crosses where its line drops (rises, when minimising).
    The legend gives each seat's tricks, target and net; a dotted line marks each target.

    ``hand`` picks a hand of a match review by number (default: the first). Returns the Axes.
    """
    import matplotlib.pyplot as plt

    h = _hand(review, hand)
    if ax is None:
        _fig, ax = plt.subplots(figsize=(9, 4))
    xs = list(range(len(h.totals)))
    for i, seat in enumerate(SEAT_NAMES):
        ys = [t[i] for t in h.totals]
        who = f" {plain_text(h.players[i])}" if h.players else ""
        result = seat_result(seat, h.seats[seat], h.misere).split(" ", 1)[1]
        ax.step(xs, ys, where="post", color=SEAT_COLOURS[seat], label=f"{seat}{who}: {result}", linewidth=1.8)
        target = h.seats[seat].target
        if target is not None:  # the seat's target, where its line should end (at most, in misère)
            ax.axhline(target, color=SEAT_COLOURS[seat], linestyle=":", linewidth=1.0, zorder=0)
    first = True
    for k, c in enumerate(h.cards):
        if c.mistake:
            ax.plot(
                [k + 1],
                [c.after],
                marker="x",
                color="#d62728",
                markersize=9,
                markeredgewidth=2.2,
                linestyle="none",
                label="mistake" if first else None,
            )
            ax.annotate(
                f"{c.card} −{c.cost}" if not h.misere else f"{c.card} +{c.cost}",
                (k + 1, c.after),
                textcoords="offset points",
                xytext=(4, 6),
                fontsize=8,
                color="#d62728",
            )
            first = False
    for t in range(1, len(h.cards) // 3 + 1):
        ax.axvline(3 * t, color="#dddddd", linewidth=0.6, zorder=0)
    goal = "fewest tricks (misère values)" if h.misere else "tricks"
    ax.set_xlabel("cards played (grid lines: one trick)")
    ax.set_ylabel(f"tricks won + value ({goal})")
    ax.set_title(f"Hand {h.hand}: {h.declarer} declares {contract_words(h.contract)} — value card by card")
    ax.set_xlim(0, len(xs) - 1)
    ax.legend(loc="best", fontsize=8, title="seat: tricks/target, net (dotted: target)", title_fontsize=8)
    return ax


def review_png(review: Review | HandReview, hand: int | None = None, dpi: int = 100) -> bytes:
    """:func:`review_trajectory` of one hand as PNG bytes (Agg, no window)."""
    import io

    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 4))
    review_trajectory(review, hand=hand, ax=fig.add_subplot())
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def review_page_with_plots(review: Review) -> str:
    """The self-contained HTML page of :mod:`solver.analysis.review_html`, with every hand's plot."""
    from ..analysis.review_html import review_page

    return review_page(review, {h.hand: review_png(h) for h in review.hands})
