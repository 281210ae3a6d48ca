"""Rich renderings of a deal and a double-dummy table, shared by ``solve`` and ``table``.

Why a module: both commands show the hands above their answer, and the two views must
look the same (suit symbols, a dash for a void, seats in D E M order).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich.table import Table

from solver.cards import Card, Hand, Suit
from solver.deal import Deal, Seat, Strain

SEAT_LABELS = {s: f"{s.name} {s.word}" for s in Seat}


def suit_text(hand: Hand, suit: int) -> str:
    """The ranks of one suit, ``10`` written as ``T`` like the notation, ``—`` for a void."""
    return "".join(str(c)[1] for c in hand.cards_in(suit)) or "—"


def hands_table(deal: Deal, *, played: Iterable[Card] = ()) -> Table:
    """One row per seat (and the widow): the cards by suit, with suit symbols in the header."""
    table = Table(title=f"Deal ({deal.hand_size} cards each)", title_justify="left")
    table.add_column("seat")
    for suit in Suit:
        table.add_column(suit.symbol)
    played_set = set(played)
    for seat in Seat:
        table.add_row(SEAT_LABELS[seat], *(suit_text(deal[seat], s) for s in Suit))
    if deal.widow:
        table.add_row("widow (out)", *(suit_text(deal.widow, s) for s in Suit), style="dim")
    if played_set:
        table.caption = "on the table: " + " ".join(c.pretty() for c in played)
    return table


def values_table(values: Mapping[str, Mapping[str, int | str]], *, title: str) -> Table:
    """Strains down, seats across: ``values["S"]["D"]`` is D's value with spades trump, as
    a number or as text (``"2-5"`` proven so far, ``"9 / 8"`` beside a target)."""
    table = Table(title=title, title_justify="left")
    table.add_column("strain")
    for seat in Seat:
        table.add_column(seat.name, justify="right")
    for strain_name, row in values.items():
        strain = Strain.parse(strain_name)
        label = f"{strain.symbol} {strain.name}" if strain != Strain.N else "NT"
        table.add_row(label, *(str(row[s.name]) for s in Seat))
    return table
