"""Deal to a specification: exact uniform sampling, rejection only where it must.

The fixed cards and the suit lengths (and the trumps of a seat that plays with its own
hand) are handed to :class:`~.sampling.LayoutSampler`, which draws every layout that
satisfies them with the same probability and without rejection. Points, aces and kings,
the declarer's trumps counted with the widow and an ``accept`` function are tested on
each drawn deal, which is redrawn until it passes, at most ``tries`` times; uniform draws
filtered by a test are uniform over the deals that pass, so the result is exactly
uniform over the deals the spec allows. Specs that cannot be met are refused before any
drawing where arithmetic shows it (cards given twice, lengths that cannot add up to a
hand, more points than the cards can hold), naming the clause.

Seeded: ``Dealer(spec).deals(seed)`` yields the same deals for the same seed, and with no
constraint at all the first deal is ``Deal.random(seed)`` under the same sizes.

>>> deal = deal_matching("length D:S=7+; points D:15+", seed=3)[0]
>>> len(deal["D"].cards_in(0)) >= 7, high_card_points(deal["D"]) >= 15
(True, True)
>>> deal_matching(seed=358)[0] == Deal.random(358)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from ..cards import SUIT_CHARS, Hand, parse_cards
from ..deal import Deal, Seat
from ..errors import NotationError
from .dealspec import HCP, PLACES, DealSpec, DealSpecError, Range, aces_kings, high_card_points
from .dealspec import range_text as _text
from .match import deck_for
from .rules import Ruleset, get_ruleset
from .sampling import Bin, ImpossibleViewError, LayoutSampler

__all__ = ["DEFAULT_TRIES", "Dealer", "NoMatchingDealError", "deal_matching"]

#: Draws allowed per deal before the tested constraints are declared unmet.
DEFAULT_TRIES = 100_000
_OUT = "out"  # the deck's cards that no place receives


class NoMatchingDealError(DealSpecError):
    """No deal met the tested constraints within the allowed number of draws."""


class Dealer:
    """Deals matching ``spec`` under ``rules`` (sizes overridable; ``deck`` for tests and
    teaching positions: the cards in play, others left out)."""

    def __init__(
        self,
        spec: DealSpec | str | None = None,
        *,
        rules: str | Ruleset = "twelve",
        hand_size: int | None = None,
        widow_size: int | None = None,
        deck: Any = None,
        tries: int = DEFAULT_TRIES,
    ) -> None:
        self.spec = _spec_of(spec)
        rs = rules if isinstance(rules, Ruleset) else get_ruleset(rules)
        self.rules = rs
        self.hand_size = rs.hand_size if hand_size is None else hand_size
        self.widow_size = rs.widow_size if widow_size is None else widow_size
        cards = deck_for(rs) if deck is None else parse_cards(deck if isinstance(deck, str) else list(deck))
        self.deck = sorted(cards)
        if isinstance(tries, bool) or not isinstance(tries, int) or tries < 1:
            raise DealSpecError(f"tries must be a positive integer, got {tries!r}")
        self.tries = tries
        self.sizes = {"D": self.hand_size, "E": self.hand_size, "M": self.hand_size, "W": self.widow_size}
        self._check_sizes()
        self.declarer = Seat(rs.declarer).name
        self._checks: list[tuple[str, Callable[[Deal], bool]]] = []
        self._check_held()
        lengths = self._sampled_lengths()
        self._check_counts("points", self.spec.points, HCP)
        self._check_counts("aces-kings", self.spec.aces_kings, {14: 1, 13: 1})
        self._plan_tests()
        self._sampler = self._make_sampler(lengths)

    # --- checks made before any drawing --------------------------------------------------
    def _check_sizes(self) -> None:
        hs, ws = self.hand_size, self.widow_size
        if isinstance(hs, bool) or not isinstance(hs, int) or not 1 <= hs <= 17:
            raise DealSpecError(f"hand size must be 1..17, got {hs!r}")
        if isinstance(ws, bool) or not isinstance(ws, int) or ws < 0:
            raise DealSpecError(f"widow size must be 0 or more, got {ws!r}")
        if 3 * hs + ws > len(self.deck):
            raise DealSpecError(f"{3 * hs + ws} cards needed but the deck has {len(self.deck)}")

    def _check_held(self) -> None:
        deck = Hand(self.deck)
        owner: dict[Any, str] = {}
        for p, hand in self.spec.held.items():
            if self.sizes[p] == 0 and hand:
                raise DealSpecError(f"holds {p}: the widow has no cards under these rules")
            missing = hand - deck
            if missing:
                raise DealSpecError(
                    f"holds {p}: {' '.join(map(str, missing))} not in the {len(self.deck)}-card deck in play"
                )
            if len(hand) > self.sizes[p]:
                raise DealSpecError(f"holds {p}: {len(hand)} cards for a place of {self.sizes[p]}")
            for c in hand:
                if c in owner:
                    raise DealSpecError(f"holds: {c} is given to both {owner[c]} and {p}")
                owner[c] = p

    def _sampled_lengths(self) -> dict[str, dict[int, tuple[int, int]]]:
        """Per place and suit the length range the sampler enforces (trumps of a seat that
        plays its own hand folded in), after checking that the ranges can add up."""
        out: dict[str, dict[int, tuple[int, int]]] = {}
        in_deck = [sum(1 for c in self.deck if c.suit == s) for s in range(4)]
        for p, per in self.spec.lengths.items():
            if self.sizes[p] == 0:
                raise DealSpecError(f"length {p}: the widow has no cards under these rules")
            out[p] = {s: (lo, min(hi, 13) if hi is not None else 13) for s, (lo, hi) in per.items()}
        for p, per in self.spec.trumps.items():
            if self._trumps_with_widow(p):
                continue
            for s, (lo, hi) in per.items():
                top = 13 if hi is None else hi
                old = out.setdefault(p, {}).get(s, (0, 13))
                new = (max(lo, old[0]), min(top, old[1]))
                if new[0] > new[1]:
                    raise DealSpecError(
                        f"trumps {p}:{SUIT_CHARS[s]}={_text((lo, hi))} and length "
                        f"{p}:{SUIT_CHARS[s]}={_text(old)} cannot both hold"
                    )
                out[p][s] = new
        for p, per in out.items():
            size = self.sizes[p]
            held = self.spec.held.get(p, Hand())
            for s, (lo, hi) in per.items():
                have = len(held.cards_in(s))
                if have > hi:
                    raise DealSpecError(
                        f"length {p}:{SUIT_CHARS[s]}={_text((lo, hi))}: holds {p} gives it {have} {_SUIT_WORDS[s]}"
                    )
            low = sum(per.get(s, (0, 13))[0] for s in range(4))
            high = sum(min(per.get(s, (0, 13))[1], in_deck[s]) for s in range(4))
            if low > size or high < size:
                shape = ", ".join(f"{SUIT_CHARS[s]}={_text(per[s])}" for s in sorted(per))
                raise DealSpecError(f"length {p}: {shape} cannot make a place of {size} cards")
        for s in range(4):
            low = sum(per.get(s, (0, 13))[0] for per in out.values())
            if low > in_deck[s]:
                raise DealSpecError(
                    f"length: the least {_SUIT_WORDS[s]} asked add up to {low}, the deck has {in_deck[s]}"
                )
        return out

    def _check_counts(self, clause: str, ranges: Mapping[str, Range], value: dict[int, int]) -> None:
        """Ranges of points (or aces and kings) the fixed and free cards can reach."""
        held_all = Hand().mask
        for h in self.spec.held.values():
            held_all |= h.mask
        free = sorted((value.get(c.rank, 0) for c in self.deck if not (c.bit & held_all)), reverse=True)
        lows = 0
        for p, (lo, hi) in ranges.items():
            held = self.spec.held.get(p, Hand())
            fixed = sum(value.get(c.rank, 0) for c in held)
            k = self.sizes[p] - len(held)
            most = fixed + sum(free[:k])
            least = fixed + sum(free[len(free) - k :]) if k else fixed
            if lo > most or (hi is not None and hi < least):
                raise DealSpecError(
                    f"{clause} {p}:{_text((lo, hi))}: {p} can hold only {least} to {most} with these cards"
                )
            lows += lo
        total = sum(value.get(c.rank, 0) for c in self.deck)
        if lows > total:
            raise DealSpecError(f"{clause}: the least asked add up to {lows}, the deck holds {total}")

    def _trumps_with_widow(self, place: str) -> bool:
        """The declarer takes the widow: his trumps are counted over hand and widow."""
        return place == self.declarer and self.widow_size > 0

    # --- the tests made on every drawn deal --------------------------------------------
    def _plan_tests(self) -> None:
        spec = self.spec
        for p, rng in spec.points.items():
            self._checks.append((f"points {p}:{_text(rng)}", _count_test(p, rng, high_card_points)))
        for p, rng in spec.aces_kings.items():
            self._checks.append((f"aces-kings {p}:{_text(rng)}", _count_test(p, rng, aces_kings)))
        for p, per in spec.trumps.items():
            if not self._trumps_with_widow(p):
                continue
            for s, rng in per.items():
                others = sum(len(h.cards_in(s)) for q, h in self.spec.held.items() if q not in (p, "W"))
                most = min(
                    self.hand_size + self.widow_size, sum(1 for c in self.deck if c.suit == s) - others
                )
                if rng[0] > most:
                    raise DealSpecError(
                        f"trumps {p}:{SUIT_CHARS[s]}={_text(rng)}: {p} and the widow can hold only {most}"
                    )
                self._checks.append((f"trumps {p}:{SUIT_CHARS[s]}={_text(rng)}", _trumps_test(p, s, rng)))
        if spec.accept is not None:
            accept = spec.accept
            self._checks.append(("the accept function", lambda deal: bool(accept(deal))))

    def _make_sampler(self, lengths: dict[str, dict[int, tuple[int, int]]]) -> LayoutSampler | None:
        """The exact sampler, or None when a plain shuffle is the same distribution."""
        if not self.spec.held and not lengths:
            return None
        held = self.spec.held
        unseen = Hand(self.deck)
        for h in held.values():
            unseen = unseen - h
        bins: dict[str, Bin] = {}
        for p in PLACES:
            got = held.get(p, Hand())
            ranges = {
                s: (max(0, lo - len(got.cards_in(s))), hi - len(got.cards_in(s)))
                for s, (lo, hi) in lengths.get(p, {}).items()
            }
            bins[p] = Bin(p, self.sizes[p] - len(got), ranges)
        out = len(self.deck) - 3 * self.hand_size - self.widow_size
        if out:
            bins[_OUT] = Bin(_OUT, out)
        elif sum(1 for p in "DEM" if bins[p].lengths) == 3 and not bins["W"].lengths:
            # The sampler counts over the constrained places but the last; with the small
            # widow as a (trivially) constrained first place and a seat last, its table is
            # a third of the size it would be with three seats counted.
            w = bins["W"]
            bins = {
                "W": Bin("W", w.size, {s: (0, w.size) for s in range(4)}),
                "D": bins["D"],
                "E": bins["E"],
                "M": bins["M"],
            }
        self._order = list(bins)
        try:
            return LayoutSampler(unseen, list(bins.values()))
        except ImpossibleViewError as exc:
            raise DealSpecError(f"holds and length: no deal fits them ({exc})") from None

    # --- drawing -----------------------------------------------------------------------
    def _draw(self, py: random.Random, rng: np.random.Generator | None) -> Deal:
        if self._sampler is None or rng is None:
            cards = list(self.deck)
            py.shuffle(cards)  # as Deal.random does, so an empty spec deals the same
            hs = self.hand_size
            hands = [Hand(cards[i * hs : (i + 1) * hs]) for i in range(3)]
            return Deal(hands, Hand(cards[3 * hs : 3 * hs + self.widow_size]))
        parts = dict(zip(self._order, self._sampler.sample(rng)))
        held = self.spec.held
        places = [parts[p] | held.get(p, Hand()) for p in PLACES]
        return Deal(places[:3], places[3])

    def deals(self, seed: int | str | None = None) -> Iterator[Deal]:
        """Matching deals, endlessly; the same seed gives the same sequence.

        Raises :class:`NoMatchingDealError` when ``tries`` draws in a row all fail a test.
        """
        py = random.Random(seed)
        rng = np.random.default_rng(py.getrandbits(128)) if self._sampler is not None else None
        while True:
            yield self._one(py, rng)

    def _one(self, py: random.Random, rng: np.random.Generator | None) -> Deal:
        passed = [0] * len(self._checks)
        for _ in range(self.tries):
            deal = self._draw(py, rng)
            ok = True
            for i, (_, test) in enumerate(self._checks):
                if test(deal):
                    passed[i] += 1
                else:
                    ok = False
            if ok:
                return deal
        raise NoMatchingDealError(self._why_none(passed))

    def _why_none(self, passed: list[int]) -> str:
        never = [label for (label, _), n in zip(self._checks, passed) if n == 0]
        tries = f"{self.tries:,}"
        if never:
            return f"no deal in {tries} draws has {' nor '.join(never)}; loosen it or raise the tries"
        labels = ", ".join(label for label, _ in self._checks)
        return f"no deal in {tries} draws meets {labels} together (each alone was met); loosen them or raise the tries"

    def deal(self, seed: int | str | None = None) -> Deal:
        """One matching deal (the first of :meth:`deals`)."""
        return next(self.deals(seed))

    def count_layouts(self) -> int:
        """How many deals the held cards and lengths allow (before the tested constraints)."""
        if self._sampler is not None:
            return self._sampler.count()
        from math import comb

        n, total = len(self.deck), 1
        for size in (*self.sizes.values(), len(self.deck) - 3 * self.hand_size - self.widow_size):
            total *= comb(n, size)
            n -= size
        return total


_SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


def _place_hand(deal: Deal, place: str) -> Hand:
    return deal.widow if place == "W" else deal.hands[Seat[place]]


def _count_test(place: str, rng: Range, measure: Callable[[Hand], int]) -> Callable[[Deal], bool]:
    lo, hi = rng

    def test(deal: Deal) -> bool:
        v = measure(_place_hand(deal, place))
        return lo <= v and (hi is None or v <= hi)

    return test


def _trumps_test(place: str, suit: int, rng: Range) -> Callable[[Deal], bool]:
    lo, hi = rng

    def test(deal: Deal) -> bool:
        v = len((deal.hands[Seat[place]] | deal.widow).cards_in(suit))
        return lo <= v and (hi is None or v <= hi)

    return test


def _spec_of(spec: DealSpec | str | None) -> DealSpec:
    if spec is None:
        return DealSpec()
    if isinstance(spec, DealSpec):
        return spec
    if isinstance(spec, str):
        try:
            return DealSpec.parse(spec)
        except NotationError as exc:
            raise DealSpecError(str(exc)) from None
    raise DealSpecError(f"a deal spec is a DealSpec or its notation, got {type(spec).__name__}")


def deal_matching(
    spec: DealSpec | str | None = None,
    *,
    count: int = 1,
    seed: int | str | None = None,
    rules: str | Ruleset = "twelve",
    tries: int = DEFAULT_TRIES,
    **constraints: Any,
) -> list[Deal]:
    """``count`` deals matching ``spec`` (a :class:`DealSpec` or its notation) or the
    keyword constraints of :meth:`DealSpec.build` (``held``, ``lengths``, ``points``,
    ``aces_kings``, ``trumps``, ``accept``), under the ``rules`` preset's deck and sizes.

    The same seed gives the same deals; the first ``k`` of ``count`` are the ``k`` deals
    asked with ``count=k``.
    """
    if constraints:
        if spec is not None:
            raise DealSpecError("give a spec or keyword constraints, not both")
        spec = DealSpec.build(**constraints)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise DealSpecError(f"count must be a non-negative integer, got {count!r}")
    stream = Dealer(spec, rules=rules, tries=tries).deals(seed)
    return [next(stream) for _ in range(count)]
