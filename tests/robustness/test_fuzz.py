"""Fuzzing every way in: API arguments, notation, game records and CLI options.

The contract (docs/robustness.md): bad input of any type or size gives a
``SolverError`` subclass (the CLI: one stderr line, exit 2) — never another exception —
and valid input, in any of its accepted spellings, gives the brute-force answer.
Hypothesis draws hostile values (bools, floats, NaN, huge integers, bytes, nested
containers, control characters) for one argument at a time while the others stay
valid, so a failure names the argument that let the value through.

The default run (hand files and records included) stays within about 20 s; the slow job
runs many more examples.
"""

from __future__ import annotations

import contextlib
import copy
import io
import itertools
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bruteforce
import solver
from solver.cards import Card, Hand, parse_cards
from solver.deal import Deal, Seat, Strain, parse_strains
from solver.errors import HandFileError, SolverError
from solver.game import records
from solver.game.handfile import HandRecord, hand_from_record, parse_hand, save_hand
from solver.game.match import Match
from solver.game.records import MatchRecord
from solver.game.rules import OPTION_NAMES, Ruleset, get_ruleset
from solver.players import get_player

QUICK = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Hand files and records: more examples than QUICK in the default run (about 10 s in all).
HAND_QUICK = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SMALL = Deal.parse("D:AK... Q2... 3.A.. | 4...")

# --- hostile values ------------------------------------------------------------------------
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.sampled_from([10**30, -(10**30), 2**64, 10**400]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["", "S", "D", "N", "NT", "SA", "\x1b[2J", "true", "false", "0", "1e400", "♠"]),
    st.binary(max_size=6),
)
hostile = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=4), inner, max_size=3),
    ),
    max_leaves=8,
)


def only_solver_errors(call, *args, **kwargs):
    """Run ``call``; a SolverError is fine, any other exception fails the test."""
    try:
        return call(*args, **kwargs)
    except SolverError:
        return None


