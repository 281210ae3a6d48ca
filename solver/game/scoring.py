"""Scoring: nets per hand (MT/misère included), chips, when a match is over, and tie-breaks.

Everything here is a pure function of the finished hands, so the match loop, the record
reader and the tests all judge a match the same way. Hands are described by
:class:`HandResult` — seat-indexed data plus the dealer's player index, which maps seats
to players (seat E of a hand dealt by player d is player ``(d + 1) % 3``).

>>> from solver.game.rules import get_ruleset
>>> hand_nets((9, 4, 3), get_ruleset("british"))
(1, -1, 0)
>>> hand_nets((2, 6, 8), get_ruleset("hungarian"), "MT")   # maxima 8 / 3 / 5
(6, -3, -3)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..deal import Seat
from ..errors import RulesError
from ..modes import Mode
from .rules import Ruleset

Triple = tuple[int, int, int]


@dataclass(frozen=True)
class HandResult:
    """One finished hand as scoring needs it.

    ``dealer`` is a player index (0..2); ``mode`` the declared mode (``"S"`` .. ``"C"``,
    ``"N"``, ``"MT"``, ``"miz"``); ``tricks`` by seat D, E, M; ``trick_winners`` the seat
    that won each trick in order (only the 002 tie-break chain needs it).
    """

    dealer: int
    mode: Mode | str
    tricks: Triple
    trick_winners: tuple[Seat, ...] = ()

    def player(self, seat: Seat | int) -> int:
        """The player index sitting at ``seat`` in this hand."""
        return (self.dealer + int(seat)) % 3

    def seat_of(self, player: int) -> Seat:
        return Seat((player - self.dealer) % 3)

    def nets(self, ruleset: Ruleset) -> Triple:
        """Nets by seat."""
        return hand_nets(self.tricks, ruleset, self.mode)

    def points_by_player(self, ruleset: Ruleset) -> Triple:
        """What each player scores in this hand (nets, or chips with the chips option)."""
        pts = hand_points(self.nets(ruleset), ruleset)
        return by_player(pts, self.dealer)


def by_player(values_by_seat: Sequence[int], dealer: int) -> Triple:
    """Seat-indexed values -> player-indexed, for a hand dealt by player ``dealer``."""
    out = [0, 0, 0]
    for seat in range(3):
        out[(dealer + seat) % 3] = values_by_seat[seat]
    return (out[0], out[1], out[2])


def hand_nets(tricks: Sequence[int], ruleset: Ruleset, mode: Mode | str | None = None) -> Triple:
    """Each seat's net for the hand: tricks - target, or in MT/miz maximum - tricks.

    In MT (004) and miz the targets become maxima and swap ends (the 8-seat may take at
    most 3, the 3-seat at most 8); each trick above the maximum costs 1, each below earns 1.
    The nets always sum to zero because the targets sum to the tricks of a hand.
    """
    t = tuple(tricks)
    if len(t) != 3 or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in t):
        raise RulesError(f"tricks must be three whole numbers >= 0 (D, E, M), got {tricks!r}")
    if sum(t) != ruleset.tricks_per_hand:
        raise RulesError(f"tricks {t} add up to {sum(t)}, but a hand has {ruleset.tricks_per_hand} tricks")
    try:
        minimising = mode is not None and Mode(mode).minimising
    except ValueError:
        raise RulesError(f"unknown mode {mode!r}; modes are {' '.join(m.value for m in Mode)}") from None
    if minimising:
        nets = [ruleset.target_of(s, mode) - t[s] for s in range(3)]
    else:
        nets = [t[s] - ruleset.targets[s] for s in range(3)]
    return (nets[0], nets[1], nets[2])


def hand_chips(nets: Sequence[int]) -> Triple:
    """000's stakes: each overtrick earns 1 chip from every opponent who was down.

    >>> hand_chips((3, -1, -2))
    (6, -3, -3)
    """
    n = tuple(nets)
    downs = [s for s in range(3) if n[s] < 0]
    surplus = sum(x for x in n if x > 0)
    out = [n[s] * len(downs) if n[s] > 0 else (-surplus if n[s] < 0 else 0) for s in range(3)]
    return (out[0], out[1], out[2])


def hand_points(nets: Sequence[int], ruleset: Ruleset) -> Triple:
    """The score of a hand by seat: chips under the chips option, otherwise the nets."""
    n = tuple(nets)
    return hand_chips(n) if ruleset.chips else (n[0], n[1], n[2])


def totals(hands: Iterable[HandResult], ruleset: Ruleset) -> Triple:
    """Cumulative score by player."""
    tot = [0, 0, 0]
    for h in hands:
        for p, v in enumerate(h.points_by_player(ruleset)):
            tot[p] += v
    return (tot[0], tot[1], tot[2])


def used_modes(hands: Iterable[HandResult], ruleset: Ruleset, player: int) -> list[Mode | str]:
    """The modes ``player`` has named as declarer so far (for the hungarian-18 schedule)."""
    return [h.mode for h in hands if h.player(ruleset.declarer) == player]


def check_modes(hands: Sequence[HandResult], ruleset: Ruleset) -> None:
    """Every hand's mode is allowed; under hungarian-18 no game leader repeats a mode."""
    seen: dict[int, set[str]] = {0: set(), 1: set(), 2: set()}
    for i, h in enumerate(hands, 1):
        if h.mode not in ruleset.modes:
            raise RulesError(
                f"hand {i}: mode {h.mode!r} is not allowed (modes: {' '.join(ruleset.mode_order)})"
            )
        leader = h.player(ruleset.declarer)
        if ruleset.match_end == "hungarian-18":
            if h.mode in seen[leader]:
                raise RulesError(f"hand {i}: player {leader} names {h.mode} a second time as game leader")
            seen[leader].add(h.mode)


