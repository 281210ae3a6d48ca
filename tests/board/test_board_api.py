"""The analysis board's JSON endpoints (solver.board), through Starlette's test client.

Marks against solver.card_values at every step of seeded hands of the four presets (an MT
hand and must-ruff hands among them); branch, undo and return-to-actual; the share query;
kibitz mode never serialising a hidden card; bad requests answered 4xx with the reason.
"""

from __future__ import annotations

import json
import re
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette's note that it prefers httpx2 to httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import solver  # noqa: E402
from solver.board.app import MAX_BODY_BYTES, create_app  # noqa: E402
from solver.board.boards import Boards  # noqa: E402
from solver.board.line import Line  # noqa: E402
from solver.deal import Seat  # noqa: E402
from solver.engine import Solver  # noqa: E402
from solver.game.handfile import HandRecord, hand_from_record, parse_hand  # noqa: E402
from solver.game.match import Match  # noqa: E402
from solver.game.rules import get_ruleset  # noqa: E402
from solver.players import get_player  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SHORT: dict[str, dict[str, Any]] = {
    "british": {"match_end": "hands", "hands_limit": 2},
    "twelve": {"hands_limit": 2, "win_tricks": 16},
    "card-return": {"hands_limit": 2},
    "hungarian": {},
}
# (preset, hand): hungarian hand 12 of seed 11 is an MT hand; hungarian plays must-ruff.
HANDS = [("british", 1), ("twelve", 2), ("card-return", 1), ("hungarian", 1), ("hungarian", 12)]
CARD = re.compile(r"\b[SHDC][2-9TJQKA]\b")


def _record(preset: str, number: int, seed: int = 11) -> HandRecord:
    options = SHORT[preset]
    players = [get_player(k, f"{seed}:{i}") for i, k in enumerate(("heuristic", "random", "heuristic"))]
    match = Match(get_ruleset(preset, **options), players, seed, preset=preset, options=options).play()
    return hand_from_record(match, number)


@pytest.fixture()
def client():
    with TestClient(create_app(Boards(limit=4, long_jobs=2), samples=8)) as c:
        yield c


