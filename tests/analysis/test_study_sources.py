"""Studies over given deals (--deals-from) and deals to a spec (--deal-spec): rows keyed by
index, resumable to the same file, inputs checked and named."""

from __future__ import annotations

import json
import shutil

import pytest

from cli.main import main
from solver.analysis import study as study_mod
from solver.analysis.deal_files import DealFileError, read_deals
from solver.analysis.study import StudyError, StudySpec, load_study, parts_dir, run_study, study
from solver.analysis.study_sources import given_study
from solver.deal import Deal
from solver.game.dealer import deal_matching
from solver.game.dealspec import DealSpecError, high_card_points

EXAMPLES = __import__("pathlib").Path(__file__).resolve().parents[2] / "examples"
SPEC_TEXT = "length D:S=6+; points D:14+"


@pytest.fixture
def notation_file(tmp_path):
    deals = deal_matching("length E:H=5+", count=3, seed=9)
    path = tmp_path / "deals.txt"
    path.write_text("# three deals\n" + "\n".join(d.to_string() for d in deals) + "\n\n")
    return path, deals


def test_read_notation_lines_hand_files_and_columns(tmp_path, notation_file):
    path, deals = notation_file
    assert read_deals(path) == deals
    hand = read_deals(EXAMPLES / "hand-twelve.txt")
    assert len(hand) == 1 and hand[0].hand_size == 16 and len(hand[0].widow) == 4
    out = tmp_path / "s.csv"
    frame = study(out, 2, deals_from=[EXAMPLES / "hand-twelve.txt", path], what="table", workers=1, chunk=1)
    assert list(frame["deal"]) == [d.to_string() for d in hand + deals[:1]]
    assert read_deals(out) == hand + deals[:1]  # a study's own column feeds another study


def test_given_deals_study_resumes_to_the_same_file(tmp_path, monkeypatch, notation_file):
    path, _ = notation_file
    spec, given = given_study([path], what=("table",), chunk=1)
    reference = tmp_path / "ref.parquet"
    run_study(reference, spec, workers=1, deals=given)
    out = tmp_path / "s.parquet"
    real = study_mod.study_chunk
    calls: list[int] = []
    stop = [True]

    def stops_at_the_second(task):
        calls.append(task[1])
        if len(calls) == 2 and stop[0]:
            stop[0] = False
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(study_mod, "study_chunk", stops_at_the_second)
    with pytest.raises(KeyboardInterrupt):
        run_study(out, spec, workers=1, deals=given)
    calls.clear()
    again, given_again = given_study([path], what=("table",), chunk=1)
    assert again == spec
    result = run_study(out, again, workers=1, deals=given_again)
    assert calls == [1, 2] and result.resumed == 1
    assert out.read_bytes() == reference.read_bytes()


def test_a_changed_deals_file_is_refused_on_resume(tmp_path, notation_file):
    path, deals = notation_file
    spec, given = given_study([path], what=("table",), chunk=1)
    out = tmp_path / "s.parquet"
    parts_dir(out).mkdir()
    (parts_dir(out) / "spec.json").write_text(json.dumps(spec.to_json()))
    path.write_text("\n".join(d.to_string() for d in reversed(deals)))
    spec2, given2 = given_study([path], what=("table",), chunk=1)
    with pytest.raises(StudyError, match="parts of another study"):
        run_study(out, spec2, workers=1, deals=given2)
    with pytest.raises(StudyError, match="not the 3 deals"):
        run_study(tmp_path / "t.parquet", spec, workers=1, deals=given2)


