"""The examples in the docstrings of the match modules stay true."""
from __future__ import annotations

import doctest

import pytest

import solver.game.match
import solver.tricks


@pytest.mark.parametrize("module", [solver.game.match, solver.tricks], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
