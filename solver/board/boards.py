"""One open board: its line of play, its warm engine table, its background jobs.

The page never holds the truth: every move goes to the server, which answers with the
whole position to draw (:meth:`Board.state`). That keeps the kibitz promise simple: in
kibitz mode the state is built from what the kibitzed seat has seen, and nothing else
is ever serialised (no hidden hand, no future card, no double-dummy number).

Marks: the mover's double-dummy value after each legal card, from one :class:`Solver`
kept for the board's life, so each step starts from what the last one stored. They are
computed off the request path (a job) and cancelled when the position changes before
they are ready.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..analysis.advice import advise_play
from ..analysis.review import _equivalence_groups, best_declaration, review
from ..cards import Card, Hand
from ..deal import SEATS, Seat
from ..engine import MISERE_TT_MB, Solver, dd_table
from ..engine import Position as EnginePosition
from ..engine.interval import narrowing_value
from ..errors import RecordError, SolverError
from ..game.handfile import HandRecord, Position
from ..game.knowledge import View
from ..modes import Mode
from .jobs import Job, JobRunner
from .line import Line, sorted_cards

__all__ = ["Board", "Boards", "KibitzRefused"]

SEAT_WORDS = {"D": "Dealer", "E": "Eldest", "M": "Middle"}
TT_MB = 32  # each open board's warm table
MISERE_BOARD_TT_MB = MISERE_TT_MB  # an MT or miz board's: misère searches fill a small table
PANELS = ("table", "declare", "review")


class KibitzRefused(SolverError):
    """The request would show a kibitzer cards its seat has not seen."""


def _cards(cards: Any) -> list[str]:
    return [str(c) for c in sorted_cards(list(cards))]


class Board:
    """See the module docstring. Methods that move return nothing; read :meth:`state`."""

    def __init__(
        self, line: Line, runner: JobRunner, *, kibitz: Seat | None = None, samples: int = 48
    ) -> None:
        self.id = secrets.token_hex(8)  # hex: an id can never read as a card (SA, HK)
        self.line = line
        self.runner = runner
        self.kibitz = kibitz
        self.samples = samples
        self.solver = self._new_solver()
        self.lock = threading.RLock()
        self.used = time.monotonic()
        self._marks: Job | None = None
        self._panels: dict[str, Job] = {}

    # --- moves ------------------------------------------------------------------------------
    def move(self, action: str, value: Any = None) -> None:
        """``play`` a card, ``goto`` a card count, ``undo``, return to the ``actual`` play."""
        with self.lock:
            line = self.line
            if action == "play":
                if not isinstance(value, str) or len(value) > 4:
                    raise RecordError("play needs a card such as 'SA'")
                line.play(Card.parse(value))
            elif action == "goto":
                if self.kibitz is not None and isinstance(value, int) and value > line.at:
                    self._kibitz_forward(value)
                line.goto(value)
            elif action == "undo":
                line.undo()
            elif action == "actual":
                line.to_actual()
            else:
                raise RecordError(f"unknown move {action!r}: play, goto, undo or actual")
            self._drop_stale_marks()

    def _kibitz_forward(self, at: int) -> None:
        """A kibitzer may step along the line (one card at a time: it sees each as it falls)."""
        if at != self.line.at + 1:
            raise KibitzRefused("in kibitz mode the play goes forward one card at a time")

    def set_kibitz(self, seat: Seat | None) -> None:
        with self.lock:
            self.kibitz = seat
            self._drop_stale_marks(force=True)

    # --- marks --------------------------------------------------------------------------------
    def _key(self) -> tuple[tuple[Card, ...], Seat | None]:
        return (tuple(self.line.cards[: self.line.at]), self.kibitz)

    def _drop_stale_marks(self, force: bool = False) -> None:
        job = self._marks
        if job is None or (job.key == self._key() and not force):
            return
        if not job.finished:
            job.cancel()
            if job.kind == "marks":  # the warm table was stopped: a cancelled Solver is not reused
                self.solver = self._new_solver()
        self._marks = None

    def _new_solver(self) -> Solver:
        """The board's warm table: in MT and miz as large as the engine's other misère work
        takes (``MISERE_TT_MB``), since misère searches fill a small one (docs/board.md,
        "Speed")."""
        return Solver(MISERE_BOARD_TT_MB if Mode.parse(self.line.setup.contract).minimising else TT_MB)

    def marks(self, wait: float = 0.0) -> dict[str, Any]:
        """The marks of the position shown: ready, or the job's progress (wait up to ``wait`` s)."""
        with self.lock:
            self.used = time.monotonic()
            pos = self.line.position()
            if pos is None:
                return {"status": "done", "at": self.line.at, "result": None}
            if self.kibitz is not None and pos.mover != self.kibitz:
                return {"status": "done", "at": self.line.at, "result": None}
            job = self._marks
            if job is None:
                if self.kibitz is None:
                    won = self.line.won()[pos.mover]
                    solver = self.solver
                    # normal marks take milliseconds on the warm table; misère ones can take
                    # minutes on a full deal, so they count as long work (bounded, queued)
                    job = self.runner.start(
                        "marks", self._key(), lambda j: dd_marks(j, solver, pos, won), long=pos.misere
                    )
                else:
                    view = View.from_hand_record(self.line.record(), pos.trick, len(pos.played) + 1)
                    samples = self.samples
                    job = self.runner.start("advice", self._key(), lambda j: sd_marks(j, view, samples, pos))
                self._marks = job
        job.wait(min(wait, 30.0))
        out = job.to_dict()
        out["at"] = len(job.key[0])
        return out

    # --- panels ------------------------------------------------------------------------------------
    def panel(self, name: str, wait: float = 0.0) -> dict[str, Any]:
        """The DD table, the optimiser's declaration or the review of the actual play."""
        if name not in PANELS:
            raise RecordError(f"unknown panel {name!r}: {', '.join(PANELS)}")
        with self.lock:
            if self.kibitz is not None:
                raise KibitzRefused(f"the {name} panel shows hidden hands; it is off while kibitzing")
            job = self._panels.get(name)
            if job is None or job.state in ("cancelled", "failed"):
                job = self._panels[name] = self.runner.start(name, None, _PANEL_WORK[name](self.line))
        job.wait(min(wait, 30.0))
        return job.to_dict()

    def close(self) -> None:
        with self.lock:
            for job in [self._marks, *self._panels.values()]:
                if job is not None and not job.finished:
                    job.cancel()

    # --- what the page draws ------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        with self.lock:
            self.used = time.monotonic()
            return board_state(self.line, self.kibitz, self.id)

    def hand_text(self) -> str:
        if self.kibitz is not None:
            raise KibitzRefused("the hand file holds every hand; download it outside kibitz mode")
        with self.lock:
            return self.line.hand_text()


