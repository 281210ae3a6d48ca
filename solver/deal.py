"""Seats, strains and deals (three hands plus an optional widow) with their notation.

Notation: ``D:<hand> <hand> <hand> | <widow>`` lists the hands clockwise starting
with the named seat (D → E → M → D). Any position whose three hands have the same
size (1..17) is legal; cards in no hand and not in the widow are out of play.

>>> d = Deal.parse("E:A... K... Q...")
>>> str(d)
'D:Q... A... K...'
>>> Deal.parse(str(d)) == d
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from enum import IntEnum
from typing import Any

from .cards import ALL_CARDS, NO_TRUMP, SUIT_SYMBOLS, Card, Hand, Suit, parse_cards
from .errors import InvalidDealError, NotationError
from .inputs import check_int, check_seed, load_json, notation_text, short_repr

MAX_HAND_SIZE = 17


_SEAT_WORDS = "dealer eldest middle".split()


class Seat(IntEnum):
    """Seats relative to the dealer, in clockwise (playing) order."""

    D = 0  # dealer
    E = 1  # eldest: dealer's left, plays after the dealer
    M = 2  # middle: dealer's right

    # prints and formats as its letter (D E M), as Strain and Mode do; JSON keys stay numbers
    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)

    @property
    def word(self) -> str:
        """The seat's name in words: ``dealer``, ``eldest`` or ``middle``."""
        return _SEAT_WORDS[self]

    @property
    def next(self) -> Seat:
        """The seat that plays after this one (clockwise)."""
        return Seat((self + 1) % 3)

    @classmethod
    def parse(cls, value: str | int | Seat) -> Seat:
        """Read ``D``/``E``/``M`` (any case), a Seat or 0..2."""
        if isinstance(value, Seat):
            return value
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2:
            return Seat(value)
        if isinstance(value, str) and value.strip().isascii() and value.strip().upper() in cls.__members__:
            return cls[value.strip().upper()]
        raise NotationError(f"unknown seat {short_repr(value)} (expected D, E or M)")


