"""Deal studies: one row per seeded deal (table, best declaration, hand features), at any scale.

A study is defined by its :class:`StudySpec` (number of deals, seed, rules, what to
compute, where the deals come from). Deal ``i`` is dealt under the rules from a seed hashed
from ``"sm358-study:<seed>:<i>"`` (to the deal spec's constraints when there is one, by
:mod:`solver.game.dealer`), or is the ``i``-th of the given deals (``deals_from``, their
fingerprint in the spec), so a row depends on its index alone: the same rows whatever the
number of workers, the chunking, or the machines of a Dask cluster.

The deals are cut into chunks sized by time: each chunk should take a worker about
:data:`CHUNK_SECONDS`, after the time the finished ones took (the first are one deal
each), so that a study of any size shows progress and loses little on a stop (a fixed
``chunk`` is also possible). Each finished chunk is written atomically (a temporary
file renamed into place) as a part file ``part-<first>-<end>`` in ``<out>.parts/``,
next to a ``spec.json`` naming the study. An interrupted study run again with the
same spec computes only the deals no part holds; when every deal is there the parts
are combined, in order, into ``<out>`` (again through a temporary file) and the parts
directory removed. Nothing is computed twice and nothing is ever half-written. One
run at a time may write an output: a second one is refused at once (a lock on
``<out>.lock``, released when its holder ends, however it ends).

Columns (see :func:`columns`): ``index``, ``deal`` (notation), then the hand features
(``len_<seat>_<suit>``, ``hcp_<seat>`` with A=4 K=3 Q=2 J=1, for D, E, M and the widow
W), the double-dummy table of the deal as dealt (``dd_<strain>_<seat>``, the declarer
without the widow, the rules' first leader on lead) and the optimiser's best declaration
(``best_tricks``, ``best_strain``, ``optimal_strains``, ``best_discard``, ``decl_<strain>``,
``target``, ``makes``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager, suppress
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..deal import Deal, Seat, Strain
from ..engine.pool import check_scheduler, iter_tasks
from ..errors import StudyError
from ..game.dealer import Dealer
from ..game.dealspec import DealSpec, high_card_points
from ..game.match import deck_for
from ..game.rules import get_ruleset
from ..inputs import atomic_write_path, shown_name, write_atomic

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

WHAT = ("table", "declare")
MAX_DEALS = 100_000_000
"""A hundred million deals: about a hundred core-years of declarations; beyond is a typo."""
FORMATS = (".parquet", ".csv")
SUITS = "SHDC"
SEATS = "DEM"


CHUNK_SECONDS = 5.0
"""The time a chunk should take one worker: a stop loses at most this much per worker."""
MAX_CHUNK = 4096  # deals in one chunk at most, whatever their speed (bounds a part's memory)


def default_chunk(deals: int) -> int:
    """Deals per part file in earlier versions (parts named by chunk number): read to
    resume their parts. Chunks are now sized by time (:data:`CHUNK_SECONDS`)."""
    return max(1, min(256, deals // 256))


@dataclass(frozen=True)
class StudySpec:
    """What a study computes; two runs with equal specs produce equal files."""

    deals: int
    seed: str
    rules: str = "twelve"
    what: tuple[str, ...] = WHAT
    chunk: int = 0  # deals per chunk; 0: sized by time (CHUNK_SECONDS). Rows do not depend on it
    deal_spec: str = ""  # deal to this DealSpec notation instead of at random
    deals_from: str = ""  # the files of given deals (the deals travel with the tasks)
    digest: str = ""  # the given deals' fingerprint (solver.analysis.deal_files.deals_digest)

    def __post_init__(self) -> None:
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise StudyError(f"--deals must be at least 1, got {self.deals}")
        if self.deals > MAX_DEALS:
            raise StudyError(f"--deals must be at most {MAX_DEALS:,}, got {self.deals:,}")
        if not self.what or any(w not in WHAT for w in self.what):
            raise StudyError(
                f"--what must list some of {', '.join(WHAT)}, got {','.join(self.what) or 'nothing'}"
            )
        if isinstance(self.chunk, bool) or not isinstance(self.chunk, int) or self.chunk < 0:
            raise StudyError(f"chunk must be a whole number of deals (0: by time), got {self.chunk!r}")
        ruleset = get_ruleset(self.rules)
        if "declare" in self.what and ruleset.widow_size == 0:
            raise StudyError(f"--what declare needs a widow; the rules {self.rules!r} have none")
        if self.deal_spec and self.deals_from:
            raise StudyError("deal to a spec or read given deals, not both")
        if self.deals_from and not self.digest:
            raise StudyError("given deals need their digest (run_study computes it)")
        if self.deal_spec:
            canonical = DealSpec.parse(self.deal_spec).to_string()
            object.__setattr__(self, "deal_spec", canonical)
            _dealer(canonical, self.rules)  # an impossible spec fails here, before any work

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["what"] = list(self.what)
        for key in ("deal_spec", "deals_from", "digest"):  # absent for random deals, as before
            if not d[key]:
                del d[key]
        return d

    def same_study(self, saved: dict[str, Any]) -> bool:
        """Whether ``saved`` (a spec.json) describes this study: the chunking aside,
        which changes no row."""
        mine = {k: v for k, v in self.to_json().items() if k != "chunk"}
        return isinstance(saved, dict) and {k: v for k, v in saved.items() if k != "chunk"} == mine


@lru_cache(maxsize=8)
def _dealer(deal_spec: str, rules: str) -> Dealer:
    """One dealer per spec in each process (building its tables can take seconds)."""
    return Dealer(deal_spec, rules=rules)


def study_deal(spec: StudySpec, index: int) -> Deal:
    """Deal ``index`` of a dealt study (fixed by the seed, the deal spec and the index)."""
    if spec.deals_from:
        raise StudyError(f"deal {index} of a study of given deals is in {spec.deals_from}, not dealt")
    rs = get_ruleset(spec.rules)
    digest = hashlib.sha256(f"sm358-study:{spec.seed}:{index}".encode()).digest()
    if spec.deal_spec:
        return _dealer(spec.deal_spec, spec.rules).deal(int.from_bytes(digest[:8], "little"))
    return Deal.random(
        int.from_bytes(digest[:8], "little"),
        hand_size=rs.hand_size,
        widow_size=rs.widow_size,
        deck=deck_for(rs),
    )


def features(deal: Deal) -> dict[str, int]:
    """Suit lengths and high-card points of every hand and of the widow (W)."""
    row: dict[str, int] = {}
    for name, hand in (*zip(SEATS, deal.hands), ("W", deal.widow)):
        for s, suit in enumerate(SUITS):
            row[f"len_{name}_{suit}"] = len(hand.cards_in(s))
        row[f"hcp_{name}"] = high_card_points(hand)
    return row


def columns(spec: StudySpec) -> list[str]:
    """The columns of the study's rows, in order."""
    rs = get_ruleset(spec.rules)
    cols = ["index", "deal"]
    for name in (*SEATS, "W"):
        cols += [f"len_{name}_{s}" for s in SUITS] + [f"hcp_{name}"]
    if "table" in spec.what:
        cols += [f"dd_{st}_{seat}" for st in "SHDCN" for seat in SEATS]
    if "declare" in spec.what:
        cols += ["best_tricks", "best_strain", "optimal_strains", "best_discard"]
        cols += [f"decl_{st}" for st in rs.optimiser_question()["strains"]]
        cols += ["target", "makes"]
    return cols


