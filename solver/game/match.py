"""The match loop: deal -> exchange -> declaration -> play -> scoring -> next dealer -> end.

Every decision comes from a player object (:mod:`solver.players`) and is checked
before it is applied; a wrong decision raises :class:`~solver.errors.IllegalPlayError`
naming the player, the hand and the card. The card accounting invariant (the hands,
the widow, the discards and the played cards are disjoint and together make the deck
in play) is checked after every step.

A match is reproducible from its seed: one :class:`random.Random` derived from the
seed deals the cards and picks the first dealer; players own their RNGs.

Seating: ``players`` are listed clockwise. In a hand dealt by player ``d`` seat D is
player ``d``, E is ``(d+1) % 3`` and M is ``(d+2) % 3``; the next dealer is ``(d+1) % 3``.

The result of :meth:`Match.play` is the game record of :mod:`solver.game.records`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..cards import ALL_CARDS, LANE, LANE_MASK, LANE_SHIFT, Card, Hand, Suit
from ..deal import SEATS, Seat
from ..errors import IllegalPlayError, InternalError, RulesError
from ..inputs import check_int, check_seed, short_repr
from ..modes import Mode
from ..tricks import legal_mask, trick_winner
from . import scoring
from .exchange import ExchangeRequest, Transfer, run_exchange
from .rules import Ruleset
from .views import (
    Announcement,
    DeclareView,
    ExchangeView,
    Player,
    PlayView,
    Table,
)

if TYPE_CHECKING:  # records replays through Match, so Match takes only its types
    from .records import DeclarationRecord, ExchangeRecord, MatchHandRecord, MatchRecord

#: The safety cap on hands per match (end reason ``hand-cap``): no ruleset needs more, and
#: a record stopped at any other cap is marked ``"truncated": true``.
HAND_CAP = 200


def _triple(values: Sequence[int]) -> tuple[int, int, int]:
    """Three values (by seat or by player) as the fixed-length tuple the views declare."""
    return (values[0], values[1], values[2])


def deck_for(ruleset: Any) -> list[Card]:
    """The ruleset's deck (:attr:`Ruleset.deck`) in the order the shuffle starts from."""
    deck = ruleset.deck
    return [c for c in ALL_CARDS if c in deck]


def mode_strain(mode: Mode | str) -> str:
    """The strain a mode is played in, as written in records (``S H D C N``)."""
    return Mode(mode).strain.name


class HandState:
    """The cards of one hand in progress, by seat, as masks; checks the accounting."""

    __slots__ = ("deck", "hands", "widow", "discards", "played", "number")

    def __init__(self, deck: int, hands: list[int], widow: int, number: int) -> None:
        self.deck = deck
        self.hands = hands
        self.widow = widow
        self.discards = 0
        self.played = 0
        self.number = number

    def check(self, step: str) -> None:
        """Every card of the deck is in exactly one place (hands, widow, discards, played)."""
        places = (*self.hands, self.widow, self.discards, self.played)
        union = 0
        total = 0
        for p in places:
            union |= p
            total += p.bit_count()
        if union != self.deck or total != self.deck.bit_count():
            raise InternalError(
                f"hand {self.number}, {step}: card accounting broken "
                f"({total} cards placed, {self.deck.bit_count()} in the deck)"
            )


@dataclass
class MatchState:
    """What the end-of-match rules look at: per-hand history by PLAYER index."""

    hands_played: int = 0
    totals: list[int] = field(default_factory=lambda: [0, 0, 0])
    history: list[scoring.HandResult] = field(default_factory=list)  # solver.game.scoring.HandResult per hand
    modes_used: list[list[str]] = field(default_factory=lambda: [[], [], []])


