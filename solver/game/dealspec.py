"""What a constrained deal must satisfy, and its one-line notation.

A :class:`DealSpec` says, per place (the seats ``D E M`` and the widow ``W``): cards it
holds (a few, or the whole hand), a length range per suit, a range of high-card points
(A=4 K=3 Q=2 J=1), a range of aces and kings counted together, and per seat a least
number of trumps in a named trump suit (the declarer's counted with the widow he takes).
A Python ``accept(deal) -> bool`` adds anything else. The dealer (:mod:`.dealer`) turns a
spec into deals.

The notation is the one of ``sm358 deal``'s options, clauses separated by ``;``, each
an option name and its value, so a study records its spec as text and a user can paste
the same words on either command:

>>> spec = DealSpec.parse("holds D:SA,SK; length E:S=5-8; points D:12+; trumps D:H=6")
>>> spec.to_string()
'holds D:SA,SK; length E:S=5-8; points D:12+; trumps D:H=6+'
>>> DealSpec.parse(spec.to_string()) == spec
True

Ranges are ``N`` (exactly N), ``LO-HI`` or ``LO+`` (at least LO); ``trumps`` reads a bare
``N`` as "at least N", as in "at least six trumps".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import SUIT_CHARS, Hand, parse_cards
from ..deal import Deal
from ..errors import NotationError, SolverError

__all__ = [
    "CLAUSES",
    "HCP",
    "PLACES",
    "DealSpec",
    "DealSpecError",
    "aces_kings",
    "high_card_points",
    "parse_range",
    "range_text",
]

#: Where cards go: the three seats and the widow.
PLACES = "DEMW"
#: High-card points by rank: A=4 K=3 Q=2 J=1.
HCP = {14: 4, 13: 3, 12: 2, 11: 1}
#: The clause names, in the order a spec is written.
CLAUSES = ("holds", "length", "points", "aces-kings", "trumps")

Range = tuple[int, "int | None"]  # inclusive; None: no upper bound


class DealSpecError(SolverError):
    """A deal specification that is malformed or that no deal satisfies."""


def high_card_points(hand: Hand) -> int:
    """A=4 K=3 Q=2 J=1, summed over the hand."""
    return sum(HCP.get(c.rank, 0) for c in hand)


def aces_kings(hand: Hand) -> int:
    """How many aces and kings the hand holds."""
    return sum(1 for c in hand if c.rank >= 13)


def parse_range(text: str, *, at_least: bool = False) -> Range:
    """``N``, ``LO-HI`` or ``LO+``; with ``at_least`` a bare ``N`` means ``N+``."""
    t = text.strip()
    lo, dash, hi = t[:-1].partition("+") if t.endswith("+") else t.partition("-")
    try:
        low = int(lo)
        high = None if t.endswith("+") or (at_least and not dash) else int(hi) if dash else low
    except ValueError:
        raise NotationError(f"range {t!r}: expected N, LO-HI or LO+") from None
    if high is not None and low > high:
        raise NotationError(f"range {t!r} is empty ({low} > {high})")
    return low, high


def _check_range(rng: Range, what: str) -> Range:
    lo, hi = rng
    if lo < 0 or (hi is not None and hi < lo):
        raise DealSpecError(f"{what}: range {range_text(rng)} is empty or negative")
    return rng


def range_text(rng: Range) -> str:
    """A range as written: ``5``, ``5-8`` or ``5+``."""
    lo, hi = rng
    if hi is None:
        return f"{lo}+"
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _place(text: Any, clause: str, item: str, places: str = PLACES) -> str:
    p = str(text).strip().upper()
    if len(p) != 1 or p not in places:
        names = " ".join(places)
        raise DealSpecError(f"{clause} {item!r}: {str(text).strip()!r} is not one of {names}")
    return p


def _suit(text: Any, clause: str, item: str) -> int:
    """A suit letter (or, from Python, its index 0..3 or a ``Suit``)."""
    if isinstance(text, int) and not isinstance(text, bool) and 0 <= text < 4:
        return int(text)
    s = str(text).strip().upper()
    if s == "N":
        raise DealSpecError(f"{clause} {item!r}: no trump has no trumps; name a suit S H D C")
    if len(s) != 1 or s not in SUIT_CHARS:
        raise DealSpecError(f"{clause} {item!r}: {s!r} is not a suit S H D C")
    return SUIT_CHARS.index(s)


def _hand_of(value: Any, clause: str) -> Hand:
    """Cards as a list (``SA,HK`` or ``SA HK``), hand notation (``AK.Q..``) or a Hand."""
    if isinstance(value, Hand):
        return value
    try:
        if isinstance(value, str) and "." in value:
            return Hand.parse(value)
        return Hand(parse_cards(value))
    except NotationError as exc:
        raise DealSpecError(f"{clause}: {exc}") from None


@dataclass(frozen=True)
class DealSpec:
    """Constraints on a deal; every mapping is keyed by place (``D E M W``).

    ``held`` the cards a place holds; ``lengths`` per suit index (0..3) a range of
    lengths; ``points`` and ``aces_kings`` ranges; ``trumps`` per seat and suit a range
    of trumps (hand plus widow for the rules' declarer); ``accept`` any test on the
    whole deal. A range is ``(lo, hi)`` with ``hi`` None for no upper bound.
    """

    held: Mapping[str, Hand] = field(default_factory=dict)
    lengths: Mapping[str, Mapping[int, Range]] = field(default_factory=dict)
    points: Mapping[str, Range] = field(default_factory=dict)
    aces_kings: Mapping[str, Range] = field(default_factory=dict)
    trumps: Mapping[str, Mapping[int, Range]] = field(default_factory=dict)
    accept: Callable[[Deal], bool] | None = field(default=None, compare=False)

    @classmethod
    def build(
        cls,
        *,
        held: Mapping[str, Any] | None = None,
        lengths: Mapping[str, Mapping[Any, Any]] | None = None,
        points: Mapping[str, Any] | None = None,
        aces_kings: Mapping[str, Any] | None = None,
        trumps: Mapping[str, Any] | None = None,
        accept: Callable[[Deal], bool] | None = None,
    ) -> DealSpec:
        """A spec from the forms people write in Python: ``held={"D": "SA SK"}`` or
        ``{"D": "AKQ.JT9.."}``, ``lengths={"E": {"S": (5, 8)}}``, ``points={"D": (12, None)}``
        or ``{"D": "12+"}``, ``trumps={"D": {"H": 6}}`` (at least 6) or ``{"D": ("H", 6)}``."""
        for name, table in (
            ("held", held),
            ("lengths", lengths),
            ("points", points),
            ("aces_kings", aces_kings),
            ("trumps", trumps),
        ):
            if table is not None and not isinstance(table, Mapping):
                raise DealSpecError(f"{name} must map places to values, e.g. {{'D': ...}}, got {table!r}")
        for p, per in (lengths or {}).items():
            if not isinstance(per, Mapping):
                raise DealSpecError(
                    f"lengths {p}: expected suits mapped to ranges, e.g. {{'S': (5, 8)}}, got {per!r}"
                )
        spec = cls(
            held={
                _place(p, "holds", p): hand
                for p, v in (held or {}).items()
                if (hand := _hand_of(v, f"holds {p}"))  # no cards: no constraint
            },
            lengths={
                _place(p, "length", p): {
                    _suit(s, "length", f"{p}:{s}"): _range_of(r, f"length {p}:{s}") for s, r in per.items()
                }
                for p, per in (lengths or {}).items()
            },
            points={_place(p, "points", p): _range_of(r, f"points {p}") for p, r in (points or {}).items()},
            aces_kings={
                _place(p, "aces-kings", p): _range_of(r, f"aces-kings {p}")
                for p, r in (aces_kings or {}).items()
            },
            trumps={_place(p, "trumps", p, "DEM"): _trumps_of(v, p) for p, v in (trumps or {}).items()},
            accept=accept,
        )
        if accept is not None and not callable(accept):
            raise DealSpecError(f"accept must be a function of a Deal, got {type(accept).__name__}")
        return spec

    @classmethod
    def parse(cls, text: str) -> DealSpec:
        """Read the notation: clauses ``NAME VALUE`` separated by ``;`` or new lines."""
        if not isinstance(text, str):
            raise DealSpecError(f"a deal spec is text such as 'points D:12+', got {type(text).__name__}")
        parts: dict[str, list[str]] = {name: [] for name in CLAUSES}
        for raw in text.replace("\n", ";").split(";"):
            clause = raw.split("#", 1)[0].strip()
            if not clause:
                continue
            name, _, value = clause.partition(" ")
            key = name.strip().lower()
            if key not in parts:
                raise DealSpecError(
                    f"unknown clause {name!r} in the deal spec; clauses are {', '.join(CLAUSES)}"
                )
            if not value.strip():
                raise DealSpecError(f"clause {key!r} has no value")
            parts[key].append(value.strip())
        return cls.from_options(
            holds=parts["holds"],
            length=parts["length"],
            points=parts["points"],
            aces_kings=parts["aces-kings"],
            trumps=parts["trumps"],
        )

    @classmethod
    def from_options(
        cls,
        *,
        holds: Iterable[str] = (),
        length: Iterable[str] = (),
        points: Iterable[str] = (),
        aces_kings: Iterable[str] = (),
        trumps: Iterable[str] = (),
    ) -> DealSpec:
        """A spec from option values as typed: ``holds D:SA,SK``, ``length E:S=5-8``,
        ``points D:12+``, ``aces-kings M:0-1``, ``trumps D:H=6``."""
        held: dict[str, Hand] = {}
        for item in holds:
            place, sep, cards = item.partition(":")
            if not sep or not cards.strip():
                raise DealSpecError(f"holds {item!r}: expected PLACE:CARDS, e.g. D:SA,HK or D:AKQ.JT9..")
            p = _place(place, "holds", item)
            hand = _hand_of(cards.strip(), f"holds {item!r}")
            clash = held.get(p, Hand()) & hand
            if clash:
                raise DealSpecError(f"holds {item!r}: {' '.join(map(str, clash))} given to {p} twice")
            held[p] = held.get(p, Hand()) | hand
        lens = _suit_ranges(length, "length", PLACES, at_least=False)
        pts = _place_ranges(points, "points")
        aks = _place_ranges(aces_kings, "aces-kings")
        trs = _suit_ranges(trumps, "trumps", "DEM", at_least=True)
        return cls(held=held, lengths=lens, points=pts, aces_kings=aks, trumps=trs)

    def to_string(self) -> str:
        """The notation, clauses in a fixed order (``parse`` reads it back equal)."""
        out: list[str] = []
        for p in PLACES:
            if p in self.held:
                out.append(f"holds {p}:{','.join(str(c) for c in self.held[p])}")
        out += _suit_clauses("length", self.lengths)
        for name, ranges in (("points", self.points), ("aces-kings", self.aces_kings)):
            out += [f"{name} {p}:{range_text(ranges[p])}" for p in PLACES if p in ranges]
        out += _suit_clauses("trumps", self.trumps)
        return "; ".join(out)

    def __str__(self) -> str:
        return self.to_string()

    @property
    def empty(self) -> bool:
        """No constraint at all: every deal matches."""
        return not (self.held or self.lengths or self.points or self.aces_kings or self.trumps or self.accept)


def _suit_clauses(name: str, table: Mapping[str, Mapping[int, Range]]) -> list[str]:
    return [
        f"{name} {p}:{SUIT_CHARS[s]}={range_text(table[p][s])}"
        for p in PLACES
        if p in table
        for s in sorted(table[p])
    ]


def _range_of(value: Any, what: str, *, at_least: bool = False) -> Range:
    if isinstance(value, str):
        try:
            return _check_range(parse_range(value, at_least=at_least), what)
        except NotationError as exc:
            raise DealSpecError(f"{what}: {exc}") from None
    if isinstance(value, int) and not isinstance(value, bool):
        return _check_range((value, None) if at_least else (value, value), what)
    if isinstance(value, (tuple, list)) and len(value) == 2:
        lo, hi = value
        if isinstance(lo, int) and not isinstance(lo, bool) and (hi is None or isinstance(hi, int)):
            return _check_range((lo, hi), what)
    raise DealSpecError(f"{what}: expected a range such as (5, 8), 5 or '5+', got {value!r}")


def _trumps_of(value: Any, place: str) -> dict[int, Range]:
    """``{"H": 6}``, ``{"H": (6, 9)}`` or ``("H", 6)``: at least 6 hearts."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
        value = {value[0]: value[1]}
    if not isinstance(value, Mapping):
        raise DealSpecError(f"trumps {place}: expected {{'H': 6}} or ('H', 6), got {value!r}")
    return {
        _suit(s, "trumps", f"{place}:{s}"): _range_of(r, f"trumps {place}:{s}", at_least=True)
        for s, r in value.items()
    }


def _place_ranges(items: Iterable[str], clause: str) -> dict[str, Range]:
    out: dict[str, Range] = {}
    for item in items:
        place, sep, span = item.partition(":")
        if not sep:
            raise DealSpecError(f"{clause} {item!r}: expected PLACE:RANGE, e.g. D:12-20 or D:12+")
        p = _place(place, clause, item)
        if p in out:
            raise DealSpecError(f"{clause} {item!r}: {p} is given twice")
        out[p] = _range_of(span, f"{clause} {item!r}")
    return out


def _suit_ranges(
    items: Iterable[str], clause: str, places: str, *, at_least: bool
) -> dict[str, dict[int, Range]]:
    out: dict[str, dict[int, Range]] = {}
    example = "D:H=6" if at_least else "E:S=5-8"
    for item in items:
        try:
            place, rest = item.split(":", 1)
            suit, span = rest.split("=", 1)
        except ValueError:
            raise DealSpecError(f"{clause} {item!r}: expected SEAT:SUIT=RANGE, e.g. {example}") from None
        p = _place(place, clause, item, places)
        s = _suit(suit, clause, item)
        if s in out.get(p, {}):
            raise DealSpecError(f"{clause} {item!r}: {p}:{SUIT_CHARS[s]} is given twice")
        out.setdefault(p, {})[s] = _range_of(span, f"{clause} {item!r}", at_least=at_least)
    return out
