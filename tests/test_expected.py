"""Expected-length builds split into subproblems: resume, budget and lower bounds."""

from __future__ import annotations

import re
import subprocess
import sys

import orjson
import pytest
from naive_search import min_cost_tree
from typer.testing import CliRunner

from bactree.pipeline import branching, part_tasks, subproblems
from bactree.pipeline.build import build
from bactree.cli.main import app
from bactree.game import Game
from bactree.search import TOTAL_GUESSES, Solver, greedy_total, greedy_tree
from bactree.search.cost import search as cost
from bactree.treefile import check_document, dumps

GAME = Game(3, "01234", False)  # the first guess is forced by symmetry: 7 subproblems


def test_interrupted_build_resumes_to_the_same_bytes(tmp_path):
    fresh = dumps(build(GAME, "expected", workers=1).document)
    checkpoint = tmp_path / "tree.json.resume"

    def interrupt_after_two(message: str) -> None:
        if message.startswith("2/7"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build(GAME, "expected", progress=interrupt_after_two, workers=1, checkpoint=checkpoint)
    saved = orjson.loads(checkpoint.read_bytes())
    assert len(saved["parts"]) == 2
    messages = []
    resumed = build(GAME, "expected", progress=messages.append, workers=1, checkpoint=checkpoint, resume=True)
    assert "resuming: 2 of 7 subproblems already done" in messages
    assert dumps(resumed.document) == fresh


def test_a_build_stopped_before_any_part_ends_can_be_resumed(tmp_path, monkeypatch):
    """The checkpoint is written before the first task starts: the memo files an exact build keeps need it."""
    fresh = dumps(build(GAME, "expected", workers=1).document)
    checkpoint = tmp_path / "tree.json.resume"

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(subproblems, "_run_subproblems", stopped)
        with pytest.raises(KeyboardInterrupt):
            build(GAME, "expected", workers=1, checkpoint=checkpoint)
    assert orjson.loads(checkpoint.read_bytes())["parts"] == []
    messages = []
    resumed = build(GAME, "expected", progress=messages.append, workers=1, checkpoint=checkpoint, resume=True)
    assert "resuming: 0 of 7 subproblems already done" in messages
    assert dumps(resumed.document) == fresh


def test_budget_keeps_best_effort_trees_with_a_proven_lower_bound(monkeypatch):
    game = Game(3, "0123456", False)
    optimum = build(game, "expected", workers=1).stats["total_guesses"]  # exact: checked on smaller games
    # Small sets are otherwise solved exactly even past the budget.
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 2)
    doc = build(game, "expected", budget=0, workers=1).document
    check_document(doc)
    stats = doc["stats"]
    assert doc["optimal"] is False
    assert stats["lower_bound"] <= optimum < stats["total_guesses"]
    assert stats["lower_bound"] > 2 * 210 - 1  # better than one guess for every secret


def test_budget_proves_optimality_when_the_bounds_meet(monkeypatch):
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 2)
    doc = build(GAME, "expected", budget=0, workers=1).document
    assert doc["optimal"] is True and "lower_bound" not in doc["stats"]
    assert doc["stats"]["total_guesses"] == min_cost_tree(GAME, None, per_secret=True)[0]


def test_cli_interrupted_build_writes_no_tree_and_resume_needs_a_checkpoint(tmp_path):
    out = tmp_path / "t.json"
    result = CliRunner().invoke(app, ["build", "-O", "expected", "-n", "3", "--symbols", "01234", "-o", str(out), "--resume", "-q"])
    assert result.exit_code == 2
    assert "nothing to resume" in result.output
    assert not out.exists()
    result = CliRunner().invoke(app, ["build", "-O", "expected", "-n", "3", "--symbols", "01234", "-o", str(out), "-q", "-j", "2"])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "t.json.resume").exists()
    assert orjson.loads(out.read_bytes())["stats"]["total_guesses"] == min_cost_tree(GAME, None, True)[0]


