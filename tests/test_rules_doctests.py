"""The examples in the docstrings of the rules modules stay true."""
from __future__ import annotations

import doctest

import pytest

import solver.game.exchange
import solver.game.rules
import solver.game.scoring


@pytest.mark.parametrize("module", [solver.game.rules, solver.game.exchange, solver.game.scoring], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
