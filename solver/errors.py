"""One exception hierarchy for the whole toolkit.

Every error the library raises on bad input derives from :class:`SolverError`
(itself a :class:`ValueError`), so callers — the CLI above all — can catch one type
and show its message, which always says what was wrong and where.
"""

from __future__ import annotations


class SolverError(ValueError):
    """Base class of every error raised by ``solver`` on bad input or bad state."""


class NotationError(SolverError):
    """Text that cannot be read as a card, hand, deal, strain or seat."""


class InvalidDealError(NotationError):
    """Cards that do not form a legal position (duplicates, unequal hand sizes).

    A subclass of :class:`NotationError` so that anything parsed from text fails
    with one exception type, whichever check caught it.
    """


class IllegalPlayError(SolverError):
    """A card that may not be played here (not in hand, revoke, wrong turn)."""


class ImpossibleViewError(SolverError):
    """No layout of the unseen cards agrees with what a seat's view says."""


class StudyError(SolverError):
    """A study that cannot run as asked (bad size, format, or parts of another study)."""


class ClusterError(SolverError):
    """The Dask scheduler cannot be reached or used, or it has no workers left."""


class UsageError(SolverError):
    """A command-line mistake found after argument parsing (the CLI exits with code 2)."""


class InternalError(RuntimeError):
    """A broken invariant: a bug in the toolkit, never the caller's input.

    Deliberately not a :class:`SolverError`: the CLI reports bad input as one line and
    exit code 2, but lets this one through as a traceback, so a bug shows as a bug.
    """


class RulesError(SolverError):
    """An invalid ruleset option or combination of options."""


class RecordError(SolverError):
    """A game record that is malformed or does not replay legally."""


class EngineError(SolverError):
    """The search engine cannot run as asked (e.g. an unusable table size)."""


class HandFileError(RecordError):
    """A hand file with one or more problems, all found in one reading, in file order.

    ``problems`` holds one message a problem, each naming its line; the message of the
    error is the single problem, or a count followed by one problem a line.
    """

    def __init__(self, problems: list[str] | tuple[str, ...], source: str = "") -> None:
        self.problems = tuple(problems)
        self.source = source
        where = f"{source}: " if source else ""
        if len(self.problems) == 1:
            message = where + self.problems[0]
        else:
            message = f"{where}{len(self.problems)} problems:\n" + "\n".join(self.problems)
        super().__init__(message)