def study_row(spec: StudySpec, index: int, deal: Deal | None = None) -> dict[str, Any]:
    """Every column of deal ``index`` (dealt, unless the given ``deal`` is passed)."""
    from ..declare import declare
    from ..engine import dd_table

    rs = get_ruleset(spec.rules)
    if deal is None:
        deal = study_deal(spec, index)
    row: dict[str, Any] = {"index": index, "deal": deal.to_string(), **features(deal)}
    question = rs.optimiser_question()
    leader = question["leader"]
    if "table" in spec.what:
        table = dd_table(
            deal.without_widow() if rs.widow_size else deal,
            leader=leader,
            must_ruff=bool(rs.must_ruff),
            threads=1,
        )
        for st in "SHDCN":
            for seat in SEATS:
                row[f"dd_{st}_{seat}"] = table[st][seat]
    if "declare" in spec.what:
        result = declare(deal, **question)
        optimal = [c.strain.name for c in result.optimal]
        best = next(s for s in "SHDCN" if s in optimal)
        first = next(c for c in result.optimal if c.strain.name == best)
        row["best_tricks"] = result.tricks
        row["best_strain"] = best
        row["optimal_strains"] = ",".join(s for s in "SHDCN" if s in optimal)
        row["best_discard"] = " ".join(str(c) for c in first.discard)
        for st in question["strains"]:
            row[f"decl_{st}"] = result.by_strain[Strain.parse(st)]
        row["target"] = rs.target_of(Seat(rs.declarer))
        row["makes"] = result.tricks >= row["target"]
    return row


