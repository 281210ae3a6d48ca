"""Bundled players and the registry ``get_player(kind, seed)``.

``random`` (uniformly random legal decisions), ``heuristic`` (the rule sources' rules of
thumb, docs/sources.md), ``dd`` and ``dd-full`` (see every card and decide with the
double-dummy engine; ``dd`` in misère only once the hands are down to
``MISERE_ENGINE_CARDS``, see :mod:`.dd`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..errors import RulesError
from ..game.records import MAX_NAME_LENGTH
from ..game.rules import MAX_TRICKS
from ..game.views import Announcement, DeclareView, ExchangeView, Player, PlayView, Table
from ..inputs import check_seed, short_repr
from .base import BasePlayer
from .heuristic import HeuristicPlayer
from .random_player import RandomPlayer


def _dd_factory(full_misere: bool) -> Callable[[str, random.Random], Player]:
    """``dd`` (misère searched from ``MISERE_ENGINE_CARDS`` on) or ``dd-full`` (everything)."""

    def make(name: str, rng: random.Random) -> Player:
        from .dd import MISERE_ENGINE_CARDS, DoubleDummyPlayer  # imports the engine only when asked for

        misere = MAX_TRICKS if full_misere else MISERE_ENGINE_CARDS
        return DoubleDummyPlayer(name, rng, engine_cards=MAX_TRICKS, misere_engine_cards=misere)

    return make


def _pimc_factory(engine_cards: int) -> Callable[[str, random.Random], Player]:
    def make(name: str, rng: random.Random) -> Player:
        from .pimc import MonteCarloPlayer  # imports the engine only when asked for

        return MonteCarloPlayer(name, rng, engine_cards=engine_cards)

    return make


PLAYER_KINDS: dict[str, Callable[[str, random.Random], Player]] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
    "dd": _dd_factory(False),  # engine for whole hands; in MT/miz from MISERE_ENGINE_CARDS on
    "dd-full": _dd_factory(True),  # engine for every decision, misère included (slow)
    "pimc": _pimc_factory(12),  # own view only: samples the hidden cards, engine from 12 cards
    "pimc-full": _pimc_factory(17),  # the same for every decision, declaring included (slow)
}


def get_player(kind: str, seed: int | str = 0, name: str | None = None) -> Player:
    """A new player of ``kind`` with its own RNG seeded from ``seed``."""
    factory = PLAYER_KINDS.get(kind) if isinstance(kind, str) else None
    if factory is None:
        raise RulesError(f"unknown player {short_repr(kind)}; players are {', '.join(PLAYER_KINDS)}")
    check_seed(seed, RulesError)
    if name is not None and not isinstance(name, str):
        raise RulesError(f"a player name must be a string, got {short_repr(name)}")
    if name is not None and len(name) > MAX_NAME_LENGTH:  # a record could not hold it
        raise RulesError(f"a player name has at most {MAX_NAME_LENGTH} characters, got {len(name):,}")
    return factory(name or kind, random.Random(f"sm358-player:{kind}:{seed}"))


__all__ = [
    "BasePlayer",
    "Announcement",
    "DeclareView",
    "ExchangeView",
    "HeuristicPlayer",
    "PLAYER_KINDS",
    "Player",
    "PlayView",
    "RandomPlayer",
    "Table",
    "get_player",
]
