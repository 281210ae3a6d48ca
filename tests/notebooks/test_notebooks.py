"""Every notebook in notebooks/ runs from top to bottom without an error.

The tour is quick and runs in the default tier; the story notebooks (01, 02, 03: a
declaration, a post-mortem, a strategy study with simulated matches) take minutes and
run in the slow tier (``pytest -m slow``).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
TOUR = [p for p in NOTEBOOKS if p.name == "tour.ipynb"]
STORIES = [p for p in NOTEBOOKS if p not in TOUR]


def test_there_are_notebooks():
    assert TOUR and STORIES, "notebooks/ holds no tour or no story notebook"


def test_notebooks_are_committed_without_outputs():
    """Outputs belong to a run, not to the repository (they would go stale)."""
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        stale = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.get("outputs")]
        assert not stale, f"{path.name}: cells {stale} carry outputs"


def draws(source: str) -> bool:
    """Whether a code cell draws a figure (a plot call outside an import line)."""
    code = [line for line in source.splitlines() if not line.startswith(("import ", "from "))]
    return any(re.search(r"plot|subplots", line) for line in code)


def test_every_figure_is_followed_by_what_it_shows():
    """A notebook does not leave a figure to speak for itself: each plotting cell is
    followed by a markdown cell."""
    for path in NOTEBOOKS:
        cells = nbformat.read(path, as_version=4).cells
        for i, cell in enumerate(cells):
            if cell.cell_type == "code" and draws(cell.source):
                after = cells[i + 1] if i + 1 < len(cells) else None
                assert after is not None and after.cell_type == "markdown", f"{path.name}: cell {i}"


def run_notebook(path: Path, timeout: int) -> None:
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()  # raises CellExecutionError, naming the cell, on any failure
    errors = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors


@pytest.mark.parametrize("path", TOUR, ids=[p.name for p in TOUR])
def test_tour_runs(path: Path):
    run_notebook(path, timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize("path", STORIES, ids=[p.name for p in STORIES])
def test_story_notebook_runs(path: Path):
    run_notebook(path, timeout=1200)