def test_deal_spec_study_deals_to_the_spec_and_resumes(tmp_path):
    spec = StudySpec(2, "5", "twelve", ("table",), 1, deal_spec="points D:14+;length D:S=6+")
    assert spec.deal_spec == "length D:S=6+; points D:14+"  # canonical, so a resume matches
    out = tmp_path / "s.csv"
    frame = load_study(run_study(out, spec, workers=1).out)
    for text in frame["deal"]:
        deal = Deal.parse(text)
        assert len(deal["D"].cards_in(0)) >= 6 and high_card_points(deal["D"]) >= 14
    assert list(frame["len_D_S"] >= 6) == [True, True]
    out2 = tmp_path / "again.csv"
    run_study(out2, StudySpec(2, "5", "twelve", ("table",), 1, deal_spec=SPEC_TEXT), workers=1)
    assert out2.read_bytes() == out.read_bytes()
    plain = StudySpec(2, "5", "twelve", ("table",), 1)
    assert "deal_spec" not in plain.to_json() and "deal_spec" in spec.to_json()


def test_impossible_spec_fails_before_any_work(tmp_path):
    with pytest.raises(DealSpecError, match="points D:41"):
        StudySpec(2, "5", deal_spec="points D:41+")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("D:AK... Q2... 3.A.. \n", "line 1: hands of 2 cards and a widow of 0; twelve deals 16 and 4"),
        ("# fine\nnot a deal\n", "line 2:"),
        ("", "holds no deal"),
    ],
)
def test_bad_deal_files_are_named(tmp_path, content, message):
    path = tmp_path / "d.txt"
    path.write_text(content)
    with pytest.raises((DealFileError, StudyError), match=message):
        given_study([path])


def test_parquet_column_and_missing_column(tmp_path, notation_file):
    path, deals = notation_file
    pd = pytest.importorskip("pandas")
    pq = tmp_path / "d.parquet"
    pd.DataFrame({"hands": [d.to_string() for d in deals]}).to_parquet(pq)
    assert read_deals(pq, column="hands") == deals
    with pytest.raises(DealFileError, match="no column 'deal' \\(columns: hands\\)"):
        read_deals(pq)


def test_cli_study_over_a_spec_and_files(tmp_path, capsys, notation_file):
    path, _ = notation_file
    spec_file = tmp_path / "spec.txt"
    spec_file.write_text(SPEC_TEXT.replace("; ", "\n"))
    out = tmp_path / "a.csv"
    argv = ["study", "--deals", "1", "--deal-spec", str(spec_file), "--what", "table", "--workers", "1"]
    assert main([*argv, "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["deal_spec"] == SPEC_TEXT and report["computed"] == 1
    out2 = tmp_path / "b.csv"
    argv2 = ["study", "--deals-from", str(path), "--deals", "2", "--what", "table", "--workers", "1"]
    assert main([*argv2, "--out", str(out2)]) == 0
    assert len(load_study(out2)) == 2
    shutil.rmtree(tmp_path / "b.csv.parts", ignore_errors=True)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--deal-spec", "points D:12+; colour E:red"], "unknown clause 'colour'"),
        (["--deal-spec", "points D:45+"], "points D:45+"),
        (["--deals-from", "/nonexistent/deals.txt"], "deals.txt"),
        (["--deals-from", "{deals}", "--deal-spec", "points D:1+"], "do not go together"),
        (["--deals-from", "{deals}", "--deals", "9"], "--deals 9: the files hold 3 deals"),
        (["--what", "table"], "give --deals N"),
    ],
)
def test_cli_bad_sources_exit_2_with_one_line(tmp_path, capsys, notation_file, argv, message):
    path, _ = notation_file
    argv = [a.replace("{deals}", str(path)) for a in argv]
    if "--deals" not in argv and "--deals-from" not in argv and "give --deals" not in message:
        argv += ["--deals", "2"]
    code = main(["study", *argv, "--out", str(tmp_path / "s.csv")])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1, err


def test_an_accept_function_cannot_go_into_a_resumable_study(tmp_path):
    from solver.game.dealspec import DealSpec

    spec = DealSpec.build(points={"D": "10+"}, accept=lambda deal: True)
    with pytest.raises(StudyError, match="accept function cannot be recorded"):
        study(tmp_path / "s.csv", 1, deal_spec=spec, what="table")
