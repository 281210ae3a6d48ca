"""What one seat knows about a hand, and uniform layouts of everything it cannot see.

Why one value: single-dummy questions ("which trump?", "which card?") are answered by
sampling the hidden cards, and every such question starts from the same facts — the
seat's own cards, the widow if the rules showed it, the cards it saw move in the
exchange, the cards played so far and what the play revealed. :class:`View` holds those
facts, checks that they agree, and turns them into a :class:`~solver.game.sampling.LayoutSampler`.
Advice, the single-dummy review and the ``pimc`` player all use it.

Two stages:

* **declaration** (``mode`` is None): the seat is the declarer; ``hand`` is what it
  has seen of its own cards (all of them, or under ``first-six`` the first six, with
  ``unseen_own`` more to come) and ``widow`` the widow if it has seen it.
* **play** (``mode`` given): ``hand`` is the seat's hand when the play began, ``played``
  every card played so far from the first lead. Known out-of-play cards (the declarer's
  own discards) are ``discard``.

Inferences from the play: a seat that did not follow the led suit is void in it; under
``must_ruff`` in a trump mode, one that neither followed nor trumped has no trump.
Layouts are uniform among those consistent with the view (the usual single-dummy
assumption: how the others chose their cards carries no further information).

The exchange (``exchange``): every transfer in order, its card ``None`` where the seat was
not part of it (it sees that a card moved, not which). A card the seat gave to X is with X
at the first lead, unless X later gave cards to the third seat (then it may be there, but
no more of those cards than X gave it afterwards) or the holder is the declarer and
discarded after the exchange (then it may be out of play). A card that came back to the
seat is simply in its hand. The protocols' rules for which card is given (the highest of a
suit, ...) are not used as evidence.

>>> v = View.for_declaration("AKQJ.AKQJ.AKQJ.AKQJ", widow="T9..T9.", rules="twelve")
>>> layout = v.sample(np.random.default_rng(1))
>>> len(layout.hands[Seat.E]), len(layout.hands[Seat.M]), str(layout.widow)
(16, 16, 'T9..T9.')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..cards import NO_TRUMP, SUIT_CHARS, Card, Hand, parse_cards
from ..deal import SEATS, Deal, Seat
from ..errors import IllegalPlayError, SolverError
from ..inputs import short_repr
from ..modes import Mode
from ..tricks import trick_winner
from .rules import Ruleset, get_ruleset
from .sampling import Bin, Cap, ImpossibleViewError, LayoutSampler
from .views import Move

__all__ = ["ImpossibleViewError", "Layout", "PlayState", "View"]

OUT = "out"  # the bin of the cards out of play (the declarer's discard)


def _hand(value: Any) -> Hand:
    if isinstance(value, Hand):
        return value
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return Hand()
        if "." in text and " " not in text:
            return Hand.parse(text)
        return Hand(parse_cards(text))
    return Hand(parse_cards(value))


def _ruleset(rules: Ruleset | str) -> Ruleset:
    return rules if isinstance(rules, Ruleset) else get_ruleset(str(rules))


@dataclass(frozen=True)
class Layout:
    """One sampled completion of a view.

    Declaration stage: ``hands`` are the three dealt hands and ``widow`` the widow.
    Play stage: ``hands`` are the hands when the current trick began, ``trick`` the cards
    already played to it by ``leader``, ``widow`` the cards out of play.
    """

    hands: dict[Seat, Hand]
    widow: Hand
    trick: tuple[Card, ...] = ()
    leader: Seat = Seat.E

    def deal(self) -> Deal:
        return Deal([self.hands[s] for s in SEATS], self.widow)


@dataclass(frozen=True)
class PlayState:
    """Where the play stands: tricks won, the current trick, who leads it and who moves."""

    tricks: tuple[int, int, int]
    trick: tuple[Card, ...]
    leader: Seat
    to_move: Seat
    played_by: dict[Seat, Hand]  # every card each seat has played so far
    voids: dict[Seat, frozenset[int]]  # suits each seat is known to be out of

    @property
    def trick_number(self) -> int:
        return sum(self.tricks) + 1


@dataclass(frozen=True)
class View:
    """What ``seat`` knows; see the module docstring. Build it with :meth:`for_declaration`
    or :meth:`for_play`, which accept card text; the constructor checks everything."""

    seat: Seat
    hand: Hand
    rules: Ruleset
    widow: Hand | None = None
    unseen_own: int = 0
    mode: str | None = None
    played: tuple[Card, ...] = ()
    discard: Hand = field(default_factory=Hand)
    passed: tuple[tuple[Seat, Card], ...] = ()  # (to, card): short for moves from ``seat``,
    # after those of ``exchange``
    exchange: tuple[Move, ...] = ()  # every transfer in order; None where unseen
    held: Mapping[Seat, Hand] = field(default_factory=dict)
    lengths: Mapping[Seat, Mapping[int, tuple[int, int]]] = field(default_factory=dict)
    leader: Seat | None = None

    # --- construction ----------------------------------------------------------------
    @classmethod
    def for_declaration(
        cls,
        hand: Any,
        *,
        widow: Any = None,
        seat: Seat | str | None = None,
        rules: Ruleset | str = "twelve",
        exchange: Sequence[Any] = (),
        **constraints: Any,
    ) -> View:
        """The declarer's view before it names the mode. ``seat`` defaults to the rules'
        declarer; under ``first-six`` pass the six cards seen (the rest are sampled).
        ``exchange``: the transfers made before the declaration, as in :meth:`for_play`."""
        rs = _ruleset(rules)
        seat_ = Seat.parse(seat) if seat is not None else rs.declarer
        own = _hand(hand)
        unseen = rs.hand_size - len(own) if rs.widow == "first-six" else 0
        return cls(
            seat=seat_,
            hand=own,
            rules=rs,
            widow=None if widow is None else _hand(widow),
            unseen_own=unseen,
            exchange=_moves(exchange, seat_),
            **_constraints(**constraints),
        )

    @classmethod
    def for_play(
        cls,
        hand: Any,
        *,
        mode: str,
        seat: Seat | str,
        rules: Ruleset | str = "twelve",
        played: Any = (),
        discard: Any = (),
        leader: Seat | str | None = None,
        exchange: Sequence[tuple[Any, Any, Any]] = (),
        **constraints: Any,
    ) -> View:
        """A seat's view during the play: its hand when the play began and the cards so far.

        ``exchange`` lists every transfer of the exchange in order as ``(from, to, card)``;
        the card of a transfer between the two other seats is ignored (the seat did not see it).
        """
        rs = _ruleset(rules)
        played_cards = tuple(parse_cards(played)) if played else ()
        me = Seat.parse(seat)
        return cls(
            seat=me,
            hand=_hand(hand),
            rules=rs,
            mode=mode,
            played=played_cards,
            discard=_hand(discard) if discard else Hand(),
            leader=Seat.parse(leader) if leader is not None else None,
            exchange=_moves(exchange, me),
            **_constraints(**constraints),
        )

    @classmethod
    def from_hand_record(cls, record: Any, trick: int, card: int = 1, **constraints: Any) -> View:
        """The view of the seat about to play card ``card`` (1-based) of trick ``trick`` in a
        hand file's :class:`~solver.game.handfile.HandRecord`: what it knew at that moment
        (its own hand, its own discards if it declared, the exchange as it saw it, the play
        so far), with the user's ``held``/``lengths`` assumptions if given."""
        from .handfile import HandRecord

        if not isinstance(record, HandRecord):
            raise SolverError(
                f"from_hand_record needs a HandRecord (solver.load_hand), got {short_repr(record)}"
            )
        if not isinstance(trick, int) or not isinstance(card, int) or not 1 <= card <= 3:
            raise SolverError(f"a point of the play is trick T, card K with K in 1..3; got {trick}.{card}")
        pos = record.position(trick, card - 1)
        seat = pos.mover
        played = [c for t in record.tricks[: trick - 1] for c in t] + list(pos.played)
        discard = record.discard if seat == record.declarer and record.discard else ()
        return cls(
            seat=seat,
            hand=record.start.hands[seat],
            rules=record.ruleset,
            mode=record.contract,
            played=tuple(played),
            discard=Hand(discard),
            exchange=_moves(record.exchange, seat),
            leader=record.leader,
            **_constraints(**constraints),
        )

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "seat", Seat.parse(self.seat))
        set_(self, "rules", _ruleset(self.rules))
        set_(self, "hand", _hand(self.hand))
        if self.mode is not None:
            object.__setattr__(self, "mode", str(Mode.parse(self.mode)))
        self._check()

    # --- derived facts ---------------------------------------------------------------
    @property
    def stage(self) -> str:
        return "declaration" if self.mode is None else "play"

    @property
    def declarer(self) -> Seat:
        return self.rules.declarer

    @property
    def trump(self) -> int:
        """The trump suit 0..3, or ``NO_TRUMP`` (no trump mode, or no mode yet)."""
        return int(Mode.parse(self.mode).strain) if self.mode is not None else NO_TRUMP

    @property
    def misere(self) -> bool:
        return self.mode is not None and Mode.parse(self.mode).minimising

    @property
    def first_leader(self) -> Seat:
        if self.leader is not None:
            return self.leader
        return self.rules.opening_leader(self.declarer)

    def target(self, mode: str | None = None) -> int:
        """The seat's target (a maximum in MT/miz) in ``mode`` (default: the view's)."""
        return self.rules.target_of(self.seat, mode if mode is not None else self.mode)

    def play_state(self) -> PlayState:
        """Replay ``played``: tricks won, the current trick, voids shown (checked as it goes)."""
        trump = self.trump
        tricks = [0, 0, 0]
        leader = self.first_leader
        played_by: dict[Seat, list[Card]] = {s: [] for s in SEATS}
        voids: dict[Seat, set[int]] = {s: set() for s in SEATS}
        cards = list(self.played)
        for start in range(0, len(cards), 3):
            trick = cards[start : start + 3]
            led = trick[0].suit
            for k, card in enumerate(trick):
                who = SEATS[(leader + k) % 3]
                played_by[who].append(card)
                if k and card.suit != led:
                    voids[who].add(led)
                    if self.rules.must_ruff and trump != NO_TRUMP and card.suit != trump:
                        voids[who].add(trump)
            if len(trick) == 3:
                winner = SEATS[(leader + trick_winner([c.bit.bit_length() - 1 for c in trick], trump)) % 3]
                tricks[winner] += 1
                leader = winner
        rest = len(cards) % 3
        current = tuple(cards[len(cards) - rest :]) if rest else ()
        return PlayState(
            tricks=(tricks[0], tricks[1], tricks[2]),
            trick=current,
            leader=leader,
            to_move=SEATS[(leader + len(current)) % 3],
            played_by={s: Hand(v) for s, v in played_by.items()},
            voids={s: frozenset(v) for s, v in voids.items()},
        )

    # --- consistency -----------------------------------------------------------------
    def _check(self) -> None:
        rs = self.rules
        k = rs.hand_size
        if self.stage == "declaration":
            if self.seat != self.declarer:
                raise SolverError(
                    f"a declaration view belongs to the declarer {self.declarer.name}, "
                    f"not {self.seat.name}, under {rs.name}"
                )
            if len(self.hand) + self.unseen_own != k:
                raise SolverError(
                    f"the declarer holds {k} cards under {rs.name}; "
                    f"the view has {len(self.hand)} seen and {self.unseen_own} unseen"
                )
            if self.widow is not None:
                if len(self.widow) != rs.widow_size:
                    raise SolverError(
                        f"the widow has {rs.widow_size} cards under {rs.name}, got {len(self.widow)}"
                    )
                if self.widow & self.hand:
                    raise SolverError(f"cards both in the hand and in the widow: {self.widow & self.hand}")
            if self.played:
                raise SolverError("a declaration view has no cards played yet")
        else:
            if len(self.hand) != k:
                raise SolverError(
                    f"the hand at the start of play holds {k} cards under {rs.name}, got {len(self.hand)}"
                )
            if self.discard & self.hand:
                raise SolverError(f"cards both in the hand and in the discard: {self.discard & self.hand}")
            if len(self.discard) > rs.widow_size:
                raise SolverError(
                    f"at most {rs.widow_size} cards are out of play, got {len(self.discard)} discards"
                )
            if len(self.played) >= 3 * k:
                raise SolverError("every card has been played: nothing is left to advise on")
            self._check_play()
        outside = self.hand - rs.deck
        if outside:
            raise SolverError(f"cards not in this ruleset's deck: {outside}")
        self._check_held()
        self._check_own_lengths()
        self.sampler()  # raises ImpossibleViewError at once when nothing fits

    def _check_held(self) -> None:
        """Cards the user says a seat holds: not seen elsewhere, not played, not in a void."""
        voids = self.play_state().voids if self.stage == "play" else {}
        for who, cards in self.held.items():
            if who == self.seat:
                raise SolverError(f"a constraint on {who.name}'s own hand: the seat sees its own cards")
            clash = Hand(cards) & (self.hand | self.discard | (self.widow or Hand()))
            if clash:
                raise ImpossibleViewError(
                    f"{who.name} cannot hold {_listed(clash)}: this seat sees those cards elsewhere"
                )
            gone = Hand(cards) & Hand(self.played)
            if gone:
                raise ImpossibleViewError(f"{who.name} cannot hold {_listed(gone)}: already played")
            for card in Hand(cards):
                if card.suit in voids.get(who, ()):
                    raise ImpossibleViewError(
                        f"{who.name} cannot hold {card}: {who.name} showed out of "
                        f"{SUIT_CHARS[card.suit]} earlier in the play"
                    )

    def _check_own_lengths(self) -> None:
        """A length the user states about the asking seat's own hand must fit that hand."""
        if self.stage == "declaration" and self.unseen_own:
            return  # the unseen own cards are sampled under these ranges instead
        for suit, (lo, hi) in self.lengths.get(self.seat, {}).items():
            have = len(self.hand.cards_in(suit))
            if not lo <= have <= hi:
                raise ImpossibleViewError(
                    f"{self.seat.name} holds {have} {SUIT_CHARS[suit]}, not {lo}-{hi} "
                    "(a length stated about the seat's own hand)"
                )

    def _check_play(self) -> None:
        seen: set[Card] = set()
        own_left = set(self.hand)
        state_leader = self.first_leader
        cards = list(self.played)
        trump = self.trump
        leader = state_leader
        from ..tricks import legal_mask

        for start in range(0, len(cards), 3):
            trick = cards[start : start + 3]
            for k, card in enumerate(trick):
                where = f"trick {start // 3 + 1}, card {k + 1}"
                if card in seen:
                    raise IllegalPlayError(f"{where}: {card} was already played")
                seen.add(card)
                who = SEATS[(leader + k) % 3]
                if card in self.discard:
                    raise IllegalPlayError(f"{where}: {card} was discarded")
                if who == self.seat:
                    if card not in own_left:
                        raise IllegalPlayError(f"{where}: {self.seat.name} plays {card}, not in its hand")
                    led = trick[0].suit if k else -1
                    mask = sum(c.bit for c in own_left)
                    if not legal_mask(mask, led, trump, self.rules.must_ruff) & card.bit:
                        raise IllegalPlayError(f"{where}: {card} does not follow the rules of play")
                    own_left.discard(card)
                elif card in self.hand:
                    raise IllegalPlayError(f"{where}: {who.name} plays {card}, which {self.seat.name} holds")
            if len(trick) == 3:
                winner = trick_winner([c.bit.bit_length() - 1 for c in trick], trump)
                leader = SEATS[(leader + winner) % 3]

    # --- the exchange -----------------------------------------------------------------
    def _discards_after_exchange(self) -> bool:
        seq = self.rules.sequence
        return "discard" in seq and "exchange" in seq and seq.index("discard") > seq.index("exchange")

    def whereabouts(self) -> tuple[dict[Card, frozenset[str]], list[Cap]]:
        """Where each card the seat saw go to another seat may be now (seat names, ``out``),
        and how many of them can have moved on unseen (see the module docstring).

        A card the seat gave to X at move ``i`` reaches the third seat Y only by one of X's
        later moves to Y, each carrying one card: so of the cards X received from the seat at
        move ``t`` or later, at most as many as X's moves to Y after ``t`` are with Y (or in
        Y's discard), less those Y has already played.
        """
        moves = list(self.exchange) + [(self.seat, to, c) for to, c in self.passed]
        arrived: dict[Card, tuple[Seat, int]] = {}
        hidden: list[tuple[int, Seat, Seat]] = []
        for i, (frm, to, card) in enumerate(moves):
            if card is None:
                hidden.append((i, frm, to))
            elif to == self.seat:
                arrived.pop(card, None)
            else:
                arrived[card] = (to, i)
        out_too = self.stage == "play" and self._discards_after_exchange()
        played = Hand(self.played)
        places: dict[Card, frozenset[str]] = {}
        for card, (holder, i) in arrived.items():
            if card in played:
                continue
            where = {holder}
            for j, frm, to in hidden:
                if j > i and frm in where:
                    where.add(to)
            names = {s.name for s in where}
            if out_too and self.declarer in where:
                names.add(OUT)
            places[card] = frozenset(names)
        return places, self._caps(arrived, hidden, out_too)

    def _caps(
        self,
        arrived: Mapping[Card, tuple[Seat, int]],
        hidden: Sequence[tuple[int, Seat, Seat]],
        out_too: bool,
    ) -> list[Cap]:
        by_seat = self.play_state().played_by if self.stage == "play" else {s: Hand() for s in SEATS}
        caps: list[Cap] = []
        for x in SEATS:
            for y in SEATS:
                if self.seat in (x, y) or x == y:
                    continue
                got = {c: i for c, (h, i) in arrived.items() if h == x}
                for t in sorted(set(got.values())):
                    group = Hand([c for c, i in got.items() if i >= t])
                    moved = sum(1 for j, frm, to in hidden if j > t and frm == x and to == y)
                    most = moved - len(group & by_seat[y])
                    why = f"{x.name} gave {y.name} {moved} card(s) after receiving them"
                    if most < 0:
                        raise ImpossibleViewError(
                            f"{y.name} played more of the cards given to {x.name} than {why}"
                        )
                    left = group - Hand(self.played)
                    if most < len(left):
                        bins = {y.name} | ({OUT} if out_too and y == self.declarer else set())
                        caps.append(Cap(frozenset(left), frozenset(bins), most, why))
        return caps

    # --- sampling --------------------------------------------------------------------
    def sampler(self) -> LayoutSampler:
        """The uniform sampler of this view's hidden cards (built once per view)."""
        cached = self.__dict__.get("_sampler")
        if cached is None:
            cached = self._build_sampler()
            object.__setattr__(self, "_sampler", cached)
        return cached

    def _places(self, unseen: Hand) -> tuple[dict[Card, frozenset[str]], list[Cap]]:
        """The exchange's whereabouts narrowed by the user's held cards, checked."""
        places, caps = self.whereabouts()
        for card, where in places.items():
            if card not in unseen:
                raise ImpossibleViewError(
                    f"{card} went to {'/'.join(sorted(where))} in the exchange, "
                    f"but {self.seat.name} sees it in its own hand or discard"
                )
        for who, cards in self.held.items():
            for card in Hand(cards):
                before = places.get(card)
                if before is not None and who.name not in before:
                    raise ImpossibleViewError(
                        f"{who.name} cannot hold {card}: it went to {'/'.join(sorted(before))} in the exchange"
                    )
                places[card] = frozenset({who.name})
        return places, caps

    def _build_sampler(self) -> LayoutSampler:
        rs = self.rules
        k = rs.hand_size
        others = [s for s in SEATS if s != self.seat]
        bins: list[Bin] = []
        if self.stage == "declaration":
            unseen = rs.deck - self.hand - (self.widow or Hand())
            for s in others:
                bins.append(Bin(s.name, k, self._length_ranges(s, Hand(), frozenset())))
            if self.widow is None:
                bins.append(Bin("widow", rs.widow_size))
            if self.unseen_own:
                bins.append(
                    Bin("own", self.unseen_own, self._length_ranges(self.seat, self.hand, frozenset()))
                )
        else:
            state = self.play_state()
            unseen = rs.deck - self.hand - Hand(self.played) - self.discard
            for s in others:
                ranges = self._length_ranges(s, state.played_by[s], state.voids[s])
                bins.append(Bin(s.name, k - len(state.played_by[s]), ranges))
            bins.append(Bin(OUT, rs.widow_size - len(self.discard)))
        places, caps = self._places(unseen)
        return LayoutSampler(unseen, bins, places, caps)

    def _length_ranges(self, seat: Seat, known: Hand, voids: frozenset[int]) -> dict[int, tuple[int, int]]:
        """Per-suit ranges for the seat's unseen cards: the user's lengths less the cards it
        has shown, intersected with the voids the play revealed (refused when nothing is left)."""
        out: dict[int, tuple[int, int]] = {}
        for suit, (lo, hi) in self.lengths.get(seat, {}).items():
            have = len(known.cards_in(suit))
            low, high = max(lo - have, 0), hi - have
            name = SUIT_CHARS[suit]
            if high < 0:
                raise ImpossibleViewError(
                    f"{seat.name} cannot hold {lo}-{hi} {name}: it has already played {have} {name}"
                )
            if suit in voids:
                if low > 0:
                    raise ImpossibleViewError(
                        f"{seat.name} cannot hold {lo}-{hi} {name}: it played {have} {name} and then showed out"
                    )
                high = 0
            if low > high:
                raise ImpossibleViewError(f"{seat.name}: the {name} length {lo}-{hi} is an empty range")
            out[suit] = (low, high)
        for suit in voids:
            out[suit] = (0, 0)
        return out

    def _state(self) -> PlayState:
        cached = self.__dict__.get("_play_state")
        if cached is None:
            cached = self.play_state()
            object.__setattr__(self, "_play_state", cached)
        return cached

    def sample(self, rng: np.random.Generator) -> Layout:
        """One layout of the hidden cards, uniform among those consistent with the view."""
        parts = self.sampler().sample(rng)
        got = dict(zip((b.name for b in self.sampler().bins), parts))
        if self.stage == "declaration":
            hands = {s: self.hand | got.get("own", Hand()) if s == self.seat else got[s.name] for s in SEATS}
            widow = self.widow if self.widow is not None else got["widow"]
            return Layout(hands, widow)
        state = self._state()
        trick = Hand(state.trick)
        hands = {}
        for s in SEATS:
            now = self.hand - state.played_by[s] if s == self.seat else got[s.name]
            hands[s] = now | (state.played_by[s] & trick)
        return Layout(hands, self.discard | got[OUT], state.trick, state.leader)

    def admits(self, layout: Layout) -> bool:
        """Whether ``layout`` (as :meth:`sample` returns them) is one this view allows."""
        bins = self.sampler().bins
        parts: dict[str, Hand] = {}
        if self.stage == "declaration":
            if self.hand - layout.hands[self.seat]:
                return False
            if self.widow is not None and layout.widow != self.widow:
                return False
            parts = {s.name: layout.hands[s] for s in SEATS if s != self.seat}
            parts["widow"] = layout.widow
            parts["own"] = layout.hands[self.seat] - self.hand
        else:
            state = self._state()
            if layout.hands[self.seat] != (self.hand - state.played_by[self.seat]) | (
                state.played_by[self.seat] & Hand(state.trick)
            ):
                return False
            if self.discard - layout.widow:
                return False
            parts = {s.name: layout.hands[s] - state.played_by[s] for s in SEATS if s != self.seat}
            parts[OUT] = layout.widow - self.discard
        return self.sampler().admits([parts.get(b.name, Hand()) for b in bins])


