"""Bundled players and the registry ``get_player(kind, seed)``.

``random`` (uniformly random legal decisions), ``heuristic`` (the seeds' rules of
thumb) and ``dd`` (sees every card; declares and plays with the double-dummy engine).
"""
from __future__ import annotations

import random
from typing import Callable

from ..errors import RulesError
from .base import BasePlayer, Declaration, DeclareView, ExchangeView, Player, PlayView, Table
from .heuristic import HeuristicPlayer
from .random_player import RandomPlayer


def _dd(name: str, rng: random.Random) -> BasePlayer:
    from .dd import DoubleDummyPlayer  # imports the engine only when asked for

    return DoubleDummyPlayer(name, rng)


PLAYER_KINDS: dict[str, Callable[[str, random.Random], BasePlayer]] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
    "dd": _dd,
}


def get_player(kind: str, seed: "int | str" = 0, name: str | None = None) -> BasePlayer:
    """A new player of ``kind`` with its own RNG seeded from ``seed``."""
    try:
        factory = PLAYER_KINDS[kind]
    except KeyError:
        raise RulesError(f"unknown player {kind!r}; players are {', '.join(PLAYER_KINDS)}") from None
    return factory(name or kind, random.Random(f"sm358-player:{kind}:{seed}"))


__all__ = [
    "BasePlayer", "Declaration", "DeclareView", "ExchangeView", "HeuristicPlayer", "PLAYER_KINDS",
    "Player", "PlayView", "RandomPlayer", "Table", "get_player",
]
