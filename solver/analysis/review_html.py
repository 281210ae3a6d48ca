"""The review as HTML: a fragment for Jupyter, and one self-contained page for a browser.

The page holds everything inline (CSS, and each hand's plot as a base64 PNG given by the
caller), so it opens from disk, mails as one file, and needs no network. The plots are
made by :mod:`solver.plots.review` (a layer above this one), so they are passed in.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..cards import Card, Hand, Suit
from ..deal import Seat
from .review_text import contract_words, declaration_line

if TYPE_CHECKING:
    from .review import HandReview, Review

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table.sm358 { border-collapse: collapse; margin: 0.6em 0; font-variant-numeric: tabular-nums; }
table.sm358 th, table.sm358 td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
table.sm358 th { background: #f3f3f3; }
.red { color: #c0392b; } .mistake { background: #fde2e0; font-weight: bold; }
.verdict { margin: 0.5em 0; } .cost { color: #c0392b; } .note { color: #666; font-size: 0.9em; }
img.plot { max-width: 100%; border: 1px solid #eee; }
"""


def _card(card: Card | str) -> str:
    c = Card.parse(card) if isinstance(card, str) else card
    text = c.pretty()
    return f'<span class="red">{text}</span>' if c.suit in (1, 2) else text


def _cards(cards: list[str] | tuple[str, ...]) -> str:
    return " ".join(_card(c) for c in cards)


def _suit(hand: Hand, suit: int) -> str:
    return "".join(str(c)[1] for c in hand.cards_in(suit)) or "—"


def deal_table(h: HandReview) -> str:
    rec = h.record
    head = "".join(
        f"<th>{'<span class=red>' + s + '</span>' if i in (1, 2) else s}</th>"
        for i, s in enumerate(suit.symbol for suit in Suit)
    )
    rows = []
    for s in Seat:
        who = f" {html.escape(h.players[s])}" if h.players else ""
        cells = "".join(f"<td>{_suit(rec.start[s], i)}</td>" for i in range(4))
        rows.append(f"<tr><th>{s.name}{who}</th>{cells}</tr>")
    if rec.discard:
        cells = "".join(f"<td>{_suit(Hand(rec.discard), i)}</td>" for i in range(4))
        rows.append(f'<tr class="note"><th>discard (out)</th>{cells}</tr>')
    return (
        f'<table class="sm358 deal"><caption>The hands at the first lead</caption>'
        f"<tr><th>seat</th>{head}</tr>{''.join(rows)}</table>"
    )


def tricks_table(h: HandReview) -> str:
    rec = h.record
    rows = []
    by_trick: dict[int, list] = {}
    for c in h.cards:
        by_trick.setdefault(c.trick, []).append(c)
    for t, cards in by_trick.items():
        cells = []
        notes = []
        for c in cards:
            cls = ' class="mistake"' if c.mistake else ""
            cells.append(f"<td{cls}>{c.seat} {_card(c.card)} <small>{c.before}→{c.after}</small></td>")
            if c.mistake:
                notes.append(
                    f'<span class="cost">{c.seat} {_card(c.card)} costs {c.cost}</span>: '
                    f"better {_cards(c.best)}"
                )
        cells += ["<td></td>"] * (3 - len(cards))
        winner = rec.winners[t - 1].name if t <= len(rec.winners) else "…"
        rows.append(f"<tr><td>{t}</td>{''.join(cells)}<td>{winner}</td><td>{'; '.join(notes)}</td></tr>")
    return (
        '<table class="sm358 tricks"><caption>Trick by trick: the seat, its card, its value '
        "before→after</caption><tr><th>trick</th><th>lead</th><th>2nd</th><th>3rd</th><th>won by</th>"
        f"<th>mistakes</th></tr>{''.join(rows)}</table>"
    )


def seats_table(h: HandReview) -> str:
    rows = []
    for s, v in h.seats.items():
        who = f" {html.escape(h.players['DEM'.index(s)])}" if h.players else ""
        rows.append(
            f"<tr><th>{s}{who}</th><td>{v.opening}</td><td>{v.taken}</td><td>{v.mistakes}</td>"
            f"<td>{v.lost}</td><td>{v.gained}</td></tr>"
        )
    return (
        '<table class="sm358 seats"><caption>Per seat: opening value − lost + gained = taken'
        + (" (misère: opening + lost − gained)" if h.misere else "")
        + "</caption>"
        "<tr><th>seat</th><th>opening</th><th>taken</th><th>mistakes</th><th>lost</th><th>gained</th></tr>"
        f"{''.join(rows)}</table>"
    )


def players_table(review: Review) -> str:
    rows = "".join(
        f"<tr><th>{html.escape(name)}</th>"
        + "".join(
            f"<td>{t[k]}</td>"
            for k in ("hands", "opening", "taken", "mistakes", "lost", "gained", "declaration_cost")
        )
        + "</tr>"
        for name, t in review.players.items()
    )
    return (
        '<table class="sm358 players"><caption>Players over the match</caption><tr><th>player</th>'
        "<th>hands</th><th>opening</th><th>taken</th><th>mistakes</th><th>lost</th><th>gained</th>"
        f"<th>declaration cost</th></tr>{rows}</table>"
    )


def hand_section(h: HandReview, plot_png: bytes | None = None) -> str:
    title = f"Hand {h.hand} ({html.escape(h.rules)}): {h.declarer} declares {html.escape(contract_words(h.contract))}"
    verdict = html.escape(declaration_line(h.declaration, h.misere))
    parts = [f"<h2>{title}</h2>", deal_table(h), f'<p class="verdict">{verdict}</p>', tricks_table(h)]
    if plot_png is not None:
        data = base64.b64encode(plot_png).decode("ascii")
        parts.append(
            f'<img class="plot" alt="value card by card, hand {h.hand}" src="data:image/png;base64,{data}">'
        )
    parts.append(seats_table(h))
    return f'<section class="hand" id="hand-{h.hand}">' + "".join(parts) + "</section>"


def review_fragment(review: Review, plots: bool = False, images: Mapping[int, bytes] | None = None) -> str:
    """The review as an HTML fragment (what Jupyter shows); ``images`` by hand number."""
    images = images or {}
    body = "".join(hand_section(h, images.get(h.hand)) for h in review.hands)
    if review.players:
        body += "<h2>Players</h2>" + players_table(review)
    return f'<div class="sm358-review">{body}</div>'


def review_page(
    review: Review, images: Mapping[int, bytes] | None = None, title: str = "Sergeant Major: hand review"
) -> str:
    """One self-contained HTML page: inline CSS, plots as inline PNG, no external URL."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>"
        f"<h1>{html.escape(title)}</h1>"
        '<p class="note">Values are double-dummy (every card seen), paranoid: each seat\'s '
        "value assumes the other two play against it. Before→after is the tricks the seat has "
        "won plus the tricks it can still guarantee.</p>"
        f"{review_fragment(review, images=images)}</body></html>\n"
    )
