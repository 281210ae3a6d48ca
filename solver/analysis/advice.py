"""Single-dummy advice: the best mode, discard or card from what one seat can see.

How: draw layouts of the hidden cards uniformly from the seat's :class:`~solver.game.knowledge.View`,
judge every candidate double-dummy on each layout, and estimate per candidate the
probability of reaching the seat's target and the mean tricks, with 95% intervals
(Wilson; Student's t). Every candidate is judged on the *same* layouts (common random
numbers), so differences between candidates are not blurred by luck of the draw.

Declarations use successive halving over samples instead of judging all 4 x 4,845
discard sets on every layout: the discard classes of :mod:`solver.declare.classes`
(rank-equivalent sets, the same on every layout since they depend only on the cards the
declarer cannot see) are ranked by the optimiser's estimate, the best ``per_mode`` of
each mode enter round one on a few samples, and each round keeps the best third on
more samples until the last ``finalists`` are judged on all of them. Screening rounds ask
the engine only whether the target is reached and by about how much (two null-window
searches, the second within a node budget); the finalists are solved exactly, which gives
their mean tricks.
``Advice.rounds`` says how many candidates were judged on how many samples.

The recommendation is the candidate judged on every sample with the highest
probability of reaching the target; ties go to the better mean tricks (more, or fewer
in MT/miz), then the mode order S H D C N MT miz, then the discard with the lowest cards.

Sample ``i`` of a run with seed ``s`` is drawn from ``task_rng(s, i)``, so the answer is
the same whatever the number of workers or where they ran (:mod:`.parallel`).
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..cards import Card, Hand, parse_cards, suit_html
from ..deal import SEATS, Deal
from ..declare.discards import best_discard, ranked_classes
from ..declare.oracle import ScoreOracle
from ..engine import Position, Solver
from ..engine.pool import Interrupted, map_tasks, task_rng, thread_solver
from ..errors import SolverError
from ..game.knowledge import Layout, View
from ..inputs import check_int, check_progress
from ..modes import MODES, Mode
from .stats import mean_interval, wilson

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Advice", "Candidate", "advise_declaration", "advise_play"]

Progress = Callable[[int, int], None]


def _card_key(text: str) -> tuple[int, int]:
    card = Card.parse(text)
    return (3 - int(card.suit), card.rank)


def _strain(mode: str) -> str:
    return Mode.parse(mode).strain.name


def _minimising(mode: str) -> bool:
    return Mode.parse(mode).minimising


@dataclass
class Candidate:
    """One choice and the double-dummy tricks it took on each sample it was judged on."""

    mode: Mode
    discard: tuple[str, ...] | None  # None: no discard to choose (or chosen per sample)
    target: int
    minimising: bool
    card: str | None = None
    sets: int = 1  # discard sets this rank-equivalence class stands for
    user: bool = False  # the choice the user asked about
    tricks: dict[int, int] = field(default_factory=dict)  # sample index -> exact tricks
    levels: dict[int, int] = field(default_factory=dict)  # sample index -> margin level
    unsettled: set[int] = field(default_factory=set)  # samples whose level is only a floor

    def record(self, sample: int, tricks: int | None, level: int, settled: bool = True) -> None:
        """One sample's outcome: exact tricks (None when only the margin was asked) and its
        level: 2 target beaten by a trick or more, 1 reached, 0 missed by one, -1 worse.
        An unsettled level (the margin question ran out of budget) is 1 where the target
        was reached and -1 where it was not: the lower of the two it may be."""
        self.levels[sample] = level
        if settled:
            self.unsettled.discard(sample)
        else:
            self.unsettled.add(sample)
        if tricks is not None:
            self.tricks[sample] = tricks

    def level_of(self, tricks: int) -> int:
        margin = self.target - tricks if self.minimising else tricks - self.target
        return max(-1, min(2, margin + 1))

    @property
    def samples(self) -> int:
        return len(self.levels)

    @property
    def exact(self) -> bool:
        """Whether the exact tricks are known on every sample judged (so a mean exists)."""
        return bool(self.tricks) and len(self.tricks) == len(self.levels)

    def _values(self) -> list[int]:
        return [self.tricks[i] for i in sorted(self.tricks)] if self.exact else []

    @property
    def hits(self) -> int:
        return sum(1 for v in self.levels.values() if v >= 1)

    @property
    def p_target(self) -> float:
        return self.hits / self.samples if self.samples else math.nan

    @property
    def mean_tricks(self) -> float:
        return mean_interval(self._values())[0] if self.exact else math.nan

    def screen_key(self) -> tuple[int, int, int, tuple[tuple[int, int], ...], tuple[int, ...]]:
        """Order within a round of successive halving: hits, then the summed margin levels."""
        return (-self.hits, -sum(self.levels.values())) + self.key()[3:]

    def net(self, tricks: int) -> int:
        """The seat's score for the hand: tricks over the target (MT/miz: under the maximum)."""
        return self.target - tricks if self.minimising else tricks - self.target

    def key(self) -> tuple[int, float, float, int, tuple[tuple[int, int], ...], tuple[int, ...]]:
        """Sort key, best first (see the module docstring for the tie-break): more samples,
        higher p_target, better mean tricks (or, without exact tricks, better margins)."""
        if self.exact:
            quality = self.mean_tricks if self.minimising else -self.mean_tricks
        elif self.samples:
            quality = 100.0 - sum(self.levels.values()) / self.samples  # after any exact mean
        else:
            quality = math.inf
        discard = tuple(_card_key(c) for c in sorted(self.discard or (), key=_card_key))
        card = Card.parse(self.card) if self.card else None
        return (
            -self.samples,
            -self.p_target if self.samples else 0.0,
            quality,
            MODES.index(self.mode),
            discard,
            (int(card.suit), -card.rank) if card else (),
        )

    def label(self) -> str:
        if self.card is not None:
            return self.card
        if self.discard is None:
            return self.mode
        return f"{self.mode} discard {' '.join(self.discard)}"

    def to_dict(self) -> dict[str, Any]:
        mean, mean_ci = mean_interval(self._values())
        nets = [self.net(t) for t in self._values()]
        score, score_ci = mean_interval(nets)
        out: dict[str, Any] = {}
        if self.card is not None:
            out["card"] = self.card
        else:
            out["strain"] = str(self.mode)
            out["discard"] = list(self.discard) if self.discard is not None else None
            out["sets"] = self.sets
        out.update(
            {
                "samples": self.samples,
                "target": self.target,
                "p_target": round(self.p_target, 4) if self.samples else None,
                "p_ci": list(wilson(self.hits, self.samples)),
                "mean_tricks": _num(mean),
                "mean_ci": [_num(x) for x in mean_ci],
                "expected_score": _num(score),
                "score_ci": [_num(x) for x in score_ci],
            }
        )
        if self.user:
            out["user"] = True
        return out


