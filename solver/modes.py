"""Declaration modes: what the declarer may announce, and what each mode means for play.

A mode is one of the four trump suits, no trump (``N``), minimum tricks (``MT``) or
misère (``miz``). The last two are played without a trump and turn every target into a
maximum: everybody tries to take few tricks.

A :class:`Mode` is a ``str``: it compares and hashes equal to its letters, so rulesets,
records and JSON keep plain strings, and ``"MT" in ruleset.modes`` still reads naturally.

>>> Mode.parse("miz").minimising, Mode.H.trump, Mode.N.strain
(True, <Suit.H: 1>, <Strain.N: 4>)
>>> Mode.MT == "MT", f"{Mode.S}", [str(m) for m in Mode]
(True, 'S', ['S', 'H', 'D', 'C', 'N', 'MT', 'miz'])
"""

from __future__ import annotations

from enum import Enum

from .cards import Suit
from .deal import Strain
from .errors import NotationError


class Mode(str, Enum):
    """The seven declaration modes, in the order rules and reports list them."""

    S = "S"
    H = "H"
    D = "D"
    C = "C"
    N = "N"
    MT = "MT"
    miz = "miz"

    # a str that prints, formats and hashes as its letters (records and JSON stay strings)
    __hash__ = str.__hash__

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    @property
    def trump(self) -> Suit | None:
        """The trump suit this mode plays with, or None (N, MT, miz)."""
        return Suit[self.value] if self.value in Suit.__members__ else None

    @property
    def strain(self) -> Strain:
        """The strain played: the trump suit, or N for N, MT and miz."""
        trump = self.trump
        return Strain(trump) if trump is not None else Strain.N

    @property
    def minimising(self) -> bool:
        """Whether everybody tries to take few tricks (MT, miz): targets become maxima."""
        return self in (Mode.MT, Mode.miz)

    @classmethod
    def parse(cls, value: Mode | str) -> Mode:
        """Read a mode name (``S H D C N MT miz``; ``NT`` and any case too); a Mode is returned as is."""
        if isinstance(value, Mode):
            return value
        if isinstance(value, str):
            text = value.strip()
            up = text.upper()
            if up == "NT":
                return cls.N
            if up == "MIZ":
                return cls.miz
            if text.isascii() and up in cls.__members__:
                return cls[up]
        raise NotationError(f"unknown mode {value!r}; modes are {' '.join(m.value for m in Mode)}")


#: Every declaration mode, in the order rules and reports list them.
MODES: tuple[Mode, ...] = tuple(Mode)
#: The four modes that name a trump suit (the default modes of a ruleset).
SUIT_MODES: frozenset[Mode] = frozenset(m for m in Mode if m.trump is not None)

__all__ = ["MODES", "Mode", "SUIT_MODES"]
