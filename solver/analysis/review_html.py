"""The review as HTML: a fragment for Jupyter, and one self-contained page for a browser.

The page holds everything inline (CSS, and each hand's plot as a base64 PNG given by the
caller), so it opens from disk, mails as one file, and needs no network. The plots are
made by :mod:`solver.plots.review` (a layer above this one), so they are passed in.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..cards import Card, Hand, Suit
from ..deal import Seat
from .review_text import PARTIAL_NOTE, contract_words, declaration_line, results_line

if TYPE_CHECKING:
    from ..game.handfile import HandRecord
    from .review import CardReview, HandReview, Review
    from .single_dummy import SingleDummyReview

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table.sm358 { border-collapse: collapse; margin: 0.6em 0; font-variant-numeric: tabular-nums; }
table.sm358 th, table.sm358 td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
table.sm358 th { background: #f3f3f3; }
.red { color: #c0392b; } .mistake { background: #fde2e0; font-weight: bold; }
.verdict, .result { margin: 0.5em 0; } .made { color: #1e7b34; } .down { color: #c0392b; } .cost { color: #c0392b; } .note { color: #666; font-size: 0.9em; }
img.plot { max-width: 100%; border: 1px solid #eee; }
"""


def _card(card: Card | str) -> str:
    c = Card.parse(card) if isinstance(card, str) else card
    text = c.pretty()
    return f'<span class="red">{text}</span>' if c.suit in (1, 2) else text


def _cards(cards: Sequence[Card | str]) -> str:
    return " ".join(_card(c) for c in cards)


def _suit(hand: Hand, suit: int) -> str:
    return "".join(str(c)[1] for c in hand.cards_in(suit)) or "—"


def deal_table(h: HandReview) -> str:
    return record_deal_table(h.record)


def record_deal_table(rec: HandRecord) -> str:
    """The three hands at the first lead (and the discard), suits as columns."""
    head = "".join(
        f"<th>{'<span class=red>' + s + '</span>' if i in (1, 2) else s}</th>"
        for i, s in enumerate(suit.symbol for suit in Suit)
    )
    rows = []
    for s in Seat:
        who = f" {html.escape(rec.players[s])}" if rec.players else ""
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
    by_trick: dict[int, list[CardReview]] = {}
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
                    f"better {_cards(c.best) if c.best else 'not found (interrupted)'}"
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
        target = "—" if v.target is None else (f"max {v.target}" if h.misere else str(v.target))
        net = "—" if v.net is None else f"{v.net:+d}"
        cls = "" if v.net is None else (' class="made"' if v.net >= 0 else ' class="down"')
        rows.append(
            f"<tr><th>{s}{who}</th><td>{v.opening}</td><td>{v.taken}</td><td>{v.mistakes}</td>"
            f"<td>{v.lost}</td><td>{v.gained}</td><td>{target}</td><td{cls}>{net}</td></tr>"
        )
    return (
        '<table class="sm358 seats"><caption>Per seat: opening value − lost + gained = taken'
        + (" (misère: opening + lost − gained; the target is a maximum)" if h.misere else "")
        + "</caption>"
        "<tr><th>seat</th><th>opening</th><th>taken</th><th>mistakes</th><th>lost</th><th>gained</th>"
        f"<th>target</th><th>net</th></tr>{''.join(rows)}</table>"
    )


def match_summary(review: Review) -> str:
    """The match at a glance, for the top of a match report."""
    m = review.match
    if m is None:
        return ""
    names = ", ".join(html.escape(n) for n in m.players)
    parts = [f"<p><b>{html.escape(m.rules)}</b>: {names}; {m.hands} hands.</p>"]
    if m.winner is not None or m.detail:
        won = f"<b>{html.escape(m.winner)}</b> won" if m.winner is not None else "No winner"
        parts.append(f"<p>{won}" + (f" ({html.escape(m.detail)})" if m.detail else "") + ".</p>")
    rows = []
    totals = m.totals if m.totals is not None else (None,) * len(m.players)
    for name, score in zip(m.players, totals):
        t = review.players.get(name, {})
        cells = [f"{score:+d}" if score is not None else "—"] + [
            str(t.get(k, "—")) for k in ("declared", "made", "mistakes", "lost", "declaration_cost")
        ]
        rows.append(f"<tr><th>{html.escape(name)}</th>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    parts.append(
        '<table class="sm358 match"><caption>The match: final score, and per player the hands '
        "declared and made, the mistakes and the tricks they lost, the declaration cost</caption>"
        "<tr><th>player</th><th>score</th><th>declared</th><th>made</th><th>mistakes</th>"
        f"<th>tricks lost</th><th>declaration cost</th></tr>{''.join(rows)}</table>"
    )
    return '<section class="match-summary"><h2>Match summary</h2>' + "".join(parts) + "</section>"


