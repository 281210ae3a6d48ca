"""The review as lines of text with suit symbols (``str(review)`` and ``sm358 review``).

``markup=True`` adds rich markup (mistakes in bold red) for the terminal; without it the
lines are plain text, mistakes marked with ``✗``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..cards import Card
from ..deal import Seat, Strain
from ..inputs import terminal_safe
from ..modes import Mode

if TYPE_CHECKING:
    from .review import CardReview, DeclarationReview, HandReview, MatchSummary, Review, SeatSummary

MODE_WORDS = {"N": "no trump", "MT": "minimum tricks (MT)", "miz": "misère"}
BEST_SHOWN = 3


def pretty_card(card: Card | str) -> str:
    return Card.parse(card).pretty()


def pretty_cards(cards: Sequence[Card | str]) -> str:
    return " ".join(pretty_card(c) for c in cards)


def contract_words(contract: str) -> str:
    trump = Mode.parse(contract).trump
    if trump is not None:
        return f"{trump.symbol} trumps"
    return MODE_WORDS[contract]


def strain_symbol(strain: str) -> str:
    return Strain.parse(strain).symbol


PARTIAL_NOTE = "interrupted; what was proven by then (hands not yet valued are left out)"


def declaration_line(d: DeclarationReview | None, misere: bool) -> str:
    if d is None:
        return "Declaration: not judged (an ending, or the discard is unknown)"
    unit = "fewest tricks" if misere else "tricks"
    if d.proven is not None and d.proven[0] != d.proven[1]:
        lo, hi = d.proven
        least, most = d.costs
        return (
            f"Declaration: interrupted: worth {d.tricks}, the best gives {lo}-{hi} {unit} "
            f"(proven so far), a cost of {least}-{most} trick(s)"
        )
    if d.cost == 0:
        counted = f"; {len(d.best)} optimal choice(s)" if d.complete else ""
        text = f"Declaration: optimal ({d.tricks} {unit}{counted})"
    else:
        shown = "; ".join(
            f"{strain_symbol(b['strain'])} discard {pretty_cards(b['discard'])}" for b in d.best[:BEST_SHOWN]
        )
        more = f" and {len(d.best) - BEST_SHOWN} more" if len(d.best) > BEST_SHOWN else ""
        if not d.complete:
            more += ", among others that may tie"
        text = (
            f"Declaration cost {d.cost} trick(s): worth {d.tricks}, the best gives {d.best_tricks} "
            f"({shown}{more})"
        )
    if d.note:
        text += f" ({d.note})"
    return text


def seat_result(seat: str, v: SeatSummary, misere: bool = False) -> str:
    """``D 8/8 made``, ``E 4/5 -1``, ``M 4/3 +1``: tricks / target and the net.

    In MT and misère the target is a maximum: ``D 2/max 3 +1``. An ending has no target:
    ``D 3 tricks``."""
    if v.target is None or v.net is None:
        return f"{seat} {v.taken} tricks"
    goal = f"max {v.target}" if misere else str(v.target)
    net = "made" if v.net == 0 else f"{v.net:+d}"
    return f"{seat} {v.taken}/{goal} {net}"


def results_line(h: HandReview) -> str:
    """Each seat's tricks against its target: ``D 8/8 made, E 4/5 -1, M 4/3 +1``."""
    return ", ".join(seat_result(s, v, h.misere) for s, v in h.seats.items())


def match_lines(m: MatchSummary, players: dict[str, dict[str, int]], markup: bool = False) -> list[str]:
    """The match at a glance, for the top of a match review: result, score, and per player
    the hands declared and made, mistakes, tricks lost and the declaration cost."""
    names = ", ".join(_plain(n, markup) for n in m.players)
    lines = [f"Match ({_plain(m.rules, markup)}): {names}; {m.hands} hands"]
    if m.winner is not None or m.detail:
        won = f"{_plain(m.winner, markup)} won" if m.winner is not None else "no winner"
        lines.append(f"  Result: {won}" + (f" ({_plain(m.detail, markup)})" if m.detail else ""))
    if m.totals is not None:
        lines.append(
            "  Score: " + ", ".join(f"{_plain(n, markup)} {t:+d}" for n, t in zip(m.players, m.totals))
        )
    if players:
        lines.append("  player                declared  made  mistakes  tricks lost  declaration cost")
        for name, t in players.items():
            lines.append(
                f"  {_plain(name, markup):<20} {t['declared']:>9} {t['made']:>5} {t['mistakes']:>9} "
                f"{t['lost']:>12} {t['declaration_cost']:>17}"
            )
    return lines


