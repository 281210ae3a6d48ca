"""Every seat's double-dummy value in each strain: :class:`DDTable` and :func:`dd_table`."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing
from typing import TYPE_CHECKING

from ..cards import suit_html
from ..deal import STRAIN_CHARS, Deal, Seat, Strain, parse_strains
from ..errors import EngineError, NotationError
from ..inputs import check_progress, short_repr
from .interval import Interval, narrowing_value
from .pool import iter_tasks, resolve_workers, thread_solver
from .position import Position
from .solver import MISERE_TT_MB

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["DDTable", "TableInterrupted", "dd_table"]


class _SeatRow(Mapping[str, int]):
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

    def __getitem__(self, strain: Strain | str) -> _SeatRow:
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


class TableInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`dd_table`: every cell's value as far as it was proven.

    Why: a misère table can run for minutes; what it proved before the Ctrl-C is worth
    showing. ``intervals[strain][seat]`` is exact for a finished cell, the interval
    proven so far for a misère cell under way, and the whole range ``0..hand_size`` for
    a cell not started (or a normal-play cell under way: one search, nothing proven
    before its end). ``exact`` of ``total`` cells are exact.
    """

    def __init__(self, intervals: dict[Strain, dict[Seat, Interval]]) -> None:
        cells = [interval for row in intervals.values() for interval in row.values()]
        self.intervals = intervals
        self.exact = sum(interval.exact for interval in cells)
        self.total = len(cells)
        super().__init__(f"interrupted with {self.exact} of {self.total} values exact")


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
    """Every seat's value (see :func:`~solver.engine.solve`) in every strain, with
    ``leader`` on lead.

    The solves are independent, so they run on ``threads`` workers of the engine's pool
    (default: one per core), each with its own table; the search releases the GIL.
    ``progress(done, total)`` is called after each solve, from the calling thread.

    A misère cell is found by :func:`~solver.engine.interval.narrowing_value` on a
    :data:`~solver.engine.MISERE_TT_MB` table, so that a Ctrl-C raises
    :class:`TableInterrupted` with the interval each cell had reached. The intervals are
    not reported as they narrow: the pool hands a cell to the calling thread only once it
    is finished.
    """
    lead = Seat.parse(leader)
    chosen = parse_strains(strains)
    check_progress(progress, EngineError)
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise EngineError(f"threads must be a positive integer, got {short_repr(threads)}")
    positions = {st: Position(deal, st, lead, (), misere, must_ruff) for st in chosen}
    jobs = [(st, s) for st in chosen for s in Seat]
    values: dict[Strain, dict[Seat, int]] = {st: {} for st in chosen}
    # each cell's interval proven so far: narrowed by the worker solving it (in misère),
    # exact once finished
    intervals = {st: {s: Interval(0, deal.hand_size) for s in Seat} for st in chosen}

    def one(job: tuple[Strain, Seat]) -> int:
        strain, seat = job
        if not misere:
            return thread_solver().solve(positions[strain], seat=seat)
        steps = narrowing_value(
            thread_solver(MISERE_TT_MB),
            deal,
            strain,
            leader=lead,
            seat=seat,
            misere=True,
            must_ruff=must_ruff,
        )
        for interval in steps:
            intervals[strain][seat] = interval
        return intervals[strain][seat].lo

    try:
        # closing: an error or Ctrl-C in ``progress`` stops the pool's workers at once too
        with closing(iter_tasks(one, jobs, workers=min(resolve_workers(threads), len(jobs)))) as stream:
            for index, value in stream:
                strain, seat = jobs[index]
                values[strain][seat] = value
                intervals[strain][seat] = Interval(value, value)
                if progress is not None:
                    progress(sum(len(v) for v in values.values()), len(jobs))
    except KeyboardInterrupt:
        # the pool stops its workers before the Ctrl-C gets here: the intervals are final
        raise TableInterrupted(intervals) from None
    return DDTable(values, leader=lead, misere=bool(misere), must_ruff=bool(must_ruff))
