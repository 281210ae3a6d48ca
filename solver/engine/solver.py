"""The engine's searcher: :class:`Solver` holds one transposition table.

Every method takes a :class:`~solver.engine.position.Position` (``solver.solve(pos,
seat="E")``) or, as before, a deal with the position's fields as keywords
(``solver.solve(deal, "S", leader="E", seat="D")``); the second form builds the
Position itself. The search runs in the C core (``solver.engine._core``) with the GIL
released.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from ..cards import Card, Hand
from ..deal import Deal, Seat, Strain
from ..errors import EngineError
from ..inputs import short_repr
from ..tricks import legal_mask
from . import _core
from .position import Position

__all__ = ["DEFAULT_TT_MB", "MAX_TT_MB", "MISERE_TT_MB", "MODULE_TT_MB", "Solver", "as_position"]

DEFAULT_TT_MB = 64
#: Misère searches store some 50 times the positions of normal ones and fill a small
#: table: reviewing an MT hand took 30 s with 64 MiB a seat and 25 s with 256 MiB
#: (docs/review.md); the misère declaration of seed 0 took 584M nodes with 64 MiB and
#: 263M with 256 MiB (docs/engine.md). Work that searches many misère positions takes it.
MISERE_TT_MB = 256
MODULE_TT_MB = 32  # per thread, for the module-level functions
MAX_TT_MB = 1 << 16


class _Unset:
    """The default of a position field: "E" for the leader, no played cards, both
    switches off — or the Position's own, when a Position is given."""

    def __repr__(self) -> str:
        return "<default>"


UNSET: Any = _Unset()


def as_position(
    deal: Deal | Position,
    strain: Strain | str | None,
    leader: Any,
    misere: Any,
    must_ruff: Any,
    played: Any,
) -> Position:
    """``deal`` if it is a Position (then no other field may be given), else the
    Position of ``deal`` with these fields (see :class:`_Unset` for the defaults)."""
    if isinstance(deal, Position):
        given = [
            name
            for name, value in (
                ("strain", strain),
                ("leader", leader),
                ("misere", misere),
                ("must_ruff", must_ruff),
                ("played", played),
            )
            if value is not UNSET and not (name == "strain" and value is None)
        ]
        if given:
            raise EngineError(f"a Position carries its own {', '.join(given)}: pass either one or the other")
        return deal
    if strain is None:
        raise EngineError("a strain is needed with a deal (or pass a Position)")
    return Position(
        deal,
        strain,
        "E" if leader is UNSET else leader,
        () if played is UNSET else played,
        False if misere is UNSET else misere,
        False if must_ruff is UNSET else must_ruff,
    )


