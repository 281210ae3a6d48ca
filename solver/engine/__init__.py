"""Double-dummy engine: exact paranoid values of Sergeant Major positions.

The search runs in the C core (``solver.engine._core``); this module validates the
input, converts it to masks and bit indices, and shapes the answers.

A value is the number of tricks ``seat`` can guarantee from the current trick to the
end when the other two seats cooperate against it; with ``misere=True`` it is the
fewest tricks ``seat`` can hold itself to while the other two try to give it tricks.

>>> from solver import Deal
>>> deal = Deal.parse("D:AK... Q2... 3.A..")
>>> solve(deal, "S", leader="D", seat="D")
2
"""

from __future__ import annotations

import inspect
import os
import queue
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from ..cards import Card, Hand, suit_html
from ..deal import STRAIN_CHARS, Deal, Seat, Strain, parse_strains
from ..errors import EngineError, IllegalPlayError, NotationError
from ..inputs import check_flag, check_progress, short_repr
from ..tricks import legal_mask
from . import _core

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["DDTable", "Solver", "card_values", "dd_table", "principal_variation", "solve"]

DEFAULT_TT_MB = 64
MODULE_TT_MB = 32  # per thread, for the module-level functions
MAX_TT_MB = 1 << 16

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _bit_index(card: Card) -> int:
    return card.bit.bit_length() - 1


class _Query:
    """A validated search request in the form the C core takes."""

    __slots__ = ("strain", "seat", "leader", "misere", "must_ruff", "masks", "played", "tricks", "mover")

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
        if not isinstance(deal, Deal):
            raise NotationError(f"expected a Deal, got {type(deal).__name__}")
        self.strain = Strain.parse(strain)
        self.leader = Seat.parse(leader)
        self.seat = Seat.parse(seat)
        self.misere = check_flag(misere, "misere", EngineError)
        self.must_ruff = check_flag(must_ruff, "must_ruff", EngineError)
        self.masks = tuple(h.mask for h in deal.hands)
        self.tricks = deal.hand_size
        if isinstance(played, str):
            played = played.replace(",", " ").split()
        if not isinstance(played, (list, tuple)):
            raise IllegalPlayError(
                f"played must be a list of cards or a string such as 'SA HK', got {short_repr(played)}"
            )
        cards = [Card.parse(c) for c in played]
        _check_played(deal, self.strain, self.leader, self.must_ruff, cards)
        self.played = tuple(_bit_index(c) for c in cards)
        self.mover = Seat((self.leader + len(cards)) % 3)

    def args(self) -> tuple:
        return (
            int(self.strain),
            int(self.seat),
            self.misere,
            self.must_ruff,
            *self.masks,
            int(self.leader),
            self.played,
        )


def _check_played(deal: Deal, strain: Strain, leader: Seat, must_ruff: bool, cards: list[Card]) -> None:
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

    def solve(
        self,
        deal: Deal,
        strain: Strain | str,
        *,
        leader: Seat | str = "E",
        seat: Seat | str = "D",
        misere: bool = False,
        must_ruff: bool = False,
        played: Sequence[Card | str] = (),
    ) -> int:
        """``seat``'s double-dummy value from the current trick on (see :func:`solve`)."""
        q = _Query(deal, strain, leader, seat, misere, must_ruff, played)
        with self._lock:
            return self._engine.solve(*q.args())

    def can_reach(
        self,
        deal: Deal,
        strain: Strain | str,
        *,
        leader: Seat | str = "E",
        seat: Seat | str = "D",
        target: int,
        misere: bool = False,
        must_ruff: bool = False,
        played: Sequence[Card | str] = (),
    ) -> bool:
        """Normal: can ``seat`` guarantee >= ``target`` tricks? Misère: can it hold itself
        to <= ``target``? One null-window search (cheaper than :meth:`solve`)."""
        q = _Query(deal, strain, leader, seat, misere, must_ruff, played)
        if isinstance(target, bool) or not isinstance(target, int):
            raise EngineError(f"target must be an integer number of tricks, got {short_repr(target)}")
        if not q.misere and (target <= 0 or target > q.tricks):
            return target <= 0
        if q.misere and (target < 0 or target >= q.tricks):
            return target >= 0
        with self._lock:
            return self._engine.can_reach(*q.args(), target)

    def card_values(
        self,
        deal: Deal,
        strain: Strain | str,
        *,
        leader: Seat | str = "E",
        seat: Seat | str = "D",
        played: Sequence[Card | str] = (),
        misere: bool = False,
        must_ruff: bool = False,
    ) -> dict[Card, int]:
        """``seat``'s value after each legal card of the player to move (see :func:`card_values`)."""
        q = _Query(deal, strain, leader, seat, misere, must_ruff, played)
        with self._lock:
            pairs = self._engine.card_values(*q.args())
        cards = sorted((Card.from_bit(1 << i) for i, _ in pairs), key=lambda c: (c.suit, -c.rank))
        values = {i: v for i, v in pairs}
        return {c: values[_bit_index(c)] for c in cards}

    def principal_variation(
        self,
        deal: Deal,
        strain: Strain | str,
        *,
        leader: Seat | str = "E",
        seat: Seat | str = "D",
        played: Sequence[Card | str] = (),
        misere: bool = False,
        must_ruff: bool = False,
    ) -> list[Card]:
        """One optimal line: the cards still to be played, in order (see :func:`principal_variation`)."""
        q = _Query(deal, strain, leader, seat, misere, must_ruff, played)
        with self._lock:
            bits = self._engine.pv(*q.args())
        return [Card.from_bit(1 << i) for i in bits]