def _open(client: TestClient, text: str, **extra) -> dict:
    r = client.post("/api/boards", json={"hand": text, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def _marks(client: TestClient, board: str, patience: float = 25.0) -> dict:
    """The marks of the position shown, polled until ready (misère on full deals is slow)."""
    deadline = time.monotonic() + patience
    while True:
        m = client.get(f"/api/boards/{board}/marks?wait={min(25.0, patience)}").json()
        if m["status"] != "running" or time.monotonic() > deadline:
            break
    assert m["status"] == "done", m
    return m


def _check_marks_along(client: TestClient, rec: HandRecord, first: int, patience: float = 25.0) -> int:
    """Step the actual play from card ``first``; at each step the marks are the engine's."""
    s = _open(client, rec.to_text())
    board = s["id"]
    s = client.post(f"/api/boards/{board}/goto", json={"at": first}).json()
    checked = 0
    k = first
    for t, trick in enumerate(rec.tricks, 1):
        for i, card in enumerate(trick):
            if 3 * (t - 1) + i < first:
                continue
            pos = rec.position(t, i)
            expected = solver.card_values(pos.engine_position(), seat=pos.mover)
            assert s["at"] == k and s["mover"] == pos.mover.name
            assert sorted(s["legal"]) == sorted(str(c) for c in expected)
            m = _marks(client, board, patience)["result"]
            assert m["values"] == {str(c): v for c, v in expected.items()}
            grouped = [c for g in m["groups"] for c in g["cards"]]
            assert sorted(grouped) == sorted(m["values"])
            best = (min if pos.misere else max)(expected.values())
            for g in m["groups"]:
                assert {m["values"][c] for c in g["cards"]} == {g["value"]}
                assert g["delta"] == g["value"] - best
                assert g["total"] == pos.won[pos.mover] + g["value"]
            checked += 1
            s = client.post(f"/api/boards/{board}/play", json={"card": str(card)}).json()
            k += 1
    assert s["over"] and s["at"] == 48
    return checked


@pytest.mark.parametrize("preset,number", HANDS)
def test_marks_equal_card_values_from_trick_3_or_4(client, preset, number):
    rec = _record(preset, number)
    first = 9 if rec.misere else 6  # the default tier: from trick 4 (MT) or 3; the full sweep is slow
    assert _check_marks_along(client, rec, first) == 48 - first


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("preset,number", HANDS)
def test_marks_equal_card_values_at_every_step(client, preset, number):
    """Misère on full deals takes minutes per position today: hence the patience."""
    assert _check_marks_along(client, _record(preset, number), 0, patience=900.0) == 48


def test_branch_undo_and_return_to_actual(client):
    text = (EXAMPLES / "hand-twelve.txt").read_text()
    rec = parse_hand(text)
    actual = [str(c) for c in rec.cards]
    s = _open(client, text)
    board = s["id"]
    assert s["at"] == 0 and not s["branch"] and s["length"] == 48
    s = client.post(f"/api/boards/{board}/goto", json={"at": 4}).json()
    assert s["mover"] == "M" and [p["card"] for p in s["trick"]] == actual[3:4]
    other = next(c for c in s["legal"] if c != actual[4])
    s = client.post(f"/api/boards/{board}/play", json={"card": other}).json()
    assert s["branch"] and s["at"] == 5 and s["length"] == 5 and s["divergence"] == 4
    assert [p["card"] for p in s["trick"]] == [actual[3], other]
    # the branch's position is the engine's position after those cards
    pos = Line(rec, cards=[solver.Card.parse(c) for c in actual[:4] + [other]], at=5).position()
    assert pos is not None
    m = _marks(client, board)["result"]
    assert m["values"] == {
        str(c): v
        for c, v in solver.card_values(
            pos.deal, pos.strain, leader=pos.leader, seat=pos.mover, played=pos.played
        ).items()
    }
    s = client.post(f"/api/boards/{board}/play", json={"card": s["legal"][0]}).json()
    assert s["at"] == 6 and s["branch"]
    s = client.post(f"/api/boards/{board}/undo").json()
    assert s["at"] == 5 and s["length"] == 5
    s = client.post(f"/api/boards/{board}/undo").json()
    assert s["at"] == 4 and not s["branch"] and s["length"] == 48  # back on the actual play
    # playing the actual card follows the line: no branch
    s = client.post(f"/api/boards/{board}/play", json={"card": actual[4]}).json()
    assert s["at"] == 5 and not s["branch"] and s["length"] == 48
    s = client.post(f"/api/boards/{board}/goto", json={"at": 4}).json()
    s = client.post(f"/api/boards/{board}/play", json={"card": other}).json()
    s = client.post(f"/api/boards/{board}/play", json={"card": s["legal"][0]}).json()
    assert s["branch"] and s["at"] == 6
    s = client.post(f"/api/boards/{board}/actual").json()
    assert s["at"] == 4 and not s["branch"] and s["length"] == 48  # where the branch left it
    s = client.post(
        f"/api/boards/{board}/play", json={"card": other if other in s["legal"] else s["legal"][0]}
    )
    s = client.post(f"/api/boards/{board}/goto", json={"at": 2}).json()
    s = client.post(f"/api/boards/{board}/actual").json()
    assert s["at"] == 2 and s["length"] == 48 and not s["branch"]
    # undo on the actual line steps back without cutting it
    s = client.post(f"/api/boards/{board}/undo").json()
    assert s["at"] == 1 and s["length"] == 48


def test_share_query_restores_the_position(client):
    text = (EXAMPLES / "hand-twelve.txt").read_text()
    s = _open(client, text)
    board = s["id"]
    client.post(f"/api/boards/{board}/goto", json={"at": 7})
    s = client.post(f"/api/boards/{board}/play", json={"card": "ZZ"})
    assert s.status_code == 400
    s = client.get(f"/api/boards/{board}").json()
    actual = [str(c) for c in parse_hand(text).cards]
    card = next(c for c in s["legal"] if c != actual[7])
    s = client.post(f"/api/boards/{board}/play", json={"card": card}).json()
    again = client.post("/api/boards", json={"query": s["query"]}).json()
    for key in ("at", "trick", "seats", "legal", "play", "branch", "divergence", "contract", "discard"):
        assert again[key] == s[key], key
    # the download is the line shown as a hand file that review reads
    r = client.get(f"/api/boards/{board}/handfile")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rec = parse_hand(r.text)
    assert len(rec.cards) == 8 and str(rec.cards[-1]) == card
    assert str(solver.review(r.text, declaration=False).hands[0].cards[-1].card) == card


def test_panels_answer(client):
    text = (EXAMPLES / "hand-twelve.txt").read_text()
    board = _open(client, text)["id"]
    rec = parse_hand(text)
    review = client.get(f"/api/boards/{board}/panel/review?wait=25").json()
    assert review["status"] == "done"
    expected = solver.review(rec, declaration=False).hands[0]
    assert review["result"]["seats"] == {s: v.to_dict() for s, v in expected.seats.items()}
    assert review["result"]["totals"] == [list(t) for t in expected.totals]


def test_editor_builds_and_refuses(client):
    r = client.post(
        "/api/boards",
        json={"edit": {"deal": "D:AK... Q2... 3.A..", "rules": "twelve", "contract": "S", "leader": "D"}},
    )
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["seats"]["D"]["hand"] == ["SA", "SK"] and s["mover"] == "D" and s["total"] == 6
    m = _marks(client, s["id"])["result"]
    assert m["values"] == {"SA": 2, "SK": 2}
    bad = client.post("/api/boards", json={"edit": {"deal": "D:AK... Q2... 3..", "contract": "S"}})
    assert bad.status_code == 400 and "error" in bad.json()
    bad = client.post("/api/boards", json={"edit": {"deal": "D:AK... Q2... 3.A..", "contract": "MT"}})
    assert bad.status_code == 400 and "MT" in bad.json()["error"]
    r = client.post("/api/boards", json={"seed": 5, "rules": "twelve"})
    s = r.json()
    assert r.status_code == 200 and all(len(s["seats"][x]["hand"]) == 16 for x in "DEM")
    assert len(s["discard"]) == 4


def test_bad_requests_get_4xx(client):
    board = _open(client, (EXAMPLES / "hand-twelve.txt").read_text())["id"]
    cases = [
        ("post", f"/api/boards/{board}/play", {"card": "SA"}, 400, "not in"),  # not the mover's card
        ("post", f"/api/boards/{board}/play", {"card": 7}, 400, "text"),
        ("post", f"/api/boards/{board}/goto", {"at": 99}, 400, "outside"),
        ("post", f"/api/boards/{board}/goto", {"at": "x"}, 400, "number"),
        ("post", f"/api/boards/{board}/jump", {}, 400, "unknown move"),
        ("post", "/api/boards/nosuchboard/play", {"card": "SA"}, 404, "no such board"),
        ("post", "/api/boards", {"query": "h=%%%"}, 400, "base64"),
        ("post", "/api/boards", {"query": "at=3"}, 400, "no hand"),
        ("post", "/api/boards", {"hand": '[Rules "nine"]\n'}, 400, "Rules"),
        ("post", "/api/boards", {"seed": -1}, 400, "seed"),
        ("get", f"/api/boards/{board}/panel/secrets", None, 400, "unknown panel"),
        ("get", f"/api/boards/{board}/marks?wait=soon", None, 400, "wait"),
    ]
    for method, url, body, status, words in cases:
        r = client.post(url, json=body) if method == "post" else client.get(url)
        assert r.status_code == status, (url, body, r.text)
        assert words in r.json()["error"], (url, r.json())
    r = client.post("/api/boards", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400
    r = client.post("/api/boards", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert r.status_code == 400
    for body in (b"[" * 5000 + b"]" * 5000, b'{"seed": ' + b"9" * 5000 + b"}", b"\xff\xfe"):
        r = client.post("/api/boards", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"], body[:20]
    big = json.dumps({"hand": "x" * (MAX_BODY_BYTES + 10)}).encode()
    r = client.post("/api/boards", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413
    # an illegal card in a shared line is refused with the card named
    line = Line(parse_hand((EXAMPLES / "hand-twelve.txt").read_text()))
    q = line.query() + "&line=HA-HK"
    r = client.post("/api/boards", json={"query": q})
    assert r.status_code == 400 and "HK" in r.json()["error"]


def _hidden(rec: HandRecord, at: int, seat: Seat) -> set[str]:
    """Cards the kibitzed seat has not seen at card ``at``: the others' unplayed cards and
    every card out of play it did not discard itself."""
    played = {str(c) for c in rec.cards[:at]}
    out = set()
    for s in Seat:
        if s != seat:
            out |= {str(c) for c in rec.start.hands[s]} - played
    if rec.discard and seat != rec.declarer:
        out |= {str(c) for c in rec.discard}
    if rec.dealt is not None and seat != rec.declarer:
        out |= {str(c) for c in rec.dealt.widow} - played
    return out


def test_kibitz_sends_no_hidden_card(client):
    text = (EXAMPLES / "hand-twelve.txt").read_text()
    rec = parse_hand(text)
    seat = Seat.E
    s = _open(client, text, kibitz="E")
    board = s["id"]
    responses: list[tuple[int, str]] = []

    def seen(r, at: int) -> dict:
        responses.append((at, r.text))
        return r.json()

    at = 0
    # step forward card by card to trick 14; kibitzers cannot jump ahead
    r = client.post(f"/api/boards/{board}/goto", json={"at": 39})
    assert r.status_code == 403
    while at < 39:
        s = seen(client.post(f"/api/boards/{board}/goto", json={"at": at + 1}), at + 1)
        at = s["at"]
        if s["mover"] == "E" and at >= 36:
            m = seen(client.get(f"/api/boards/{board}/marks?wait=25"), at)
            assert m["status"] == "done" and m["result"]["kind"] == "sd"
            assert {c["card"] for c in m["result"]["cards"]} == set(s["legal"])
    s = seen(client.get(f"/api/boards/{board}"), at)
    assert set(s["seats"]["D"]) == set(s["seats"]["M"]) and "hand" not in s["seats"]["D"]
    assert s["seats"]["E"]["hand"]
    for name in ("table", "declare", "review"):
        r = client.get(f"/api/boards/{board}/panel/{name}")
        assert r.status_code == 403
        responses.append((at, r.text))
    r = client.get(f"/api/boards/{board}/handfile")
    assert r.status_code == 403
    responses.append((at, r.text))
    for when, body in responses:
        leaked = set(CARD.findall(body)) & _hidden(rec, when, seat)
        assert not leaked, (when, leaked)
    # leaving kibitz mode shows every hand again
    s = client.post(f"/api/boards/{board}/kibitz", json={"seat": None}).json()
    assert all("hand" in s["seats"][x] for x in "DEM")


def test_page_is_self_contained(client):
    """No network: the page loads only its own files (the SVG namespace is a name, not a load)."""
    page = client.get("/").text
    assert "static/board.js" in page and "static/board.css" in page
    for path in ("/", "/static/board.js", "/static/board.css"):
        text = client.get(path).text
        assert client.get(path).status_code == 200
        urls = re.findall(r"https?://[^\s\"'`)]+", text)
        assert set(urls) <= {"http://www.w3.org/2000/svg"}, (path, urls)
    assert client.get("/static/../line.py").status_code == 404


def test_solver_board_in_jupyter():
    """solver.board(source) gives an IFrame of a board served from this process."""
    pytest.importorskip("IPython")
    # the package is callable at run time (solver/board/__init__.py); mypy sees a module
    frame = solver.board(str(EXAMPLES / "hand-twelve.txt"))
    assert frame.src.startswith("http://127.0.0.1:") and "?b=" in frame.src
    import urllib.request

    with urllib.request.urlopen(frame.src.replace("/?b=", "/api/boards/")) as r:
        state = json.load(r)
    assert state["total"] == 48 and state["at"] == 0


def test_long_jobs_are_bounded_and_cancelled():
    """At most `limit` long jobs run at once; cancelling a queued or running one ends it."""
    import threading

    from solver.board.jobs import JobRunner

    runner = JobRunner(1)
    gate = threading.Event()
    running = []

    def work(job):
        running.append(job.kind)
        while not gate.wait(0.01):
            job.progress(0, 1)
        return job.kind

    a = runner.start("a", None, work)
    b = runner.start("b", None, work)
    time.sleep(0.3)
    assert running == ["a"] and a.state == "running" and b.state == "queued"
    b.cancel()
    assert b.wait(2) and b.state == "cancelled"
    a.cancel()  # its next progress() raises Cancelled
    assert a.wait(2) and a.state == "cancelled"
    gate.set()
    c = runner.start("c", None, work)
    assert c.wait(2) and c.state == "done" and c.result == "c"


def test_moving_on_cancels_slow_marks():
    """Misère marks of a full deal take long: moving on stops their search at once."""
    rec = _record("hungarian", 12)
    boards = Boards(limit=2, long_jobs=1)
    board = boards.open(Line(rec))
    first = board.marks(wait=0.2)
    assert first["status"] == "running"
    job = board._marks
    assert job is not None
    board.move("goto", 40)
    assert job.wait(5) and job.state == "cancelled"
    m = board.marks(wait=20)
    assert m["status"] == "done" and m["at"] == 40
    pos = Line(rec, at=40).position()
    assert pos is not None
    assert m["result"]["values"] == {
        str(c): v for c, v in solver.card_values(pos.engine_position(), seat=pos.mover).items()
    }
    boards.close_all()


def test_misere_marks_show_the_value_and_its_cards_before_the_rest(client, monkeypatch):
    """While every card's misère value is still searched, the job already says the
    mover's value (as it narrows) and which cards keep it; the final marks are unchanged."""
    rec = _record("hungarian", 12)
    at = 12  # trick 5: a few seconds of misère search at most
    gate = threading.Event()
    real = Solver.card_values

    def held(self, *args, **kwargs):
        assert gate.wait(60), "the test never let the marks finish"
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Solver, "card_values", held)
    board = _open(client, rec.to_text())["id"]
    assert client.post(f"/api/boards/{board}/goto", json={"at": at}).json()["at"] == at
    pos = rec.position(at // 3 + 1, at % 3)
    values = real(Solver(32), pos.engine_position(), seat=pos.mover)
    best = min(values.values())
    won = pos.won[pos.mover]
    seen = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        m = client.get(f"/api/boards/{board}/marks?wait=0.2").json()
        assert m["status"] == "running", m  # card_values is held back
        if "partial" in m:
            seen.append(m["partial"])
            if "keeping" in m["partial"]:
                break
    else:
        raise AssertionError(f"no partial marks with the best cards: {seen}")
    for p in seen:  # every interval holds the value, and they only narrow
        assert p["partial"] and p["misere"] and p["seat"] == pos.mover.name
        assert p["interval"][0] <= won + best <= p["interval"][1]
    last = seen[-1]
    assert last["interval"] == [won + best, won + best] and last["best"] == best
    assert sorted(last["keeping"]) == sorted(str(c) for c, v in values.items() if v == best)
    gate.set()
    final = _marks(client, board)
    assert "partial" not in final and final["result"]["values"] == {str(c): v for c, v in values.items()}


def test_an_mt_board_searches_on_the_misere_table():
    """Misère searches fill a small table: an MT board's warm table is the engine's misère
    size, also after a cancelled marks job replaced it; a normal board keeps the small one."""
    from solver.board.boards import MISERE_BOARD_TT_MB, TT_MB
    from solver.engine import MISERE_TT_MB

    boards = Boards(limit=2, long_jobs=1)
    mt = boards.open(Line(_record("hungarian", 12)))
    normal = boards.open(Line(_record("hungarian", 1)))
    assert mt.solver.tt_mb == MISERE_BOARD_TT_MB == MISERE_TT_MB and normal.solver.tt_mb == TT_MB
    assert mt.marks(wait=0.1)["status"] == "running"  # a full MT deal: slow
    mt.move("goto", 40)  # cancels it, and the stopped Solver is replaced
    assert mt.solver.tt_mb == MISERE_TT_MB
    assert mt.marks(wait=30)["status"] == "done"
    boards.close_all()
