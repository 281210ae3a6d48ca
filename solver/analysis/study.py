"""Deal studies: one row per seeded deal (table, best declaration, hand features), at any scale.

A study is defined by its :class:`StudySpec` (number of deals, seed, rules, what to
compute, where the deals come from). Deal ``i`` is dealt under the rules from a seed hashed
from ``"sm358-study:<seed>:<i>"`` (to the deal spec's constraints when there is one, by
:mod:`solver.game.dealer`), or is the ``i``-th of the given deals (``deals_from``, their
fingerprint in the spec), so a row depends on its index alone: the same rows whatever the
number of workers, the chunking, or the machines of a Dask cluster.

The deals are cut into chunks (:func:`default_chunk`); each finished chunk is written
atomically (a temporary file renamed into place) as a part file in ``<out>.parts/``, next
to a ``spec.json`` naming the study. An interrupted study run again with the same spec
computes only the missing chunks; when every chunk is there the parts are combined, in
order, into ``<out>`` (again through a temporary file) and the parts directory removed.
Nothing is computed twice and nothing is ever half-written.

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
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..deal import Deal, Seat
from ..errors import SolverError
from ..game.dealer import Dealer
from ..game.dealspec import DealSpec, high_card_points
from ..game.match import deck_for
from ..game.rules import get_ruleset
from ..inputs import atomic_write_path, write_atomic
from .parallel import iter_tasks

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

WHAT = ("table", "declare")
MAX_DEALS = 100_000_000
"""A hundred million deals: about a hundred core-years of declarations; beyond is a typo."""
FORMATS = (".parquet", ".csv")
SUITS = "SHDC"
SEATS = "DEM"


def default_chunk(deals: int) -> int:
    """Deals per part file: 1 for small studies (every core busy), up to 256 for huge ones
    (a million deals make about 3,900 parts). A function of ``deals`` alone, so a resumed
    study finds the same chunks."""
    return max(1, min(256, deals // 256))


class StudyError(SolverError):
    """A study that cannot run as asked (bad size, format, or parts of another study)."""


@dataclass(frozen=True)
class StudySpec:
    """What a study computes; two runs with equal specs produce equal files."""

    deals: int
    seed: str
    rules: str = "twelve"
    what: tuple[str, ...] = WHAT
    chunk: int = 0  # 0: default_chunk(deals)
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
        if self.chunk == 0:
            object.__setattr__(self, "chunk", default_chunk(self.deals))
        if isinstance(self.chunk, bool) or not isinstance(self.chunk, int) or self.chunk < 1:
            raise StudyError(f"chunk must be a positive integer, got {self.chunk!r}")
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

    @property
    def chunks(self) -> int:
        return -(-self.deals // self.chunk)

    def to_json(self) -> dict:
        d = asdict(self)
        d["what"] = list(self.what)
        for key in ("deal_spec", "deals_from", "digest"):  # absent for random deals, as before
            if not d[key]:
                del d[key]
        return d


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


def _leader(rs: Any) -> Seat:
    return Seat.E if rs.first_leader == "eldest" else Seat(rs.declarer)


def _strains(rs: Any) -> str:
    return "".join(s for s in "SHDCN" if s in rs.modes)


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
        cols += [f"decl_{st}" for st in _strains(rs)]
        cols += ["target", "makes"]
    return cols


def study_row(spec: StudySpec, index: int, deal: Deal | None = None) -> dict:
    """Every column of deal ``index`` (dealt, unless the given ``deal`` is passed)."""
    from ..declare import declare
    from ..engine import dd_table

    rs = get_ruleset(spec.rules)
    if deal is None:
        deal = study_deal(spec, index)
    row: dict[str, Any] = {"index": index, "deal": deal.to_string(), **features(deal)}
    leader = _leader(rs)
    if "table" in spec.what:
        table = dd_table(deal.without_widow() if rs.widow_size else deal, leader=leader, threads=1)
        for st in "SHDCN":
            for seat in SEATS:
                row[f"dd_{st}_{seat}"] = table[st][seat]
    if "declare" in spec.what:
        result = declare(
            deal,
            declarer=Seat(rs.declarer),
            leader=leader,
            strains=_strains(rs),
            blind=rs.widow == "blind-discard",
        )
        optimal = [c.strain for c in result.optimal]
        best = next(s for s in "SHDCN" if s in optimal)
        first = next(c for c in result.optimal if c.strain == best)
        row["best_tricks"] = result.tricks
        row["best_strain"] = best
        row["optimal_strains"] = ",".join(s for s in "SHDCN" if s in optimal)
        row["best_discard"] = " ".join(str(c) for c in first.discard)
        for st in _strains(rs):
            row[f"decl_{st}"] = result.by_strain[st]
        row["target"] = rs.target_of(Seat(rs.declarer))
        row["makes"] = result.tricks >= row["target"]
    return row


def study_chunk(task: tuple[StudySpec, int] | tuple[StudySpec, int, tuple[Deal, ...]]) -> list[dict]:
    """The rows of one chunk (a pure function of its task, for local pools and Dask); a
    study of given deals carries the chunk's deals as a third item."""
    spec, chunk = task[0], task[1]
    given = task[2] if len(task) > 2 else None
    start = chunk * spec.chunk
    return [
        study_row(spec, i, None if given is None else given[i - start])
        for i in range(start, min(start + spec.chunk, spec.deals))
    ]


