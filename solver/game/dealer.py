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
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..cards import SUIT_CHARS, Hand, parse_cards
from ..deal import Deal, Seat
from ..errors import NotationError
from ..inputs import check_seed
from .dealcheck import Table, check_counts, check_held, check_sizes, check_widow_trumps, sampled_lengths
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
        check_sizes(self.hand_size, self.widow_size, len(self.deck))
        self.declarer = Seat(rs.declarer).name
        self.table = Table(self.deck, self.sizes, self.declarer if self.widow_size > 0 else None)
        check_held(self.spec, self.table)
        lengths = sampled_lengths(self.spec, self.table)
        check_counts("points", self.spec.points, self.spec, self.table, HCP)
        check_counts("aces-kings", self.spec.aces_kings, self.spec, self.table, {14: 1, 13: 1})
        self._checks: list[tuple[str, Callable[[Deal], bool]]] = []
        self._plan_tests()
        self._sampler = self._make_sampler(lengths)

    # --- the tests made on every drawn deal --------------------------------------------
    def _plan_tests(self) -> None:
        spec = self.spec
        for p, rng in spec.points.items():
            self._checks.append((f"points {p}:{_text(rng)}", _count_test(p, rng, high_card_points)))
        for p, rng in spec.aces_kings.items():
            self._checks.append((f"aces-kings {p}:{_text(rng)}", _count_test(p, rng, aces_kings)))
        for p, per in spec.trumps.items():
            if p != self.table.widow_seat:
                continue  # a length of the hand, drawn exactly by the sampler
            for s, rng in per.items():
                check_widow_trumps(spec, self.table, p, s, rng)
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
        if seed is not None:
            check_seed(seed, DealSpecError)
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