def players_table(review: Review) -> str:
    rows = "".join(
        f"<tr><th>{html.escape(name)}</th>"
        + "".join(
            f"<td>{t[k]}</td>"
            for k in ("hands", "opening", "taken", "mistakes", "lost", "gained", "net", "declaration_cost")
        )
        + "</tr>"
        for name, t in review.players.items()
    )
    return (
        '<table class="sm358 players"><caption>Players over the match</caption><tr><th>player</th>'
        "<th>hands</th><th>opening</th><th>taken</th><th>mistakes</th><th>lost</th><th>gained</th>"
        f"<th>net</th><th>declaration cost</th></tr>{rows}</table>"
    )


def hand_section(h: HandReview, plot_png: bytes | None = None) -> str:
    title = f"Hand {h.hand} ({html.escape(h.rules)}): {h.declarer} declares {html.escape(contract_words(h.contract))}"
    verdict = html.escape(declaration_line(h.declaration, h.misere))
    result = html.escape(results_line(h))
    parts = [
        f"<h2>{title}</h2>",
        f'<p class="result"><b>Result:</b> {result}</p>',
        deal_table(h),
        f'<p class="verdict">{verdict}</p>',
        tricks_table(h),
    ]
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
    body = match_summary(review) + "".join(hand_section(h, images.get(h.hand)) for h in review.hands)
    if review.partial:
        body = f'<p class="note"><b>Partial</b>: {html.escape(PARTIAL_NOTE)}.</p>' + body
    if review.players:
        body += "<h2>Players</h2>" + players_table(review)
    return f'<div class="sm358-review">{body}</div>'


INTRO = (
    '<p class="note">Values are double-dummy (every card seen), paranoid: each seat\'s '
    "value assumes the other two play against it. Before→after is the tricks the seat has "
    "won plus the tricks it can still guarantee.</p>"
)

SINGLE_DUMMY_INTRO = (
    '<p class="note">Each card is judged from its player\'s view at that moment: the cards it '
    "could not see are sampled, and on each sample every legal card is played out double "
    "dummy. P(target) is the share of samples on which the seat still reaches its target "
    "(at most its maximum in MT and misère) after the card; a card is flagged when it lowered "
    "that chance by more than the threshold against the best card on the same samples.</p>"
)


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>"
        f"<h1>{html.escape(title)}</h1>{body}</body></html>\n"
    )


def single_dummy_page(
    result: SingleDummyReview,
    record: HandRecord | None = None,
    title: str = "Sergeant Major: single-dummy review",
) -> str:
    """``review --single-dummy --html``: one self-contained page, the flagged cards marked."""
    head = (
        f"{html.escape(result.rules)}, {html.escape(contract_words(result.contract))}: "
        f"{len(result.cards)} cards judged on {result.samples} samples each (seed "
        f"{html.escape(str(result.seed))}), {result.forced} forced; {len(result.flagged)} flagged "
        f"(chance of the target down by more than {result.threshold:.0%})"
        + (" — <b>partial</b>: stopped early" if result.partial else "")
    )
    rows = []
    for c in result.cards:
        cls = ' class="mistake"' if c.flagged else ""
        mean = "—" if c.mean_played is None else f"{c.mean_played:.1f}"
        best_mean = "—" if c.mean_best is None else f"{c.mean_best:.1f}"
        rows.append(
            f"<tr{cls}><td>{c.trick}.{c.card_index}</td><td>{c.seat}</td><td>{_card(c.card)}</td>"
            f"<td>{c.p_played:.0%}</td><td>{mean}</td><td>{_card(c.best)}</td><td>{c.p_best:.0%}</td>"
            f"<td>{best_mean}</td><td>{'−' + format(c.drop, '.0%') if c.drop > 0 else ''}</td></tr>"
        )
    table = (
        '<table class="sm358 single-dummy"><caption>Card by card: the card played and the best '
        "card by the same estimate (trick.card)</caption><tr><th>card</th><th>seat</th>"
        "<th>played</th><th>P(target)</th><th>mean tricks</th><th>best</th><th>P(target)</th>"
        f"<th>mean tricks</th><th>drop</th></tr>{''.join(rows)}</table>"
    )
    deal = record_deal_table(record) if record is not None else ""
    return _page(title, SINGLE_DUMMY_INTRO + f'<p class="verdict">{head}</p>' + deal + table)


def review_page(
    review: Review, images: Mapping[int, bytes] | None = None, title: str = "Sergeant Major: hand review"
) -> str:
    """One self-contained HTML page: inline CSS, plots as inline PNG, no external URL."""
    return _page(title, INTRO + review_fragment(review, images=images))
