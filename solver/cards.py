"""Suits, ranks, cards and hands, each with its own notation in and out.

A hand is stored as a 64-bit mask with one 16-bit lane per suit (bit
``16*suit + rank - 2``), the same layout the C engine uses, so hands cross into
the engine without conversion and set operations are single integer operations.

>>> Hand.parse("AKQ.T9..2")
Hand('AKQ.T9..2')
>>> Card.parse("♠10")
Card('ST')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from .errors import NotationError
from .inputs import check_int, notation_text, short_repr

RANK_CHARS = "23456789TJQKA"
SUIT_SYMBOLS = "♠♥♦♣"  # in Suit order
LANE_SHIFT = 4
LANE = 1 << LANE_SHIFT  # bits per suit lane in a hand mask (16)
LANE_MASK = (1 << 13) - 1  # the 13 rank bits of one lane (LANE and LANE_MASK as in csrc/position.h)


class Suit(IntEnum):
    """The four suits in the order of the notation: spades, hearts, diamonds, clubs."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @classmethod
    def parse(cls, value: Suit | str) -> Suit:
        """Read ``S``/``H``/``D``/``C`` (any case) or a suit symbol; a Suit is returned as is."""
        if isinstance(value, Suit):
            return value
        if not isinstance(value, str):
            raise NotationError(f"unknown suit {value!r} (expected one of S H D C or ♠ ♥ ♦ ♣)")
        ch = value
        up = ch.upper()
        if len(ch) == 1 and ch.isascii() and up in SUIT_CHARS:  # isascii: 'ſ'.upper() is 'S'
            return cls(SUIT_CHARS.index(up))
        if len(ch) == 1 and ch in SUIT_SYMBOLS:
            return cls(SUIT_SYMBOLS.index(ch))
        raise NotationError(f"unknown suit {ch!r} (expected one of S H D C or ♠ ♥ ♦ ♣)")


#: The suit letters in Suit order (``"SHDC"``).
SUIT_CHARS = "".join(s.name for s in Suit)
#: The trump index meaning "no trump suit": one past the last suit (``Strain.N``).
NO_TRUMP = len(Suit)


def parse_rank(text: str) -> int:
    """Read a rank (``A K Q J T 9 … 2``, ``10`` for ten) as 2..14."""
    up = text.upper()
    if up == "10":
        return 10
    if len(up) == 1 and up in RANK_CHARS:
        return RANK_CHARS.index(up) + 2
    raise NotationError(f"unknown rank {text!r}")


def rank_char(rank: int) -> str:
    return RANK_CHARS[rank - 2]