# --- the computations -------------------------------------------------------------------------------
def dd_marks(job: Job, solver: Solver, pos: Position, won: int) -> dict[str, Any]:
    """The mover's double-dummy value after each legal card, grouped by equivalence."""
    job.solver(solver)
    at = pos.engine_position()
    known = misere_first_marks(job, solver, at, won) if pos.misere else None
    values = solver.card_values(at, seat=pos.mover, value=known)
    by_card = {str(c): int(v) for c, v in values.items()}
    best = (min if pos.misere else max)(by_card.values())
    groups = []
    for cards in _equivalence_groups(list(by_card), pos):
        v = by_card[cards[0]]
        groups.append({"cards": cards, "value": v, "total": won + v, "delta": v - best})
    return {
        "kind": "dd",
        "seat": pos.mover.name,
        "misere": pos.misere,
        "best": best,
        "best_total": won + best,
        "values": by_card,
        "groups": groups,
    }


def misere_first_marks(job: Job, solver: Solver, at: EnginePosition, won: int) -> int:
    """What a misère position's marks show before every card's value is known; returns
    the mover's value.

    Why: a misère value can take a minute on a full deal, and the page should not wait in
    silence. So the job's ``partial`` holds first the mover's value as it narrows (each
    step one null-window search, :func:`~solver.engine.interval.narrowing_value`), then
    the cards that keep it (one null-window search a group); every card's value comes
    after, each search starting from that value.
    """
    base = {"kind": "dd", "seat": at.mover.name, "misere": True, "partial": True}
    interval = None
    for interval in narrowing_value(solver, at, seat=at.mover):
        job.partial = {**base, "interval": [won + interval.lo, won + interval.hi]}
    assert interval is not None and interval.exact  # the steps end with the exact value
    keeping = solver.cards_keeping(at, seat=at.mover, value=interval.lo)
    job.partial = {
        **base,
        "interval": [won + interval.lo] * 2,
        "best": interval.lo,
        "best_total": won + interval.lo,
        "keeping": [str(c) for c in keeping],
    }
    return interval.lo


