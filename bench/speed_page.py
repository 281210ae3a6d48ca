"""Write the results of ``bench/solve.py`` as the speed page, ``docs/speed.md``.

Why: the speed figures the README summarises must come from one run of one command, with
the CPU they were measured on, not be copied by hand. The page's "Other benches" section
(figures of bench/review.py, bench/advise.py, bench/study.py, bench/declare.py, each with
its own command) is kept as it is when the page is rewritten.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

OTHER = "## Other benches"

DEFAULT_OTHER = f"""{OTHER}

Measured by their own commands (rerun each to refresh its row).

| what | command | result | target (ratio, same run) |
|---|---|---|---|
| misère declaration of `examples/deal-16.txt` (no trump) | `python bench/declare.py --misere-ratio examples/deal-16.txt --budget 150` | normal 9.7 s; misère stopped at its 150 s budget before settling its first candidate | <= 10 x normal: **not met** (over 15 x) |
| misère target question on `examples/deal-16.txt`: a discard that keeps the dealer to at most T tricks | `python bench/declare.py --misere-ratio examples/deal-16.txt --reach 3 --reach 8` | normal declaration 6.3 s; T = 3: 46 s, no discard does (all 1,669 candidates refuted); T = 8: 11 s, found at the first candidate | <= 10 x normal: met (7.3 x and 1.8 x) |
| post-mortem review of a full 16-trick hand, seeds 0-9 | `python bench/review.py --hands 10 --declaration` | play 0.47-0.55 x the median full table; judging the declaration adds 3.3-3.7 x | <= 4 x the median full `dd_table`: met |
| single-dummy declaration advice, 200 samples, seeds 0-4 | `python bench/advise.py` | 21.5 x the median full table (89 x on seed 1) | median <= 40 x the median full `dd_table`: met |
| deal study, 1 vs 2 workers, idle machine | `python bench/study.py` | 2 workers 1.93 x (table) and 1.91 x (declare) one worker's rate | >= 1.8 x: met |
"""


def _ms(value: float) -> str:
    return f"{value / 1000:.2f} s" if value >= 1000 else f"{value:.1f} ms"


def _nodes(n: float) -> str:
    if n >= 1e6:
        return f"{n / 1e6:.1f}M"
    if n >= 1e3:
        return f"{n / 1e3:.0f}K"
    return str(int(n))


def _verdict(value: float, target: float) -> str:
    return f"{value:.1f} x, met" if value <= target else f"**{value:.1f} x, not met**"


def _ratios(args: argparse.Namespace, runs: dict, mt: dict) -> list[tuple[str, float, float]]:
    """(question, ratio, target) for the misère targets this run measured."""
    out: list[tuple[str, float, float]] = []
    if mt:
        from solve import mt_ratios  # (bench/solve.py imports this module only when writing)

        out += mt_ratios(mt, runs["table"][0])
    m, t = args.misere_deals, args.misere_tables
    solve_ms, table_ms = runs["solve"][0], runs["table"][0]
    if m:
        out.append(
            (
                "misère solve median / normal solve median",
                statistics.median(runs["misère solve"][0]) / statistics.median(solve_ms[:m]),
                5,
            )
        )
    if t:
        out.append(
            (
                "misère table median / normal table median",
                statistics.median(runs["misère table"][0]) / statistics.median(table_ms[:t]),
                5,
            )
        )
    if m:
        out.append(
            (
                "slowest misère solve / normal table median",
                max(runs["misère solve"][0]) / statistics.median(table_ms[:m]),
                50,
            )
        )
    return out


def render(
    argv: str, args: argparse.Namespace, runs: dict, dds: dict[str, float], cpu: str, other: str, mt: dict
) -> str:
    first, last = args.first, args.first + args.deals - 1
    command = f"python bench/solve.py {argv}".strip()
    lines = [
        "# Speed",
        "",
        "Written by this command (rerun it to refresh the page; the section",
        f'"{OTHER[3:]}" is kept):',
        "",
        "```",
        command,
        "```",
        "",
        f"Measured on {cpu}.",
        "Speed targets are ratios timed in one process, in the same run, against a reference (the",
        "engine's own normal search, or DDS), so they hold or fail the same way on any machine;",
        "times are the CPU time of the searching thread; they still vary with the machine's load,",
        "node counts do not. Solves: D's value, spades,",
        "E leads, 16-card hands, widow out of play; tables: 3 seats x 5 strains, one thread; each",
        f"cold, a {args.tt_mb} MiB table. Deals: `Deal.random(seed=i)`, seeds {first}-{last}.",
        "",
        "## Summary",
        "",
        "| question | ratio, same run | target |",
        "|---|---|---|",
    ]
    ratios = _ratios(args, runs, mt)
    for name, value, target in ratios:
        lines.append(f"| {name} | {_verdict(value, target)} | <= {target} |")
    for what, target in (("solve", 0.5), ("table", 1.0)):
        if what in dds:
            lines.append(
                f"| this engine's {what} / DDS's {what} (median) | {_verdict(dds[what], target)} | <= {target} |"
            )
    lines += [
        "",
        "## Solves and tables",
        "",
        "| what | deals | median | p90 | max | nodes: median | nodes: max |",
        "|---|---|---|---|---|---|---|",
    ]
    from solve import percentile  # (bench/solve.py imports this module only when writing)

    def row(kind: str, which: str, times: list[float], counts: list[int]) -> str:
        return (
            f"| {kind} | {which} | {_ms(statistics.median(times))} | {_ms(percentile(times, 90))} | "
            f"{_ms(max(times))} | {_nodes(statistics.median(counts))} | {_nodes(max(counts))} |"
        )

    for kind, (times, counts) in runs.items():
        if times:
            lines.append(row(kind, f"seeds {first}-{first + len(times) - 1}", times, counts))
    for kind, (times, counts) in mt.items():
        lines.append(row(kind, f"the first {len(times)} (bench/mt_hands.py)", times, counts))
    lines += [
        "",
        "## Misère",
        "",
        "The misère targets, each a ratio to the normal search on the same deals of the same run:",
        "the misère solve median at most 5 times the normal solve median, the misère table median",
        "at most 5 times the normal table median, the slowest misère solve at most 50 times the",
        "normal table median; a misère declaration at most 10 times the normal declaration of the",
        "same deal (`bench/declare.py`, under Other benches). Measured here:",
        "",
    ]
    if ratios:
        for name, value, target in ratios:
            lines.append(f"- {name}: {_verdict(value, target)} (target <= {target})")
        solves = runs["misère solve"][1]
        if solves:
            normal = statistics.median(runs["solve"][1][: len(solves)])
            lines.append(
                f"- node counts: misère solve median {_nodes(statistics.median(solves))} against "
                f"{_nodes(normal)} normal ({statistics.median(solves) / normal:.0f} x)"
            )
    else:
        lines.append("- (this run measured no misère search: `--misere-deals 0`)")
    lines += [
        "",
        'What limits misère and what was tried is in [engine.md](engine.md) ("Known limits") and',
        "[history.md](history.md).",
        "",
        other.rstrip(),
        "",
    ]
    return "\n".join(lines)


def write_speed_page(
    path: Path, argv: str, args: argparse.Namespace, runs: dict, dds: dict[str, float], cpu: str, mt: dict
) -> None:
    """Rewrite ``path`` from this run, keeping its Other benches section; ``mt`` holds the
    runs on chosen MT hands (empty without ``--mt-hands``)."""
    other = DEFAULT_OTHER
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if OTHER in text:
            other = text[text.index(OTHER) :]
    path.write_text(render(argv, args, runs, dds, cpu, other, mt), encoding="utf-8")
