"""Deals read from files, for studies over given deals (``sm358 study --deals-from``).

Three kinds of file, told apart by their name and first line:

- a Parquet (``.parquet``) or CSV (``.csv``) file: one deal per row in a column (``deal``
  by default, the column a study writes, so one study's deals feed another);
- a hand file (``docs/handfile.md``; its first line that is not a comment is a tag such
  as ``[Rules "twelve"]``): the one deal as dealt of its ``[Deal]`` tag;
- any other text: one deal per line in the notation of ``sm358 deal`` (``#`` comments and
  blank lines skipped), as ``sm358 deal --count N`` prints them.

Every deal must be a whole deal under the study's rules (hand and widow sizes, the cards
of its deck); a mistake is reported with the file and the line or row.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..deal import Deal
from ..errors import NotationError, SolverError
from ..game.handfile import load_hand
from ..game.match import deck_for
from ..game.rules import Ruleset
from ..inputs import read_text_file, shown_name

__all__ = [
    "MAX_DEAL_LIST_BYTES",
    "DealFileError",
    "check_deals",
    "deals_digest",
    "read_deals",
    "read_deals_located",
]

#: Largest text file of deals read: about three million deals in the notation.
MAX_DEAL_LIST_BYTES = 256 << 20


class DealFileError(SolverError):
    """A file of deals that cannot be read, or a deal in it that does not fit the rules."""


def read_deals(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]], *, column: str = "deal"
) -> list[Deal]:
    """Every deal of the files, in order (each file as described in the module docstring)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return [deal for deal, _ in read_deals_located(paths, column=column)]


def read_deals_located(
    paths: Iterable[str | os.PathLike[str]], *, column: str = "deal"
) -> list[tuple[Deal, str]]:
    """Every deal with where it came from (``FILE line N`` or ``FILE row N``)."""
    out: list[tuple[Deal, str]] = []
    for p in paths:
        out += _read_one(Path(p), column)
    return out


def _read_one(path: Path, column: str) -> list[tuple[Deal, str]]:
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".csv"):
        return _read_table(path, column)
    text = read_text_file(path, what="deals file", max_bytes=MAX_DEAL_LIST_BYTES, error=DealFileError)
    lines = [(n, ln.split("#", 1)[0].strip()) for n, ln in enumerate(text.splitlines(), 1)]
    lines = [(n, ln) for n, ln in lines if ln]
    if not lines:
        raise DealFileError(f"{path}: holds no deal")
    if lines[0][1].startswith("["):
        record = load_hand(path)
        if record.dealt is None:
            raise DealFileError(
                f"{path}: the hand file does not give the deal as dealt ([Deal] with its widow)"
            )
        return [(record.dealt, f"{path}")]
    out = []
    for n, ln in lines:
        try:
            out.append((Deal.parse(ln), f"{path} line {n}"))
        except NotationError as exc:
            raise DealFileError(f"{path} line {n}: {exc}") from None
    return out


def _read_table(path: Path, column: str) -> list[tuple[Deal, str]]:
    import pandas as pd

    if not path.is_file():
        raise DealFileError(f"{shown_name(path)}: no such file")
    try:
        if path.suffix.lower() == ".parquet":
            import pyarrow.parquet as pq

            names = pq.read_schema(path).names
            if column not in names:
                raise DealFileError(f"{path}: no column {column!r} (columns: {', '.join(names)})")
            values = pd.read_parquet(path, columns=[column])[column]
        else:
            frame = pd.read_csv(path, dtype=str, keep_default_na=False)
            if column not in frame.columns:
                raise DealFileError(f"{path}: no column {column!r} (columns: {', '.join(frame.columns)})")
            values = frame[column]
    except DealFileError:
        raise
    except (OSError, ValueError) as exc:
        raise DealFileError(f"{path}: unreadable ({exc})") from None
    out = []
    for row, value in enumerate(values):
        try:
            out.append((Deal.parse(str(value)), f"{path} row {row}"))
        except NotationError as exc:
            raise DealFileError(f"{path} row {row} ({column}): {exc}") from None
    if not out:
        raise DealFileError(f"{path}: holds no deal")
    return out


def check_deals(located: Sequence[tuple[Deal, str]], rules: Ruleset) -> None:
    """Refuse a deal that is not a whole deal under ``rules``, naming where it is."""
    deck = 0
    for c in deck_for(rules):
        deck |= c.bit
    for deal, where in located:
        if deal.hand_size != rules.hand_size or len(deal.widow) != rules.widow_size:
            raise DealFileError(
                f"{where}: hands of {deal.hand_size} cards and a widow of {len(deal.widow)}; "
                f"{rules.name} deals {rules.hand_size} and {rules.widow_size}"
            )
        stray = [str(c) for h in (*deal.hands, deal.widow) for c in h if not c.bit & deck]
        if stray:
            raise DealFileError(
                f"{where}: {' '.join(stray)} not in the {rules.deck_size}-card deck of {rules.name}"
            )


def deals_digest(deals: Iterable[Deal]) -> str:
    """A fingerprint of the deals in order, so a resumed study knows its input is unchanged."""
    h = hashlib.sha256()
    for d in deals:
        h.update(d.to_string().encode())
        h.update(b"\n")
    return h.hexdigest()[:16]