def test_quiet_split_build_prints_only_the_summary(tmp_path):
    """`--quiet` silences the worker processes too (they write to the real stderr, not the runner's)."""
    out = tmp_path / "t.json"
    command = [sys.executable, "-c", "from bactree.cli.main import app; app()", "build", "-O", "expected", "-n", "3",
               "--symbols", "01234", "-o", str(out), "-j", "2"]
    quiet = subprocess.run([*command, "-q"], capture_output=True, text=True, check=True)
    assert quiet.stderr == ""
    assert quiet.stdout.startswith(f"{out}: ") and "optimal" in quiet.stdout
    loud = subprocess.run(command, capture_output=True, text=True, check=True)
    assert "greedy tree" in loud.stderr


@pytest.mark.parametrize("game", [GAME, Game(3, "0123456", False), Game(4, "012345", False)], ids=str)
def test_parts_split_by_second_guess_give_the_same_bytes(game, monkeypatch):
    """Two workers sharing large parts one second guess at a time build the very tree one worker does."""
    alone = dumps(build(game, "expected", workers=1).document)
    monkeypatch.setattr(subproblems, "BRANCH_MIN_SECRETS", 5)
    messages: list[str] = []
    shared = build(game, "expected", workers=2, progress=messages.append)
    assert any("searched one per task" in m for m in messages)
    assert any(" then " in m and ": total " in m for m in messages)  # second guesses valued by the workers
    assert dumps(shared.document) == alone


def test_second_guess_tasks_report_progress_tagged_with_their_guess(monkeypatch, capfd):
    """Workers valuing one second guess of a large part print the search's progress, tagged with part and guess,
    ending with the worker's CPU time (the lines come at most every few seconds: they cannot time the work)."""
    monkeypatch.setattr(subproblems, "BRANCH_MIN_SECRETS", 5)
    monkeypatch.setattr(cost, "REPORT_SECONDS", 0.0)  # the forked workers inherit it: every report is printed
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 2)  # so that a second guess's parts are searched where it reports
    build(GAME, "expected", workers=2, progress=lambda message: None)
    assert re.search(r"\[\w+ \w+ then \w+\] at \w+ \w+.* \(\d+s of CPU\)$", capfd.readouterr().err, re.M)
    build(GAME, "expected", workers=2)  # no progress asked: the tasks stay silent
    assert capfd.readouterr().err == ""


def test_greedy_keeps_within_its_cap_and_gives_up_cleanly_below_it():
    from bactree.treefile import Objective, document

    solver = Solver(GAME)
    height = solver.min_height()
    search = cost.CostSearch(solver, TOTAL_GUESSES)
    total, root = greedy_tree(search, solver.all_guesses, height)
    stats = document(GAME, Objective("expected"), False, root)["stats"]
    assert stats["max_guesses"] <= height and stats["total_guesses"] == total
    assert greedy_tree(search, solver.all_guesses[:3], 1)[0] >= cost.INFINITE  # no tree of 1 guess for 3 secrets
    assert greedy_tree(search, solver.all_guesses, height - 1)[0] >= cost.INFINITE


@pytest.mark.parametrize("kernel_max", [30, 2])
@pytest.mark.parametrize("game", [GAME, Game(3, "1234", True), Game(4, "012345", False)])
def test_greedy_total_is_the_greedy_trees_cost_and_first_guess(monkeypatch, game: Game, kernel_max: int):
    """`greedy_total` (no tree built, small sets valued by the kernel) against `greedy`'s tree on every first guess's
    parts and at the root, with room and with the least height (where some guesses cannot keep within it)."""
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", kernel_max)
    solver = Solver(game)
    for depth in (solver.num_codes, solver.min_height()):
        for first in (None, *range(0, solver.num_codes, 7)):
            history = () if first is None else (first,)
            sets = [solver.all_guesses] if first is None else list(solver.split(solver.all_guesses, first))
            for subset in sets:
                d = depth if first is None else depth - 1
                total, guess = greedy_total(cost.CostSearch(solver, TOTAL_GUESSES), subset, d, history)
                expected, root = greedy_tree(cost.CostSearch(solver, TOTAL_GUESSES), subset, d, history)
                assert total == expected
                if total < cost.INFINITE and len(subset) > kernel_max:
                    assert game.codes[guess] == root["guess"]
                elif len(subset) <= kernel_max and len(subset) > 1:
                    assert guess == -1