def sd_marks(job: Job, view: View, samples: int, pos: Position) -> dict[str, Any]:
    """The kibitzed seat's single-dummy advice: chance of its target and mean tricks per card."""
    advice = advise_play(view, samples=samples, seed=0, workers=1, progress=job.progress)
    data = advice.to_dict()
    cards = [c.to_dict() for c in advice.candidates]
    best = advice.recommended
    return {
        "kind": "sd",
        "seat": view.seat.name,
        "misere": pos.misere,
        "target": data.get("target"),
        "samples": samples,
        "recommended": best.card if best is not None else None,
        "cards": cards,
    }


def _table_work(line: Line) -> Callable[[Job], Any]:
    start, leader, must_ruff = line.setup.start, line.setup.leader, line.setup.must_ruff

    def work(job: Job) -> Any:
        table = dd_table(start, leader=leader, must_ruff=must_ruff, threads=1, progress=job.progress)
        return {"leader": leader.name, "must_ruff": must_ruff, "values": table.to_dict()}

    return work


def _declare_work(line: Line) -> Callable[[Job], Any]:
    setup = line.setup

    def work(job: Job) -> Any:
        job.progress(0, 1)
        found = best_declaration(setup)
        if found is None:
            return {"note": "not judged: an ending, or a widow hand whose discard is not known"}
        return {
            "declarer": setup.declarer.name,
            "contract": setup.contract,
            "discard": [str(c) for c in setup.discard] if setup.discard else [],
            **found,
        }

    return work


def _review_work(line: Line) -> Callable[[Job], Any]:
    record: HandRecord = line.record(0)
    actual = line.actual

    def work(job: Job) -> Any:
        if not actual:
            return {"note": "no play recorded: nothing to review"}
        rec = dataclasses.replace(
            record, tricks=tuple(tuple(actual[i : i + 3]) for i in range(0, len(actual), 3))
        )
        job.progress(0, 1)
        h = review(rec, declaration=False, threads=1).hands[0]
        return {
            "misere": h.misere,
            "cards": [c.to_dict() for c in h.cards],
            "seats": {s: v.to_dict() for s, v in h.seats.items()},
            "totals": [list(t) for t in h.totals],
        }

    return work


_PANEL_WORK = {"table": _table_work, "declare": _declare_work, "review": _review_work}


def _tricks_of(rec: HandRecord) -> list[dict[str, Any]]:
    out = []
    for t, trick in enumerate(rec.tricks, 1):
        cards = [{"seat": rec.seat_of(t, i).name, "card": str(c)} for i, c in enumerate(trick)]
        winner = rec.winners[t - 1].name if t <= len(rec.winners) else None
        out.append({"trick": t, "leader": rec.leaders[t - 1].name, "cards": cards, "winner": winner})
    return out


def board_state(line: Line, kibitz: Seat | None, board_id: str) -> dict[str, Any]:
    """Everything the page draws for the position shown (see ``docs/board.md``)."""
    setup = line.setup
    rs = setup.ruleset
    mode = Mode.parse(setup.contract)
    shown = line.record()
    pos = line.position()
    visible = SEATS if kibitz is None else (kibitz,)
    tricks = _tricks_of(shown)
    trick_cards, last = _trick_on_table(tricks)
    mover = pos.mover if pos is not None else None
    legal = [str(c) for c in line.legal()] if mover is not None and mover in visible else []
    state: dict[str, Any] = {
        "id": board_id,
        "kibitz": kibitz.name if kibitz is not None else None,
        "rules": {"name": rs.name, "text": rs.describe(), "must_ruff": bool(rs.must_ruff)},
        "contract": str(mode),
        "strain": mode.strain.name,
        "misere": mode.minimising,
        "declarer": setup.declarer.name,
        "leader": setup.leader.name,
        "seats": _seat_entries(shown, mode, visible),
        "at": line.at,
        "total": line.total,
        "trick_no": pos.trick if pos is not None else setup.hand_size,
        "mover": mover.name if mover is not None else None,
        "over": pos is None,
        "trick": trick_cards,
        "last_trick": last,
        "legal": legal,
        "play": tricks,
        "branch": line.branch,
    }
    state.update(_line_parts(line, kibitz, board_id))
    return state


