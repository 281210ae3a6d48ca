"""What a player sees and must answer: the views of each decision and the player protocol.

A player is any object with ``name``, ``declare``, ``name_suit``, ``give_card`` and
``play``. The match loop (:mod:`solver.game.match`) builds a *view* for every decision
holding only what that player legitimately knows — its own hand, the cards it
received or gave in the exchange, the trump, the cards played so far, the scores.
What a player *knows* over a whole hand (the cards it saw move, the voids shown) is
:class:`solver.game.knowledge.View`; these are the questions it is asked.
A player whose ``sees_all`` attribute is true (the double-dummy player) also gets
every hand in ``view.hands``; for everyone else that field is ``None``.

Hands inside views are plain 64-bit masks (the :class:`~solver.cards.Hand` layout)
because the play loop is the hot path of simulation; ``Hand(view.hand)`` gives the
object form when convenient.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ..cards import NO_TRUMP, Card, Suit
from ..deal import Seat
from ..modes import Mode


@dataclass(frozen=True)
class Announcement:
    """What the declarer announces in a match: a :class:`~solver.modes.Mode` (or its
    name) and the cards discarded.

    Not to be confused with :class:`solver.declare.Declaration`, the optimiser's result.

    ``discard`` is empty when the ruleset has no widow, and when only the mode is asked
    for (``DeclareView.stage == "mode"``).
    """

    mode: Mode | str
    discard: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Table:
    """Facts about the match every player knows."""

    ruleset: Any  # solver.rules.Ruleset
    hand_number: int  # 1-based
    dealer: int  # player index of this hand's dealer
    me: int  # player index of the player deciding
    seat: Seat  # that player's seat in this hand
    targets: tuple[int, int, int]  # by seat D, E, M
    declarer: Seat
    totals: tuple[int, int, int]  # cumulative nets by PLAYER index, before this hand
    exchange: tuple = ()  # transfers of this hand's exchange that involve me
    # (solver.exchange.Transfer: frm, to, card), in order
    moves: tuple = ()  # every transfer of the exchange in order, as (frm, to, card) with
    # the card None where I was not part of it (I saw a card move, not which)


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
    modes: tuple[Mode, ...]  # the modes allowed now
    n_discard: int
    mode: Mode | None = None
    hands: tuple[int, int, int] | None = None  # every hand by seat (sees_all players only)
    widow: int | None = None  # the widow (sees_all players only)


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
    trump: int = NO_TRUMP  # the trump suit 0..3, or NO_TRUMP when none or not (yet) named
    hands: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class PlayView:
    """One card to play. ``trick`` holds the cards already played to this trick."""

    table: Table
    hand: int
    legal: int  # mask of the cards that may be played now
    trick: tuple[Card, ...]
    leader: Seat
    trump: int  # the trump suit 0..3, or NO_TRUMP
    mode: Mode
    tricks: tuple[int, int, int]  # tricks won so far, by seat
    played: int  # every card played so far, this trick included
    trick_number: int  # 1-based
    hands: tuple[int, int, int] | None = None
    history: tuple[Card, ...] = ()  # every card played so far, in order (this trick included)


@runtime_checkable
class Player(Protocol):
    """What the match engine asks of a player."""

    name: str

    def declare(self, view: DeclareView) -> Announcement: ...
    def name_suit(self, view: ExchangeView) -> Suit: ...
    def give_card(self, view: ExchangeView) -> Card: ...
    def play(self, view: PlayView) -> Card: ...


__all__ = [
    "Announcement",
    "Table",
    "DeclareView",
    "ExchangeView",
    "PlayView",
    "Player",
]