def test_a_large_parts_other_second_guesses_wait_for_a_first_value() -> None:
    """One second guess runs at a time until one has a value below the greedy total; the others then start below it."""
    part = branching.BranchedPart("0B1C", None, 40, [7, 3, 9], [100, 101, 102], upper=120)
    assert part.next_task() == (7, 121)
    assert part.next_task() is None  # 7 still running, nothing valued yet
    part.record(part_tasks.BranchResult("0B1C", 7, 121, 121, None, 0.0, 0))  # refuted: no tree below 121
    assert part.next_task() == (3, 121)
    assert part.next_task() is None
    part.record(part_tasks.BranchResult("0B1C", 3, 121, 110, {"guess": "x"}, 0.0, 0))
    assert part.next_task() == (9, 110)  # valued: the rest start at once, below the best so far


def test_a_split_guess_hands_each_piece_the_bound_the_others_floors_leave() -> None:
    """Each piece must come below the bound less the guess's cost and the other pieces' floors; large ones go alone."""
    pieces = [(4, "0B1C", 40, 90), (7, "1B0C", 3, 5), (9, "0B2C", 1, 1)]  # slot, answer, size, floor
    split = branching.GuessPieces("0B1C", 11, "0123", bound=200, cost=60, pieces=pieces)
    assert split.base == 156
    assert split.groups() == [[(4, 134)], [(7, 49), (9, 45)]]
    done = part_tasks.PiecesResult("0B1C", 11, [(7, 6, {"guess": "a"}), (9, 1, {"guess": "b"})], 1.0, 2)
    assert split.record(done) is None  # the large piece is still out
    whole = split.record(part_tasks.PiecesResult("0B1C", 11, [(4, 100, {"guess": "c"})], 2.0, 3))
    assert (whole.value, whole.bound, whole.seconds, whole.sets) == (167, 200, 3.0, 5)
    assert whole.tree == {"guess": "0123", "next": {"0B1C": {"guess": "c"}, "0B2C": {"guess": "b"}, "1B0C": {"guess": "a"}}}
    refuted = branching.GuessPieces("0B1C", 11, "0123", bound=200, cost=60, pieces=pieces)
    refuted.record(done)
    late = refuted.record(part_tasks.PiecesResult("0B1C", 11, [(4, 134, None)], 2.0, 3))  # reached its bound
    assert late.value >= 200 and late.tree is None


@pytest.mark.parametrize("small_piece", [30, 3])
def test_a_guess_valued_piece_by_piece_gets_one_tasks_value_and_tree(monkeypatch, small_piece: int) -> None:
    """`GuessPieces` over `_solve_pieces` against `CostSearch.guess_value` and `tree_after` on one large part,
    below bounds loose, exact and too tight: the same value and tree below the bound, a proven refutation above."""
    monkeypatch.setattr(branching, "SMALL_PIECE", small_piece)
    game = Game(4, "012345", False)
    solver = Solver(game)
    first = 0
    part = max(solver.split(solver.all_guesses, first), key=len)
    depth = solver.min_height() - 1
    part_tasks._install_solver(game, solver.table, False)
    guesses, _, _ = cost.CostSearch(solver, TOTAL_GUESSES).candidates(part, depth, (first,))
    for guess in guesses[:4].tolist():
        reference = cost.CostSearch(solver, TOTAL_GUESSES)
        value = reference.guess_value(part, depth, guess, cost.INFINITE, (first,))
        for bound in (value + 40, value + 1, value, value - 3):
            split = branching.GuessPieces.split(cost.CostSearch(solver, TOTAL_GUESSES), "P", part, depth, guess, bound)
            results = [split.record(part_tasks._solve_pieces(game, first, part, depth, guess, group, "P"))
                       for group in split.groups()]
            assert all(r is None for r in results[:-1])
            whole = results[-1]
            if bound > value:
                assert whole.value == value
                assert whole.tree == reference.tree_after(part, depth, guess, (first,))
            else:
                assert whole.value >= bound and whole.tree is None