API_CALLS = {
    "Card": lambda v: Card(v, 14),
    "Card.rank": lambda v: Card(0, v),
    "Card.parse": lambda v: Card.parse(v),
    "Card.from_index": lambda v: Card.from_index(v),
    "Card.from_bit": lambda v: Card.from_bit(v),
    "Hand": lambda v: Hand(v),
    "Hand.parse": lambda v: Hand.parse(v),
    "parse_cards": lambda v: parse_cards(v),
    "Deal": lambda v: Deal(v),
    "Deal.widow": lambda v: Deal(SMALL.hands, v),
    "Deal.parse": lambda v: Deal.parse(v),
    "Deal.from_json": lambda v: Deal.from_json(v),
    "Deal.random.seed": lambda v: Deal.random(v, hand_size=2, widow_size=1),
    "Deal.random.hand_size": lambda v: Deal.random(1, hand_size=v, widow_size=1),
    "Deal.random.deck": lambda v: Deal.random(1, hand_size=1, widow_size=0, deck=v),
    "Seat.parse": lambda v: Seat.parse(v),
    "Strain.parse": lambda v: Strain.parse(v),
    "parse_strains": lambda v: parse_strains(v),
    "solve.deal": lambda v: solver.solve(v, "S"),
    "solve.strain": lambda v: solver.solve(SMALL, v),
    "solve.leader": lambda v: solver.solve(SMALL, "S", leader=v),
    "solve.seat": lambda v: solver.solve(SMALL, "S", seat=v),
    "solve.misere": lambda v: solver.solve(SMALL, "S", misere=v),
    "solve.must_ruff": lambda v: solver.solve(SMALL, "S", must_ruff=v),
    "solve.played": lambda v: solver.solve(SMALL, "S", played=v),
    "card_values.played": lambda v: solver.card_values(SMALL, "N", leader="D", played=v),
    "principal_variation.seat": lambda v: solver.principal_variation(SMALL, "H", seat=v),
    "dd_table.strains": lambda v: solver.dd_table(SMALL, strains=v, threads=1),
    "dd_table.threads": lambda v: solver.dd_table(SMALL, strains="S", threads=v),
    "dd_table.misere": lambda v: solver.dd_table(SMALL, strains="S", misere=v, threads=1),
    "dd_table.progress": lambda v: solver.dd_table(SMALL, strains="S", progress=v, threads=1),
    "Solver.tt_mb": lambda v: solver.Solver(v),
    "can_reach.target": lambda v: solver.Solver(1).can_reach(SMALL, "S", target=v),
    "declare.deal": lambda v: solver.declare(v, strains="S"),
    "declare.declarer": lambda v: solver.declare(SMALL, declarer=v, strains="S"),
    "declare.leader": lambda v: solver.declare(SMALL, leader=v, strains="S"),
    "declare.strains": lambda v: solver.declare(SMALL, strains=v),
    "declare.blind": lambda v: solver.declare(SMALL, strains="S", blind=v),
    "declare.misere": lambda v: solver.declare(SMALL, strains="S", misere=v),
    "declare.must_ruff": lambda v: solver.declare(SMALL, strains="S", must_ruff=v),
    "declare.progress": lambda v: solver.declare(SMALL, strains="S", progress=v),
    "declare.tt_mb": lambda v: solver.declare(SMALL, strains="S", tt_mb=v),
    "get_ruleset": lambda v: get_ruleset(v),
    "Ruleset.from_dict": lambda v: Ruleset.from_dict(v),
    "get_player.kind": lambda v: get_player(v),
    "get_player.seed": lambda v: get_player("random", v),
    "records.loads": lambda v: records.loads(v),
    "records.validate": lambda v: records.validate(v),
    "load_hand": lambda v: solver.load_hand(v) if not isinstance(v, (str, bytes)) else None,
    "parse_hand": lambda v: parse_hand(v),
    "HandRecord.position.trick": lambda v: HAND_RECORD.position(v),
    "HandRecord.position.played": lambda v: HAND_RECORD.position(2, v),
    "hand_from_record.record": lambda v: hand_from_record(v, 1),
    "hand_from_record.number": lambda v: hand_from_record(RECORD, v),
    "save_hand.record": lambda v: save_hand(v, os.devnull) if not isinstance(v, HandRecord) else None,
    "save_hand.path": lambda v: save_hand(HAND_RECORD, v) if not isinstance(v, (str, bytes)) else None,
    "View.from_hand_record.record": lambda v: solver.View.from_hand_record(v, 2),
    "review.progress": lambda v: (
        solver.review(HAND_RECORD, declaration=False, threads=1, progress=v) if v is not None else None
    ),
    "records.save.record": lambda v: records.save(v, os.devnull + "/x"),
    "records.save.path": lambda v: records.save(RECORD, v) if not isinstance(v, (str, bytes)) else None,
    "Match.ruleset": lambda v: Match(v, [get_player("random", i) for i in range(3)]),
    "Match.players": lambda v: Match(get_ruleset("casual"), v),
    "Match.seed": lambda v: Match(get_ruleset("casual"), [get_player("random", i) for i in range(3)], v),
    "Match.max_hands": lambda v: Match(
        get_ruleset("casual"), [get_player("random", i) for i in range(3)], max_hands=v
    ),
    **{
        f"option.{name}": (lambda name: lambda v: get_ruleset("twelve", **{name: v}))(name)  # noqa: B023
        for name in OPTION_NAMES
    },
}


def _check_api(data):
    name = data.draw(st.sampled_from(sorted(API_CALLS)), label="call")
    value = data.draw(hostile, label="value")
    only_solver_errors(API_CALLS[name], value)


@QUICK
@given(st.data())
def test_api_arguments_of_any_type_give_only_solver_errors(data):
    _check_api(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_api_arguments_of_any_type_give_only_solver_errors_long(data):
    _check_api(data)


@pytest.mark.parametrize("name", sorted(API_CALLS))
def test_an_integer_too_long_to_print_gives_a_solver_error(name):
    """Over 4,300 digits an int cannot even be shown in a message (ValueError in repr)."""
    for value in (10**5000, [10**5000], {"x": 10**5000}):
        only_solver_errors(API_CALLS[name], value)


@QUICK
@given(st.sampled_from(["misere", "must_ruff"]), st.sampled_from(["false", "true", 0, 1, None, 1.0]))
def test_a_flag_must_be_a_bool(name, value):
    """``misere="false"`` once ran a misère solve; every non-bool flag is now refused."""
    with pytest.raises(SolverError, match=name):
        solver.solve(SMALL, "S", **{name: value})


# --- notation ------------------------------------------------------------------------------
notation_text = st.text(alphabet="DEM:|. SHDCAKQJT98765432-10♠♥♦♣\x00\x1b\n\t,", max_size=40)


def _check_notation(text):
    for parse in (Deal.parse, Hand.parse, Card.parse, parse_strains, parse_cards, Seat.parse, Strain.parse):
        result = only_solver_errors(parse, text)
        if isinstance(result, Deal):  # what is read back prints and reads the same
            assert Deal.parse(str(result)) == result
            assert Deal.from_json(json.dumps(result.to_json())) == result


@QUICK
@given(notation_text)
def test_notation_text_gives_a_value_or_a_notation_error(text):
    _check_notation(text)


@pytest.mark.slow
@SLOW
@given(notation_text)
def test_notation_text_gives_a_value_or_a_notation_error_long(text):
    _check_notation(text)


json_text = st.one_of(
    st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5)),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)
        ),
        max_leaves=10,
    ).map(lambda v: json.dumps(v)),
    st.sampled_from(
        [
            "[" * 5000,
            '{"hands": ' * 3000,
            "1e400",
            "-1e400",
            "NaN",
            "Infinity",
            "9" * 5000,
            "[1e999]",
            '{"hands": {"D": 1e400}}',
            '"\\ud800"',
        ]
    ),
    st.text(max_size=30),
)