def _num(x: float) -> float | None:
    return None if x is None or math.isnan(x) else round(float(x), 3)


def _pretty_label(c: Candidate) -> str:
    """The candidate's label with suit symbols (``♠ discard ♦4 ♣3``, ``♥A``)."""
    if c.card is not None:
        return Card.parse(c.card).pretty()
    mode = Mode.parse(c.mode)
    name = mode.trump.symbol if mode.trump is not None else mode.value
    if c.discard is None:
        return name
    return f"{name} discard " + " ".join(Card.parse(x).pretty() for x in c.discard)


@dataclass
class Advice:
    """The answer of :func:`advise_declaration` or :func:`advise_play`.

    ``candidates`` are best first; ``recommended`` is the first of them (None only when
    interrupted before any candidate was judged on every sample). ``rounds`` lists
    ``(candidates, samples)`` per round of successive halving; ``partial`` is true when
    Ctrl-C stopped the run early.
    """

    kind: str
    seat: str
    rules: str
    target: int
    samples: int
    seed: int | str
    question: str
    candidates: list[Candidate]
    rounds: list[tuple[int, int]]
    partial: bool = False
    position: dict[str, Any] = field(default_factory=dict)

    @property
    def recommended(self) -> Candidate | None:
        full = [c for c in self.candidates if c.samples == self.samples]
        return min(full, key=Candidate.key) if full else None

    def to_dict(self) -> dict[str, Any]:
        rec = self.recommended
        out = {
            "kind": self.kind,
            "seat": self.seat,
            "rules": self.rules,
            "target": self.target,
            "samples": self.samples,
            "seed": self.seed,
            "question": self.question,
            "rounds": [{"candidates": c, "samples": n} for c, n in self.rounds],
            "partial": self.partial,
            "candidates": [c.to_dict() for c in self.candidates],
            "recommended": rec.to_dict() if rec is not None else None,
        }
        if self.position:
            out["position"] = self.position
        return out

    def to_frame(self) -> pd.DataFrame:
        """One row per candidate, best first: the JSON fields, with the intervals as
        ``*_low``/``*_high`` columns and ``recommended`` marking the advice."""
        import pandas as pd

        rec = self.recommended
        rows = []
        for c in self.candidates:
            d = c.to_dict()
            row = {k: v for k, v in d.items() if not k.endswith("_ci")}
            if "discard" in row and row["discard"] is not None:
                row["discard"] = " ".join(row["discard"])
            for name in ("p", "mean", "score"):
                low, high = d[f"{name}_ci"]
                row[f"{name}_low"], row[f"{name}_high"] = low, high
            row["recommended"] = c is rec
            rows.append(row)
        return pd.DataFrame(rows)

    def _repr_html_(self) -> str:
        """The candidates as a table in Jupyter, suits coloured, the recommendation bold."""
        rec = self.recommended
        from .advice_text import headline, target_mark

        head = (
            f"{headline(self)} {self.kind.capitalize()} advice for {self.seat} under {self.rules}, "
            f"{self.samples} samples, seed {self.seed}" + (" (partial)" if self.partial else "")
        )
        rows = []
        for c in self.candidates:
            d = c.to_dict()
            p = "-" if d["p_target"] is None else f"{d['p_target']:.3f}"
            p_ci = "-" if d["p_ci"][0] is None else f"{d['p_ci'][0]:.2f}-{d['p_ci'][1]:.2f}"
            mean = "-" if d["mean_tricks"] is None else f"{d['mean_tricks']:.2f}"
            style = ' style="font-weight:bold"' if c is rec else ""
            rows.append(
                f"<tr{style}><td>{suit_html(_pretty_label(c))}</td>"
                f"<td>{html.escape(target_mark(c.target, c.minimising))}</td><td>{c.samples}</td>"
                f"<td>{p}</td><td>{p_ci}</td><td>{mean}</td></tr>"
            )
        return (
            f"<div><p>{suit_html(head)}</p><table><thead><tr><th>choice</th><th>target</th><th>samples</th>"
            f"<th>P(target)</th><th>95% CI</th><th>mean tricks</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>"
        )

    def __str__(self) -> str:
        from .advice_text import headline, target_mark

        lines = [
            headline(self),
            f"{self.kind} advice for {self.seat} under {self.rules}: "
            f"{self.samples} samples, seed {self.seed}" + (" (partial)" if self.partial else ""),
        ]
        for c in self.candidates[:10]:
            d = c.to_dict()
            p = "-" if d["p_target"] is None else f"{d['p_target']:.3f}"
            goal = target_mark(c.target, c.minimising)
            lines.append(
                f"  {c.label():<32} target {goal:<6} n={c.samples:<4} p={p} {d['p_ci']}  tricks {d['mean_tricks']}"
            )
        return "\n".join(lines)


