"""Many seeded matches and their statistics (what ``sm358 simulate`` reports).

Match ``i`` of a run with seed ``s`` uses the match seed ``"s:i"`` and fresh players
seeded ``"s:i:p"``, so any single match of a run can be replayed on its own.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from ..deal import SEAT_NAMES
from ..errors import RecordError, RulesError
from ..game.records import MatchRecord
from ..game.match import Match
from ..players import PLAYER_KINDS, get_player



def player_names(kinds: Sequence[str]) -> list[str]:
    """Display names: the kind, numbered when a kind appears more than once."""
    counts = Counter(kinds)
    seen: Counter = Counter()
    out = []
    for k in kinds:
        seen[k] += 1
        out.append(f"{k}-{seen[k]}" if counts[k] > 1 else k)
    return out


def parse_kinds(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    if len(kinds) != 3:
        raise RulesError(f"--players needs three comma-separated players, got {text!r}")
    for k in kinds:
        if k not in PLAYER_KINDS:
            raise RulesError(f"unknown player {k!r}; players are {', '.join(PLAYER_KINDS)}")
    return kinds


def play_one(ruleset: Any, kinds: Sequence[str], seed: "int | str", index: int, preset: str | None = None,
             options: dict | None = None) -> MatchRecord:
    """Match ``index`` of the run with ``seed``; its game record."""
    players = [get_player(k, f"{seed}:{index}:{p}", name) for p, (k, name) in
               enumerate(zip(kinds, player_names(kinds)))]
    return Match(ruleset, players, f"{seed}:{index}", preset=preset, options=options).play()


def run(ruleset: Any, kinds: Sequence[str], matches: int, seed: "int | str", preset: str | None = None,
        options: dict | None = None) -> Iterator[MatchRecord]:
    """The records of ``matches`` matches, one at a time."""
    for i in range(matches):
        yield play_one(ruleset, kinds, seed, i, preset, options)


@dataclass
class Summary:
    """Running statistics over finished matches."""

    names: list[str]
    matches: int = 0
    hands: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0, 0])
    shared: int = 0
    wins_by_start: list[int] = field(default_factory=lambda: [0, 0, 0])
    net_by_seat: list[int] = field(default_factory=lambda: [0, 0, 0])
    total_by_player: list[int] = field(default_factory=lambda: [0, 0, 0])
    endings: Counter = field(default_factory=Counter)

    def add(self, record: MatchRecord) -> None:
        res = record["result"]
        if res is None:
            raise RecordError("Summary.add takes finished matches only (the record has no result)")
        self.matches += 1
        first = record["hands"][0]["dealer"]
        for h in record["hands"]:
            self.hands += 1
            for s, name in enumerate(SEAT_NAMES):
                self.net_by_seat[s] += h["nets"][name]
        for p in range(3):
            self.total_by_player[p] += res["totals"][p]
        w = res["winner"]
        if w is None:
            self.shared += 1
        else:
            self.wins[w] += 1
            self.wins_by_start[(w - first) % 3] += 1
        self.endings[res["reason"]] += 1

    def to_json(self) -> dict:
        m = max(self.matches, 1)
        h = max(self.hands, 1)
        return {
            "matches": self.matches,
            "hands": self.hands,
            "mean_hands": round(self.hands / m, 3),
            "win_rate": {n: round(self.wins[p] / m, 4) for p, n in enumerate(self.names)},
            "wins": {n: self.wins[p] for p, n in enumerate(self.names)},
            "shared_or_no_winner": self.shared,
            "win_rate_by_start_seat": {s: round(self.wins_by_start[i] / m, 4) for i, s in enumerate(SEAT_NAMES)},
            "mean_net_by_seat": {s: round(self.net_by_seat[i] / h, 4) for i, s in enumerate(SEAT_NAMES)},
            "mean_total_by_player": {n: round(self.total_by_player[p] / m, 3) for p, n in enumerate(self.names)},
            "endings": dict(sorted(self.endings.items())),
        }


def simulate(ruleset: Any, kinds: Sequence[str], matches: int, seed: "int | str", *,
             preset: str | None = None, options: dict | None = None,
             on_record: Callable[[int, MatchRecord], None] | None = None) -> Summary:
    """Play ``matches`` matches and summarise them; ``on_record(i, record)`` sees each record."""
    if matches < 1:
        raise RulesError(f"--matches must be at least 1, got {matches}")
    summary = Summary(player_names(kinds))
    for i, record in enumerate(run(ruleset, kinds, matches, seed, preset, options)):
        summary.add(record)
        if on_record is not None:
            on_record(i, record)
    return summary


__all__ = ["Summary", "parse_kinds", "play_one", "player_names", "run", "simulate"]