class Match:
    """One match between three players under a ruleset.

    >>> from solver.game.rules import get_ruleset
    >>> from solver.players import get_player
    >>> players = [get_player("heuristic", i) for i in range(3)]
    >>> record = Match(get_ruleset("twelve"), players, seed=1).play()
    >>> record["result"]["reason"] in ("twelve-tricks", "hands-limit")
    True
    >>> record == Match(get_ruleset("twelve"), [get_player("heuristic", i) for i in range(3)], seed=1).play()
    True
    """

    def __init__(
        self,
        ruleset: Any,
        players: Sequence[Player],
        seed: int | str = 0,
        *,
        names: Sequence[str] | None = None,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        first_dealer: int | None = None,
        max_hands: int = HAND_CAP,
        deal_source: Callable[[int], tuple[list[list[Card]], list[Card]]] | None = None,
    ) -> None:
        if not isinstance(ruleset, Ruleset):
            raise RulesError(
                f"a match is played under a Ruleset (see get_ruleset), got {short_repr(ruleset)}"
            )
        if not isinstance(players, (list, tuple)) or len(players) != 3:
            raise RulesError(f"a match needs a list of exactly 3 players, got {short_repr(players)}")
        for p in players:
            if not all(callable(getattr(p, m, None)) for m in ("declare", "name_suit", "give_card", "play")):
                raise RulesError(
                    f"{short_repr(p)} is not a player: it needs declare, name_suit, give_card and play"
                )
        if names is not None and not (
            isinstance(names, (list, tuple)) and len(names) == 3 and all(isinstance(n, str) for n in names)
        ):
            raise RulesError(f"names must be three strings, got {short_repr(names)}")
        check_seed(seed, RulesError)
        if first_dealer is not None:
            check_int(first_dealer, "first_dealer", RulesError, 0, 2)
        check_int(max_hands, "max_hands", RulesError, 1, HAND_CAP)
        self.ruleset = ruleset
        self.players: list[Player] = list(players)
        self.names = list(names) if names is not None else [p.name for p in players]
        self.rng = random.Random(f"sm358-match:{seed}")
        self.first_dealer = self.rng.randrange(3) if first_dealer is None else first_dealer % 3
        self.dealer = self.first_dealer
        self.state = MatchState()
        self.max_hands = max_hands
        self.deck_cards = deck_for(ruleset)
        self.deck_mask = sum(c.bit for c in self.deck_cards)
        self.prev_nets: tuple[int, int, int] | None = None  # by player
        self.record: MatchRecord = {
            "format": "sm358-match",
            "version": 1,
            "rules": {
                "preset": preset or str(getattr(ruleset, "name", "custom")),
                "options": dict(options or {}),
            },
            "players": self.names,
            "seed": str(seed),
            "hands": [],
            "result": None,
        }
        self.deal_source = deal_source  # fixed deals (record replay) instead of shuffling
        self._trick_winners: list[int] = []

    # --- public driver ----------------------------------------------------------------
    def play(self) -> MatchRecord:
        """Play hands until the match ends; return the finished game record."""
        while self.record["result"] is None:
            self.play_hand()
        return self.record

    def play_hand(self) -> MatchHandRecord:
        """Play one hand, append it to the record, and settle the end-of-match check."""
        number = self.state.hands_played + 1
        dealer = self.dealer
        hand_rec = self._play_hand(number, dealer)
        self.record["hands"].append(hand_rec)
        self.state.hands_played = number
        tricks = _triple([hand_rec["tricks"][s.name] for s in SEATS])
        result = scoring.HandResult(
            dealer, hand_rec["declaration"]["mode"], tricks, tuple(Seat(s) for s in self._trick_winners)
        )
        self.state.history.append(result)
        points = result.points_by_player(self.ruleset)
        for p in range(3):
            self.state.totals[p] += points[p]
        self.prev_nets = _triple([hand_rec["nets"][Seat((p - dealer) % 3).name] for p in range(3)])
        verdict = scoring.match_over(self.state.history, self.ruleset)
        if verdict.over:
            self.record["result"] = {
                "winner": verdict.winner,
                "reason": verdict.reason,
                "detail": verdict.detail,
                "totals": list(self.state.totals),
            }
        elif number >= self.max_hands:
            self.record["result"] = {
                "winner": scoring.leader_by_total(self.state.totals),
                "reason": "hand-cap",
                "detail": f"stopped at the cap of {self.max_hands} hands; highest total wins",
                "totals": list(self.state.totals),
            }
            if self.max_hands != HAND_CAP:  # not the standard cap: say so, or the record reads as forged
                self.record["truncated"] = True
        self.dealer = (dealer + 1) % 3
        return hand_rec

    # --- one hand -----------------------------------------------------------------------
    def _play_hand(self, number: int, dealer: int) -> MatchHandRecord:
        """One hand: deal, the declaration steps of the ruleset, the play, the nets."""
        rs = self.ruleset
        dealt_lists, widow_cards = self._deal(number)
        hands = [sum(c.bit for c in lst) for lst in dealt_lists]
        widow = sum(c.bit for c in widow_cards)
        st = HandState(self.deck_mask, hands, widow, number)
        st.check("deal")
        dealt = {s.name: str(Hand(hands[s])) for s in SEATS}
        hand = _HandSteps(self, number, dealer, st, dealt_lists)
        mode = hand.declare()
        self.state.modes_used[hand.decl_player].append(mode)
        declaration: DeclarationRecord = {
            "declarer": hand.declarer.name,
            "mode": mode.value,
            "strain": mode_strain(mode),
            "misere": mode.minimising,
            "discard": [str(c) for c in hand.discard],
        }
        sizes = {len(Hand(h)) for h in st.hands}
        if sizes != {rs.hand_size}:
            raise InternalError(
                f"hand {number}: hands hold {sorted(sizes)} cards before the play; expected {rs.hand_size}"
            )
        play, tricks = self._play_tricks(st, number, dealer, hand.declarer, mode, hand.table, hand.sees_all)
        nets = scoring.hand_nets(tricks, rs, mode)
        if sum(nets) != 0:
            raise InternalError(f"hand {number}: nets {nets} do not sum to zero")
        return {
            "dealer": dealer,
            "dealt": dealt,
            "widow": str(Hand(widow)),
            "exchange": hand.exchange_log,
            "declaration": declaration,
            "play": play,
            "tricks": {s.name: tricks[s] for s in SEATS},
            "nets": {s.name: nets[s] for s in SEATS},
        }

    def _deal(self, number: int) -> tuple[Sequence[Sequence[Card]], Sequence[Card]]:
        """The three hands and the widow of hand ``number``: shuffled, or from ``deal_source``."""
        if self.deal_source is not None:
            return self.deal_source(number)
        n, w = self.ruleset.hand_size, self.ruleset.widow_size
        cards = list(self.deck_cards)
        self.rng.shuffle(cards)
        return [cards[i * n : (i + 1) * n] for i in range(3)], cards[3 * n : 3 * n + w]

    def _play_tricks(
        self,
        st: HandState,
        number: int,
        dealer: int,
        declarer: Seat,
        mode: Mode,
        table: Callable[[Seat], Table],
        sees_all: Callable[[Seat], bool],
    ) -> tuple[list[str], tuple[int, int, int]]:
        """The trick-by-trick play: the hot path of simulation, on plain masks."""
        rs = self.ruleset
        trump = int(mode.strain)
        must_ruff = bool(rs.must_ruff)
        leader = rs.opening_leader(declarer)
        hands = st.hands
        tricks = [0, 0, 0]
        play: list[str] = []
        winners: list[int] = []
        self._trick_winners = winners
        tables = [table(s) for s in SEATS]
        seat_players = [self.players[(dealer + s) % 3] for s in SEATS]
        omniscient = [sees_all(s) for s in SEATS]
        history: list[Card] = []
        for trick_no in range(1, rs.hand_size + 1):
            cards: list[Card] = []
            positions: list[int] = []
            led = -1
            for k in range(3):
                seat = SEATS[(leader + k) % 3]
                hand = hands[seat]
                legal = legal_mask(hand, led, trump, must_ruff)
                view = PlayView(
                    tables[seat],
                    hand,
                    legal,
                    tuple(cards),
                    leader,
                    trump,
                    mode,
                    (tricks[0], tricks[1], tricks[2]),
                    st.played,
                    trick_no,
                    _triple(hands) if omniscient[seat] else None,
                    tuple(history),
                )
                card = seat_players[seat].play(view)
                bit = card.bit if isinstance(card, Card) else 0
                if not bit & legal:
                    who = f"hand {number}, trick {trick_no}: {self.names[(dealer + seat) % 3]} ({seat.name})"
                    if not isinstance(card, Card):
                        raise IllegalPlayError(f"{who} played {card!r}, not a card")
                    if not bit & hand:
                        raise IllegalPlayError(f"{who} played {card}, which is not in the hand")
                    if hand & (LANE_MASK << (LANE * led)):
                        raise IllegalPlayError(
                            f"{who} played {card}: revoke (must follow {Suit(led).symbol})"
                        )
                    raise IllegalPlayError(
                        f"{who} played {card}: must ruff ({Suit(trump).symbol} trumps, "
                        f"void in {Suit(led).symbol})"
                    )
                hands[seat] = hand & ~bit
                st.played |= bit
                pos = bit.bit_length() - 1
                if led < 0:
                    led = pos >> LANE_SHIFT
                cards.append(card)
                history.append(card)
                positions.append(pos)
                play.append(str(card))
            winner = SEATS[(leader + trick_winner(positions, trump)) % 3]
            tricks[winner] += 1
            winners.append(winner)
            leader = winner
            st.check(f"trick {trick_no}")
        return play, (tricks[0], tricks[1], tricks[2])

    def _decider(
        self,
        number: int,
        dealer: int,
        table: Callable[[Seat], Table],
        sees_all: Callable[[Seat], bool],
        st: HandState,
    ) -> _PlayerDecider:
        return _PlayerDecider(self, number, dealer, table, sees_all, st)