@dataclass(frozen=True)
class MatchEnd:
    """The verdict after some hands.

    ``reason`` is a stable code (``"twelve-tricks"``, ``"round-the-table"``, ``"race"``,
    ``"hands-limit"``, ``"schedule-complete"``, or ``""`` while the match goes on);
    ``detail`` says it in words; ``winner`` is a player index, or ``None`` for a shared
    win (a tie with no tie-break) or an unfinished match; ``tied`` lists the players
    still tied when a tie-break hand is being played.
    """

    over: bool
    reason: str
    winner: int | None
    totals: Triple
    detail: str = ""
    tied: tuple[int, ...] = ()


def break_tie(players: Sequence[int], hands: Sequence[HandResult], ruleset: Ruleset) -> int | None:
    """002's chain among tied ``players``; ``None`` when the chain cannot decide.

    1. the most points in the last hand; 2. (all three still level) whoever won the last
    trick of the last hand; 3. (two level) whoever won a trick most recently (the 16th,
    then the 15th, ...). **Decision**: steps 2 and 3 are one scan backwards over the
    tricks, continuing into earlier hands if neither player won a trick in the last.
    """
    cands = sorted(set(players))
    if len(cands) <= 1:
        return cands[0] if cands else None
    if not hands:
        return None
    last = hands[-1].points_by_player(ruleset)
    best = max(last[p] for p in cands)
    cands = [p for p in cands if last[p] == best]
    if len(cands) == 1:
        return cands[0]
    for h in reversed(hands):
        if not h.trick_winners and sum(h.tricks) != 0:
            raise RulesError("the 002 tie-break needs the winner of every trick of the hand")
        for seat in reversed(h.trick_winners):
            if h.player(seat) in cands:
                return h.player(seat)
    return None


def _names(players: Sequence[int]) -> str:
    return " and ".join(f"player {p}" for p in players)


