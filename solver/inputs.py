"""Safe file input and output: bounded files, bounded JSON, strict argument types, and
files written whole or not at all.

Why one module: every path by which text or values enter the toolkit (deal files, game
records, ``--option`` values, API arguments) must fail the same way on hostile or
careless input — a :class:`~solver.errors.SolverError` subclass naming the problem,
never a traceback, a hang or a silently misread value. The limits are documented in
``docs/robustness.md``.
"""

from __future__ import annotations

import inspect
import json
import math
import os
import re
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any, NoReturn

from .errors import NotationError, SolverError

#: Deepest nesting of JSON arrays/objects accepted (a record needs 4 levels).
MAX_JSON_DEPTH = 32
#: Longest integer literal accepted in JSON, in digits (counts and tricks need 3).
MAX_JSON_INT_DIGITS = 30
#: Largest file read as a game record (a 200-hand record is about 0.3 MB).
MAX_RECORD_BYTES = 16 << 20
#: Largest file read as a deal (one line of notation plus comments).
MAX_DEAL_FILE_BYTES = 1 << 20

#: Name parts of the temporary files :func:`atomic_write_path` makes (``.sm358-PID-XXXX.tmp``).
TEMP_PREFIX, TEMP_SUFFIX = ".sm358-", ".tmp"

#: C0 and C1 control characters, DEL, the line and paragraph separators, and the
#: bidirectional controls that reorder text.
UNSAFE_CHARS = re.compile("[\\x00-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069]")
#: The byte order mark some editors put before UTF-8 text; a file is read without it.
BOM = "\ufeff"

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def _fail(error: type[SolverError], message: str) -> NoReturn:
    raise error(message)


def read_text_file(path: Any, *, what: str, max_bytes: int, error: type[SolverError]) -> str:
    """The UTF-8 text of the regular file at ``path``, at most ``max_bytes`` long.

    Refused, with ``error``: a path that is not a string or path object (an integer would
    be taken as an open file descriptor, e.g. 0 = stdin), anything but a regular file (a
    FIFO would block, ``/dev/zero`` never ends), a file over the size cap, text that is
    not UTF-8, and a file that cannot be opened (naming the reason).
    """
    if isinstance(path, bool) or not isinstance(path, (str, bytes, os.PathLike)):
        _fail(error, f"{what} path must be a file name, got {type(path).__name__} {short_repr(path)}")
    name = os.fsdecode(os.fspath(path))
    if "\0" in name:
        _fail(error, f"{what} path {name!r} contains a NUL character")
    shown = shown_name(name)
    try:
        info = os.stat(name)
    except OSError as exc:
        _fail(error, f"cannot read {what} {shown}: {exc.strerror or exc}")
    if not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        _fail(error, f"{what} {shown} is {kind}")
    if info.st_size > max_bytes:
        _fail(error, f"{what} {shown} is {info.st_size} bytes; the limit is {max_bytes}")
    try:
        # O_NONBLOCK: should the file be swapped for a FIFO after the check, open() does not hang
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                _fail(error, f"{what} {shown} is not a regular file")
            data = f.read(max_bytes + 1)
    except OSError as exc:
        _fail(error, f"cannot read {what} {shown}: {exc.strerror or exc}")
    if len(data) > max_bytes:
        _fail(error, f"{what} {shown} is over the limit of {max_bytes} bytes")
    return decode_utf8(data, f"{what} {shown}", error)


def decode_utf8(data: bytes, where: str, error: type[SolverError]) -> str:
    """``data`` as UTF-8 text; ``error`` names the first bad byte's offset."""
    try:
        return data.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as exc:
        _fail(error, f"{where} is not UTF-8 text (byte {exc.start}: {exc.reason})")


def terminal_safe(text: str, *, markup: bool = False) -> str:
    """``text`` with control characters shown as escapes (``\\x1b``, ``\\u202e``), so that a
    name or message read from a file cannot clear the screen, retitle the window, open a
    hyperlink or reorder what is shown.

    ``markup=True`` also escapes rich markup (``[blink]``, ``[link=...]``), for text put
    into a string that rich renders as markup (``console.print``, table titles and cells).
    """
    safe = UNSAFE_CHARS.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(text))
    if markup:
        from rich.markup import escape

        safe = escape(safe)
    return safe