_local = threading.local()


def _solver() -> Solver:
    """The calling thread's cached Solver for the module-level functions."""
    s = getattr(_local, "solver", None)
    if s is None:
        s = _local.solver = Solver(MODULE_TT_MB)
    return s


def _on_thread_solver(method: Callable[Concatenate[Solver, _P], _R], doc: str) -> Callable[_P, _R]:
    """``method`` as a module-level function that runs on the calling thread's cached Solver.

    The function takes the method's parameters (mypy sees them through ``_P``, ``help()``
    through ``__signature__``), so the two cannot drift apart; ``doc`` is its docstring.
    """

    def function(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        return method(_solver(), *args, **kwargs)

    signature = inspect.signature(method)
    without_self = list(signature.parameters.values())[1:]
    function.__signature__ = signature.replace(parameters=without_self)  # type: ignore[attr-defined]
    function.__name__ = function.__qualname__ = method.__name__
    function.__doc__ = doc
    return function


solve = _on_thread_solver(
    Solver.solve,
    """Tricks ``seat`` can guarantee from the current trick to the end against the
    other two seats (misère: the fewest it can hold itself to).

    ``played`` lists the cards already played to the current trick, starting with
    ``leader``; ``deal`` holds the hands as they were when that trick began. Widow
    cards are out of play. Raises IllegalPlayError for an illegal ``played`` card,
    NotationError for an unknown strain or seat.
    """,
)

card_values = _on_thread_solver(
    Solver.card_values,
    """For every legal card of the player to move: ``seat``'s value if it is played next.

    Keys are :class:`~solver.cards.Card` objects, by suit (S H D C) then rank down;
    equivalent cards each get their own entry (``{str(c): v for c, v in ...items()}``
    gives the JSON form). The mover's best choice among the values equals :func:`solve`.
    """,
)

principal_variation = _on_thread_solver(
    Solver.principal_variation,
    """One optimal line of play: the cards still to be played, in order, to the end of
    the hand. Playing it out gives ``seat`` exactly :func:`solve` tricks.""",
)


class _SeatRow(Mapping):
    """One strain's row of a DDTable: values by seat, indexed by ``Seat`` or ``"D"``."""

    def __init__(self, values: dict[Seat, int]) -> None:
        self._values = values

    def __getitem__(self, seat: Seat | str) -> int:
        try:
            return self._values[Seat.parse(seat)]
        except NotationError:
            raise KeyError(seat) from None

    def __iter__(self) -> Iterator[str]:
        return iter(s.name for s in self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return repr({s.name: v for s, v in self._values.items()})


class DDTable:
    """Every seat's double-dummy value in each strain for one leader.

    ``table["S"]["D"]`` and ``table[Strain.S][Seat.D]`` both work.
    """

    leader: Seat
    misere: bool
    must_ruff: bool
    strains: tuple[Strain, ...]

    def __init__(
        self,
        values: Mapping[Strain, Mapping[Seat, int]],
        *,
        leader: Seat,
        misere: bool = False,
        must_ruff: bool = False,
    ) -> None:
        self.leader = leader
        self.misere = misere
        self.must_ruff = must_ruff
        self.strains = tuple(values)
        self._rows = {st: _SeatRow({s: values[st][s] for s in Seat}) for st in values}

    def __getitem__(self, strain: Strain | str) -> Mapping[str, int]:
        try:
            return self._rows[Strain.parse(strain)]
        except NotationError:
            raise KeyError(strain) from None

    def to_dict(self) -> dict[str, dict[str, int]]:
        """``{"S": {"D": 9, "E": 4, "M": 3}, ...}``"""
        return {st.name: {s.name: self._rows[st][s] for s in Seat} for st in self.strains}

    def _title(self) -> str:
        flags = [f"leader {self.leader.name}"]
        if self.misere:
            flags.append("misère")
        if self.must_ruff:
            flags.append("must-ruff")
        return "Double-dummy tricks (" + ", ".join(flags) + ")"

    def __str__(self) -> str:
        lines = [self._title(), "      D   E   M"]
        for st in self.strains:
            row = self._rows[st]
            lines.append(f"{st.symbol:<3}" + "".join(f"{row[s]:>4}" for s in Seat))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"DDTable({self.to_dict()!r}, leader={self.leader.name!r})"

    def to_frame(self) -> pd.DataFrame:
        """The table as a pandas DataFrame: one row per strain (by symbol), a column per seat."""
        import pandas as pd

        frame = pd.DataFrame(
            [[self._rows[st][s] for s in Seat] for st in self.strains],
            index=pd.Index([st.symbol for st in self.strains], name="strain"),
            columns=[s.name for s in Seat],
        )
        frame.columns.name = "seat"
        return frame

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{s.name}</th>" for s in Seat)
        rows = "".join(
            f"<tr><th>{suit_html(st.symbol)}</th>"
            + "".join(f"<td>{self._rows[st][s]}</td>" for s in Seat)
            + "</tr>"
            for st in self.strains
        )
        return (
            f"<table><caption>{self._title()}</caption>"
            f"<thead><tr><th></th>{head}</tr></thead><tbody>{rows}</tbody></table>"
        )


def dd_table(
    deal: Deal,
    *,
    leader: Seat | str = "E",
    strains: str | Sequence[Strain | str] = STRAIN_CHARS,
    misere: bool = False,
    must_ruff: bool = False,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> DDTable:
    """Every seat's value (see :func:`solve`) in every strain, with ``leader`` on lead.

    The solves are independent, so they run on ``threads`` worker threads (default:
    one per core), each with its own table; the search releases the GIL.
    ``progress(done, total)`` is called after each solve, from the calling thread.
    """
    lead = Seat.parse(leader)
    chosen = parse_strains(strains)
    check_flag(misere, "misere", EngineError)
    check_flag(must_ruff, "must_ruff", EngineError)
    check_progress(progress, EngineError)
    jobs = [(st, s) for st in chosen for s in Seat]
    if threads is None:
        threads = os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise EngineError(f"threads must be a positive integer, got {short_repr(threads)}")
    threads = min(threads, len(jobs))
    values: dict[Strain, dict[Seat, int]] = {st: {} for st in chosen}

    def record(job: tuple[Strain, Seat], value: int) -> None:
        values[job[0]][job[1]] = value
        if progress is not None:
            progress(sum(len(v) for v in values.values()), len(jobs))

    if threads == 1:
        solver = _solver()
        for job in jobs:
            record(
                job, solver.solve(deal, job[0], leader=lead, seat=job[1], misere=misere, must_ruff=must_ruff)
            )
    else:
        _solve_in_threads(deal, lead, misere, must_ruff, jobs, threads, record)
    return DDTable(values, leader=lead, misere=bool(misere), must_ruff=bool(must_ruff))


def _solve_in_threads(
    deal: Deal,
    lead: Seat,
    misere: bool,
    must_ruff: bool,
    jobs: list[tuple[Strain, Seat]],
    threads: int,
    record: Callable[[tuple[Strain, Seat], int], None],
) -> None:
    """Run the jobs on worker threads; Ctrl-C in the caller cancels every worker."""
    todo: queue.SimpleQueue[tuple[Strain, Seat]] = queue.SimpleQueue()
    for job in jobs:
        todo.put(job)
    done: queue.SimpleQueue[tuple[tuple[Strain, Seat], int | BaseException]] = queue.SimpleQueue()
    solvers = _borrow_workers(threads)
    finished = False

    def work(solver: Solver) -> None:
        while True:
            try:
                job = todo.get_nowait()
            except queue.Empty:
                return
            try:
                value: int | BaseException = solver.solve(
                    deal, job[0], leader=lead, seat=job[1], misere=misere, must_ruff=must_ruff
                )
            except BaseException as exc:  # handed to the caller, which re-raises it
                value = exc
            done.put((job, value))
            if isinstance(value, BaseException):
                return

    workers = [threading.Thread(target=work, args=(s,), daemon=True) for s in solvers]
    for w in workers:
        w.start()
    try:
        for _ in jobs:
            while True:
                try:
                    job, value = done.get(timeout=0.1)  # a timeout, so Ctrl-C is seen promptly
                    break
                except queue.Empty:
                    continue
            if isinstance(value, BaseException):
                raise value
            record(job, value)
        finished = True
    finally:
        if not finished:  # stop the workers still searching; a cancelled Solver is not reused
            for s in solvers:
                s.cancel()
        while not todo.empty():
            try:
                todo.get_nowait()
            except queue.Empty:
                break
        for w in workers:
            w.join()
        if finished:
            _return_workers(solvers)


# Worker Solvers of dd_table, kept between calls: a fresh table's memory is zeroed by the
# kernel page by page as the search first touches it, a few milliseconds per call that
# a kept table does not pay (its entries stay valid: they describe positions, not deals).
_workers_lock = threading.Lock()
_idle_workers: list[Solver] = []


def _borrow_workers(count: int) -> list[Solver]:
    with _workers_lock:
        taken = [_idle_workers.pop() for _ in range(min(count, len(_idle_workers)))]
    return taken + [Solver(MODULE_TT_MB) for _ in range(count - len(taken))]


def _return_workers(solvers: list[Solver]) -> None:
    with _workers_lock:
        room = max(0, (os.cpu_count() or 1) - len(_idle_workers))
        _idle_workers.extend(solvers[:room])
