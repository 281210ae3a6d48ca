"""Game records: the versioned JSON form of a whole match (``docs/records.md``).

:func:`load` reads a record, checks its shape, and REPLAYS it through the match
engine with players that answer from the record: every deal, exchange, declaration,
card and count is checked by the same code that plays live matches, so a record that
loads is a legal match. A wrong record raises :class:`~solver.errors.RecordError`
naming the hand, the trick and the card. :func:`save` writes atomically (a temporary
file in the same directory, fsync, rename), so a crash never leaves half a record.

The record's shape is spelled out as TypedDicts (:class:`MatchRecord` and its parts,
field for field as in ``docs/records.md``), so mypy checks the code that builds or reads
records; at run time a record is the plain JSON dict.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict, deque
from collections.abc import Mapping
from typing import Any, TypedDict, cast

from ..cards import Card, Hand, Suit
from ..deal import SEAT_NAMES, Seat
from ..errors import RecordError, SolverError
from ..inputs import (
    MAX_RECORD_BYTES,
    TEMP_PREFIX,
    TEMP_SUFFIX,
    check_flag,
    load_json,
    read_text_file,
    short_repr,
    write_atomic,
)
from ..modes import Mode
from .match import HAND_CAP, Match
from .rules import get_ruleset
from .views import Announcement, DeclareView, ExchangeView, PlayView

FORMAT = "sm358-match"
VERSION = 1


# --- the shape of a record (docs/records.md) ------------------------------------------------
class RulesRecord(TypedDict):
    """``rules``: a preset name and the option overrides on top of it."""

    preset: str
    options: dict[str, Any]


#: One card that moved in the exchange (``from`` is a keyword, hence the functional form).
ExchangeRecord = TypedDict("ExchangeRecord", {"from": str, "to": str, "card": str})


class DeclarationRecord(TypedDict):
    """``declaration``: the declarer's seat, the mode, the strain and aim it implies, the discard."""

    declarer: str
    mode: str
    strain: str
    misere: bool
    discard: list[str]


class _MatchHandRecordRequired(TypedDict):
    dealer: int
    dealt: dict[str, str]
    widow: str
    exchange: list[ExchangeRecord]
    declaration: DeclarationRecord
    play: list[str]
    tricks: dict[str, int]


class MatchHandRecord(_MatchHandRecordRequired, total=False):
    """One hand; seats are relative to its dealer. ``nets`` is optional (checked when present)."""

    nets: dict[str, int]


class ResultRecord(TypedDict):
    """``result``: the winner's player index (None for a shared win), why, and the totals."""

    winner: int | None
    reason: str
    detail: str
    totals: list[int]


class _MatchRecordRequired(TypedDict):
    format: str
    version: int
    rules: RulesRecord
    players: list[str]
    seed: str
    hands: list[MatchHandRecord]
    result: ResultRecord | None


class MatchRecord(_MatchRecordRequired, total=False):
    """A whole match: ``format``, ``version``, rules, players, seed, hands, result; ``truncated``
    (optional) marks a match stopped at a cap other than the standard 200 hands."""

    truncated: bool


#: Longest player name a record may hold.
MAX_NAME_LENGTH = 100


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- writing -------------------------------------------------------------------------------
def dumps(record: MatchRecord | Mapping[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, indent=1) + "\n"


def save(
    record: MatchRecord | Mapping[str, Any], path: str | os.PathLike[str], *, check: bool = True
) -> None:
    """Write ``record`` to ``path`` atomically: temp file in the same directory, fsync, rename.

    The record is checked as :func:`load` checks it first, so a file that is written loads;
    ``check=False`` skips that for a record just played by :class:`~solver.game.match.Match`
    (the check replays the match, as long as playing it with fast players).
    """
    if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
        raise RecordError(f"a record is saved to a file name, got {short_repr(path)}")
    try:
        text = dumps(record)
    except (TypeError, ValueError, RecursionError) as exc:
        raise RecordError(f"the record cannot be written as JSON: {exc}") from None
    try:
        if check_flag(check, "check", RecordError):
            loads(text)  # what load would refuse is not written
    except RecordError as exc:
        raise RecordError(f"the record is not saved, as it would not load: {exc}") from None
    write_atomic(path, text)


def remove_stale_temp_files(directory: str | os.PathLike[str]) -> int:
    """Delete the temporary files that :func:`save` left in ``directory`` when its process
    was killed mid-write; files of a writer still running are kept. Returns how many went."""
    removed = 0
    for entry in os.scandir(directory):
        name = entry.name
        if not (name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX)) or not entry.is_file(
            follow_symlinks=False
        ):
            continue
        pid_text = name[len(TEMP_PREFIX) :].split("-", 1)[0]
        if pid_text.isdigit() and _process_alive(int(pid_text)):
            continue
        try:
            os.unlink(entry.path)
            removed += 1
        except FileNotFoundError:
            pass
    return removed


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True  # someone else's process: keep its file
    return True


