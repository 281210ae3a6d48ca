"""Rulesets: every option in which the Sergeant Major rule sources differ, and the presets.

The five rule texts (``docs/rules.md`` lists them) disagree at almost every step, so a
match is always played under an explicit, validated :class:`Ruleset`. The presets bundle
the options each source describes; :meth:`Ruleset.with_options` derives a variant and
rejects a combination that could not be played (a ``RulesError`` saying why).

>>> r = get_ruleset("twelve")
>>> r.exchange, r.match_end
('named-suit', 'first-to-12')
>>> get_ruleset("twelve", double_payment=True).double_payment
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from ..cards import ALL_CARDS, Card, Hand, Suit
from ..deal import STRAIN_CHARS, Seat
from ..errors import NotationError, RulesError
from ..inputs import UNSAFE_CHARS, short_repr
from ..modes import SUIT_MODES, Mode
from .explain import describe

_MODE_VALUES = frozenset(m.value for m in Mode)  # a Mode hashes and compares as its value
_MODE_NAMES = " ".join(m.value for m in Mode)
#: The six modes of the hungarian-18 schedule.
_HUNGARIAN_SIX: frozenset[Mode] = SUIT_MODES | {Mode.N, Mode.MT}


# The values of each option with a fixed set of choices (their meanings: docs/rules.md).
FirstLeader = Literal["eldest", "declarer"]
WidowRule = Literal["see-then-discard", "blind-discard", "blind-trump", "first-six", "none"]
Exchange = Literal["lowest-for-highest", "named-suit", "card-return", "hungarian", "none"]
MatchEnd = Literal["hands", "round-the-table", "first-to-12", "race", "hungarian-18"]
TieBreak = Literal["none", "chain-002", "tie-break-hand"]

WIDOW_RULES: tuple[WidowRule, ...] = get_args(WidowRule)
EXCHANGES: tuple[Exchange, ...] = get_args(Exchange)
MATCH_ENDS: tuple[MatchEnd, ...] = get_args(MatchEnd)
TIE_BREAKS: tuple[TieBreak, ...] = get_args(TieBreak)
FIRST_LEADERS: tuple[FirstLeader, ...] = get_args(FirstLeader)
#: The card taken out of the deck for the 51-card no-widow variant.
REMOVED_IN_51 = Card(Suit.C, 2)
#: Bounds of the numeric options (documented in docs/robustness.md): no hand has more
#: tricks than 17, and no schedule or race needs more than these.
MAX_TRICKS = 17
MAX_HANDS_LIMIT = 1000
MAX_RACE_TARGET = 1000
MAX_NAME_LENGTH = 100


@dataclass(frozen=True)
class Ruleset:
    """One complete, validated set of rules. Immutable; derive variants with :meth:`with_options`.

    Field meanings are in ``docs/rules.md``; the essentials:
    ``targets`` by seat D, E, M (sum = tricks per hand); ``declarer`` takes the widow and
    names the trump or mode; ``modes`` is a set of :class:`~solver.modes.Mode`; ``exchange`` is
    the card-exchange protocol between hands; ``match_end`` with ``hands_limit``,
    ``race_target``, ``win_tricks`` and ``round_strict`` decides when the match is over and
    ``tie_break`` who wins a tie.
    """

    name: str = "custom"
    targets: tuple[int, int, int] = (8, 5, 3)
    declarer: Seat = Seat.D
    first_leader: FirstLeader = "eldest"
    deck_size: int = 52
    hand_size: int = 16
    widow_size: int = 4
    widow: WidowRule = "see-then-discard"
    modes: frozenset[Mode] = SUIT_MODES
    must_ruff: bool = False
    exchange: Exchange = "lowest-for-highest"
    trump_before_exchange: bool = False
    double_payment: bool = False
    match_end: MatchEnd = "hands"
    hands_limit: int | None = 12
    race_target: int = 10
    race_both_ways: bool = False
    win_tricks: int = 12
    round_strict: bool = True
    tie_break: TieBreak = "none"
    chips: bool = False

    def __post_init__(self) -> None:
        # Normalise the forms people naturally write (lists, strings, ints) ...
        # Strict types: a float is not a count (8.9 is not 8), a bool is not a seat.
        set_ = object.__setattr__
        targets = self.targets
        if not (
            isinstance(targets, (list, tuple))
            and len(targets) == 3
            and all(_is_count(t, MAX_TRICKS) for t in targets)
        ):
            raise RulesError(
                f"targets must be three numbers (D, E, M), each a whole number 0..{MAX_TRICKS}; "
                f"got {short_repr(targets)}"
            )
        set_(self, "targets", tuple(targets))
        try:
            set_(self, "declarer", Seat.parse(self.declarer))
        except NotationError:
            raise RulesError(f"declarer must be D, E or M, got {short_repr(self.declarer)}") from None
        modes = self.modes
        if isinstance(modes, str):
            modes = _parse_mode_text(modes)
        if not (isinstance(modes, (list, tuple, set, frozenset)) and all(isinstance(m, str) for m in modes)):
            raise RulesError(f"modes must be a collection of mode names, got {short_repr(self.modes)}")
        names = frozenset(modes)
        bad = sorted(short_repr(m) for m in names if m not in _MODE_VALUES)
        if bad:
            raise RulesError(f"unknown mode(s) {', '.join(bad)}; modes are {_MODE_NAMES}")
        set_(self, "modes", frozenset(Mode(m) for m in names))
        # ... then check every option and every combination.
        _validate(self)

    # --- derived facts -----------------------------------------------------------------
    @property
    def tricks_per_hand(self) -> int:
        return self.hand_size

    @property
    def deck(self) -> Hand:
        """The cards in play: the full deck, or the deck without the ♣2 for 51 cards."""
        full = Hand(ALL_CARDS)
        return full.remove(REMOVED_IN_51) if self.deck_size == 51 else full

    def opening_leader(self, declarer: Seat | int | None = None) -> Seat:
        """Who leads to the first trick of a hand: eldest (E, the dealer's left) or the declarer.

        ``declarer`` is the seat that declared this hand (default: the ruleset's declarer).
        """
        if self.first_leader == "eldest":
            return Seat.E
        return self.declarer if declarer is None else Seat(int(declarer))

    @property
    def misere_mode(self) -> Mode | None:
        """The fewest-tricks mode the declarer may name (MT or miz; never both), or None."""
        return next((m for m in (Mode.MT, Mode.miz) if m in self.modes), None)

    @property
    def blind_discard(self) -> bool:
        """Whether the declarer discards from his own hand before the widow joins it (002)."""
        return self.widow == "blind-discard"

    def optimiser_question(self, misere: bool = False) -> dict[str, Any]:
        """The declaration optimiser's arguments under these rules: ``declare(deal, **q)``.

        Declarer, opening leader, the strains he may name (with ``misere``: no trump, the
        strain of MT and miz), whether the discard is blind, and must-ruff.
        """
        if misere:
            if self.misere_mode is None:
                raise RulesError(f"{self.name} has no fewest-tricks mode (MT or miz)")
            strains = "N"
        else:
            strains = "".join(m for m in STRAIN_CHARS if m in self.modes)
        return {
            "declarer": self.declarer,
            "leader": self.opening_leader(),
            "strains": strains,
            "blind": self.blind_discard,
            "must_ruff": self.must_ruff,
        }

    @property
    def mode_order(self) -> tuple[Mode, ...]:
        """The allowed modes in the canonical order S H D C N MT miz."""
        return tuple(m for m in Mode if m in self.modes)

    @property
    def trump_named_before_exchange(self) -> bool:
        """Whether the declarer names the trump/mode before the card exchange.

        card-return (002) and hungarian (004) exchange only once the contract is known;
        named-suit (001/003) pays before the declaration (**Decision**);
        lowest-for-highest follows the ``trump_before_exchange`` house option.
        """
        if self.exchange in ("card-return", "hungarian"):
            return True
        return self.exchange == "lowest-for-highest" and self.trump_before_exchange

    @property
    def sequence(self) -> tuple[str, ...]:
        """The steps between the deal and the first lead of a hand after the first, in order.

        Steps: ``"exchange"`` (cards move between up and down players), ``"take-widow"``
        (the declarer adds the widow to his hand), ``"name"`` (the declarer names the
        trump or mode), ``"discard"`` (the declarer puts ``widow_size`` cards aside).
        The first hand of a match simply skips ``"exchange"``. **Decision**: the exchange
        is carried out while every hand holds ``hand_size`` cards, so when the trump is
        named before it under see-then-discard, the declarer discards first.
        """
        w = self.widow
        if w == "none":
            widow_steps: tuple[str, ...] = ("name",)
        elif w == "see-then-discard":
            widow_steps = ("take-widow", "name", "discard")
        elif w == "blind-discard":
            widow_steps = ("name", "discard", "take-widow")
        else:  # blind-trump, first-six: the mode is named before the widow is seen
            widow_steps = ("name", "take-widow", "discard")
        if self.exchange == "none":
            return widow_steps
        if not self.trump_named_before_exchange:
            return ("exchange",) + widow_steps
        if w == "see-then-discard":
            return widow_steps + ("exchange",)
        return ("name", "exchange") + widow_steps[1:]

    def exchange_in_mode(self, mode: Mode | str | None) -> bool:
        """Whether a hand declared in ``mode`` has an exchange at all.

        card-return and hungarian trade only in a trump-suit contract (004: "only in trump
        games, not in NT and MT"; 002: "when a suit contract is announced"). The other
        protocols trade before (or regardless of) the declaration.
        """
        if self.exchange == "none":
            return False
        if self.exchange in ("card-return", "hungarian"):
            return mode is not None and Mode(mode).trump is not None
        return True

    def target_of(self, seat: Seat | int, mode: Mode | str | None = None) -> int:
        """The seat's target; in MT/miz its MAXIMUM (targets swap ends: 8 <-> 3)."""
        seat = Seat(int(seat))
        if mode is not None and Mode(mode).minimising:
            return minimising_targets(self.targets)[seat]
        return self.targets[seat]

    def allowed_modes(self, used_by_declarer: Iterable[Mode | str] = ()) -> tuple[Mode, ...]:
        """The modes the declarer may name now.

        Under the ``hungarian-18`` schedule a player must use each mode exactly once as
        game leader, so ``used_by_declarer`` (the modes this player already named in the
        match) are removed; elsewhere every mode of the ruleset stays allowed.
        """
        if self.match_end != "hungarian-18":
            return self.mode_order
        used = list(used_by_declarer)
        for mode in used:
            if mode not in self.modes:
                raise RulesError(f"mode {mode!r} is not one of this ruleset's modes")
        if len(set(used)) != len(used):
            raise RulesError(f"a game leader named a mode twice: {used}")
        return tuple(m for m in self.mode_order if m not in used)

    # --- derivation and (de)serialisation --------------------------------------------
    def with_options(self, **overrides: Any) -> Ruleset:
        """A validated copy with some options changed (``name`` becomes ``custom`` unless given)."""
        unknown = sorted(short_repr(k) for k in set(overrides) - set(OPTION_NAMES))
        if unknown:
            raise RulesError(
                f"unknown ruleset option(s) {', '.join(unknown)}; known: {', '.join(OPTION_NAMES)}"
            )
        if not overrides:
            return self
        if "name" not in overrides:
            plain = self.name == "custom" or self.name.endswith("+custom")
            overrides["name"] = self.name if plain else f"{self.name}+custom"
        return dataclasses.replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        """Every option as JSON-ready values (modes sorted canonically, declarer as a letter)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "targets":
                value = list(value)
            elif f.name == "declarer":
                value = value.name
            elif f.name == "modes":
                value = [m.value for m in self.mode_order]
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """Read :meth:`to_dict` output (missing options take the defaults)."""
        if not isinstance(data, Mapping):
            raise RulesError(f"ruleset must be a JSON object, got {type(data).__name__}")
        unknown = sorted(short_repr(k) for k in set(data) - set(OPTION_NAMES))
        if unknown:
            raise RulesError(f"unknown ruleset option(s) {', '.join(unknown)}")
        return cls(**dict(data))

    def diff(self, base: Ruleset) -> dict[str, Any]:
        """The options (as in :meth:`to_dict`) where this ruleset differs from ``base``."""
        mine, theirs = self.to_dict(), base.to_dict()
        return {k: v for k, v in mine.items() if k != "name" and theirs[k] != v}

    def describe(self) -> str:
        """The rules in plain words (what ``sm358 rules NAME`` prints)."""
        return describe(self)


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Ruleset))


def minimising_targets(targets: tuple[int, int, int]) -> tuple[int, int, int]:
    """MT/miz maxima by seat: the largest and smallest targets swap (004: leader <= 3, dealer <= 8)."""
    hi = max(range(3), key=lambda s: (targets[s], -s))
    lo = min(range(3), key=lambda s: (targets[s], s))
    out = list(targets)
    out[hi], out[lo] = targets[lo], targets[hi]
    return (out[0], out[1], out[2])


def _parse_mode_text(text: str) -> list[Mode]:
    """Read ``"SHDC"``, ``"S,H,N,MT"``, ``"SHDCNmiz"`` or ``"SHDC NT"`` into modes."""
    out: list[Mode] = []
    one_letter = {m.value: m for m in Mode if len(m.value) == 1}
    for chunk in text.replace(",", " ").split():
        i = 0
        while i < len(chunk):
            rest = chunk[i:].upper()
            for token, mode in (("MIZ", Mode.miz), ("MT", Mode.MT), ("NT", Mode.N)):
                if rest.startswith(token):
                    out.append(mode)
                    i += len(token)
                    break
            else:
                if rest[0] not in one_letter:
                    raise RulesError(f"unknown mode {chunk!r} in {text!r}; modes are {_MODE_NAMES}")
                out.append(one_letter[rest[0]])
                i += 1
    return out


def _choice(value: Any, name: str, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise RulesError(f"{name} must be one of {', '.join(allowed)}; got {short_repr(value)}")


def _flag(value: Any, name: str) -> None:
    if not isinstance(value, bool):
        raise RulesError(f"{name} must be true or false, got {short_repr(value)}")


def _int(value: Any, name: str, lo: int, hi: int) -> None:
    if not _is_count(value, hi) or value < lo:
        raise RulesError(f"{name} must be a whole number {lo}..{hi}, got {short_repr(value)}")


def _is_count(value: Any, hi: int) -> bool:
    """A true int (not a bool, not a float) in 0..hi."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= hi


#: The options with a fixed set of values, then the flags and the bounded counts.
_CHOICES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("first_leader", FIRST_LEADERS),
    ("widow", WIDOW_RULES),
    ("exchange", EXCHANGES),
    ("match_end", MATCH_ENDS),
    ("tie_break", TIE_BREAKS),
)
_FLAGS = ("must_ruff", "trump_before_exchange", "double_payment", "chips", "race_both_ways", "round_strict")
_COUNTS: tuple[tuple[str, int, int], ...] = (
    ("hand_size", 1, MAX_TRICKS),
    ("widow_size", 0, 4),
    ("race_target", 1, MAX_RACE_TARGET),
    ("win_tricks", 1, MAX_TRICKS),
)


def _check_options(r: Ruleset) -> None:
    """Every single option on its own: its type and its range."""
    if not isinstance(r.name, str) or not r.name or len(r.name) > MAX_NAME_LENGTH:
        raise RulesError(f"name must be a non-empty string of at most {MAX_NAME_LENGTH} characters")
    if UNSAFE_CHARS.search(r.name):
        raise RulesError(f"name {short_repr(r.name)} holds a control character; a ruleset name is plain text")
    for name, allowed in _CHOICES:
        _choice(getattr(r, name), name, allowed)
    for flag in _FLAGS:
        _flag(getattr(r, flag), flag)
    if not _is_count(r.deck_size, 52) or r.deck_size not in (51, 52):
        raise RulesError(f"deck_size must be 52, or 51 (the ♣2 removed); got {short_repr(r.deck_size)}")
    for name, lo, hi in _COUNTS:
        _int(getattr(r, name), name, lo, hi)
    if r.hands_limit is not None:
        _int(r.hands_limit, "hands_limit", 1, MAX_HANDS_LIMIT)


#: The combinations that cannot be played, in the order of docs/rules.md ("Validation"):
#: (is this ruleset broken?, why), the first broken one raised.
_COMBINATIONS: tuple[tuple[Callable[[Ruleset], bool], Callable[[Ruleset], str]], ...] = (
    # Cards: every card of the deck goes to a hand or the widow.
    (
        lambda r: 3 * r.hand_size + r.widow_size != r.deck_size,
        lambda r: (
            f"{r.hand_size}-card hands and a {r.widow_size}-card widow use "
            f"{3 * r.hand_size + r.widow_size} cards, but the deck has {r.deck_size}; a 52-card deck "
            "needs 16-card hands and a 4-card widow, a 51-card deck 17-card hands and no widow"
        ),
    ),
    (
        lambda r: (r.widow == "none") != (r.widow_size == 0),
        lambda r: (
            f"widow {r.widow!r} with widow_size {r.widow_size}: "
            "use widow 'none' exactly when there is no widow"
        ),
    ),
    (
        lambda r: sum(r.targets) != r.tricks_per_hand,
        lambda r: (
            f"targets {'-'.join(map(str, r.targets))} add up to {sum(r.targets)}, "
            f"but a hand has {r.tricks_per_hand} tricks; the nets would not sum to zero"
        ),
    ),
    (
        lambda r: r.win_tricks > r.tricks_per_hand and r.match_end == "first-to-12",
        lambda r: f"win_tricks {r.win_tricks} is more than the {r.tricks_per_hand} tricks of a hand",
    ),
    # Modes.
    (lambda r: not r.modes, lambda r: "modes is empty; allow at least one trump suit or mode"),
    (
        lambda r: Mode.MT in r.modes and Mode.miz in r.modes,
        lambda r: "MT and miz are the same minimum-tricks scoring under two names; allow only one",
    ),
    (
        lambda r: Mode.MT in r.modes and r.exchange not in ("hungarian", "none"),
        lambda r: (
            f"mode MT (004's minimum tricks) belongs to hungarian-like rules; with the {r.exchange} "
            "exchange use the misère declaration 'miz' instead"
        ),
    ),
    (
        lambda r: r.widow == "first-six" and r.hand_size < 6,
        lambda r: "the first-six widow rule needs hands of at least 6 cards",
    ),
    # Exchange options.
    (
        lambda r: r.double_payment and r.exchange != "named-suit",
        lambda r: f"double_payment is an option of the named-suit exchange, not of {r.exchange!r}",
    ),
    (
        lambda r: r.trump_before_exchange and r.exchange != "lowest-for-highest",
        lambda r: (
            "trump_before_exchange is a lowest-for-highest house option; "
            f"the {r.exchange} exchange fixes the order itself"
        ),
    ),
    (
        lambda r: r.exchange in ("card-return", "hungarian") and not (r.modes & SUIT_MODES),
        lambda r: (
            f"the {r.exchange} exchange happens only in trump-suit contracts, "
            "but no trump suit is among the modes"
        ),
    ),
    # Match end.
    (
        lambda r: r.match_end == "hands" and r.hands_limit is None,
        lambda r: "match_end 'hands' needs hands_limit (e.g. 9 or 12)",
    ),
    (
        lambda r: r.match_end == "hungarian-18" and r.modes != _HUNGARIAN_SIX,
        lambda r: (
            "the hungarian-18 schedule has every game leader name each of the six modes "
            f"S H D C N MT once; modes are {' '.join(r.mode_order)}"
        ),
    ),
    (
        lambda r: r.match_end == "hungarian-18" and r.hands_limit not in (None, 18),
        lambda r: f"the hungarian-18 schedule is 18 deals; hands_limit {r.hands_limit} contradicts it",
    ),
    (
        lambda r: r.tie_break == "tie-break-hand" and r.match_end == "hungarian-18",
        lambda r: "a tie-break hand cannot follow the hungarian-18 schedule (each mode is used up)",
    ),
)


def _validate(r: Ruleset) -> None:
    """Every single option, then every combination that cannot be played."""
    _check_options(r)
    for broken, why in _COMBINATIONS:
        if broken(r):
            raise RulesError(why(r))


# --- presets --------------------------------------------------------------------------
def _preset(name: str, base: Ruleset | None = None, **options: Any) -> Ruleset:
    start = base if base is not None else Ruleset()
    return dataclasses.replace(start, name=name, **options)


_BRITISH = _preset("british", match_end="round-the-table", hands_limit=None)
_TWELVE = _preset(
    "twelve", exchange="named-suit", match_end="first-to-12", hands_limit=10, tie_break="tie-break-hand"
)
_CARD_RETURN = _preset(
    "card-return",
    first_leader="declarer",
    widow="blind-discard",
    exchange="card-return",
    match_end="hands",
    hands_limit=12,
    tie_break="chain-002",
)
_HUNGARIAN = _preset(
    "hungarian",
    targets=(3, 8, 5),
    declarer=Seat.E,
    first_leader="declarer",
    widow="first-six",
    modes=_HUNGARIAN_SIX,
    must_ruff=True,
    exchange="hungarian",
    match_end="hungarian-18",
    hands_limit=18,
)

PRESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (
        _BRITISH,
        _TWELVE,
        _CARD_RETURN,
        _HUNGARIAN,
        _preset("casual", _BRITISH, match_end="hands", hands_limit=12),
        _preset("chips", _BRITISH, match_end="hands", hands_limit=12, chips=True),
        _preset("9-5-2", _BRITISH, targets=(9, 5, 2)),
        _preset("blind-widow", _BRITISH, widow="blind-trump"),
        _preset("no-exchange", _BRITISH, exchange="none"),
        _preset(
            "no-widow", _BRITISH, deck_size=51, hand_size=17, widow_size=0, widow="none", targets=(9, 5, 3)
        ),
        _preset(
            "6-3-8",
            _TWELVE,
            deck_size=51,
            hand_size=17,
            widow_size=0,
            widow="none",
            targets=(6, 3, 8),
            declarer=Seat.M,
            match_end="race",
            hands_limit=None,
            race_target=10,
            race_both_ways=True,
            tie_break="none",
        ),
        _preset("nine-five-two", _TWELVE, targets=(9, 5, 2)),
        _preset("double-payment", _TWELVE, double_payment=True),
        _preset("no-trump", _TWELVE, modes=SUIT_MODES | {Mode.N}),
        _preset("miz", _TWELVE, modes=SUIT_MODES | {Mode.N, Mode.miz}),
    )
}

#: One line per preset for ``sm358 rules``.
PRESET_SUMMARIES: dict[str, str] = {
    "british": "000 British forces rules: lowest-for-highest exchange, dealer up on his own deal after one round wins",
    "twelve": "001/003 Three Five Eight: named-suit payment, first to 12 tricks in a hand wins (10-hand limit)",
    "card-return": "002 online rules: blind discard, card-return exchange, declarer leads, 12 hands, tie-break chain",
    "hungarian": "004 Hungarian: 3-8-5 with the game leader left of the dealer, six modes incl. NT and MT, 18 deals",
    "casual": "british with a fixed 12 hands; highest cumulative total wins",
    "chips": "british for stakes: each overtrick earns a chip from every player who was down; 12 hands",
    "9-5-2": "british with targets 9-5-2 (000 variant)",
    "blind-widow": "british, but the dealer names trump before looking at the widow",
    "no-exchange": "british without the card exchange: every hand is independent",
    "no-widow": "british with 51 cards (no ♣2), 17 cards each, no widow, targets 9-5-3",
    "6-3-8": "001 Six Three Eight: 51 cards, no widow, targets 6-3-8, cumulative race to +10 or -10",
    "nine-five-two": "twelve with targets 9-5-2 (001's Canadian variant)",
    "double-payment": "twelve, each overtrick paid with two cards",
    "no-trump": "twelve, the dealer may also declare no trump",
    "miz": "twelve, the dealer may also declare no trump or misère (fewest tricks)",
}


def preset_names() -> tuple[str, ...]:
    return tuple(PRESETS)


def get_ruleset(name: str, /, **overrides: Any) -> Ruleset:
    """A preset by name, optionally with options changed (validated).

    >>> get_ruleset("british").exchange
    'lowest-for-highest'
    """
    base = PRESETS.get(name) if isinstance(name, str) else None
    if base is None:
        raise RulesError(f"unknown ruleset {short_repr(name)}; presets are {', '.join(PRESETS)}")
    return base.with_options(**overrides) if overrides else base


def base_preset(ruleset: Ruleset) -> str | None:
    """The preset this ruleset is or was derived from (by name), if any."""
    root = ruleset.name.split("+", 1)[0]
    return root if root in PRESETS else None


__all__ = [
    "EXCHANGES",
    "MATCH_ENDS",
    "OPTION_NAMES",
    "PRESETS",
    "PRESET_SUMMARIES",
    "REMOVED_IN_51",
    "Ruleset",
    "SUIT_MODES",
    "TIE_BREAKS",
    "WIDOW_RULES",
    "base_preset",
    "get_ruleset",
    "minimising_targets",
    "preset_names",
]
