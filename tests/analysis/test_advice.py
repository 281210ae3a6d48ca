"""Single-dummy advice: estimates agree with exact enumeration, the same answer wherever it
ran, the recommendation is the best estimate, and bad questions are clear errors."""

from __future__ import annotations

import statistics

import pytest

from advice_helpers import all_start_layouts, position_at, random_play
from solver import Deal, Hand, Mode, Seat, View, advise_declaration, advise_play
from solver.engine import card_values
from solver.errors import SolverError

DEAL = Deal.random(11)
DISCARD = Hand(sorted(DEAL.hands[Seat.D] | DEAL.widow)[:4])
START = {
    Seat.D: (DEAL.hands[Seat.D] | DEAL.widow) - DISCARD,
    Seat.E: DEAL.hands[Seat.E],
    Seat.M: DEAL.hands[Seat.M],
}


def late_view(seat_hint: int, n_cards: int, mode: str = "S") -> View:
    """A seat's view after ``n_cards`` random legal cards, for the seat now to move."""
    played = random_play(START, mode, Seat.E, n_cards, seed=seat_hint)
    probe = View.for_play(START[Seat.D], mode=mode, seat="D", played=played, discard=DISCARD)
    seat = probe.play_state().to_move
    discard = DISCARD if seat == Seat.D else ()
    return View.for_play(START[seat], mode=mode, seat=seat, played=played, discard=discard)


def exact_by_card(view: View) -> dict[str, tuple[float, float]]:
    """Exact (probability of the target, mean tricks) per card over every consistent layout."""
    state = view.play_state()
    target = view.target()
    values: dict[str, list[int]] = {}
    for start in all_start_layouts(view):
        deal = position_at(start, view)
        got = card_values(
            deal,
            "N" if view.trump == 4 else view.mode,
            leader=state.leader,
            seat=view.seat,
            played=list(state.trick),
            misere=view.misere,
            must_ruff=view.rules.must_ruff,
        )
        for card, v in got.items():
            values.setdefault(str(card), []).append(state.tricks[view.seat] + v)
    hit = (lambda t: t <= target) if view.misere else (lambda t: t >= target)
    return {c: (sum(map(hit, vs)) / len(vs), statistics.fmean(vs)) for c, vs in values.items()}


@pytest.mark.parametrize("hint,n_cards", [(1, 40), (2, 41), (3, 39), (4, 42)])
def test_play_estimates_agree_with_exact_enumeration(hint, n_cards):
    view = late_view(hint, n_cards)
    exact = exact_by_card(view)
    advice = advise_play(view, samples=300, seed=hint, workers=1)
    assert {c.card for c in advice.candidates} == set(exact)
    for c in advice.candidates:
        assert c.card is not None
        d = c.to_dict()
        p, mean = exact[c.card]
        assert d["samples"] == 300
        lo, hi = d["p_ci"]
        slack = 0.02  # a value held by under 1% of layouts may not be drawn at all
        assert lo - slack <= p <= hi + slack, (c.card, p, d)
        mlo, mhi = d["mean_ci"]
        assert mlo - slack - 0.05 <= mean <= mhi + slack + 0.05, (c.card, mean, d)


def test_play_estimates_would_catch_a_wrong_answer():
    """The agreement test can fail: against an exact answer of another position the
    intervals do not all hold."""
    a, b = late_view(1, 40), late_view(4, 42)
    advice = advise_play(a, samples=300, seed=1, workers=1)
    wrong = exact_by_card(b)
    misses = 0
    for c in advice.candidates:
        assert c.card is not None
        p, mean = wrong.get(c.card, (-1.0, -1.0))
        d = c.to_dict()
        if not (d["p_ci"][0] <= p <= d["p_ci"][1] and d["mean_ci"][0] <= mean <= d["mean_ci"][1]):
            misses += 1
    assert misses > 0


def test_misere_play_estimates_agree_with_exact_enumeration():
    view = late_view(7, 41, mode="miz")
    exact = exact_by_card(view)
    advice = advise_play(view, samples=200, seed=0, workers=1)
    for c in advice.candidates:
        assert c.card is not None
        p, _mean = exact[c.card]
        lo, hi = c.to_dict()["p_ci"]
        assert lo - 0.02 <= p <= hi + 0.02


