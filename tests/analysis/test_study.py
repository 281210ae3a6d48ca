"""Deal studies: resumable without recomputing, the same rows for any workers or a Dask cluster."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from cli.main import main
from solver.analysis import study as study_mod
from solver.analysis.study import (
    StudyError,
    StudySpec,
    load_study,
    parts_dir,
    run_study,
    study_deal,
    study_row,
)

SPEC = StudySpec(deals=3, seed="7", rules="twelve", what=("table",), chunk=1)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """One uninterrupted run, in this thread."""
    out = tmp_path_factory.mktemp("ref") / "study.parquet"
    run_study(out, SPEC, workers=1)
    return out


def test_rows_hold_the_deal_its_features_and_its_table(reference):
    frame = load_study(reference)
    assert list(frame["index"]) == [0, 1, 2]
    deal = study_deal(SPEC, 1)
    row = frame.iloc[1]
    assert row["deal"] == deal.to_string()
    assert row["len_D_S"] + row["len_D_H"] + row["len_D_D"] + row["len_D_C"] == 16
    assert row["len_W_S"] + row["len_W_H"] + row["len_W_D"] + row["len_W_C"] == 4
    assert sum(row[f"hcp_{x}"] for x in "DEMW") == 40
    from solver.engine import dd_table

    table = dd_table(deal.without_widow(), leader="E", threads=1)
    assert row["dd_H_M"] == table["H"]["M"] and row["dd_N_D"] == table["N"]["D"]
    assert not parts_dir(reference).exists()


def test_an_interrupted_study_resumes_to_the_same_file_without_recomputing(tmp_path, monkeypatch, reference):
    out = tmp_path / "study.parquet"
    real = study_mod.study_chunk
    calls: list[int] = []

    def stops_at_the_third(task):
        calls.append(task[1])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(study_mod, "study_chunk", stops_at_the_third)
    with pytest.raises(KeyboardInterrupt):
        run_study(out, SPEC, workers=1)
    assert not out.exists()  # nothing half-written
    assert sorted(p.name for p in parts_dir(out).iterdir()) == [
        "part-000000000-000000001.parquet",
        "part-000000001-000000002.parquet",
        "spec.json",
    ]
    calls.clear()
    result = run_study(out, SPEC, workers=1)
    assert calls == [2]  # only the missing chunk
    assert result.computed == 1 and result.resumed == 2
    assert out.read_bytes() == reference.read_bytes()


def test_two_workers_give_the_same_file(tmp_path, reference):
    out = tmp_path / "study.parquet"
    run_study(out, SPEC, workers=2)
    assert out.read_bytes() == reference.read_bytes()


def test_a_local_dask_cluster_gives_the_same_rows(tmp_path, reference):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        out = tmp_path / "study.parquet"
        run_study(out, SPEC, scheduler=cluster.scheduler_address)
    pd.testing.assert_frame_equal(load_study(out), load_study(reference))


def test_csv_and_declare_columns(tmp_path):
    spec = StudySpec(deals=1, seed="4", rules="twelve", what=("declare",))  # a deal declared in a second
    out = tmp_path / "study.csv"
    row = load_study(run_study(out, spec, workers=1).out).iloc[0]
    direct = study_row(spec, 0)
    assert row["best_tricks"] == direct["best_tricks"] == max(direct[f"decl_{s}"] for s in "SHDC")
    assert row["best_strain"] in row["optimal_strains"].split(",")
    assert bool(row["makes"]) == (row["best_tricks"] >= 8) and row["target"] == 8


def test_parts_of_another_study_are_refused(tmp_path):
    out = tmp_path / "study.parquet"
    parts_dir(out).mkdir()
    (parts_dir(out) / "spec.json").write_text(json.dumps(StudySpec(5, "1").to_json()))
    with pytest.raises(StudyError, match="parts of another study"):
        run_study(out, SPEC, workers=1)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--deals", "0"], "--deals must be at least 1"),
        (["--deals", "-5"], "--deals must be at least 1"),
        (["--deals", "200000000"], "--deals must be at most 100,000,000"),
        (["--deals", "2", "--what", "tables"], "--what must list some of table, declare"),
        (["--deals", "2", "--rules", "no-widow"], "needs a widow"),
    ],
)
def test_cli_bad_arguments(tmp_path, capsys, argv, message):
    code = main(["study", *argv, "--out", str(tmp_path / "s.parquet")])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1


def test_cli_bad_format_and_existing_file(tmp_path, capsys):
    assert main(["study", "--deals", "1", "--out", str(tmp_path / "s.txt")]) == 2
    assert "must end in .parquet or .csv" in capsys.readouterr().err
    (tmp_path / "s.csv").write_text("x")
    assert main(["study", "--deals", "1", "--out", str(tmp_path / "s.csv")]) == 2
    assert "exists already" in capsys.readouterr().err


def test_cli_writes_and_reports_json(tmp_path, capsys):
    out = tmp_path / "s.csv"
    code = main(
        [
            "study",
            "--deals",
            "1",
            "--what",
            "table",
            "--seed",
            "4",
            "--workers",
            "1",
            "--out",
            str(out),
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["computed"] == 1 and data["deals"] == 1
    assert len(load_study(out)) == 1


def test_cli_ctrl_c_keeps_the_finished_chunks_and_exits_130(tmp_path, capsys, monkeypatch):
    real = study_mod.study_chunk
    calls: list[int] = []

    def stops_at_the_second(task):
        calls.append(task[1])
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(study_mod, "study_chunk", stops_at_the_second)
    out = tmp_path / "s.parquet"
    argv = ["study", "--deals", "3", "--what", "table", "--seed", "7", "--workers", "1", "--out", str(out)]
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "resume" in err and err.strip().count("\n") == 0
    assert not out.exists() and (parts_dir(out) / "part-000000000-000000001.parquet").exists()


def test_a_must_ruff_ruleset_is_studied_under_must_ruff():
    """hungarian obliges a player void in the led suit to trump: the study's table must be
    the must-ruff table (deal 1 of seed "1" differs between the two in three places)."""
    from solver.engine import dd_table
    from solver.game.rules import get_ruleset

    spec = StudySpec(deals=2, seed="1", rules="hungarian", what=("table",))
    rs = get_ruleset("hungarian")
    deal = study_deal(spec, 1)
    row = study_row(spec, 1)
    table = dd_table(deal.without_widow(), leader=rs.opening_leader(), must_ruff=True, threads=1)
    values = {(st, s): row[f"dd_{st}_{s}"] for st in "SHDCN" for s in "DEM"}
    assert values == {(st, s): table[st][s] for st in "SHDCN" for s in "DEM"}
