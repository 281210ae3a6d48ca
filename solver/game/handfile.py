"""Hand files: one played hand as text a person can type after the game (``docs/handfile.md``).

A hand file is PBN-like: tag pairs ``[Name "value"]`` and then the play, one trick a
line with the leader's card first. Reading it checks the whole play against the rules
(follow suit, must-ruff, who leads, no card twice), so a :class:`HandRecord` that loads
is a legal hand; a bad file fails with one :class:`~solver.errors.HandFileError` listing every problem in
file order, each naming the line (and the trick and the card). The tags are read here; the
tricks are checked in :mod:`solver.game.handplay`.

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
from typing import TYPE_CHECKING, Any

from ..cards import SUIT_SYMBOLS, Card, Hand, Suit
from ..deal import SEAT_NAMES, Deal, Seat
from ..errors import HandFileError, RecordError, SolverError
from ..inputs import BOM, check_int, load_json, read_text_file, short_repr, write_atomic
from ..modes import Mode
from .handplay import (
    Line,
    Problems,
    cards_text,
    check_lines,
    check_play,
    check_trick_numbers,
    deck_words,
    leaders_and_winners,
    reconstruct,
)
from .rules import PRESETS, Ruleset, get_ruleset

if TYPE_CHECKING:
    from ..engine.position import Position as EnginePosition

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


@dataclass(frozen=True)
class Position:
    """A point of the play: what the engine needs to value it, and the score so far.

    ``deal`` holds the hands at the start of the current trick, ``played`` the cards
    already played to it (leader first), so ``solver.solve(pos.engine_position(),
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

    def engine_position(self) -> EnginePosition:
        """The engine's Position of this point, checked once for every question about it."""
        from ..engine.position import Position as EnginePosition  # the C core loads on use only

        return EnginePosition(self.deal, self.strain, self.leader, self.played, self.misere, self.must_ruff)


@dataclass(frozen=True)
class HandRecord:
    """One hand as played under a ruleset: the position at the first lead and every card.

    ``start`` holds the three hands when the play begins (after any exchange, the widow
    and the discard); ``tricks`` the cards of each trick in playing order, leader first
    (the last trick may be unfinished when the record stops mid-hand). ``dealt`` is the
    deal as dealt, widow included, when known; ``discard`` the declarer's discard when
    known; ``exchange`` the cards moved between hands before the play, ``(from, to, card)``.
    ``reconstructed`` is true when the file gave no deal and ``start`` was rebuilt from the
    play itself (each seat holds what it played): a program reading a hand file for a
    user shows these hands for the user to check.
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
    reconstructed: bool = field(default=False, compare=False)
    leaders: tuple[Seat, ...] = field(default=(), repr=False, compare=False)
    winners: tuple[Seat, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "contract", Mode.parse(self.contract))  # a mode name is read too
        leaders, winners = leaders_and_winners(self.leader, self.tricks, int(self.contract.strain))
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
        check_int(trick, "trick", RecordError, -(10**6), 10**6)  # bounded: shown in messages
        check_int(played, "played", RecordError, -(10**6), 10**6)
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
            lines.append(f'[Players "{", ".join(_quote_name(n) for n in self.players)}"]')
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


# --- reading ---------------------------------------------------------------------------------
#: Largest file read as a hand file (a hand of 17 tricks with comments is a few KB).
MAX_HAND_FILE_BYTES = 1 << 20


def load_hand(source: str | os.PathLike[str]) -> HandRecord:
    """Read a hand file from a path or from its text (text holds a newline or a ``[``)."""
    if isinstance(source, str) and ("\n" in source or source.lstrip(BOM + " \t").startswith("[")):
        return parse_hand(source)
    text = read_text_file(source, what="hand file", max_bytes=MAX_HAND_FILE_BYTES, error=RecordError)
    path = os.fsdecode(os.fspath(source))
    try:
        return parse_hand(text)
    except HandFileError as exc:
        raise HandFileError(exc.problems, source=path) from None


def parse_hand(text: str) -> HandRecord:
    """Parse and validate the text of a hand file (see ``docs/handfile.md``).

    Every problem is found in one reading: a :class:`~solver.errors.HandFileError` lists
    them in file order, each naming its line.
    """
    if not isinstance(text, str):
        raise RecordError(f"a hand file is text, got {short_repr(text)}")
    problems = Problems()
    tags: dict[str, tuple[int, str]] = {}
    lines: list[Line] = []
    for number, raw in enumerate(text.removeprefix(BOM).splitlines(), 1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("[") else _strip_tag_comment(raw)
        if not line:
            continue
        if line.startswith("["):
            _read_tag(line, number, tags, after_play=bool(lines), problems=problems)
            continue
        lines.append(_trick_line(line, number, len(lines) + 1, problems))
    check_trick_numbers(lines, problems)
    record = _build(tags, lines, problems)
    problems.raise_any()
    assert record is not None  # no problem noted means every part was read
    return record


def _read_tag(
    line: str, number: int, tags: dict[str, tuple[int, str]], after_play: bool, problems: Problems
) -> None:
    m = _TAG.match(line)
    if not m:
        problems.add(f'line {number}: cannot read tag {short_repr(line)}; write [Name "value"]')
        return
    name = m.group(1).capitalize()
    if name not in KNOWN_TAGS:
        problems.add(f"line {number}: unknown tag [{m.group(1)}]; known: {', '.join(KNOWN_TAGS)}")
        return
    if name in tags:
        problems.add(f"line {number}: tag [{name}] given twice (first at line {tags[name][0]})")
        return
    if after_play:
        problems.add(f"line {number}: tag [{name}] after the play; tags come first")
    tags[name] = (number, m.group(2).strip())


def _strip_tag_comment(raw: str) -> str:
    """A tag line without a trailing ``# comment`` (the value itself may hold no ``#``)."""
    line = raw.strip()
    end = line.rfind("]")
    if end >= 0 and line[end + 1 :].strip().startswith("#"):
        return line[: end + 1]
    return line.split("#", 1)[0].strip() if "#" in line[end + 1 :] else line


def _trick_line(line: str, number: int, trick: int, problems: Problems) -> Line:
    words = line.replace(",", " ").split()
    typed = None
    if words and _TRICK_NUMBER.match(words[0]):
        digits = words[0][:-1]
        if len(digits) <= 3:
            typed = int(digits)
        else:
            problems.add(f"line {number} (trick {trick}): {short_repr(words[0], 12)} is not a trick number")
        words = words[1:]
    cards = []
    broken = False
    for w in words:
        try:
            cards.append(Card.parse(w))
        except SolverError as exc:
            problems.add(f"line {number} (trick {trick}): {exc}")
            broken = True
    if len(words) > 3:
        problems.add(f"line {number} (trick {trick}): {len(words)} cards; a trick has 3")
        broken = True
    return Line(number, cards, broken, typed)


def _build(tags: Mapping[str, tuple[int, str]], lines: list[Line], problems: Problems) -> HandRecord | None:
    """The record, or None once a problem is noted (every part is still checked)."""
    ruleset = problems.attempt(_read_rules, tags)
    declarer = ruleset.declarer if ruleset is not None else None
    if "Declarer" in tags:
        declarer = problems.attempt(_read_declarer, tags["Declarer"], ruleset)
    contract = _read_contract(tags, ruleset, problems)
    discard = problems.attempt(_read_discard, tags, ruleset)
    exchange = problems.attempt(_read_exchange, tags, ruleset)
    number = problems.attempt(_read_number, tags)
    players = problems.attempt(_read_players, tags)
    dealt, start, deal_read = _read_deal_tag(tags, ruleset, declarer, discard, exchange, problems)
    leader = None
    if declarer is not None and ruleset is not None:
        leader = problems.attempt(_read_leader, tags, ruleset, declarer, start)
    size = _hand_size(start, ruleset)
    playable = check_lines(lines, size, ruleset, discard, problems)
    if contract is None or leader is None or ruleset is None or declarer is None or not deal_read:
        return None
    trump = int(Mode.parse(contract).strain)
    tricks = [ln.cards for ln in lines]
    reconstructed = start is None
    if start is None:
        start = _rebuild_start(tricks, playable, len(lines), size, leader, trump, dealt is not None, problems)
        if start is None:
            return None
        if dealt is not None:
            discard = problems.attempt(_infer_discard, tags, dealt, start, declarer, exchange)
    check_play(
        lines[:playable],
        start,
        leader,
        trump,
        bool(ruleset.must_ruff),
        reconstructed=reconstructed,
        exchanged=bool(exchange) or reconstructed,
        problems=problems,
    )
    if problems:
        return None
    return HandRecord(
        ruleset=ruleset,
        declarer=declarer,
        contract=contract,
        leader=leader,
        start=start,
        tricks=tuple(tuple(t) for t in tricks),
        discard=discard,
        dealt=dealt,
        exchange=exchange or (),
        number=number,
        players=players,
        reconstructed=reconstructed,
    )


def _read_contract(
    tags: Mapping[str, tuple[int, str]], ruleset: Ruleset | None, problems: Problems
) -> Mode | None:
    """The [Contract] mode; None when it is missing, unreadable or has no ruleset to be read under."""
    if "Contract" not in tags:
        problems.add('missing tag [Contract "..."]: the trump suit S H D C, or a mode such as N or MT')
        return None
    if ruleset is None:
        return None
    return problems.attempt(_mode, tags["Contract"][1], ruleset, tags["Contract"][0])


def _read_deal_tag(
    tags: Mapping[str, tuple[int, str]],
    ruleset: Ruleset | None,
    declarer: Seat | None,
    discard: tuple[Card, ...] | None,
    exchange: Sequence[tuple[Seat, Seat, Card]] | None,
    problems: Problems,
) -> tuple[Deal | None, Deal | None, bool]:
    """(the deal as dealt, the hands at the first lead, whether a [Deal] tag was read or absent).

    The deal is read only once the parts it depends on were read."""
    if "Deal" not in tags:
        return None, None, True
    if ruleset is None or declarer is None or exchange is None:
        return None, None, False
    read = problems.attempt(_read_deal, tags, ruleset, declarer, discard, exchange)
    if read is None:
        return None, None, False
    return read[0], read[1], True


def _hand_size(start: Deal | None, ruleset: Ruleset | None) -> int:
    """The cards per hand: from the deal, else from the rules, else the usual 17."""
    if start is not None:
        return start.hand_size
    return ruleset.hand_size if ruleset is not None else 17


def _rebuild_start(
    tricks: list[list[Card]],
    playable: int,
    n_lines: int,
    size: int,
    leader: Seat,
    trump: int,
    dealt: bool,
    problems: Problems,
) -> Deal | None:
    """The hands at the first lead rebuilt from a complete play, or None (a problem noted
    where the play is short although every line could be played through)."""
    played = sum(len(t) for t in tricks)
    if played != 3 * size:
        if playable == n_lines:
            need = "[Discard] (the declarer's hand is not known without it)" if dealt else "[Deal]"
            hint = " Is a trick line missing?" if played == 3 * size - 3 else ""
            problems.add(
                f"the play section lists {played} of {3 * size} cards: a partial play needs {need}.{hint}"
            )
        return None
    if playable < n_lines:
        return None  # the hands cannot be rebuilt from lines that cannot be played through
    return reconstruct(tricks, leader, trump)


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
    preset = next((p for p in PRESETS if p.casefold() == name.casefold()), None)  # any case
    if preset is None:
        raise RecordError(
            f"line {at}: [Rules]: unknown ruleset {short_repr(name)}; presets are {', '.join(PRESETS)}"
        )
    try:
        return get_ruleset(preset, **options)
    except SolverError as exc:
        raise RecordError(f"line {tags['Options'][0]}: [Options]: {exc}") from None


def _read_declarer(tag: tuple[int, str], ruleset: Ruleset | None) -> Seat:
    at, value = tag
    declarer = _seat(value, f"line {at}: [Declarer]")
    if ruleset is not None and declarer != ruleset.declarer:
        raise RecordError(
            f"line {at}: [Declarer] is {declarer.name}, but under {ruleset.name} "
            f"{ruleset.declarer.name} declares"
        )
    return declarer


def _read_leader(
    tags: Mapping[str, tuple[int, str]], ruleset: Ruleset, declarer: Seat, start: Deal | None
) -> Seat:
    rule_leader = ruleset.opening_leader(declarer)
    if "Leader" not in tags:
        return rule_leader
    at, value = tags["Leader"]
    leader = _seat(value, f"line {at}: [Leader]")
    ending = start is not None and start.hand_size < ruleset.hand_size  # any seat may be on lead
    if leader != rule_leader and not ending:
        raise RecordError(
            f"line {at} (trick 1): wrong seat leading: [Leader] is {leader.name}, but "
            f"under {ruleset.name} {rule_leader.name} makes the first lead"
        )
    return leader


def _seat(value: str, where: str) -> Seat:
    try:
        return Seat.parse(value)
    except SolverError:
        raise RecordError(f"{where}: unknown seat {short_repr(value)} (expected D, E or M)") from None


#: Words a player may write for a contract, beside the mode names (any case, spaces or hyphens).
CONTRACT_WORDS = {
    "spades": "S",
    "spade": "S",
    "hearts": "H",
    "heart": "H",
    "diamonds": "D",
    "diamond": "D",
    "clubs": "C",
    "club": "C",
    "notrump": "N",
    "notrumps": "N",
    "minimumtricks": "MT",
    "misere": "miz",
    "misère": "miz",
}


def _mode(value: str, ruleset: Ruleset, at: int) -> Mode:
    v = value.strip()
    if len(v) == 1 and v in SUIT_SYMBOLS:
        v = Suit.parse(v).name
    v = CONTRACT_WORDS.get(re.sub(r"[\s_-]+", "", v.casefold()), v)
    try:
        mode: Mode | None = Mode.parse(v)
    except SolverError:
        mode = None
    if mode is None or mode not in ruleset.modes:
        raise RecordError(
            f"line {at}: [Contract] {short_repr(value)} is not a mode of {ruleset.name}; "
            f"allowed: {' '.join(ruleset.mode_order)} (or words: hearts, no trump, misère)"
        )
    return mode


def _cards(text: str, where: str, ruleset: Ruleset | None = None) -> list[Card]:
    out = []
    for w in text.replace(",", " ").split():
        try:
            card = Card.parse(w)
        except SolverError as exc:
            raise RecordError(f"{where}: {exc}") from None
        if ruleset is not None and not ruleset.deck.mask & card.bit:
            raise RecordError(f"{where}: card {card} is not in the deck of {deck_words(ruleset)}")
        out.append(card)
    return out


def _read_discard(tags: Mapping[str, tuple[int, str]], ruleset: Ruleset | None) -> tuple[Card, ...] | None:
    if "Discard" not in tags:
        return None
    at, text = tags["Discard"]
    cards = _cards(text, f"line {at}: [Discard]", ruleset)
    if len(set(cards)) != len(cards):
        raise RecordError(f"line {at}: [Discard] names a card twice")
    if ruleset is not None and len(cards) != ruleset.widow_size:
        raise RecordError(
            f"line {at}: [Discard] has {len(cards)} card(s); under {ruleset.name} "
            f"the declarer discards {ruleset.widow_size}"
        )
    return tuple(cards)


def _read_exchange(
    tags: Mapping[str, tuple[int, str]], ruleset: Ruleset | None = None
) -> tuple[tuple[Seat, Seat, Card], ...]:
    if "Exchange" not in tags:
        return ()
    at, text = tags["Exchange"]
    moves = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        m = re.fullmatch(r"([DEMdem])\s*>\s*([DEMdem])\s+(\S+)", part)
        if not m:
            raise RecordError(
                f"line {at}: [Exchange] entry {short_repr(part)}: write FROM>TO CARD, e.g. D>E HA"
            )
        card = _cards(m.group(3), f"line {at}: [Exchange]", ruleset)[0]
        moves.append((Seat.parse(m.group(1)), Seat.parse(m.group(2)), card))
    return tuple(moves)


def _read_number(tags: Mapping[str, tuple[int, str]]) -> int | None:
    if "Hand" not in tags:
        return None
    at, text = tags["Hand"]
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or int(text) < 1:
        raise RecordError(f"line {at}: [Hand] must be a hand number 1, 2, ..., got {short_repr(text)}")
    return int(text)


def _read_players(tags: Mapping[str, tuple[int, str]]) -> tuple[str, str, str] | None:
    if "Players" not in tags:
        return None
    at, text = tags["Players"]
    names = _split_names(text, f"line {at}: [Players]")
    if len(names) != 3 or not all(names):
        raise RecordError(
            f"line {at}: [Players] must name three players (D, E, M) separated by commas, got "
            f'{len(names)}; a name holding a comma goes in quotes: "Smith, J."'
        )
    return (names[0], names[1], names[2])


def _split_names(text: str, where: str) -> list[str]:
    """Names separated by commas; a name may be a JSON string (``"Smith, J."``), which is
    how :func:`_quote_name` writes one holding a comma, a quote or a control character."""
    names = []
    pos = 0
    while True:
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        if text.startswith('"', pos):
            try:
                name, pos = _JSON.raw_decode(text, pos)
            except ValueError as exc:
                raise RecordError(
                    f"{where}: cannot read the quoted name at column {pos + 1}: {exc}"
                ) from None
            rest = text[pos:].lstrip(" \t")
            if rest and not rest.startswith(","):
                raise RecordError(f"{where}: a comma must follow the quoted name {short_repr(name)}")
            pos = len(text) - len(rest)
        else:
            end = text.find(",", pos)
            end = len(text) if end < 0 else end
            name, pos = text[pos:end].strip(), end
        names.append(name)
        if pos >= len(text):
            return names
        pos += 1  # the comma


def _quote_name(name: str) -> str:
    """``name`` as written in ``[Players]``: as it is when it reads back so, else as a JSON
    string with every unprintable character escaped (so the file stays one line a tag)."""
    plain = name == name.strip() and name.isprintable() and not any(ch in name for ch in ',"\\')
    if plain and name:
        return name
    return (
        '"'
        + "".join(ch if ch.isprintable() and ch not in '"\\' else json.dumps(ch)[1:-1] for ch in name)
        + '"'
    )


_JSON = json.JSONDecoder()


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
                f"line {at}: [Deal] does not give {s.name} {cards_text(missing)}, which {s.name} plays{hint}"
            )
        left = hands[s] & ~start[s].mask
        if left and s != declarer:
            raise RecordError(
                f"line {at}: [Deal] gives {s.name} {cards_text(left)}, which {s.name} never plays{hint}"
            )
    out = Hand(hands[declarer] & ~start[declarer].mask)
    return tuple(sorted(out, key=lambda c: (c.suit, -c.rank)))


# --- from a match record, and to a file --------------------------------------------------------
def hand_from_record(record: Mapping[str, Any], number: int) -> HandRecord:
    """Hand ``number`` (1-based) of a loaded match record (:func:`solver.game.records.load`)."""
    if not isinstance(record, Mapping) or not isinstance(record.get("hands"), list):
        raise RecordError(f"a loaded match record (solver.load_record) is needed, got {short_repr(record)}")
    hands = record["hands"]
    check_int(number, "hand number", RecordError)
    if not 1 <= number <= len(hands):
        raise RecordError(f"hand {short_repr(number)}: the record has hands 1..{len(hands)}")
    try:
        return _hand_of_record(record, number)
    except (KeyError, IndexError, TypeError, AttributeError, SolverError) as exc:
        raise RecordError(
            f"hand {number}: not a valid match record ({type(exc).__name__}: {short_repr(exc)}); "
            "load it with solver.load_record, which says what is wrong"
        ) from None


def _hand_of_record(record: Mapping[str, Any], number: int) -> HandRecord:
    from .records import ruleset_of

    h = record["hands"][number - 1]
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
    if not isinstance(rec, HandRecord):
        raise RecordError(f"save_hand writes a HandRecord, got {short_repr(rec)}")
    if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
        raise RecordError(f"a hand file is saved to a file name, got {short_repr(path)}")
    write_atomic(path, rec.to_text())


def iter_positions(rec: HandRecord) -> Iterable[tuple[Position, Card]]:
    """Every card played, with the position just before it."""
    for t, trick in enumerate(rec.tricks, 1):
        for k, card in enumerate(trick):
            yield rec.position(t, k), card
