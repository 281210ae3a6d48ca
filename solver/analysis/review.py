"""Post-mortem review: every card of a played hand (or match) judged double-dummy.

For each card the playing seat's value before and after it: the tricks that seat has
already won in the hand plus the tricks it can guarantee from there on (the engine's
paranoid value; in a minimising contract such as MT, the fewest tricks it can hold itself
to). The card's ``cost`` is what it threw away against the seat's best card.

Why the accounting is exact: write ``T_X(k)`` for seat X's total (won + value) before
card ``k``; ``T_X(0)`` is the opening value and ``T_X(end)`` the tricks taken. The sum of
``T_X(k+1) - T_X(k)`` over all cards telescopes to ``taken - opening``. X's own cards
contribute ``-cost`` each (``+cost`` in a minimising contract), the other seats' cards
contribute what we call X's *gains*, so ``opening - lost + gained == taken``
(minimising: ``opening + lost - gained == taken``) holds by construction. A gain is never
negative: each value assumes the other two seats play against X, so another seat's card
can only keep X's value or raise it (lower it, when minimising).

See ``docs/review.md`` for the numbers, the JSON form and the decisions taken.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, Hand
from ..deal import SEAT_NAMES, SEATS, Deal, Seat
from ..declare import declare
from ..declare.optimiser import DeclarationInterrupted
from ..engine import MISERE_TT_MB, Solver
from ..engine.interval import Interval
from ..engine.pool import iter_tasks, thread_solver
from ..errors import InternalError, RecordError
from ..game import records
from ..game.handfile import HandRecord, Position, hand_from_record, load_hand
from ..inputs import MAX_RECORD_BYTES, check_progress, read_text_file
from ..modes import Mode
from .review_search import Chain, Keeping, chains_of, keeping_of, plays_of
from .review_search import run as run_search

__all__ = [
    "CardReview",
    "DeclarationReview",
    "HandReview",
    "MatchSummary",
    "Review",
    "ReviewInterrupted",
    "SeatSummary",
    "review",
]

TT_MB = 32
Progress = Callable[[int, int], None]
Narrowing = Callable[[int, Interval], None]
"""``narrowing(hand, interval)``: the hand's declaration's optimum, as far as proven."""


# --- results ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class CardReview:
    """One card: who played it, the seat's total before and after, its cost and the best
    cards (empty only in a review a Ctrl-C stopped before they were found)."""

    trick: int
    seat: Seat
    card: Card
    before: int
    after: int
    cost: int
    best: tuple[Card, ...]

    @property
    def mistake(self) -> bool:
        return self.cost > 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "trick": self.trick,
            "seat": self.seat.name,
            "card": str(self.card),
            "before": self.before,
            "after": self.after,
            "cost": self.cost,
            "best": [str(c) for c in self.best],
        }


@dataclass(frozen=True)
class SeatSummary:
    """One seat over a hand: opening value, tricks taken, and how the difference arose;
    its target in the contract (a maximum in MT/miz) and its net, the hand's score.

    ``target`` and ``net`` are None for an ending (a hand smaller than a full one), whose
    earlier tricks are unknown. ``made``: the target reached (net 0 or better).
    """

    opening: int
    taken: int
    mistakes: int
    lost: int
    gained: int
    target: int | None = None
    net: int | None = None

    @property
    def made(self) -> bool | None:
        return None if self.net is None else self.net >= 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "opening": self.opening,
            "taken": self.taken,
            "mistakes": self.mistakes,
            "lost": self.lost,
            "gained": self.gained,
            "target": self.target,
            "net": self.net,
        }


@dataclass(frozen=True)
class DeclarationReview:
    """The declarer's contract and discard against the optimiser's best choices.

    ``tricks`` is what the chosen declaration was worth (the declarer's opening value),
    ``best_tricks`` the optimum, ``cost`` the tricks the choice gave away (0 when optimal);
    ``best`` the optimal choices (strain and a representative discard per class): every
    one, or with ``complete`` False (a fewest-tricks contract) those proven optimal.
    """

    declarer: Seat
    contract: Mode
    discard: tuple[Card, ...]
    tricks: int
    best_tricks: int
    cost: int
    best: tuple[dict[str, Any], ...]
    by_strain: dict[str, int]
    note: str = ""
    complete: bool = True
    #: set when a Ctrl-C stopped the judgement: the optimum's tricks as far as proven;
    #: ``best_tricks`` is then the end some choice is proven to reach, ``cost`` the least
    proven: tuple[int, int] | None = None

    @property
    def costs(self) -> tuple[int, int]:
        """The cost's range: exact (lo == hi) unless the judgement was stopped."""
        if self.proven is None:
            return self.cost, self.cost
        lo, hi = self.proven
        return (
            (self.tricks - hi, self.tricks - lo)
            if self.contract.minimising
            else (lo - self.tricks, hi - self.tricks)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "tricks": self.tricks,
            "best_tricks": self.best_tricks,
            "cost": self.cost,
            "best": [dict(b) for b in self.best],
            "complete": self.complete,
            "proven": list(self.proven) if self.proven is not None else None,
            "by_strain": dict(self.by_strain),
            "discard": [str(c) for c in self.discard],
            "note": self.note,
        }


@dataclass(frozen=True)
class HandReview:
    """One reviewed hand."""

    hand: int
    rules: str
    declarer: Seat
    contract: Mode
    misere: bool
    record: HandRecord = field(repr=False)
    cards: tuple[CardReview, ...]
    seats: dict[str, SeatSummary]
    declaration: DeclarationReview | None
    players: tuple[str, str, str] | None = None
    #: every seat's total (won + value) before each card and after the last: [k][seat]
    totals: tuple[tuple[int, int, int], ...] = field(default=(), repr=False)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "rules": self.rules,
            "declarer": self.declarer.name,
            "contract": self.contract.value,
            "misere": self.misere,
            "declaration": self.declaration.to_dict() if self.declaration is not None else None,
            "cards": [c.to_dict() for c in self.cards],
            "seats": {s: v.to_dict() for s, v in self.seats.items()},
        }
        if self.players is not None:
            out["players"] = dict(zip(SEAT_NAMES, self.players))
        return out