def _listed(cards: Hand) -> str:
    return " ".join(str(c) for c in sorted(cards, key=lambda c: (c.suit, -c.rank)))


def _moves(exchange: Sequence[Any], seat: Seat) -> tuple[Move, ...]:
    """The exchange as ``seat`` saw it: ``(from, to, card)``, the card None where it was not
    part of the transfer. Accepts tuples or :class:`~solver.game.exchange.Transfer` values."""
    out: list[Move] = []
    for move in exchange:
        if hasattr(move, "frm"):
            frm, to, card = move.frm, move.to, move.card
        else:
            frm, to, card = move
        frm, to = Seat.parse(frm), Seat.parse(to)
        if frm == to:
            raise SolverError(f"an exchange transfer from {frm.name} to itself")
        if seat not in (frm, to):
            out.append((frm, to, None))
            continue
        if card is None:
            raise SolverError(f"{seat.name} sees the card of its own transfer {frm.name}->{to.name}")
        out.append((frm, to, Card.parse(card) if isinstance(card, str) else card))
    return tuple(out)


def _constraints(
    held: Mapping[Any, Any] | None = None,
    lengths: Mapping[Any, Any] | None = None,
    passed: Sequence[tuple[Any, Any]] | None = None,
) -> dict[str, Any]:
    """User constraints in the forms people write: ``held={"E": "SA HK"}``,
    ``lengths={"E": {"H": (0, 2)}}``, ``passed=[("E", "SA")]``."""
    out: dict[str, Any] = {}
    if held:
        out["held"] = {Seat.parse(s): _hand(c) for s, c in held.items()}
    if lengths:
        parsed: dict[Seat, dict[int, tuple[int, int]]] = {}
        for s, per_suit in lengths.items():
            row: dict[int, tuple[int, int]] = {}
            for suit, rng in per_suit.items():
                index = suit if isinstance(suit, int) else SUIT_CHARS.index(str(suit).upper())
                lo, hi = (rng, rng) if isinstance(rng, int) else rng
                row[index] = (int(lo), int(hi))
            parsed[Seat.parse(s)] = row
        out["lengths"] = parsed
    if passed:
        out["passed"] = tuple((Seat.parse(s), Card.parse(c) if isinstance(c, str) else c) for s, c in passed)
    return out
