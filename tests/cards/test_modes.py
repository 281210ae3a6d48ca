"""The Mode vocabulary: what each mode means, and that it stays a plain string outside.

Why: rules, players, scoring, the match and records all ask "which trump?" and "does
everybody try to take few tricks?" of a mode; the answers live on :class:`Mode` alone,
and records and JSON must keep writing the same strings as before.
"""

from __future__ import annotations

import json

import pytest

from solver.cards import NO_TRUMP, SUIT_CHARS, Suit
from solver.deal import SEAT_NAMES, STRAIN_CHARS, Seat, Strain
from solver.errors import NotationError
from solver.game.rules import PRESETS, get_ruleset
from solver.modes import MODES, SUIT_MODES, Mode

MEANING = {  # mode: (trump suit, strain played, minimising)
    "S": (Suit.S, Strain.S, False),
    "H": (Suit.H, Strain.H, False),
    "D": (Suit.D, Strain.D, False),
    "C": (Suit.C, Strain.C, False),
    "N": (None, Strain.N, False),
    "MT": (None, Strain.N, True),
    "miz": (None, Strain.N, True),
}


@pytest.mark.parametrize("name", list(MEANING))
def test_each_mode_means_what_the_rules_say(name):
    mode = Mode.parse(name)
    assert (mode.trump, mode.strain, mode.minimising) == MEANING[name]
    assert mode in SUIT_MODES if mode.trump is not None else mode not in SUIT_MODES


def test_modes_are_their_strings():
    assert [str(m) for m in MODES] == list(MEANING)
    for m in Mode:
        assert m == m.value and hash(m) == hash(m.value) and f"{m}" == m.value
        by_letters: dict[str, int] = {m.value: 1}
        assert by_letters[m] == 1 and m in frozenset({m.value})
        assert json.loads(json.dumps({m: [m]})) == {m.value: [m.value]}


@pytest.mark.parametrize("text, mode", [("nt", Mode.N), ("MIZ", Mode.miz), (" mt ", Mode.MT), ("h", Mode.H)])
def test_parse_reads_any_case(text, mode):
    assert Mode.parse(text) is mode and Mode.parse(mode) is mode


@pytest.mark.parametrize("bad", ["", "X", "SH", "ſ", 4, None])
def test_parse_rejects_with_a_notation_error(bad):
    with pytest.raises(NotationError, match="unknown mode"):
        Mode.parse(bad)


def test_constants_are_derived_from_the_types():
    assert SUIT_CHARS == "SHDC" and STRAIN_CHARS == "SHDCN" and SEAT_NAMES == ("D", "E", "M")
    assert NO_TRUMP == Strain.N == len(Suit)
    assert [s.name for s in Seat] == list(SEAT_NAMES)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rulesets_hold_modes_and_write_strings(preset):
    r = get_ruleset(preset)
    assert all(isinstance(m, Mode) for m in r.modes)
    written = r.to_dict()["modes"]
    assert all(type(m) is str for m in written) and written == [m.value for m in r.mode_order]


def test_mode_is_public_at_the_top_level():
    import solver

    assert solver.Mode is Mode and "Mode" in solver.__all__


def test_the_old_module_is_a_deprecated_alias():
    import importlib
    import sys

    sys.modules.pop("solver.game.modes", None)
    with pytest.warns(DeprecationWarning, match="solver.modes"):
        old = importlib.import_module("solver.game.modes")
    assert old.Mode is Mode and old.MODES is MODES and old.SUIT_MODES is SUIT_MODES