# --- reading -------------------------------------------------------------------------------
def load(path: str | os.PathLike[str]) -> MatchRecord:
    """Read, validate and replay the record at ``path``; return it as a dict."""
    text = read_text_file(path, what="record", max_bytes=MAX_RECORD_BYTES, error=RecordError)
    try:
        return loads(text)
    except RecordError as exc:
        raise RecordError(f"{os.fspath(path)}: {exc}") from None


def loads(text: str) -> MatchRecord:
    """Parse, validate and replay a record given as JSON text."""
    data = load_json(text, what="", error=RecordError)
    validate(data)
    return cast(MatchRecord, data)


def ruleset_of(record: Mapping[str, Any]) -> Any:
    """The Ruleset a record was played under (preset plus option overrides)."""
    rules = record.get("rules")
    if not isinstance(rules, Mapping) or not isinstance(rules.get("preset"), str):
        raise RecordError('"rules" must be an object with a "preset" name')
    options = rules.get("options", {}) or {}
    if not isinstance(options, Mapping):
        raise RecordError('"rules.options" must be an object')
    if not all(isinstance(k, str) for k in options):
        raise RecordError('"rules.options" must have option names as keys')
    try:
        return get_ruleset(rules["preset"], **options_for_ruleset(options))
    except SolverError as exc:
        raise RecordError(f"rules: {exc}") from None


def options_for_ruleset(options: Mapping[str, Any]) -> dict:
    """JSON option values (lists) in the forms :class:`~solver.game.rules.Ruleset` takes."""
    out = dict(options)
    if "modes" in out and isinstance(out["modes"], list) and all(isinstance(m, str) for m in out["modes"]):
        out["modes"] = frozenset(out["modes"])
    if "targets" in out and isinstance(out["targets"], list):
        out["targets"] = tuple(out["targets"])
    return out


def validate(record: Any) -> None:
    """Check the shape of a record, then replay it (RecordError on the first problem)."""
    _check_header(record)
    hands = record.get("hands")
    if not isinstance(hands, list) or not hands:
        raise RecordError('"hands" must be a non-empty list')
    if len(hands) > HAND_CAP:
        raise RecordError(f'"hands" lists {len(hands)} hands; no match goes past the cap of {HAND_CAP}')
    for i, h in enumerate(hands, 1):
        _check_hand_shape(h, i)
    _check_result(record.get("result"), len(hands), record.get("truncated", False))
    replay(record, ruleset_of(record))


def _check_header(record: Any) -> None:
    """Format, version, players, seed and the truncated flag."""
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f'"format" must be "{FORMAT}", got {short_repr(record.get("format"))}')
    version = record.get("version")
    if not _is_int(version) or version != VERSION:  # 1.0 and true are not version 1
        raise RecordError(f"unsupported record version {short_repr(version)} (this reader knows {VERSION})")
    players = record.get("players")
    if not (
        isinstance(players, list)
        and len(players) == 3
        and all(isinstance(p, str) and 0 < len(p) <= MAX_NAME_LENGTH for p in players)
    ):
        raise RecordError(f'"players" must list three player names of 1..{MAX_NAME_LENGTH} characters')
    if "seed" in record and (isinstance(record["seed"], bool) or not isinstance(record["seed"], (int, str))):
        raise RecordError(f'"seed" must be a string or an integer, got {short_repr(record["seed"])}')
    truncated = record.get("truncated", False)
    if not isinstance(truncated, bool):
        raise RecordError(f'"truncated" must be true or false, got {short_repr(truncated)}')


def _check_result(result: Any, hands: int, truncated: bool) -> None:
    """The result object, and its end reason against the number of hands."""
    if not (
        isinstance(result, Mapping)
        and (result.get("winner") is None or _is_int(result["winner"]))
        and result.get("winner") in (None, 0, 1, 2)
        and isinstance(result.get("reason"), str)
        and isinstance(result.get("detail", ""), str)
        and isinstance(result.get("totals"), list)
        and len(result["totals"]) == 3
        and all(_is_int(t) for t in result["totals"])
    ):
        raise RecordError(
            '"result" must be an object with "winner" (0..2 or null), "reason" and three '
            'whole-number "totals"'
        )
    if result["reason"] == "hand-cap" and not truncated and hands != HAND_CAP:
        raise RecordError(
            f'result: reason "hand-cap" after {hands} hands: that reason is only given at '
            f'the cap of {HAND_CAP} hands, or to a record marked "truncated": true'
        )
    if truncated and result["reason"] != "hand-cap":
        raise RecordError(
            f'result: a record marked "truncated" ends with reason "hand-cap", '
            f"not {short_repr(result['reason'])}"
        )


