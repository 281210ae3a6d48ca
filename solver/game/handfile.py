"""Hand files: one played hand as text a person can type after the game (``docs/handfile.md``).

A hand file is PBN-like: tag pairs ``[Name "value"]`` and then the play, one trick a
line with the leader's card first. Reading it checks the whole play against the rules
(follow suit, must-ruff, who leads, no card twice), so a :class:`HandRecord` that loads
is a legal hand; a bad file fails with one :class:`~solver.errors.RecordError` naming
the line, the trick and the card.

>>> rec = load_hand('''
... [Rules "twelve"]
... [Contract "S"]
... [Deal "D:AK... Q2... 3.A.."]
... [Leader "D"]
... SA S2 S3
... SK SQ HA
... ''')
>>> rec.complete, rec.won
(True, (2, 0, 0))
>>> pos = rec.position(2)
>>> str(pos.deal), pos.leader.name, pos.won
('D:K... Q... .A..', 'D', (1, 0, 0))
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import SUIT_CHARS, SUIT_SYMBOLS, Card, Hand, Suit
from ..deal import SEAT_NAMES, Deal, Seat
from ..errors import RecordError, SolverError
from ..inputs import load_json, read_text_file, short_repr, write_atomic
from ..modes import Mode
from ..tricks import legal_mask, trick_winner
from .rules import Ruleset, get_ruleset

__all__ = ["HandRecord", "Position", "hand_from_record", "load_hand", "parse_hand", "save_hand"]

_TAG = re.compile(r'^\[\s*([A-Za-z]+)\s+"(.*)"\s*\]$')
_TRICK_NUMBER = re.compile(r"^\d+[.):]$")
KNOWN_TAGS = (
    "Rules",
    "Options",
    "Declarer",
    "Contract",
    "Discard",
    "Deal",
    "Leader",
    "Exchange",
    "Hand",
    "Players",
)


def _bit(card: Card) -> int:
    return card.bit.bit_length() - 1


@dataclass(frozen=True)
class Position:
    """A point of the play: what the engine needs to value it, and the score so far.

    ``deal`` holds the hands at the start of the current trick, ``played`` the cards
    already played to it (leader first), so ``solver.solve(pos.deal, pos.strain,
    leader=pos.leader, played=pos.played, misere=pos.misere, must_ruff=pos.must_ruff,
    seat=...)`` values it. ``won`` counts the tricks each seat (D, E, M) has taken before
    the current trick. ``trick`` is 1-based; ``mover`` is the seat to play next.
    """

    trick: int
    deal: Deal
    leader: Seat
    played: tuple[Card, ...]
    won: tuple[int, int, int]
    strain: str
    misere: bool
    must_ruff: bool

    @property
    def mover(self) -> Seat:
        return Seat((self.leader + len(self.played)) % 3)


@dataclass(frozen=True)
class HandRecord:
    """One hand as played under a ruleset: the position at the first lead and every card.

    ``start`` holds the three hands when the play begins (after any exchange, the widow
    and the discard); ``tricks`` the cards of each trick in playing order, leader first
    (the last trick may be unfinished when the record stops mid-hand). ``dealt`` is the
    deal as dealt, widow included, when known; ``discard`` the declarer's discard when
    known; ``exchange`` the cards moved between hands before the play, ``(from, to, card)``.
    """

    ruleset: Ruleset
    declarer: Seat
    contract: Mode
    leader: Seat
    start: Deal
    tricks: tuple[tuple[Card, ...], ...]
    discard: tuple[Card, ...] | None = None
    dealt: Deal | None = None
    exchange: tuple[tuple[Seat, Seat, Card], ...] = ()
    number: int | None = None
    players: tuple[str, str, str] | None = None
    leaders: tuple[Seat, ...] = field(default=(), repr=False, compare=False)
    winners: tuple[Seat, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "contract", Mode.parse(self.contract))  # a mode name is read too
        leaders, winners = _leaders_and_winners(self.leader, self.tricks, int(self.contract.strain))
        object.__setattr__(self, "leaders", leaders)
        object.__setattr__(self, "winners", winners)

    # --- what the contract means for play ------------------------------------------------
    @property
    def strain(self) -> str:
        """``S H D C`` or ``N``: the trump suit the contract plays in."""
        return Mode.parse(self.contract).strain.name

    @property
    def misere(self) -> bool:
        """Whether everybody tries to take few tricks (MT, miz)."""
        return Mode.parse(self.contract).minimising

    @property
    def must_ruff(self) -> bool:
        return bool(self.ruleset.must_ruff)

    @property
    def hand_size(self) -> int:
        return self.start.hand_size

    @property
    def cards(self) -> list[Card]:
        """Every card played, in order."""
        return [c for t in self.tricks for c in t]

    @property
    def complete(self) -> bool:
        """Whether every card of the hand has been played."""
        return len(self.cards) == 3 * self.hand_size

    @property
    def won(self) -> tuple[int, int, int]:
        """Tricks taken by D, E, M in the finished tricks."""
        counts = [0, 0, 0]
        for w in self.winners:
            counts[w] += 1
        return (counts[0], counts[1], counts[2])

    def seat_of(self, trick: int, index: int) -> Seat:
        """The seat that plays card ``index`` (0-based) of trick ``trick`` (1-based)."""
        return Seat((self.leaders[trick - 1] + index) % 3)

    def position(self, trick: int, played: int = 0) -> Position:
        """The position before card ``played`` (0, 1, 2) of trick ``trick`` (1-based).

        ``position(len(tricks) + 1)`` is the position after the last complete trick.
        """
        last = len(self.tricks) + (1 if len(self.winners) == len(self.tricks) else 0)
        if not 1 <= trick <= min(last, self.hand_size):
            raise RecordError(
                f"no position at trick {trick}: the record can be stopped at tricks "
                f"1..{min(last, self.hand_size)}"
            )
        if trick > len(self.tricks):
            if played:
                raise RecordError(f"trick {trick} has no cards played yet")
            so_far: tuple[Card, ...] = ()
        else:
            so_far = self.tricks[trick - 1]
            if not 0 <= played <= min(len(so_far), 2):
                raise RecordError(f"trick {trick} has {len(so_far)} card(s); cannot stop after {played}")
            so_far = so_far[:played]
        hands = [h.mask for h in self.start.hands]
        for t in range(trick - 1):
            for k, c in enumerate(self.tricks[t]):
                hands[(self.leaders[t] + k) % 3] &= ~c.bit
        counts = [0, 0, 0]
        for w in self.winners[: trick - 1]:
            counts[w] += 1
        leader = (
            self.leaders[trick - 1]
            if trick <= len(self.leaders)
            else (self.winners[-1] if self.winners else self.leader)
        )
        deal = Deal([Hand(m) for m in hands])
        return Position(
            trick,
            deal,
            leader,
            so_far,
            (counts[0], counts[1], counts[2]),
            self.strain,
            self.misere,
            self.must_ruff,
        )

    # --- writing ---------------------------------------------------------------------------
    def to_text(self) -> str:
        """The hand file text; ``load_hand(rec.to_text()) == rec``."""
        lines = []
        if self.number is not None:
            lines.append(f'[Hand "{self.number}"]')
        lines.append(f'[Rules "{_preset_name(self.ruleset)}"]')
        options = _options_of(self.ruleset)
        if options:
            lines.append(f'[Options "{json.dumps(options, sort_keys=True)}"]')
        if self.players is not None:
            lines.append(f'[Players "{", ".join(self.players)}"]')
        lines.append(f'[Declarer "{self.declarer.name}"]')
        lines.append(f'[Contract "{self.contract}"]')
        if self.discard is not None:
            lines.append(f'[Discard "{" ".join(str(c) for c in self.discard)}"]')
        if self.exchange:
            moves = ", ".join(f"{a.name}>{b.name} {c}" for a, b, c in self.exchange)
            lines.append(f'[Exchange "{moves}"]')
        lines.append(f'[Deal "{self.dealt if self.dealt is not None else self.start}"]')
        lines.append(f'[Leader "{self.leader.name}"]')
        for trick in self.tricks:
            lines.append(" ".join(str(c) for c in trick))
        return "\n".join(lines) + "\n"


def _preset_name(ruleset: Ruleset) -> str:
    name = ruleset.name
    return name.removesuffix("+custom")


def _options_of(ruleset: Ruleset) -> dict[str, Any]:
    """The options that differ from the named preset (empty for a plain preset)."""
    try:
        base = get_ruleset(_preset_name(ruleset))
    except SolverError:
        return ruleset.to_dict()
    return {k: v for k, v in ruleset.diff(base).items() if k != "name"}


def _leaders_and_winners(
    leader: Seat, tricks: Sequence[Sequence[Card]], trump: int
) -> tuple[tuple[Seat, ...], tuple[Seat, ...]]:
    leaders: list[Seat] = []
    winners: list[Seat] = []
    lead = leader
    for trick in tricks:
        leaders.append(lead)
        if len(trick) == 3:
            lead = Seat((lead + trick_winner([_bit(c) for c in trick], trump)) % 3)
            winners.append(lead)
    return tuple(leaders), tuple(winners)


# --- reading ---------------------------------------------------------------------------------
class _Line:
    """One trick line of the play section, with its line number for error messages."""

    def __init__(self, number: int, cards: list[Card]) -> None:
        self.number = number
        self.cards = cards


#: Largest file read as a hand file (a hand of 17 tricks with comments is a few KB).
MAX_HAND_FILE_BYTES = 1 << 20


def load_hand(source: str | os.PathLike[str]) -> HandRecord:
    """Read a hand file from a path or from its text (text holds a newline or a ``[``)."""
    if isinstance(source, str) and ("\n" in source or source.lstrip().startswith("[")):
        return parse_hand(source)
    text = read_text_file(source, what="hand file", max_bytes=MAX_HAND_FILE_BYTES, error=RecordError)
    path = os.fsdecode(os.fspath(source))
    try:
        return parse_hand(text)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None


def parse_hand(text: str) -> HandRecord:
    """Parse and validate the text of a hand file (see ``docs/handfile.md``)."""
    if not isinstance(text, str):
        raise RecordError(f"a hand file is text, got {short_repr(text)}")
    tags: dict[str, tuple[int, str]] = {}
    lines: list[_Line] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("[") else _strip_tag_comment(raw)
        if not line:
            continue
        if line.startswith("["):
            m = _TAG.match(line)
            if not m:
                raise RecordError(f'line {number}: cannot read tag {line!r}; write [Name "value"]')
            name = m.group(1).capitalize()
            if name not in KNOWN_TAGS:
                raise RecordError(
                    f"line {number}: unknown tag [{m.group(1)}]; known: {', '.join(KNOWN_TAGS)}"
                )
            if name in tags:
                raise RecordError(f"line {number}: tag [{name}] given twice")
            if lines:
                raise RecordError(f"line {number}: tag [{name}] after the play; tags come first")
            tags[name] = (number, m.group(2).strip())
            continue
        lines.append(_Line(number, _trick_cards(line, number, len(lines) + 1)))
    return _build(tags, lines)


def _strip_tag_comment(raw: str) -> str:
    """A tag line without a trailing ``# comment`` (the value itself may hold no ``#``)."""
    line = raw.strip()
    end = line.rfind("]")
    if end >= 0 and line[end + 1 :].strip().startswith("#"):
        return line[: end + 1]
    return line.split("#", 1)[0].strip() if "#" in line[end + 1 :] else line


def _trick_cards(line: str, number: int, trick: int) -> list[Card]:
    words = line.replace(",", " ").split()
    if words and _TRICK_NUMBER.match(words[0]):
        words = words[1:]
    cards = []
    for w in words:
        try:
            cards.append(Card.parse(w))
        except SolverError as exc:
            raise RecordError(f"line {number} (trick {trick}): {exc}") from None
    if len(cards) > 3:
        raise RecordError(f"line {number} (trick {trick}): {len(cards)} cards; a trick has 3")
    return cards


def _tag(tags: Mapping[str, tuple[int, str]], name: str) -> tuple[int, str] | None:
    return tags.get(name)


def _build(tags: Mapping[str, tuple[int, str]], lines: list[_Line]) -> HandRecord:
    ruleset = _read_rules(tags)
    declarer = ruleset.declarer
    if "Declarer" in tags:
        at, value = tags["Declarer"]
        declarer = _seat(value, f"line {at}: [Declarer]")
        if declarer != ruleset.declarer:
            raise RecordError(
                f"line {at}: [Declarer] is {declarer.name}, but under {ruleset.name} "
                f"{ruleset.declarer.name} declares"
            )
    if "Contract" not in tags:
        raise RecordError('missing tag [Contract "..."]: the trump suit S H D C, or a mode such as N or MT')
    at, value = tags["Contract"]
    contract = _mode(value, ruleset, at)
    discard = _read_discard(tags, ruleset)
    exchange = _read_exchange(tags)
    number = _read_number(tags)
    players = _read_players(tags)
    dealt, start = _read_deal(tags, ruleset, declarer, discard, exchange)
    rule_leader = ruleset.opening_leader(declarer)
    leader = rule_leader
    if "Leader" in tags:
        at, value = tags["Leader"]
        leader = _seat(value, f"line {at}: [Leader]")
        ending = start is not None and start.hand_size < ruleset.hand_size  # any seat may be on lead
        if leader != rule_leader and not ending:
            raise RecordError(
                f"line {at} (trick 1): wrong seat leading: [Leader] is {leader.name}, but "
                f"under {ruleset.name} {rule_leader.name} makes the first lead"
            )
    trump = int(Mode.parse(contract).strain)
    tricks = [ln.cards for ln in lines]
    size = start.hand_size if start is not None else ruleset.hand_size
    if len(tricks) > size:
        ln = lines[size]
        raise RecordError(f"line {ln.number} (trick {size + 1}): the hand has only {size} tricks")
    for ln in lines[:-1]:
        if len(ln.cards) != 3:
            raise RecordError(
                f"line {ln.number} (trick {lines.index(ln) + 1}): {len(ln.cards)} card(s); "
                f"only the last trick may be unfinished"
            )
    _check_repeats(lines, discard)
    complete = sum(len(t) for t in tricks) == 3 * size
    if start is None:
        if not complete:
            need = (
                "[Discard] (the declarer's hand is not known without it)" if dealt is not None else "[Deal]"
            )
            raise RecordError(
                f"the play section lists {sum(len(t) for t in tricks)} of {3 * size} cards: "
                f"a partial play needs {need}"
            )
        start = _reconstruct(tricks, leader, trump)
        if dealt is not None:
            discard = _infer_discard(tags, dealt, start, declarer, exchange)
    _check_play(
        lines,
        start,
        leader,
        trump,
        bool(ruleset.must_ruff),
        reconstructed="Deal" not in tags,
        exchanged=bool(exchange) or "Deal" not in tags,
    )
    return HandRecord(
        ruleset=ruleset,
        declarer=declarer,
        contract=contract,
        leader=leader,
        start=start,
        tricks=tuple(tuple(t) for t in tricks),
        discard=discard,
        dealt=dealt,
        exchange=exchange,
        number=number,
        players=players,
    )


def _read_rules(tags: Mapping[str, tuple[int, str]]) -> Ruleset:
    if "Rules" not in tags:
        raise RecordError('missing tag [Rules "..."]: the ruleset the hand was played under, e.g. twelve')
    at, name = tags["Rules"]
    options: dict[str, Any] = {}
    if "Options" in tags:
        oat, text = tags["Options"]
        options = load_json(text, what=f"line {oat}: [Options]", error=RecordError)
        if not isinstance(options, dict):
            raise RecordError(f"line {oat}: [Options] must be a JSON object")
        if isinstance(options.get("modes"), list) and all(isinstance(m, str) for m in options["modes"]):
            options["modes"] = frozenset(options["modes"])
        if isinstance(options.get("targets"), list):
            options["targets"] = tuple(options["targets"])
    try:
        return get_ruleset(name, **options)
    except SolverError as exc:
        raise RecordError(f"line {at}: [Rules]: {exc}") from None


def _seat(value: str, where: str) -> Seat:
    try:
        return Seat.parse(value)
    except SolverError:
        raise RecordError(f"{where}: unknown seat {value!r} (expected D, E or M)") from None


def _mode(value: str, ruleset: Ruleset, at: int) -> Mode:
    v = value.strip()
    if len(v) == 1 and v in SUIT_SYMBOLS:
        v = Suit.parse(v).name
    try:
        mode: Mode | None = Mode.parse(v)
    except SolverError:
        mode = None
    if mode is None or mode not in ruleset.modes:
        raise RecordError(
            f"line {at}: [Contract] {value!r} is not a mode of {ruleset.name}; "
            f"allowed: {' '.join(ruleset.mode_order)}"
        )
    return mode


def _cards(text: str, where: str) -> list[Card]:
    out = []
    for w in text.replace(",", " ").split():
        try:
            out.append(Card.parse(w))
        except SolverError as exc:
            raise RecordError(f"{where}: {exc}") from None
    return out


def _read_discard(tags: Mapping[str, tuple[int, str]], ruleset: Ruleset) -> tuple[Card, ...] | None:
    if "Discard" not in tags:
        return None
    at, text = tags["Discard"]
    cards = _cards(text, f"line {at}: [Discard]")
    if len(set(cards)) != len(cards):
        raise RecordError(f"line {at}: [Discard] names a card twice")
    if len(cards) != ruleset.widow_size:
        raise RecordError(
            f"line {at}: [Discard] has {len(cards)} card(s); under {ruleset.name} "
            f"the declarer discards {ruleset.widow_size}"
        )
    return tuple(cards)


def _read_exchange(tags: Mapping[str, tuple[int, str]]) -> tuple[tuple[Seat, Seat, Card], ...]:
    if "Exchange" not in tags:
        return ()
    at, text = tags["Exchange"]
    moves = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        m = re.fullmatch(r"([DEMdem])\s*>\s*([DEMdem])\s+(\S+)", part)
        if not m:
            raise RecordError(f"line {at}: [Exchange] entry {part!r}: write FROM>TO CARD, e.g. D>E HA")
        card = _cards(m.group(3), f"line {at}: [Exchange]")[0]
        moves.append((Seat.parse(m.group(1)), Seat.parse(m.group(2)), card))
    return tuple(moves)


def _read_number(tags: Mapping[str, tuple[int, str]]) -> int | None:
    if "Hand" not in tags:
        return None
    at, text = tags["Hand"]
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or int(text) < 1:
        raise RecordError(f"line {at}: [Hand] must be a hand number 1, 2, ..., got {text!r}")
    return int(text)


def _read_players(tags: Mapping[str, tuple[int, str]]) -> tuple[str, str, str] | None:
    if "Players" not in tags:
        return None
    at, text = tags["Players"]
    names = [n.strip() for n in text.split(",")]
    if len(names) != 3 or not all(names):
        raise RecordError(f"line {at}: [Players] must name three players (D, E, M) separated by commas")
    return (names[0], names[1], names[2])


def _read_deal(
    tags: Mapping[str, tuple[int, str]],
    ruleset: Ruleset,
    declarer: Seat,
    discard: tuple[Card, ...] | None,
    exchange: Sequence[tuple[Seat, Seat, Card]],
) -> tuple[Deal | None, Deal | None]:
    """(the deal as dealt or None, the hands at the first lead or None)."""
    if "Deal" not in tags:
        return None, None
    at, text = tags["Deal"]
    try:
        deal = Deal.parse(text)
    except SolverError as exc:
        raise RecordError(f"line {at}: [Deal]: {exc}") from None
    cards = Hand()
    for h in (*deal.hands, deal.widow):
        cards = cards | h
    extra = cards - ruleset.deck
    if extra:
        raise RecordError(f"line {at}: [Deal]: card {next(iter(extra))} is not in the deck of {ruleset.name}")
    if not deal.widow:  # the hands at the first lead
        if deal.hand_size > ruleset.hand_size:
            raise RecordError(
                f"line {at}: [Deal]: hands of {deal.hand_size} cards; {ruleset.name} deals "
                f"{ruleset.hand_size}"
            )
        return None, deal
    where = f"line {at}: [Deal]"
    if deal.hand_size != ruleset.hand_size or len(deal.widow) != ruleset.widow_size:
        raise RecordError(
            f"{where}: {deal.hand_size} cards each and {len(deal.widow)} in the widow; "
            f"{ruleset.name} deals {ruleset.hand_size} and {ruleset.widow_size}"
        )
    hands = [h.mask for h in deal.hands]
    for k, (frm, to, card) in enumerate(exchange, 1):
        if not hands[frm] & card.bit:
            raise RecordError(
                f"line {tags['Exchange'][0]}: [Exchange] move {k}: {frm.name} passes {card}, "
                f"which {frm.name} does not hold"
            )
        hands[frm] &= ~card.bit
        hands[to] |= card.bit
    held = hands[declarer] | deal.widow.mask
    if discard is None:
        return deal, None  # the declarer's hand is known only once the play shows it
    for c in discard:
        if not held & c.bit:
            raise RecordError(
                f"line {tags['Discard'][0]}: [Discard]: {c} is not among the declarer's "
                f"{declarer.name} cards and the widow"
            )
    hands[declarer] = held & ~sum(c.bit for c in discard)
    try:
        start = Deal([Hand(m) for m in hands])
    except SolverError as exc:
        raise RecordError(f"{where}: after the exchange and the discard: {exc}") from None
    return deal, start


def _check_repeats(lines: Sequence[_Line], discard: Sequence[Card] | None) -> None:
    seen: dict[Card, int] = {}
    out = set(discard or ())
    for t, ln in enumerate(lines, 1):
        for c in ln.cards:
            if c in seen:
                raise RecordError(
                    f"line {ln.number} (trick {t}): card {c} played twice (already played at trick {seen[c]})"
                )
            if c in out:
                raise RecordError(f"line {ln.number} (trick {t}): card {c} was discarded and is out of play")
            seen[c] = t


def _reconstruct(tricks: Sequence[Sequence[Card]], leader: Seat, trump: int) -> Deal:
    """The hands at the first lead, from a complete play: each seat holds what it played."""
    hands = [0, 0, 0]
    leaders, _ = _leaders_and_winners(leader, tricks, trump)
    for lead, trick in zip(leaders, tricks):
        for k, c in enumerate(trick):
            hands[(lead + k) % 3] |= c.bit
    return Deal([Hand(m) for m in hands])


def _cards_text(mask: int) -> str:
    return ", ".join(str(c) for c in sorted(Hand(mask), key=lambda c: -c.rank))


def _check_play(
    lines: Sequence[_Line],
    start: Deal,
    leader: Seat,
    trump: int,
    must_ruff: bool,
    reconstructed: bool,
    exchanged: bool,
) -> None:
    """Every card in the right hand and legal; errors name the line, trick and card."""
    hands = [h.mask for h in start.hands]
    lead = leader
    for t, ln in enumerate(lines, 1):
        where = f"line {ln.number} (trick {t})"
        led = -1
        for k, c in enumerate(ln.cards):
            seat = Seat((lead + k) % 3)
            if not hands[seat] & c.bit:
                owner = next((s for s in Seat if hands[s] & c.bit), None)
                if owner is not None and k == 0:
                    raise RecordError(
                        f"{where}: wrong seat leading: {c} is {owner.name}'s card, but "
                        f"{seat.name} {'won the last trick' if t > 1 else 'has the first lead'} "
                        f"and leads"
                    )
                if owner is not None:
                    hint = "" if exchanged else " (if cards were exchanged before the play, give [Exchange])"
                    raise RecordError(
                        f"{where}: card {c} is not in {seat.name}'s hand (it is {owner.name}'s); "
                        f"{seat.name} plays card {k + 1} of this trick{hint}"
                    )
                raise RecordError(f"{where}: card {c} is not in {seat.name}'s hand")
            legal = legal_mask(hands[seat], led, trump, must_ruff)
            if not legal & c.bit:
                follow = hands[seat] & (0x1FFF << (16 * led))
                if follow:
                    raise RecordError(
                        f"{where}: {seat.name} revokes with {c}: {SUIT_CHARS[led]} was led and "
                        f"{seat.name} holds {_cards_text(follow)}"
                        + (" (played later)" if reconstructed else "")
                    )
                raise RecordError(
                    f"{where}: {seat.name} plays {c} without ruffing: void in {SUIT_CHARS[led]}, "
                    f"{seat.name} must play a trump (holds {_cards_text(legal)})"
                    + (" (played later)" if reconstructed else "")
                )
            hands[seat] &= ~c.bit
            if k == 0:
                led = int(c.suit)
        if len(ln.cards) == 3:
            lead = Seat((lead + trick_winner([_bit(c) for c in ln.cards], trump)) % 3)


def _infer_discard(
    tags: Mapping[str, tuple[int, str]],
    dealt: Deal,
    start: Deal,
    declarer: Seat,
    exchange: Sequence[tuple[Seat, Seat, Card]],
) -> tuple[Card, ...]:
    """The discard of a complete play whose [Deal] is given as dealt: the declarer's cards
    and the widow that were never played. The other hands must be exactly what was played."""
    at = tags["Deal"][0]
    hands = [h.mask for h in dealt.hands]
    for frm, to, card in exchange:
        hands[frm] &= ~card.bit
        hands[to] |= card.bit
    hands[declarer] |= dealt.widow.mask
    hint = "" if exchange else " (if cards were exchanged before the play, give them in [Exchange])"
    for s in Seat:
        missing = start[s].mask & ~hands[s]
        if missing:
            raise RecordError(
                f"line {at}: [Deal] does not give {s.name} {_cards_text(missing)}, which {s.name} plays{hint}"
            )
        left = hands[s] & ~start[s].mask
        if left and s != declarer:
            raise RecordError(
                f"line {at}: [Deal] gives {s.name} {_cards_text(left)}, which {s.name} never plays{hint}"
            )
    out = Hand(hands[declarer] & ~start[declarer].mask)
    return tuple(sorted(out, key=lambda c: (c.suit, -c.rank)))


# --- from a match record, and to a file --------------------------------------------------------
def hand_from_record(record: Mapping[str, Any], number: int) -> HandRecord:
    """Hand ``number`` (1-based) of a loaded match record (:func:`solver.game.records.load`)."""
    from .records import ruleset_of

    hands = record["hands"]
    if not 1 <= number <= len(hands):
        raise RecordError(f"hand {number}: the record has hands 1..{len(hands)}")
    h = hands[number - 1]
    ruleset = ruleset_of(record)
    dealt = Deal(
        [Hand.parse(h["dealt"][s]) if h["dealt"][s].strip() else Hand() for s in SEAT_NAMES],
        Hand.parse(h["widow"]) if h["widow"].strip() else Hand(),
    )
    decl = h["declaration"]
    declarer = Seat.parse(decl.get("declarer", ruleset.declarer.name))
    mode = decl.get("mode") or decl["strain"]
    exchange = tuple(
        (Seat.parse(t["from"]), Seat.parse(t["to"]), Card.parse(t["card"])) for t in h["exchange"]
    )
    discard = tuple(Card.parse(c) for c in decl.get("discard", []))
    hands = [m.mask for m in dealt.hands]
    for frm, to, card in exchange:
        hands[frm] &= ~card.bit
        hands[to] |= card.bit
    if dealt.widow:
        hands[declarer] = (hands[declarer] | dealt.widow.mask) & ~sum(c.bit for c in discard)
    start = Deal([Hand(m) for m in hands])
    cards = [Card.parse(c) for c in h["play"]]
    tricks = tuple(tuple(cards[i : i + 3]) for i in range(0, len(cards), 3))
    leader = ruleset.opening_leader(declarer)
    names = record["players"]
    d = h["dealer"]
    players = (names[d], names[(d + 1) % 3], names[(d + 2) % 3])
    return HandRecord(
        ruleset=ruleset,
        declarer=declarer,
        contract=mode,
        leader=leader,
        start=start,
        tricks=tricks,
        discard=discard if dealt.widow else None,
        dealt=dealt if dealt.widow else None,
        exchange=exchange,
        number=number,
        players=players,
    )


def save_hand(rec: HandRecord, path: str | os.PathLike[str]) -> None:
    """Write the hand file atomically (temp file in the same directory, then rename)."""
    write_atomic(path, rec.to_text())


def iter_positions(rec: HandRecord) -> Iterable[tuple[Position, Card]]:
    """Every card played, with the position just before it."""
    for t, trick in enumerate(rec.tricks, 1):
        for k, card in enumerate(trick):
            yield rec.position(t, k), card
