"""Many seeded matches and their statistics (what ``sm358 simulate`` reports).

Match ``i`` of a run with seed ``s`` uses the match seed ``"s:i"`` and fresh players
seeded ``"s:i:p"`` (``p`` the player's place in the ``kinds`` list), so any single match
of a run can be replayed on its own.

**Fair comparisons.** The match seed alone decides the cards (every deal and the first
dealer's chair), whoever sits where. Under a *seating plan* other than ``fixed`` each match
seed is played once per seating of the players: ``rotate`` moves every player through the
three chairs (each player deals first once, sits left of the same neighbour), ``permute``
plays all six orders (neighbours too change). As in duplicate bridge, the luck of the
cards then falls on every player alike. The default is ``rotate`` when the players
differ, ``fixed`` when all three are the same kind.

**Statistics.** The unit of sampling is one *deal set*: a match seed with all its
seatings. Every figure is a ratio of sums over deal sets with a 95% interval from
:mod:`solver.analysis.stats`, so correlated hands (one match, one deal set) are not
counted as independent evidence.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..deal import SEAT_NAMES
from ..errors import RecordError, RulesError
from ..game.match import Match
from ..game.records import MatchRecord
from ..players import PLAYER_KINDS, get_player
from .stats import Estimate, ratio_estimate

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

EXCHANGE_CLIP = 4
"""Cards taken in one exchange are counted up to this (4 stands for 4 or more): larger
swings are rare, and their own categories would hold too few hands to say anything."""
SEATING_PLANS = ("fixed", "rotate", "permute")
MAX_MATCHES = 100_000
"""The most deal sets one run accepts: such a run takes hours; a larger one is better split
by seed."""


def player_names(kinds: Sequence[str]) -> list[str]:
    """Display names: the kind, numbered when a kind appears more than once."""
    counts = Counter(kinds)
    seen: Counter[str] = Counter()
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


def default_seating(kinds: Sequence[str]) -> str:
    """``rotate`` when the players differ (luck must cancel), ``fixed`` when they are alike."""
    return "fixed" if len(set(kinds)) == 1 else "rotate"


def seatings(plan: str) -> list[tuple[int, int, int]]:
    """The seatings of a plan: ``chairs[c]`` is the player sitting in chair ``c``."""
    if plan == "fixed":
        return [(0, 1, 2)]
    if plan == "rotate":
        return [(0, 1, 2), (2, 0, 1), (1, 2, 0)]
    if plan == "permute":
        return [tuple(p) for p in itertools.permutations(range(3))]  # type: ignore[misc]
    raise RulesError(f"unknown seating {plan!r}; seatings are {', '.join(SEATING_PLANS)}")


def check_matches(matches: int) -> None:
    if isinstance(matches, bool) or not isinstance(matches, int) or not 1 <= matches <= MAX_MATCHES:
        raise RulesError(f"--matches must be at least 1 and at most {MAX_MATCHES:,}, got {matches}")


def play_one(
    ruleset: Any,
    kinds: Sequence[str],
    seed: int | str,
    index: int,
    preset: str | None = None,
    options: dict[str, Any] | None = None,
    chairs: Sequence[int] = (0, 1, 2),
) -> MatchRecord:
    """Match ``index`` of the run with ``seed``, players seated as ``chairs``; its game record."""
    names = player_names(kinds)
    players = [get_player(kinds[p], f"{seed}:{index}:{p}", names[p]) for p in chairs]
    return Match(ruleset, players, f"{seed}:{index}", preset=preset, options=options).play()


def run(
    ruleset: Any,
    kinds: Sequence[str],
    matches: int,
    seed: int | str,
    preset: str | None = None,
    options: dict[str, Any] | None = None,
) -> Iterator[MatchRecord]:
    """The records of ``matches`` matches in fixed seating, one at a time."""
    for i in range(matches):
        yield play_one(ruleset, kinds, seed, i, preset, options)


def _group_counts(played: Sequence[tuple[Sequence[int], MatchRecord]]) -> Counter[str]:
    """The sums one deal set contributes to every statistic (keys name the statistic)."""
    g: Counter[str] = Counter()
    for chairs, record in played:
        res = record["result"]
        if res is None:
            raise RecordError("a summary takes finished matches only (the record has no result)")
        g["matches"] += 1
        hands = record["hands"]
        g["hands"] += len(hands)
        first = hands[0]["dealer"]
        w = res["winner"]
        if w is None:
            g["shared"] += 1
        else:
            g[f"win/{chairs[w]}"] += 1
            g[f"startwin/{SEAT_NAMES[(w - first) % 3]}"] += 1
        for c in range(3):
            g[f"total/{chairs[c]}"] += res["totals"][c]
        prev_net_of_chair: list[int] | None = None
        for h in hands:
            dealer = h["dealer"]
            nets = h["nets"]
            chair_net = [0, 0, 0]
            for s, seat in enumerate(SEAT_NAMES):
                chair = (dealer + s) % 3
                chair_net[chair] = nets[seat]
                g[f"seatnet/{seat}"] += nets[seat]
                g[f"net/{chairs[chair]}"] += nets[seat]
            decl = h["declaration"]
            mode = decl["mode"]
            made = int(nets[decl["declarer"]] >= 0)
            g["target/made"] += made
            g[f"mode/{mode}/n"] += 1
            g[f"mode/{mode}/made"] += made
            if prev_net_of_chair is not None:
                received = Counter(t["to"] for t in h.get("exchange", []))
                for s, seat in enumerate(SEAT_NAMES):
                    chair = (dealer + s) % 3
                    k = received[seat]
                    signed = min(k, EXCHANGE_CLIP) if prev_net_of_chair[chair] > 0 else -min(k, EXCHANGE_CLIP)
                    g[f"xchg/{signed}/n"] += 1
                    g[f"xchg/{signed}/net"] += nets[seat]
            prev_net_of_chair = chair_net
    return g


@dataclass
class Summary:
    """Statistics over finished deal sets, each figure an :class:`Estimate` with its interval.

    ``partial`` is true when the run was interrupted: the figures cover the deal sets that
    were complete by then (a deal set cut short would break the balance of the seatings).
    """

    names: list[str]
    seating: str = "fixed"
    groups: list[Counter[str]] = field(default_factory=list)
    endings: Counter[str] = field(default_factory=Counter)
    partial: bool = False
    requested: int = 0

    # --- gathering -------------------------------------------------------------------------
    def add_group(self, played: Sequence[tuple[Sequence[int], MatchRecord]]) -> None:
        """Add one deal set: its records, each with the seating it was played in."""
        self.groups.append(_group_counts(played))
        for _, record in played:
            result = record["result"]
            assert result is not None  # checked by _group_counts
            self.endings[result["reason"]] += 1

    def add(self, record: MatchRecord) -> None:
        """Add one match played in fixed seating as a deal set of its own."""
        self.add_group([((0, 1, 2), record)])

    # --- raw counts ------------------------------------------------------------------------
    def _column(self, key: str) -> np.ndarray:
        return np.array([g[key] for g in self.groups], dtype=float)

    def _total(self, key: str) -> int:
        return int(sum(g[key] for g in self.groups))

    @property
    def deal_sets(self) -> int:
        return len(self.groups)

    @property
    def matches(self) -> int:
        return self._total("matches")

    @property
    def hands(self) -> int:
        return self._total("hands")

    @property
    def wins(self) -> list[int]:
        return [self._total(f"win/{p}") for p in range(3)]

    @property
    def shared(self) -> int:
        return self._total("shared")

    def _keys(self, prefix: str) -> list[str]:
        return sorted({k.split("/")[1] for g in self.groups for k in g if k.startswith(prefix + "/")})

    def _ratio(self, num: str, den: str, rate: bool = False) -> Estimate:
        return ratio_estimate(self._column(num), self._column(den), rate=rate)

    # --- the statistics --------------------------------------------------------------------
    def win_rate(self) -> dict[str, Estimate]:
        return {n: self._ratio(f"win/{p}", "matches", rate=True) for p, n in enumerate(self.names)}

    def win_rate_by_start_seat(self) -> dict[str, Estimate]:
        return {s: self._ratio(f"startwin/{s}", "matches", rate=True) for s in SEAT_NAMES}

    def mean_net_by_player(self) -> dict[str, Estimate]:
        """Mean net per hand (tricks over or under target) of each player, wherever seated."""
        return {n: self._ratio(f"net/{p}", "hands") for p, n in enumerate(self.names)}

    def mean_net_by_seat(self) -> dict[str, Estimate]:
        return {s: self._ratio(f"seatnet/{s}", "hands") for s in SEAT_NAMES}

    def mean_total_by_player(self) -> dict[str, Estimate]:
        return {n: self._ratio(f"total/{p}", "matches") for p, n in enumerate(self.names)}

    def target_rate(self) -> Estimate:
        """How often the declarer (the 8 seat) reaches his target."""
        return self._ratio("target/made", "hands", rate=True)

    def modes(self) -> dict[str, dict[str, Estimate]]:
        """Per declared mode: its share of the hands and how often the declarer made it."""
        return {
            m: {
                "share": self._ratio(f"mode/{m}/n", "hands", rate=True),
                "made": self._ratio(f"mode/{m}/made", f"mode/{m}/n", rate=True),
            }
            for m in self._keys("mode")
        }

    def exchange_value(self) -> dict[int, Estimate]:
        """Mean net of a hand by the cards a player took in its exchange (negative: gave up).

        A player up in the previous hand takes cards; one down gives them. The slope of
        this curve is what one card of the snowball is worth in tricks. Counts beyond
        :data:`EXCHANGE_CLIP` are pooled with it.
        """
        keys = sorted(int(k) for k in self._keys("xchg"))
        return {k: self._ratio(f"xchg/{k}/net", f"xchg/{k}/n") for k in keys}

    def exchange_counts(self) -> dict[int, int]:
        return {int(k): self._total(f"xchg/{k}/n") for k in self._keys("xchg")}

    def match_length(self) -> Estimate:
        """Hands per match."""
        return self._ratio("hands", "matches")

    # --- output ----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        def js(d: Mapping[Any, Estimate]) -> dict[str, dict[str, float | str | None]]:
            return {str(k): v.to_json() for k, v in d.items()}

        return {
            "partial": self.partial,
            "seating": self.seating,
            "deal_sets": self.deal_sets,
            "matches": self.matches,
            "hands": self.hands,
            "wins": {n: self.wins[p] for p, n in enumerate(self.names)},
            "shared_or_no_winner": self.shared,
            "win_rate": js(self.win_rate()),
            "win_rate_by_start_seat": js(self.win_rate_by_start_seat()),
            "mean_net_by_player": js(self.mean_net_by_player()),
            "mean_net_by_seat": js(self.mean_net_by_seat()),
            "mean_total_by_player": js(self.mean_total_by_player()),
            "declarer_made_target": self.target_rate().to_json(),
            "modes": {m: {k: e.to_json() for k, e in v.items()} for m, v in self.modes().items()},
            "exchange_value": js(self.exchange_value()),
            "match_length": self.match_length().to_json(),
            "endings": dict(sorted(self.endings.items())),
        }

    def rows(self) -> list[dict[str, Any]]:
        """One row per figure: statistic, key (player, seat, mode...), value, low, high, units."""
        out = []

        def add(stat: str, key: Any, e: Estimate) -> None:
            out.append(
                {
                    "statistic": stat,
                    "key": str(key),
                    "value": e.value,
                    "low": e.low,
                    "high": e.high,
                    "units": e.units,
                }
            )

        for stat, d in (
            ("win_rate", self.win_rate()),
            ("win_rate_by_start_seat", self.win_rate_by_start_seat()),
            ("mean_net_by_player", self.mean_net_by_player()),
            ("mean_net_by_seat", self.mean_net_by_seat()),
            ("mean_total_by_player", self.mean_total_by_player()),
            ("exchange_value", self.exchange_value()),
        ):
            for k, e in d.items():
                add(stat, k, e)
        add("declarer_made_target", "", self.target_rate())
        for m, v in self.modes().items():
            add("mode_share", m, v["share"])
            add("mode_made", m, v["made"])
        add("match_length", "", self.match_length())
        return out

    def to_frame(self) -> pd.DataFrame:
        """The statistics as a pandas DataFrame, one row per figure with its 95% interval."""
        import pandas as pd

        return pd.DataFrame(self.rows(), columns=["statistic", "key", "value", "low", "high", "units"])

    def _repr_html_(self) -> str:
        head = (
            f"<p>{self.deal_sets} deal sets, {self.matches} matches ({self.seating} seating), "
            f"{self.hands} hands{' — <b>partial</b>' if self.partial else ''}; 95% intervals</p>"
        )
        return head + str(self.to_frame().to_html(index=False, float_format=lambda x: f"{x:.3f}"))


def simulate(
    ruleset: Any,
    kinds: Sequence[str],
    matches: int,
    seed: int | str,
    *,
    preset: str | None = None,
    options: dict[str, Any] | None = None,
    seating: str | None = None,
    on_record: Callable[[int, int, MatchRecord], None] | None = None,
) -> Summary:
    """Play ``matches`` deal sets (each once per seating) and summarise them.

    ``on_record(i, k, record)`` sees the record of deal set ``i`` in seating ``k``.
    Ctrl-C (KeyboardInterrupt) stops the run: the summary of the deal sets finished so far
    comes back with ``partial`` set.
    """
    check_matches(matches)
    plan = seating or default_seating(kinds)
    plan_seatings = seatings(plan)
    summary = Summary(player_names(kinds), seating=plan, requested=matches)
    try:
        for i in range(matches):
            played = []
            for k, chairs in enumerate(plan_seatings):
                record = play_one(ruleset, kinds, seed, i, preset, options, chairs)
                played.append((chairs, record))
                if on_record is not None:
                    on_record(i, k, record)
            summary.add_group(played)
    except KeyboardInterrupt:
        summary.partial = True
    return summary


__all__ = [
    "MAX_MATCHES",
    "SEATING_PLANS",
    "Summary",
    "check_matches",
    "default_seating",
    "parse_kinds",
    "play_one",
    "player_names",
    "run",
    "seatings",
    "simulate",
]