@dataclass(frozen=True)
class MatchSummary:
    """What a match record says of the whole match, for the top of its review: the rules,
    the players, how many hands, who won and why, and the final score per player."""

    rules: str
    players: tuple[str, ...]
    hands: int
    winner: str | None
    detail: str
    totals: tuple[int, ...] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "players": list(self.players),
            "hands": self.hands,
            "winner": self.winner,
            "detail": self.detail,
            "totals": list(self.totals) if self.totals is not None else None,
        }


@dataclass(frozen=True)
class Review:
    """The review of one hand or of every hand of a match (:func:`review`)."""

    hands: tuple[HandReview, ...]
    #: per player name, for a match record: totals over the hands (players, not seats)
    players: dict[str, dict[str, int]] = field(default_factory=dict)
    #: the match as a whole, when a match record is reviewed whole
    match: MatchSummary | None = None
    #: a Ctrl-C stopped the work: only the hands valued by then are here, some best cards
    #: may be missing and a declaration known only as far as proven (``DeclarationReview.proven``)
    partial: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of ``docs/review.md``."""
        return {
            "partial": self.partial,
            "match": self.match.to_dict() if self.match is not None else None,
            "hands": [h.to_dict() for h in self.hands],
            "players": {k: dict(v) for k, v in self.players.items()},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def to_frame(self) -> Any:
        """A pandas DataFrame, one row per card played."""
        import pandas as pd

        rows = []
        for h in self.hands:
            for c in h.cards:
                row = {"hand": h.hand, "contract": h.contract.value, **c.to_dict()}
                row["best"] = " ".join(row["best"])
                row["player"] = h.players[c.seat] if h.players else None
                row["mistake"] = c.mistake
                rows.append(row)
        columns = [
            "hand",
            "contract",
            "trick",
            "seat",
            "player",
            "card",
            "before",
            "after",
            "cost",
            "mistake",
            "best",
        ]
        return pd.DataFrame(rows, columns=columns)

    def __str__(self) -> str:
        from .review_text import review_lines

        return "\n".join(review_lines(self))

    def _repr_html_(self) -> str:
        from .review_html import review_fragment

        return review_fragment(self, plots=False)


# --- reading the source ------------------------------------------------------------------------
def _hands_of(source: Any, hand: int | None) -> tuple[list[HandRecord], Mapping[str, Any] | None]:
    """The hand records to review, and the match record when the source is one."""
    if isinstance(source, HandRecord):
        if hand not in (None, 1, source.number):
            raise RecordError(f"hand {hand}: a hand file holds a single hand")
        return [source], None
    record: Mapping[str, Any]
    if isinstance(source, Mapping):
        record = source
        records.validate(record)
    elif isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        if isinstance(source, str) and text.lstrip().startswith("{"):
            record = records.loads(text)
        elif isinstance(source, str) and ("\n" in text or text.lstrip().startswith("[")):
            return _hands_of(load_hand(text), hand)
        else:
            content = read_text_file(
                source, what="review source", max_bytes=MAX_RECORD_BYTES, error=RecordError
            )
            if not content.lstrip().startswith("{"):
                return _hands_of(load_hand(source), hand)  # a hand file, with its own size limit
            try:
                record = records.loads(content)
            except RecordError as exc:
                raise RecordError(f"{text}: {exc}") from None
    else:
        raise RecordError(
            f"cannot review a {type(source).__name__}: give a hand file, its text, a match record or a path"
        )
    n = len(record["hands"])
    if hand is not None and not 1 <= hand <= n:
        raise RecordError(f"hand {hand}: the record has hands 1..{n}")
    wanted = [hand] if hand is not None else range(1, n + 1)
    return [hand_from_record(record, k) for k in wanted], record


# --- the computation ------------------------------------------------------------------------------
@dataclass
class _Declaration:
    """The optimiser's judgement of one hand's declaration (a job for a worker)."""

    hand: int
    record: HandRecord
    result: dict[str, Any] | None = None
    stopped: DeclarationInterrupted | None = None  # how far it got when a Ctrl-C stopped it
    opening: int | None = None  # the declared choice's value, once the values are known
    narrowing: Narrowing | None = None


class ReviewInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`review`: ``review`` holds every hand whose values were known
    by then (``judged`` of ``total``), its best cards where found (``()`` elsewhere) and
    its declaration as far as proven."""

    def __init__(self, partial: Review, total: int) -> None:
        super().__init__(f"interrupted after {len(partial.hands)} of {total} hands")
        self.review, self.judged, self.total = partial, len(partial.hands), total