DECL_DEAL = Deal.random(4)  # a deal whose samples solve quickly, with a target in doubt
DECL_VIEW = View.for_declaration(DECL_DEAL.hands[Seat.D], widow=DECL_DEAL.widow, rules="twelve")


def small_declaration(**kw):
    return advise_declaration(
        DECL_VIEW, **{"samples": 12, "seed": 4, "modes": ["S", "H"], "per_mode": 3, **kw}
    )


def test_declaration_same_answer_for_any_number_of_workers():
    one = small_declaration(workers=1).to_dict()
    two = small_declaration(workers=2).to_dict()
    assert one == two


def test_margin_budgets_run_out_on_the_same_layouts_for_any_number_of_workers(monkeypatch):
    """Where a screening budget runs out depends on the layout alone (each screening task
    starts on an empty table), not on what a worker's table learned before."""
    from solver.analysis import advice

    monkeypatch.setattr(advice, "MARGIN_FACTOR", 1)
    monkeypatch.setattr(advice, "MARGIN_FLOOR", 1 << 16)

    def outcome(workers: int) -> dict[str, tuple[dict[int, int], set[int]]]:
        run = small_declaration(workers=workers, samples=24)
        return {c.label(): (dict(c.levels), set(c.unsettled)) for c in run.candidates}

    one = outcome(1)
    assert any(unsettled for _, unsettled in one.values())  # some budget did run out
    assert outcome(2) == one == outcome(1)


def test_same_answer_on_a_local_dask_cluster():
    distributed = pytest.importorskip("distributed")
    local = small_declaration(workers=1).to_dict()
    play = late_view(2, 41)
    local_play = advise_play(play, samples=24, seed=3, workers=1).to_dict()
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert small_declaration(scheduler=client).to_dict() == local
        assert advise_play(play, samples=24, seed=3, scheduler=client).to_dict() == local_play


def test_recommendation_is_the_best_estimate_and_every_round_is_reported():
    advice = small_declaration(workers=2)
    d = advice.to_dict()
    full = [c for c in d["candidates"] if c["samples"] == advice.samples]
    best = max(full, key=lambda c: (c["p_target"], c["mean_tricks"]))
    rec = d["recommended"]
    assert (rec["p_target"], rec["mean_tricks"]) == (best["p_target"], best["mean_tricks"])
    assert d["candidates"][0] == rec
    assert d["rounds"][0]["candidates"] == 6 and d["rounds"][-1]["samples"] == 12
    assert all(type(c.mode) is Mode for c in advice.candidates)  # objects; strings in to_dict
    assert all(type(c["strain"]) is str for c in d["candidates"])
    for c in d["candidates"]:
        assert c["p_ci"][0] <= c["p_target"] <= c["p_ci"][1]
        if c["samples"] == advice.samples:  # finalists: solved exactly on every sample
            assert c["expected_score"] == pytest.approx(c["mean_tricks"] - 8, abs=1e-3)
        else:  # screened out on fewer samples by the two margin questions: no mean
            assert c["mean_tricks"] is None and c["samples"] < advice.samples


def test_declaration_agrees_with_direct_double_dummy_judging():
    """The tricks of a candidate on a sample are the engine's value of that position."""
    from solver.engine import solve
    from solver.engine.pool import task_rng

    advice = advise_declaration(DECL_VIEW, samples=3, seed=8, modes=["H"], per_mode=1, workers=1)
    c = advice.recommended
    assert c is not None and c.discard is not None
    assert c.exact
    for i in range(3):
        lay = DECL_VIEW.sample(task_rng(8, i))
        kept = (lay.hands[Seat.D] | lay.widow) - Hand(c.discard)
        deal = Deal([kept, lay.hands[Seat.E], lay.hands[Seat.M]])
        assert c.tricks[i] == solve(deal, "H", leader="E", seat="D")


