"""The examples in the docstrings of the rules modules stay true."""
from __future__ import annotations

import doctest

import pytest

import solver.exchange
import solver.rules
import solver.scoring


@pytest.mark.parametrize("module", [solver.rules, solver.exchange, solver.scoring], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