def _run_job(solver: Solver, job: _Declaration | Chain | Keeping) -> None:
    if isinstance(job, _Declaration):
        try:
            job.result = best_declaration(job.record, _capped(job))
        except DeclarationInterrupted as stop:
            job.stopped = stop  # read once the pool has stopped (it waits for its threads)
            raise
        return
    run_search(solver, job)


def _run_all(
    jobs: Sequence[_Declaration | Chain | Keeping], threads: int | None, on_done: Callable[[Any], None]
) -> None:
    """Run the jobs on the engine's pool, each worker thread with its own Solver; Ctrl-C
    stops them all (:mod:`solver.engine.pool`)."""

    def run(job: _Declaration | Chain | Keeping) -> _Declaration | Chain | Keeping:
        misere = not isinstance(job, _Declaration) and job.misere
        _run_job(thread_solver(MISERE_TT_MB if misere else TT_MB), job)
        return job

    with closing(iter_tasks(run, list(jobs), workers=threads)) as stream:  # stops the workers on any exit
        for _, job in stream:
            on_done(job)


def _equivalence_groups(cards: Sequence[str], pos: Position) -> list[list[str]]:
    """Group cards of one hand that are adjacent in rank once every card no longer in a hand
    (played in earlier tricks, discarded, never dealt) is removed; a card in the current trick
    still separates two cards (one may beat it, the other not)."""
    live = 0
    for h in pos.deal.hands:
        live |= h.mask
    for c in pos.played:
        live |= c.bit
    parsed = sorted((Card.parse(c) for c in cards), key=lambda c: (c.suit, -c.rank))
    groups: list[list[str]] = []
    prev: Card | None = None
    for c in parsed:
        if prev is not None and prev.suit == c.suit:
            between = sum(1 << b for b in range(c.bit.bit_length(), prev.bit.bit_length() - 1))
            if not live & between:
                groups[-1].append(str(c))
                prev = c
                continue
        groups.append([str(c)])
        prev = c
    return groups