@QUICK
@given(json_text)
def test_json_text_gives_a_value_or_the_projects_error(text):
    only_solver_errors(Deal.from_json, text)
    only_solver_errors(records.loads, text)


# --- valid input agrees with the brute force -----------------------------------------------
@st.composite
def small_positions(draw):
    size = draw(st.integers(1, 4))
    widow = draw(st.integers(0, 2))
    deal = Deal.random(draw(st.integers(0, 10**6)), hand_size=size, widow_size=widow)
    return deal


def _spellings(value, kind):
    """Equivalent ways to pass a seat or strain: the enum, its letter in any case, its number."""
    parsed = Seat.parse(value) if kind == "seat" else Strain.parse(value)
    return [parsed, parsed.name, parsed.name.lower(), int(parsed)]


def _check_against_bruteforce(data):
    deal = data.draw(small_positions(), label="deal")
    strain = data.draw(st.sampled_from("SHDCN"), label="strain")
    leader = data.draw(st.sampled_from("DEM"), label="leader")
    seat = data.draw(st.sampled_from("DEM"), label="seat")
    misere = data.draw(st.booleans(), label="misere")
    must_ruff = data.draw(st.booleans(), label="must_ruff")
    want = bruteforce.solve(deal, strain, leader=leader, seat=seat, misere=misere, must_ruff=must_ruff)
    for s_form, l_form in zip(_spellings(strain, "strain"), _spellings(leader, "seat")):
        got = solver.solve(deal, s_form, leader=l_form, seat=seat, misere=misere, must_ruff=must_ruff)
        assert got == want
    if deal.widow:
        _check_declare(deal, leader, misere, must_ruff)


def _check_declare(deal, leader, misere, must_ruff):
    """declare() against every discard set solved by the brute force, in the strains it
    considers by default: the trump suits, and no trump in misère."""
    held = deal.hands[Seat.D] | deal.widow
    best = None
    for discard in itertools.combinations(list(held), len(deal.widow)):
        hands = list(deal.hands)
        hands[Seat.D] = held - Hand(discard)
        for strain in "N" if misere else "SHDC":
            v = bruteforce.solve(
                Deal(hands), strain, leader=leader, seat="D", misere=misere, must_ruff=must_ruff
            )
            best = v if best is None else (min(best, v) if misere else max(best, v))
    got = solver.declare(deal, leader=leader, misere=misere, must_ruff=must_ruff)
    assert got.tricks == best


