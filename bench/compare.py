"""Time two builds of the C core against each other, in one process, deal by deal.

Why: on a shared or virtual machine whole-process runs of ``bench/solve.py`` vary by
15-40% from run to run, far more than most changes to the engine gain or lose. Loading
both builds into one process and alternating them deal by deal (the first to run
swapping each deal) exposes them to the same load, so their ratio is steady to a few
per cent (an A/A run gives 1.00-1.03). Node counts are deterministic, so they are
printed too: a change meant to keep the search identical must keep them equal.

Each build is a git revision (built into a temporary directory with that revision's
own ``setup.py``, so with its compiler options), ``.`` for the working tree, or the
path of an already built ``_core`` extension file.

    python bench/compare.py REV_A REV_B [--seeds 0-11] [--rounds 2] [--mode table|solve]
                            [--strain S] [--misere] [--mt-hands K]

``--mt-hands K`` times, instead of seeded deals, the first K hands a bundled declarer
chose to play in MT (bench/mt_hands.py): the declarer's misère solve in no trump from
the hand's first lead, as bench/solve.py times them.

It prints B's time over A's: the median of the per-deal ratios and the ratio of the
totals (CPU time of the searching thread), and both builds' node counts. Values are
compared as well; a difference is reported, as it means one build is wrong.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mt_hands import chosen_mt_hands  # noqa: E402
from solver.deal import Deal, Seat, Strain  # noqa: E402
from solver.engine import _Query  # noqa: E402  (the core's argument layout, in one place)


def kind_of(rev: str) -> str | None:
    """What build `rev` names: 'file' (a built extension), 'tree' ('.', the working tree),
    'revision' (a git commit), or None. Asked before any slow build, so that a bad name is
    a clean error at once."""
    if Path(rev).is_file():
        return "file"
    if rev == ".":
        return "tree"
    found = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", "-q", rev + "^{commit}"], capture_output=True
    )
    return "revision" if found.returncode == 0 else None


def build(rev: str, kind: str, workdir: Path) -> Path:
    """The extension file of build `rev` (of kind_of's `kind`), compiling it if it is a
    revision or the working tree.

    A revision is built by pip from that revision's files (its own setup.py, so its own
    compiler options), the working tree likewise; the extension is taken out of the wheel."""
    if kind == "file":
        return Path(rev)
    if kind == "tree":
        src = REPO
    else:
        src = workdir / "src"
        src.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", rev], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    wheels = workdir / "wheel"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(src)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with zipfile.ZipFile(next(wheels.glob("*.whl"))) as wheel:
        names = [n for n in wheel.namelist() if n.startswith("solver/engine/_core")]
        if not names:
            raise SystemExit(f"compare: the wheel of {rev!r} holds no solver/engine/_core extension")
        return Path(wheel.extract(names[0], workdir / "lib"))


def load(path: Path, name: str) -> ModuleType:
    """Load an extension file as a module of its own (two builds side by side)."""
    loader = importlib.machinery.ExtensionFileLoader("_core", str(path))
    spec = importlib.util.spec_from_file_location("_core", str(path), loader=loader)
    if spec is None:
        raise SystemExit(f"compare: cannot load {path} ({name})")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def seeds_of(text: str) -> list[int]:
    """'0-11' or '3,5,8' or '4' as a list of seeds."""
    out: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        if not first.isdigit() or not (last or first).isdigit() or int(last or first) < int(first):
            raise argparse.ArgumentTypeError(f"bad seed range {part!r} (e.g. 0-11 or 3,5,8)")
        out.extend(range(int(first), int(last or first) + 1))
    return out


def queries(deal: Deal, mode: str, misere: bool = False, strain: Strain = Strain.S) -> list[tuple]:
    """The core's arguments (as solver.engine lays them out) for one deal's table, or for
    the dealer's solve in ``strain``; eldest leads, as in bench/solve.py."""
    jobs = [(st, se) for st in Strain for se in Seat] if mode == "table" else [(strain, Seat.D)]
    return [_Query(deal, strain, Seat.E, seat, misere, False, ()).args() for strain, seat in jobs]


def mt_queries(count: int) -> dict[str, list[tuple]]:
    """The declarer's misère solve of each of the first `count` MT hands, by label."""
    return {
        label: [_Query(hand.start, Strain.N, hand.leader, hand.declarer, True, False, ()).args()]
        for label, hand in chosen_mt_hands(count)
    }