def _check_value(value: Any, pos: Position) -> None:
    """A position's value a caller says it knows must be a number of tricks still to play."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= pos.tricks:
        raise EngineError(f"value must be a number of tricks 0..{pos.tricks}, got {short_repr(value)}")


class Solver:
    """Holds one transposition table; reuse it for many related searches.

    Entries are keyed on the search context (strain, seat, misère, must-ruff) as well
    as on the position, so calls that share a context — e.g. thousands of
    :meth:`can_reach` calls on discard variations of one deal — reuse what earlier
    calls learned. One Solver must not be used by two threads at once (a lock makes
    concurrent calls wait); use one Solver per thread.
    """

    def __init__(self, tt_mb: int = DEFAULT_TT_MB) -> None:
        if isinstance(tt_mb, bool) or not isinstance(tt_mb, int):
            raise EngineError(f"tt_mb must be an integer number of MiB, got {short_repr(tt_mb)}")
        if not 1 <= tt_mb <= MAX_TT_MB:
            raise EngineError(
                f"tt_mb={short_repr(tt_mb)} is out of range: the table needs 1..{MAX_TT_MB} MiB"
            )
        try:
            self._engine = _core.Engine(tt_mb << 20)
        except MemoryError:
            raise EngineError(f"cannot allocate a {tt_mb} MiB transposition table") from None
        self._lock = threading.Lock()
        self.tt_mb = tt_mb
        self.cancelled = False

    @property
    def nodes(self) -> int:
        """Nodes searched by the last call."""
        return self._engine.nodes

    def stats(self) -> dict[str, int]:
        """Counters of the last call, to see where a search spends its nodes.

        ``nodes``; ``table_probes`` and ``table_hits`` (trick-boundary positions that
        asked the transposition table, and those it answered) and ``table_chunks`` (the
        table chunks those probes read, a cache miss each); ``cutoffs`` (nodes where
        a move reached the node's goal, ``first_move_cutoffs`` where it was the first
        tried); and one count per bound of the positions it answered (``settled_trumps``,
        ``right_hand_trumps``, ``seat_cash``, ``seat_winners``, ``sole_trumps``,
        ``all_tricks``, ``forcing_lead``, ``trump_game``, ``last_trick``, and in misère
        ``misere_trick_lost``, ``misere_escape``, ``misere_low_cards``, ``misere_two_escapes``). Each call resets them.
        """
        with self._lock:
            return dict(self._engine.stats())

    def clear(self) -> None:
        """Forget everything the table has learned."""
        with self._lock:
            self._engine.clear()

    def cancel(self) -> None:
        """Stop this Solver's running search from another thread, and refuse later ones.

        Ctrl-C reaches only the main thread; a search on a worker thread is stopped
        this way (it raises RuntimeError there). A cancelled Solver cannot be reused.
        """
        self._engine.cancel()
        self.cancelled = True

    def solve(
        self,
        deal: Deal | Position,
        strain: Strain | str | None = None,
        *,
        leader: Seat | str = UNSET,
        seat: Seat | str = "D",
        misere: bool = UNSET,
        must_ruff: bool = UNSET,
        played: Sequence[Card | str] = UNSET,
    ) -> int:
        """``seat``'s double-dummy value from the current trick on (see :func:`solve`)."""
        pos = as_position(deal, strain, leader, misere, must_ruff, played)
        with self._lock:
            return self._engine.solve(*pos.core_args(seat))

    def can_reach(
        self,
        deal: Deal | Position,
        strain: Strain | str | None = None,
        *,
        leader: Seat | str = UNSET,
        seat: Seat | str = "D",
        target: int,
        misere: bool = UNSET,
        must_ruff: bool = UNSET,
        played: Sequence[Card | str] = UNSET,
    ) -> bool:
        """Normal: can ``seat`` guarantee >= ``target`` tricks? Misère: can it hold itself
        to <= ``target``? One null-window search (cheaper than :meth:`solve`)."""
        answer = self._reach(as_position(deal, strain, leader, misere, must_ruff, played), seat, target, None)
        assert answer is not None  # without a budget the search always answers
        return answer

    def can_reach_within(
        self,
        deal: Deal | Position,
        strain: Strain | str | None = None,
        *,
        leader: Seat | str = UNSET,
        seat: Seat | str = "D",
        target: int,
        max_nodes: int,
        misere: bool = UNSET,
        must_ruff: bool = UNSET,
        played: Sequence[Card | str] = UNSET,
    ) -> bool | None:
        """:meth:`can_reach` within ``max_nodes`` nodes (checked every 65,536): None when the
        search passed them without an answer.

        Why: one misère question can take a thousand times another on a near relative
        (a discard of one card more), so a caller with many questions asks each within a
        budget and comes back to the ones left with a larger one. What the stopped search
        proved stays in the table, so asking again goes on from there.
        """
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
            raise EngineError(f"max_nodes must be a positive whole number, got {short_repr(max_nodes)}")
        return self._reach(
            as_position(deal, strain, leader, misere, must_ruff, played), seat, target, max_nodes
        )

    def _reach(self, pos: Position, seat: Seat | str, target: int, max_nodes: int | None) -> bool | None:
        args = pos.core_args(seat)
        if isinstance(target, bool) or not isinstance(target, int):
            raise EngineError(f"target must be an integer number of tricks, got {short_repr(target)}")
        if not pos.misere and (target <= 0 or target > pos.tricks):
            return target <= 0
        if pos.misere and (target < 0 or target >= pos.tricks):
            return target >= 0
        with self._lock:
            if max_nodes is None:
                return self._engine.can_reach(*args, target)
            return self._engine.can_reach_within(*args, target, max_nodes)

    def card_values(
        self,
        deal: Deal | Position,
        strain: Strain | str | None = None,
        *,
        leader: Seat | str = UNSET,
        seat: Seat | str = "D",
        played: Sequence[Card | str] = UNSET,
        misere: bool = UNSET,
        must_ruff: bool = UNSET,
        value: int | None = None,
    ) -> dict[Card, int]:
        """``seat``'s value after each legal card of the player to move (see :func:`card_values`).

        ``value``: the position's value, where the caller has already proven it (as
        :meth:`solve` gives it): each card's search then starts there, and a card that
        keeps it costs one question, which the table answers when the caller has just
        asked :meth:`cards_keeping`. A wrong value gives wrong answers."""
        pos = as_position(deal, strain, leader, misere, must_ruff, played)
        if value is not None:
            _check_value(value, pos)
        with self._lock:
            pairs = self._engine.card_values(*pos.core_args(seat), -1 if value is None else value)
        cards = sorted((Card.from_bit(1 << i) for i, _ in pairs), key=lambda c: (c.suit, -c.rank))
        values = {i: v for i, v in pairs}
        return {c: values[c.bit.bit_length() - 1] for c in cards}

    def best_card(
        self,
        deal: Deal | Position,
        strain: Strain | str | None = None,
        *,
        leader: Seat | str = UNSET,
        seat: Seat | str = "D",
        played: Sequence[Card | str] = UNSET,
        misere: bool = UNSET,
        must_ruff: bool = UNSET,
    ) -> tuple[Card, int]:
        """The best legal card of the player to move and ``seat``'s value (see :func:`best_card`)."""
        pos = as_position(deal, strain, leader, misere, must_ruff, played)
        led = int(pos.played[0].suit) if pos.played else -1
        legal = legal_mask(pos.deal.hands[pos.mover].mask, led, int(pos.strain), pos.must_ruff)
        order = sorted(Hand(legal), key=lambda c: (c.rank, c.suit))
        with self._lock:
            index, value = self._engine.best_card(
                *pos.core_args(seat), tuple(c.bit.bit_length() - 1 for c in order)
            )
        if index < 0:  # the exact value is kept by some legal card, so this is a core fault
            raise EngineError(f"no legal card keeps the value {value}: please report this position")
        return Card.from_bit(1 << index), value

    def cards_keeping(
        self,
        deal: Deal | Position,
        strain: Strain | str | None = None,
        *,
        leader: Seat | str = UNSET,
        seat: Seat | str = "D",
        value: int,
        played: Sequence[Card | str] = UNSET,
        misere: bool = UNSET,
        must_ruff: bool = UNSET,
    ) -> tuple[Card, ...]:
        """The legal cards of the player to move after which ``seat``'s value is still
        ``value``, the position's value, which the caller already knows (a review does):
        one null-window search an equivalent group of cards, where :meth:`card_values`
        finds every card's exact value. Cards by suit (S H D C), then rank down."""
        pos = as_position(deal, strain, leader, misere, must_ruff, played)
        _check_value(value, pos)
        with self._lock:
            mask = self._engine.keeping_cards(*pos.core_args(seat), value)
        return tuple(sorted(Hand(mask), key=lambda c: (c.suit, -c.rank)))

    def principal_variation(
        self,
        deal: Deal | Position,
        strain: Strain | str | None = None,
        *,
        leader: Seat | str = UNSET,
        seat: Seat | str = "D",
        played: Sequence[Card | str] = UNSET,
        misere: bool = UNSET,
        must_ruff: bool = UNSET,
    ) -> list[Card]:
        """One optimal line: the cards still to be played, in order (see :func:`principal_variation`)."""
        pos = as_position(deal, strain, leader, misere, must_ruff, played)
        with self._lock:
            bits = self._engine.pv(*pos.core_args(seat))
        return [Card.from_bit(1 << i) for i in bits]
