"""Text from a file or a user is shown as text: in the terminal (controls and rich markup),
in JSON output (bidi controls as ``\\u`` escapes) and in matplotlib (never mathtext).

Each test writes a hand file or a record holding hostile names and runs the command that
shows them (docs/robustness.md, "Text from files is shown as text").
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import matplotlib
import pytest

import solver
from cli.main import main
from solver.analysis.review import review
from solver.game import records
from solver.game.handfile import hand_from_record, load_hand

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples" / "hand-twelve.txt").read_text(encoding="utf-8")
MATH = ["$\\undefinedmacro$", "$" + "\\sqrt{" * 50 + "x" + "}" * 50 + "$", "a$b", "\\$"]
MARKUP = "[blink]ev[/blink][link=http://example.invalid]il[/link]"
CONTROLS = "x\x1b]8;;http://example.invalid\x07y\x1b[5m\u202ez"


def hand_file(tmp_path: Path, players: tuple[str, str, str], rules_name: str | None = None) -> Path:
    tags = f'[Players "{", ".join(json.dumps(p) for p in players)}"]'
    if rules_name is not None:
        tags += f'\n[Options "{json.dumps({"name": rules_name}, ensure_ascii=False)}"]'
    path = tmp_path / "hand.txt"
    path.write_text(EXAMPLE.replace('[Rules "twelve"]', '[Rules "twelve"]\n' + tags), encoding="utf-8")
    return path


def record_with(tmp_path: Path, players: list[str]) -> Path:
    rec = copy.deepcopy(records.load(ROOT / "examples" / "match-twelve.json"))
    rec["players"] = players
    path = tmp_path / "match.json"
    records.save(rec, path)
    return path


# --- matplotlib ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", MATH[:2])
def test_a_name_is_never_drawn_as_mathtext(tmp_path, name):
    path = hand_file(tmp_path, (name, "E", "M"))
    players = load_hand(path).players
    assert players is not None and players[0] == name
    assert main(["review", str(path), "--no-declaration", "--plot", str(tmp_path / "r.png")]) == 0
    assert main(["review", str(path), "--no-declaration", "--html", str(tmp_path / "r.html")]) == 0
    assert (tmp_path / "r.png").stat().st_size > 1000


def test_the_drawn_text_is_the_name_itself():
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    from solver.plots.review import review_trajectory

    rec = load_hand(EXAMPLE)
    import dataclasses

    hand = review(dataclasses.replace(rec, players=(MATH[0], "a$b$c", "E")), declaration=False, threads=1)
    fig = Figure()
    ax = review_trajectory(hand, ax=fig.add_subplot())
    fig.canvas.draw()
    shown = [t for t in ax.get_legend().get_texts() if isinstance(t, Text)]
    # a private matplotlib method (absent from its stubs): what decides whether text is mathtext
    drawn = [t._preprocess_math(t.get_text()) for t in shown]  # type: ignore[attr-defined]
    assert all(not math for _, math in drawn)
    assert any(text.startswith("D " + MATH[0]) for text, _ in drawn)
    assert any(text.startswith("E a$b$c") for text, _ in drawn)


def test_plot_labels_from_the_user_are_plain(tmp_path):
    import pandas as pd
    from matplotlib.figure import Figure

    from solver.plots import plot_advice, plot_study

    frame = pd.DataFrame({MATH[1]: [1, 2, 2, 3], MATH[0]: [1, 1, 2, 2]})
    fig = Figure()
    plot_study(frame, [MATH[1], MATH[0]], ax=fig.add_subplot())
    fig.savefig(io.BytesIO(), format="png")
    view = solver.View.from_hand_record(
        load_hand(hand_file(tmp_path, ("D", "E", "M"), rules_name=MATH[0])), 15
    )
    fig = Figure()
    plot_advice(solver.advise_play(view, samples=2), ax=fig.add_subplot())
    fig.savefig(io.BytesIO(), format="png")


# --- the terminal --------------------------------------------------------------------------
def test_a_ruleset_name_from_a_hand_file_is_not_rich_markup(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")  # a terminal: rich would render markup
    monkeypatch.setenv("COLUMNS", "200")
    path = hand_file(tmp_path, ("D", "E", "M"), rules_name=MARKUP)
    for argv in (
        ["review", str(path), "--no-declaration"],
        ["review", str(path), "--single-dummy", "--samples", "2"],
        ["advise", str(path), "--at", "15.1", "--samples", "2"],
    ):
        assert main(argv) == 0, argv
        out = capsys.readouterr().out
        assert MARKUP in out, argv
        assert "\x1b[5m" not in out and "\x1b]8;" not in out, argv


@pytest.mark.parametrize(
    "argv",
    [
        ["rules", "twelve", "--option", "name=" + CONTROLS],
        ["advise", "{hand}", "--at", "15.1", "--samples", "2"],
        ["review", "{hand}", "--single-dummy", "--samples", "2"],
    ],
)
def test_control_characters_in_a_ruleset_name_are_refused_in_one_escaped_line(tmp_path, capsys, argv):
    path = hand_file(tmp_path, ("D", "E", "M"), rules_name=CONTROLS)
    assert main([a.replace("{hand}", str(path)) for a in argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert "control character" in captured.err
    assert not any(ch in captured.err for ch in "\x1b\x07\u202e")


def test_replay_as_a_hand_file_escapes_names_and_round_trips(tmp_path, capsys):
    names = ["Smith, J.", "two\nlines", CONTROLS]
    path = record_with(tmp_path, names)
    assert main(["replay", str(path), "--hand", "2", "--as-hand-file"]) == 0
    out = capsys.readouterr().out
    assert not any(ch in out for ch in "\x1b\x07\u202e")
    rec = records.load(path)
    again = load_hand(out)
    assert again == hand_from_record(rec, 2)
    assert again.players is not None
    assert sorted(again.players) == sorted(names)


def test_review_json_writes_bidi_and_controls_as_escapes(tmp_path, capsys):
    path = hand_file(tmp_path, ("a\u202eb", "c\u2066d", "e\x85f"))
    assert main(["review", str(path), "--no-declaration", "--json"]) == 0
    out = capsys.readouterr().out
    assert not any(ch in out for ch in "\u202e\u2066\x85")
    assert "a\\u202eb" in out
    assert list(json.loads(out)["hands"][0]["players"].values()) == ["a\u202eb", "c\u2066d", "e\x85f"]


def test_review_text_escapes_controls_in_names(tmp_path, capsys):
    path = record_with(tmp_path, [CONTROLS, "b", "c"])
    assert main(["review", str(path), "--hand", "1", "--no-declaration"]) == 0
    out = capsys.readouterr().out
    assert not any(ch in out for ch in "\x1b\x07\u202e")
    assert "x\\x1b]8;;" in out


def test_terminal_safe_is_the_one_helper():
    from cli import common
    from solver import inputs

    assert common.terminal_safe is inputs.terminal_safe
    assert inputs.terminal_safe("[b]x\x07", markup=True) == "\\[b]x\\x07"
    assert solver.get_ruleset("twelve", name="[b]ok").name == "[b]ok"  # markup is text, not refused