class _HandSteps:
    """The steps between the deal and the first lead of one hand (``Ruleset.sequence``):
    the exchange, taking the widow, naming the mode, discarding. Holds what the steps
    share: the hand's state, the mode once named, the discard and the exchange log."""

    def __init__(
        self, match: Match, number: int, dealer: int, st: HandState, dealt: Sequence[Sequence[Card]]
    ) -> None:
        rs = match.ruleset
        self.match, self.rs, self.number, self.dealer, self.st, self.dealt = (
            match,
            rs,
            number,
            dealer,
            st,
            dealt,
        )
        self.declarer = Seat(rs.declarer)
        self.decl_player = (dealer + self.declarer) % 3
        self.modes = tuple(rs.allowed_modes(match.state.modes_used[self.decl_player]))
        self.totals = _triple(match.state.totals)
        self.transfers_by_seat: list[list[Transfer]] = [[], [], []]
        self.all_transfers: list[Transfer] = []
        self.exchange_log: list[ExchangeRecord] = []
        self.mode: Mode | None = None
        self.discard: list[Card] = []

    def table(self, seat: Seat) -> Table:
        """What every player knows about the hand, as ``seat`` sees it."""
        rs = self.rs
        targets = _triple([rs.target_of(s, self.mode) for s in SEATS])
        return Table(
            rs,
            self.number,
            self.dealer,
            (self.dealer + seat) % 3,
            seat,
            targets,
            self.declarer,
            self.totals,
            tuple(self.transfers_by_seat[seat]),
            moves=tuple((t.frm, t.to, t.card if seat in (t.frm, t.to) else None) for t in self.all_transfers),
        )

    def sees_all(self, seat: Seat) -> bool:
        return bool(getattr(self.match.players[(self.dealer + seat) % 3], "sees_all", False))

    # --- the steps ------------------------------------------------------------------------
    def declare(self) -> Mode:
        """Run the ruleset's steps in order; the mode named."""
        steps = [x for x in self.rs.sequence if x != "exchange" or self.number > 1]
        i = 0
        while i < len(steps):
            step = steps[i]
            if step == "exchange":
                if self.rs.exchange_in_mode(self.mode):
                    self.exchange()
            elif step == "take-widow":
                self.take_widow()
            elif step == "name":
                # naming followed at once by discarding is one question ("both")
                i += self.name(discard_next=i + 1 < len(steps) and steps[i + 1] == "discard")
            elif step == "discard":
                self.do_discard(self.ask("discard", self.own(), self.own(), self.mode).discard)
            else:
                raise RulesError(f"unknown step {step!r} in the ruleset's sequence")
            i += 1
        assert self.mode is not None
        return self.mode

    def own(self) -> int:
        return self.st.hands[self.declarer]

    def name(self, discard_next: bool) -> int:
        """Ask for the mode (and the discard, when it follows); the extra steps taken."""
        visible = self.own()
        if self.rs.widow == "first-six":
            visible = sum(c.bit for c in self.dealt[self.declarer][:6])
        if discard_next:
            d = self.ask("both", self.own(), visible, None)
            self.mode = Mode(d.mode)  # checked against the allowed modes by ask()
            self.do_discard(d.discard)
            return 1
        self.mode = Mode(self.ask("mode", self.own(), visible, None).mode)
        return 0

    def take_widow(self) -> None:
        st = self.st
        st.hands[self.declarer] |= st.widow
        st.widow = 0
        st.check("taking the widow")

    def do_discard(self, cards_out: Sequence[Card]) -> None:
        st = self.st
        m = sum(c.bit for c in cards_out)
        st.hands[self.declarer] &= ~m
        st.discards |= m
        self.discard.extend(cards_out)
        st.check("discarding")

    def exchange(self) -> None:
        match, number, dealer = self.match, self.number, self.dealer
        if number == 1 or match.prev_nets is None:
            return
        prev = match.prev_nets
        prev_by_seat = _triple([prev[(dealer + s) % 3] for s in SEATS])
        trump = int(self.mode.strain) if self.mode is not None else None
        transfers = run_exchange(
            self.st.hands,
            prev_by_seat,
            self.rs,
            trump,
            match._decider(number, dealer, self.table, self.sees_all, self.st),
            f"hand {number}",
        )
        self.all_transfers.extend(transfers)
        for t in transfers:
            self.transfers_by_seat[t.frm].append(t)
            self.transfers_by_seat[t.to].append(t)
            self.exchange_log.append({"from": Seat(t.frm).name, "to": Seat(t.to).name, "card": str(t.card)})
        self.st.check("exchange")

    # --- the declarer's answers -------------------------------------------------------------
    def ask(self, stage: str, hand_mask: int, visible: int, fixed: Mode | None) -> Announcement:
        """The declarer's announcement at ``stage`` (``mode``, ``discard`` or ``both``), checked."""
        rs, st, declarer = self.rs, self.st, self.declarer
        n_discard = 0 if stage == "mode" else (rs.widow_size if rs.widow != "none" else 0)
        sees = self.sees_all(declarer)
        view = DeclareView(
            self.table(declarer),
            stage,
            hand_mask,
            visible,
            self.modes,
            n_discard,
            fixed,
            _triple(st.hands) if sees else None,
            st.widow if sees else None,
        )
        d = self.match.players[self.decl_player].declare(view)
        self._check(d, stage, hand_mask, n_discard, fixed)
        return d

    def _check(self, d: object, stage: str, hand_mask: int, n_discard: int, fixed: Mode | None) -> None:
        where = f"hand {self.number}: declarer {self.match.names[self.decl_player]} ({self.declarer.name})"
        if not isinstance(d, Announcement):
            raise IllegalPlayError(f"{where} returned {d!r}, not a Announcement")
        if stage != "discard" and d.mode not in self.modes:
            raise IllegalPlayError(f"{where} named mode {d.mode!r}; allowed: {', '.join(self.modes)}")
        if stage == "discard" and d.mode != fixed:
            raise IllegalPlayError(f"{where} changed the mode from {fixed} to {d.mode}")
        if stage == "mode" and d.discard:
            raise IllegalPlayError(f"{where} discarded before being asked to")
        if stage != "mode":
            for c in d.discard:
                if not (isinstance(c, Card) and hand_mask & c.bit):
                    raise IllegalPlayError(
                        f"{where} discarded {c}, which is not in the cards to discard from"
                    )
            if len(d.discard) != n_discard or len(set(d.discard)) != n_discard:
                raise IllegalPlayError(
                    f"{where} discarded {len(set(d.discard))} distinct card(s); must discard {n_discard}"
                )


