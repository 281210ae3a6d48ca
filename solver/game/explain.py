"""Plain-words explanation of a :class:`~solver.game.rules.Ruleset` (``sm358 rules NAME``).

Kept apart from :mod:`solver.game.rules` so the option model stays short and the wording can
grow without touching validation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..deal import Seat

if TYPE_CHECKING:  # pragma: no cover
    from .rules import Ruleset

SEAT_WORDS = {
    Seat.D: "the dealer",
    Seat.E: "eldest (the dealer's left)",
    Seat.M: "middle (the dealer's right)",
}
MODE_WORDS = {
    "S": "spades",
    "H": "hearts",
    "D": "diamonds",
    "C": "clubs",
    "N": "no trump",
    "MT": "MT (minimum tricks: no trump, everybody tries to take few tricks)",
    "miz": "miz (misère: no trump, everybody tries to take few tricks)",
}


def _widow(r: Ruleset) -> str:
    who = SEAT_WORDS[r.declarer]
    if r.widow == "none":
        return (
            f"There is no widow: {r.deck_size} cards"
            + (" (the ♣2 is removed)" if r.deck_size == 51 else "")
            + f", {r.hand_size} to each player; {who} names the trump from his own hand."
        )
    n = r.widow_size
    return {
        "see-then-discard": f"{who.capitalize()} takes the {n}-card widow, names the trump, then discards {n} cards face down.",
        "blind-discard": f"{who.capitalize()} names the trump from his own {r.hand_size} cards, discards {n} cards "
        f"before seeing the widow, then takes the {n}-card widow.",
        "blind-trump": f"{who.capitalize()} names the trump before looking at the {n}-card widow, then takes it and "
        f"discards {n} cards.",
        "first-six": f"{who.capitalize()} names the mode after seeing only the first six cards dealt to him; then he "
        f"takes the {n}-card widow and discards {n} cards.",
    }[r.widow] + " Discarded cards are out of play and count for nobody."


def _exchange(r: Ruleset) -> str:
    if r.exchange == "none":
        return "There is no card exchange: every hand is independent."
    head = (
        "From the second hand on, players who were up in the previous hand take cards from players who "
        "were down, one trade per overtrick (an up player trades with each down player in proportion to "
        "the deficit). "
    )
    body = {
        "lowest-for-highest": "The up player gives his lowest cards and the down player gives his highest "
        "(trumps count highest if the trump is already named; otherwise aces first, ties ♠♥♦♣). "
        + (
            "The trump is named before the exchange."
            if r.trump_before_exchange
            else "The exchange happens before the trump is named."
        ),
        "named-suit": "For every overtrick the up player names a suit; the down player hands over his highest card "
        "of it (if he is void the up player names another suit) and receives any card back. "
        + ("Double payment: two cards per overtrick. " if r.double_payment else "")
        + "The biggest up player goes first; ties go to the dealer's left. The exchange comes before "
        "the trump is named.",
        "card-return": "Once the trump is named, the up player gives one card per overtrick; the down player "
        "returns his highest card of that suit if it is higher, otherwise the card itself. When two "
        "players are up, the one with the larger target starts. No exchange without a trump suit.",
        "hungarian": "Only in a trump-suit mode (never in NT or MT): the up player gives one card per point, never "
        "a trump; the down player returns his highest card of that suit if it is higher, otherwise "
        "the card itself. Whoever needs more tricks in the new hand starts.",
    }[r.exchange]
    return head + body


def _end(r: Ruleset) -> str:
    limit = (
        f" If no one has won after {r.hands_limit} hands, the highest total wins." if r.hands_limit else ""
    )
    unit = "chips" if r.chips else "nets"
    text = {
        "hands": f"The match lasts {r.hands_limit} hands; the highest cumulative total of {unit} wins.",
        "round-the-table": "Once the deal has gone round the table, the first dealer who is "
        + ("up on his own deal" if r.round_strict else "up overall after his own deal")
        + " wins."
        + limit,
        "first-to-12": f"The first player to take {r.win_tricks} or more tricks in one hand wins." + limit,
        "race": f"The first to a cumulative total of +{r.race_target}"
        + (f" (or when anyone falls to -{r.race_target})" if r.race_both_ways else "")
        + " ends the match; the highest total wins."
        + limit,
        "hungarian-18": "The match is 18 deals: each player is game leader six times and must use each of the six "
        "modes exactly once; the highest total wins.",
    }[r.match_end]
    tie = {
        "none": " A tie in the final total is a shared win.",
        "chain-002": " Ties: most points in the last hand, then whoever won the last trick of it, then whoever won "
        "a trick most recently.",
        "tie-break-hand": " Tied players play extra hands until one of them is ahead.",
    }[r.tie_break]
    if r.match_end in ("first-to-12", "round-the-table") and not r.hands_limit:
        tie = ""
    return text + tie


def describe(r: Ruleset) -> str:
    """Several short paragraphs saying how a match under ``r`` is played and scored."""
    t = r.targets
    modes = [MODE_WORDS[m] for m in r.mode_order]
    lines = [
        f"{r.name}: three players, {r.deck_size} cards, {r.hand_size} tricks a hand.",
        f"Targets: dealer {t[0]}, eldest {t[1]}, middle {t[2]}. Net = tricks won - target; nets sum to zero.",
        _widow(r),
        f"{SEAT_WORDS[r.declarer].capitalize()} chooses among: {', '.join(modes)}.",
        (
            "The declarer leads to the first trick."
            if r.first_leader == "declarer"
            else "Eldest leads to the first trick."
        ),
        "Follow suit if you can"
        + (
            "; if you cannot, you must trump if you hold one."
            if r.must_ruff
            else "; otherwise play any card."
        )
        + " There is never a duty to head the trick.",
    ]
    if any(m.minimising for m in r.modes):
        lines.append(
            "In MT/miz the targets become maxima and swap ends (the 8-seat may take at most 3); each trick "
            "above the maximum scores -1, each trick below +1."
        )
    if r.chips:
        lines.append("Chips: after every hand each overtrick earns one chip from every player who was down.")
    lines.append(_exchange(r))
    lines.append(_end(r))
    return "\n".join(lines)