def json_text_safe(text: str) -> str:
    """JSON text with the characters of :data:`UNSAFE_CHARS` written as ``\\uXXXX`` escapes.

    ``json.dumps(..., ensure_ascii=False)`` escapes C0 controls only; a raw DEL, C1 control
    or bidirectional override would still reach the terminal. Outside strings JSON text is
    plain ASCII, so the escapes land inside strings and the text means the same.
    """
    return UNSAFE_CHARS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (brackets in strings skipped)."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def load_json(text: Any, *, what: str, error: type[SolverError], max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON ``text`` with bounded nesting and bounded, finite numbers.

    Python's parser would recurse until RecursionError on deep nesting, raise ValueError on
    integers over 4,300 digits, and turn ``1e400`` into infinity and ``NaN`` into a float;
    here each is ``error`` naming ``what``.
    """
    if isinstance(text, (bytes, bytearray)):
        text = decode_utf8(bytes(text), what or "the text", error)
    if not isinstance(text, str):
        _fail(error, f"{_at(what)}JSON text expected, got {type(text).__name__}")
    if json_depth(text) > max_depth:
        _fail(error, f"{_at(what)}JSON nests deeper than {max_depth} levels")
    try:
        return json.loads(
            text,
            parse_int=lambda s: _json_int(s, what, error),
            parse_float=lambda s: _json_float(s, what, error),
            parse_constant=lambda s: _fail(error, f"{_at(what)}{s} is not a number JSON allows"),
        )
    except json.JSONDecodeError as exc:
        _fail(error, f"{_at(what)}not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
    except RecursionError:  # pragma: no cover - the depth check comes first
        _fail(error, f"{_at(what)}JSON nests too deeply")


def option_value(text: str, *, what: str, error: type[SolverError]) -> Any:
    """A ``KEY=VALUE`` option's VALUE: JSON when it is JSON (``true``, ``9``, ``[9,5,2]``),
    else the text itself (``named-suit``); JSON with hostile nesting or numbers is refused."""
    if json_depth(text) > MAX_JSON_DEPTH:
        _fail(error, f"{_at(what)}JSON nests deeper than {MAX_JSON_DEPTH} levels")
    try:  # syntax only: numbers are kept as their text here
        json.loads(text, parse_int=str, parse_float=str, parse_constant=str)
    except json.JSONDecodeError:
        return text
    return load_json(text, what=what, error=error)


def _at(what: str) -> str:
    """``what`` as the prefix of a message (nothing when the caller adds its own)."""
    return f"{what}: " if what else ""


def _json_int(literal: str, what: str, error: type[SolverError]) -> int:
    if len(literal.lstrip("-")) > MAX_JSON_INT_DIGITS:
        _fail(error, f"{_at(what)}the number {literal[:12]}... has more than {MAX_JSON_INT_DIGITS} digits")
    return int(literal)


def _json_float(literal: str, what: str, error: type[SolverError]) -> float:
    if len(literal) > 64:
        _fail(error, f"{_at(what)}the number {literal[:12]}... is too long")
    value = float(literal)
    if not math.isfinite(value):
        _fail(error, f"{_at(what)}the number {literal} is out of range")
    return value


def check_flag(value: Any, name: str, error: type[SolverError]) -> bool:
    """``value`` if it is a bool; a string such as ``"false"`` is refused (it would be true)."""
    if not isinstance(value, bool):
        _fail(error, f"{name} must be True or False, got {type(value).__name__} {short_repr(value)}")
    return value


def check_int(
    value: Any, name: str, error: type[SolverError], lo: int | None = None, hi: int | None = None
) -> int:
    """``value`` if it is an int (not a bool, not a float) within ``lo..hi``."""
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(error, f"{name} must be a whole number, got {type(value).__name__} {short_repr(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = (
            f"{lo}..{hi}"
            if lo is not None and hi is not None
            else (f">= {lo}" if lo is not None else f"<= {hi}")
        )
        _fail(error, f"{name} must be in {span}, got {short_repr(value)}")
    return value


def check_seed(seed: Any, error: type[SolverError]) -> None:
    """A seed is an integer of at most 256 bits or a string of at most 1,000 characters."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        _fail(error, f"a seed must be an integer or a string, got {short_repr(seed)}")
    if isinstance(seed, int) and seed.bit_length() > 256 or isinstance(seed, str) and len(seed) > 1000:
        _fail(error, f"the seed {short_repr(seed)} is too large (at most 256 bits or 1,000 characters)")


def check_progress(progress: Any, error: type[SolverError]) -> None:
    """A progress callback must be a function of ``(done, total)`` (or None): found before
    the work starts, not as a TypeError after the first piece of work is done."""
    if progress is None:
        return
    if not callable(progress):
        _fail(error, f"progress must be a function (done, total) or None, got {short_repr(progress)}")
    try:
        signature = inspect.signature(progress)
    except (TypeError, ValueError):  # a builtin without a signature: taken on trust
        return
    try:
        signature.bind(0, 0)
    except TypeError:
        _fail(error, f"progress must take two arguments (done, total); {short_repr(progress)} does not")


def notation_text(text: Any, what: str, expected: str) -> str:
    """``text`` stripped, for a ``parse`` that has let its own type through: anything but
    a string is refused with one message naming the notation (``cannot read card 5: ...``)."""
    if not isinstance(text, str):
        _fail(NotationError, f"cannot read {what} {short_repr(text)}: expected {expected}")
    return text.strip()


def shown_name(name: str | os.PathLike[str]) -> str:
    """A file name as an error message shows it: as it is, or quoted with escapes when it
    holds a newline or another character that would break the one-line message.

    >>> shown_name("deal.txt"), shown_name("a\\nb")
    ('deal.txt', "'a\\\\nb'")
    """
    name = os.fsdecode(os.fspath(name))
    return name if name.isprintable() else repr(name)


def short_repr(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters (a huge int or string stays readable)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"<an integer of about {int(value.bit_length() * 0.30103)} digits>"
    try:
        text = repr(value)
    except Exception:  # e.g. a list holding a 5,000-digit int, or an object whose repr fails
        return f"<a {type(value).__name__} that cannot be shown>"
    return text if len(text) <= limit else text[:limit] + "..."


@contextmanager
def atomic_write_path(path: str | os.PathLike[str]) -> Iterator[str]:
    """A temporary file name next to ``path``, for a writer that wants a name (pyarrow,
    pandas, matplotlib): when the block ends normally the file is synced and renamed over
    ``path``; on an error or Ctrl-C it is removed. So ``path`` is written whole or not at all.

    The writer's pid in the temporary name tells a file left by a killed writer from one
    still being written (see ``records.remove_stale_temp_files``)."""
    directory = os.path.dirname(os.path.abspath(os.fspath(path)))
    fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-", suffix=TEMP_SUFFIX, dir=directory)
    os.close(fd)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # what open() would give, not mkstemp's private 0600
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write a whole file or nothing (see :func:`atomic_write_path`)."""
    with atomic_write_path(path) as tmp, open(tmp, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
