"""A plain minimax over the trick-play rules: the reference the C engine is tested against.

Why it exists: the engine prunes, orders, compresses ranks and caches bounds; every one of
those can be subtly wrong. This module does none of that. It walks every legal card at
every turn and memoises only on the *complete* state (all three hands, who is to move,
the cards on the table), so an answer is right if the rules below are right — and they
are written to be read against docs/rules.md line by line:

* the leader plays any card; the others must follow the led suit if they can;
* a player void in the led suit may play any card — unless ``must_ruff``, in which
  case a player void in the led suit who holds a trump must play a trump;
* the highest trump in the trick wins; with no trump, the highest card of the led suit;
* the winner of a trick leads the next one.

Values are paranoid: ``seat`` maximises its tricks (minimises them in misère) while the
other two seats act together against it. Widow cards are out of play. ``played`` lists
the cards already on the table in the current trick, starting with the leader; the
deal holds the hands as they were when that trick began.

It is independent of ``solver.engine``: it uses only ``solver.cards``/``solver.deal``
for parsing and plain integers for hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from solver.cards import Card, parse_cards
from solver.deal import Deal, Seat, Strain
from solver.errors import IllegalPlayError

NO_TRUMP = 4
SUIT_BITS = (1 << 13) - 1


def _suit_of(bit: int) -> int:
    return (bit.bit_length() - 1) // 16


def _rank_of(bit: int) -> int:
    return (bit.bit_length() - 1) % 16 + 2


def _bits(mask: int) -> list[int]:
    """The single-bit masks of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _lane(hand: int, suit: int) -> int:
    return (hand >> (16 * suit)) & SUIT_BITS


def legal_bits(hand: int, trick: Sequence[int], strain: int, must_ruff: bool) -> list[int]:
    """The cards (as bits) the holder of ``hand`` may play to ``trick`` (bits already played)."""
    if not trick:
        return _bits(hand)
    led = _suit_of(trick[0])
    follow = _lane(hand, led) << (16 * led)
    if follow:
        return _bits(follow)
    if must_ruff and strain != NO_TRUMP:
        trumps = _lane(hand, strain) << (16 * strain)
        if trumps:
            return _bits(trumps)
    return _bits(hand)


def trick_winner_index(trick: Sequence[int], strain: int) -> int:
    """Position (0 = leader) of the card that wins a complete trick."""
    best = 0
    for i in range(1, len(trick)):
        card, top = trick[i], trick[best]
        card_suit, top_suit = _suit_of(card), _suit_of(top)
        if card_suit == top_suit:
            if _rank_of(card) > _rank_of(top):
                best = i
        elif strain != NO_TRUMP and card_suit == strain:
            best = i  # the first trump beats any non-trump on the table
        # otherwise a discard (or a trump under a higher trump): it cannot win
    return best


def _relaxed_choice(trick: Sequence[int], leader: int, seat: int, strain: int, seat_hand: int) -> bool:
    """In misère's relaxed game: a trick won by a coalition hand where both coalition
    hands played cards of one suit, each above every card seat holds of that suit (the
    one it played included), after which the coalition picks who leads next."""
    seat_at = (seat - leader) % 3
    if trick_winner_index(trick, strain) == seat_at:
        return False
    first, second = (trick[i] for i in range(3) if i != seat_at)
    suit = _suit_of(first)
    if _suit_of(second) != suit:
        return False
    seat_cards = _bits(_lane(seat_hand | trick[seat_at], suit) << (16 * suit))
    return all(min(first, second) > card for card in seat_cards)


@cache
def _value(
    hands: tuple[int, int, int],
    to_move: int,
    trick: tuple[int, ...],
    strain: int,
    seat: int,
    misere: bool,
    must_ruff: bool,
    relaxed: bool = False,
) -> int:
    """Tricks ``seat`` takes from here on (current trick included) under paranoid play
    (``relaxed``: in misère's relaxed game, see _relaxed_choice)."""
    if not trick and hands[0] == 0:
        return 0
    if len(trick) == 3:
        leader = to_move  # three cards played: the turn is back with the leader
        winner = (leader + trick_winner_index(trick, strain)) % 3
        rest = _value(hands, winner, (), strain, seat, misere, must_ruff, relaxed)
        if relaxed and misere and _relaxed_choice(trick, leader, seat, strain, hands[seat]):
            partner = 3 - seat - winner  # the other coalition hand
            rest = max(rest, _value(hands, partner, (), strain, seat, misere, must_ruff, relaxed))
        return rest + (1 if winner == seat else 0)
    results = []
    for bit in legal_bits(hands[to_move], trick, strain, must_ruff):
        new_hands = list(hands)
        new_hands[to_move] ^= bit
        results.append(
            _value(
                tuple(new_hands), (to_move + 1) % 3, trick + (bit,), strain, seat, misere, must_ruff, relaxed
            )
        )
    seat_to_move = to_move == seat
    wants_more = seat_to_move != misere  # seat in normal play, or the others in misère
    return max(results) if wants_more else min(results)


