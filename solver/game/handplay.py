"""The play section of a hand file: its problems collected, its lines checked against the
rules, missing lines found, and the hands rebuilt from a complete play.

:mod:`solver.game.handfile` reads the tags and builds the record; this module holds what
checks the tricks, so that one reading reports every problem, in file order
(``docs/handfile.md``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..cards import SUIT_CHARS, Card, Hand
from ..deal import Deal, Seat
from ..errors import HandFileError, RecordError
from ..tricks import legal_mask, trick_winner
from .rules import REMOVED_IN_51, Ruleset

__all__ = [
    "Line",
    "Problems",
    "card_bit",
    "cards_text",
    "check_lines",
    "check_play",
    "check_trick_numbers",
    "deck_words",
    "leaders_and_winners",
    "reconstruct",
]

_T = TypeVar("_T")
_LINE_OF = re.compile(r"^line (\d+)\b")


def card_bit(card: Card) -> int:
    return card.bit.bit_length() - 1


def leaders_and_winners(
    leader: Seat, tricks: Sequence[Sequence[Card]], trump: int
) -> tuple[tuple[Seat, ...], tuple[Seat, ...]]:
    leaders: list[Seat] = []
    winners: list[Seat] = []
    lead = leader
    for trick in tricks:
        leaders.append(lead)
        if len(trick) == 3:
            lead = Seat((lead + trick_winner([card_bit(c) for c in trick], trump)) % 3)
            winners.append(lead)
    return tuple(leaders), tuple(winners)


class Line:
    """One trick line of the play section: its line number, the cards that could be read,
    whether any word could not (``broken``), and the trick number typed before it, if any."""

    def __init__(self, number: int, cards: list[Card], broken: bool, typed: int | None) -> None:
        self.number = number
        self.cards = cards
        self.broken = broken
        self.typed = typed


class Problems:
    """Every problem of a hand file, so one reading reports them all, in file order."""

    def __init__(self) -> None:
        self._items: list[tuple[int, int, str]] = []

    def add(self, message: str) -> None:
        m = _LINE_OF.match(message)
        self._items.append((int(m.group(1)) if m else 0, len(self._items), message))

    def attempt(self, read: Callable[..., _T], *args: Any) -> _T | None:
        """``read(*args)``, or None with its RecordError noted."""
        try:
            return read(*args)
        except RecordError as exc:
            self.add(str(exc))
            return None

    def __bool__(self) -> bool:
        return bool(self._items)

    def raise_any(self) -> None:
        if self._items:
            raise HandFileError([message for _, _, message in sorted(self._items)])


_LINE_OF = re.compile(r"^line (\d+)\b")


def check_trick_numbers(lines: Sequence[Line], problems: Problems) -> None:
    """A typed trick number must be the line's place in the play; once one is off, the
    next lines are checked against the same offset, so one skipped line is one problem."""
    offset = 0
    for t, ln in enumerate(lines, 1):
        if ln.typed is None or ln.typed == t + offset:
            continue
        hint = f" (is the line of trick {ln.typed - 1} missing?)" if ln.typed == t + offset + 1 else ""
        problems.add(f"line {ln.number} says trick {ln.typed} but is trick {t}{hint}")
        offset = ln.typed - t


def check_lines(
    lines: Sequence[Line],
    size: int,
    ruleset: Ruleset | None,
    discard: Sequence[Card] | None,
    problems: Problems,
) -> int:
    """The checks of the play that need no hands: trick count, cards per line, cards in
    the deck, no card twice. Returns how many leading lines can be played through."""
    playable = len(lines)
    for t, ln in enumerate(lines, 1):
        where = f"line {ln.number} (trick {t})"
        if t == size + 1:
            problems.add(f"{where}: the hand has only {size} tricks")
        if ln.broken or (t < len(lines) and len(ln.cards) != 3) or t > size:
            playable = min(playable, t - 1)
        if not ln.broken and t < len(lines) and len(ln.cards) != 3:
            problems.add(f"{where}: {len(ln.cards)} card(s); only the last trick may be unfinished")
        if ruleset is not None:
            for c in ln.cards:
                if not ruleset.deck.mask & c.bit:
                    problems.add(f"{where}: card {c} is not in the deck of {deck_words(ruleset)}")
                    playable = min(playable, t - 1)
    seen: dict[Card, int] = {}
    out = set(discard or ())
    for t, ln in enumerate(lines, 1):
        for c in ln.cards:
            if c in seen:
                problems.add(
                    f"line {ln.number} (trick {t}): card {c} played twice (already played at trick {seen[c]})"
                )
                playable = min(playable, t - 1)
            elif c in out:
                problems.add(f"line {ln.number} (trick {t}): card {c} was discarded and is out of play")
                playable = min(playable, t - 1)
            seen[c] = t
    return playable


def deck_words(ruleset: Ruleset) -> str:
    if ruleset.deck_size == 51:
        return f"{ruleset.name} (51 cards: the {REMOVED_IN_51} is taken out)"
    return ruleset.name


def reconstruct(tricks: Sequence[Sequence[Card]], leader: Seat, trump: int) -> Deal:
    """The hands at the first lead, from a complete play: each seat holds what it played."""
    hands = [0, 0, 0]
    leaders, _ = leaders_and_winners(leader, tricks, trump)
    for lead, trick in zip(leaders, tricks):
        for k, c in enumerate(trick):
            hands[(lead + k) % 3] |= c.bit
    return Deal([Hand(m) for m in hands])


def cards_text(mask: int) -> str:
    return ", ".join(str(c) for c in sorted(Hand(mask), key=lambda c: -c.rank))


def check_play(
    lines: Sequence[Line],
    start: Deal,
    leader: Seat,
    trump: int,
    must_ruff: bool,
    reconstructed: bool,
    exchanged: bool,
    problems: Problems,
) -> None:
    """Every card in the right hand and legal; each problem names the line, trick and card.

    After a revoke or a missed ruff the play goes on being checked (the card was in the
    hand). A line that does not follow from the one before may come after a line left out:
    when the file says so (its typed trick number is one ahead: then even if the line
    happens to be legal without it) or holds every trick of a hand of three or more but
    one, and a trick of cards never played in the file, put before the line, makes it
    legal, that trick's line is reported missing (not as a revoke) and the check goes on. A card in the wrong hand otherwise leaves the hands
    unknown, so the check stops there.
    """
    hands = [h.mask for h in start.hands]
    size = start.hand_size
    one_short = size >= 3 and len(lines) == size - 1 and all(len(ln.cards) == 3 for ln in lines)
    lead = leader
    shift = 0  # trick lines found missing so far
    rules = (trump, must_ruff, reconstructed, exchanged)
    for t, ln in enumerate(lines, 1):
        found, known = _line_problems(ln, t + shift, hands, lead, *rules)
        numbered_gap = ln.typed == t + shift + 1  # the typed number says a line is missing
        if numbered_gap or (found and one_short and not shift):
            later = sum(c.bit for other in lines[t - 1 :] for c in other.cards)
            gap = _missing_trick(ln, hands, lead, later, *rules)
            if gap is not None:
                cards, winner = gap
                for k, c in enumerate(cards):
                    hands[(lead + k) % 3] &= ~c.bit
                lead = winner
                shift += 1
                shown = " ".join(str(c) for c in cards)
                if ln.typed is not None:  # the typed number already says a line is missing
                    problems.add(
                        f"line {ln.number}: {shown}, never played in the file, would fit as trick {t + shift - 1}"
                    )
                else:
                    problems.add(
                        f"line {ln.number} (trick {t + shift - 1}): the play does not follow from the line "
                        f"before: is the line of trick {t + shift - 1} missing? ({shown}, never played in "
                        "the file, would fit)"
                    )
                found, known = _line_problems(ln, t + shift, hands, lead, *rules)
        for message in found:
            problems.add(message)
        if not known:
            return
        for k, c in enumerate(ln.cards):
            hands[(lead + k) % 3] &= ~c.bit
        if len(ln.cards) == 3:
            lead = Seat((lead + trick_winner([card_bit(c) for c in ln.cards], trump)) % 3)


def _line_problems(
    ln: Line,
    trick: int,
    hands: Sequence[int],
    lead: int,
    trump: int,
    must_ruff: bool,
    reconstructed: bool,
    exchanged: bool,
) -> tuple[list[str], bool]:
    """The problems of one trick line played from ``hands``, and whether the hands are
    still known after it (not after a card that is not in its player's hand)."""
    held = list(hands)
    where = f"line {ln.number} (trick {trick})"
    later = " (played later)" if reconstructed else ""
    found = []
    led = -1
    for k, c in enumerate(ln.cards):
        seat = Seat((lead + k) % 3)
        if not held[seat] & c.bit:
            owner = next((s for s in Seat if held[s] & c.bit), None)
            if owner is not None and k == 0:
                found.append(
                    f"{where}: wrong seat leading: {c} is {owner.name}'s card, but "
                    f"{seat.name} {'won the last trick' if trick > 1 else 'has the first lead'} and leads"
                )
            elif owner is not None:
                hint = "" if exchanged else " (if cards were exchanged before the play, give [Exchange])"
                found.append(
                    f"{where}: card {c} is not in {seat.name}'s hand (it is {owner.name}'s); "
                    f"{seat.name} plays card {k + 1} of this trick{hint}"
                )
            else:
                found.append(f"{where}: card {c} is not in {seat.name}'s hand")
            return found, False
        legal = legal_mask(held[seat], led, trump, must_ruff)
        if not legal & c.bit:
            follow = held[seat] & (0x1FFF << (16 * led))
            if follow:
                found.append(
                    f"{where}: {seat.name} revokes with {c}: {SUIT_CHARS[led]} was led and "
                    f"{seat.name} holds {cards_text(follow)}{later}"
                )
            else:
                found.append(
                    f"{where}: {seat.name} plays {c} without ruffing: void in {SUIT_CHARS[led]}, "
                    f"{seat.name} must play a trump (holds {cards_text(legal)}){later}"
                )
        held[seat] &= ~c.bit
        if k == 0:
            led = int(c.suit)
    return found, True


def _missing_trick(
    ln: Line,
    hands: Sequence[int],
    lead: int,
    later: int,
    trump: int,
    must_ruff: bool,
    reconstructed: bool,
    exchanged: bool,
) -> tuple[tuple[Card, Card, Card], Seat] | None:
    """A legal trick of cards that the rest of the file never plays which, played before
    ``ln``, makes ``ln`` legal: (its cards, its winner), or None."""
    free = [h & ~later for h in hands]
    seats = [(lead + k) % 3 for k in range(3)]
    for a in Hand(free[seats[0]]):
        led = int(a.suit)
        for b in Hand(legal_mask(hands[seats[1]], led, trump, must_ruff) & free[seats[1]]):
            for c in Hand(legal_mask(hands[seats[2]], led, trump, must_ruff) & free[seats[2]]):
                after = list(hands)
                for seat, card in zip(seats, (a, b, c)):
                    after[seat] &= ~card.bit
                winner = Seat((lead + trick_winner([card_bit(a), card_bit(b), card_bit(c)], trump)) % 3)
                found, _ = _line_problems(ln, 0, after, winner, trump, must_ruff, reconstructed, exchanged)
                if not found:
                    return (a, b, c), winner
    return None