Task = tuple[StudySpec, int, int] | tuple[StudySpec, int, int, tuple[Deal, ...]]


def study_chunk(task: Task) -> list[dict[str, Any]]:
    """The rows of deals ``start`` to ``end`` (excluded) of a ``(spec, start, end)`` task:
    a pure function of its task, for local pools and Dask. A study of given deals
    carries the deals of its chunk as a fourth item."""
    spec, start, end = task[0], task[1], task[2]
    given = task[3] if len(task) > 3 else None
    return [
        study_row(spec, i, None if given is None else given[i - start])
        for i in range(start, min(end, spec.deals))
    ]


def _timed_chunk(task: Task) -> tuple[list[dict[str, Any]], float]:
    """:func:`study_chunk` and the seconds it took (to size the next chunks)."""
    began = time.perf_counter()
    rows = study_chunk(task)
    return rows, time.perf_counter() - began


class _Pacer:
    """Chunk sizes: ``fixed`` deals, or as many as take a worker about CHUNK_SECONDS
    after the seconds per deal measured so far (one deal until a chunk has finished)."""

    def __init__(self, fixed: int) -> None:
        self.fixed = fixed
        self.per_deal: float | None = None

    def size(self) -> int:
        if self.fixed:
            return self.fixed
        if self.per_deal is None:
            return 1
        return max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / max(self.per_deal, 1e-6))))

    def record(self, deals: int, seconds: float) -> None:
        if deals:
            rate = seconds / deals
            self.per_deal = rate if self.per_deal is None else 0.7 * self.per_deal + 0.3 * rate

    def chunks(self, spec: StudySpec, gaps: list[tuple[int, int]]) -> Iterator[tuple[StudySpec, int, int]]:
        """The tasks covering ``gaps``, each sized when a worker is free for it."""
        for start, end in gaps:
            while start < end:
                stop = min(end, start + self.size())
                yield spec, start, stop
                start = stop


# --- files ------------------------------------------------------------------------------------
def _format(out: Path) -> str:
    suffix = out.suffix.lower()
    if suffix not in FORMATS:
        raise StudyError(f"{shown_name(out)}: the output must end in .parquet or .csv")
    return suffix