def test_user_choice_is_scored_on_every_sample():
    mine = sorted(DECL_DEAL.hands[Seat.D], key=lambda c: -c.rank)[:4]  # throwing the top cards
    advice = small_declaration(workers=2, choice=("S", " ".join(map(str, mine))))
    user = [c for c in advice.candidates if c.user]
    assert len(user) == 1 and user[0].samples == 12
    assert sorted(user[0].discard) == sorted(map(str, mine))


def test_blind_discard_only_throws_own_cards():
    view = View.for_declaration(DEAL.hands[Seat.D], rules="card-return")
    advice = advise_declaration(view, samples=6, seed=1, modes=["S"], per_mode=3, workers=2)
    assert advice.question == "mode+discard"
    for c in advice.candidates:
        assert c.discard is not None
        assert Hand(c.discard).mask & ~DEAL.hands[Seat.D].mask == 0


def test_first_six_chooses_the_mode_only():
    six = Hand(list(DEAL.hands[Seat.E])[:6])
    view = View.for_declaration(six, rules="hungarian")
    advice = advise_declaration(view, samples=6, seed=1, modes=["S", "H", "N"], workers=2)
    assert advice.question == "mode"
    assert {c.mode for c in advice.candidates} == {"S", "H", "N"}
    assert all(c.discard is None and c.samples == 6 for c in advice.candidates)
    assert advice.target == 8


def test_bad_questions_are_clear_errors():
    with pytest.raises(SolverError, match="not allowed"):
        advise_declaration(DECL_VIEW, samples=2, modes=["N"])
    with pytest.raises(SolverError, match="samples"):
        advise_declaration(DECL_VIEW, samples=0)
    with pytest.raises(SolverError, match="not in the declarer"):
        outside = sorted(DECL_VIEW.rules.deck - DECL_DEAL.hands[Seat.D] - DECL_DEAL.widow)[:4]
        advise_declaration(DECL_VIEW, samples=2, choice=("S", " ".join(map(str, outside))), modes=["S"])
    with pytest.raises(SolverError, match="needs a view during the play"):
        advise_play(DECL_VIEW)
    view = late_view(1, 40)
    other = [s for s in Seat if s != view.seat][0]
    wrong = View.for_play(
        START[other], mode="S", seat=other, played=view.played, discard=DISCARD if other == Seat.D else ()
    )
    with pytest.raises(SolverError, match="is to play"):
        advise_play(wrong, samples=2)


def test_play_advice_interrupted_keeps_the_finished_samples():
    view = late_view(1, 40)

    def stop(done, total):
        if done >= 16:
            raise KeyboardInterrupt

    advice = advise_play(view, samples=64, seed=0, workers=1, progress=stop)
    assert advice.partial and advice.recommended is None
    assert all(c.samples == 16 for c in advice.candidates)


def known(tricks: int | None) -> int:
    """The tricks of an exact judging, which always knows them."""
    assert tricks is not None, "an exact judging left a sample's tricks unknown"
    return tricks


def test_screening_margins_agree_with_exact_solves():
    """The two null-window questions of a screening round give the same level as the exact
    tricks, and an exact solve told those levels returns the same tricks."""
    from solver.analysis.advice import Candidate, _DeclTask, _judge_declaration

    pool = advise_declaration(
        DECL_VIEW, samples=1, seed=0, modes=["S", "H"], per_mode=4, workers=1
    ).candidates
    choices = tuple((c.mode, c.discard) for c in pool)
    probe = Candidate(Mode.S, None, 8, False)
    for i in range(4):
        screened = _judge_declaration(_DeclTask(DECL_VIEW, 5, i, choices, exact=False))
        exact = _judge_declaration(_DeclTask(DECL_VIEW, 5, i, choices, exact=True))
        hinted = _judge_declaration(
            _DeclTask(DECL_VIEW, 5, i, choices, exact=True, known=tuple(level for _, level, _ in screened))
        )
        assert all(settled for _, _, settled in screened)  # the default budget sufficed here
        assert [level for _, level, _ in screened] == [probe.level_of(known(t)) for t, _, _ in exact]
        assert hinted == exact


