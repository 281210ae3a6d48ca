"""Where a study's deals come from besides random dealing: files of deals, deal specs.

Kept apart from :mod:`.study`, which computes and stores rows: this module turns what a
user names (files, a spec with or without an accept function) into a
:class:`~.study.StudySpec` that records it, and the deals that travel with the tasks.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from ..deal import Deal
from ..game.dealspec import DealSpec
from ..game.rules import get_ruleset
from .deal_files import check_deals, deals_digest, read_deals_located
from .study import WHAT, StudyError, StudySpec

__all__ = ["given_study", "spec_text"]


def given_study(
    paths: Iterable[str | os.PathLike],
    *,
    seed: int | str = "1",
    rules: str = "twelve",
    what: tuple[str, ...] = WHAT,
    deals: int | None = None,
    column: str = "deal",
    chunk: int = 0,
) -> tuple[StudySpec, list[Deal]]:
    """The spec and deals of a study over the deals in ``paths`` (the first ``deals`` of
    them, or all), each checked against the rules."""
    names = [os.fspath(p) for p in paths]
    located = read_deals_located(names, column=column)
    if deals is not None:
        if not 1 <= deals <= len(located):
            raise StudyError(f"--deals {deals}: the files hold {len(located)} deals")
        located = located[:deals]
    check_deals(located, get_ruleset(rules))
    given = [d for d, _ in located]
    source = " ".join(names) + (f" [{column}]" if column != "deal" else "")
    spec = StudySpec(len(given), str(seed), rules, what, chunk, deals_from=source, digest=deals_digest(given))
    return spec, given


def spec_text(deal_spec: str | DealSpec) -> str:
    """The notation a study records; an accept function cannot be recorded."""
    if isinstance(deal_spec, DealSpec):
        if deal_spec.accept is not None:
            raise StudyError(
                "a study records its deal spec as text to resume it; an accept function cannot be "
                "recorded: write the deals with solver.deal_matching and study them with deals_from"
            )
        return deal_spec.to_string()
    return deal_spec