# --- files ------------------------------------------------------------------------------------
def _format(out: Path) -> str:
    suffix = out.suffix.lower()
    if suffix not in FORMATS:
        raise StudyError(f"{out}: the output must end in .parquet or .csv")
    return suffix


def _frame(rows: list[dict], cols: list[str]) -> pd.DataFrame:
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


def load_study(path: str | os.PathLike) -> pd.DataFrame:
    """A finished study as a DataFrame, one row per deal."""
    p = Path(path)
    _format(p)
    if not p.exists():
        raise StudyError(f"{p}: no such study file")
    return _read(p)


def parts_dir(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


def _check_parts(parts: Path, spec: StudySpec) -> set[int]:
    """The chunks already written, after checking that they belong to this study."""
    spec_file = parts / "spec.json"
    if not parts.exists():
        parts.mkdir(parents=True)
    if spec_file.exists():
        try:
            saved = json.loads(spec_file.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise StudyError(f"{spec_file}: unreadable ({exc}); remove {parts} to start afresh") from None
        if saved != spec.to_json():
            raise StudyError(
                f"{parts} holds parts of another study ({saved}); use the same settings to "
                f"resume it, or remove it to start afresh"
            )
    else:
        write_atomic(spec_file, json.dumps(spec.to_json()))
    done = set()
    for f in parts.iterdir():
        if f.name.startswith("part-") and not f.name.startswith("."):
            try:
                done.add(int(f.name[5:].split(".")[0]))
            except ValueError:
                continue
    return {c for c in done if c < spec.chunks}


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
    out: str | os.PathLike,
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
    if path.exists() and not parts_dir(path).exists():
        raise StudyError(f"{path} exists already; remove it or choose another file")
    parts = parts_dir(path)
    done = _check_parts(parts, spec)
    todo = [c for c in range(spec.chunks) if c not in done]
    cols = columns(spec)

    def size(c: int) -> int:
        return min(spec.chunk, spec.deals - c * spec.chunk)

    finished = sum(size(c) for c in done)
    if progress is not None:
        progress(finished, spec.deals)
    computed = 0
    if todo:
        stream = iter_tasks(
            study_chunk,
            [_task(spec, c, given) for c in todo],
            workers=workers,
            scheduler=scheduler,
            local="processes",
        )
        for k, rows in stream:
            _write_frame(_frame(rows, cols), parts / f"part-{todo[k]:09d}{suffix}")
            computed += len(rows)
            finished += len(rows)
            if progress is not None:
                progress(finished, spec.deals)
    _combine(path, parts, spec, cols, suffix)
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


def _task(spec: StudySpec, chunk: int, given: tuple[Deal, ...] | None) -> tuple:
    if given is None:
        return (spec, chunk)
    start = chunk * spec.chunk
    return (spec, chunk, given[start : start + spec.chunk])


def _combine(path: Path, parts: Path, spec: StudySpec, cols: list[str], suffix: str) -> None:
    import pandas as pd

    frames = [_read(parts / f"part-{c:09d}{suffix}") for c in range(spec.chunks)]
    frame = pd.concat(frames, ignore_index=True)[cols]
    _write_frame(frame, path)
    shutil.rmtree(parts)


def study(
    out: str | os.PathLike,
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
    deals_from: str | os.PathLike | Sequence[str | os.PathLike] | None = None,
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
    "MAX_DEALS",
    "WHAT",
    "StudyError",
    "StudyResult",
    "StudySpec",
    "columns",
    "default_chunk",
    "features",
    "load_study",
    "run_study",
    "study",
    "study_chunk",
    "study_deal",
    "study_row",
]