def _plain(text: str, markup: bool) -> str:
    """Text from the file (a name, a ruleset) with rich markup escaped when markup is on."""
    return terminal_safe(text, markup=True) if markup else text


def _trick_line(t: int, cards: list[CardReview], winner: str, markup: bool) -> str:
    """One trick: each card with the player's value before and after it, mistakes marked
    and explained at the end of the line."""
    parts = []
    notes = []
    for c in cards:
        part = f"{c.seat} {pretty_card(c.card):<3} {c.before}→{c.after}"
        if c.mistake:
            better = pretty_cards(list(c.best)) if c.best else "not found (interrupted)"
            note = f"{c.seat} {pretty_card(c.card)} costs {c.cost}: better {better}"
            if markup:
                part = f"[bold red]{part}[/bold red]"
                note = f"[red]{note}[/red]"
            else:
                part = f"✗{part}"
            notes.append(note)
        else:
            part = f" {part}"
        parts.append(part)
    line = f"  {t:>2}. " + "  ".join(parts) + f"  → {winner}"
    if notes:
        line += "   " + "; ".join(notes)
    return line


def hand_lines(h: HandReview, markup: bool = False) -> list[str]:
    rec = h.record
    names = tuple(_plain(n, markup) for n in h.players) if h.players else None
    title = f"Hand {h.hand} ({_plain(h.rules, markup)}): {h.declarer} declares {contract_words(h.contract)}"
    if rec.discard:
        title += ", discards " + pretty_cards([str(c) for c in rec.discard])
    lines = [title, "  Result: " + results_line(h)]
    for s in Seat:
        who = f" {names[s]}" if names else ""
        lines.append(f"  {s.name}{who:<12} {rec.start[s].pretty()}")
    lines.append(
        f"  value before → after each card; {'✗ cost' if not markup else 'cost'} = tricks thrown away"
        + (" (fewest tricks count: misère values)" if h.misere else "")
    )
    by_trick: dict[int, list[CardReview]] = {}
    for c in h.cards:
        by_trick.setdefault(c.trick, []).append(c)
    for t, cards in by_trick.items():
        winner = rec.winners[t - 1].name if t <= len(rec.winners) else "…"
        lines.append(_trick_line(t, cards, winner, markup))
    lines.append("  " + declaration_line(h.declaration, h.misere))
    lines.append("  seat  opening  taken  mistakes  lost  gained  target  net")
    for name, v in h.seats.items():
        who = f" {names['DEM'.index(name)]}" if names else ""
        target = "-" if v.target is None else (f"max {v.target}" if h.misere else str(v.target))
        net = "-" if v.net is None else f"{v.net:+d}"
        lines.append(
            f"  {name:<4} {v.opening:>8} {v.taken:>6} {v.mistakes:>9} {v.lost:>5} {v.gained:>7}"
            f" {target:>7} {net:>4}{who}"
        )
    return lines


def review_lines(review: Review, markup: bool = False) -> list[str]:
    lines: list[str] = []
    if review.partial:
        lines.append(f"PARTIAL: {PARTIAL_NOTE}")
    if review.match is not None:
        lines.extend(match_lines(review.match, review.players, markup))
    for h in review.hands:
        if lines:
            lines.append("")
        lines.extend(hand_lines(h, markup))
    if review.players:
        lines.append("")
        lines.append(
            "Players over the match: hands  opening  taken  mistakes  lost  gained  net  declaration cost"
        )
        for name, t in review.players.items():
            lines.append(
                f"  {_plain(name, markup):<20} {t['hands']:>5} {t['opening']:>8} {t['taken']:>6} {t['mistakes']:>9} "
                f"{t['lost']:>5} {t['gained']:>7} {t['net']:>+4d} {t['declaration_cost']:>8}"
            )
    return lines
