"""The analysis board in a real browser: headless Chromium driven by selenium.

Load a hand file, step through it with the keys, click an alternative card and check the
marks drawn against the engine, undo, reload from the shared URL, and kibitz one seat:
no hidden card in the page or in what the page received; an MT position's marks in
stages. Screenshots go to the test's temporary directory (``SM358_BOARD_SHOTS=DIR``
keeps them).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
selenium = pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

import solver  # noqa: E402
from solver.board import boards as board_module  # noqa: E402
from solver.board.line import Line  # noqa: E402
from solver.board.server import _Background  # noqa: E402
from solver.engine import Solver  # noqa: E402
from solver.game.handfile import hand_from_record, load_hand  # noqa: E402
from solver.game.match import Match  # noqa: E402
from solver.game.rules import get_ruleset  # noqa: E402
from solver.players import get_player  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hand-twelve.txt"
CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if os.path.exists(p)), None)
DRIVER = shutil.which("chromedriver") or (
    "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None
)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no headless Chromium and chromedriver (Debian: apt-get install chromium chromium-driver)",
)


@pytest.fixture(scope="module")
def server():
    srv = _Background(long_jobs=1)  # one background job at a time: a core stays free for the marks
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    opts = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1500,1000"):
        opts.add_argument(arg)
    assert CHROMIUM is not None  # the module is skipped without it
    opts.binary_location = CHROMIUM
    try:
        driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    except Exception as exc:  # a browser that cannot start here is a skip, with the reason
        pytest.skip(f"headless Chromium does not start: {exc}")
    yield driver
    driver.quit()


@pytest.fixture()
def shots(tmp_path):
    keep = os.environ.get("SM358_BOARD_SHOTS")
    out = Path(keep) if keep else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    return out


def _state(driver) -> dict:
    return json.loads(driver.execute_script("return JSON.stringify(state)"))


def _wait_at(driver, at: int) -> dict:
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return state && state.at") == at)
    return _state(driver)


def _wait_marks(driver) -> dict:
    """The marks the page drew, once drawn (the page stores what it received in `marks`)."""
    WebDriverWait(driver, 30).until(
        lambda d: d.execute_script("return marks && marks.status === 'done' && marks.at === state.at")
    )
    return json.loads(driver.execute_script("return JSON.stringify(marks)"))


def _drawn_marks(driver) -> dict[str, str]:
    """Card -> the mark text drawn beside its group, read from the DOM in one go."""
    return driver.execute_script(
        """
        const out = {};
        for (const g of document.querySelectorAll('.seat.to-move .group')) {
          const mark = g.querySelector('.mark').textContent;
          for (const b of g.querySelectorAll('button.card')) out[b.dataset.card] = mark;
        }
        return out;
        """
    )


def _expected_marks(line: Line) -> dict[str, str]:
    pos = line.position()
    assert pos is not None
    values = solver.card_values(
        pos.deal, pos.strain, leader=pos.leader, seat=pos.mover, played=pos.played, misere=pos.misere
    )
    best = max(values.values())
    return {str(c): "=" if v == best else f"−{best - v}" for c, v in values.items()}


def test_step_branch_undo_share_and_kibitz(server, browser, shots):
    rec = load_hand(EXAMPLE)
    board = server.boards.open(Line(rec))
    browser.get(f"{server.url}?b={board.id}")
    s = _wait_at(browser, 0)
    _wait_marks(browser)
    line = Line(rec)
    assert _drawn_marks(browser) == _expected_marks(line)
    WebDriverWait(browser, 60).until(
        lambda d: d.execute_script("return !!(panels.review && panels.review.status === 'done')")
    )
    browser.save_screenshot(str(shots / "board-1-first-lead.png"))

    # step through with the arrow keys: a trick and two cards
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_DOWN)
    _wait_at(browser, 3)
    body.send_keys(Keys.ARROW_RIGHT)
    _wait_at(browser, 4)
    body.send_keys(Keys.ARROW_RIGHT)
    s = _wait_at(browser, 5)
    line.goto(5)
    _wait_marks(browser)
    assert _drawn_marks(browser) == _expected_marks(line)
    assert [p["card"] for p in s["trick"]] == [str(c) for c in rec.cards[3:5]]
    browser.save_screenshot(str(shots / "board-2-trick-2.png"))

    # click a card the actual play did not choose: a branch, marked by the engine
    actual_next = str(rec.cards[5])
    legal = browser.execute_script(
        "return [...document.querySelectorAll('.seat.to-move button.legal')].map(b => b.dataset.card)"
    )
    other = next(c for c in legal if c != actual_next)
    browser.find_element(By.CSS_SELECTOR, f'.seat.to-move button[data-card="{other}"]').click()
    s = _wait_at(browser, 6)
    assert s["branch"] and s["divergence"] == 5
    line.play(solver.Card.parse(other))
    _wait_marks(browser)
    assert _drawn_marks(browser) == _expected_marks(line)
    assert "exploring a branch" in browser.find_element(By.ID, "headline").text
    browser.save_screenshot(str(shots / "board-3-branch.png"))

    # reload from the shared URL (without the board id: the position is in the link)
    shared = browser.current_url
    assert "h=" in shared and "line=" in shared
    from urllib.parse import parse_qs, urlencode, urlsplit

    params = {k: v[0] for k, v in parse_qs(urlsplit(shared).query).items() if k != "b"}
    browser.get(f"{server.url}?{urlencode(params)}")
    again = _wait_at(browser, 6)
    assert again["id"] != s["id"]
    for key in ("trick", "seats", "legal", "branch", "divergence", "play"):
        assert again[key] == s[key], key
    _wait_marks(browser)
    assert _drawn_marks(browser) == _expected_marks(line)

    # undo takes the branch card back: the actual play again
    browser.find_element(By.ID, "undo").click()
    s = _wait_at(browser, 5)
    assert not s["branch"] and s["length"] == 48

    # kibitz E: the page holds E's cards and the cards played, nothing else
    body = browser.find_element(By.TAG_NAME, "body")
    Select(browser.find_element(By.ID, "kibitz")).select_by_value("E")
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return state.kibitz") == "E")
    for _ in range(3):  # step to E's turn: trick 3's third card
        at = _state(browser)["at"]
        body.send_keys(Keys.ARROW_RIGHT)
        _wait_at(browser, at + 1)
    s = _state(browser)
    played = {str(c) for c in rec.cards[: s["at"]]}
    hidden = {str(c) for seat in "DM" for c in rec.start[seat]} - played
    hidden |= {str(c) for c in rec.discard or ()} | (
        {str(c) for c in rec.dealt.widow} - played if rec.dealt else set()
    )
    html = browser.page_source
    seen_in_dom = set(
        browser.execute_script(
            "return [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card)"
        )
    )
    assert not (seen_in_dom & hidden)
    received = json.dumps(_state(browser)) + browser.execute_script("return JSON.stringify(marks)") + html
    assert not any(f'"{c}"' in received for c in hidden)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#seat-D .back")) == s["seats"]["D"]["count"]
    assert not browser.find_elements(By.CSS_SELECTOR, "#seat-D button.card")
    # what the page can still ask for stays hidden: the panels are refused
    status = browser.execute_script(
        "return fetch('/api/boards/' + state.id + '/panel/table').then(r => r.status)"
    )
    assert status == 403
    time.sleep(0.2)


def test_player_names_are_text_not_html(server, browser):
    text = EXAMPLE.read_text().replace(
        '[Rules "twelve"]',
        '[Rules "twelve"]\n[Players "<img src=x onerror=window.pwned=1>, B&amp;C, <b>Cy</b>"]',
    )
    from solver.game.handfile import parse_hand

    board = server.boards.open(Line(parse_hand(text)))
    browser.get(f"{server.url}?b={board.id}")
    _wait_at(browser, 0)
    names = browser.execute_script(
        "return ['D','E','M'].map(s => document.querySelector('#seat-' + s + ' .player').textContent)"
    )
    assert names == ["<img src=x onerror=window.pwned=1>", "B&amp;C", "<b>Cy</b>"]
    assert browser.execute_script("return window.pwned === undefined")
    assert not browser.find_elements(By.CSS_SELECTOR, "#table img, .seat .player *")


def test_editor_builds_a_deal_and_shows_why_one_is_refused(server, browser):
    board = server.boards.open(Line(load_hand(EXAMPLE)))
    browser.get(f"{server.url}?b={board.id}")
    _wait_at(browser, 0)
    browser.find_element(By.ID, "edit-btn").click()
    WebDriverWait(browser, 10).until(
        lambda d: d.execute_script("return document.getElementById('editor').open")
    )
    deal = browser.find_element(By.ID, "ed-deal")
    deal.clear()
    deal.send_keys("D:AK... Q2... 3.A..")
    browser.find_element(By.ID, "ed-discard").clear()  # it held the example's discard
    Select(browser.find_element(By.ID, "ed-contract")).select_by_value("S")
    Select(browser.find_element(By.ID, "ed-leader")).select_by_value("D")
    # the picker follows the notation: SA is D's, HA is M's
    owners = browser.execute_script(
        "return ['SA', 'HA'].map(c => document.querySelector('#ed-picker [data-card=' + c + ']').className)"
    )
    assert "o-D" in owners[0] and "o-M" in owners[1]
    # clicking a card gives it to the chosen seat: H2 to D makes the hands unequal
    browser.find_element(By.CSS_SELECTOR, '#ed-picker [data-card="H2"]').click()
    assert deal.get_attribute("value").startswith("D:AK.2.. Q2... 3.A..")
    browser.find_element(By.ID, "ed-open").click()
    error = browser.find_element(By.ID, "ed-error")
    WebDriverWait(browser, 10).until(lambda d: error.is_displayed())
    assert "hand" in error.text, error.text  # the reason, from the server (hand sizes differ)
    assert browser.execute_script("return document.getElementById('editor').open")
    browser.find_element(By.CSS_SELECTOR, '#ed-picker [data-card="H2"]').click()  # back out
    browser.find_element(By.ID, "ed-open").click()
    WebDriverWait(browser, 10).until(
        lambda d: not d.execute_script("return document.getElementById('editor').open")
    )
    s = _wait_at(browser, 0)
    assert s["seats"]["D"]["hand"] == ["SA", "SK"] and s["mover"] == "D" and s["contract"] == "S"
    assert _wait_marks(browser)["result"]["values"] == {"SA": 2, "SK": 2}


def test_misere_marks_show_the_value_and_best_cards_first(browser, shots, monkeypatch):
    """An MT position: while the other cards' values are still searched, the page says the
    mover's value and marks the cards that keep it (=), the others as still open (…)."""
    gate = threading.Event()
    real = Solver.card_values

    def held(self, *args, **kwargs):
        gate.wait(60)
        return real(self, *args, **kwargs)

    def idle_panel(line):  # the panels' misère searches would take the cores for minutes
        def work(job):
            while not gate.wait(0.1):
                job.progress(0, 1)
            return {"note": "not computed in this test"}

        return work

    monkeypatch.setattr(Solver, "card_values", held)
    monkeypatch.setattr(board_module, "_PANEL_WORK", dict.fromkeys(board_module.PANELS, idle_panel))
    players = [get_player(k, f"11:{i}") for i, k in enumerate(("heuristic", "random", "heuristic"))]
    match = Match(get_ruleset("hungarian"), players, 11, preset="hungarian", options={}).play()
    rec = hand_from_record(match, 12)  # an MT hand
    assert rec.misere
    srv = _Background(long_jobs=4)
    try:
        line = Line(rec, at=12)
        board = srv.boards.open(line)
        browser.get(f"{srv.url}?b={board.id}")
        _wait_at(browser, 12)
        WebDriverWait(browser, 30).until(
            lambda d: d.execute_script("return !!(marks && marks.partial && marks.partial.keeping)")
        )
        pos = line.position()
        assert pos is not None
        values = real(Solver(32), pos.engine_position(), seat=pos.mover)
        best = min(values.values())
        assert _drawn_marks(browser) == {str(c): "=" if v == best else "…" for c, v in values.items()}
        status = browser.find_element(By.ID, "marks-status").text
        total = pos.won[pos.mover] + best
        assert (
            f"{pos.mover.name} can hold itself to {total} trick" in status
            and "still being computed" in status
        )
        browser.save_screenshot(str(shots / "board-4-misere-first-marks.png"))
        gate.set()
        _wait_marks(browser)
        drawn = _drawn_marks(browser)
        assert drawn == {str(c): "=" if v == best else f"+{v - best}" for c, v in values.items()}
    finally:
        gate.set()
        srv.boards.close_all()
        srv.stop()