def _assemble(
    index: int,
    rec: HandRecord,
    plays: Sequence[tuple[Position, Card]],
    chains: Sequence[Chain],
    keeping: Sequence[Keeping | None],
    declaration: DeclarationReview | None,
) -> HandReview:
    """Turn the engine's answers into costs and summaries (a card's best cards are
    unknown, ``()``, where a Ctrl-C came before their search: ``keeping`` None)."""
    d, e, m = (chain.totals for chain in chains)
    totals = tuple((d[k], e[k], m[k]) for k in range(len(plays) + 1))
    cards, mistakes, lost, gained = _card_reviews(rec.misere, plays, keeping, totals)
    seats = {}
    n = len(plays)
    full = rec.start.hand_size == rec.ruleset.hand_size
    for s in SEATS:
        opening, taken = totals[0][s], totals[n][s]
        target = rec.ruleset.target_of(s, rec.contract) if full else None
        net = None if target is None else (target - taken if rec.misere else taken - target)
        seats[s.name] = SeatSummary(opening, taken, mistakes[s], lost[s], gained[s], target, net)
        expected = opening - lost[s] + gained[s] if not rec.misere else opening + lost[s] - gained[s]
        if expected != taken:  # cannot happen: the sums telescope; a guard against a broken engine
            raise InternalError(
                f"hand {rec.number or index + 1}: accounting of seat {s.name} does not add up"
            )
    return HandReview(
        hand=rec.number or index + 1,
        rules=rec.ruleset.name,
        declarer=rec.declarer,
        contract=rec.contract,
        misere=rec.misere,
        record=rec,
        cards=tuple(cards),
        seats=seats,
        declaration=declaration,
        players=rec.players,
        totals=totals,
    )


def _card_reviews(
    misere: bool,
    plays: Sequence[tuple[Position, Card]],
    keeping: Sequence[Keeping | None],
    totals: Sequence[Sequence[int]],
) -> tuple[list[CardReview], list[int], list[int], list[int]]:
    """Each card's cost and best cards; per seat the mistakes, tricks lost and tricks gained
    from the others' mistakes."""
    cards = []
    lost = [0, 0, 0]
    gained = [0, 0, 0]
    mistakes = [0, 0, 0]
    sign = -1 if misere else 1
    for k, (pos, card) in enumerate(plays):
        m = pos.mover
        before, after = totals[k][m], totals[k + 1][m]
        cost = (before - after) * sign
        found = keeping[k]
        best: tuple[Card, ...] = ()
        if found is not None:
            if (cost == 0) != (card in found.cards):  # two searches disagree: a broken engine
                raise InternalError(f"trick {pos.trick}: the engine's answers on {card} disagree")
            optimal = [str(c) for c in found.cards]
            best = tuple(Card.parse(g[0]) for g in _equivalence_groups(optimal, pos))
        cards.append(CardReview(pos.trick, m, card, before, after, cost, best))
        if cost:
            mistakes[m] += 1
            lost[m] += cost
        for s in SEATS:
            if s != m:
                gained[s] += (totals[k + 1][s] - totals[k][s]) * sign
    return cards, mistakes, lost, gained


def best_declaration_possible(rec: HandRecord) -> bool:
    """Whether the hand's declaration can be judged: a full hand, its discard known."""
    rs = rec.ruleset
    return rec.start.hand_size == rs.hand_size and not (rs.widow_size and rec.discard is None)


