"""The package's shape: what an import loads, which commands exist, how a bug surfaces.

Why: these promises are made in comments and docs (``import solver.cards`` is cheap, the
README lists every command, a broken invariant is a bug and not bad input) and nothing
else would notice when one stops being true.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import solver
from cli import main as cli_main
from solver.errors import InternalError, SolverError, UsageError

REPO = Path(__file__).resolve().parents[2]


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    return set(out.split())


def test_importing_the_vocabulary_does_not_load_the_core_or_numpy():
    loaded = _loaded_after("import solver.cards, solver.deal, solver.errors")
    assert "solver.engine._core" not in loaded
    assert "numpy" not in loaded
    assert "solver.game.match" not in loaded


def test_the_public_names_all_resolve_to_their_modules():
    assert set(solver._EXPORTS) == set(solver.__all__) - {"__version__"}
    for name in solver.__all__:
        assert getattr(solver, name) is not None, name
    from solver.declare import declare
    from solver.game.records import load

    assert solver.declare is declare  # the function, not the subpackage of the same name
    assert solver.load_record is load


def test_solver_declare_stays_the_function_after_its_subpackage_loads():
    loaded = _loaded_after(
        "import solver.declare.optimiser, solver; assert callable(solver.declare), solver.declare"
    )
    assert "solver.declare.optimiser" in loaded


def _readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    table = text.split("## Commands", 1)[1].split("\n## ", 1)[0]
    return [m.group(1) for m in re.finditer(r"^\| `sm358 (\w[\w-]*)", table, re.M)]


def test_the_parser_has_exactly_the_documented_commands():
    parser = cli_main.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    documented = _readme_commands()
    assert sorted(set(documented)) == sorted(sub.choices), "README's command list and the parser differ"
    assert sorted(cli_main.COMMANDS) == sorted(sub.choices)


def test_a_broken_invariant_surfaces_as_a_bug_not_as_exit_2(monkeypatch, capsys):
    def broken(args: argparse.Namespace) -> int:
        raise InternalError("card accounting broken")

    real = cli_main.build_parser

    def build() -> argparse.ArgumentParser:
        parser = real()
        parser.set_defaults(run=broken)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for p in action.choices.values():
                    p.set_defaults(run=broken)
        return parser

    monkeypatch.setattr(cli_main, "build_parser", build)
    with pytest.raises(InternalError):
        cli_main.main(["rules"])
    assert not issubclass(InternalError, SolverError)


def test_a_usage_error_is_bad_input():
    assert issubclass(UsageError, SolverError)
    assert cli_main.UsageError is UsageError  # the deprecated alias


@pytest.mark.slow  # builds the C core once more (about 10 s of compiling, more on a loaded machine)
def test_the_wheel_installs_solver_as_its_only_top_level_name(tmp_path):
    """Build the wheel as a user's pip does: in an isolated environment with the
    build-system requirements of pyproject.toml (a venv's bundled setuptools is too old
    for its licence field), so the test needs the package index, as the install does."""
    import zipfile

    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(tmp_path),
            ".",
        ],
        cwd=REPO,
        check=True,
        env={**os.environ, "SM_PORTABLE": "1"},
    )
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/", 1)[0] for n in names if not n.split("/", 1)[0].endswith(".dist-info")}
    assert top == {"solver"}
    assert "solver/cli/main.py" in names and "solver/cli/commands/solve.py" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "sm358 = solver.cli.main:entry" in zipfile.ZipFile(wheel).read(entry_points).decode()


# The rule facts and the game vocabulary are spelled out in one place each: a module that
# needs the first leader, the misère mode or no trump asks Ruleset, Mode or NO_TRUMP.
SPELLED_ONCE = {
    r'"eldest"': "the first-lead rule: Ruleset.opening_leader()",
    r'"MT", "miz"|"miz", "MT"': "the misère modes: Ruleset.misere_mode or Mode.minimising",
    r"\b(trump|strain) [!=]= 4\b": "no trump: NO_TRUMP or Strain.N",
    r"game\.modes": "solver.modes (solver.game.modes is a deprecated alias)",
}
ALLOWED = {"solver/game/rules.py", "solver/modes.py", "solver/game/modes.py"}


def _spelled_out(rel: str, line: str) -> str | None:
    """What ``line`` of module ``rel`` should use instead, if it spells out a rule fact."""
    for pattern, instead in SPELLED_ONCE.items():
        if re.search(pattern, line):
            return instead
    if rel.startswith("solver/game/") and "from .modes import" in line:
        return SPELLED_ONCE[r"game\.modes"]
    return None


def test_rule_facts_are_spelled_out_in_one_place():
    offenders = []
    for path in sorted([*(REPO / "solver").rglob("*.py"), *(REPO / "cli").rglob("*.py")]):
        rel = path.relative_to(REPO).as_posix()
        if rel in ALLOWED:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            instead = _spelled_out(rel, line)
            if instead is not None:
                offenders.append(f"{rel}:{number}: {line.strip()}  (use {instead})")
    assert not offenders, "\n".join(offenders)
