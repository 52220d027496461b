"""What a build's workers run: their set-up, and the tasks of an expected build's parts (`bactree.pipeline.subproblems`).

Each worker process (or the build's own, for a small game) is set up once
with the build's answer table (`_install_solver`), then runs the tasks it
is handed: a whole part (`_solve_part`: greedy total, then the exact
search, or `refine` with a budget), a large part's greedy total
(`_greedy_part`), one of its second guesses (`_solve_branch`) or some of
the parts a second guess leaves (`_solve_pieces`), or a tree within a
height (`_find_part`). The exact tasks share the worker's one
search (`_worker_cost_search`), whose memo serves every task it takes
and, for a build with a resume file, starts from and keeps to the build's
memo file (`bactree.search.cost.memo_store`).
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ..game import Game
from .resume import FoundPart, PartResult
from ..search import DEEPER_CALLS, TOTAL_GUESSES, CostSearch, Solver, TreeFinder, greedy_total, refine
from ..search.cost import memo_store
from ..treefile import Node

Progress = Callable[[str], None]

_worker_solver: Solver | None = None
_worker_search: CostSearch | None = None
_worker_memo: Path | None = None


def _install_solver(
    game: Game, table: np.ndarray, hard: bool, memo: Path | None = None, by_secret: np.ndarray | None = None
) -> None:
    """Worker set-up, once per process: a solver over the build's answer table (shared, not rebuilt), and its
    transpose `by_secret` when the rule has one of its own (Wordle: not transposed again in every worker).

    With `memo` (an exact build's memo file, `bactree.search.cost.memo_store`) the
    exact tasks' search starts from the values the file holds and keeps
    what it proves slowly in its own file beside it (MEMO.PID).
    """
    global _worker_solver, _worker_search, _worker_memo
    _worker_solver, _worker_search, _worker_memo = Solver(game, hard=hard, table=table, by_secret=by_secret), None, memo


def _worker_report(tag: str) -> Progress:
    """A worker's progress: lines to its stderr, tagged with the task's part and ending with the worker's CPU time so
    far (workers write there directly; the search writes a line at most every few seconds, so the lines alone do not
    time anything).

    Each line goes out in one write, its newline included: stderr writes through, so `print` would make two, and a
    worker killed between them (the out-of-memory killer) would leave the parent's last line glued to its own.
    """

    def report(message: str) -> None:
        sys.stderr.write(f"  [{tag}] {message} ({time.process_time():.0f}s of CPU)\n")
        sys.stderr.flush()

    return report


def _solve_part(
    game: Game, first: int, part: np.ndarray, depth: int, budget: int | None, answer: str, verbose: bool,
    greedy: str = "bound", deeper_calls: int = DEEPER_CALLS,
) -> PartResult:
    """Worker: greedy tree, then exact search under its cost; with a budget, `bactree.search.cost.refine`.

    The exact search is the worker's own (`_worker_cost_search`: its memo, and the build's memo file, serve every
    part it takes); a budgeted one starts afresh, since its budget counts the sets it searches.
    """
    solver = _worker_solver
    assert solver is not None and solver.game == game, "worker not set up for this game"
    start = time.perf_counter()
    report = _worker_report(f"{game.codes[first]} {answer}") if verbose else None
    history = (first,)
    if budget is not None:
        search = CostSearch(solver, TOTAL_GUESSES, progress=report, greedy_rule=greedy)
        cost, lower, tree = refine(search, part, depth, history, budget, deeper_calls)
        return PartResult(answer, len(part), cost, lower, cost == lower, tree,
                          time.perf_counter() - start, search.nodes_searched)
    search = _worker_cost_search()
    search.progress, search.greedy_rule, before = report, greedy, search.nodes_searched
    greedy_cost, _ = greedy_total(search, part, depth, history)
    if report:
        report(f"greedy tree: total {greedy_cost} ({time.perf_counter() - start:.1f}s); now the exact search")
    cost = search.solve(part, depth, greedy_cost + 1, history, kernel=False)
    tree = search.tree(part, depth, history)
    if search.keeper is not None:
        search.keeper.save()
    return PartResult(answer, len(part), cost, cost, True, tree, time.perf_counter() - start,
                      search.nodes_searched - before)


@dataclass
class GreedyResult:
    """A large part's greedy tree total: the bound its second-guess tasks start from."""

    answer: str
    upper: int
    seconds: float