def _capped(job: _Declaration) -> Callable[[Interval], None] | None:
    """The job's ``narrowing`` with each interval bounded by the declared choice's value
    (the optimiser reports intervals in misère only)."""
    say, opening, hand = job.narrowing, job.opening, job.record.number or job.hand + 1
    if say is None or opening is None or not job.record.misere:
        return None
    return lambda iv: say(hand, _at_most(iv, opening))


def _at_most(interval: Interval, opening: int) -> Interval:
    """A misère optimum's interval of tricks, bounded by the declared choice's value: that
    choice holds the declarer to ``opening``, so the optimum is no more."""
    return Interval(min(interval.lo, opening), min(interval.hi, opening))


def best_declaration(
    rec: HandRecord, narrowing: Callable[[Interval], None] | None = None
) -> dict[str, Any] | None:
    """The optimiser's answer for the hand's declaration, or None when it cannot be judged
    (an ending, or a widow hand whose discard is unknown); ``narrowing(interval)`` as a
    misère optimum narrows."""
    rs = rec.ruleset
    if not best_declaration_possible(rec):
        return None
    misere = Mode.parse(rec.contract).minimising
    same_goal = [m for m in rs.mode_order if Mode.parse(m).minimising == misere]
    strains = "".join(s.name for s in sorted({Mode.parse(m).strain for m in same_goal}))
    if rs.widow_size == 0:
        return _best_without_widow(rec, strains, misere)
    return _best_with_widow(rec, strains, misere, narrowing)


def _best_without_widow(rec: HandRecord, strains: str, misere: bool) -> dict[str, Any]:
    """No widow, no discard: the best strain is one solve per strain."""
    from ..engine import solve

    rs, seat = rec.ruleset, rec.declarer
    by_strain = {
        st: solve(rec.start, st, leader=rec.leader, seat=seat, misere=misere, must_ruff=rs.must_ruff)
        for st in strains
    }
    best = (min if misere else max)(by_strain.values())
    choices = [{"strain": st, "discard": [], "count": 1} for st, v in by_strain.items() if v == best]
    return {"tricks": best, "best": choices, "by_strain": by_strain, "note": "", "complete": True}


def _best_with_widow(
    rec: HandRecord, strains: str, misere: bool, narrowing: Callable[[Interval], None] | None
) -> dict[str, Any]:
    """The optimiser on the deal before the discard (blind: before the widow was taken).

    In misère it stops once the optimum is proven: the verdict needs the optimum, and
    settling every choice that ties it can take many times as long (docs/review.md)."""
    rs, seat = rec.ruleset, rec.declarer
    assert rec.discard is not None
    held = rec.start[seat] | Hand(rec.discard)
    blind = rs.blind_discard and rec.dealt is not None
    if blind:
        assert rec.dealt is not None
        widow = rec.dealt.widow
        own = held - widow
    else:
        widow = Hand(rec.discard)
        own = rec.start[seat]
    hands = list(rec.start.hands)
    hands[seat] = own
    d = declare(
        Deal(hands, widow),
        declarer=seat,
        leader=rec.leader,
        strains=strains,
        blind=blind,
        misere=misere,
        must_ruff=rs.must_ruff,
        ties=False,
        narrowing=None if narrowing is None else lambda interval, _best: narrowing(interval),
    )
    note = "" if blind or not rs.blind_discard else "judged as if the widow had been seen (it is not known)"
    return {
        "tricks": d.tricks,
        "best": [c.to_dict() for c in d.optimal],
        "by_strain": {t.name: v for t, v in d.by_strain.items()},
        "note": note,
        "complete": d.complete,
    }


def _stopped_verdict(rec: HandRecord, stop: DeclarationInterrupted | None, opening: int) -> DeclarationReview:
    """A judgement a Ctrl-C stopped (or never started): the optimum as far as proven. The
    declared choice itself reaches ``opening``, so the optimum is at least that good."""
    k = rec.start.hand_size
    if rec.misere:
        found = stop.interval if stop is not None and stop.interval else Interval(0, k)
        bounded = _at_most(found, opening)
        proven = (bounded.lo, bounded.hi)
        reached = bounded.hi
    else:
        lo = opening if stop is None or stop.tricks is None else max(opening, stop.tricks)
        proven = (lo, k)
        reached = lo
    discard = tuple(rec.discard or ())
    best: tuple[dict[str, Any], ...] = ()
    if stop is not None and stop.best is not None and stop.tricks == reached:
        best = (stop.best.to_dict(),)
    elif reached == opening:  # the declared choice is the best proven
        best = ({"strain": rec.contract.strain.name, "discard": [str(c) for c in discard], "count": 1},)
    return DeclarationReview(
        rec.declarer,
        rec.contract,
        discard,
        opening,
        reached,
        abs(opening - reached),
        best,
        {},
        complete=False,
        proven=proven,
    )


