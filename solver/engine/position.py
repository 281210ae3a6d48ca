"""The engine's input: one position, validated once.

A :class:`Position` is what every engine call searches: the hands as they were when
the current trick began, the strain, the leader of that trick, the cards already
played to it, and the two rule switches (misère, must-ruff). Building one checks
everything (types, the played cards' legality) and prepares the form the C core
takes, so a caller that asks several questions of one position (every seat's value,
the card values) pays for the checks once.

>>> from solver import Deal
>>> pos = Position(Deal.parse("D:AK... Q2... 3.A.."), "S", leader="D")
>>> pos.mover.name, pos.tricks
('D', 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..cards import Card, Hand
from ..deal import Deal, Seat, Strain
from ..errors import EngineError, IllegalPlayError, NotationError
from ..inputs import check_flag, short_repr
from ..tricks import legal_mask

__all__ = ["Position"]


def _bit_index(card: Card) -> int:
    return card.bit.bit_length() - 1


@dataclass(frozen=True)
class Position:
    """A position for the engine; strings are accepted for ``strain``, ``leader`` and
    the ``played`` cards (``"SA HK"``) and stored parsed.

    Raises NotationError for an unknown strain, seat or card (or a ``deal`` that is not
    a :class:`~solver.deal.Deal`), IllegalPlayError for a played card that is not
    legal, EngineError for a non-boolean switch.
    """

    deal: Deal
    strain: Strain
    leader: Seat = Seat.E
    played: tuple[Card, ...] = ()
    misere: bool = False
    must_ruff: bool = False
    _core: tuple = field(init=False, repr=False, compare=False)

    def __init__(
        self,
        deal: Deal,
        strain: Strain | str,
        leader: Seat | str = Seat.E,
        played: Sequence[Card | str] | str = (),
        misere: bool = False,
        must_ruff: bool = False,
    ) -> None:
        if not isinstance(deal, Deal):
            raise NotationError(f"expected a Deal, got {type(deal).__name__}")
        strain = Strain.parse(strain)
        leader = Seat.parse(leader)
        misere = check_flag(misere, "misere", EngineError)
        must_ruff = check_flag(must_ruff, "must_ruff", EngineError)
        if isinstance(played, str):
            played = played.replace(",", " ").split()
        if not isinstance(played, (list, tuple)):
            raise IllegalPlayError(
                f"played must be a list of cards or a string such as 'SA HK', got {short_repr(played)}"
            )
        cards = tuple(Card.parse(c) for c in played)
        _check_played(deal, strain, leader, must_ruff, cards)
        for name, value in (
            ("deal", deal),
            ("strain", strain),
            ("leader", leader),
            ("played", cards),
            ("misere", misere),
            ("must_ruff", must_ruff),
        ):
            object.__setattr__(self, name, value)
        masks = tuple(h.mask for h in deal.hands)
        object.__setattr__(self, "_core", (*masks, int(leader), tuple(_bit_index(c) for c in cards)))

    @property
    def mover(self) -> Seat:
        """The seat to play next."""
        return Seat((self.leader + len(self.played)) % 3)

    @property
    def tricks(self) -> int:
        """Tricks still to be played, the current one included."""
        return self.deal.hand_size

    def core_args(self, seat: Seat | str) -> tuple:
        """The C core's arguments for ``seat``'s value (see ``_core.pyi``)."""
        return (int(self.strain), int(Seat.parse(seat)), self.misere, self.must_ruff, *self._core)


def _check_played(deal: Deal, strain: Strain, leader: Seat, must_ruff: bool, cards: Sequence[Card]) -> None:
    """Raise IllegalPlayError naming the card, the seat and the reason for a bad trick."""
    if len(cards) > 2:
        raise IllegalPlayError(
            f"{len(cards)} cards played to the current trick; at most 2 may be given "
            f"(the third completes the trick: start the next trick from the new hands)"
        )
    seat = leader
    for i, card in enumerate(cards):
        hand: Hand = deal.hands[seat]
        if card not in hand:
            raise IllegalPlayError(f"card {card} played by {seat.name} is not in {seat.name}'s hand")
        if i > 0:
            led = cards[0].suit
            if not card.bit & legal_mask(hand.mask, int(led), int(strain), must_ruff):
                if hand.suit_mask(led):
                    raise IllegalPlayError(
                        f"card {card} played by {seat.name} revokes: {seat.name} holds "
                        f"{led.name} and must follow suit"
                    )
                raise IllegalPlayError(
                    f"card {card} played by {seat.name} breaks must-ruff: {seat.name} is void in "
                    f"{led.name} and holds a trump"
                )
        seat = seat.next


class _Query:
    """The C core's argument layout for one seat of a position (bench/compare.py builds
    these for old and new cores alike)."""

    def __init__(
        self,
        deal: Deal,
        strain: Strain | str,
        leader: Seat | str,
        seat: Seat | str,
        misere: bool,
        must_ruff: bool,
        played: Sequence[Card | str],
    ) -> None:
        self.position = Position(deal, strain, leader, played, misere, must_ruff)
        self.seat = Seat.parse(seat)

    def args(self) -> tuple:
        return self.position.core_args(self.seat)