def _play_checked(
    hands: list[int], who: int, trick: list[int], card: Card, strain_i: int, must_ruff: bool
) -> None:
    """Move ``card`` from ``who``'s hand to the trick, or raise IllegalPlayError."""
    if not hands[who] & card.bit:
        raise IllegalPlayError(f"{card} is not in {Seat(who).name}'s hand")
    if card.bit not in legal_bits(hands[who], trick, strain_i, must_ruff):
        raise IllegalPlayError(f"{Seat(who).name} may not play {card} here")
    hands[who] ^= card.bit
    trick.append(card.bit)


def _start(
    deal: Deal,
    strain: Strain | str | int,
    leader: Seat | str | int,
    played: str | Iterable[str | Card],
    must_ruff: bool,
) -> tuple[tuple[int, int, int], int, tuple[int, ...], int]:
    """Check ``played`` card by card and return (hands, seat to move, trick, strain)."""
    strain_i = int(Strain.parse(strain))
    lead = int(Seat.parse(leader))
    hands = [h.mask for h in deal.hands]
    trick: list[int] = []
    cards = parse_cards(played)
    if len(cards) > 2:
        raise IllegalPlayError(f"{len(cards)} cards played to the current trick; at most 2 may be")
    for i, card in enumerate(cards):
        _play_checked(hands, (lead + i) % 3, trick, card, strain_i, must_ruff)
    return (hands[0], hands[1], hands[2]), (lead + len(trick)) % 3, tuple(trick), strain_i


def solve(
    deal: Deal,
    strain: Strain | str | int,
    *,
    leader: Seat | str | int = "E",
    seat: Seat | str | int = "D",
    misere: bool = False,
    must_ruff: bool = False,
    played: str | Iterable[str | Card] = (),
) -> int:
    """``seat``'s paranoid value: tricks it can guarantee (misère: fewest it can hold to)."""
    hands, to_move, trick, strain_i = _start(deal, strain, leader, played, must_ruff)
    return _value(hands, to_move, trick, strain_i, int(Seat.parse(seat)), misere, must_ruff)


def relaxed_solve(
    deal: Deal,
    strain: Strain | str | int,
    *,
    leader: Seat | str | int = "E",
    seat: Seat | str | int = "D",
    must_ruff: bool = False,
    played: str | Iterable[str | Card] = (),
) -> int:
    """``seat``'s misère value in the relaxed game (see _relaxed_choice): an upper bound
    on the real one, since every real line of play is a relaxed one."""
    hands, to_move, trick, strain_i = _start(deal, strain, leader, played, must_ruff)
    return _value(hands, to_move, trick, strain_i, int(Seat.parse(seat)), True, must_ruff, True)


def card_values(
    deal: Deal,
    strain: Strain | str | int,
    *,
    leader: Seat | str | int = "E",
    seat: Seat | str | int = "D",
    misere: bool = False,
    must_ruff: bool = False,
    played: str | Iterable[str | Card] = (),
) -> dict[str, int]:
    """For each legal card of the player to move, ``seat``'s value after that card."""
    hands, to_move, trick, strain_i = _start(deal, strain, leader, played, must_ruff)
    seat_i = int(Seat.parse(seat))
    out = {}
    for bit in legal_bits(hands[to_move], trick, strain_i, must_ruff):
        new_hands = list(hands)
        new_hands[to_move] ^= bit
        out[str(Card.from_bit(bit))] = _value(
            tuple(new_hands), (to_move + 1) % 3, trick + (bit,), strain_i, seat_i, misere, must_ruff
        )
    return out


def legal_cards(
    deal: Deal,
    strain: Strain | str | int,
    *,
    leader: Seat | str | int = "E",
    must_ruff: bool = False,
    played: str | Iterable[str | Card] = (),
) -> list[Card]:
    """The cards the player to move may play (after ``played``)."""
    hands, to_move, trick, strain_i = _start(deal, strain, leader, played, must_ruff)
    return [Card.from_bit(b) for b in legal_bits(hands[to_move], trick, strain_i, must_ruff)]


def to_move(leader: Seat | str | int, played: Sequence[object]) -> Seat:
    """The seat whose turn it is after ``len(played)`` cards of the current trick."""
    return Seat((int(Seat.parse(leader)) + len(played)) % 3)


def play_out(
    deal: Deal,
    strain: Strain | str | int,
    line: Iterable[str | Card],
    *,
    leader: Seat | str | int = "E",
    must_ruff: bool = False,
    played: str | Iterable[str | Card] = (),
) -> dict[Seat, int]:
    """Play ``line`` after ``played`` to the end, checking legality; tricks won per seat.

    Raises IllegalPlayError on an illegal card and AssertionError if the line stops before
    every card in play has been played.
    """
    hands, mover, trick, strain_i = _start(deal, strain, leader, played, must_ruff)
    hand_list = list(hands)
    trick_list = list(trick)
    lead = (mover - len(trick_list)) % 3
    won = {s: 0 for s in Seat}
    for card in parse_cards(line):
        _play_checked(hand_list, mover, trick_list, card, strain_i, must_ruff)
        mover = (mover + 1) % 3
        if len(trick_list) == 3:
            lead = (lead + trick_winner_index(trick_list, strain_i)) % 3
            won[Seat(lead)] += 1
            trick_list = []
            mover = lead
    if trick_list or any(hand_list):
        raise AssertionError("the line ends before the hand is played out")
    return won


def clear_cache() -> None:
    """Drop the memo (tests call this now and then to bound memory)."""
    _value.cache_clear()