def _worker_cost_search() -> CostSearch:
    """The worker's one search for its exact tasks (whole parts, second guesses, greedy totals): one memo for all."""
    global _worker_search
    assert _worker_solver is not None, "worker not set up"
    if _worker_search is None:
        _worker_search = CostSearch(_worker_solver, TOTAL_GUESSES)
        if _worker_memo is not None:
            if _worker_memo.exists():  # `memo_store.gather` made it, of this search code
                game, hard = _worker_solver.game, _worker_solver.hard
                memo_store.restore(_worker_search, memo_store.read_memo(_worker_memo, game, TOTAL_GUESSES.name, hard) or {})
            own = _worker_memo.with_name(f"{_worker_memo.name}.{os.getpid()}")
            _worker_search.keeper = memo_store.MemoKeeper(_worker_search, own)
    return _worker_search


def _greedy_part(game: Game, first: int, part: np.ndarray, depth: int, answer: str, greedy: str) -> GreedyResult:
    """Worker: the total of a large part's greedy tree (rule `greedy`), so that the build process never waits on one."""
    assert _worker_solver is not None and _worker_solver.game == game, "worker not set up for this game"
    search = _worker_cost_search()
    search.greedy_rule = greedy  # the rule steers greedy trees only: the second-guess tasks' values do not depend on it
    start = time.perf_counter()
    upper, _ = greedy_total(search, part, depth, (first,))
    return GreedyResult(answer, upper, time.perf_counter() - start)


@dataclass
class BranchResult:
    """One second guess of a large part: its exact total below `bound`, else a proven bound >= `bound`."""

    answer: str
    guess: int
    bound: int
    value: int
    tree: Node | None  # the part's tree with this second guess, when valued exactly
    seconds: float
    sets: int


def _solve_branch(
    game: Game, first: int, part: np.ndarray, depth: int, guess: int, bound: int, answer: str, verbose: bool = False
) -> BranchResult:
    """Worker: a large part's value with a fixed second guess; one search per process keeps its memo across tasks.

    With `verbose` the search's progress lines go to stderr, tagged with the part and the second guess.
    """
    assert _worker_solver is not None and _worker_solver.game == game, "worker not set up for this game"
    search = _worker_cost_search()
    search.progress = _worker_report(f"{game.codes[first]} {answer} then {game.codes[guess]}") if verbose else None
    start, before = time.perf_counter(), search.nodes_searched
    value = search.guess_value(part, depth, guess, bound, (first,))
    tree = search.tree_after(part, depth, guess, (first,)) if value < bound else None
    if search.keeper is not None:
        search.keeper.save()
    return BranchResult(answer, guess, bound, value, tree, time.perf_counter() - start, search.nodes_searched - before)


@dataclass
class PiecesResult:
    """Some of the parts a large part's second guess leaves (pieces), each valued below its bound or refuted."""

    answer: str
    guess: int
    values: list[tuple[int, int, Node | None]]  # per piece: its answer slot, value (or bound), tree when below its bound
    seconds: float
    sets: int


def _solve_pieces(
    game: Game, first: int, part: np.ndarray, depth: int, guess: int, pieces: list[tuple[int, int]], answer: str,
    verbose: bool = False,
) -> PiecesResult:
    """Worker: the parts `guess` leaves of a large part with these answer slots, each below its bound (`pieces`).

    Each piece is searched and read back as `CostSearch.tree_after` would
    under the guess (`bactree.pipeline.branching.GuessPieces` puts them together).
    """
    solver = _worker_solver
    assert solver is not None and solver.game == game, "worker not set up for this game"
    search = _worker_cost_search()
    search.progress = _worker_report(f"{game.codes[first]} {answer} then {game.codes[guess]}") if verbose else None
    start, before = time.perf_counter(), search.nodes_searched
    by_slot = {int(solver.table[guess, piece[0]]): piece for piece in solver.split(part, guess)}
    after = (first, guess)
    values = []
    for slot, bound in pieces:
        piece = by_slot[slot]
        value = search.solve(piece, depth - 1, bound, after)
        values.append((slot, value, search.tree(piece, depth - 1, after) if value < bound else None))
    if search.keeper is not None:
        search.keeper.save()
    return PiecesResult(answer, guess, values, time.perf_counter() - start, search.nodes_searched - before)


def _find_part(
    game: Game, first: int, part: np.ndarray, depth: int, budget: int | None, answer: str, verbose: bool
) -> FoundPart:
    """Worker: a tree of `part` within `depth` by iterative broadening (a fresh finder: the same tree in any worker)."""
    solver = _worker_solver
    assert solver is not None and solver.game == game, "worker not set up for this game"
    start = time.perf_counter()
    report = _worker_report(f"{game.codes[first]} {answer}") if verbose else None
    finder = TreeFinder(solver, report, budget)
    found = finder.find(part, depth, (first,)) >= 0
    tree = finder.tree(part, depth, (first,)) if found else None
    return FoundPart(answer, depth, len(part), tree, time.perf_counter() - start, finder.work)