#: The keys every hand has, with their JSON types.
_HAND_KEYS: tuple[tuple[str, type], ...] = (
    ("dealer", int),
    ("dealt", Mapping),
    ("widow", str),
    ("exchange", list),
    ("declaration", Mapping),
    ("play", list),
    ("tricks", Mapping),
)
#: The optional keys of a declaration, with their JSON types.
_DECLARATION_KEYS: tuple[tuple[str, type], ...] = (
    ("mode", str),
    ("strain", str),
    ("misere", bool),
    ("declarer", str),
)


def _check_hand_shape(h: Any, number: int) -> None:
    """One hand's keys and types; the replay checks that it was legal."""
    where = f"hand {number}"
    if not isinstance(h, Mapping):
        raise RecordError(f"{where}: must be an object")
    for key, kind in _HAND_KEYS:
        if not isinstance(h.get(key), kind) or (kind is int and isinstance(h.get(key), bool)):
            raise RecordError(
                f"{where}: {key!r} is missing or not a{'n' if kind is int else ''} {kind.__name__ if kind is not Mapping else 'object'}"
            )
    _check_declaration_shape(h["declaration"], where)
    if h["dealer"] not in (0, 1, 2):
        raise RecordError(f"{where}: dealer must be a player index 0..2, got {short_repr(h['dealer'])}")
    _check_counts(h, where)
    for t in h["exchange"]:
        if not (
            isinstance(t, Mapping)
            and t.get("from") in SEAT_NAMES
            and t.get("to") in SEAT_NAMES
            and isinstance(t.get("card"), str)
        ):
            raise RecordError(
                f'{where}: exchange entries must be {{"from": seat, "to": seat, "card": card}}, '
                f"got {short_repr(t)}"
            )


def _check_declaration_shape(decl: Mapping, where: str) -> None:
    if not isinstance(decl.get("discard", []), list):
        raise RecordError(f"{where}: declaration 'discard' must be a list of cards")
    for key, want_type in _DECLARATION_KEYS:
        if key in decl and not isinstance(decl[key], want_type):
            raise RecordError(
                f"{where}: declaration {key!r} must be a {'bool' if want_type is bool else 'string'}, "
                f"got {short_repr(decl[key])}"
            )


def _check_counts(h: Mapping, where: str) -> None:
    """The seats of 'dealt', 'tricks' and 'nets', and whole numbers in the last two."""
    if set(h["dealt"]) != set(SEAT_NAMES) or set(h["tricks"]) != set(SEAT_NAMES):
        raise RecordError(f"{where}: 'dealt' and 'tricks' must have exactly the seats D, E, M")
    counts = [("tricks", h["tricks"])]
    if "nets" in h:
        if not (isinstance(h["nets"], Mapping) and set(h["nets"]) == set(SEAT_NAMES)):
            raise RecordError(f"{where}: 'nets' must have exactly the seats D, E, M")
        counts.append(("nets", h["nets"]))
    for key, by_seat in counts:  # 5.0 tricks or a true net are not numbers of tricks
        for seat in SEAT_NAMES:
            if not _is_int(by_seat[seat]):
                raise RecordError(
                    f"{where}: {key} of {seat} must be a whole number, got {short_repr(by_seat[seat])}"
                )


def _card(text: Any, where: str) -> Card:
    if not isinstance(text, str):
        raise RecordError(f'{where}: a card must be a string such as "SA", got {short_repr(text)}')
    try:
        return Card.parse(text)
    except SolverError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _hand(text: Any, where: str) -> Hand:
    if not isinstance(text, str):
        raise RecordError(f"{where}: must be a hand string")
    try:
        return Hand.parse(text) if text.strip() else Hand()
    except SolverError as exc:
        raise RecordError(f"{where}: {exc}") from None