class Strain(IntEnum):
    """Trump strains: the four suits (same numbers as :class:`~solver.cards.Suit`) and no trump."""

    S = Suit.S
    H = Suit.H
    D = Suit.D
    C = Suit.C
    N = NO_TRUMP

    # prints and formats as its letter (S H D C N), as a Mode does; JSON keys stay letters too
    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self] if self != Strain.N else "NT"

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or None in no trump."""
        return Suit(self) if self != Strain.N else None

    @classmethod
    def parse(cls, value: str | int | Strain) -> Strain:
        """Read ``S H D C N`` (any case, ``NT`` too), a suit symbol, a Strain or 0..4."""
        if isinstance(value, Strain):
            return value
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= NO_TRUMP:
            return Strain(value)
        if isinstance(value, str):
            v = value.strip().upper()
            if value.strip().isascii() and v in cls.__members__:
                return cls[v]
            if v == "NT":
                return cls.N
            if len(v) == 1 and v in SUIT_SYMBOLS:
                return cls(SUIT_SYMBOLS.index(v))
        raise NotationError(f"unknown strain {short_repr(value)} (expected one of S H D C N)")


#: Every seat in playing order (D, E, M), to loop over or index by seat number.
SEATS: tuple[Seat, ...] = tuple(Seat)
#: The seat letters in Seat order (``("D", "E", "M")``), as JSON and records key them.
SEAT_NAMES: tuple[str, ...] = tuple(s.name for s in Seat)
#: The strain letters in Strain order (``"SHDCN"``).
STRAIN_CHARS = "".join(s.name for s in Strain)


def parse_strains(text: str | Iterable[str | Strain]) -> list[Strain]:
    """Read a strain list such as ``"SHDCN"`` or ``["S", "N"]``, rejecting repeats."""
    if isinstance(text, str):
        items: list[str | Strain] = list(text.replace(",", "").replace(" ", ""))
    elif isinstance(text, (list, tuple)):
        items = list(text)
    else:
        raise NotationError(f"strains must be a string such as 'SHDC' or a list, got {short_repr(text)}")
    strains = [Strain.parse(s) for s in items]
    if not strains:
        raise NotationError("empty strain list")
    if len(set(strains)) != len(strains):
        raise NotationError(f"strain repeated in {text!r}")
    return strains


class Deal:
    """Three hands (indexed by :class:`Seat`) and a widow; immutable and hashable."""

    __slots__ = ("hands", "widow")
    hands: tuple[Hand, Hand, Hand]
    widow: Hand

    def __init__(
        self, hands: Mapping[Seat, Hand] | Mapping[str, Hand] | Iterable[Hand], widow: Hand | None = None
    ) -> None:
        if isinstance(hands, Mapping):
            by_seat = {Seat.parse(k): v for k, v in hands.items()}
            missing = [s.name for s in Seat if s not in by_seat]
            if missing:
                raise InvalidDealError(f"no hand given for seat(s) {', '.join(missing)}")
            ordered = tuple(by_seat[s] for s in Seat)
        elif isinstance(hands, (list, tuple)):
            ordered = tuple(hands)
            if len(ordered) != 3:
                raise InvalidDealError(f"a deal has 3 hands, got {len(ordered)}")
        else:
            raise InvalidDealError(
                f"a deal is made from three hands (a list or a mapping by seat), got {short_repr(hands)}"
            )
        widow = widow if widow is not None else Hand()
        if not isinstance(widow, Hand):
            raise InvalidDealError(f"the widow is a {type(widow).__name__}, not a Hand")
        _validate(ordered, widow)
        object.__setattr__(self, "hands", ordered)
        object.__setattr__(self, "widow", widow)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Deal is immutable")

    def __reduce__(self) -> tuple[type[Deal], tuple[tuple[Hand, Hand, Hand], Hand]]:
        return (Deal, (self.hands, self.widow))

    # --- notation -------------------------------------------------------------------
    @classmethod
    def parse(cls, text: Deal | str) -> Deal:
        """Read ``D:<hand> <hand> <hand> [| <widow>]`` (hands clockwise from the named seat).
        A Deal is returned as is."""
        if isinstance(text, Deal):
            return text
        s = notation_text(text, "deal", "a string such as 'D:A... K... Q...'")
        if ":" not in s:
            raise NotationError(f"deal {text!r} must start with a seat letter and ':', e.g. 'D:'")
        seat_text, rest = s.split(":", 1)
        try:
            first = Seat.parse(seat_text)
        except NotationError:
            raise NotationError(
                f"unknown seat letter {seat_text.strip()!r} before ':' in deal (expected D, E or M)"
            ) from None
        widow = Hand()
        if "|" in rest:
            rest, widow_text = rest.split("|", 1)
            if "|" in widow_text:
                raise NotationError("deal has more than one '|' (only one widow allowed)")
            widow_text = widow_text.strip()
            try:
                widow = Hand.parse(widow_text) if widow_text else Hand()
            except NotationError as exc:
                raise NotationError(f"in the widow: {exc}") from None
        parts = rest.split()
        if len(parts) != 3:
            raise NotationError(f"deal has {len(parts)} hand(s); expected 3 separated by spaces")
        hands: dict[Seat, Hand] = {}
        seat = first
        for part in parts:
            try:
                hands[seat] = Hand.parse(part)
            except NotationError as exc:
                raise NotationError(f"in hand {seat.name}: {exc}") from None
            seat = seat.next
        return cls(hands, widow)

    def to_string(self, first: Seat | str = Seat.D) -> str:
        """The notation, listing hands clockwise from ``first``."""
        seat = Seat.parse(first)
        order = [seat, seat.next, seat.next.next]
        text = f"{seat.name}:" + " ".join(str(self.hands[s]) for s in order)
        if self.widow:
            text += f" | {self.widow}"
        return text

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"Deal('{self}')"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"hands": {"D": …, "E": …, "M": …}, "widow": …}``."""
        return {"hands": {s.name: str(self.hands[s]) for s in Seat}, "widow": str(self.widow)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> Deal:
        """Read the dict of :meth:`to_json` (or its JSON text)."""
        if isinstance(data, (str, bytes, bytearray)):
            data = load_json(data, what="deal JSON", error=NotationError)
        if not isinstance(data, Mapping) or not isinstance(data.get("hands"), Mapping):
            raise NotationError('deal JSON must be an object with a "hands" object')
        hands = {}
        for seat_name, text in data["hands"].items():
            seat = Seat.parse(seat_name)
            if not isinstance(text, str):
                raise NotationError(f"hand {seat.name} in deal JSON must be a string")
            try:
                hands[seat] = Hand.parse(text)
            except NotationError as exc:
                raise NotationError(f"in hand {seat.name}: {exc}") from None
        widow_text = data.get("widow", "") or ""
        if not isinstance(widow_text, str):
            raise NotationError("widow in deal JSON must be a string")
        try:
            widow = Hand.parse(widow_text) if widow_text.strip() else Hand()
        except NotationError as exc:
            raise NotationError(f"in the widow: {exc}") from None
        return cls(hands, widow)

    # --- construction ---------------------------------------------------------------
    @classmethod
    def random(
        cls,
        seed: int | None = None,
        *,
        hand_size: int = 16,
        widow_size: int = 4,
        deck: Iterable[Card] | None = None,
    ) -> Deal:
        """Deal ``hand_size`` cards to each seat and ``widow_size`` to the widow.

        Reproducible: the same seed gives the same deal on every platform.
        """
        if seed is not None:
            check_seed(seed, InvalidDealError)
        check_int(hand_size, "hand_size", InvalidDealError, 1, MAX_HAND_SIZE)
        check_int(widow_size, "widow_size", InvalidDealError, 0, 52)
        if deck is None:
            cards = list(ALL_CARDS)
        elif isinstance(deck, (str, Iterable)):
            cards = sorted(parse_cards(deck if isinstance(deck, str) else list(deck)))
        else:
            raise InvalidDealError(f"deck must be a list of cards, got {short_repr(deck)}")
        if not 1 <= hand_size <= MAX_HAND_SIZE or widow_size < 0:
            raise InvalidDealError(f"cannot deal hands of {hand_size} cards and a widow of {widow_size}")
        if 3 * hand_size + widow_size > len(cards):
            raise InvalidDealError(f"{3 * hand_size + widow_size} cards needed but the deck has {len(cards)}")
        rng = random.Random(seed)
        rng.shuffle(cards)
        hands = [Hand(cards[i * hand_size : (i + 1) * hand_size]) for i in range(3)]
        widow = Hand(cards[3 * hand_size : 3 * hand_size + widow_size])
        return cls(hands, widow)

    # --- queries --------------------------------------------------------------------
    def __getitem__(self, seat: Seat | str) -> Hand:
        return self.hands[Seat.parse(seat)]

    @property
    def hand_size(self) -> int:
        return len(self.hands[0])

    def replace(self, seat: Seat | str, hand: Hand) -> Deal:
        """A copy with one hand replaced."""
        hands = list(self.hands)
        hands[Seat.parse(seat)] = hand
        return Deal(hands, self.widow)

    def without_widow(self) -> Deal:
        return Deal(self.hands)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self.hands == other.hands and self.widow == other.widow

    def __hash__(self) -> int:
        return hash((self.hands, self.widow))


def _validate(hands: tuple[Hand, ...], widow: Hand) -> None:
    """Reject duplicates (naming the card and the places) and unequal hand sizes."""
    places = [(s.name, h) for s, h in zip(Seat, hands)] + [("the widow", widow)]
    for i, (name_a, a) in enumerate(places):
        if not isinstance(a, Hand):
            raise InvalidDealError(f"hand {name_a} is a {type(a).__name__}, not a Hand")
        for name_b, b in places[i + 1 :]:
            both = a.mask & b.mask
            if both:
                card = Card.from_bit(both & -both)
                raise InvalidDealError(f"duplicate card {card} in {name_a} and {name_b}")
    sizes = [len(h) for h in hands]
    if len(set(sizes)) != 1:
        raise InvalidDealError(
            "hand sizes differ: " + "/".join(str(n) for n in sizes) + " (D/E/M); all three must be equal"
        )
    if not 1 <= sizes[0] <= MAX_HAND_SIZE:
        raise InvalidDealError(f"hands have {sizes[0]} cards; expected 1..{MAX_HAND_SIZE}")
