"""sergeant-major: double-dummy solver and hand-analysis toolkit for Sergeant Major (3-5-8).

The public API is re-exported here; see the README for a tour.
"""
from .cards import ALL_CARDS, Card, Hand, Suit, parse_cards
from .deal import Deal, Seat, Strain, parse_strains
from .errors import (
    EngineError,
    IllegalPlayError,
    InvalidDealError,
    NotationError,
    RecordError,
    RulesError,
    SolverError,
)

__all__ = [
    "ALL_CARDS", "Card", "Hand", "Suit", "parse_cards",
    "Deal", "Seat", "Strain", "parse_strains",
    "EngineError", "IllegalPlayError", "InvalidDealError", "NotationError",
    "RecordError", "RulesError", "SolverError",
]

# Engine API (solve, dd_table, card_values, principal_variation) is added by solver.engine.
try:  # pragma: no cover - import guard while the engine is being built
    from .engine import DDTable, card_values, dd_table, principal_variation, solve  # noqa: F401

    __all__ += ["DDTable", "card_values", "dd_table", "principal_variation", "solve"]
except ImportError:  # pragma: no cover
    pass