class _PlayerDecider:
    """Turns the exchange's requests (:class:`solver.game.exchange.ExchangeRequest`) into
    :class:`~solver.game.views.ExchangeView` questions for the right player."""

    def __init__(
        self,
        match: Match,
        number: int,
        dealer: int,
        table: Callable[[Seat], Table],
        sees_all: Callable[[Seat], bool],
        st: HandState,
    ) -> None:
        self.match, self.number, self.dealer = match, number, dealer
        self.table, self.sees_all, self.st = table, sees_all, st

    def _view(self, req: ExchangeRequest) -> ExchangeView:
        seat = Seat(req.seat)
        t = self.table(seat)
        t = Table(
            t.ruleset, t.hand_number, t.dealer, t.me, t.seat, t.targets, t.declarer, t.totals, tuple(req.seen)
        )
        return ExchangeView(
            t,
            req.role,
            req.hand.mask,
            Seat(req.partner),
            req.allowed.mask,
            tuple(req.suits),
            req.trump,
            _triple(self.st.hands) if self.sees_all(seat) else None,
        )

    def _player(self, req: ExchangeRequest) -> Player:
        return self.match.players[(self.dealer + req.seat) % 3]

    def name_suit(self, req: ExchangeRequest) -> Suit:
        return self._player(req).name_suit(self._view(req))

    def give_card(self, req: ExchangeRequest) -> Card:
        return self._player(req).give_card(self._view(req))