class _Judge:
    """Applies one ruleset's end rules to a growing list of hands."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.r = ruleset
        self.tot = [0, 0, 0]
        self.contenders: list[int] | None = None  # set once a tie-break hand is needed

    def by_totals(self, hands: Sequence[HandResult], reason: str, detail: str) -> MatchEnd:
        """Highest total wins; a tie goes to the tie-break rule."""
        tot = (self.tot[0], self.tot[1], self.tot[2])
        pool = self.contenders if self.contenders is not None else [0, 1, 2]
        best = max(tot[p] for p in pool)
        tied = [p for p in pool if tot[p] == best]
        if len(tied) == 1:
            return MatchEnd(True, reason, tied[0], tot, detail)
        if self.r.tie_break == "chain-002":
            w = break_tie(tied, hands, self.r)
            if w is not None:
                return MatchEnd(
                    True, reason, w, tot, f"{detail}; {_names(tied)} tied, 002's tie-break chain decides"
                )
        if self.r.tie_break == "tie-break-hand":
            self.contenders = tied
            return MatchEnd(
                False, "", None, tot, f"{detail}; {_names(tied)} tied: a tie-break hand follows", tuple(tied)
            )
        return MatchEnd(True, reason, None, tot, f"{detail}; {_names(tied)} tied and share the win")

    def after(self, hands: Sequence[HandResult]) -> MatchEnd:
        """The verdict once ``hands`` (all of them) are played."""
        r, k = self.r, len(hands)
        for p, v in enumerate(hands[-1].points_by_player(r)):
            self.tot[p] += v
        tot = (self.tot[0], self.tot[1], self.tot[2])
        if self.contenders is not None:
            return self.by_totals(hands, "hands-limit", "after the tie-break hand")
        end_rule = self._END_RULES.get(r.match_end)
        verdict = end_rule(self, hands, tot) if end_rule is not None else None
        if verdict is not None:
            return verdict
        if r.hands_limit is not None and k >= r.hands_limit and r.match_end != "hungarian-18":
            return self.by_totals(hands, "hands-limit", f"the limit of {r.hands_limit} hands was reached")
        return MatchEnd(False, "", None, tot)

    # --- each match end's own rule (None: not over by it) --------------------------------
    def _first_to_12(self, hands: Sequence[HandResult], tot: tuple[int, int, int]) -> MatchEnd | None:
        r, k, h = self.r, len(hands), hands[-1]
        big = [s for s in range(3) if h.tricks[s] >= r.win_tricks]
        if not big:
            return None
        s = max(big, key=lambda s: h.tricks[s])
        return MatchEnd(
            True,
            "twelve-tricks",
            h.player(s),
            tot,
            f"player {h.player(s)} took {h.tricks[s]} tricks in hand {k}",
        )

    def _race(self, hands: Sequence[HandResult], tot: tuple[int, int, int]) -> MatchEnd | None:
        r, k = self.r, len(hands)
        hit = [
            p for p in range(3) if tot[p] >= r.race_target or (r.race_both_ways and tot[p] <= -r.race_target)
        ]
        if not hit:
            return None
        reached = f"±{r.race_target}" if r.race_both_ways else f"+{r.race_target}"
        return self.by_totals(hands, "race", f"{_names(hit)} reached {reached} after hand {k}")

    def _round_the_table(self, hands: Sequence[HandResult], tot: tuple[int, int, int]) -> MatchEnd | None:
        r, k, h = self.r, len(hands), hands[-1]
        if k <= 3:
            return None
        won = h.nets(r)[Seat.D] > 0 if r.round_strict else tot[h.dealer] > 0
        if not won:
            return None
        how = "up on his own deal" if r.round_strict else "up overall after his own deal"
        return MatchEnd(
            True, "round-the-table", h.dealer, tot, f"player {h.dealer} dealt hand {k} and was {how}"
        )

    def _schedule(self, hands: Sequence[HandResult], tot: tuple[int, int, int]) -> MatchEnd | None:
        if len(hands) != 18:
            return None
        return self.by_totals(hands, "schedule-complete", "all 18 deals played")

    _END_RULES: dict[str, Callable[[_Judge, Sequence[HandResult], tuple[int, int, int]], MatchEnd | None]] = {
        "first-to-12": _first_to_12,
        "race": _race,
        "round-the-table": _round_the_table,
        "hungarian-18": _schedule,
    }


def match_over(hands: Sequence[HandResult], ruleset: Ruleset) -> MatchEnd:
    """Whether the match is over after ``hands`` (in the order played), who won and why.

    Checks the history too: if the match was already over before the last hand, or a
    mode breaks the hungarian-18 schedule, a :class:`RulesError` names the hand.
    """
    check_modes(hands, ruleset)
    judge = _Judge(ruleset)
    verdict = MatchEnd(False, "", None, (0, 0, 0))
    for k in range(1, len(hands) + 1):
        if verdict.over:
            raise RulesError(
                f"the match was already over after hand {k - 1} ({verdict.detail}); hand {k} is one too many"
            )
        verdict = judge.after(hands[:k])
    return verdict


def leader_by_total(totals: Sequence[int]) -> int | None:
    """The player with the highest total, or None on a tie."""
    best = max(totals)
    top = [p for p in range(3) if totals[p] == best]
    return top[0] if len(top) == 1 else None


__all__ = [
    "HandResult",
    "MatchEnd",
    "break_tie",
    "by_player",
    "check_modes",
    "hand_chips",
    "hand_nets",
    "hand_points",
    "leader_by_total",
    "match_over",
    "totals",
    "used_modes",
]
