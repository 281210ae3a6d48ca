"""The player interface and the views a player decides from.

A player is any object with ``name``, ``declare``, ``name_suit``, ``give_card`` and
``play``. The match engine (:mod:`solver.match`) builds a *view* for every decision
holding only what that player legitimately knows — its own hand, the cards it
received or gave in the exchange, the trump, the cards played so far, the scores.
A player whose ``sees_all`` attribute is true (the double-dummy player) also gets
every hand in ``view.hands``; for everyone else that field is ``None``.

Hands inside views are plain 64-bit masks (the :class:`~solver.cards.Hand` layout)
because the play loop is the hot path of simulation; ``Hand(view.hand)`` gives the
object form when convenient.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ..cards import Card, Hand, Suit
from ..deal import Seat

#: Declaration modes: the four trump suits, no trump, minimum tricks, misère.
MODES = ("S", "H", "D", "C", "N", "MT", "miz")
#: The trump suit (0..3) each mode plays with; 4 = no trump.
MODE_TRUMP = {"S": 0, "H": 1, "D": 2, "C": 3, "N": 4, "MT": 4, "miz": 4}


@dataclass(frozen=True)
class Declaration:
    """What the declarer announces: a mode (see :data:`MODES`) and the cards discarded.

    ``discard`` is empty when the ruleset has no widow, and when only the mode is asked
    for (``DeclareView.stage == "mode"``).
    """

    mode: str
    discard: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Table:
    """Facts about the match every player knows."""

    ruleset: Any                       # solver.rules.Ruleset
    hand_number: int                   # 1-based
    dealer: int                        # player index of this hand's dealer
    me: int                            # player index of the player deciding
    seat: Seat                         # that player's seat in this hand
    targets: tuple[int, int, int]      # by seat D, E, M
    declarer: Seat
    totals: tuple[int, int, int]       # cumulative nets by PLAYER index, before this hand
    exchange: tuple = ()               # transfers of this hand's exchange that involve me
                                       # (solver.exchange.Transfer: frm, to, card), in order


@dataclass(frozen=True)
class DeclareView:
    """The declarer's decision.

    ``stage`` says what is asked: ``"both"`` (mode and discards), ``"mode"`` (the mode
    only, e.g. before the exchange or before seeing the widow) or ``"discard"`` (the
    discards only; ``mode`` is then already fixed). ``hand`` is everything the declarer
    holds and may choose discards from (own cards plus the widow once taken);
    ``visible`` is what it may look at when naming the mode (only the first six cards
    dealt to it under the ``first-six`` widow rule).
    """

    table: Table
    stage: str
    hand: int
    visible: int
    modes: tuple[str, ...]             # the modes allowed now
    n_discard: int
    mode: str | None = None
    hands: tuple[int, int, int] | None = None   # every hand by seat (sees_all players only)
    widow: int | None = None                    # the widow (sees_all players only)


@dataclass(frozen=True)
class ExchangeView:
    """An exchange decision (named-suit, card-return and hungarian protocols).

    ``role`` is ``"name-suit"`` (choose one of ``suits``), ``"give"`` (give a card to
    ``partner``) or ``"give-back"`` (return a card after receiving one). ``allowed`` is
    the mask of cards that may be given.
    """

    table: Table
    role: str
    hand: int
    partner: Seat
    allowed: int = 0
    suits: tuple[Suit, ...] = ()
    trump: int = 4                      # 0..3, or 4 when not (yet) named
    hands: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class PlayView:
    """One card to play. ``trick`` holds the cards already played to this trick."""

    table: Table
    hand: int
    legal: int                          # mask of the cards that may be played now
    trick: tuple[Card, ...]
    leader: Seat
    trump: int                          # 0..3, or 4 for no trump
    mode: str
    tricks: tuple[int, int, int]        # tricks won so far, by seat
    played: int                         # every card played so far, this trick included
    trick_number: int                   # 1-based
    hands: tuple[int, int, int] | None = None


@runtime_checkable
class Player(Protocol):
    """What the match engine asks of a player."""

    name: str

    def declare(self, view: DeclareView) -> Declaration: ...
    def name_suit(self, view: ExchangeView) -> Suit: ...
    def give_card(self, view: ExchangeView) -> Card: ...
    def play(self, view: PlayView) -> Card: ...


class BasePlayer:
    """Shared plumbing for the bundled players: a name, a private RNG, no omniscience."""

    sees_all: bool = False

    def __init__(self, name: str, rng: Any) -> None:
        self.name = name
        self.rng = rng

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in the canonical order (spades first, high to low within a suit)."""
    return list(Hand(mask))


def lowest_bit(mask: int) -> int:
    return mask & -mask