class Card:
    """One card; the 52 instances are interned, so ``is`` and ``==`` agree."""

    __slots__ = ("suit", "rank", "bit", "index")
    suit: Suit
    rank: int
    bit: int
    index: int

    def __new__(cls, suit: int, rank: int) -> Card:
        if not (_is_int(suit) and _is_int(rank) and 0 <= suit <= 3 and 2 <= rank <= 14):
            raise NotationError(f"no card with suit {short_repr(suit)} and rank {short_repr(rank)}")
        return _CARDS[int(suit) * 13 + rank - 2]

    @classmethod
    def _make(cls, suit: int, rank: int) -> Card:
        """Build one of the 52 interned instances (used once, at import)."""
        card = object.__new__(cls)
        for name, value in (
            ("suit", Suit(suit)),
            ("rank", rank),
            ("bit", 1 << (suit * LANE + rank - 2)),
            ("index", suit * 13 + rank - 2),
        ):
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, int]]:
        return (Card, (int(self.suit), self.rank))

    @classmethod
    def parse(cls, text: Card | str) -> Card:
        """Read ``SA``, ``HT``, ``H10``, ``♠A``, ``A♠`` or ``10♥`` (any case); a Card is returned as is."""
        if isinstance(text, Card):
            return text
        t = notation_text(text, "card", "a Card or a string such as 'SA'")
        if len(t) >= 2:
            if t[0].upper() in SUIT_CHARS or t[0] in SUIT_SYMBOLS:
                suit_part, rank_part = t[0], t[1:]
            elif t[-1] in SUIT_SYMBOLS:
                suit_part, rank_part = t[-1], t[:-1]
            else:
                raise NotationError(f"cannot read card {text!r}: expected a suit then a rank, e.g. 'SA'")
            try:
                return cls(Suit.parse(suit_part), parse_rank(rank_part))
            except NotationError as exc:
                raise NotationError(f"cannot read card {text!r}: {exc}") from None
        raise NotationError(f"cannot read card {text!r}: expected a suit then a rank, e.g. 'SA'")

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with ``index = 13*suit + rank - 2`` (0..51)."""
        return _CARDS[check_int(index, "card index", NotationError, 0, 51)]

    @classmethod
    def from_bit(cls, bit: int) -> Card:
        """The card whose hand-mask bit is ``bit`` (a power of two)."""
        if not _is_int(bit) or bit <= 0 or bit & (bit - 1) or not bit & FULL_DECK_MASK:
            raise NotationError(f"{short_repr(bit)} is not the bit of a card")
        pos = bit.bit_length() - 1
        return cls(pos // LANE, pos % LANE + 2)

    def __str__(self) -> str:
        return SUIT_CHARS[self.suit] + RANK_CHARS[self.rank - 2]

    def pretty(self) -> str:
        """The card with its suit symbol, e.g. ``♠A``."""
        return SUIT_SYMBOLS[self.suit] + RANK_CHARS[self.rank - 2]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


_CARDS: list[Card] = [Card._make(s, r) for s in range(4) for r in range(2, 15)]
ALL_CARDS: tuple[Card, ...] = tuple(_CARDS)
FULL_DECK_MASK = sum(c.bit for c in ALL_CARDS)


class Hand:
    """An immutable set of cards, ordered for display by suit (S H D C) then rank down.

    >>> h = Hand.parse("AK..T.")
    >>> len(h), Card.parse("SA") in h
    (3, True)
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: Iterable[Card | str] | int = ()) -> None:
        if isinstance(cards, bool):
            raise NotationError("a hand is made from cards or a mask, not from a bool")
        if isinstance(cards, int):
            if cards < 0 or cards & ~FULL_DECK_MASK:
                raise NotationError(f"hand mask {short_repr(cards)} has bits outside the deck")
            mask = cards
        else:
            if isinstance(cards, (str, bytes, bytearray)) or not isinstance(cards, Iterable):
                raise NotationError(
                    f"a hand is made from a list of cards, got {short_repr(cards)}"
                    " (use Hand.parse for hand notation)"
                )
            mask = 0
            for c in cards:
                card = Card.parse(c) if isinstance(c, str) else c
                if not isinstance(card, Card):
                    raise NotationError(f"a hand holds cards, got {short_repr(c)}")
                if mask & card.bit:
                    raise NotationError(f"duplicate card {card} in hand")
                mask |= card.bit
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Hand is immutable")

    def __reduce__(self) -> tuple[type[Hand], tuple[int]]:
        return (Hand, (self.mask,))

    @classmethod
    def parse(cls, text: Hand | str) -> Hand:
        """Read ``spades.hearts.diamonds.clubs``; a group may start with its suit symbol.
        A Hand is returned as is."""
        if isinstance(text, Hand):
            return text
        groups = notation_text(text, "hand", "a string such as 'AK.Q..2'").split(".")
        if len(groups) != 4:
            raise NotationError(f"hand {text!r} has {len(groups)} suit group(s); expected 4 separated by '.'")
        mask = 0
        for suit, group in enumerate(groups):
            g = group.strip()
            if g and g[0] in SUIT_SYMBOLS:
                if SUIT_SYMBOLS.index(g[0]) != suit:
                    raise NotationError(f"hand {text!r}: suit symbol {g[0]} in the {SUIT_CHARS[suit]} group")
                g = g[1:]
            if g in ("-", "—"):
                g = ""
            i = 0
            while i < len(g):
                if g[i] == "1" and g[i + 1 : i + 2] == "0":
                    token, i = "10", i + 2
                else:
                    token, i = g[i], i + 1
                if token.isspace():
                    continue
                try:
                    rank = parse_rank(token)
                except NotationError:
                    raise NotationError(
                        f"unknown rank {token!r} in the {SUIT_CHARS[suit]} group of hand {text!r}"
                    ) from None
                bit = Card(suit, rank).bit
                if mask & bit:
                    raise NotationError(f"duplicate card {Card(suit, rank)} in hand {text!r}")
                mask |= bit
        return cls(mask)

    def suit_mask(self, suit: int) -> int:
        """The 13-bit lane of one suit (bit ``rank - 2``)."""
        return (self.mask >> (LANE * int(suit))) & LANE_MASK

    def cards_in(self, suit: int) -> list[Card]:
        """The cards of one suit, highest first."""
        lane = self.suit_mask(suit)
        return [Card(suit, r + 2) for r in range(12, -1, -1) if lane >> r & 1]

    def __iter__(self) -> Iterator[Card]:
        for s in range(4):
            yield from self.cards_in(s)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = Card.parse(card)
        return isinstance(card, Card) and bool(self.mask & card.bit)

    def __or__(self, other: Hand) -> Hand:
        return Hand(self.mask | other.mask)

    def __and__(self, other: Hand) -> Hand:
        return Hand(self.mask & other.mask)

    def __sub__(self, other: Hand) -> Hand:
        return Hand(self.mask & ~other.mask)

    def add(self, card: Card) -> Hand:
        return Hand(self.mask | card.bit)

    def remove(self, card: Card) -> Hand:
        if not self.mask & card.bit:
            raise NotationError(f"card {card} is not in hand {self}")
        return Hand(self.mask & ~card.bit)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(("Hand", self.mask))

    def __str__(self) -> str:
        return ".".join(
            "".join(RANK_CHARS[r] for r in range(12, -1, -1) if self.suit_mask(s) >> r & 1) for s in range(4)
        )

    def pretty(self) -> str:
        """Suit symbols and a dash for a void, e.g. ``♠AKQ ♥T9 ♦— ♣2``."""
        parts = []
        for s in range(4):
            ranks = "".join(RANK_CHARS[r] for r in range(12, -1, -1) if self.suit_mask(s) >> r & 1)
            parts.append(SUIT_SYMBOLS[s] + (ranks or "—"))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Hand('{self}')"


def suit_html(text: str) -> str:
    """``text`` escaped for HTML with every suit symbol coloured (red hearts and diamonds)."""
    import html

    out = html.escape(text)
    for sym, colour in zip(SUIT_SYMBOLS, ("black", "#c00", "#c00", "black")):
        out = out.replace(sym, f'<span style="color:{colour}">{sym}</span>')
    return out


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Read a list of cards given as ``"SA HK"``, ``"SA,HK"`` or an iterable."""
    items: list[str | Card]
    if isinstance(text, str):
        items = list(text.replace(",", " ").split())
    elif isinstance(text, (list, tuple)):
        items = list(text)
    else:
        raise NotationError(f"cards must be a string such as 'SA HK' or a list, got {short_repr(text)}")
    return [c if isinstance(c, Card) else Card.parse(c) for c in items]


def _is_int(value: object) -> bool:
    """A true integer (``Suit`` included), not a bool: ``True`` is not a suit or a rank."""
    return isinstance(value, int) and not isinstance(value, bool)
