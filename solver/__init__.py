"""sergeant-major: double-dummy solver and hand-analysis toolkit for Sergeant Major (3-5-8).

The public API is re-exported here; see the README for a tour.

>>> import solver
>>> deal = solver.Deal.parse("D:AK... Q2... 3.A..")
>>> solver.solve(deal, "S", leader="D", seat="D")
2
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from .analysis.advice import Advice, advise_declaration, advise_play
from .analysis.review import Review, review
from .cards import ALL_CARDS, Card, Hand, Suit, parse_cards
from .deal import Deal, Seat, Strain, parse_strains
from .declare import Choice, Declaration, declare
from .engine import DDTable, Solver, card_values, dd_table, principal_variation, solve
from .errors import (
    EngineError,
    HandFileError,
    IllegalPlayError,
    InvalidDealError,
    NotationError,
    RecordError,
    RulesError,
    SolverError,
)
from .game.handfile import HandRecord, load_hand
from .game.match import Match
from .game.modes import Mode
from .game.records import load as load_record
from .game.records import save as save_record
from .game.rules import PRESETS, Ruleset, get_ruleset
from .game.view import View
from .players import get_player

try:
    __version__ = _version("sergeant-major")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"


def __getattr__(name: str):
    # optimal_tree needs networkx, which would double the import time of the package.
    if name == "optimal_tree":
        from .analysis.tree import optimal_tree

        return optimal_tree
    raise AttributeError(f"module 'solver' has no attribute {name!r}")


__all__ = [
    "__version__",
    "ALL_CARDS",
    "Card",
    "Hand",
    "Suit",
    "parse_cards",
    "Deal",
    "Seat",
    "Strain",
    "parse_strains",
    "DDTable",
    "Solver",
    "card_values",
    "dd_table",
    "principal_variation",
    "solve",
    "Choice",
    "Declaration",
    "declare",
    "Mode",
    "PRESETS",
    "Ruleset",
    "get_ruleset",
    "HandRecord",
    "Match",
    "Review",
    "review",
    "get_player",
    "load_hand",
    "load_record",
    "save_record",
    "View",
    "Advice",
    "advise_declaration",
    "advise_play",
    "optimal_tree",
    "EngineError",
    "HandFileError",
    "IllegalPlayError",
    "InvalidDealError",
    "NotationError",
    "RecordError",
    "RulesError",
    "SolverError",
]