@QUICK
@given(st.data())
def test_valid_input_in_any_spelling_agrees_with_the_brute_force(data):
    _check_against_bruteforce(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_valid_input_in_any_spelling_agrees_with_the_brute_force_long(data):
    _check_against_bruteforce(data)


# --- records -------------------------------------------------------------------------------
def _short_record() -> MatchRecord:
    players = [get_player("random", i) for i in range(3)]
    return Match(
        get_ruleset("casual", hands_limit=2), players, 7, preset="casual", options={"hands_limit": 2}
    ).play()


RECORD: MatchRecord = _short_record()


def _paths(value, prefix=()):
    """Every path to a value inside a record (dict keys and list indices)."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


PATHS = [p for p in _paths(RECORD) if p]


def _set(record, path, value):
    target = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


def _check_record_mutation(data):
    bad = copy.deepcopy(RECORD)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        path = data.draw(st.sampled_from(PATHS), label="path")
        try:
            _set(bad, path, data.draw(hostile, label="value"))
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation replaced a container on the way
    try:
        records.validate(bad)
    except SolverError:
        return
    try:
        text = json.dumps(bad)
    except (TypeError, ValueError):
        return  # not JSON-able (bytes, NaN): checked through validate only
    only_solver_errors(records.loads, text)


@HAND_QUICK
@given(st.data())
def test_a_mutated_record_loads_or_gives_a_record_error(data):
    _check_record_mutation(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_a_mutated_record_loads_or_gives_a_record_error_long(data):
    _check_record_mutation(data)


@QUICK
@given(data=st.data())
def test_a_damaged_record_file_gives_a_record_error(data, tmp_path_factory):
    raw = bytearray(records.dumps(RECORD).encode())
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        i = data.draw(st.integers(0, len(raw) - 1), label="at")
        raw[i] = data.draw(st.integers(0, 255), label="byte")
    path = tmp_path_factory.mktemp("rec") / "damaged.json"
    path.write_bytes(bytes(raw))
    only_solver_errors(records.load, path)


HAND_FILE = (Path(__file__).resolve().parents[2] / "examples" / "hand-twelve.txt").read_text(encoding="utf-8")
HAND_RECORD: HandRecord = parse_hand(HAND_FILE)


def _check_damaged_hand_file(data):
    text = list(HAND_FILE)
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        i = data.draw(st.integers(0, len(text) - 1), label="at")
        text[i] = data.draw(
            st.sampled_from(list('[]"{}:.,0123456789SHDCAKQJT-\n \x1b\ufeff') + ["9" * 5000, "[" * 40]),
            label="char",
        )
    _parse_and_check("".join(text))


def _parse_and_check(text):
    """A hand file loads, and then round-trips, or gives its problems in file order."""
    try:
        rec = parse_hand(text)
    except HandFileError as exc:
        lines = [int(p.split()[1].rstrip(":")) if p.startswith("line ") else 0 for p in exc.problems]
        assert lines == sorted(lines), exc.problems
        return
    except SolverError:
        return
    assert parse_hand(rec.to_text()) == rec


HAND_LINES = HAND_FILE.splitlines()
TAG_LINES = [ln for ln in HAND_LINES if ln.startswith("[")]
PLAY_LINES = [ln for ln in HAND_LINES if ln and not ln.startswith(("#", "["))]
hand_words = st.one_of(
    st.sampled_from(
        ["Twelve", "TWELVE", "hearts", "no trump", "Spades", "miz", "C2", "S10", "♠A", "13.", "1)"]
    ),
    st.text(max_size=8),
    scalars.map(str),
)


def _check_edited_hand_file(data):
    """Whole-line edits a player makes by mistake: a line dropped, two lines swapped, a
    tag or card replaced by a word, trick numbers typed (some wrong), names of any text."""
    tags, play = list(TAG_LINES), list(PLAY_LINES)
    for _ in range(data.draw(st.integers(0, 4), label="edits")):
        kind = data.draw(st.sampled_from(["drop", "swap", "word", "number", "players", "tag"]), label="kind")
        i = data.draw(st.integers(0, len(play) - 1), label="line")
        if kind == "drop" and len(play) > 1:
            del play[i]
        elif kind == "swap":
            j = data.draw(st.integers(0, len(play) - 1), label="other")
            play[i], play[j] = play[j], play[i]
        elif kind == "word":
            words = play[i].split()
            words[data.draw(st.integers(0, len(words) - 1), label="at")] = data.draw(hand_words, label="word")
            play[i] = " ".join(words)
        elif kind == "number":
            play[i] = f"{data.draw(st.integers(0, 20), label='typed')}. {play[i]}"
        elif kind == "players":
            names = data.draw(st.lists(st.text(max_size=6), min_size=1, max_size=4), label="names")
            tags.append(f'[Players "{", ".join(json.dumps(n) for n in names)}"]')
        else:
            k = data.draw(st.integers(0, len(tags) - 1), label="tag")
            name = tags[k][1:].split()[0]
            tags[k] = f'[{name} "{data.draw(hand_words, label="value")}"]'
    _parse_and_check("\n".join(tags + play))


@HAND_QUICK
@given(st.data())
def test_an_edited_hand_file_loads_and_round_trips_or_lists_its_problems(data):
    _check_edited_hand_file(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_an_edited_hand_file_loads_and_round_trips_or_lists_its_problems_long(data):
    _check_edited_hand_file(data)


def _check_saved_record_loads(data, tmp_path_factory):
    bad = copy.deepcopy(RECORD)
    for _ in range(data.draw(st.integers(1, 2), label="mutations")):
        path = data.draw(st.sampled_from(PATHS), label="path")
        try:
            _set(bad, path, data.draw(hostile, label="value"))
        except (KeyError, IndexError, TypeError):
            continue
    out = tmp_path_factory.mktemp("save") / "r.json"
    try:
        records.save(bad, out)
    except SolverError:
        assert not out.exists()
        return
    records.load(out)  # what save writes, load reads


@HAND_QUICK
@given(data=st.data())
def test_what_save_record_writes_load_record_reads(data, tmp_path_factory):
    _check_saved_record_loads(data, tmp_path_factory)


@HAND_QUICK
@given(st.data())
def test_a_damaged_hand_file_gives_a_record_error(data):
    _check_damaged_hand_file(data)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_a_damaged_hand_file_gives_a_record_error_long(data):
    _check_damaged_hand_file(data)


def test_a_record_cut_short_and_relabelled_hand_cap_is_refused():
    rec = Match(get_ruleset("casual"), [get_player("random", i) for i in range(3)], 3, preset="casual").play()
    assert len(rec["hands"]) == 12
    forged = copy.deepcopy(rec)
    forged["hands"] = forged["hands"][:3]
    assert forged["result"] is not None
    forged["result"]["reason"] = "hand-cap"
    with pytest.raises(solver.RecordError, match="hand-cap"):
        records.validate(forged)


# --- CLI options ---------------------------------------------------------------------------
def _run_cli(argv):
    from cli.main import main

    out, err = io.StringIO(), io.StringIO()
    code: int | str | None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own usage errors
            code = exc.code
    return code, out.getvalue(), err.getvalue()


cli_words = st.one_of(
    hostile.map(lambda v: json.dumps(v, default=repr)),
    st.text(max_size=15),
    st.sampled_from(["1e400", "[" * 100, "9" * 5000, "\x1b]0;x\x07", "-1", "0", "true"]),
)


@st.composite
def cli_argvs(draw):
    word = draw(cli_words)
    key = draw(st.sampled_from(list(OPTION_NAMES) + ["", "x", "targets"]))
    return draw(
        st.sampled_from(
            [
                ["rules", "twelve", "--option", f"{key}={word}"],
                ["rules", "twelve", "--json", "--option", f"{key}={word}"],
                ["rules", word],
                ["solve", str(SMALL), "--strain", word],
                ["solve", str(SMALL), "--strain", "S", "--leader", word],
                ["solve", word, "--strain", "S"],
                ["table", str(SMALL), "--strains", word],
                ["declare", str(SMALL), "--strains", word],
                ["declare", str(SMALL), "--declarer", word, "--strains", "S"],
                [
                    "simulate",
                    "--matches",
                    "1",
                    "--rules",
                    "casual",
                    "--option",
                    f"{key}={word}",
                    "--json",
                    "--players",
                    "random,random,random",
                ],
                ["simulate", "--matches", word],
                ["replay", word],
            ]
        )
    )


def _check_cli(argv):
    code, out, err = _run_cli(argv)
    assert code in (0, 2), (argv, code, err)
    assert "Traceback" not in err, err
    if code == 2:
        lines = err.splitlines()
        if not err.startswith("usage:"):  # argparse's own errors come after its usage lines
            assert len(lines) == 1, err
        assert lines[-1].startswith("sm358"), err
        assert "\x1b" not in lines[-1] and "\x07" not in lines[-1], err


@QUICK
@given(cli_argvs())
def test_cli_options_give_an_answer_or_one_error_line(argv):
    _check_cli(argv)


@pytest.mark.slow
@SLOW
@given(cli_argvs())
def test_cli_options_give_an_answer_or_one_error_line_long(argv):
    _check_cli(argv)


def test_replay_escapes_control_characters_in_names(tmp_path, capsys):
    rec = copy.deepcopy(RECORD)
    rec["players"][0] = "evil\x1b[2J\x1b]0;owned\x07"
    path = tmp_path / "evil.json"
    records.save(rec, path)
    from cli.main import main

    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "evil\\x1b[2J" in out


@pytest.mark.parametrize("target", ["fifo", "devzero", "directory", "fd", "big", "latin1"])
def test_records_are_read_only_from_bounded_regular_files(tmp_path, target, monkeypatch):
    if target == "fifo":
        path = tmp_path / "pipe"
        os.mkfifo(path)
        arg = path
    elif target == "devzero":
        arg = "/dev/zero"
    elif target == "directory":
        arg = tmp_path
    elif target == "fd":
        arg = 0  # would be stdin as a file descriptor
    elif target == "big":
        monkeypatch.setattr("solver.game.records.MAX_RECORD_BYTES", 100)
        arg = tmp_path / "big.json"
        arg.write_text(records.dumps(RECORD))
    else:
        arg = tmp_path / "latin1.json"
        arg.write_bytes(records.dumps(RECORD).replace("random", "caf\u00e9").encode("latin-1"))
    with pytest.raises(solver.RecordError):
        records.load(arg)
