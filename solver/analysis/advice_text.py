"""Advice in words a player acts on: the choice as an instruction, and what it achieves.

One place for the wording of ``sm358 advise``, the advice plot and the notebooks, so that a
misère row never reads like a trump row: in MT and miz the target is a maximum.

>>> goal_words(8, minimising=False), goal_words(3, minimising=True)
('makes 8 tricks', 'takes at most 3 tricks')
>>> target_mark(8, False), target_mark(3, True)
('8+', 'max 3')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Card, parse_cards
from ..modes import Mode

if TYPE_CHECKING:
    from ..declare.optimiser import Choice, Declaration, DeclarationInterrupted
    from ..declare.target import TargetAnswer
    from .advice import Advice, Candidate

#: What P(target) means, said once under the table.
P_TARGET_MEANING = (
    "P(target): the share of the n sampled layouts of the hidden cards in which the choice "
    "reaches the seat's target, each layout played double dummy (all cards seen); "
    "8+ is at least 8 tricks, max 3 (MT, misère) at most 3. tricks: the mean tricks "
    "(shown once judged on every layout). Intervals are 95%."
)


def mode_name(mode: str) -> str:
    """``♠``, ``NT``, ``MT`` or ``misère``: the mode as a player names it."""
    m = Mode.parse(mode)
    if m.trump is not None:
        return m.trump.symbol
    return {Mode.N: "NT", Mode.miz: "misère"}.get(m, m.value)


def goal_words(target: int, minimising: bool) -> str:
    """What reaching the target means: ``makes 8 tricks``, or ``takes at most 3 tricks``."""
    return f"takes at most {target} tricks" if minimising else f"makes {target} tricks"


def target_mark(target: int, minimising: bool) -> str:
    """The target in a table cell: ``8+`` (at least), ``max 3`` (at most)."""
    return f"max {target}" if minimising else f"{target}+"


def discard_text(discard: tuple[str, ...] | list[str]) -> str:
    """The discard in suit order, highest first: ``♠8 ♠4 ♦6 ♣2``."""
    cards = sorted(parse_cards(" ".join(discard)), key=lambda x: (x.suit, -x.rank))
    return " ".join(x.pretty() for x in cards)


def choice_cell(c: Candidate) -> str:
    """The candidate in a table row: ``♥ ♠8 ♠4 ♦6 ♣2``, ``♠ (after the widow)``, ``♠K``."""
    if c.card is not None:
        return Card.parse(c.card).pretty()
    name = mode_name(c.mode)
    if c.discard is None:
        return f"{name} then discard" if c.samples else name
    return f"{name} {discard_text(c.discard)}"


def instruction(c: Candidate) -> str:
    """The choice as an instruction: ``Name ♥ and discard ♠8 ♠4 ♦6 ♣2``, ``Play ♠K``."""
    if c.card is not None:
        return f"Play {Card.parse(c.card).pretty()}"
    name = mode_name(c.mode)
    if not c.discard:  # None: the discard follows once the widow is seen; (): no widow
        return f"Name {name}"
    return f"Name {name} and discard {discard_text(c.discard)}"


def percent(p: float) -> str:
    return f"{100 * p:.0f}%"


def span(low: float, high: float) -> str:
    """An interval of shares: ``86-94%``."""
    return f"{100 * low:.0f}-{100 * high:.0f}%"


def outcome(c: Candidate) -> str:
    """``makes 8 tricks in 90% of layouts (86-94%), 9.1 tricks on average``."""
    d = c.to_dict()
    low, high = d["p_ci"]
    text = f"{goal_words(c.target, c.minimising)} in {percent(c.p_target)} of layouts ({span(low, high)})"
    if d["mean_tricks"] is not None:
        text += f", {d['mean_tricks']:.1f} tricks on average"
    return text


def headline(advice: Advice) -> str:
    """The advice in one sentence, the recommendation first.

    ``Name ♥ and discard ♠8 ♠4 ♦6 ♣2: makes 8 tricks in 90% of layouts (86-94%), ...``
    """
    rec = advice.recommended
    if rec is None:
        return "No advice: stopped before any choice was judged on every layout."
    return f"{instruction(rec)}: {outcome(rec)}."


def _tricks_bound(tricks: int, misere: bool, at_least: bool = False) -> str:
    """``at most 3`` in misère; ``at least 9`` with ``at_least``; else ``9``."""
    return f"at most {tricks}" if misere else f"at least {tricks}" if at_least else str(tricks)


def _declaration_choice(choice: Choice, tricks: int, misere: bool, at_least: bool = False) -> str:
    """``Name ♥ and discard ♠2 ♣5: you make 9 tricks against any defence (double dummy)``;
    in misère ``you take at most 9 tricks``, with ``at_least`` ``you make at least 9``."""
    verb = "take" if misere else "make"
    return (
        f"Name {mode_name(choice.strain.name)} and discard {discard_text([str(c) for c in choice.discard])}: "
        f"you {verb} {_tricks_bound(tricks, misere, at_least)} trick{'' if tricks == 1 else 's'} "
        "against any defence (double dummy)"
    )


def optimum_proven(choice: Choice, tricks: int, misere: bool) -> str:
    """What a long declaration says once its optimum is proven and the ties are still
    being settled: the choice is already safe to play."""
    return f"optimum proven: {_declaration_choice(choice, tricks, misere)}; still settling which other choices tie it"


def declaration_headline(result: Declaration) -> str:
    """The exact declaration in one sentence: what to name and discard, what it takes
    against the best defence, and what the next best strain gives.

    ``Name ♥ and discard ♠2 ♦3 ♣5 ♣2: you make 9 tricks against any defence (double
    dummy); in the next best strain, ♣, 7.`` In misère: ``you take at most 2 tricks``.
    """
    rec = result.recommended
    if rec is None:
        return "No declaration: no candidate was settled."
    text = _declaration_choice(rec, result.tricks, result.misere)
    others = {t: v for t, v in result.by_strain.items() if t != rec.strain}
    if others:  # the first best of the other strains, in strain order
        runner = (min if result.misere else max)(others, key=lambda t: others[t])
        value = _tricks_bound(others[runner], result.misere)
        text += f"; in the next best strain, {mode_name(runner.name)}, {value}"
    return text + "."


def target_headline(answer: TargetAnswer) -> str:
    """A target question's answer in one sentence: a choice that reaches it, or that none does.

    ``No strain and discard keeps you to at most 3 tricks against the best defence (double
    dummy): each of the 1,669 candidates takes more.``
    """
    n = answer.target
    if answer.choice is not None:
        return _declaration_choice(answer.choice, n, answer.misere, at_least=True) + "."
    tricks = f"{n} trick{'' if n == 1 else 's'}"
    goal = f"keeps you to at most {tricks}" if answer.misere else f"makes {tricks}"
    short = "takes more" if answer.misere else "falls short"
    return (
        f"No strain and discard {goal} against the best defence (double dummy): "
        f"each of the {answer.candidates_asked:,} candidates {short}."
    )


def interrupted_declaration(stop: DeclarationInterrupted, how: str = "interrupted") -> str:
    """What a declaration stopped by Ctrl-C had settled (``how`` it was stopped): how far it
    got and its best choice, which the optimum can only better."""
    text = f"{how} after {stop.done:,} of {stop.total:,} candidates"
    if stop.interval is not None:
        text += f"; the optimum is {stop.interval} tricks (proven)"
    if stop.best is None or stop.tricks is None:
        return text + "; none settled yet"
    choice = _declaration_choice(stop.best, stop.tricks, stop.misere)
    if stop.interval is not None and stop.interval.exact and stop.tricks == stop.interval.lo:
        # the optimum is proven and this choice reaches it: only the list of ties is unfinished
        return f"{text}; an optimal choice: {choice} (others may tie it: not all known yet)"
    better = "fewer" if stop.misere else "more"
    return f"{text}; the best proven: {choice} (the optimum may give {better}: not yet proven)"


__all__ = [
    "P_TARGET_MEANING",
    "choice_cell",
    "declaration_headline",
    "discard_text",
    "goal_words",
    "headline",
    "instruction",
    "interrupted_declaration",
    "mode_name",
    "optimum_proven",
    "outcome",
    "target_headline",
    "target_mark",
]