def _verdict(rec: HandRecord, found: dict[str, Any] | None, opening: int) -> DeclarationReview | None:
    """The declaration's cost: ``opening`` is what the declaration made was worth."""
    if found is None:
        return None
    best = found["tricks"]
    cost = (opening - best) if rec.misere else (best - opening)
    discard = tuple(rec.discard) if rec.discard else ()
    return DeclarationReview(
        rec.declarer,
        rec.contract,
        discard,
        opening,
        best,
        cost,
        tuple(found["best"]),
        dict(found["by_strain"]),
        found["note"],
        found["complete"],
    )


def review(
    source: Any,
    *,
    hand: int | None = None,
    declaration: bool = True,
    threads: int | None = None,
    progress: Progress | None = None,
    narrowing: Narrowing | None = None,
) -> Review:
    """Judge every card of a played hand, or of every hand of a match, double-dummy.

    ``source``: a hand file (path or text), a :class:`~solver.game.handfile.HandRecord`, a
    loaded match record, or a match record's path. ``hand`` picks one hand of a match.
    ``declaration=False`` skips judging the declaration (the optimiser is the slowest part
    of a short hand). The searches run on ``threads`` worker threads (default and most:
    one per core, see :func:`~solver.engine.pool.resolve_workers`), each with its own
    engine table; ``progress(done, total)`` counts the jobs done: each seat's values
    along the hand (:mod:`.review_search`), each position's best cards and each
    declaration, so a one-hand review shows its progress too. ``narrowing(hand,
    interval)`` is called, from a worker thread, each time an MT or miz declaration's
    optimum is proven to lie in a narrower ``interval`` of tricks.
    """
    _check_request(hand, threads, progress)
    recs, record = _hands_of(source, hand)
    plays = [plays_of(rec) for rec in recs]
    for i, p in enumerate(plays):
        if not p:
            raise RecordError(f"hand {recs[i].number or i + 1}: no card played; nothing to review")
    chains = [chains_of(i, rec, plays[i]) for i, rec in enumerate(recs)]
    judged = [_Declaration(i, rec, narrowing=narrowing) for i, rec in enumerate(recs)] if declaration else []
    total = sum(len(c) + len(p) for c, p in zip(chains, plays)) + len(judged)
    finished: set[int] = set()  # id() of every job done

    def on_done(job: Any) -> None:
        finished.add(id(job))
        if progress is not None:
            progress(len(finished), total)

    keeping: list[list[Keeping]] = [[] for _ in recs]
    try:
        _run_all([c for cs in chains for c in cs], threads, on_done)  # the values each card is judged at
        keeping = [keeping_of(i, plays[i], chains[i]) for i in range(len(recs))]
        for job in judged:
            job.opening = _opening(job.record, chains[job.hand], plays[job.hand])
        # the optimiser runs are the longest jobs: start them first so the threads end together
        _run_all(judged + [k for ks in keeping for k in ks], threads, on_done)
    except KeyboardInterrupt:
        # a hand whose values are known is judged; its best cards are known where found
        done = [i for i in range(len(recs)) if all(id(job) in finished for job in chains[i])]
        if not keeping[0] and done:
            keeping = [keeping_of(i, plays[i], chains[i]) if i in done else [] for i in range(len(recs))]
        partial = _collect(recs, done, plays, chains, keeping, judged, finished, record, hand)
        raise ReviewInterrupted(partial, len(recs)) from None
    return _collect(recs, range(len(recs)), plays, chains, keeping, judged, finished, record, hand)


