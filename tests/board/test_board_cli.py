"""``sm358 board``: bad sources end with one line and exit 2; the server prints its URL,
answers, warns when it listens beyond this machine, and stops on Ctrl-C with one line."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from cli.main import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def test_bad_sources_exit_2(tmp_path, capsys):
    assert main(["board", str(tmp_path / "missing.txt"), "--no-open"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "missing.txt" in err[0]
    bad = tmp_path / "bad.txt"
    bad.write_text('[Rules "twelve"]\n[Contract "S"]\nSA SK\n')
    assert main(["board", str(bad), "--no-open"]) == 2
    assert "sm358 board: error:" in capsys.readouterr().err
    assert main(["board", str(EXAMPLES / "hand-twelve.txt"), "--hand", "2", "--no-open"]) == 2
    assert "--hand" in capsys.readouterr().err
    assert main(["board", "D:AK... Q2... 3.A..", "--contract", "XX", "--no-open"]) == 2
    assert "XX" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["board", "D:AK... Q2... 3.A..", "--no-open", "--port", str(port)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"port {port}" in err[0]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_serves_warns_and_stops_on_ctrl_c():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "board", str(EXAMPLES / "endgame-5.txt"), "--contract", "S"]
        + ["--leader", "D", "--no-open", "--port", "0", "--host", "0.0.0.0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("sm358 board: http://0.0.0.0:"), line
        url = line.split()[2].replace("0.0.0.0", "127.0.0.1")
        board = url.split("?b=")[1]
        base = url.split("?")[0]
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"{base}api/boards/{board}") as r:
                    state = json.load(r)
                break
            except OSError:
                time.sleep(0.1)
        assert state["total"] == 15 and state["mover"] == "D"
        with urllib.request.urlopen(base) as r:
            page = r.read().decode()
        assert "static/board.js" in page and "http" not in page.replace("http-equiv", "")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode in (0, 130)  # 130: the usual Ctrl-C exit (docs/robustness.md)
    assert "warning: listening on 0.0.0.0" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 2
