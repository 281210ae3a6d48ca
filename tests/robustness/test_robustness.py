"""The cases issue 30 found, one test each: wrong types, hostile files, forged records,
terminal escapes, the simulate output directory, and the C core's own argument checks.

The broad search for more such cases is tests/robustness/test_fuzz.py; these pin the known ones
with the exact error a user sees (docs/robustness.md).
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path

import pytest

import solver
from cli.main import main
from solver.deal import Deal
from solver.engine import _core
from solver.errors import EngineError, NotationError, RecordError, RulesError
from solver.game import records
from solver.game.handfile import hand_from_record, save_hand
from solver.game.match import Match
from solver.game.records import MatchRecord
from solver.game.rules import get_ruleset
from solver.inputs import TEMP_PREFIX, TEMP_SUFFIX, atomic_write_path, load_json
from solver.players import get_player

REPO = Path(__file__).resolve().parents[2]
SMALL = Deal.parse("D:AK... Q2... 3.A.. | 4...")


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def record() -> MatchRecord:
    players = [get_player("random", i) for i in range(3)]
    return Match(
        get_ruleset("casual", hands_limit=3), players, 5, preset="casual", options={"hands_limit": 3}
    ).play()


# --- strict types --------------------------------------------------------------------------
def test_misere_false_as_a_string_is_refused_not_run_as_misere():
    with pytest.raises(EngineError, match="misere must be True or False, got str 'false'"):
        solver.solve(SMALL, "S", misere="false")  # type: ignore[arg-type]
    with pytest.raises(EngineError, match="misere"):
        solver.declare(SMALL, strains="S", misere="false")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "call",
    [
        lambda: solver.solve(SMALL, True),  # type: ignore[arg-type]
        lambda: solver.solve(SMALL, "S", leader=False),  # type: ignore[arg-type]
        lambda: solver.declare(SMALL, declarer=True, strains="S"),  # type: ignore[arg-type]
        lambda: solver.Seat.parse(True),
        lambda: solver.Strain.parse(False),
    ],
)
def test_a_bool_is_not_a_strain_or_a_seat(call):
    with pytest.raises(NotationError):
        call()


@pytest.mark.parametrize(
    "options, message",
    [
        ({"targets": (8.9, 5, 3)}, "targets"),
        ({"targets": (True, 5, 10)}, "targets"),
        ({"hands_limit": 9.0}, "hands_limit"),
        ({"hands_limit": 10**5000}, "hands_limit"),
        ({"race_target": 10**6}, "race_target"),
        ({"double_payment": "false"}, "double_payment"),
        ({"deck_size": 52.0}, "deck_size"),
        ({"modes": [["S"]]}, "modes"),
    ],
)
def test_ruleset_numbers_and_flags_are_strict_and_bounded(options, message):
    with pytest.raises(RulesError, match=message):
        get_ruleset("twelve", **options)


def test_get_ruleset_takes_only_a_preset_name():
    for bad in (None, 1, ["twelve"], {"a": 1}):
        with pytest.raises(RulesError, match="unknown ruleset"):
            get_ruleset(bad)  # type: ignore[arg-type]
    assert get_ruleset("twelve", name="mine").name == "mine"  # `name` is an option, not the preset


# --- bounded JSON --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, message",
    [
        ("[" * 100_000, "nests deeper than 32"),
        ("9" * 5000, "more than 30 digits"),
        ('{"hands": 1e400}', "out of range"),
        ("NaN", "not a number JSON allows"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_json_with_hostile_nesting_or_numbers_is_refused(text, message):
    with pytest.raises(NotationError, match=message):
        Deal.from_json(text)
    with pytest.raises(RecordError, match=message):
        records.loads(text) if isinstance(text, str) else load_json(text, what="x", error=RecordError)


def test_brackets_inside_strings_do_not_count_as_nesting():
    assert load_json('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', what="x", error=RecordError)


@pytest.mark.parametrize(
    "option", ["targets=[1e400,1,1]", "targets=" + "[" * 50_000, "hands_limit=" + "9" * 5000]
)
def test_rules_and_simulate_options_are_bounded(capsys, option):
    for argv in (["rules", "twelve", "--option", option], ["simulate", "--matches", "1", "--option", option]):
        code, _, err = cli(capsys, *argv)
        assert code == 2 and err.count("\n") == 1 and "--option" in err, err


# --- files ---------------------------------------------------------------------------------
def test_a_non_utf8_deal_file_gives_one_line(capsys, tmp_path):
    path = tmp_path / "deal.txt"
    path.write_bytes("# caf\u00e9\nD:AK... Q2... 3.A.. | 4...\n".encode("latin-1"))
    code, _, err = cli(capsys, "declare", str(path))
    assert code == 2 and "not UTF-8" in err and err.count("\n") == 1


def test_load_record_refuses_a_file_descriptor_number():
    with pytest.raises(RecordError, match="must be a file name, got int 0"):
        records.load(0)  # type: ignore[arg-type]


def test_replay_of_a_fifo_does_not_hang(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "replay", str(fifo)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "not a regular file" in done.stderr


def test_replay_of_dev_zero_stops_at_once(capsys):
    code, _, err = cli(capsys, "replay", "/dev/zero")
    assert code == 2 and "not a regular file" in err


# --- records -------------------------------------------------------------------------------
def test_a_record_cut_short_and_relabelled_hand_cap_is_refused():
    players = [get_player("random", i) for i in range(3)]
    rec = Match(
        get_ruleset("casual", hands_limit=9), players, 2, preset="casual", options={"hands_limit": 9}
    ).play()
    assert rec["result"] is not None
    assert rec["result"]["reason"] == "hands-limit" and len(rec["hands"]) == 9
    forged = copy.deepcopy(rec)
    forged["hands"] = forged["hands"][:3]
    assert forged["result"] is not None
    forged["result"]["reason"] = "hand-cap"
    with pytest.raises(RecordError, match='reason "hand-cap" after 3 hands'):
        records.validate(forged)


def test_a_truncated_record_loads_and_replay_says_so(record, tmp_path, capsys):
    cut = copy.deepcopy(record)
    cut["hands"] = cut["hands"][:2]
    cut["truncated"] = True
    replayed = Match(
        get_ruleset("casual", hands_limit=3),
        [get_player("random", i) for i in range(3)],
        5,
        preset="casual",
        options={"hands_limit": 3},
        max_hands=2,
    ).play()
    assert replayed["truncated"] is True and replayed["hands"] == cut["hands"]
    cut["result"] = replayed["result"]
    path = tmp_path / "cut.json"
    records.save(cut, path)
    assert records.load(path)["truncated"] is True
    code, out, _ = cli(capsys, "replay", str(path))
    assert code == 0 and "truncated" in out
    complete = copy.deepcopy(record)
    complete["truncated"] = True  # a complete match is not truncated: its reason is the rules'
    with pytest.raises(RecordError, match="truncated"):
        records.validate(complete)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda r: r.update(version=1.0), "version"),
        (lambda r: r.update(version=True), "version"),
        (lambda r: r["hands"][0]["tricks"].update(D=float(r["hands"][0]["tricks"]["D"])), "tricks of D"),
        (lambda r: r["hands"][0]["nets"].update(E=True), "nets of E"),
        (lambda r: r["result"].update(winner=True), "winner"),
        (lambda r: r.update(truncated="yes"), "truncated"),
        (lambda r: r["players"].__setitem__(0, "x" * 101), "player names"),
        (lambda r: r["hands"][0]["declaration"].update(misere="false"), "misere"),
    ],
)
def test_record_types_are_strict(record, mutate, message):
    bad = copy.deepcopy(record)
    mutate(bad)
    with pytest.raises(RecordError, match=message):
        records.validate(bad)


def test_replay_escapes_control_characters(record, tmp_path, capsys):
    rec = copy.deepcopy(record)
    rec["players"] = ["a\x1b[2J", "b\x1b]0;title\x07", "c\u202e"]
    path = tmp_path / "names.json"
    records.save(rec, path)
    code, out, _ = cli(capsys, "replay", str(path))
    assert code == 0
    assert not any(ch in out for ch in "\x1b\x07\u202e")
    assert "a\\x1b[2J" in out and "b\\x1b]0;title\\x07" in out and "c\\u202e" in out


# --- simulate --out ------------------------------------------------------------------------
SIM = [
    "simulate",
    "--matches",
    "2",
    "--rules",
    "casual",
    "--option",
    "hands_limit=1",
    "--players",
    "random,random,random",
    "--json",
]


def test_simulate_refuses_to_overwrite_records_unless_forced(capsys, tmp_path):
    out = tmp_path / "run"
    assert cli(capsys, *SIM, "--out", str(out))[0] == 0
    first = (out / "match-1.json").read_text()
    code, _, err = cli(capsys, *SIM, "--seed", "9", "--out", str(out))
    assert code == 2 and "--force" in err and err.count("\n") == 1
    assert (out / "match-1.json").read_text() == first
    assert cli(capsys, *SIM, "--seed", "9", "--out", str(out), "--force")[0] == 0
    assert (out / "match-1.json").read_text() != first


def test_simulate_removes_stale_temporary_files_only(capsys, tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    ).stdout.strip()
    stale = [out / f".sm358-{dead}-abcd.tmp", out / ".sm358-k2j4x9_q.tmp"]  # a gone writer, the old naming
    live = out / f".sm358-{os.getpid()}-wxyz.tmp"  # this process is alive: its file is in flight
    for p in (*stale, live):
        p.write_text("{")
    assert cli(capsys, *SIM, "--out", str(out))[0] == 0
    assert not any(p.exists() for p in stale) and live.exists()


def test_atomic_write_path_renames_on_success_and_cleans_up_on_failure(tmp_path):
    """The one temp-then-rename step behind every file the toolkit writes: the temporary
    name is the one ``remove_stale_temp_files`` recognises, the file gets the mode open()
    would give, and an error or Ctrl-C inside the block leaves the old file untouched."""
    target = tmp_path / "out.csv"
    target.write_text("old")
    for error in (ValueError, KeyboardInterrupt):
        with pytest.raises(error):
            with atomic_write_path(target) as tmp:
                assert Path(tmp).parent == tmp_path
                assert Path(tmp).name.startswith(f"{TEMP_PREFIX}{os.getpid()}-") and tmp.endswith(TEMP_SUFFIX)
                Path(tmp).write_text("half")
                raise error
        assert target.read_text() == "old" and os.listdir(tmp_path) == ["out.csv"]
    with atomic_write_path(target) as tmp:
        Path(tmp).write_text("new")
    assert target.read_text() == "new" and os.listdir(tmp_path) == ["out.csv"]
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_simulate_caps_matches(capsys):
    code, _, err = cli(capsys, "simulate", "--matches", "100001")
    assert code == 2 and "at most 100,000" in err


# --- the C core checks its own arguments ---------------------------------------------------
@pytest.mark.parametrize(
    "hands, played, message",
    [
        ((1 << 13, 2, 4), (), "outside the deck"),
        ((1 << 63, 2, 4), (), "outside the deck"),
        ((1, 1, 2), (), "two hands"),
        ((1, 2, 12), (), "differ in size"),
        ((0, 0, 0), (), "1..17"),
        ((1, 2, 4), (1,), "not in the hand"),
    ],
)
def test_the_c_core_refuses_invalid_masks(hands, played, message):
    engine = _core.Engine(1 << 20)
    for method in (engine.solve, engine.pv):
        with pytest.raises(ValueError, match=message):
            method(0, 0, False, False, *hands, 0, played)
    with pytest.raises(ValueError, match=message):
        engine.card_values(0, 0, False, False, *hands, 0, played, -1)
    with pytest.raises(ValueError, match=message):
        engine.can_reach(0, 0, False, False, *hands, 0, played, 1)
    with pytest.raises(ValueError, match=message):
        engine.best_card(0, 0, False, False, *hands, 0, played, (0,))


@pytest.mark.parametrize(
    "order, error, message",
    [
        ([0], ValueError, "tuple"),
        (tuple(range(18)), ValueError, "at most 17"),
        ((13,), ValueError, "out of range"),
        (("SA",), TypeError, "integer"),
    ],
)
def test_the_c_core_refuses_a_bad_card_order(order, error, message):
    engine = _core.Engine(1 << 20)
    with pytest.raises(error, match=message):
        engine.best_card(0, 0, False, False, 1, 2, 4, 0, (), order)
    assert engine.best_card(0, 0, False, False, 1, 2, 4, 0, (), (0,)) == (0, 0)  # still works
    assert engine.best_card(0, 0, False, False, 1, 2, 4, 0, (), ()) == (-2, 0)  # no card given


def test_the_c_core_refuses_a_target_out_of_range():
    engine = _core.Engine(1 << 20)
    with pytest.raises(ValueError, match="target"):
        engine.can_reach(0, 0, False, False, 1, 2, 4, 0, (), 2)
    with pytest.raises(ValueError, match="value"):
        engine.keeping_cards(0, 0, False, False, 1, 2, 4, 0, (), 18)
    assert engine.solve(0, 0, False, False, 1, 2, 4, 0, ()) == 0  # the same engine still works


# --- the API's remaining arguments, save_record, review of a FIFO ----------------------------
def test_review_calls_a_fifo_not_a_regular_file(tmp_path, capsys):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    code, out, err = cli(capsys, "review", str(fifo))
    assert (
        code == 2
        and err
        == f"sm358 review: error: {fifo}: not a regular file (a hand file or a JSON match record is)\n"
    )
    code, out, err = cli(capsys, "review", str(tmp_path / "absent.txt"))
    assert code == 2 and "no such file" in err


HAND = (REPO / "examples" / "hand-twelve.txt").read_text(encoding="utf-8")


def _hand():
    return solver.load_hand(HAND)


def _view():
    return solver.View.from_hand_record(_hand(), 15)


def _no_args():
    return None


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: solver.dd_table(SMALL, strains="S", threads=1, progress=_no_args), "two arguments"),  # type: ignore[arg-type]
        (lambda: solver.declare(SMALL, strains="S", progress=lambda done: None), "two arguments"),  # type: ignore[arg-type, misc]
        (lambda: solver.review(_hand(), declaration=False, threads=1, progress=_no_args), "two arguments"),  # type: ignore[arg-type]
        (lambda: solver.advise_play(_view(), samples=2, progress=_no_args), "two arguments"),  # type: ignore[arg-type]
        (lambda: _hand().position("3"), "trick must be a whole number"),
        (lambda: _hand().position(2, 1.0), "played must be a whole number"),
        (lambda: hand_from_record(records.load(REPO / "examples" / "match-twelve.json"), "1"), "hand number"),  # type: ignore[arg-type]
        (lambda: hand_from_record({"hands": [{}]}, 1), "not a valid match record"),
        (lambda: hand_from_record([1], 1), "a loaded match record"),  # type: ignore[arg-type]
        (lambda: solver.View.from_hand_record(HAND, 15), "needs a HandRecord"),
        (lambda: save_hand(HAND, "x.txt"), "writes a HandRecord"),  # type: ignore[arg-type]
        (lambda: save_hand(_hand(), 3), "saved to a file name"),  # type: ignore[arg-type]
        (lambda: get_ruleset("twelve", name="a\x1b[5mb"), "control character"),
        (lambda: solver.advise_play(_view(), samples=2, chunk="8"), "chunk must be a whole number"),  # type: ignore[arg-type]
        (lambda: solver.get_player("random", 0, name="x" * 101), "at most 100 characters"),
        (lambda: get_ruleset("twelve", name="a\u202eb"), "control character"),
    ],
)
def test_public_arguments_of_the_wrong_type_give_a_solver_error(call, message):
    with pytest.raises(solver.SolverError, match=message):
        call()


def test_progress_takes_any_function_of_two_arguments():
    seen: list[object] = []
    solver.dd_table(SMALL, strains="S", threads=1, progress=lambda *args: seen.append(args))

    def with_an_optional_third(done: int, total: int, extra: int = 0) -> None:
        seen.append(done)

    solver.dd_table(SMALL, strains="S", threads=1, progress=with_an_optional_third)
    assert seen


def test_save_record_refuses_what_load_record_refuses(record, tmp_path):
    path = tmp_path / "r.json"
    bad = copy.deepcopy(record)
    bad["hands"][0]["play"] = bad["hands"][0]["play"][::-1]
    with pytest.raises(RecordError, match="not saved, as it would not load"):
        solver.save_record(bad, path)
    assert not path.exists() and os.listdir(tmp_path) == []
    named = copy.deepcopy(record)
    named["rules"]["options"] = {**named["rules"].get("options", {}), "name": "x\x1by"}
    with pytest.raises(RecordError, match="control character"):
        solver.save_record(named, path)
    solver.save_record(record, path)
    assert solver.load_record(path) == solver.load_record(path) and path.exists()
    with pytest.raises(RecordError, match="check must be True or False"):
        solver.save_record(record, path, check="no")  # type: ignore[arg-type]


@pytest.mark.parametrize("known", [-2, 3])
def test_the_c_core_refuses_a_known_value_out_of_range(known):
    with pytest.raises(ValueError, match="known value out of range"):
        _core.Engine(1 << 20).card_values(0, 0, False, False, 1, 2, 4, 0, (), known)