def run(engine, jobs: list[tuple]) -> tuple[float, int, list[int]]:
    """CPU seconds, nodes and values of one deal's searches, the engine's table cleared
    first so every deal starts cold, as in bench/solve.py."""
    engine.clear()
    nodes, values = 0, []
    start = time.thread_time()
    for job in jobs:
        values.append(engine.solve(*job))
        nodes += engine.nodes
    return time.thread_time() - start, nodes, values


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="build A: a git revision, '.', or an extension file")
    ap.add_argument("b", help="build B, likewise")
    ap.add_argument(
        "--seeds", default="0-11", type=seeds_of, help="deal seeds, e.g. 0-11 or 3,5,8 (default 0-11)"
    )
    ap.add_argument("--rounds", type=int, default=2, help="passes over the seeds (default 2)")
    ap.add_argument(
        "--mode",
        choices=("table", "solve"),
        default="table",
        help="full tables (15 solves, eldest leads) or the dealer's solve",
    )
    ap.add_argument(
        "--strain",
        choices=[s.name for s in Strain],
        default="S",
        help="the strain of --mode solve (default S; misère is played in no trump, N)",
    )
    ap.add_argument("--tt-mb", type=int, default=64, help="table size in MiB for both (default 64)")
    ap.add_argument("--misere", action="store_true", help="misère searches instead of normal ones")
    ap.add_argument(
        "--mt-hands", type=int, default=0, metavar="K", help="the first K MT hands instead of seeded deals"
    )
    args = ap.parse_args()
    if args.mt_hands < 0:
        ap.error("--mt-hands must be 0 (seeded deals) or more")

    builds = (("A", args.a, kind_of(args.a)), ("B", args.b, kind_of(args.b)))
    for label, rev, kind in builds:  # before any slow build
        if kind is None:
            print(
                f"compare: cannot build {label} ({rev!r}): not a file, '.' or a git revision", file=sys.stderr
            )
            return 2
    with tempfile.TemporaryDirectory(prefix="sm-compare-") as tmp:
        paths = []
        for label, rev, kind in builds:
            work = Path(tmp) / label
            work.mkdir()
            assert kind is not None  # every kind was checked above
            try:
                paths.append(build(rev, kind, work))
            except subprocess.CalledProcessError as err:
                detail = err.stderr.decode(errors="replace").strip() if err.stderr else ""
                print(f"compare: cannot build {label} ({rev!r}): {detail or err}", file=sys.stderr)
                return 2
        engines = [load(path, label).Engine(args.tt_mb << 20) for path, label in zip(paths, "AB")]

        jobs_of: dict[int | str, list[tuple]] = {}
        if args.mt_hands:
            jobs_of.update(mt_queries(args.mt_hands))
        else:
            for seed in args.seeds:
                jobs_of[seed] = queries(Deal.random(seed=seed), args.mode, args.misere, Strain[args.strain])
        ratios: list[float] = []
        seconds, nodes, mismatches = [0.0, 0.0], [0, 0], []
        for r in range(args.rounds):
            for n, (name, jobs) in enumerate(jobs_of.items()):
                order = (0, 1) if (n + r) % 2 == 0 else (1, 0)
                result = {}
                for i in order:
                    result[i] = run(engines[i], jobs)
                for i in (0, 1):
                    seconds[i] += result[i][0]
                    nodes[i] += result[i][1]
                ratios.append(result[1][0] / result[0][0])
                if result[0][2] != result[1][2] and name not in mismatches:
                    mismatches.append(name)

    contiguous = args.seeds == list(range(args.seeds[0], args.seeds[-1] + 1))
    seeds = f"{args.seeds[0]}-{args.seeds[-1]}" if contiguous else ",".join(map(str, args.seeds))
    what = (
        f"misère solves of the first {args.mt_hands} MT hands"
        if args.mt_hands
        else f"{'misère ' if args.misere else ''}{args.mode}s of seeds {seeds}"
    )
    print(
        f"{what}, {args.rounds} round(s), {args.tt_mb} MiB: B/A "
        f"per-deal median {statistics.median(ratios):.3f}, totals {seconds[1] / seconds[0]:.3f} "
        f"(A {seconds[0]:.2f} s, B {seconds[1]:.2f} s); nodes A {nodes[0]:,} B {nodes[1]:,}"
    )
    if mismatches:
        print(f"VALUES DIFFER on {mismatches}: one of the builds is wrong")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
