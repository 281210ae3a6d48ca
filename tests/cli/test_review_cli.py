"""``sm358 review`` and ``sm358 replay --as-hand-file``: outputs, files, errors, Ctrl-C, and
the HTML report rendered in a real (headless) Chromium."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import main
from solver.game import records
from solver.game.handfile import hand_from_record, load_hand
from solver.game.match import Match
from solver.game.rules import get_ruleset
from solver.players import get_player

REPO = Path(__file__).resolve().parents[2]
# examples/endgame-5.txt with the planted spade-eight lead (costs 3 tricks: SQ takes 4, S8 one)
PLANTED = """[Rules "twelve"]
[Contract "S"]
[Deal "D:Q8.JT8.. T...JT98 .K9.A.AQ"]
[Leader "D"]
S8 ST H9
"""


@pytest.fixture()
def planted(tmp_path) -> Path:
    path = tmp_path / "planted.txt"
    path.write_text(PLANTED)
    return path


def saved_match(tmp_path_factory, hands: int) -> Path:
    """A seeded ``twelve`` match of ``hands`` hands, saved as a record."""
    options = {"hands_limit": hands, "win_tricks": 16}
    players = [get_player(k, f"9:{i}") for i, k in enumerate(("heuristic", "random", "heuristic"))]
    rec = Match(get_ruleset("twelve", **options), players, 9, preset="twelve", options=options).play()
    path = tmp_path_factory.mktemp("m") / "match.json"
    records.save(rec, path)
    return path


@pytest.fixture(scope="module")
def match_file(tmp_path_factory) -> Path:
    return saved_match(tmp_path_factory, 2)


def test_human_output_marks_the_mistake(capsys, planted):
    assert main(["review", str(planted)]) == 0
    out = capsys.readouterr().out
    assert "♠8" in out and "costs 3: better ♠Q" in out and "✗D ♠8" in out
    assert "Declaration: not judged" in out and "opening" in out


def test_json_schema(capsys, planted):
    assert main(["review", str(planted), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    hand = data["hands"][0]
    assert hand["cards"][0] == {
        "trick": 1,
        "seat": "D",
        "card": "S8",
        "before": 4,
        "after": 1,
        "cost": 3,
        "best": ["SQ"],
    }
    assert hand["seats"]["D"]["lost"] == 3 and data["players"] == {}
    assert set(hand["seats"]["E"]) == {"opening", "taken", "mistakes", "lost", "gained", "target", "net"}
    # an ending: no target (its earlier tricks are unknown)
    assert hand["seats"]["E"]["target"] is None and hand["seats"]["E"]["net"] is None


def test_match_review_and_plot_files(capsys, match_file, tmp_path):
    png = tmp_path / "v.png"
    assert main(["review", str(match_file), "--json", "--no-declaration", "--plot", str(png)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [h["hand"] for h in data["hands"]] == [1, 2] and len(data["players"]) == 3
    for n in (1, 2):
        assert (tmp_path / f"v-h{n}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["review", str(match_file), "--hand", "2", "--no-declaration", "--plot", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_plot_function_returns_its_axes(planted):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import solver
    from solver.plots import review_trajectory

    r = solver.review(planted)
    fig, ax = plt.subplots()
    assert review_trajectory(r, hand=1, ax=ax) is ax
    d_line = ax.get_lines()[0]
    assert list(d_line.get_ydata())[:2] == [4, 1]
    plt.close(fig)


def test_replay_as_hand_file_round_trips(capsys, match_file):
    assert main(["replay", str(match_file), "--hand", "2", "--as-hand-file"]) == 0
    text = capsys.readouterr().out
    assert load_hand(text) == hand_from_record(records.load(match_file), 2)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["review", "no-such-file.txt"], "no-such-file.txt: no such file"),
        (["replay", "{match}", "--as-hand-file"], "--as-hand-file needs --hand N"),
        (["review", "{match}", "--hand", "7"], "hand 7: the record has hands 1..2"),
        (["review", "{bad}"], r"line 5 (trick 1): card SA is not in D's hand"),
    ],
)
def test_errors_are_one_line_exit_2(capsys, match_file, tmp_path, argv, message):
    bad = tmp_path / "bad.txt"
    bad.write_text(PLANTED.replace("S8 ST H9", "SA ST H9"))
    argv = [a.format(match=match_file, bad=bad) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


@pytest.fixture(scope="module")
def long_match_file(tmp_path_factory) -> Path:
    """A match whose review (declarations judged) runs far longer than the 1.5 s before Ctrl-C."""
    return saved_match(tmp_path_factory, 9)


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
def test_ctrl_c_stops_cleanly(long_match_file):
    code = (
        "import sys; from cli.main import entry; print('started', flush=True); "
        f"sys.argv[1:] = ['review', {str(long_match_file)!r}]; entry()"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "started"
        import time

        time.sleep(1.5)
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=60)  # a hang guard
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    [line] = err.strip().splitlines()
    assert re.fullmatch(r"sm358 review: interrupted; \d of 9 hand\(s\) valued card by card(; .*)?", line), (
        line
    )
    if not line.startswith("sm358 review: interrupted; 0 "):
        assert _out.startswith("PARTIAL: interrupted")


def test_ctrl_c_prints_what_was_proven_and_writes_no_file(monkeypatch, match_file, tmp_path, capsys):
    """A Ctrl-C while the declarations are judged: the values of every hand are printed,
    with what is proven of each declaration; the files asked for are not written."""
    import solver.analysis.review as rv
    from solver.declare.optimiser import DeclarationInterrupted

    def interrupted(rec, narrowing=None):
        raise DeclarationInterrupted(0, 40, None, None, misere=False)

    monkeypatch.setattr(rv, "best_declaration", interrupted)
    page = tmp_path / "r.html"
    assert main(["review", str(match_file), "--workers", "1", "--html", str(page)]) == 130
    out, err = capsys.readouterr()
    assert out.startswith("PARTIAL: interrupted") and "Declaration: interrupted" in out
    assert err.strip() == (
        "sm358 review: interrupted; 2 of 2 hand(s) valued card by card; some best cards not found; "
        f"the declarations of hands 1, 2 as far as proven; {page} not written"
    )
    assert not page.exists()
    assert main(["review", str(match_file), "--workers", "1", "--json"]) == 130
    data = json.loads(capsys.readouterr().out)
    assert data["partial"] is True and len(data["hands"]) == 2
    assert all(h["declaration"]["proven"][1] == 16 for h in data["hands"])


def find_browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def test_html_report_renders_in_headless_chromium(tmp_path, planted):
    browser = find_browser()
    if browser is None:
        pytest.skip("no Chromium found (Debian: apt-get install chromium; .ci/run installs it)")
    page = tmp_path / "report.html"
    assert main(["review", str(planted), "--html", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text and "<script" not in text  # self-contained
    base = [browser, "--headless", "--disable-gpu", "--no-sandbox", f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(base + ["--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    html = dom.stdout
    assert "Hand 1 (twelve)" in html and "♠" in html
    assert 'class="mistake"' in html and "costs 3" in html and "better" in html
    assert "data:image/png;base64," in html and "opening value − lost + gained = taken" in html
    shot = tmp_path / "shot.png"
    run = subprocess.run(
        base + [f"--screenshot={shot}", "--window-size=1000,1400", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0 and shot.exists(), run.stderr[-2000:]
    from matplotlib.image import imread

    pixels = imread(str(shot))
    # the page is drawn: a red highlight cell and dark text, not a blank white screenshot
    assert (pixels[..., :3].min(axis=2) < 0.3).mean() > 0.005
    reddish = (
        (pixels[..., 0] > 0.9) & (pixels[..., 1] < 0.92) & (pixels[..., 1] > 0.8) & (pixels[..., 2] < 0.92)
    )
    assert reddish.sum() > 200


def test_every_seat_target_tricks_and_net_in_text_json_html_and_plot(capsys, tmp_path):
    """The example hand: D takes 7 of 8 (-1), E 3 of 5 (-2), M 6 of 3 (+3)."""
    example = str(REPO / "examples" / "hand-twelve.txt")
    page = tmp_path / "r.html"
    assert main(["review", example, "--no-declaration", "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "Result: D 7/8 -1, E 3/5 -2, M 6/3 +3" in out
    assert main(["review", example, "--no-declaration", "--json"]) == 0
    seats = json.loads(capsys.readouterr().out)["hands"][0]["seats"]
    assert {s: (v["taken"], v["target"], v["net"]) for s, v in seats.items()} == {
        "D": (7, 8, -1),
        "E": (3, 5, -2),
        "M": (6, 3, 3),
    }
    text = page.read_text()
    assert "D 7/8 -1, E 3/5 -2, M 6/3 +3" in text and "<th>target</th><th>net</th>" in text

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import solver
    from solver.plots import review_trajectory

    fig, ax = plt.subplots()
    review_trajectory(solver.review(example, declaration=False), ax=ax)
    legend = ax.get_legend()
    assert legend is not None
    labels = [t.get_text() for t in legend.get_texts()]
    assert labels[:3] == ["D: 7/8 -1", "E: 3/5 -2", "M: 6/3 +3"]
    plt.close(fig)


def test_misere_target_is_a_maximum():
    from solver.analysis.review import SeatSummary
    from solver.analysis.review_text import seat_result

    assert seat_result("D", SeatSummary(1, 2, 0, 0, 0, target=3, net=1), misere=True) == "D 2/max 3 +1"
    assert seat_result("E", SeatSummary(5, 5, 0, 0, 0, target=5, net=0)) == "E 5/5 made"
    assert seat_result("M", SeatSummary(2, 2, 0, 0, 0)) == "M 2 tricks"  # an ending


def test_match_report_opens_with_a_summary(capsys, match_file, tmp_path):
    record = records.load(match_file)
    result = record["result"]
    assert result is not None
    page = tmp_path / "m.html"
    assert main(["review", str(match_file), "--no-declaration", "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Match (twelve")
    assert main(["review", str(match_file), "--no-declaration", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    names = data["match"]["players"]  # duplicate names get their index
    head = out.split("Hand 1")[0]
    scores = ", ".join(f"{n} {t:+d}" for n, t in zip(names, result["totals"]))
    assert f"Score: {scores}" in head and "declared" in head and "made" in head
    assert data["match"]["totals"] == result["totals"] and data["match"]["hands"] == len(record["hands"])
    # the nets summed per player agree with the record's own score
    assert [data["players"][n]["net"] for n in data["match"]["players"]] == result["totals"]
    text = page.read_text()
    assert text.index("Match summary") < text.index("Hand 1")
    # one hand of a match is not the match
    assert main(["review", str(match_file), "--hand", "1", "--no-declaration", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["match"] is None


def test_match_summary_escapes_player_names():
    from solver.analysis.review import MatchSummary, Review
    from solver.analysis.review_html import match_summary
    from solver.analysis.review_text import match_lines

    names = ("<script>x</script>", "[bold]bob[/bold]", "cy")
    m = MatchSummary("twelve", names, 2, names[0], "the limit of 2 hands", (3, -1, -2))
    page = match_summary(Review((), {}, m))
    assert "<script>" not in page and "&lt;script&gt;" in page
    text = "\n".join(match_lines(m, {}, markup=True))
    assert "\\[bold]bob" in text and "Score: <script>x</script> +3" in text
