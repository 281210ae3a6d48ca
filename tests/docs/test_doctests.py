"""Every ``>>>`` example in the package, and the README's Python block, stay true.

Why: examples are the first code a reader copies. Each module under ``solver/`` is
collected (so a new module's examples run without anyone listing it), and a module whose
source shows ``>>>`` must have its examples found and run, not silently skipped.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import solver

REPO = Path(__file__).resolve().parents[2]
DEPRECATED = {"solver.game.modes"}  # aliases that warn on import and hold no examples
MODULES = sorted(
    m.name for m in pkgutil.walk_packages(solver.__path__, "solver.") if m.name not in DEPRECATED
)


@pytest.mark.parametrize("name", ["solver", *MODULES])
def test_docstring_examples(name):
    module = importlib.import_module(name)
    path = Path(module.__file__ or "")
    source = path.read_text(encoding="utf-8") if path.suffix == ".py" else ""  # not the C core
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if ">>>" in source:
        assert result.attempted > 0, f"{name} shows >>> examples but doctest found none"


def test_every_example_module_is_collected():
    with_examples = {
        ".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        for p in (REPO / "solver").rglob("*.py")
        if ">>>" in p.read_text(encoding="utf-8")
    }
    assert with_examples and with_examples <= {"solver", *MODULES}


def _readme_python_block() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) == 1, "the README has one Python block"
    return blocks[0]


def test_readme_python_block_runs_and_shows_true_values(monkeypatch):
    """Run the block line by line from the repository root; a trailing ``# value`` comment
    is checked: a number must equal the result, a ``{...}`` must be how the result starts."""
    monkeypatch.chdir(REPO)
    namespace: dict = {}
    checked = 0
    for line in _readme_python_block().splitlines():
        code, _, comment = line.partition("  #")
        code, comment = code.strip(), comment.strip()
        if not code:
            continue
        if code.startswith(("import ", "from ")) or re.match(r"^\w+ = ", code):
            exec(code, namespace)
            continue
        value = eval(code, namespace)
        number = re.match(r"^-?\d+\b", comment)
        if number:
            assert value == int(number.group()), line
            checked += 1
        elif comment.startswith("{") and comment.endswith("...}"):
            assert repr(value).startswith(comment[:-4]), line
            checked += 1
    assert checked >= 3
