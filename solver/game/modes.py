"""Declaration modes: what the declarer may announce, and what each mode means for play.

A mode is one of the four trump suits, no trump (``N``), minimum tricks (``MT``) or
misère (``miz``). The last two are played without a trump and turn every target into a
maximum: everybody tries to take few tricks.
"""
from __future__ import annotations

#: Every declaration mode, in the order rules and reports list them.
MODES = ("S", "H", "D", "C", "N", "MT", "miz")
ALL_MODES = MODES
#: The modes that name a trump suit.
SUIT_MODES = frozenset("SHDC")
#: Modes in which everybody tries to take few tricks (targets become maxima, ends swap).
MINIMISING_MODES = frozenset({"MT", "miz"})
#: The trump suit (0..3) each mode plays with; 4 = no trump.
MODE_TRUMP = {"S": 0, "H": 1, "D": 2, "C": 3, "N": 4, "MT": 4, "miz": 4}

__all__ = ["ALL_MODES", "MINIMISING_MODES", "MODES", "MODE_TRUMP", "SUIT_MODES"]
