"""``sm358 advise``: JSON equals the library's advice, a plot, Ctrl-C partial, clean errors."""

from __future__ import annotations

import json

import pytest

from cli.main import main
from solver import Deal, Mode, Seat, View, advise_declaration, advise_play
from solver.analysis import advice as advice_module
from solver.engine.pool import map_tasks

DEAL = Deal.random(4)
HAND = str(DEAL.hands[Seat.D])
WIDOW = str(DEAL.widow)
ARGS = ["advise", "--hand", HAND, "--widow", WIDOW, "--samples", "6", "--seed", "2", "--workers", "1"]


def test_json_is_the_library_advice(capsys):
    assert main(ARGS + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    view = View.for_declaration(HAND, widow=WIDOW, rules="twelve")
    assert data == advise_declaration(view, samples=6, seed=2, workers=1).to_dict()
    assert {"seat", "rules", "target", "samples", "seed", "candidates", "recommended", "rounds"} <= set(data)
    assert (data["seat"], data["rules"], data["target"]) == ("D", "twelve", 8)
    c = data["candidates"][0]
    assert {"strain", "discard", "samples", "p_target", "p_ci", "mean_tricks", "mean_ci"} <= set(c)


def test_human_output_recommendation_first_and_plot(tmp_path, capsys):
    out_png = tmp_path / "advice.png"
    assert (
        main(
            ARGS
            + [
                "--plot",
                str(out_png),
                "--strain",
                "S",
                "--discard",
                " ".join(str(c) for c in list(DEAL.hands[Seat.D])[:4]),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("Name ") and "P(target)" in out and "successive halving" in out
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_play_advice_from_the_command_line(capsys):
    start = DEAL.hands[Seat.D] | DEAL.widow
    discard = sorted(start)[:4]
    hand = start - __import__("solver").Hand(discard)
    lead = sorted(DEAL.hands[Seat.E])[0]
    args = [
        "advise",
        "--hand",
        str(hand),
        "--seat",
        "M",
        "--mode",
        "H",
        "--played",
        str(lead),
        "--samples",
        "4",
        "--workers",
        "1",
        "--json",
    ]
    # M's view needs M's own hand: use M's cards, E led one of E's.
    args[2] = str(DEAL.hands[Seat.M])
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    view = View.for_play(DEAL.hands[Seat.M], mode="H", seat="M", played=[lead])
    assert data == advise_play(view, samples=4, seed=0, workers=1).to_dict()
    assert data["position"]["trick"] == 1 and all("card" in c for c in data["candidates"])


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--samples", "0"], "--samples"),
        (["--strain", "X", "--discard", "S2 S3 S4 S5"], "unknown strain"),
        (["--discard", "S2"], "--discard needs --strain"),
        (["--length", "E:S=0-0", "--length", "E:H=0-0", "--length", "E:D=0-0"], "no layout"),
        (["--holds", "E"], "SEAT:CARDS"),
        (["--at", "3.1"], "--at needs a hand FILE"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(extra, message, capsys):
    assert main(ARGS + extra) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_ctrl_c_prints_partial_estimates_and_exits_130(monkeypatch, capsys):
    real = map_tasks  # what advice_module.map_tasks is until patched below
    calls = {"n": 0}

    def interrupt_later(fn, tasks, **kw):
        calls["n"] += 1
        if calls["n"] >= 2 and len(tasks) > 2:  # a later round of successive halving is interrupted

            def stop(done, total):
                if done >= 2:
                    raise KeyboardInterrupt

            kw["progress"] = stop
        return real(fn, tasks, **kw)

    monkeypatch.setattr(advice_module, "map_tasks", interrupt_later)
    assert main(ARGS + ["--samples", "40", "--json"]) == 130
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["partial"] is True
    assert "interrupted" in captured.err


def test_play_advice_from_a_hand_file(capsys):
    from solver.game.handfile import load_hand

    assert (
        main(
            [
                "advise",
                "examples/hand-twelve.txt",
                "--at",
                "5.2",
                "--samples",
                "8",
                "--workers",
                "1",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    view = View.from_hand_record(load_hand("examples/hand-twelve.txt"), 5, 2)
    assert view.seat == Seat.E and data["seat"] == "E"
    assert data == advise_play(view, samples=8, seed=0, workers=1).to_dict()
    assert data["position"]["trick"] == 5 and len(data["position"]["played"]) == 13


@pytest.mark.parametrize("at,message", [("5.4", "K in 1..3"), ("x", "expected T.K"), ("99.1", "no position")])
def test_bad_points_of_a_hand_file(at, message, capsys):
    assert main(["advise", "examples/hand-twelve.txt", "--at", at]) == 2
    assert message in capsys.readouterr().err


TRICK5 = [
    "advise",
    "--hand",
    "K9.A982.QJ732.J9652",
    "--seat",
    "E",
    "--mode",
    "S",
    "--played",
    "HA H4 H3 D2 DA D4 DK D6 D3 CA S2 C2 SA",
    "--samples",
    "4",
    "--workers",
    "1",
]


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--holds", "D:CK"], "D cannot hold CK: D showed out of C"),  # D did not follow clubs at trick 4
        (["--length", "D:C=1-3"], "D cannot hold 1-3 C"),  # not silently overridden by the void
        (["--holds", "M:SA"], "M cannot hold SA: already played"),
        (["--length", "E:S=3-4"], "E holds 2 S, not 3-4"),  # the asking seat's own hand
    ],
)
def test_what_the_play_contradicts_is_refused(extra, message, capsys):
    assert main(TRICK5 + extra) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_length_the_void_narrows_is_kept(capsys):
    """D played a club before showing out: 1-3 clubs in all means none left, which the
    void agrees with; the advice goes ahead."""
    played = "HA H4 H3 C2 CA C3 CK S2 C5 SA S9 S3 DA"
    assert main(TRICK5[:8] + [played] + TRICK5[9:] + ["--length", "D:C=1-3"]) == 0


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--length", "E:S=10-13", "--length", "M:S=10-13"], "S"),
        (["--holds", "D:SA"], "cannot hold"),
    ],
)
def test_a_hand_file_takes_holds_and_length(extra, message, capsys):
    args = ["advise", "examples/hand-twelve.txt", "--at", "5.2", "--samples", "4", "--workers", "1"]
    assert main(args + extra) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_hand_file_honours_holds(capsys):
    from solver.game.handfile import load_hand

    rec = load_hand("examples/hand-twelve.txt")
    pos = rec.position(5, 1)
    card = sorted(pos.deal.hands[Seat.M], key=lambda c: c.bit)[0]
    args = ["advise", "examples/hand-twelve.txt", "--at", "5.2", "--samples", "4", "--workers", "1", "--json"]
    assert main(args + ["--holds", f"M:{card}"]) == 0
    data = json.loads(capsys.readouterr().out)
    view = View.from_hand_record(rec, 5, 2, held={"M": str(card)})
    assert data == advise_play(view, samples=4, seed=0, workers=1).to_dict()


def test_a_hand_of_a_match_record(tmp_path, capsys):
    """``simulate --out`` records are cut with --hand-number N --at T.K: hand 2 of match 1 of
    ``--rules twelve --players heuristic x3 --seed 11`` exited 2 before ('a bin has a
    negative size': D discarded a card M had given it)."""
    out = tmp_path / "sim"
    assert (
        main(
            ["simulate", "--rules", "twelve", "--players", "heuristic,heuristic,heuristic"]
            + ["--matches", "1", "--seed", "11", "--out", str(out)]
        )
        == 0
    )
    capsys.readouterr()
    record = str(out / "match-1.json")
    args = ["advise", record, "--at", "16.2", "--samples", "4", "--workers", "1"]
    assert main(args + ["--hand-number", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["position"]["trick"] == 16
    assert main(args) == 2
    assert "--hand-number N" in capsys.readouterr().err
    assert main(["review", record, "--single-dummy", "--hand", "2", "--samples", "1", "--threads", "1"]) == 0
    assert main(["review", record, "--single-dummy", "--samples", "1"]) == 2
    assert "--hand N" in capsys.readouterr().err


def _advice_with_misere_rows():
    """A hand-made declaration advice: a trump row (8 or more) and a misère row (at most 3)."""
    from solver.analysis.advice import Advice, Candidate

    heart = Candidate(Mode.H, ("S8", "S4", "D6", "C2"), 8, False)
    miz = Candidate(Mode.miz, ("SA", "HA", "D2", "C2"), 3, True)
    for i in range(10):
        heart.record(i, 9 if i else 7, heart.level_of(9 if i else 7))
        miz.record(i, 2 if i < 4 else 5, miz.level_of(2 if i < 4 else 5))
    return Advice(
        "declaration",
        "D",
        "miz",
        8,
        10,
        0,
        "mode and discard",
        [heart, miz],
        [(2, 10)],
        position={"hand": "AKQ84.AKQJ9.A6.AK92", "widow": ".32.3.4"},
    )


def test_advice_opens_with_a_sentence_and_misere_rows_say_at_most(capsys):
    from cli.commands.advise import show

    show(_advice_with_misere_rows(), top=10)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("Name ♥ and discard ♠8 ♠4 ♦6 ♣2: makes 8 tricks in 90% of layouts (")
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    miz_row = next(line for line in lines if line.startswith("misère"))
    assert "max 3" in miz_row and "40%" in miz_row  # 4 of 10 layouts at most 3 tricks
    heart_row = next(line for line in lines if line.startswith("♥"))
    assert "8+" in heart_row and "90%" in heart_row
    assert out.count("P(target):") == 1  # what it means, said once


def test_play_advice_opens_with_the_card_to_play(capsys):
    args = ["advise", "examples/hand-twelve.txt", "--at", "5.2", "--samples", "4", "--workers", "1"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("Play ") and "tricks in" in out.splitlines()[0] + out.splitlines()[1]
    assert all(len(line) <= 80 for line in out.splitlines())


def test_help_prints_percent_signs_once(capsys):
    with pytest.raises(SystemExit):
        main(["advise", "--help"])
    out = capsys.readouterr().out
    assert "95% intervals" in out and "%%" not in out


def test_modes_used_leaves_out_the_declarers_used_modes(capsys):
    args = ["advise", "--hand", "S2 S3 S5 S7 H4 H5", "--rules", "hungarian", "--samples", "2"]
    assert main(args + ["--workers", "1", "--modes-used", "S,MT,h", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sorted({c["strain"] for c in data["candidates"]}) == ["C", "D", "N"]


@pytest.mark.parametrize(
    "rules,used,message",
    [
        ("twelve", "S", "every mode stays allowed"),
        ("hungarian", "S H D C N MT", "nothing is left"),
        ("hungarian", "S S", "twice"),
        ("hungarian", "X", "unknown mode"),
    ],
)
def test_modes_used_errors_are_one_line(rules, used, message, capsys):
    args = ["advise", "--hand", HAND if rules == "twelve" else "S2 S3 S5 S7 H4 H5", "--rules", rules]
    if rules == "twelve":
        args += ["--widow", WIDOW]
    assert main(args + ["--modes-used", used]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_python_forms_say_the_same_as_the_command():
    advice = _advice_with_misere_rows()
    text = str(advice).splitlines()
    assert text[0].startswith("Name ♥ and discard ♠8 ♠4 ♦6 ♣2: makes 8 tricks in 90%")
    assert "target max 3" in next(line for line in text if "miz discard" in line)
    page = advice._repr_html_()
    assert "<td>max 3</td>" in page and "<td>8+</td>" in page and "makes 8 tricks" in page