def test_an_mt_declaration_panel_says_other_choices_may_tie(browser, shots, monkeypatch):
    """An MT hand's declaration is judged at its proven optimum: the panel names the
    choices proven optimal and says that others may tie."""

    gate = threading.Event()

    def held(line):  # the other panels wait: the test needs the declaration alone
        def work(job):
            gate.wait(60)
            return {"note": "not computed in this test"}

        return work

    work = dict(board_module._PANEL_WORK)
    work.update(table=held, review=held)
    monkeypatch.setattr(board_module, "_PANEL_WORK", work)
    players = [get_player(k, f"11:{i}") for i, k in enumerate(("heuristic", "random", "heuristic"))]
    match = Match(get_ruleset("hungarian"), players, 11, preset="hungarian", options={}).play()
    rec = hand_from_record(match, 16)  # an MT hand whose declaration is judged in seconds
    assert rec.misere
    srv = _Background(long_jobs=3)  # the two held panels and the declaration
    try:
        line = Line(rec, at=len(rec.tricks) * 3)  # the hand played out: no marks to search
        board = srv.boards.open(line)
        browser.get(f"{srv.url}?b={board.id}")
        WebDriverWait(browser, 60).until(
            lambda d: d.execute_script("return !!(panels.declare && panels.declare.status === 'done')")
        )
        text = browser.find_element(By.ID, "declare-panel").text
        assert "Best: 5 tricks" in text and "among others that may tie" in text, text
        browser.find_element(By.ID, "declare-panel").screenshot(str(shots / "board-5-mt-declaration.png"))
    finally:
        gate.set()
        srv.boards.close_all()
        srv.stop()
