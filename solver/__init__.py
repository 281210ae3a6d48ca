"""sergeant-major: double-dummy solver and hand-analysis toolkit for Sergeant Major (3-5-8).

The public API is re-exported here; see the README for a tour.

>>> import solver
>>> deal = solver.Deal.parse("D:AK... Q2... 3.A..")
>>> solver.solve(deal, "S", leader="D", seat="D")
2
"""

import sys
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version
from importlib.util import resolve_name
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .interrupts import import_holding_sigint

# The names below load on first use (PEP 562), so that ``import solver.cards`` or
# ``import solver.errors`` costs only that module: the C core, numpy, OR-Tools and the
# analysis stack load when a name that needs them is first touched.
if TYPE_CHECKING:
    from .analysis.advice import Advice, advise_declaration, advise_play
    from .analysis.review import Review, review
    from .analysis.tree import optimal_tree
    from .board import board
    from .cards import ALL_CARDS, Card, Hand, Suit, parse_cards
    from .deal import Deal, Seat, Strain, parse_strains
    from .declare import Choice, Declaration, declare
    from .engine import (
        DDTable,
        Solver,
        TableInterrupted,
        best_card,
        can_reach,
        card_values,
        dd_table,
        principal_variation,
        solve,
    )
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
    from .game.dealer import Dealer, deal_matching
    from .game.dealspec import DealSpec
    from .game.handfile import HandRecord, load_hand
    from .game.knowledge import View
    from .game.match import Match
    from .game.records import load as load_record
    from .game.records import save as save_record
    from .game.rules import PRESETS, Ruleset, get_ruleset
    from .interrupts import interrupt_after
    from .modes import Mode
    from .players import get_player

#: Public name -> the module that defines it (``module:name`` when named differently there,
#: ``module:`` for a subpackage that is itself the public name).
_EXPORTS: dict[str, str] = {
    "Advice": ".analysis.advice",
    "advise_declaration": ".analysis.advice",
    "advise_play": ".analysis.advice",
    "Review": ".analysis.review",
    "review": ".analysis.review",
    "ALL_CARDS": ".cards",
    "Card": ".cards",
    "Hand": ".cards",
    "Suit": ".cards",
    "parse_cards": ".cards",
    "Deal": ".deal",
    "Seat": ".deal",
    "Strain": ".deal",
    "parse_strains": ".deal",
    "interrupt_after": ".interrupts",
    "Choice": ".declare",
    "Declaration": ".declare",
    "declare": ".declare",
    "declare_target": ".declare",
    "DDTable": ".engine",
    "Solver": ".engine",
    "TableInterrupted": ".engine",
    "best_card": ".engine",
    "can_reach": ".engine",
    "card_values": ".engine",
    "dd_table": ".engine",
    "principal_variation": ".engine",
    "solve": ".engine",
    "EngineError": ".errors",
    "HandFileError": ".errors",
    "IllegalPlayError": ".errors",
    "InvalidDealError": ".errors",
    "NotationError": ".errors",
    "RecordError": ".errors",
    "RulesError": ".errors",
    "SolverError": ".errors",
    "Dealer": ".game.dealer",
    "deal_matching": ".game.dealer",
    "DealSpec": ".game.dealspec",
    "HandRecord": ".game.handfile",
    "load_hand": ".game.handfile",
    "Match": ".game.match",
    "Mode": ".modes",
    "load_record": ".game.records:load",
    "save_record": ".game.records:save",
    "PRESETS": ".game.rules",
    "Ruleset": ".game.rules",
    "get_ruleset": ".game.rules",
    "View": ".game.knowledge",
    "get_player": ".players",
    "optimal_tree": ".analysis.tree",
    "board": ".board:",  # the web stack loads only when a board is opened
}

try:
    __version__ = _version("sergeant-major")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"


def __getattr__(name: str) -> Any:
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    module, colon, attr = target.partition(":")
    # The first use of a name may import the C core, numpy and OR-Tools: a Ctrl-C in the
    # middle would leave them unable to load again, so it is delivered after the import.
    loaded = import_holding_sigint(resolve_name(module, __name__))
    value = loaded if colon and not attr else getattr(loaded, attr or name)
    globals()[name] = value  # once loaded, a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


class _Package(ModuleType):
    """``solver.declare`` is the function, though a subpackage has the same name: importing
    ``solver.declare.<module>`` would otherwise rebind the attribute to the subpackage."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "declare" and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


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
    "TableInterrupted",
    "best_card",
    "can_reach",
    "card_values",
    "dd_table",
    "principal_variation",
    "solve",
    "interrupt_after",
    "Choice",
    "Declaration",
    "declare",
    "declare_target",
    "Mode",
    "PRESETS",
    "Ruleset",
    "get_ruleset",
    "Dealer",
    "DealSpec",
    "deal_matching",
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
    "board",
    "EngineError",
    "HandFileError",
    "IllegalPlayError",
    "InvalidDealError",
    "NotationError",
    "RecordError",
    "RulesError",
    "SolverError",
]