class _Script:
    """Answers every decision of one hand from the record (shared by the three scripted seats)."""

    def __init__(self, h: Mapping[str, Any], number: int, ruleset: Any) -> None:
        self.number = number
        decl = h["declaration"]
        self.mode = decl.get("mode") or _mode_from(decl, number, ruleset)
        self.discard = tuple(_card(c, f"hand {number}, discard") for c in decl.get("discard", []))
        self.play = [_card(c, f"hand {number}, play card {k + 1}") for k, c in enumerate(h["play"])]
        self.cursor = 0
        self.queues: dict = defaultdict(deque)  # (frm, to) -> cards still to give
        self.peek: dict = defaultdict(int)  # (frm, to) -> next card to look at for name_suit
        self.by_pair: dict = defaultdict(list)
        for k, t in enumerate(h["exchange"]):
            pair = (Seat[t["from"]], Seat[t["to"]])
            c = _card(t["card"], f"hand {number}, exchange entry {k + 1}")
            self.queues[pair].append(c)
            self.by_pair[pair].append(c)


def _mode_from(decl: Mapping[str, Any], number: int, ruleset: Any) -> Mode:
    """The mode of a declaration written with only ``strain`` and ``misere``."""
    strain = decl.get("strain")
    if isinstance(strain, str) and strain in Suit.__members__:
        return Mode(strain)
    if strain == Mode.N:
        if not decl.get("misere"):
            return Mode.N
        return Mode.miz if Mode.miz in ruleset.modes else Mode.MT
    raise RecordError(f"hand {number}: declaration has no valid 'mode' or 'strain' ({short_repr(strain)})")


class _ScriptedPlayer:
    """A seat-independent player reading its answers from the current hand's script."""

    sees_all = False

    def __init__(self, name: str, replay: _Replay) -> None:
        self.name = name
        self.replay = replay

    def declare(self, view: DeclareView) -> Announcement:
        s = self.replay.script
        if view.stage == "mode":
            return Announcement(s.mode)
        return Announcement(s.mode, s.discard)

    def name_suit(self, view: ExchangeView) -> Suit:
        s = self.replay.script
        pair = (view.partner, view.table.seat)
        k = s.peek[pair]
        cards = s.by_pair[pair]
        if k >= len(cards):
            raise RecordError(
                f"hand {s.number}, exchange: the record has too few cards from "
                f"{view.partner.name} to {view.table.seat.name}"
            )
        s.peek[pair] = k + 1
        return cards[k].suit

    def give_card(self, view: ExchangeView) -> Card:
        s = self.replay.script
        q = s.queues[(view.table.seat, view.partner)]
        if not q:
            raise RecordError(
                f"hand {s.number}, exchange: the record has too few cards from "
                f"{view.table.seat.name} to {view.partner.name}"
            )
        return q.popleft()

    def play(self, view: PlayView) -> Card:
        s = self.replay.script
        if s.cursor >= len(s.play):
            raise RecordError(
                f"hand {s.number}, trick {view.trick_number}: the play list ends after "
                f"{len(s.play)} cards; {3 * view.table.ruleset.hand_size} are needed"
            )
        card = s.play[s.cursor]
        s.cursor += 1
        return card


class _Replay:
    def __init__(self, record: Mapping[str, Any], ruleset: Any) -> None:
        self.record = record
        self.ruleset = ruleset
        self._script: _Script | None = None

    @property
    def script(self) -> _Script:
        """The script of the hand being replayed (set when the hand is dealt)."""
        if self._script is None:
            raise RecordError("a scripted player was asked before the first hand was dealt")
        return self._script

    def deal(self, number: int):
        h = self.record["hands"][number - 1]
        rs = self.ruleset
        hands = [_hand(h["dealt"][s], f"hand {number}, dealt {s}") for s in SEAT_NAMES]
        widow = _hand(h["widow"], f"hand {number}, widow")
        seen = 0
        for name, hd in zip(("D", "E", "M", "the widow"), (*hands, widow)):
            dup = seen & hd.mask
            if dup:
                raise RecordError(
                    f"hand {number}: card {Card.from_bit(dup & -dup)} dealt twice (again in {name})"
                )
            seen |= hd.mask
            want = rs.widow_size if name == "the widow" else rs.hand_size
            if len(hd) != want:
                raise RecordError(f"hand {number}: {name} was dealt {len(hd)} cards; the rules deal {want}")
        missing = rs.deck.mask & ~seen
        extra = seen & ~rs.deck.mask
        if extra:
            raise RecordError(
                f"hand {number}: card {Card.from_bit(extra & -extra)} is not in the deck of these rules"
            )
        if missing:
            raise RecordError(f"hand {number}: card {Card.from_bit(missing & -missing)} was not dealt")
        self._script = _Script(h, number, rs)
        return [list(hd) for hd in hands], list(widow)