def test_a_margin_past_its_budget_is_a_floor_asked_again_in_the_final_round(monkeypatch):
    """The screening's second question runs within a node budget: past it the level is the
    lower of the two it may be (1 reached, -1 missed), marked unsettled, and the final round
    asks it again in full, so the finalists' tricks are exact all the same."""
    from solver.analysis import advice
    from solver.analysis.advice import Candidate, _DeclTask, _judge_declaration

    pool = advise_declaration(
        DECL_VIEW, samples=1, seed=0, modes=["S", "H"], per_mode=4, workers=1
    ).candidates
    choices = tuple((c.mode, c.discard) for c in pool)
    probe = Candidate(Mode.S, None, 8, False)
    monkeypatch.setattr(advice, "MARGIN_FACTOR", 0)
    monkeypatch.setattr(advice, "MARGIN_FLOOR", 1)  # every search past its first poll stops
    unsettled = 0
    for i in range(4):
        screened = _judge_declaration(_DeclTask(DECL_VIEW, 5, i, choices, exact=False))
        exact = _judge_declaration(_DeclTask(DECL_VIEW, 5, i, choices, exact=True))
        for (_, level, settled), (tricks, _, _) in zip(screened, exact):
            true_level = probe.level_of(known(tricks))
            if settled:
                assert level == true_level
            else:
                unsettled += 1
                assert level == (1 if true_level >= 1 else -1)
    assert unsettled  # the budget did run out, or this test shows nothing

    unsettled_at: set[tuple[object, int]] = set()  # (choice, sample) screened past the budget
    reasked = 0

    def judge(task: _DeclTask) -> list[tuple[int | None, int, bool]]:
        nonlocal reasked
        out = _judge_declaration(task)
        for j, (choice, (_, _, settled)) in enumerate(zip(task.choices, out)):
            if not task.exact and not settled:
                unsettled_at.add((choice, task.sample))
            if task.exact and (choice, task.sample) in unsettled_at:
                assert task.known[j] is None  # asked again in full, not pinned by the floor
                reasked += 1
        return out

    monkeypatch.setattr(advice, "_judge_declaration", judge)
    cut = advise_declaration(DECL_VIEW, samples=12, seed=3, modes=["S", "H"], per_mode=3, workers=1)
    assert reasked  # some finalist's margin ran out while screening
    finals = [c for c in cut.candidates if c.exact]
    assert finals and all(not c.unsettled for c in finals)
    for c in finals:
        for i, tricks in c.tricks.items():
            alone = _judge_declaration(_DeclTask(DECL_VIEW, 3, i, ((c.mode, c.discard),), exact=True))
            assert tricks == alone[0][0]


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"samples": True}, "samples"),
        ({"samples": 2.0}, "samples"),
        ({"samples": 10**7}, "samples"),
        ({"seed": 1.5}, "seed"),
        ({"seed": 2**300}, "seed"),
        ({"progress": "yes"}, "progress"),
        ({"finalists": 0}, "finalists"),  # looped forever, growing memory
        ({"finalists": -1}, "finalists"),
        ({"finalists": 1.5}, "finalists"),
        ({"per_mode": 0}, "per_mode"),
        ({"modes": []}, "modes"),
        ({"modes": "S"}, "modes"),
    ],
)
def test_strict_arguments_fail_before_any_work(kwargs, message):
    with pytest.raises(SolverError, match=message):
        advise_declaration(DECL_VIEW, **kwargs)
    with pytest.raises(SolverError, match="needs a View"):
        advise_play("not a view")  # type: ignore[arg-type]


def test_frame_and_html_show_every_candidate_and_mark_the_recommendation():
    advice = small_declaration(workers=1)
    frame = advice.to_frame()
    d = advice.to_dict()
    assert len(frame) == len(d["candidates"])
    assert list(frame["p_target"]) == [c["p_target"] for c in d["candidates"]]
    assert list(frame["p_low"]) == [c["p_ci"][0] for c in d["candidates"]]
    assert frame["recommended"].sum() == 1 and bool(frame["recommended"].iloc[0])
    page = advice._repr_html_()
    assert page.count("<tr") == len(d["candidates"]) + 1  # a header row, one row per candidate
    assert page.count('style="font-weight:bold"') == 1
    assert "♠" in page or "♥" in page
