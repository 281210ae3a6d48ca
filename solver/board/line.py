"""A line of play on the board: the hand's setup, the actual play, and the line being shown.

The board always shows one position: the first ``at`` cards of ``cards``. ``cards`` is the
actual play until the user deviates by playing another card (a branch: the line is cut
there and continued with that card); :meth:`Line.undo` takes the last card back and
:meth:`Line.to_actual` returns to the actual play where the branch left it.

The setup is a :class:`~solver.game.handfile.HandRecord` with no tricks, so everything the
hand file knows (rules and options, declarer, contract, discard, exchange, players) comes
along, and the position at any point is the record's own :meth:`HandRecord.position`.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
from collections.abc import Sequence
from urllib.parse import parse_qs, urlencode

from ..cards import Card, Hand
from ..errors import IllegalPlayError, RecordError, SolverError
from ..game.handfile import HandRecord, Position, parse_hand
from ..modes import Mode
from ..tricks import legal_mask

__all__ = ["Line", "decode_query", "sorted_cards"]

#: The longest share query read (a hand file of 17 tricks is well under 2 KB).
MAX_QUERY_CHARS = 16_000


def sorted_cards(cards: Sequence[Card] | Hand) -> list[Card]:
    """Spades first, each suit from the ace down: how a player holds a hand."""
    return sorted(cards, key=lambda c: (c.suit, -c.rank))


def _chunks(cards: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(cards[i : i + 3]) for i in range(0, len(cards), 3))


class Line:
    """The setup, the actual play and the line shown; see the module docstring."""

    def __init__(self, record: HandRecord, *, cards: Sequence[Card] | None = None, at: int | None = None):
        self.setup = dataclasses.replace(record, tricks=())
        self.actual: tuple[Card, ...] = tuple(record.cards)
        self.cards: list[Card] = list(self.actual if cards is None else cards)
        if cards is not None:
            self._check_line(self.cards)
        self.at = 0 if at is None else at
        if not 0 <= self.at <= len(self.cards):
            raise RecordError(f"position {self.at} is outside the line of {len(self.cards)} cards")

    # --- the position shown ------------------------------------------------------------
    @property
    def total(self) -> int:
        """Cards in the whole hand (3 per trick)."""
        return 3 * self.setup.hand_size

    def record(self, upto: int | None = None) -> HandRecord:
        """The setup with the first ``upto`` cards of the line (default: up to ``at``)."""
        n = self.at if upto is None else upto
        return dataclasses.replace(self.setup, tricks=_chunks(self.cards[:n]))

    @property
    def over(self) -> bool:
        return self.at >= self.total

    def position(self) -> Position | None:
        """The position before the next card, or None when every card has been played."""
        if self.over:
            return None
        trick, played = divmod(self.at, 3)
        return self.record().position(trick + 1, played)

    def won(self) -> tuple[int, int, int]:
        """Tricks taken by D, E, M in the tricks finished at ``at``."""
        return self.record().won

    def legal(self) -> list[Card]:
        pos = self.position()
        if pos is None:
            return []
        hand = pos.deal.hands[pos.mover]
        led = int(pos.played[0].suit) if pos.played else -1
        mask = legal_mask(hand.mask, led, int(Mode.parse(self.setup.contract).strain), pos.must_ruff)
        return sorted_cards(Hand(mask))

    def _check_line(self, cards: Sequence[Card]) -> None:
        """Refuse a line that is not a legal continuation of the setup, naming the card."""
        saved, self.cards = getattr(self, "cards", []), []
        try:
            if len(cards) > self.total:
                raise RecordError(f"the line has {len(cards)} cards; the hand has {self.total}")
            for card in cards:
                self.at = len(self.cards)
                self._require_legal(card)
                self.cards.append(card)
        finally:
            self.cards = saved

    def _require_legal(self, card: Card) -> None:
        pos = self.position()
        if pos is None:
            raise IllegalPlayError(f"card {card}: the hand is over, every card has been played")
        if card not in self.legal():
            seat = pos.mover.name
            if card not in pos.deal.hands[pos.mover]:
                raise IllegalPlayError(f"card {card} is not in {seat}'s hand; {seat} is to play")
            led = pos.played[0].suit
            if pos.deal.hands[pos.mover].suit_mask(led):
                raise IllegalPlayError(f"card {card} revokes: {seat} holds {led.name} and must follow suit")
            raise IllegalPlayError(
                f"card {card} breaks must-ruff: {seat} is void in {led.name} and holds a trump"
            )

    # --- moving --------------------------------------------------------------------------
    def play(self, card: Card) -> None:
        """Play ``card`` at the position shown: follow the line when it is the next card,
        otherwise branch (the rest of the line is dropped)."""
        self._require_legal(card)
        if self.at < len(self.cards) and self.cards[self.at] == card:
            self.at += 1
            return
        del self.cards[self.at :]
        self.cards.append(card)
        self.at += 1

    def goto(self, at: int) -> None:
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(self.cards):
            raise RecordError(f"position {at!r} is outside the line: 0..{len(self.cards)} cards")
        self.at = at

    def undo(self) -> None:
        """Take the last card shown back; on a branch the card leaves the line (and once
        the line is back on the actual play, the actual play continues from there)."""
        if self.at == 0:
            raise IllegalPlayError("nothing to undo: no card has been played")
        self.at -= 1
        if self.branch and self.at >= self.divergence:
            del self.cards[self.at :]
            if not self.branch:  # the deviation is undone: the actual play continues from here
                self.cards = list(self.actual)

    @property
    def divergence(self) -> int:
        """How many cards the line shares with the actual play."""
        n = 0
        for a, b in zip(self.cards, self.actual):
            if a != b:
                break
            n += 1
        return n

    @property
    def branch(self) -> bool:
        """Whether the line left the actual play (or runs past its end)."""
        return self.divergence < len(self.cards)

    def to_actual(self) -> None:
        """Back to the actual play, at the card where the line left it."""
        at = min(self.at, self.divergence)
        self.cards = list(self.actual)
        self.at = at

    # --- sharing ---------------------------------------------------------------------------
    def hand_text(self, upto: int | None = None) -> str:
        """The hand file of the line (default: the whole line, past the position shown)."""
        return self.record(len(self.cards) if upto is None else upto).to_text()

    def query(self) -> str:
        """The share query: ``h`` the hand file of the actual play (base64url), ``line`` the
        line shown when it is a branch, ``at`` the number of cards shown."""
        text = dataclasses.replace(self.setup, tricks=_chunks(self.actual)).to_text()
        params = {"h": base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")}
        if self.branch or len(self.cards) != len(self.actual):
            params["line"] = "-".join(str(c) for c in self.cards) or "-"
        params["at"] = str(self.at)
        return urlencode(params)


def decode_query(query: str) -> Line:
    """The :class:`Line` a share query (:meth:`Line.query`) describes; RecordError if malformed."""
    if not isinstance(query, str):
        raise RecordError("the position query must be text")
    if len(query) > MAX_QUERY_CHARS:
        raise RecordError(f"the position query has {len(query)} characters; at most {MAX_QUERY_CHARS}")
    params = parse_qs(query.lstrip("?"), keep_blank_values=True)
    if "h" not in params:
        raise RecordError("the position query has no hand (h=...)")
    raw = params["h"][0]
    try:
        padded = (raw + "=" * (-len(raw) % 4)).encode("ascii")
        text = base64.b64decode(padded, altchars=b"-_", validate=True).decode("utf-8")
    except (binascii.Error, ValueError):  # UnicodeError is a ValueError
        raise RecordError("the position query's hand (h=...) is not base64url-encoded UTF-8 text") from None
    record = parse_hand(text)
    cards: list[Card] | None = None
    if "line" in params:
        words = [w for w in params["line"][0].replace(" ", "-").split("-") if w]
        try:
            cards = [Card.parse(w) for w in words]
        except SolverError as exc:
            raise RecordError(f"the position query's line: {exc}") from None
    at: int | None = None
    if "at" in params:
        text_at = params["at"][0]
        if not text_at.isdigit() or len(text_at) > 3:
            raise RecordError(f"the position query's at={text_at[:12]!r} is not a card count")
        at = int(text_at)
    line = Line(record, cards=cards)
    if at is not None:
        line.goto(at)
    return line