def replay(record: Mapping[str, Any], ruleset: Any) -> MatchRecord:
    """Replay ``record`` under ``ruleset`` and compare every hand and the result; return the replayed record."""
    rp = _Replay(record, ruleset)
    hands = record["hands"]
    players = [_ScriptedPlayer(n, rp) for n in record["players"]]
    first = hands[0]["dealer"]
    rules = record.get("rules", {})
    # a record marked truncated stops at its last hand; any other runs to the rules' end,
    # or to the standard safety cap
    cap = len(hands) if record.get("truncated") else HAND_CAP
    m = Match(
        ruleset,
        players,
        record.get("seed", 0),
        names=record["players"],
        first_dealer=first,
        deal_source=rp.deal,
        max_hands=cap,
        preset=rules.get("preset"),
        options=rules.get("options"),
    )
    for number, h in enumerate(hands, 1):
        done = m.record["result"]
        if done is not None:
            raise RecordError(
                f"hand {number}: the match was already over after hand {number - 1} ({done['reason']})"
            )
        if h["dealer"] != m.dealer:
            raise RecordError(
                f"hand {number}: dealer is player {h['dealer']}, but the deal passes to player {m.dealer}"
            )
        try:
            got = m.play_hand()
        except RecordError:
            raise
        except SolverError as exc:
            raise RecordError(str(exc)) from None
        _compare_hand(h, got, number, rp.script)
    if m.record["result"] is None:
        raise RecordError(f"the record ends after hand {len(hands)}, but the match is not over")
    want, result = record["result"], m.record["result"]
    if list(want.get("totals", [])) != result["totals"]:
        raise RecordError(
            f"result: totals recorded as {want.get('totals')} but the hands add up to {result['totals']}"
        )
    if want.get("reason") != result["reason"]:
        raise RecordError(
            f"result: reason recorded as {want.get('reason')!r} but the rules give {result['reason']!r}"
        )
    if want.get("winner") != result["winner"]:
        raise RecordError(
            f"result: winner recorded as {want.get('winner')!r} but the rules give {result['winner']!r}"
        )
    return m.record


def _compare_hand(want: Mapping[str, Any], got: Mapping[str, Any], number: int, script: _Script) -> None:
    if script.cursor != len(script.play):
        extra = script.play[script.cursor]
        raise RecordError(
            f"hand {number}: the play list has {len(script.play) - script.cursor} card(s) too many, "
            f"starting with {extra}"
        )
    w_ex = [(t["from"], t["to"], str(_card(t["card"], f"hand {number}, exchange"))) for t in want["exchange"]]
    g_ex = [(t["from"], t["to"], t["card"]) for t in got["exchange"]]
    if w_ex != g_ex:
        k = next((i for i, (a, b) in enumerate(zip(w_ex, g_ex)) if a != b), min(len(w_ex), len(g_ex)))
        rec = f"{w_ex[k][2]} from {w_ex[k][0]} to {w_ex[k][1]}" if k < len(w_ex) else "nothing"
        rule = f"{g_ex[k][2]} from {g_ex[k][0]} to {g_ex[k][1]}" if k < len(g_ex) else "nothing"
        raise RecordError(
            f"hand {number}: wrong exchange at card {k + 1}: the record has {rec}, the rules give {rule}"
        )
    decl = want["declaration"]
    if decl.get("declarer", got["declaration"]["declarer"]) != got["declaration"]["declarer"]:
        raise RecordError(
            f"hand {number}: declarer recorded as {decl.get('declarer')}, "
            f"the rules make {got['declaration']['declarer']} declarer"
        )
    for key in ("strain", "misere"):
        if key in decl and decl[key] != got["declaration"][key]:
            raise RecordError(
                f"hand {number}: declaration {key} recorded as {decl[key]!r}, "
                f"but mode {got['declaration']['mode']} means {got['declaration'][key]!r}"
            )
    w_tr = {s: want["tricks"][s] for s in SEAT_NAMES}
    if w_tr != got["tricks"]:
        g_tr = got["tricks"]
        raise RecordError(
            f"hand {number}: tricks recorded as "
            + " ".join(f"{s} {w_tr[s]}" for s in SEAT_NAMES)
            + " but the play gives "
            + " ".join(f"{s} {g_tr[s]}" for s in SEAT_NAMES)
        )
    if "nets" in want and want["nets"] != got["nets"]:
        raise RecordError(
            f"hand {number}: nets recorded as {want['nets']!r} but the rules give {got['nets']}"
        )