def _frame(rows: list[dict[str, Any]], cols: list[str]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(rows, columns=cols)


def _write_frame(frame: pd.DataFrame, path: Path) -> None:
    """Write ``frame`` whole or not at all, as Parquet or CSV after ``path``'s suffix."""
    with atomic_write_path(path) as tmp:
        if path.suffix.lower() == ".parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), tmp)
        else:
            frame.to_csv(tmp, index=False)


def _read(path: Path) -> pd.DataFrame:
    import pandas as pd

    if path.suffix.lower() == ".parquet":
        return pd.read_parquet(path)
    return pd.read_csv(path, keep_default_na=False, na_values=[])


def load_study(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A finished study as a DataFrame, one row per deal."""
    p = Path(path)
    _format(p)
    if not p.exists():
        raise StudyError(f"{p}: no such study file")
    return _read(p)


def parts_dir(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


def _check_parts(parts: Path, spec: StudySpec) -> dict[tuple[int, int], Path]:
    """The parts already written, by the deals they hold (first, end), after checking
    that they belong to this study."""
    spec_file = parts / "spec.json"
    if not parts.exists():
        parts.mkdir(parents=True)
    saved: Any = None
    if spec_file.exists():
        try:
            saved = json.loads(spec_file.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise StudyError(f"{spec_file}: unreadable ({exc}); remove {parts} to start afresh") from None
        if not spec.same_study(saved):
            raise StudyError(
                f"{parts} holds parts of another study ({saved}); use the same settings to "
                f"resume it, or remove it to start afresh"
            )
    else:
        write_atomic(spec_file, json.dumps(spec.to_json()))
    # parts of earlier versions are named by chunk number, of saved["chunk"] deals each
    old_chunk = saved.get("chunk") if isinstance(saved, dict) else None
    done: dict[tuple[int, int], Path] = {}
    for f in parts.iterdir():
        bounds = _part_bounds(f.name, old_chunk, spec.deals)
        if bounds is not None:
            done[bounds] = f
    return done


def _part_bounds(name: str, old_chunk: Any, deals: int) -> tuple[int, int] | None:
    """The deals (first, end) a part file holds, or None for any other file."""
    if not name.startswith("part-"):
        return None
    fields = name[5:].split(".")[0].split("-")
    try:
        numbers = [int(x) for x in fields]
    except ValueError:
        return None
    if len(numbers) == 2:
        start, end = numbers
    elif len(numbers) == 1 and isinstance(old_chunk, int) and old_chunk > 0:
        start, end = numbers[0] * old_chunk, min(deals, (numbers[0] + 1) * old_chunk)
    else:
        return None
    return (start, end) if 0 <= start < end <= deals else None


def _gaps(done: Iterable[tuple[int, int]], deals: int) -> list[tuple[int, int]]:
    """The ranges of deals no part holds."""
    gaps, at = [], 0
    for start, end in sorted(done):
        if start > at:
            gaps.append((at, start))
        at = max(at, end)
    if at < deals:
        gaps.append((at, deals))
    return gaps


def _part_name(start: int, end: int, suffix: str) -> str:
    return f"part-{start:09d}-{end:09d}{suffix}"


def lock_path(out: Path) -> Path:
    return out.with_name(out.name + ".lock")


@contextmanager
def _writer_lock(out: Path) -> Iterator[None]:
    """Hold ``<out>.lock`` while this run writes ``out``: a second run is refused at once.

    An advisory lock (``flock``) is released by the system whenever its holder ends, so
    a killed run never blocks the next one; the file itself goes when the run ends.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no advisory locks on this system
        yield
        return
    path = lock_path(out)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StudyError(
                f"another study is writing {out}; wait for it to end (or stop it), then run again"
            ) from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the holder ended and removed the file meanwhile: lock the new one
    try:
        yield
    finally:
        with suppress(FileNotFoundError):
            os.unlink(path)
        os.close(fd)


@dataclass
class StudyResult:
    """What :func:`run_study` did: the file, the deals computed now and those found on disk."""

    out: Path
    spec: StudySpec
    computed: int
    resumed: int

    def frame(self) -> pd.DataFrame:
        return load_study(self.out)


def run_study(
    out: str | os.PathLike[str],
    spec: StudySpec,
    *,
    workers: int | None = None,
    scheduler: Any = None,
    progress: Callable[[int, int], None] | None = None,
    deals: Sequence[Deal] | None = None,
) -> StudyResult:
    """Compute the chunks of ``spec`` not yet on disk, then combine them into ``out``.

    ``workers`` local processes (default: every core) or the Dask cluster at
    ``scheduler``. ``progress(done, total)`` counts deals, including those resumed.
    ``deals``: the given deals of a ``deals_from`` study (their digest is checked).
    Ctrl-C keeps every finished chunk and raises ``KeyboardInterrupt``; run again to
    resume.
    """
    given = _given_deals(spec, deals)
    if spec.deal_spec:
        study_deal(spec, 0)  # a spec that no draw meets fails here, once, not in every worker
    path = Path(out)
    suffix = _format(path)
    check_scheduler(scheduler)
    with _writer_lock(path):
        if path.exists() and not parts_dir(path).exists():
            raise StudyError(f"{path} exists already; remove it or choose another file")
        parts = parts_dir(path)
        with _removed_unless_used(parts):
            return _run(path, parts, suffix, spec, workers, scheduler, progress, given)


@contextmanager
def _removed_unless_used(parts: Path) -> Iterator[None]:
    """Remove ``parts`` if this run made it and leaves it without a part (an error, an
    unreachable cluster, a Ctrl-C before the first chunk): no empty directory behind."""
    made = not parts.exists()
    try:
        yield
    finally:
        if made and parts.is_dir() and not any(p.name.startswith("part-") for p in parts.iterdir()):
            shutil.rmtree(parts, ignore_errors=True)


def _run(
    path: Path,
    parts: Path,
    suffix: str,
    spec: StudySpec,
    workers: int | None,
    scheduler: Any,
    progress: Callable[[int, int], None] | None,
    given: tuple[Deal, ...] | None = None,
) -> StudyResult:
    """Compute the missing chunks into ``parts``, then combine them into ``path``."""
    done = _check_parts(parts, spec)
    cols = columns(spec)
    finished = sum(end - start for start, end in done)
    if progress is not None:
        progress(finished, spec.deals)
    computed = 0
    pacer = _Pacer(spec.chunk)
    tasks: Iterable[Task] = pacer.chunks(spec, _gaps(done, spec.deals))
    if given is not None:  # the deals of a given-deal study travel with their chunk
        tasks = ((*t, given[t[1] : t[2]]) for t in tasks)
    stream = iter_tasks(_timed_chunk, tasks, workers=workers, scheduler=scheduler, local="processes")
    with closing(stream):  # a Ctrl-C while a part is written stops the workers too
        for _, (rows, seconds) in stream:
            start, end = rows[0]["index"], rows[-1]["index"] + 1
            _write_frame(_frame(rows, cols), parts / _part_name(start, end, suffix))
            done[(start, end)] = parts / _part_name(start, end, suffix)
            pacer.record(len(rows), seconds)
            computed += len(rows)
            finished += len(rows)
            if progress is not None:
                progress(finished, spec.deals)
    _combine(path, parts, done, cols)
    return StudyResult(path, spec, computed, spec.deals - computed)


def _given_deals(spec: StudySpec, deals: Sequence[Deal] | None) -> tuple[Deal, ...] | None:
    from .deal_files import deals_digest

    if not spec.deals_from:
        if deals is not None:
            raise StudyError("deals given to a study whose spec deals them (set deals_from and digest)")
        return None
    if deals is None or len(deals) != spec.deals or deals_digest(deals) != spec.digest:
        raise StudyError(
            f"the deals given are not the {spec.deals} deals of {spec.deals_from} the spec names"
        )
    return tuple(deals)


def _combine(path: Path, parts: Path, done: dict[tuple[int, int], Path], cols: list[str]) -> None:
    import pandas as pd

    frames = [_read(done[bounds]) for bounds in sorted(done)]
    frame = pd.concat(frames, ignore_index=True)[cols]
    _write_frame(frame, path)
    shutil.rmtree(parts)


def study(
    out: str | os.PathLike[str],
    deals: int | None = None,
    seed: int | str = "1",
    *,
    rules: str = "twelve",
    what: str | Sequence[str] = WHAT,
    workers: int | None = None,
    scheduler: Any = None,
    progress: Callable[[int, int], None] | None = None,
    chunk: int = 0,
    deal_spec: str | DealSpec = "",
    deals_from: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None = None,
    column: str = "deal",
) -> pd.DataFrame:
    """Run (or resume) a study and return its rows as a DataFrame: over ``deals`` random
    deals, deals to ``deal_spec`` (a :class:`DealSpec` or its notation), or the deals of
    the files ``deals_from`` (notation lines, hand files, or a Parquet/CSV ``column``)."""
    kinds = tuple(w.strip() for w in what.split(",") if w.strip()) if isinstance(what, str) else tuple(what)
    given: list[Deal] | None = None
    from .study_sources import given_study, spec_text

    if deals_from is not None:
        if deal_spec:
            raise StudyError("deal to a spec or read given deals, not both")
        paths = [deals_from] if isinstance(deals_from, (str, os.PathLike)) else list(deals_from)
        spec, given = given_study(
            paths, seed=seed, rules=rules, what=kinds, deals=deals, column=column, chunk=chunk
        )
    else:
        if deals is None:
            raise StudyError("give the number of deals, or the files to read them from")
        spec = StudySpec(deals, str(seed), rules, kinds, chunk, deal_spec=spec_text(deal_spec))
    return run_study(out, spec, workers=workers, scheduler=scheduler, progress=progress, deals=given).frame()


__all__ = [
    "CHUNK_SECONDS",
    "MAX_DEALS",
    "WHAT",
    "StudyError",
    "StudyResult",
    "StudySpec",
    "columns",
    "default_chunk",
    "features",
    "load_study",
    "lock_path",
    "run_study",
    "study",
    "study_chunk",
    "study_deal",
    "study_row",
]
