"""The card exchange between hands (the "snowball"), every protocol as pure functions.

Players who were *up* in the previous hand take good cards from players who were
*down*; how many cards, in which order and which cards depends on the protocol (see
``docs/rules.md``). Two steps keep planning and choosing apart:

* :func:`exchange_plan` pairs up and down players: ``(up_seat, down_seat, n)`` trades in
  the order they are carried out. It needs only the previous nets, mapped to the seats
  of the NEW hand (:func:`carry_nets` does that mapping).
* :func:`apply_exchange` carries the plan out on the new hands, asking a *decider* for
  the choices a protocol leaves to players, and returns the new hands with the list of
  :class:`Transfer` — exactly what a game record stores. :func:`check_exchange` replays
  a recorded list and says precisely where it went wrong.

>>> from solver.game.rules import get_ruleset
>>> exchange_plan((3, -1, -2), get_ruleset("british"))
[(<Seat.D: 0>, <Seat.M: 2>, 2), (<Seat.D: 0>, <Seat.E: 1>, 1)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..cards import LANE, LANE_MASK, NO_TRUMP, Card, Hand, Suit
from ..deal import Deal, Seat, Strain
from ..errors import IllegalPlayError, RecordError, RulesError, SolverError
from ..modes import Mode
from .rules import Ruleset

#: Names that mean "no trump suit": the modes without one, and "NT".
_NO_TRUMP_NAMES = frozenset({m.value for m in Mode if m.trump is None} | {"NT"})

PlanStep = tuple[Seat, Seat, int]
_NO_CARDS = Hand()


@dataclass(frozen=True)
class Transfer:
    """One card passing from one seat to another during the exchange."""

    frm: Seat
    to: Seat
    card: Card

    def to_json(self) -> dict[str, str]:
        return {"from": self.frm.name, "to": self.to.name, "card": str(self.card)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Transfer:
        """Read ``{"from": "E", "to": "D", "card": "SA"}``."""
        if not isinstance(data, Mapping):
            raise RecordError(f"an exchange transfer must be an object, got {data!r}")
        try:
            return cls(Seat.parse(data["from"]), Seat.parse(data["to"]), Card.parse(str(data["card"])))
        except KeyError as exc:
            raise RecordError(f"exchange transfer {dict(data)!r} lacks {exc.args[0]!r}") from None
        except SolverError as exc:
            raise RecordError(f"exchange transfer {dict(data)!r}: {exc}") from None

    def __str__(self) -> str:
        return f"{self.frm.name}->{self.to.name} {self.card}"


@dataclass(frozen=True)
class ExchangeRequest:
    """One choice the protocol leaves to a player, with what that player knows.

    ``role`` is ``"name-suit"`` (pick one of ``suits``), ``"give"`` (card-return and
    hungarian: a card for ``partner``) or ``"give-back"`` (named-suit: a card returned
    after taking one). ``allowed`` holds the cards that may be given. ``seen`` lists the
    transfers of this exchange that ``seat`` took part in, so far (cards received are
    known to the receiver). ``round``/``rounds`` count the trades of this pair.
    """

    role: str
    seat: Seat
    partner: Seat
    hand: Hand
    allowed: Hand
    suits: tuple[Suit, ...]
    trump: int
    protocol: str
    round: int
    rounds: int
    seen: tuple[Transfer, ...]


class Decider(Protocol):
    """Answers the choices of :class:`ExchangeRequest` (the match adapts players to this)."""

    def name_suit(self, request: ExchangeRequest) -> Suit: ...
    def give_card(self, request: ExchangeRequest) -> Card: ...


# --- seats and planning -----------------------------------------------------------------
def carry_nets(prev_nets: Sequence[int]) -> tuple[int, int, int]:
    """Previous nets by previous seat -> the same players' nets by seat in the next hand.

    The deal passes to the left, so the old Eldest deals next: every player moves one
    seat back (E -> D, M -> E, D -> M).
    """
    p = _three_ints(prev_nets, "previous nets")
    return (p[1], p[2], p[0])


def nets_by_seat(nets_by_player: Sequence[int], dealer: int) -> tuple[int, int, int]:
    """Player-indexed nets -> seat-indexed, for a hand dealt by player ``dealer``."""
    p = _three_ints(nets_by_player, "nets")
    return (p[dealer % 3], p[(dealer + 1) % 3], p[(dealer + 2) % 3])


def _three_ints(values: Sequence[int], what: str) -> tuple[int, int, int]:
    vals = tuple(values)
    if len(vals) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
        raise RulesError(f"{what} must be three whole numbers (D, E, M), got {values!r}")
    return (vals[0], vals[1], vals[2])


def _order_key(ruleset: Ruleset) -> Callable[[Seat, int], tuple]:
    """Who trades first, per protocol (used for the up players and for the down players)."""
    t = ruleset.targets
    if ruleset.exchange == "named-suit":
        # 001: the biggest "up" first; ties broken towards the dealer's left (E, M, D).
        return lambda s, amount: (-amount, (s - 1) % 3)
    if ruleset.exchange in ("card-return", "hungarian"):
        # 002: the larger target starts; 004: whoever needs more tricks in the new hand.
        return lambda s, amount: (-t[s], int(s))
    # Decision (docs/rules.md, decision 2): the larger surplus first, ties by the higher
    # target of the new hand.
    return lambda s, amount: (-amount, -t[s], int(s))


def exchange_plan(prev_nets: Sequence[int], ruleset: Ruleset) -> list[PlanStep]:
    """Pair up and down players: ``(up, down, n_cards)`` in the order carried out.

    ``prev_nets`` are the previous hand's nets of the players now sitting at D, E, M
    (see :func:`carry_nets`). An up player trades with the down players in proportion
    to their deficits (+3 against -1 and -2: one card with the first, two with the
    second); the order follows the protocol. ``n`` doubles with ``double_payment``.
    """
    nets = _three_ints(prev_nets, "previous nets")
    if sum(nets) != 0:
        raise RulesError(f"previous nets {nets} do not sum to zero")
    if ruleset.exchange == "none":
        return []
    key = _order_key(ruleset)
    ups = sorted((Seat(s) for s in range(3) if nets[s] > 0), key=lambda s: key(s, nets[s]))
    downs = sorted((Seat(s) for s in range(3) if nets[s] < 0), key=lambda s: key(s, -nets[s]))
    factor = 2 if ruleset.double_payment else 1
    plan: list[PlanStep] = []
    if len(ups) == 1:
        for d in downs:
            plan.append((ups[0], d, -nets[d] * factor))
    elif len(ups) == 2:
        for u in ups:
            plan.append((u, downs[0], nets[u] * factor))
    return plan


# --- carrying the plan out -----------------------------------------------------------------
def trump_index(trump: Any) -> int:
    """Read a trump given as a Mode or mode name, Strain, Suit, 0..NO_TRUMP or None
    (NO_TRUMP = no trump / not named)."""
    if trump is None:
        return NO_TRUMP
    if isinstance(trump, str):
        if trump in _NO_TRUMP_NAMES:
            return NO_TRUMP
        try:
            return int(Strain.parse(trump))
        except SolverError:
            raise RulesError(f"unknown trump or mode {trump!r}") from None
    if isinstance(trump, int) and 0 <= int(trump) <= NO_TRUMP:
        return int(trump)
    raise RulesError(f"unknown trump {trump!r}")


def card_strength(card: Card, trump: int = NO_TRUMP) -> tuple[int, int, int]:
    """lowest-for-highest order: trumps above all, then by rank, ties by suit order ♠♥♦♣.

    **Decision** (docs/rules.md, decision 3): with the trump not yet named, aces come first
    whatever the suit.
    """
    return (int(card.suit == trump), card.rank, 3 - int(card.suit))


class _Run:
    """One exchange being carried out: the hands, the log, the decider."""

    def __init__(self, hands: Sequence[Hand], ruleset: Ruleset, decide: Any, trump: int) -> None:
        self.hands = list(hands)
        self.ruleset = ruleset
        self.decide = decide
        self.trump = trump
        self.log: list[Transfer] = []
        self.expected: Sequence[Transfer] | None = None  # set when checking a record

    def move(self, frm: Seat, to: Seat, card: Card) -> None:
        if self.expected is not None:
            i, got = len(self.log), Transfer(frm, to, card)
            if i >= len(self.expected):
                raise RecordError(
                    f"the exchange needs more than the {len(self.expected)} recorded transfers; "
                    f"transfer {i + 1} would be {got}"
                )
            if self.expected[i] != got:
                raise RecordError(
                    f"exchange transfer {i + 1} is {self.expected[i]} "
                    f"but the {self.ruleset.exchange} rules give {got}"
                )
        self.hands[frm] = self.hands[frm].remove(card)
        self.hands[to] = self.hands[to].add(card)
        self.log.append(Transfer(frm, to, card))

    def request(
        self,
        role: str,
        seat: Seat,
        partner: Seat,
        allowed: Hand = _NO_CARDS,
        suits: tuple[Suit, ...] = (),
        rnd: int = 1,
        rounds: int = 1,
    ) -> ExchangeRequest:
        seen = tuple(t for t in self.log if seat in (t.frm, t.to))
        return ExchangeRequest(
            role,
            seat,
            partner,
            self.hands[seat],
            allowed,
            suits,
            self.trump,
            self.ruleset.exchange,
            rnd,
            rounds,
            seen,
        )

    def ask_card(self, req: ExchangeRequest) -> Card:
        answer = self.decide.give_card(req)
        try:
            card = Card.parse(answer) if isinstance(answer, str) else answer
        except SolverError:
            card = None
        if not isinstance(card, Card):
            raise IllegalPlayError(f"{req.seat.name} must give a card in the exchange, not {answer!r}")
        if card not in req.hand:
            raise IllegalPlayError(
                f"{req.seat.name} cannot give {card} in the exchange: not in hand {req.hand}"
            )
        if card not in req.allowed:
            why = (
                "a trump-suit card"
                if card.suit == self.trump and self.ruleset.exchange == "hungarian"
                else "the card just received"
                if req.role == "give-back"
                else "not allowed here"
            )
            raise IllegalPlayError(f"{req.seat.name} cannot give {card} to {req.partner.name}: {why}")
        return card

    def ask_suit(self, req: ExchangeRequest) -> Suit:
        answer = self.decide.name_suit(req)
        try:
            suit = Suit.parse(answer) if isinstance(answer, str) else Suit(int(answer))
        except (SolverError, ValueError, TypeError):
            raise IllegalPlayError(
                f"{req.seat.name} must name a suit in the exchange, not {answer!r}"
            ) from None
        if suit not in req.suits:
            raise IllegalPlayError(
                f"{req.seat.name} cannot name {suit.name}: {req.partner.name} is known to be void in it"
            )
        return suit

    # Protocols ---------------------------------------------------------------------------
    def lowest_for_highest(self, up: Seat, down: Seat, n: int) -> None:
        key = lambda c: card_strength(c, self.trump)  # noqa: E731
        low = sorted(self.hands[up], key=key)[:n]
        high = sorted(self.hands[down], key=key, reverse=True)[:n]
        for c in low:
            self.move(up, down, c)
        for c in high:
            self.move(down, up, c)

    def named_suit(self, up: Seat, down: Seat, n: int) -> None:
        known_void: set[Suit] = set()
        for rnd in range(1, n + 1):
            while True:
                suits = tuple(s for s in Suit if s not in known_void)
                suit = self.ask_suit(self.request("name-suit", up, down, suits=suits, rnd=rnd, rounds=n))
                in_suit = self.hands[down].cards_in(suit)
                if in_suit:
                    break
                known_void.add(suit)  # Decision: the up player names another suit
            taken = in_suit[0]
            self.move(down, up, taken)
            allowed = self.hands[up].remove(taken)
            back = self.ask_card(self.request("give-back", up, down, allowed, rnd=rnd, rounds=n))
            self.move(up, down, back)
            known_void.discard(back.suit)

    def card_return(self, up: Seat, down: Seat, n: int) -> None:
        for rnd in range(1, n + 1):
            allowed = self.hands[up]
            if self.ruleset.exchange == "hungarian":
                allowed = Hand(allowed.mask & ~(LANE_MASK << (LANE * self.trump)))
            if not allowed:
                return  # Decision: nothing left that may be given ends this pair's trade
            given = self.ask_card(self.request("give", up, down, allowed, rnd=rnd, rounds=n))
            higher = [c for c in self.hands[down].cards_in(given.suit) if c.rank > given.rank]
            self.move(up, down, given)
            self.move(down, up, higher[0] if higher else given)


def _check_trump(ruleset: Ruleset, trump: int) -> None:
    if ruleset.exchange in ("card-return", "hungarian") and trump == NO_TRUMP:
        raise RulesError(
            f"the {ruleset.exchange} exchange happens only in a trump-suit contract "
            "(none after NT, MT or miz); name the trump suit first"
        )
    if trump != NO_TRUMP and not ruleset.trump_named_before_exchange and ruleset.exchange != "none":
        raise RulesError(
            f"under {ruleset.name} the {ruleset.exchange} exchange comes before the trump is named"
        )


def _hands_of(hands: Deal | Sequence[Hand]) -> list[Hand]:
    seq = list(hands.hands) if isinstance(hands, Deal) else list(hands)
    if len(seq) != 3 or not all(isinstance(h, Hand) for h in seq):
        raise RulesError("the exchange needs three hands (D, E, M)")
    return seq


def apply_exchange(
    hands: Deal | Sequence[Hand],
    plan: Sequence[PlanStep],
    ruleset: Ruleset,
    decide: Any = None,
    trump: Any = None,
) -> tuple[tuple[Hand, Hand, Hand], list[Transfer]]:
    """Carry ``plan`` out on ``hands`` (by seat); return the new hands and every transfer in order.

    ``decide`` (a :class:`Decider`) is asked only by named-suit, card-return and hungarian.
    ``trump`` is the named trump (a mode name, Strain or 0..4) where the protocol comes
    after the declaration. Raises :class:`IllegalPlayError` on an illegal choice and
    :class:`RulesError` on a plan or trump the ruleset does not allow.
    """
    if ruleset.exchange in ("named-suit", "card-return", "hungarian") and decide is None and plan:
        raise RulesError(f"the {ruleset.exchange} exchange needs a decider for the players' choices")
    run = _Run(_hands_of(hands), ruleset, decide, trump_index(trump))
    _carry_out(run, plan)
    h = run.hands
    return (h[0], h[1], h[2]), run.log


def _carry_out(run: _Run, plan: Sequence[PlanStep]) -> None:
    """Check the trump and every plan step, then trade pair by pair."""
    ruleset = run.ruleset
    _check_trump(ruleset, run.trump)
    for step in plan:
        if len(step) != 3:
            raise RulesError(f"exchange plan step {step!r} is not (up, down, n)")
        up, down, n = Seat.parse(step[0]), Seat.parse(step[1]), step[2]
        if up == down or not isinstance(n, int) or n < 1:
            raise RulesError(f"exchange plan step {step!r} is not a trade of n >= 1 cards between two seats")
        if n > len(run.hands[up]) or n > len(run.hands[down]):
            raise RulesError(f"exchange plan step {step!r}: more cards than a hand holds")
        if ruleset.exchange == "none":
            raise RulesError("this ruleset has no card exchange")
        if ruleset.exchange == "lowest-for-highest":
            run.lowest_for_highest(up, down, n)
        elif ruleset.exchange == "named-suit":
            run.named_suit(up, down, n)
        else:
            run.card_return(up, down, n)


class _Scripted:
    """A decider that replays the choices visible in a recorded list of transfers."""

    def __init__(self, expected: Sequence[Transfer], run_log: list[Transfer]) -> None:
        self.expected = expected
        self.log = run_log

    def _next(self) -> Transfer:
        i = len(self.log)
        if i >= len(self.expected):
            raise RecordError(f"the exchange needs more than the {len(self.expected)} recorded transfers")
        return self.expected[i]

    def name_suit(self, request: ExchangeRequest) -> Suit:
        return self._next().card.suit

    def give_card(self, request: ExchangeRequest) -> Card:
        return self._next().card


def check_exchange(
    hands: Deal | Sequence[Hand],
    plan: Sequence[PlanStep],
    ruleset: Ruleset,
    transfers: Sequence[Transfer],
    trump: Any = None,
) -> tuple[Hand, Hand, Hand]:
    """Replay a recorded exchange; the hands after it, or a RecordError naming the bad transfer."""
    run = _Run(_hands_of(hands), ruleset, None, trump_index(trump))
    run.decide = _Scripted(list(transfers), run.log)
    run.expected = list(transfers)
    try:
        _carry_out(run, plan)
    except RecordError:
        raise
    except SolverError as exc:
        i = len(run.log)
        where = f"transfer {i + 1} ({transfers[i]})" if i < len(transfers) else f"transfer {i + 1}"
        raise RecordError(f"exchange {where}: {exc}") from None
    if len(transfers) != len(run.log):
        raise RecordError(f"the exchange has {len(run.log)} transfers but the record lists {len(transfers)}")
    h = run.hands
    return (h[0], h[1], h[2])


def cards_moved(transfers: Sequence[Transfer], plan: Sequence[PlanStep]) -> int:
    """How many cards the down players paid to the up players (the overtricks, x2 with double payment)."""
    pairs = {(Seat(u), Seat(d)) for u, d, _ in plan}
    return sum(1 for t in transfers if (t.to, t.frm) in pairs)


def run_exchange(
    hands: list[int],
    prev_nets_by_seat: tuple[int, int, int],
    ruleset: Any,
    trump: int | None,
    decider: Any,
    where: str,
) -> list:
    """Carry out the exchange on ``hands`` (masks by seat, changed in place) with
    :mod:`solver.game.exchange`; return its transfers. ``decider`` answers the players'
    choices (``name_suit(request)``, ``give_card(request)``); an illegal choice raises
    IllegalPlayError prefixed with ``where`` (the hand number)."""
    if ruleset.exchange == "none" or not any(prev_nets_by_seat):
        return []
    plan = exchange_plan(prev_nets_by_seat, ruleset)
    if not plan:
        return []
    try:
        new_hands, transfers = apply_exchange([Hand(m) for m in hands], plan, ruleset, decider, trump)
    except IllegalPlayError as exc:
        raise IllegalPlayError(f"{where}, exchange: {exc}") from None
    for s in Seat:
        hands[s] = new_hands[s].mask
    return transfers


__all__ = [
    "Decider",
    "ExchangeRequest",
    "Transfer",
    "apply_exchange",
    "card_strength",
    "cards_moved",
    "carry_nets",
    "check_exchange",
    "exchange_plan",
    "nets_by_seat",
    "run_exchange",
    "trump_index",
]
