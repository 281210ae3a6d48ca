"""What a board can open: a hand file, a match record's hand, a deal, or a seeded random deal.

Every source becomes a :class:`~solver.game.handfile.HandRecord` by way of hand-file text,
so the one parser checks it (rules, contract, leader, discard) and its messages name what
is wrong. A deal without a contract gets the declaration the heuristic player would make
(its mode and discard): a start the user can change in the editor.
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..cards import Card
from ..deal import Deal, Seat
from ..errors import RecordError, SolverError
from ..game import records
from ..game.handfile import MAX_HAND_FILE_BYTES, HandRecord, hand_from_record, parse_hand
from ..game.rules import Ruleset, get_ruleset
from ..inputs import MAX_RECORD_BYTES, read_text_file
from ..modes import Mode
from ..players.heuristic import choose_discards, choose_mode

__all__ = ["edited_hand", "load_source", "random_hand"]


def _quote(value: str) -> str:
    """A tag value: the hand-file grammar has no escapes, so a quote cannot appear in one."""
    if '"' in value or "\n" in value or "\r" in value:
        raise RecordError(f"{value[:40]!r}: a value may not hold a quote or a line break")
    return value


def edited_hand(
    deal: Deal | str,
    *,
    rules: Ruleset | str = "twelve",
    contract: str | None = None,
    leader: Seat | str | None = None,
    declarer: Seat | str | None = None,
    discard: Any = None,
    play: Any = (),
    players: Any = None,
) -> HandRecord:
    """A hand from its parts, checked as a hand file is (the editor's and the CLI's way in).

    ``deal`` holds three hands at the first lead, or a full deal with its widow (the
    declarer then needs a ``discard``; without one the heuristic chooses it, and the mode
    when ``contract`` is None). ``declarer`` other than the rules' sets that option.
    """
    rs = rules if isinstance(rules, Ruleset) else get_ruleset(str(rules))
    d = deal if isinstance(deal, Deal) else Deal.parse(deal)
    if declarer is not None and Seat.parse(declarer) != rs.declarer:
        rs = rs.with_options(declarer=Seat.parse(declarer).name)
    seat = rs.declarer
    held = d.hands[seat] | d.widow
    if contract is None:
        contract = str(choose_mode(held.mask, rs.mode_order, rs.target_of(seat), rs.hand_size))
    mode = Mode.parse(contract)
    cards_out: list[Card] | None = None
    if discard is not None and discard != "":
        cards_out = [Card.parse(c) for c in (discard.split() if isinstance(discard, str) else discard)]
    elif d.widow:
        trump = int(mode.strain)
        cards_out = [
            Card.from_bit(1 << b) for b in choose_discards(held.mask, len(d.widow), trump, mode.minimising)
        ]
    base = rs.name.removesuffix("+custom")
    lines = [f'[Rules "{_quote(base)}"]']
    if base == "custom":
        raise RecordError("custom rules are given as a preset and options")
    options = {k: v for k, v in rs.diff(get_ruleset(base)).items() if k != "name"}
    if options:
        lines.append(f'[Options "{_quote(json.dumps(options, sort_keys=True))}"]')
    if players:
        names = [str(p).strip() for p in players]
        lines.append(f'[Players "{_quote(", ".join(names))}"]')
    lines.append(f'[Contract "{mode}"]')
    if cards_out is not None and d.widow:
        lines.append(f'[Discard "{" ".join(str(c) for c in cards_out)}"]')
    elif cards_out:
        raise RecordError("a discard needs a deal with its widow (the hands at the first lead have none)")
    lines.append(f'[Deal "{d}"]')
    if leader is not None:
        lines.append(f'[Leader "{Seat.parse(leader).name}"]')
    cards = [Card.parse(c) for c in (play.split() if isinstance(play, str) else play)]
    lines += [" ".join(str(c) for c in cards[i : i + 3]) for i in range(0, len(cards), 3)]
    return parse_hand("\n".join(lines) + "\n")


def random_hand(seed: int = 0, rules: Ruleset | str = "twelve") -> HandRecord:
    """A seeded random deal of the rules, declared and discarded by the heuristic."""
    rs = rules if isinstance(rules, Ruleset) else get_ruleset(str(rules))
    deal = Deal.random(seed, hand_size=rs.hand_size, widow_size=rs.widow_size, deck=list(rs.deck))
    return edited_hand(deal, rules=rs)


def _deal_text(text: str) -> str:
    """The notation in a deal file: the first line that is not blank or a ``#`` comment."""
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            return line
    raise RecordError("the deal file holds no deal")


def load_source(
    source: Any,
    *,
    hand: int | None = None,
    rules: str | None = None,
    contract: str | None = None,
    leader: str | None = None,
) -> HandRecord:
    """The hand a board opens: a HandRecord, a hand file (path or text), a JSON match record
    (path, text or loaded; ``hand`` picks the hand, default 1), or a deal (notation or a
    deal file; ``rules``, ``contract`` and ``leader`` complete it)."""
    if isinstance(source, HandRecord):
        return source
    if isinstance(source, Deal):
        return edited_hand(source, rules=rules or "twelve", contract=contract, leader=leader)
    if isinstance(source, dict):
        records.validate(source)
        return hand_from_record(source, hand or 1)
    if not isinstance(source, (str, os.PathLike)):
        raise RecordError(
            f"cannot open a {type(source).__name__} on the board: give a hand file, record or deal"
        )
    text = os.fspath(source)
    is_text = isinstance(source, str) and ("\n" in text or text.lstrip()[:1] in ("[", "{") or ":" in text[:3])
    if not is_text:
        text = read_text_file(
            source,
            what="board source",
            max_bytes=max(MAX_RECORD_BYTES, MAX_HAND_FILE_BYTES),
            error=RecordError,
        )
    stripped = text.lstrip()
    where = "" if is_text else f"{os.fsdecode(os.fspath(source))}: "
    try:
        if stripped.startswith("{"):
            record = records.loads(text)
            return hand_from_record(record, hand or 1)
        if hand is not None:
            raise RecordError("--hand picks a hand of a JSON match record; this source is not one")
        if any(line.lstrip().startswith("[") for line in text.splitlines()):
            return parse_hand(text)
        return edited_hand(_deal_text(text), rules=rules or "twelve", contract=contract, leader=leader)
    except SolverError as exc:
        raise RecordError(f"{where}{exc}") from None