def _trick_on_table(tricks: list[dict[str, Any]]) -> tuple[list[dict[str, str]], dict[str, Any] | None]:
    """(the cards of the trick in progress, the last complete trick when none is in progress)."""
    if tricks and len(tricks[-1]["cards"]) < 3:
        return tricks[-1]["cards"], None
    if tricks:
        return [], tricks[-1]
    return [], None


def _seat_entries(shown: HandRecord, mode: Mode, visible: tuple[Seat, ...]) -> dict[str, dict[str, Any]]:
    """Per seat: its name, cards left, tricks won and target; its hand where it is visible."""
    played_by: dict[Seat, list[Card]] = {s: [] for s in SEATS}
    for t, trick in enumerate(shown.tricks, 1):
        for i, c in enumerate(trick):
            played_by[shown.seat_of(t, i)].append(c)
    hands = {s: Hand(shown.start.hands[s].mask & ~Hand(played_by[s]).mask) for s in SEATS}
    won = shown.won
    names = dict(zip((s.name for s in SEATS), shown.players)) if shown.players else {}
    seats = {}
    for s in SEATS:
        entry: dict[str, Any] = {
            "seat": s.name,
            "word": SEAT_WORDS[s.name],
            "name": names.get(s.name, ""),
            "count": len(hands[s]),
            "won": won[s],
            "target": shown.ruleset.target_of(s, mode),
        }
        if s in visible:
            entry["hand"] = _cards(hands[s])
        seats[s.name] = entry
    return seats


def _line_parts(line: Line, kibitz: Seat | None, board_id: str) -> dict[str, Any]:
    """What depends on who looks: the whole line for the analyst, the play so far for a kibitzer."""
    setup = line.setup
    if kibitz is None:
        return {
            "play": _tricks_of(line.record(len(line.cards))),
            "length": len(line.cards),
            "actual_length": len(line.actual),
            "divergence": line.divergence,
            "discard": [str(c) for c in setup.discard] if setup.discard else [],
            "query": line.query(),
        }
    own_discard = kibitz == setup.declarer and setup.discard
    return {
        "length": line.at + (1 if line.at < len(line.cards) else 0),
        "discard": [str(c) for c in setup.discard] if own_discard and setup.discard else [],
        "query": f"b={board_id}&kibitz={kibitz.name}",
    }


class Boards:
    """The open boards of one server; the least recently used is closed beyond ``limit``."""

    def __init__(self, limit: int = 8, long_jobs: int | None = None) -> None:
        self.limit = limit
        self.runner = JobRunner(long_jobs or max(1, os.cpu_count() or 1))
        self._boards: OrderedDict[str, Board] = OrderedDict()
        self._lock = threading.Lock()

    def open(self, line: Line, *, kibitz: Seat | None = None, samples: int = 48) -> Board:
        board = Board(line, self.runner, kibitz=kibitz, samples=samples)
        with self._lock:
            self._boards[board.id] = board
            while len(self._boards) > self.limit:
                _, old = self._boards.popitem(last=False)
                old.close()
        return board

    def get(self, board_id: str) -> Board | None:
        with self._lock:
            board = self._boards.get(board_id)
            if board is not None:
                self._boards.move_to_end(board_id)
            return board

    def close(self, board_id: str) -> bool:
        with self._lock:
            board = self._boards.pop(board_id, None)
        if board is not None:
            board.close()
        return board is not None

    def close_all(self) -> None:
        with self._lock:
            boards = list(self._boards.values())
            self._boards.clear()
        for b in boards:
            b.close()