def _opening(rec: HandRecord, chains: Sequence[Chain], plays: Sequence[tuple[Position, Card]]) -> int:
    """What the declaration made was worth: the declarer's value at the first card."""
    seat = rec.declarer
    return chains[seat].totals[0] - plays[0][0].won[seat]


def _collect(
    recs: Sequence[HandRecord],
    done: Sequence[int],
    plays: Sequence[Sequence[tuple[Position, Card]]],
    chains: Sequence[Sequence[Chain]],
    keeping: Sequence[Sequence[Keeping]],
    judged: Sequence[_Declaration],
    finished: set[int],
    record: Mapping[str, Any] | None,
    hand: int | None,
) -> Review:
    """The review of the hands ``done`` (every hand, unless a Ctrl-C stopped the work):
    each hand's cards and its declaration (as far as proven, where it was stopped)."""
    hands = []
    for i in done:
        rec = recs[i]
        verdict = None
        if judged:
            opening = _opening(rec, chains[i], plays[i])
            job = judged[i]
            if id(job) in finished:
                verdict = _verdict(rec, job.result, opening)
            elif best_declaration_possible(rec):
                verdict = _stopped_verdict(rec, job.stopped, opening)
        found = [k if id(k) in finished else None for k in keeping[i]]
        hands.append(_assemble(i, rec, plays[i], chains[i], found, verdict))
    players = _player_totals(hands, record) if record is not None else {}
    summary = _match_summary(record, recs) if record is not None and hand is None else None
    partial = len(done) < len(recs) or any(
        h.declaration is not None and h.declaration.proven is not None or not all(c.best for c in h.cards)
        for h in hands
    )
    return Review(tuple(hands), players, summary, partial=partial)


def _check_request(hand: int | None, threads: int | None, progress: Progress | None) -> None:
    """Check :func:`review`'s options."""
    check_progress(progress, RecordError)
    if hand is not None and (isinstance(hand, bool) or not isinstance(hand, int)):
        raise RecordError(f"hand must be a hand number 1, 2, ..., got {hand!r}")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise RecordError(f"threads must be a positive integer, got {threads!r}")


def _player_names(record: Mapping[str, Any]) -> list[str]:
    names = list(record["players"])
    if len(set(names)) == 3:
        return names
    return [f"{n} ({i})" for i, n in enumerate(names)]


def _player_totals(hands: Sequence[HandReview], record: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Per player (seats rotate from hand to hand): sums of the seat summaries."""
    names = _player_names(record)
    out = {
        n: {
            "hands": 0,
            "opening": 0,
            "taken": 0,
            "mistakes": 0,
            "lost": 0,
            "gained": 0,
            "net": 0,
            "declared": 0,
            "made": 0,
            "declaration_cost": 0,
        }
        for n in names
    }
    for h in hands:
        dealer = record["hands"][h.hand - 1]["dealer"]
        for s in SEATS:
            p = names[(dealer + s) % 3]
            row = out[p]
            row["hands"] += 1
            seat = h.seats[s.name]
            for key in ("opening", "taken", "mistakes", "lost", "gained"):
                row[key] += getattr(seat, key)
            row["net"] += seat.net or 0
            if s == h.declarer:
                row["declared"] += 1
                row["made"] += 1 if seat.made else 0
                if h.declaration is not None:
                    row["declaration_cost"] += h.declaration.cost
    return out


def _match_summary(record: Mapping[str, Any], recs: Sequence[HandRecord]) -> MatchSummary:
    """The record's own account of the match (the winner and score as the match loop judged)."""
    names = _player_names(record)
    result = record.get("result") or {}
    winner = result.get("winner")
    totals = result.get("totals")
    return MatchSummary(
        rules=recs[0].ruleset.name if recs else str(record.get("rules")),
        players=tuple(names),
        hands=len(record["hands"]),
        winner=names[winner] if isinstance(winner, int) and 0 <= winner < len(names) else None,
        detail=str(result.get("detail") or result.get("reason") or ""),
        totals=tuple(int(t) for t in totals) if isinstance(totals, list) and len(totals) == 3 else None,
    )