# --- the engine, one per worker thread ------------------------------------------------
def _engine() -> Solver:
    return thread_solver(32)


MAX_SAMPLES = 1_000_000  # a run that large takes days on one machine: split it by seed


def _check_run(samples: Any, seed: Any, progress: Any) -> None:
    """Strict arguments (docs/robustness.md): found before any work starts."""
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise SolverError(f"samples must be a whole number from 1 to {MAX_SAMPLES:,}, got {samples!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise SolverError(f"seed must be an int or a string, got {seed!r}")
    if isinstance(seed, int) and abs(seed).bit_length() > 256 or isinstance(seed, str) and len(seed) > 1000:
        raise SolverError("seed must be an int of at most 256 bits or a string of at most 1,000 characters")
    check_progress(progress, SolverError)


# --- declaration ----------------------------------------------------------------------
#: The node budget of a screening round's second question (is the target beaten by a
#: trick? missed by only one?): MARGIN_FACTOR times the nodes of the first question
#: (is it reached?), at least MARGIN_FLOOR. The second question only orders candidates
#: that reach the target equally often, yet one near the value can take a thousand times
#: the first: in misère 1.7G nodes against 12M on a hand whose MT candidate fell short of
#: its target on every layout (docs/advice.md, "The pruning").
MARGIN_FACTOR = 4
MARGIN_FLOOR = 1 << 20


@dataclass(frozen=True)
class _DeclTask:
    view: View
    seed: int | str
    sample: int
    choices: tuple[tuple[str, tuple[str, ...] | None], ...]
    exact: bool = True
    known: tuple[int | None, ...] = ()  # per choice: its margin level on this sample, if screened


def _judge_declaration(task: _DeclTask) -> list[tuple[int | None, int, bool]]:
    """Each choice's outcome on sample ``task.sample``: (exact tricks or None, margin level,
    whether the level is settled).

    Screening rounds ask only two null-window questions per choice — target reached? then
    beaten by one, or missed by one? — about a tenth of an exact solve, the second within
    a node budget; the final round solves exactly. A pure function of the task: a
    screening round starts from an empty table, so where a budget runs out does not
    depend on what the worker searched before."""
    view = task.view
    layout = view.sample(task_rng(task.seed, task.sample))
    seat = view.seat
    rs = view.rules
    own = layout.hands[seat]
    held = own | layout.widow if rs.widow_size else own
    unseen_after = rs.deck - held
    engine = _engine()
    if not task.exact:
        engine.clear()
    out: list[tuple[int | None, int, bool]] = []
    for mode, discard in task.choices:
        if not rs.widow_size:
            drop: tuple[Card, ...] = ()
        elif discard is None:  # chosen once the widow is seen: the estimate's best discard
            drop = best_discard(mode, held, held, unseen_after, rs.widow_size)
        else:
            drop = tuple(Card.parse(c) for c in discard)
        hands = dict(layout.hands)
        hands[seat] = held - Hand(drop)
        deal = Deal([hands[s] for s in SEATS])
        minimising = _minimising(mode)
        oracle = ScoreOracle(
            engine,
            deal,
            _strain(mode),
            seat=seat,
            leader=view.first_leader,
            misere=minimising,
            must_ruff=rs.must_ruff,
        )
        target = rs.target_of(seat, mode)
        goal = deal.hand_size - target if minimising else target  # the target as a score
        level = task.known[len(out)] if task.known else None
        settled = True
        if level is None:
            # two null-window questions near the target: cheap, and often all that is needed
            reached = oracle.at_least(goal)
            budget = None if task.exact else max(MARGIN_FLOOR, MARGIN_FACTOR * oracle.last_nodes)
            margin = oracle.at_least_within(goal + 1 if reached else goal - 1, budget)
            settled = margin is not None
            if reached:
                level = 2 if margin else 1
            else:
                level = 0 if margin else -1
        if not task.exact:
            out.append((None, level, settled))
            continue
        if level in (0, 1):  # the margin already pins the value: the target, or one short
            oracle.lowest = oracle.highest = goal + level - 1
        elif level == 2:
            oracle.lowest = max(oracle.lowest, goal + 1)
        else:
            oracle.highest = min(oracle.highest, goal - 2)
        tricks = oracle.to_tricks(oracle.exact(oracle.trump_guess()))
        out.append((tricks, level, True))
    return out


def _question(view: View) -> str:
    """What the declarer chooses now: ``mode+discard``, or ``mode`` (discard chosen later)."""
    if not view.rules.widow_size:
        return "mode"
    if view.widow is not None or view.rules.widow == "blind-discard":
        return "mode+discard"
    return "mode"  # blind-trump, first-six: the mode is named before the widow is seen


def _schedule(first: int, samples: int, finalists: int) -> list[tuple[int, int]]:
    """(candidates, samples) per round: a third survive each round, samples grow to all."""
    counts = [first]
    while counts[-1] > finalists:
        counts.append(max(finalists, math.ceil(counts[-1] / 3)))
    rounds = len(counts)
    out = []
    for r, c in enumerate(counts):
        n = samples if r == rounds - 1 else max(min(8, samples), math.ceil(samples / 3 ** (rounds - 1 - r)))
        out.append((c, min(n, samples)))
    return out


def _parse_choice(choice: Any) -> tuple[str, tuple[str, ...] | None]:
    if isinstance(choice, str):
        mode, _, rest = choice.partition(" ")
        cards = rest
    else:
        mode, cards = choice
    try:
        mode = str(Mode.parse(mode))
    except SolverError:
        raise SolverError(f"unknown strain or mode {mode!r}; modes are {' '.join(map(str, MODES))}") from None
    discard = tuple(str(c) for c in parse_cards(cards)) if cards else None
    return mode, discard


def advise_declaration(
    view: View,
    *,
    rules: Any = None,
    samples: int = 200,
    seed: int | str = 0,
    workers: int | None = None,
    scheduler: Any = None,
    choice: Any = None,
    modes: Sequence[str] | None = None,
    per_mode: int = 6,
    finalists: int = 2,
    progress: Progress | None = None,
) -> Advice:
    """Which mode (trump) and discard give the declarer the best chance of its target.

    ``view`` is the declarer's :class:`View` before the declaration (``rules`` overrides
    its ruleset). ``choice`` = ``("H", "C2 C3 D4 S5")`` also scores a choice of the user's
    on every sample. ``modes`` restricts the modes (default: all the rules allow). Under
    blind-trump and first-six rules only the mode is chosen; the discard on each sample
    is then the estimate's best once the widow is seen. ``per_mode`` candidates of each
    mode enter the first round and ``finalists`` are judged on every sample (both at
    least 1). Ctrl-C returns the samples judged so far with ``partial=True``.
    """
    if rules is not None:
        view = View(**{**_fields(view), "rules": rules})
    if not isinstance(view, View):
        raise SolverError(f"advise_declaration needs a View, got {type(view).__name__}")
    if view.stage != "declaration":
        raise SolverError("advise_declaration needs a view before the declaration (no mode given)")
    _check_run(samples, seed, progress)
    _check_count(per_mode, "per_mode")
    _check_count(finalists, "finalists")
    rs = view.rules
    mode_list = _mode_list(view, modes)
    question = _question(view)
    user = _parse_choice(choice) if choice is not None else None
    if user is not None:
        _check_user_choice(view, user, question)
    pool = _declaration_candidates(view, mode_list, question, per_mode)
    if user is not None:
        _mark_user_choice(view, pool, user)
    rounds, partial = _halving_rounds(
        view, pool, _schedule(len(pool), samples, finalists), seed, workers, scheduler, progress
    )
    pool.sort(key=Candidate.key)
    return Advice(
        "declaration",
        view.seat.name,
        rs.name,
        rs.target_of(view.seat),
        samples,
        seed,
        question,
        pool,
        rounds,
        partial,
        _declaration_position(view),
    )


def _check_count(value: Any, name: str) -> None:
    """A count option of successive halving: a whole number of at least 1 (0 never ends)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SolverError(f"{name} must be a whole number of at least 1, got {value!r}")


def _mode_list(view: View, modes: Sequence[str] | None) -> list[str]:
    rs = view.rules
    if modes is None:
        return [str(m) for m in rs.mode_order]
    if isinstance(modes, str) or not isinstance(modes, Sequence) or not modes:
        raise SolverError(f"modes must be a non-empty list of mode names, got {modes!r}")
    out = [str(m) for m in modes]
    for m in out:
        if m not in rs.modes:
            raise SolverError(f"mode {m!r} is not allowed under {rs.name} (modes: {' '.join(rs.mode_order)})")
    return out


def _mark_user_choice(view: View, pool: list[Candidate], user: tuple[str, tuple[str, ...] | None]) -> None:
    """Find the user's choice among the candidates (any order of its discard), or add it;
    it is never dropped while screening."""

    def same(c: Candidate) -> bool:
        if (c.mode, c.discard) == user:
            return True
        return (
            c.mode == user[0]
            and c.discard is not None
            and user[1] is not None
            and sorted(c.discard) == sorted(user[1])
        )

    found = next((c for c in pool if same(c)), None)
    if found is None:
        found = Candidate(
            Mode.parse(user[0]), user[1], view.rules.target_of(view.seat, user[0]), _minimising(user[0])
        )
        pool.append(found)
    found.user = True


def _evaluations(schedule: list[tuple[int, int]]) -> int:
    """Candidate-samples judged over ``schedule``: screening rounds add samples; the final
    round solves every sample exactly."""
    total = sum((n - (schedule[i - 1][1] if i else 0)) * c for i, (c, n) in enumerate(schedule[:-1]))
    return total + schedule[-1][0] * schedule[-1][1]


def _round_tasks(view: View, seed: int | str, alive: list[Candidate], n: int, final: bool) -> list[_DeclTask]:
    """One task per sample a round judges: up to ``n``, from where screening left off."""
    start = 0 if final else min(c.samples for c in alive)
    choices = tuple((c.mode, c.discard) for c in alive)
    return [
        _DeclTask(
            view,
            seed,
            i,
            choices,
            exact=final,
            known=tuple(None if i in c.unsettled else c.levels.get(i) for c in alive) if final else (),
        )
        for i in range(start, n)
    ]


def _halving_rounds(
    view: View,
    pool: list[Candidate],
    schedule: list[tuple[int, int]],
    seed: int | str,
    workers: int | None,
    scheduler: Any,
    progress: Progress | None,
) -> tuple[list[tuple[int, int]], bool]:
    """Successive halving over ``schedule``: each round keeps the best candidates and judges
    them on more samples; the last solves every sample exactly. Returns the rounds run
    (candidates, samples) and whether Ctrl-C cut them short."""
    total = _evaluations(schedule)
    alive = list(pool)
    rounds: list[tuple[int, int]] = []
    done_evals = 0
    for r, (keep, n) in enumerate(schedule):
        final = r == len(schedule) - 1
        if r:
            ranked = sorted((c for c in alive if not c.user), key=Candidate.screen_key)
            alive = ranked[:keep] + [c for c in alive if c.user]
        tasks = _round_tasks(view, seed, alive, n, final)
        width = len(alive)

        def tick(done: int, _total: int, base: int = done_evals, width: int = width) -> None:
            if progress is not None:
                progress(base + done * width, max(total, base + done * width))

        try:
            results = map_tasks(
                _judge_declaration, tasks, workers=workers, scheduler=scheduler, progress=tick
            )
        except Interrupted as stop:
            for index, values in stop.results.items():
                for c, (tricks, level, settled) in zip(alive, values):
                    c.record(tasks[index].sample, tricks, level, settled)
            rounds.append((len(alive), max((c.samples for c in alive), default=0)))
            return rounds, True
        for task, values in zip(tasks, results):
            for c, (tricks, level, settled) in zip(alive, values):
                c.record(task.sample, tricks, level, settled)
        done_evals += len(tasks) * width
        rounds.append((len(alive), n))
    return rounds, False


def _fields(view: View) -> dict[str, Any]:
    return {f: getattr(view, f) for f in View.__dataclass_fields__}


def _declaration_position(view: View) -> dict[str, Any]:
    out: dict[str, Any] = {"hand": str(view.hand)}
    if view.widow is not None:
        out["widow"] = str(view.widow)
    if view.unseen_own:
        out["unseen_own"] = view.unseen_own
    return out


def _check_user_choice(view: View, user: tuple[str, tuple[str, ...] | None], question: str) -> None:
    rs = view.rules
    mode, discard = user
    if mode not in rs.modes:
        raise SolverError(f"mode {mode!r} is not allowed under {rs.name}")
    if question == "mode":
        if discard:
            raise SolverError(
                f"under {rs.name} the discard is made after the widow is seen: give the strain only"
            )
        return
    if discard is None or len(discard) != rs.widow_size:
        raise SolverError(f"the discard must name {rs.widow_size} cards")
    allowed = view.hand if rs.widow == "blind-discard" else view.hand | (view.widow or Hand())
    cards = Hand(parse_cards(discard))
    if len(cards) != rs.widow_size:
        raise SolverError(f"the discard names a card twice: {' '.join(discard)}")
    bad = cards - allowed
    if bad:
        where = "own hand (blind discard)" if rs.widow == "blind-discard" else "hand or the widow"
        raise SolverError(f"discard {bad} is not in the declarer's {where}")


def _declaration_candidates(
    view: View, mode_list: list[str], question: str, per_mode: int
) -> list[Candidate]:
    rs = view.rules
    out = []
    for mode in mode_list:
        target = rs.target_of(view.seat, mode)
        minimising = _minimising(mode)
        if question == "mode":
            out.append(Candidate(Mode.parse(mode), None, target, minimising))
            continue
        held = view.hand | (view.widow or Hand())
        discardable = view.hand if rs.widow == "blind-discard" else held
        unseen = rs.deck - held
        for _estimate, cls in ranked_classes(mode, held, discardable, unseen, rs.widow_size)[:per_mode]:
            discard = tuple(sorted((str(c) for c in cls.discard), key=_card_key))
            out.append(Candidate(Mode.parse(mode), discard, target, minimising, sets=cls.size))
    return out


# --- play -----------------------------------------------------------------------------
@dataclass(frozen=True)
class _PlayTask:
    view: View
    seed: int | str
    samples: tuple[int, ...]


def _judge_play(task: _PlayTask) -> list[dict[str, int]]:
    """For each sample: the seat's final tricks after each legal card (pure in the task)."""
    view = task.view
    state = view.play_state()
    mode = view.mode
    assert mode is not None
    engine = _engine()
    out = []
    for i in task.samples:
        layout: Layout = view.sample(task_rng(task.seed, i))
        deal = Deal([layout.hands[s] for s in SEATS])
        position = Position(
            deal, _strain(mode), layout.leader, tuple(layout.trick), view.misere, view.rules.must_ruff
        )
        values = engine.card_values(position, seat=view.seat)
        won = state.tricks[view.seat]
        out.append({str(k): won + v for k, v in values.items()})
    return out


def advise_play(
    view: View,
    *,
    samples: int = 200,
    seed: int | str = 0,
    workers: int | None = None,
    scheduler: Any = None,
    progress: Progress | None = None,
    chunk: int = 8,
) -> Advice:
    """For every legal card of the seat to move: the chance of its target and its mean tricks.

    ``view`` is a play-stage :class:`View` of the seat to move. Every card is judged on
    the same ``samples`` layouts; Ctrl-C returns what was judged so far (``partial``).
    """
    if not isinstance(view, View):
        raise SolverError(f"advise_play needs a View, got {type(view).__name__}")
    if view.stage != "play":
        raise SolverError("advise_play needs a view during the play (give the mode)")
    _check_run(samples, seed, progress)
    check_int(chunk, "chunk", SolverError, 1, MAX_SAMPLES)
    state = view.play_state()
    if state.to_move != view.seat:
        raise SolverError(f"{state.to_move.name} is to play trick {state.trick_number}, not {view.seat.name}")
    mode = view.mode
    assert mode is not None
    target = view.target()
    minimising = view.misere
    tasks = [
        _PlayTask(view, seed, tuple(range(s, min(s + chunk, samples)))) for s in range(0, samples, chunk)
    ]
    cards: dict[str, Candidate] = {}
    partial = False
    try:
        results = map_tasks(
            _judge_play,
            tasks,
            workers=workers,
            scheduler=scheduler,
            progress=(lambda d, t: progress(sum(len(x.samples) for x in tasks[:d]), samples))
            if progress is not None
            else None,
        )
        finished = dict(enumerate(results))
    except Interrupted as stop:
        finished = stop.results
        partial = True
    for index, per_sample in finished.items():
        for i, values in zip(tasks[index].samples, per_sample):
            for card, tricks in values.items():
                cand = cards.get(card)
                if cand is None:
                    cand = cards[card] = Candidate(Mode.parse(mode), None, target, minimising, card=card)
                cand.record(i, tricks, cand.level_of(tricks))
    ordered = sorted(cards.values(), key=Candidate.key)
    position = {
        "mode": mode,
        "trick": state.trick_number,
        "played": [str(c) for c in view.played],
        "tricks": {s.name: state.tricks[s] for s in SEATS},
    }
    judged = min((c.samples for c in ordered), default=0)
    return Advice(
        "play",
        view.seat.name,
        view.rules.name,
        target,
        samples,
        seed,
        "card",
        ordered,
        [(len(ordered), judged)],
        partial,
        position,
    )
